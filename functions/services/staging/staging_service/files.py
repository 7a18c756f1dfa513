"""The staging tools: each one a thin use of the account-scoped store."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from mcp_platform import __version__
from mcp_platform.contracts.staging import (
    PRESIGNED_MAX_BYTES,
    UPLOAD_MAX_BYTES,
    IdInput,
    UploadInput,
    UploadUrlInput,
)
from mcp_platform.protocol.binary import decode_base64, sniff_media_type
from mcp_platform.protocol.errors import ToolError
from mcp_platform.storage.staging_store import MAX_TTL_S, MIN_TTL_S, iso_utc, store_for

if TYPE_CHECKING:
    from mcp_platform.contracts._common import StatusInput
    from mcp_platform.runtime.service import ServiceContext


def upload(arguments: UploadInput, ctx: ServiceContext) -> dict[str, Any]:
    data = decode_base64(arguments.content_base64, UPLOAD_MAX_BYTES)
    media_type = arguments.media_type or sniff_media_type(data) or "application/octet-stream"
    store = store_for(ctx.staging_bucket)
    obj = store.put(ctx.account_id, data, media_type.lower(), filename=arguments.filename, ttl_s=arguments.ttl_s)
    return obj.to_wire(store.presign_get(ctx.account_id, obj))


def upload_url(arguments: UploadUrlInput, ctx: ServiceContext) -> dict[str, Any]:
    obj, url, headers = store_for(ctx.staging_bucket).presign_put(
        ctx.account_id,
        arguments.size,
        arguments.media_type.lower(),
        filename=arguments.filename,
        ttl_s=arguments.ttl_s,
    )
    return {
        "id": obj.id,
        "upload_url": url,
        "method": "PUT",
        "headers": headers,
        "size": obj.size,
        "media_type": obj.media_type,
        "expires_at": iso_utc(obj.expires_at),
    }


def get(arguments: IdInput, ctx: ServiceContext) -> dict[str, Any]:
    store = store_for(ctx.staging_bucket)
    obj = store.head(ctx.account_id, arguments.id)
    return obj.to_wire(store.presign_get(ctx.account_id, obj))


def delete(arguments: IdInput, ctx: ServiceContext) -> dict[str, Any]:
    store_for(ctx.staging_bucket).delete(ctx.account_id, arguments.id)
    return {"id": arguments.id, "deleted": True}


def status(_arguments: StatusInput, ctx: ServiceContext) -> dict[str, Any]:
    out: dict[str, Any] = {
        "ok": True,
        "backend": "s3",
        "limits": {
            "upload_max_bytes": UPLOAD_MAX_BYTES,
            "upload_url_max_bytes": PRESIGNED_MAX_BYTES,
            "min_ttl_s": MIN_TTL_S,
            "max_ttl_s": MAX_TTL_S,
        },
        "version": __version__,
    }
    try:
        out["objects"] = store_for(ctx.staging_bucket).count(ctx.account_id)
    except ToolError as exc:
        out.update(ok=False, error=exc.message)
    except Exception as exc:  # a status tool reports the backend's failure instead of failing itself
        out.update(ok=False, error=f"the staging bucket is unreachable ({type(exc).__name__})")
    return out
