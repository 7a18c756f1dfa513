"""The staging store without s3:ListBucket: S3's 403 for a missing key is "not found" (botocore Stubber)."""

from __future__ import annotations

import io
import time
from typing import TYPE_CHECKING

import boto3
import pytest
from botocore.response import StreamingBody
from botocore.stub import Stubber

from mcp_platform.protocol.errors import ToolError
from mcp_platform.storage.staging_store import StagingStore

if TYPE_CHECKING:
    from collections.abc import Iterator

BUCKET = "staging"
ACCOUNT = "acct_a"
ID = "stg_" + "0" * 32
KEY = f"{ACCOUNT}/{ID}"


@pytest.fixture
def stubbed() -> Iterator[tuple[StagingStore, Stubber]]:
    client = boto3.client("s3", region_name="us-east-1")
    with Stubber(client) as stubber:
        yield StagingStore(BUCKET, client), stubber
        stubber.assert_no_pending_responses()


def _head_ok(stubber: Stubber, size: int = 3) -> None:
    stubber.add_response(
        "head_object",
        {"ContentLength": size, "ContentType": "text/plain", "Metadata": {"expires-at": str(int(time.time()) + 60)}},
        {"Bucket": BUCKET, "Key": KEY},
    )


# HEAD has no body, so S3 reports a bare status code; GET names the error.
@pytest.mark.parametrize(("code", "status"), [("403", 403), ("AccessDenied", 403), ("404", 404), ("NoSuchKey", 404)])
def test_head_denied_or_missing_is_not_found(stubbed: tuple[StagingStore, Stubber], code: str, status: int) -> None:
    store, stubber = stubbed
    stubber.add_client_error(
        "head_object", code, http_status_code=status, expected_params={"Bucket": BUCKET, "Key": KEY}
    )
    with pytest.raises(ToolError) as info:
        store.head(ACCOUNT, ID)
    assert info.value.code == "not_found"
    assert ID in info.value.message


def test_get_denied_after_head_is_not_found(stubbed: tuple[StagingStore, Stubber]) -> None:
    # The object went away between HEAD and GET (deleted, or removed by the lifecycle rule).
    store, stubber = stubbed
    _head_ok(stubber)
    stubber.add_client_error("get_object", "AccessDenied", http_status_code=403)
    with pytest.raises(ToolError) as info:
        store.read(ACCOUNT, ID, max_bytes=10)
    assert info.value.code == "not_found"


def test_delete_of_a_denied_key_is_not_found_and_deletes_nothing(stubbed: tuple[StagingStore, Stubber]) -> None:
    store, stubber = stubbed
    stubber.add_client_error("head_object", "403", http_status_code=403)
    with pytest.raises(ToolError) as info:
        store.delete(ACCOUNT, ID)
    assert info.value.code == "not_found"  # and no delete_object call: the Stubber has none queued


def test_read_of_a_live_object(stubbed: tuple[StagingStore, Stubber]) -> None:
    store, stubber = stubbed
    _head_ok(stubber)
    stubber.add_response("get_object", {"Body": StreamingBody(io.BytesIO(b"abc"), 3)}, {"Bucket": BUCKET, "Key": KEY})
    obj, data = store.read(ACCOUNT, ID, max_bytes=10)
    assert (obj.id, obj.size, data) == (ID, 3, b"abc")


@pytest.mark.parametrize(("code", "status"), [("InternalError", 500), ("SlowDown", 503), ("InvalidBucketName", 400)])
def test_other_s3_errors_are_not_hidden(stubbed: tuple[StagingStore, Stubber], code: str, status: int) -> None:
    store, stubber = stubbed
    stubber.add_client_error("head_object", code, http_status_code=status)
    with pytest.raises(stubber.client.exceptions.ClientError) as info:
        store.head(ACCOUNT, ID)
    assert info.value.response["Error"]["Code"] == code


@pytest.mark.parametrize(("code", "status", "warned"), [("403", 403, True), ("404", 404, False)])
def test_a_denial_is_logged_without_the_id(
    stubbed: tuple[StagingStore, Stubber], caplog: pytest.LogCaptureFixture, code: str, status: int, warned: bool
) -> None:
    # A broken bucket policy also answers 403: operators see it in the log, callers see not_found.
    store, stubber = stubbed
    stubber.add_client_error("head_object", code, http_status_code=status)
    with pytest.raises(ToolError):
        store.head(ACCOUNT, ID)
    logged = caplog.text
    assert ("S3 denied access" in logged) is warned
    assert ID not in logged
