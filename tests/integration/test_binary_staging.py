"""Binary inputs resolved from staging and from URLs; outputs staged (moto, loopback HTTP)."""

from __future__ import annotations

import base64
import os
import subprocess
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import TYPE_CHECKING

import jsonschema
import pytest
from pydantic import BaseModel, ConfigDict, ValidationError

from mcp_platform.protocol.binary import STAGED_OBJECT_SCHEMA, binary_input, stage_output
from mcp_platform.protocol.errors import ToolError
from mcp_platform.runtime.service import ServiceContext
from mcp_platform.web.addresses import AddressPolicy
from staging_support import BUCKET, service_store, staging_bucket  # noqa: F401 - fixture
from tests.support.ssrf import LOOPBACK, use_policy

if TYPE_CHECKING:
    from collections.abc import Iterator

PNG = b"\x89PNG\r\n\x1a\n" + b"\x01" * 40
CTX = ServiceContext(account_id="acct_a", request_id="r1", staging_bucket=BUCKET)
OTHER = ServiceContext(account_id="acct_b", request_id="r2", staging_bucket=BUCKET)


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
    obj = service_store().put("acct_a", b"\x89PNG\r\n\x1a\n" + b"0" * 2000, "image/png")
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
        body, media_type = {
            "/a.png": (PNG, "image/png"),
            "/notes.txt": (b"plain words", "text/plain; charset=utf-8"),
        }.get(self.path, (b"\x89PNG\r\n\x1a\n" + b"0" * 5000, "image/png"))
        self.send_response(200)
        self.send_header("Content-Type", media_type)
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


def test_url_goes_through_the_web_guard_and_names_the_argument(
    file_server: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The SSRF rules themselves are tested in test_web_fetch / test_web_addresses; here: binary uses them.
    # A hostname passes the input model; its address is checked when the download connects.
    port = int(file_server.rsplit(":", 1)[1])
    use_policy(monkeypatch, AddressPolicy(extra_ports=frozenset({port})))  # the port rule is not what is tested
    with pytest.raises(ToolError) as info:
        Args(image=file_server.replace("127.0.0.1", "localhost") + "/a.png").image.load(CTX)
    assert info.value.code == "url_not_allowed"
    assert info.value.message.startswith("image: localhost resolves to ")
    assert "a loopback address" in info.value.message


@pytest.mark.parametrize("url", ["http://10.0.0.1/a.png", "http://169.254.169.254/", "http://user:pw@example.com/a"])
def test_url_refused_by_the_input_model_before_any_charge(url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    use_policy(monkeypatch, LOOPBACK)
    with pytest.raises(ValidationError) as info:
        Args(image=url)
    assert info.value.errors()[0]["loc"] == ("image",)


def test_url_fetched_with_redirect_when_loopback_allowed(file_server: str, monkeypatch: pytest.MonkeyPatch) -> None:
    use_policy(monkeypatch, LOOPBACK)
    blob = Args(image=f"{file_server}/redirect").image.load(CTX)
    assert (blob.data, blob.media_type, blob.filename) == (PNG, "image/png", "a.png")


def test_url_over_the_arguments_cap_refused(file_server: str, monkeypatch: pytest.MonkeyPatch) -> None:
    use_policy(monkeypatch, LOOPBACK)
    with pytest.raises(ToolError) as info:
        Args(image=f"{file_server}/big.png").image.load(CTX)
    assert info.value.code == "too_large"
    assert info.value.message.startswith("image: ")
    assert "1024 byte limit" in info.value.message


def test_url_of_the_wrong_type_refused(file_server: str, monkeypatch: pytest.MonkeyPatch) -> None:
    use_policy(monkeypatch, LOOPBACK)
    with pytest.raises(ToolError) as info:
        Args(image=f"{file_server}/notes.txt").image.load(CTX)
    assert info.value.code == "invalid_arguments"
    assert info.value.message == "image: the file is text/plain; accepted: image/*"


def test_unreachable_url_is_an_upstream_error(monkeypatch: pytest.MonkeyPatch) -> None:
    use_policy(monkeypatch, LOOPBACK)
    with pytest.raises(ToolError) as info:
        Args(image="http://127.0.0.1:9/a.png").image.load(CTX)
    assert info.value.code == "upstream_unavailable"
    assert info.value.message.startswith("image: http://127.0.0.1:9/a.png is unreachable (ConnectError)")


_WITHOUT_WEB_LAYER = """
import sys, threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
for name in sys.argv[1:]:
    sys.modules[name] = None  # importing it now raises ImportError, as without the web layer

from pydantic import BaseModel
from mcp_platform.protocol.binary import binary_input
from mcp_platform.runtime.service import ServiceContext
from mcp_platform.web.addresses import AddressPolicy, apply_policy

apply_policy(AddressPolicy(loopback=True))  # what a function whose settings set SSRF_ALLOW_LOOPBACK=1 applies

class Png(BaseHTTPRequestHandler):
    def do_GET(self):
        body = b"\\x89PNG\\r\\n\\x1a\\n" + b"\\x01" * 40
        self.send_response(200)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

server = ThreadingHTTPServer(("127.0.0.1", 0), Png)
threading.Thread(target=server.serve_forever, daemon=True).start()

class Args(BaseModel):
    image: binary_input("The image.", media_types=("image/*",), argument="image")

blob = Args(image=f"http://127.0.0.1:{server.server_address[1]}/a.png").image.load(ServiceContext("a", "r"))
print(blob.media_type, len(blob.data))
"""


def test_url_download_needs_only_the_common_layer() -> None:
    """Functions without the web layer (img, pdf, qr) download URL inputs with the common layer's httpx."""
    root = Path(__file__).resolve().parents[2]
    common = _requirement_names(root / "shared" / "requirements.txt")
    web_only = sorted(_requirement_names(root / "layers" / "web" / "requirements.txt") - common)
    assert web_only, "the web layer should add packages the common layer lacks"
    env = {**os.environ, "PYTHONPATH": str(root / "shared")}
    run = subprocess.run(
        [sys.executable, "-c", _WITHOUT_WEB_LAYER, *web_only, "lxml"],
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
        check=False,
    )
    assert run.returncode == 0, run.stderr[-3000:]
    assert run.stdout.split() == ["image/png", "48"]


def _requirement_names(path: Path) -> set[str]:
    """Import names of the pinned packages in a requirements file (`name[extra]==1.0` → `name`)."""
    names = set()
    for raw in path.read_text().splitlines():
        line = raw.split("#", 1)[0].strip()
        if line:
            names.add(line.split("==", 1)[0].split("[", 1)[0].strip().lower().replace("-", "_"))
    return names


def test_a_function_that_stages_nothing_says_so() -> None:
    """A service whose settings name no bucket (its template block sets no STAGING_BUCKET) answers clearly."""
    unstaged = ServiceContext(account_id="acct_a", request_id="r1")
    with pytest.raises(ToolError) as info:
        Args(image="stg_" + "0" * 32).image.load(unstaged)
    assert info.value.code == "upstream_unavailable" and "STAGING_BUCKET" in info.value.message
    with pytest.raises(ToolError, match="staging is not configured"):
        stage_output(PNG, "image/png", unstaged)
