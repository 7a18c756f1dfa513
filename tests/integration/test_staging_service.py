"""staging_* tools against moto: happy paths, account isolation, bad input, expiry."""

from __future__ import annotations

import base64
import time
from typing import Any

import boto3
import pytest

from mcp_platform.runtime.service import ServiceContext
from mcp_platform.storage import staging_store
from staging_service.app import app
from staging_support import BUCKET, staging_bucket  # noqa: F401 - fixture

PNG = b"\x89PNG\r\n\x1a\n" + b"\x02" * 64
pytestmark = pytest.mark.usefixtures("staging_bucket")


def call(tool: str, account: str = "acct_a", **arguments: Any) -> dict[str, Any]:
    reply = app.handle({"tool": tool, "arguments": arguments, "account_id": account, "request_id": "r1"})
    return reply.structured_content


def upload(account: str = "acct_a", **extra: Any) -> dict[str, Any]:
    return call("staging_upload", account, content_base64=base64.b64encode(PNG).decode(), **extra)


def test_upload_then_get(validate_output) -> None:
    staged = validate_output("staging_upload", upload(filename="dot.png"))
    assert staged["media_type"] == "image/png"
    assert staged["size"] == len(PNG)
    got = validate_output("staging_get", call("staging_get", id=staged["id"]))
    assert {k: got[k] for k in ("id", "size", "media_type", "filename", "expires_at")} == {
        k: staged[k] for k in ("id", "size", "media_type", "filename", "expires_at")
    }
    key = f"acct_a/{staged['id']}"
    assert boto3.client("s3").get_object(Bucket=BUCKET, Key=key)["Body"].read() == PNG


def test_declared_media_type_and_ttl_kept(validate_output) -> None:
    staged = validate_output(
        "staging_upload", call("staging_upload", content_base64="aGVsbG8=", media_type="text/plain", ttl_s=60)
    )
    assert staged["media_type"] == "text/plain"
    assert staged["size"] == 5
    expires = time.mktime(time.strptime(staged["expires_at"], "%Y-%m-%dT%H:%M:%SZ")) - time.timezone
    assert 0 < expires - time.time() <= 61


def test_accounts_cannot_see_each_other() -> None:
    staged = upload("acct_a")
    upload("acct_b")
    for tool in ("staging_get", "staging_delete"):
        result = call(tool, "acct_b", id=staged["id"])
        assert result["code"] == "not_found", result
    assert call("staging_status", "acct_a")["objects"] == 1
    assert call("staging_status", "acct_b")["objects"] == 1
    assert call("staging_get", "acct_a", id=staged["id"])["id"] == staged["id"]


def test_prefix_lookalike_account_is_isolated() -> None:
    """`acct_a` must not see `acct_ab`'s objects through a shared key prefix."""
    upload("acct_ab")
    assert call("staging_status", "acct_a")["objects"] == 0


def test_delete_then_gone(validate_output) -> None:
    staged = upload()
    assert validate_output("staging_delete", call("staging_delete", id=staged["id"])) == {
        "id": staged["id"],
        "deleted": True,
    }
    assert call("staging_get", id=staged["id"])["code"] == "not_found"
    assert call("staging_delete", id=staged["id"])["code"] == "not_found"


def test_expired_object_is_gone(monkeypatch: pytest.MonkeyPatch) -> None:
    staged = upload(ttl_s=60)
    later = time.time() + 61
    monkeypatch.setattr(staging_store.time, "time", lambda: later)
    assert call("staging_get", id=staged["id"])["code"] == "not_found"


def test_upload_url_returns_signed_put(validate_output) -> None:
    result = validate_output(
        "staging_upload_url", call("staging_upload_url", size=1234, media_type="application/pdf", filename="a b.pdf")
    )
    assert result["method"] == "PUT"
    assert result["headers"]["Content-Type"] == "application/pdf"
    assert result["headers"]["x-amz-meta-filename"] == "a%20b.pdf"
    assert "X-Amz-Signature=" in result["upload_url"]
    assert call("staging_get", id=result["id"])["code"] == "not_found"


def test_status(validate_output) -> None:
    result = validate_output("staging_status", call("staging_status"))
    assert result["ok"] is True
    assert result["objects"] == 0
    assert result["limits"]["max_ttl_s"] == 86_400


def test_status_reports_missing_bucket(validate_output) -> None:
    payload = {"tool": "staging_status", "arguments": {}, "account_id": "acct_s", "request_id": "r1"}
    context = ServiceContext(account_id="acct_s", request_id="r1", staging_bucket="no-such-bucket")
    result = validate_output("staging_status", app.handle(payload, context).structured_content)
    assert result["ok"] is False
    assert "NoSuchBucket" in result["error"]


@pytest.mark.parametrize(
    ("tool", "arguments", "field"),
    [
        ("staging_upload", {"content_base64": "!!!"}, "content_base64"),
        ("staging_upload", {"content_base64": "aGVsbG8=", "ttl_s": 10}, "ttl_s"),
        ("staging_upload", {"content_base64": "aGVsbG8=", "filename": "../etc/passwd"}, "filename"),
        ("staging_upload", {"content_base64": "aGVsbG8=", "media_type": "png"}, "media_type"),
        ("staging_upload_url", {"size": 0, "media_type": "image/png"}, "size"),
        ("staging_upload_url", {"size": 10**9, "media_type": "image/png"}, "size"),
        ("staging_get", {"id": "acct_b/stg_x"}, "id"),
        ("staging_delete", {}, "id"),
        ("staging_status", {"x": 1}, "x"),
    ],
)
def test_bad_input_names_the_field(tool: str, arguments: dict[str, Any], field: str) -> None:
    result = call(tool, **arguments)
    assert result["code"] == "invalid_arguments"
    assert f"{field}:" in result["error"]


def test_upload_too_large() -> None:
    big = base64.b64encode(b"\0" * (4 * 1024 * 1024 + 1)).decode()
    result = call("staging_upload", content_base64=big)
    assert result["code"] == "invalid_arguments"
    assert "content_base64:" in result["error"]
    assert "4194304" in result["error"]
