"""The SSRF rules on URLs and IP addresses (no I/O)."""

from __future__ import annotations

import ipaddress

import pytest

from mcp_platform.runtime.settings import FunctionSettings
from mcp_platform.web import AddressPolicy, BlockedAddressError, WebErrorCode, check_url, forbidden_reason
from mcp_platform.web.addresses import check_address, parse_ip_literal
from tests.support.ssrf import LOOPBACK, STRICT, use_policy


@pytest.fixture(autouse=True)
def _strict(monkeypatch: pytest.MonkeyPatch) -> None:
    use_policy(monkeypatch, STRICT)


@pytest.mark.parametrize(
    ("url", "reason"),
    [
        ("ftp://example.com/x", "scheme 'ftp'"),
        ("file:///etc/passwd", "scheme 'file'"),
        ("gopher://example.com/", "scheme 'gopher'"),
        ("example.com/page", "scheme '(none)'"),
        ("http:///nohost", "no host"),
        ("http://user:pw@example.com/", "credentials"),
        ("http://127.0.0.1/", "loopback"),
        ("http://127.9.9.9:8080/", "loopback"),
        ("http://10.1.2.3/", "private"),
        ("http://172.16.0.1/", "private"),
        ("http://192.168.1.1/", "private"),
        ("http://169.254.10.10/", "link-local"),
        ("http://100.64.0.1/", "CGNAT"),
        ("http://224.0.0.1/", "multicast"),
        ("http://0.0.0.0/", "unspecified"),
        ("http://169.254.169.254/latest/meta-data/", "cloud metadata"),
        ("http://[fd00:ec2::254]/", "cloud metadata"),
        ("http://[::1]/", "loopback"),
        ("http://[::]/", "unspecified"),
        ("http://[fc00::1]/", "private"),
        ("http://[fd12:3456::1]/", "private"),
        ("http://[fe80::1]/", "link-local"),
        ("http://[ff02::1]/", "multicast"),
        ("http://[::ffff:127.0.0.1]/", "loopback"),
        ("http://[::ffff:a9fe:a9fe]/", "cloud metadata"),
        ("http://[::ffff:10.0.0.1]/", "private"),
        ("http://[64:ff9b::a00:1]/", "private"),
        ("http://[2002:7f00:1::]/", "loopback"),
        ("http://2130706433/", "loopback"),
        ("http://0x7f000001/", "loopback"),
        ("http://0177.0.0.1/", "loopback"),
        ("http://0x7f.1/", "loopback"),
        ("http://127.1/", "loopback"),
        ("http://3232235777/", "private"),
        ("http://0xa9fea9fe/", "cloud metadata"),
    ],
)
def test_refused_urls_name_the_rule(url: str, reason: str) -> None:
    with pytest.raises(BlockedAddressError) as info:
        check_url(url)
    assert info.value.code == WebErrorCode.URL_NOT_ALLOWED
    assert reason in info.value.message
    assert info.value.message.startswith("url: ")


@pytest.mark.parametrize(
    "url", ["https://example.com/a?b=c", "http://93.184.215.14/", "http://[2606:4700::1111]/", "HTTP://Example.COM"]
)
def test_public_urls_pass(url: str) -> None:
    assert check_url(f"  {url} ") == url


def test_loopback_switch_allows_loopback_only(monkeypatch: pytest.MonkeyPatch) -> None:
    use_policy(monkeypatch, LOOPBACK)
    assert check_url("http://127.0.0.1:8000/") == "http://127.0.0.1:8000/"
    assert forbidden_reason(ipaddress.ip_address("::1")) is None
    for still_refused in ("http://10.0.0.1/", "http://169.254.169.254/", "http://[fd00:ec2::254]/"):
        with pytest.raises(BlockedAddressError):
            check_url(still_refused)


@pytest.mark.parametrize(("value", "loopback"), [("1", True), ("true", True), ("0", False), ("", False)])
def test_the_loopback_switch_is_a_setting(value: str, loopback: bool) -> None:
    settings = FunctionSettings.model_validate({"SSRF_ALLOW_LOOPBACK": value} if value else {})
    assert AddressPolicy.of(settings).loopback is loopback


@pytest.mark.parametrize(
    ("host", "ip"),
    [("2130706433", "127.0.0.1"), ("0x7f.0.0.1", "127.0.0.1"), ("017700000001", "127.0.0.1"), ("[::1]", "::1")],
)
def test_ip_spellings_parse_like_a_resolver(host: str, ip: str) -> None:
    assert parse_ip_literal(host) == ipaddress.ip_address(ip)


def test_hostnames_are_not_ip_literals() -> None:
    assert parse_ip_literal("example.com") is None
    assert parse_ip_literal("1.2.3.example") is None


@pytest.mark.parametrize("url", ["http://example.com:8080/", "https://example.com:22/", "http://example.com:0/"])
def test_caller_urls_keep_to_ports_80_and_443(url: str) -> None:
    with pytest.raises(BlockedAddressError, match=r"port \d+ is not allowed"):
        check_url(url)
    assert check_url("http://example.com:80/a") and check_url("https://example.com:443/a")


def test_more_ports_only_when_configured(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SSRF_ALLOWED_PORTS", "9999")  # another function's, in the process: not the policy's
    policy = AddressPolicy.of(FunctionSettings(ssrf_allowed_ports="8080, 8443,junk"))
    assert policy.extra_ports == {8080, 8443}
    use_policy(monkeypatch, policy)
    assert check_url("http://example.com:8080/") == "http://example.com:8080/"
    with pytest.raises(BlockedAddressError, match="one of 80, 443, 8080, 8443"):
        check_url("http://example.com:9000/")


def test_the_loopback_switch_is_refused_in_lambda(monkeypatch: pytest.MonkeyPatch) -> None:
    use_policy(monkeypatch, AddressPolicy.of(FunctionSettings(ssrf_allow_loopback=True)))
    assert check_url("http://127.0.0.1:9001/2018-06-01/runtime/invocation/next")  # a local test server
    in_lambda = FunctionSettings(ssrf_allow_loopback=True, aws_lambda_function_name="mcp-platform-dev-svc-fetch")
    assert not AddressPolicy.of(in_lambda).loopback
    use_policy(monkeypatch, AddressPolicy.of(in_lambda))
    with pytest.raises(BlockedAddressError, match="loopback"):
        check_url("http://127.0.0.1:9001/2018-06-01/runtime/invocation/next")
    with pytest.raises(BlockedAddressError, match="loopback"):
        check_address(ipaddress.ip_address("127.0.0.1"), "localhost")
