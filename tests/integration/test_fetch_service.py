"""The fetch service end to end in-process: arguments in, seed-shaped results out."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import pytest

from fetch_service.app import app
from mcp_platform.web.extraction import extractor_version
from tests.integration.web_site import ARTICLE, LocalSite, Reply, site  # noqa: F401 - fixture
from tests.support.ssrf import STRICT, use_policy

if TYPE_CHECKING:
    from collections.abc import Callable


def call(tool: str, **arguments: Any) -> dict[str, Any]:
    reply = app.handle({"tool": tool, "arguments": arguments, "account_id": "acct", "request_id": "r1"})
    return reply.structured_content


def test_fetch_returns_markdown_and_pages_through_it(site: LocalSite, validate_output: Any) -> None:
    site.routes["/a"] = Reply(body=ARTICLE.encode())
    first = validate_output("fetch", call("fetch", url=site.url("/a"), max_length=120))
    assert first["title"] == "Local article"
    assert first["truncated"] is True and first["next_start_index"] == 120 and len(first["content"]) == 120
    assert first["status"] == 200 and first["content_type"] == "text/html" and first["final_url"] == site.url("/a")
    rest = validate_output("fetch", call("fetch", url=site.url("/a"), start_index=120, max_length=1_000_000))
    assert rest["truncated"] is False and "next_start_index" not in rest
    whole = first["content"] + rest["content"]
    assert whole.startswith("# Local article") and "| Rule | Why |" in whole


def test_fetch_raw_returns_the_body(site: LocalSite, validate_output: Any) -> None:
    site.routes["/a"] = Reply(body=ARTICLE.encode())
    out = validate_output("fetch", call("fetch", url=site.url("/a"), raw=True, max_length=1_000_000))
    assert out["content"] == ARTICLE


@pytest.mark.parametrize(
    ("arguments", "field"),
    [
        ({}, "url: Field required"),
        ({"url": "ftp://example.com/"}, "url: Value error, scheme 'ftp' is not allowed"),
        ({"url": "http://169.254.169.254/latest/"}, "cloud metadata"),
        ({"url": "https://example.com", "max_length": 0}, "max_length: Input should be greater than or equal to 1"),
        ({"url": "https://example.com", "max_length": 1_000_001}, "max_length: Input should be less than or equal to"),
        ({"url": "https://example.com", "start_index": -1}, "start_index: Input should be greater than or equal to 0"),
        ({"url": "https://example.com", "bogus": 1}, "bogus: Extra inputs are not permitted"),
    ],
)
def test_bad_arguments_name_the_field(arguments: dict[str, Any], field: str) -> None:
    out = call("fetch", **arguments)
    assert out["is_error"] is True and out["code"] == "invalid_arguments"
    assert field in out["error"]


def test_fetch_errors_are_results(site: LocalSite) -> None:
    site.routes["/doc.pdf"] = Reply(body=b"%PDF-1.7", headers={"Content-Type": "application/pdf"})
    site.routes["/robots.txt"] = Reply(body=b"User-agent: *\nDisallow: /secret", headers={"Content-Type": "text/plain"})
    site.routes["/short"] = Reply(body=b"tiny", headers={"Content-Type": "text/plain"})
    cases = {
        "/doc.pdf": ("pdf_use_docs", {}),
        "/secret": ("robots_disallowed", {}),
        "/nowhere": ("http_error", {}),
        "/short": ("invalid_arguments", {"start_index": 10}),
    }
    for path, (code, extra) in cases.items():
        out = call("fetch", url=site.url(path), **extra)
        assert out["is_error"] is True and out["code"] == code, (path, out)


def test_fetch_refuses_loopback_without_the_switch(monkeypatch: pytest.MonkeyPatch) -> None:
    use_policy(monkeypatch, STRICT)
    out = call("fetch", url="http://127.0.0.1:9/")
    assert out["code"] == "invalid_arguments" and "loopback" in out["error"]


def test_fetch_status(validate_output: Any) -> None:
    out = validate_output("fetch_status", call("fetch_status"))
    assert out["ok"] is True
    assert out["limits"]["max_bytes"] == 10 * 1024 * 1024 and out["limits"]["max_redirects"] == 5
    assert out["user_agent"].startswith("McpPlatformFetch/1.0 (+https://")
    assert out["extractor_version"] == extractor_version()


def test_the_limits_come_from_the_function_settings(
    monkeypatch: pytest.MonkeyPatch, reload_settings: Callable[[], None]
) -> None:
    monkeypatch.setenv("WEB_MAX_BYTES", "4096")
    monkeypatch.setenv("WEB_TOTAL_TIMEOUT", "7.5")
    reload_settings()
    limits = call("fetch_status")["limits"]
    assert (limits["max_bytes"], limits["total_timeout_s"], limits["connect_timeout_s"]) == (4096, 7.5, 5.0)
