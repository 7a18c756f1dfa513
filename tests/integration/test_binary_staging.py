"""Binary inputs resolved from staging and from URLs; outputs staged (moto, loopback HTTP)."""

from __future__ import annotations

import base64
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import TYPE_CHECKING

import jsonschema
import pytest
from pydantic import BaseModel, ConfigDict

from mcp_platform import staging_store
from mcp_platform.binary import STAGED_OBJECT_SCHEMA, binary_input, stage_output
from mcp_platform.errors import ToolError
from mcp_platform.service import CallContext
from staging_support import staging_bucket  # noqa: F401 - fixture

if TYPE_CHECKING:
    from collections.abc import Iterator

PNG = b"\x89PNG\r\n\x1a\n" + b"\x01" * 40
CTX = CallContext(account_id="acct_a", request_id="r1")
OTHER = CallContext(account_id="acct_b", request_id="r2")


class Args(BaseModel):
    model_config = ConfigDict(extra="forbid")

    image: binary_input("The image.", max_bytes=1024, media_types=("image/*",), argument="image")


@pytest.mark.usefixtures("staging_bucket")
def test_stage_output_then_load_by_id() -> None:
    staged = stage_output(PNG, "image/png", CTX, filename="a.png")
    jsonschema.validate(staged.file, STAGED_OBJECT_SCHEMA)
    assert staged.file["size"] == len(PNG)
    assert staged.content == [{"type": "image", "data": base64.b64encode(PNG).decode(), "mimeType": "image/png"}]
    blob = Args(image=staged.file["id"]).image.load(CTX)
    assert (blob.data, blob.media_type, blob.filename) == (PNG, "image/png", "a.png")


@pytest.mark.usefixtures("staging_bucket")
def test_other_account_cannot_load_the_id() -> None:
    staged = stage_output(PNG, "image/png", CTX)
    with pytest.raises(ToolError) as info:
        Args(image=staged.file["id"]).image.load(OTHER)
    assert info.value.code == "not_found"


@pytest.mark.usefixtures("staging_bucket")
def test_large_images_are_not_inlined_and_type_is_rechecked() -> None:
    staged = stage_output(b"%PDF-1.4\n" + b"x" * 10, "application/pdf", CTX)
    assert staged.content == []
    with pytest.raises(ToolError) as info:
        Args(image=staged.file["id"]).image.load(CTX)
    assert info.value.code == "invalid_arguments"
    assert "image: the file is application/pdf" in info.value.message


@pytest.mark.usefixtures("staging_bucket")
def test_staged_object_over_cap_refused() -> None:
    obj = staging_store.default_store().put("acct_a", b"\x89PNG\r\n\x1a\n" + b"0" * 2000, "image/png")
    with pytest.raises(ToolError) as info:
        Args(image=obj.id).image.load(CTX)
    assert "at most 1024" in info.value.message


class _Files(BaseHTTPRequestHandler):
    def do_GET(self) -> None:
        if self.path == "/redirect":
            self.send_response(302)
            self.send_header("Location", "/a.png")
            self.end_headers()
            return
        body = PNG if self.path == "/a.png" else b"\x89PNG\r\n\x1a\n" + b"0" * 5000
        self.send_response(200)
        self.send_header("Content-Type", "image/png")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *_args: object) -> None:
        return


@pytest.fixture
def file_server() -> Iterator[str]:
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Files)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    thread.join()


def test_url_to_loopback_is_refused_by_default(file_server: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("SSRF_ALLOW_LOOPBACK", raising=False)
    with pytest.raises(ToolError) as info:
        Args(image=f"{file_server}/a.png").image.load(CTX)
    assert info.value.code == "invalid_arguments"
    assert "non-public address" in info.value.message


@pytest.mark.parametrize("host", ["10.0.0.1", "169.254.169.254", "[fd00::1]", "192.168.1.1", "0.0.0.0"])
def test_private_addresses_refused(host: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SSRF_ALLOW_LOOPBACK", "1")
    with pytest.raises(ToolError) as info:
        Args(image=f"http://{host}/a.png").image.load(CTX)
    assert "non-public" in info.value.message


def test_url_fetched_with_redirect_when_loopback_allowed(file_server: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SSRF_ALLOW_LOOPBACK", "1")
    blob = Args(image=f"{file_server}/redirect").image.load(CTX)
    assert (blob.data, blob.media_type, blob.filename) == (PNG, "image/png", "a.png")


def test_url_over_cap_refused(file_server: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SSRF_ALLOW_LOOPBACK", "1")
    with pytest.raises(ToolError) as info:
        Args(image=f"{file_server}/big.png").image.load(CTX)
    assert "at most 1024" in info.value.message


def test_unreachable_url_is_an_upstream_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SSRF_ALLOW_LOOPBACK", "1")
    with pytest.raises(ToolError) as info:
        Args(image="http://127.0.0.1:9/a.png").image.load(CTX)
    assert info.value.code == "upstream_unavailable"
    assert info.value.message.startswith("image: could not download")
