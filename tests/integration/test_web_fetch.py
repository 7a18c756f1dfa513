"""The guarded download and page pipeline against a local HTTP server (and a faked resolver)."""

from __future__ import annotations

import json
import socket

import pytest

from mcp_platform.protocol.errors import ERRORS, ToolError
from mcp_platform.runtime.settings import WebSettings
from mcp_platform.web import FetchLimits, WebErrorCode, download, fetch_page, user_agent
from mcp_platform.web.robots import RobotsRules
from mcp_platform.web.transport import guarded_client
from tests.integration.web_site import ARTICLE, LocalSite, Reply, site  # noqa: F401 - fixture
from tests.support.ssrf import STRICT, use_policy


def _code(exc: pytest.ExceptionInfo[ToolError]) -> str:
    return exc.value.code


def test_loopback_is_refused_without_the_test_switch(monkeypatch: pytest.MonkeyPatch) -> None:
    use_policy(monkeypatch, STRICT)
    with LocalSite() as running:
        running.routes["/"] = Reply(body=b"hi")
        with pytest.raises(ToolError) as info:
            download(running.url("/"), client=guarded_client())
        assert _code(info) == WebErrorCode.URL_NOT_ALLOWED
        assert running.requests == []


def test_a_hostname_resolving_to_a_private_address_is_refused_before_connecting(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    connects: list[object] = []
    monkeypatch.setattr(
        socket, "getaddrinfo", lambda *a, **k: [(socket.AF_INET, socket.SOCK_STREAM, 6, "", ("10.0.0.7", 80))]
    )
    monkeypatch.setattr(socket, "create_connection", lambda *a, **k: connects.append(a))
    with pytest.raises(ToolError) as info:
        download("http://intranet.example/", client=guarded_client())
    assert _code(info) == WebErrorCode.URL_NOT_ALLOWED
    assert "intranet.example resolves to 10.0.0.7, a private address" in info.value.message
    assert connects == []


def test_any_private_answer_among_several_refuses_the_host(monkeypatch: pytest.MonkeyPatch) -> None:
    answers = [("93.184.215.14", 80), ("169.254.169.254", 80)]
    monkeypatch.setattr(
        socket, "getaddrinfo", lambda *a, **k: [(socket.AF_INET, socket.SOCK_STREAM, 6, "", s) for s in answers]
    )
    with pytest.raises(ToolError, match="cloud metadata"):
        download("http://mixed.example/", client=guarded_client())


def test_connects_to_the_checked_address_without_a_second_lookup(
    monkeypatch: pytest.MonkeyPatch, site: LocalSite
) -> None:
    """DNS rebinding: the first answer is checked and used; a later answer is never asked for."""
    port = int(site.url().rsplit(":", 1)[1].strip("/"))
    answers = iter([("127.0.0.1", port), ("10.0.0.9", port)])
    lookups: list[str] = []
    real_resolver = socket.getaddrinfo

    def resolver(host: str, *a: object, **k: object) -> list[tuple[object, ...]]:
        if host != "rebind.example":  # the numeric connect below resolves without DNS
            return real_resolver(host, *a, **k)
        lookups.append(host)
        return [(socket.AF_INET, socket.SOCK_STREAM, 6, "", next(answers))]

    real_connect = socket.create_connection
    connected: list[tuple[str, int]] = []

    def connect(address: tuple[str, int], *a: object, **k: object) -> socket.socket:
        connected.append(address)
        return real_connect(address, *a, **k)

    monkeypatch.setattr(socket, "getaddrinfo", resolver)
    monkeypatch.setattr(socket, "create_connection", connect)
    site.routes["/"] = Reply(body=b"<html><body>ok</body></html>")
    got = download(f"http://rebind.example:{port}/", client=guarded_client())
    assert got.status == 200
    assert lookups == ["rebind.example"]
    assert connected == [("127.0.0.1", port)]
    host_header = site.requests[0][1]["Host"]
    assert host_header == f"rebind.example:{port}"


def test_redirects_are_rechecked(site: LocalSite) -> None:
    site.routes["/to-private"] = Reply(302, headers={"Location": "http://10.0.0.1/admin"})
    site.routes["/to-metadata"] = Reply(301, headers={"Location": "http://169.254.169.254/latest/"})
    site.routes["/to-file"] = Reply(307, headers={"Location": "file:///etc/passwd"})
    for path in ("/to-private", "/to-metadata", "/to-file"):
        with pytest.raises(ToolError) as info:
            download(site.url(path), client=guarded_client())
        assert _code(info) == WebErrorCode.URL_NOT_ALLOWED, path


def test_at_most_five_redirects(site: LocalSite) -> None:
    for i in range(6):
        site.routes[f"/r{i}"] = Reply(302, headers={"Location": f"/r{i + 1}"})
    site.routes["/r6"] = Reply(body=b"end", headers={"Content-Type": "text/plain"})
    got = download(site.url("/r1"), client=guarded_client())
    assert got.final_url == site.url("/r6")
    assert got.body == b"end" and got.redirects == (302,) * 5
    with pytest.raises(ToolError) as info:
        download(site.url("/r0"), client=guarded_client())
    assert _code(info) == WebErrorCode.TOO_MANY_REDIRECTS


@pytest.mark.parametrize("chunked", [False, True])
def test_byte_cap(site: LocalSite, chunked: bool) -> None:
    site.routes["/big"] = Reply(body=b"x" * 300_000, headers={"Content-Type": "text/plain"}, chunked=chunked)
    with pytest.raises(ToolError) as info:
        download(site.url("/big"), limits=FetchLimits(max_bytes=100_000), client=guarded_client())
    assert _code(info) == WebErrorCode.TOO_LARGE
    assert "100000 byte limit" in info.value.message
    assert len(download(site.url("/big"), client=guarded_client()).body) == 300_000


def test_total_time_cap_stops_a_slow_server(site: LocalSite) -> None:
    site.routes["/slow"] = Reply(body=b"y" * 20_000, delay=0.2, headers={"Content-Type": "text/plain"})
    with pytest.raises(ToolError) as info:
        download(site.url("/slow"), limits=FetchLimits(total_timeout=0.5), client=guarded_client())
    assert _code(info) == WebErrorCode.TIMEOUT


def test_connect_timeout_is_enforced(monkeypatch: pytest.MonkeyPatch) -> None:
    seen: list[float | None] = []

    def slow_connect(address: tuple[str, int], timeout: float | None = None, **_k: object) -> socket.socket:
        seen.append(timeout)
        raise TimeoutError("timed out")

    monkeypatch.setattr(socket, "create_connection", slow_connect)
    with pytest.raises(ToolError) as info:
        download("http://93.184.215.14/", limits=FetchLimits(connect_timeout=1.5), client=guarded_client())
    assert _code(info) == WebErrorCode.TIMEOUT
    assert seen == [1.5]


def test_environment_proxies_are_ignored(monkeypatch: pytest.MonkeyPatch, site: LocalSite) -> None:
    monkeypatch.setenv("HTTP_PROXY", "http://10.255.255.1:3128")
    monkeypatch.setenv("ALL_PROXY", "http://10.255.255.1:3128")
    site.routes["/"] = Reply(body=b"direct", headers={"Content-Type": "text/plain"})
    assert download(site.url("/"), client=guarded_client()).body == b"direct"


def test_http_errors_carry_the_status(site: LocalSite) -> None:
    with pytest.raises(ToolError) as info:
        download(site.url("/missing"), client=guarded_client())
    assert _code(info) == WebErrorCode.HTTP_ERROR
    assert info.value.extra["status"] == 404


def test_user_agent_names_the_platform_and_contact(monkeypatch: pytest.MonkeyPatch, site: LocalSite) -> None:
    monkeypatch.setenv("WEB_CONTACT_URL", "https://elsewhere.example/")  # another function's, in the process
    limits = FetchLimits.of(WebSettings(web_contact_url="https://ops.example/bot"))
    site.routes["/"] = Reply(body=b"x", headers={"Content-Type": "text/plain"})
    download(site.url("/"), limits=limits, client=guarded_client())
    agent = site.requests[0][1]["User-Agent"]
    assert agent == "McpPlatformFetch/1.0 (+https://ops.example/bot)" == user_agent(limits.contact_url)
    download(site.url("/"), client=guarded_client())
    assert (
        site.requests[1][1]["User-Agent"]
        == user_agent()
        == "McpPlatformFetch/1.0 (+https://mcp.glc-rag.hu/guide/fetch)"
    )


# ---------------------------------------------------------------- robots.txt
def test_robots_disallow_is_honoured(site: LocalSite) -> None:
    site.routes["/robots.txt"] = Reply(
        body=b"User-agent: McpPlatformFetch\nDisallow: /private\n", headers={"Content-Type": "text/plain"}
    )
    site.routes["/private/x"] = Reply(body=b"secret")
    site.routes["/public"] = Reply(body=b"fine", headers={"Content-Type": "text/plain"})
    rules = RobotsRules(client=guarded_client())
    with pytest.raises(ToolError) as info:
        download(site.url("/private/x"), allowed=rules, client=guarded_client())
    assert _code(info) == WebErrorCode.ROBOTS_DISALLOWED
    assert download(site.url("/public"), allowed=rules, client=guarded_client()).body == b"fine"
    assert [path for path, _ in site.requests].count("/robots.txt") == 1  # cached per origin


@pytest.mark.parametrize("status", [404, 403])
def test_robots_4xx_allows_everything(site: LocalSite, status: int) -> None:
    site.routes["/robots.txt"] = Reply(status, b"")
    RobotsRules(client=guarded_client())(site.url("/page"))


def test_robots_5xx_is_unreachable_retryable_and_not_cached(site: LocalSite) -> None:
    site.routes["/robots.txt"] = Reply(503, b"")
    rules = RobotsRules(client=guarded_client())
    with pytest.raises(ToolError) as info:
        rules(site.url("/page"))
    assert _code(info) == WebErrorCode.ROBOTS_UNREACHABLE and ERRORS[_code(info)].retryable
    assert "robots.txt unreachable" in info.value.message and "HTTP 503" in info.value.message
    site.routes["/robots.txt"] = Reply(404, b"")
    rules(site.url("/page"))  # the site is back: asked again, not the cached failure


def test_robots_behind_a_dns_failure_says_so_and_is_asked_again(monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 39: with DNS down, fetch blamed robots.txt (not retryable) and cached that for an hour."""
    lookups: list[str] = []

    def no_dns(host: str, *args: object, **kwargs: object) -> object:
        lookups.append(host)
        raise socket.gaierror(socket.EAI_NONAME, "Name or service not known")

    monkeypatch.setattr(socket, "getaddrinfo", no_dns)
    rules = RobotsRules(client=guarded_client())
    for _ in range(2):
        with pytest.raises(ToolError) as info:
            rules("https://example.org/")
        assert _code(info) == WebErrorCode.ROBOTS_UNREACHABLE and ERRORS[_code(info)].retryable
        assert info.value.message.startswith("robots.txt unreachable: https://example.org/robots.txt")
        assert "does not allow" not in info.value.message
    assert lookups == ["example.org", "example.org"]  # the network failure was not cached


# ---------------------------------------------------------------- content types
def test_html_becomes_markdown_with_structure(site: LocalSite) -> None:
    site.routes["/a"] = Reply(body=ARTICLE.encode())
    page = fetch_page(site.url("/a"), client=guarded_client())
    assert page.kind == "html" and page.title == "Local article" and page.status == 200
    assert "## Lists and tables" in page.content
    assert "- Resolve the host once" in page.content
    assert "| Rule | Why |" in page.content
    assert f"[guard]({site.url('/guard')})" in page.content
    assert 'print("hello")' in page.content
    assert "Copyright footer" not in page.content
    raw = fetch_page(site.url("/a"), raw=True, client=guarded_client())
    assert raw.content.startswith("<!doctype html>")


def test_text_and_json_pass_through(site: LocalSite) -> None:
    site.routes["/t"] = Reply(body="plain é".encode(), headers={"Content-Type": "text/plain; charset=utf-8"})
    site.routes["/j"] = Reply(body=b'{"a":[1,2]}', headers={"Content-Type": "application/json"})
    assert fetch_page(site.url("/t"), client=guarded_client()).content == "plain é"
    page = fetch_page(site.url("/j"), client=guarded_client())
    assert page.kind == "json" and json.loads(page.content) == {"a": [1, 2]} and "\n  " in page.content
    site.routes["/deep"] = Reply(body=b"[" * 25_000, headers={"Content-Type": "application/json"})
    assert fetch_page(site.url("/deep"), client=guarded_client()).content == "[" * 25_000  # too deep to indent


@pytest.mark.parametrize(
    ("content_type", "body", "code"),
    [
        ("application/pdf", b"%PDF-1.7 ...", WebErrorCode.PDF_USE_DOCS),
        ("application/octet-stream", b"%PDF-1.4 ...", WebErrorCode.PDF_USE_DOCS),
        (
            "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
            b"PK\x03\x04",
            WebErrorCode.PDF_USE_DOCS,
        ),
        ("image/png", b"\x89PNG\r\n\x1a\n\x00", WebErrorCode.UNSUPPORTED_CONTENT),
        ("application/octet-stream", b"\x00\x01\x02", WebErrorCode.UNSUPPORTED_CONTENT),
    ],
)
def test_documents_and_binaries_are_clear_errors(site: LocalSite, content_type: str, body: bytes, code: str) -> None:
    site.routes["/f"] = Reply(body=body, headers={"Content-Type": content_type})
    with pytest.raises(ToolError) as info:
        fetch_page(site.url("/f"), client=guarded_client())
    assert _code(info) == code
    if code == WebErrorCode.PDF_USE_DOCS:
        assert "docs_extract" in info.value.message


def test_html_without_content_is_a_clear_error(site: LocalSite) -> None:
    site.routes["/empty"] = Reply(
        body=b"<html><head><title>t</title></head><body><script>var a = 1;</script></body></html>"
    )
    with pytest.raises(ToolError) as info:
        fetch_page(site.url("/empty"), client=guarded_client())
    assert _code(info) == WebErrorCode.NO_CONTENT
    assert "raw=true" in info.value.message


def test_a_page_reports_the_redirects_it_followed(site: LocalSite) -> None:
    site.routes["/old"] = Reply(301, headers={"Location": "/moved"})
    site.routes["/moved"] = Reply(308, headers={"Location": "/article"})
    site.routes["/article"] = Reply(body=ARTICLE.encode())
    page = fetch_page(site.url("/old"), client=guarded_client())
    assert (page.final_url, page.redirects) == (site.url("/article"), (301, 308))
    assert fetch_page(site.url("/article"), client=guarded_client()).redirects == ()
