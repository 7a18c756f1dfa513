"""Presigned URLs work over plain HTTP against a moto S3 server on loopback (as in the local default)."""

from __future__ import annotations

import base64
from typing import TYPE_CHECKING, Any

import boto3
import httpx
import pytest
from moto.server import ThreadedMotoServer

from mcp_platform.storage import staging_store
from staging_service.app import app
from staging_support import BUCKET

if TYPE_CHECKING:
    from collections.abc import Iterator

PDF = b"%PDF-1.4\n" + bytes(range(256)) * 4


@pytest.fixture
def s3_server(monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    server = ThreadedMotoServer(ip_address="127.0.0.1", port=0, verbose=False)
    server.start()
    host, port = server.get_host_and_port()
    endpoint = f"http://{host}:{port}"
    monkeypatch.setenv("AWS_ENDPOINT_URL_S3", endpoint)
    boto3.client("s3", endpoint_url=endpoint).create_bucket(Bucket=BUCKET)  # the one the service's settings name
    staging_store.forget_stores()
    yield endpoint
    staging_store.forget_stores()
    server.stop()


def call(tool: str, **arguments: Any) -> dict[str, Any]:
    reply = app.handle({"tool": tool, "arguments": arguments, "account_id": "acct_h", "request_id": "r1"})
    return reply.structured_content


def test_presigned_get_downloads_the_upload(s3_server: str) -> None:
    staged = call("staging_upload", content_base64=base64.b64encode(PDF).decode(), filename="x.pdf")
    assert staged["url"].startswith(f"{s3_server}/{BUCKET}/acct_h/")
    response = httpx.get(staged["url"])
    assert response.status_code == 200
    assert response.content == PDF
    assert response.headers["content-type"] == "application/pdf"


def test_presigned_put_then_get(s3_server: str) -> None:
    ticket = call("staging_upload_url", size=len(PDF), media_type="application/pdf", filename="big file.pdf")
    put = httpx.put(ticket["upload_url"], content=PDF, headers=ticket["headers"])
    assert put.status_code == 200, put.text
    got = call("staging_get", id=ticket["id"])
    assert (got["size"], got["media_type"], got["filename"]) == (len(PDF), "application/pdf", "big file.pdf")
    assert httpx.get(got["url"]).content == PDF
