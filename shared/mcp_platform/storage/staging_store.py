"""Staged objects: short-lived binary files in one S3 bucket, private to an account.

Every key is `<account_id>/<staging id>` and is built here from the caller's
account, never from input, so one account can never name, list or delete
another's objects. An object carries its expiry in its S3 metadata; an expired
object is treated as gone even before the bucket's lifecycle rule removes it.

A missing key is "not found" whether S3 says 404 or 403: without `s3:ListBucket`,
S3 answers AccessDenied for a key that does not exist, and granting ListBucket
only to get a 404 would let every service enumerate every account's keys. The
key is always under the caller's own prefix, so a 403 can only mean "no such
object for you" — or a broken policy, which is logged as a warning.

One store per bucket and container (`store_for(bucket)`, the bucket being the function's
`STAGING_BUCKET` setting); its S3 client is built lazily from the standard AWS environment
(`AWS_ENDPOINT_URL_S3` points it at the local moto server). Tests inject their own client or call
`forget_stores()`.
"""

from __future__ import annotations

import re
import secrets
import time
from dataclasses import dataclass
from datetime import UTC, datetime
from functools import cache
from typing import TYPE_CHECKING, Any
from urllib.parse import quote, unquote

from mcp_platform.contracts._staging import DEFAULT_TTL_S, MAX_TTL_S, MIN_TTL_S, STAGED_OBJECT_SCHEMA, STAGING_ID
from mcp_platform.protocol.errors import ErrorCode, ToolError
from mcp_platform.runtime.observability import logger
from mcp_platform.storage import aws

if TYPE_CHECKING:
    from botocore.exceptions import ClientError
    from mypy_boto3_s3 import S3Client

_ACCOUNT_ID = re.compile(r"^[A-Za-z0-9._:@-]{1,128}$")

__all__ = [
    "DEFAULT_TTL_S",
    "MAX_TTL_S",
    "MIN_TTL_S",
    "STAGED_OBJECT_SCHEMA",
    "STAGING_ID",
    "StagedObject",
    "StagingStore",
    "forget_stores",
    "iso_utc",
    "new_staging_id",
    "store_for",
]
"""The constants live in `contracts._staging` (contracts use them without loading the store); re-exported here."""
_META_EXPIRES = "expires-at"
_META_FILENAME = "filename"


@dataclass(frozen=True)
class StagedObject:
    """One stored object as a tool reports it."""

    id: str
    size: int
    media_type: str
    expires_at: float
    """Unix seconds after which the object is gone."""
    filename: str | None = None

    def to_wire(self, url: str) -> dict[str, Any]:
        """`{id, url, size, media_type, expires_at, filename?}` (the `STAGED_OBJECT_SCHEMA` shape)."""
        out: dict[str, Any] = {
            "id": self.id,
            "url": url,
            "size": self.size,
            "media_type": self.media_type,
            "expires_at": iso_utc(self.expires_at),
        }
        if self.filename:
            out["filename"] = self.filename
        return out


def iso_utc(ts: float) -> str:
    return datetime.fromtimestamp(ts, UTC).isoformat(timespec="seconds").replace("+00:00", "Z")


def new_staging_id() -> str:
    return f"stg_{secrets.token_hex(16)}"


class StagingStore:
    """Account-scoped access to the staging bucket.

    Examples:
        >>> store = StagingStore("my-bucket", aws.client("s3"))
        >>> obj = store.put("acct_1", b"%PDF-...", "application/pdf", filename="a.pdf")
        >>> store.presign_get("acct_1", obj)
    """

    def __init__(self, bucket: str, client: S3Client) -> None:
        self.bucket = bucket
        self.client = client

    def put(
        self,
        account_id: str,
        data: bytes,
        media_type: str,
        *,
        filename: str | None = None,
        ttl_s: int = DEFAULT_TTL_S,
    ) -> StagedObject:
        """Store `data` under a new id; it expires `ttl_s` seconds from now."""
        obj = StagedObject(new_staging_id(), len(data), media_type, time.time() + _clamp_ttl(ttl_s), filename)
        self.client.put_object(
            Bucket=self.bucket,
            Key=_key(account_id, obj.id),
            Body=data,
            ContentType=media_type,
            Metadata=_metadata(obj),
        )
        return obj

    def key_of(self, account_id: str, staging_id: str) -> str:
        """The object key of a staged file, for AWS services that read it from S3 themselves (Transcribe)."""
        return _key(account_id, staging_id)

    def presign_put(
        self, account_id: str, size: int, media_type: str, *, filename: str | None, ttl_s: int
    ) -> tuple[StagedObject, str, dict[str, str]]:
        """A new id with a presigned PUT URL and the headers the uploader must send.

        Length and type are signed, so S3 rejects a body of another size: the
        declared `size` is the cap.
        """
        obj = StagedObject(new_staging_id(), size, media_type, time.time() + _clamp_ttl(ttl_s), filename)
        metadata = _metadata(obj)
        url = self.client.generate_presigned_url(
            "put_object",
            Params={
                "Bucket": self.bucket,
                "Key": _key(account_id, obj.id),
                "ContentType": media_type,
                "ContentLength": size,
                "Metadata": metadata,
            },
            ExpiresIn=_url_lifetime(obj),
            HttpMethod="PUT",
        )
        headers = {"Content-Type": media_type, **{f"x-amz-meta-{k}": v for k, v in metadata.items()}}
        return obj, url, headers

    def head(self, account_id: str, staging_id: str) -> StagedObject:
        """Metadata of a live object; `ToolError(not_found)` when absent or expired."""
        from botocore.exceptions import ClientError  # with the client's first call: botocore stays out of init

        try:
            reply = self.client.head_object(Bucket=self.bucket, Key=_key(account_id, staging_id))
        except ClientError as exc:
            raise _not_found_or(exc, staging_id) from None
        meta = reply.get("Metadata", {})
        expires_at = float(meta.get(_META_EXPIRES, 0))
        if expires_at <= time.time():
            raise _not_found(staging_id)
        filename = meta.get(_META_FILENAME)
        return StagedObject(
            staging_id,
            int(reply["ContentLength"]),
            reply.get("ContentType") or "application/octet-stream",
            expires_at,
            unquote(filename) if filename else None,
        )

    def read(self, account_id: str, staging_id: str, max_bytes: int) -> tuple[StagedObject, bytes]:
        """The object's bytes; `ToolError(invalid_arguments)` when larger than `max_bytes`."""
        obj = self.head(account_id, staging_id)
        if obj.size > max_bytes:
            raise ToolError(
                f"staged object {staging_id} is {obj.size} bytes; this input accepts at most {max_bytes}",
                ErrorCode.INVALID_ARGUMENTS,
            )
        from botocore.exceptions import ClientError

        try:
            body = self.client.get_object(Bucket=self.bucket, Key=_key(account_id, staging_id))["Body"]
        except ClientError as exc:  # deleted or expired by the lifecycle rule since the HEAD
            raise _not_found_or(exc, staging_id) from None
        return obj, body.read(max_bytes + 1)[:max_bytes]

    def presign_get(self, account_id: str, obj: StagedObject) -> str:
        """A fresh GET URL valid until the object expires (at most a day)."""
        return str(
            self.client.generate_presigned_url(
                "get_object",
                Params={"Bucket": self.bucket, "Key": _key(account_id, obj.id)},
                ExpiresIn=_url_lifetime(obj),
            )
        )

    def delete(self, account_id: str, staging_id: str) -> None:
        """Remove a live object; `ToolError(not_found)` when the account has no such object."""
        self.head(account_id, staging_id)
        self.client.delete_object(Bucket=self.bucket, Key=_key(account_id, staging_id))

    def count(self, account_id: str, limit: int = 1000) -> int:
        """How many objects (live or awaiting lifecycle) the account holds, up to `limit`."""
        reply = self.client.list_objects_v2(Bucket=self.bucket, Prefix=_prefix(account_id), MaxKeys=limit)
        return int(reply.get("KeyCount", 0))


def store_for(bucket: str) -> StagingStore:
    """The container's store of `bucket` (the function's `STAGING_BUCKET`, `ServiceContext.staging_bucket`).

    An empty `bucket` is a function whose template block stages nothing: a clear `upstream_unavailable`.
    """
    if not bucket:
        raise ToolError("staging is not configured (STAGING_BUCKET is unset)", ErrorCode.UPSTREAM_UNAVAILABLE)
    return _store(bucket)


@cache
def _store(bucket: str) -> StagingStore:
    from botocore.config import Config

    # Path-style URLs work against any endpoint, the local moto server on 127.0.0.1 included.
    config = Config(signature_version="s3v4", s3={"addressing_style": "path"}, retries={"mode": "standard"})
    return StagingStore(bucket, aws.configured_client("s3", config))


def forget_stores() -> None:
    """Drop the container's stores and their clients (tests: a fresh moto, another endpoint)."""
    _store.cache_clear()


def _key(account_id: str, staging_id: str) -> str:
    if not STAGING_ID.match(staging_id):
        raise ToolError(f"id: {staging_id!r} is not a staging id (stg_ + 32 hex digits)", ErrorCode.INVALID_ARGUMENTS)
    return _prefix(account_id) + staging_id


def _prefix(account_id: str) -> str:
    # The account id comes from the router, never from arguments; refusing odd ones keeps
    # a "/" or ".." from ever reaching into another account's prefix.
    if not _ACCOUNT_ID.match(account_id):
        raise ToolError("staging refused: the caller's account id is not usable as a key prefix", ErrorCode.INTERNAL)
    return f"{account_id}/"


def _metadata(obj: StagedObject) -> dict[str, str]:
    meta = {_META_EXPIRES: str(int(obj.expires_at))}
    if obj.filename:
        meta[_META_FILENAME] = quote(obj.filename, safe="")
    return meta


def _clamp_ttl(ttl_s: int) -> int:
    return max(MIN_TTL_S, min(MAX_TTL_S, ttl_s))


def _url_lifetime(obj: StagedObject) -> int:
    return max(1, int(obj.expires_at - time.time()))


_MISSING = frozenset({"404", "NoSuchKey", "NotFound"})
_DENIED = frozenset({"403", "AccessDenied"})


def _not_found_or(exc: ClientError, staging_id: str) -> Exception:
    """`not_found` for a missing (404) or, without ListBucket, denied (403) key; else `exc` itself."""
    code = str(exc.response.get("Error", {}).get("Code", ""))
    if code in _DENIED:
        # Expected for a missing id when the function has no s3:ListBucket; a policy error looks the same.
        logger.warning("S3 denied access to a staged key under the caller's prefix; answered not found")
    if code in _MISSING or code in _DENIED:
        return _not_found(staging_id)
    return exc


def _not_found(staging_id: str) -> ToolError:
    return ToolError(f"no staged object {staging_id} for this account (it may have expired)", ErrorCode.NOT_FOUND)
