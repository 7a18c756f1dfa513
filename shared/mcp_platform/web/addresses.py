"""Which URLs and IP addresses a platform fetch may reach (the SSRF rules).

Only http and https to public addresses: loopback, private, link-local, CGNAT, multicast,
unspecified, reserved and cloud metadata addresses are refused, for IPv4 and IPv6, including
IPv4 addresses embedded in IPv6 (mapped, compatible, NAT64, 6to4, Teredo) and the decimal,
octal and hex spellings of IPv4 that resolvers accept (`2130706433`, `0x7f.1`, `0177.0.0.1`).

`check_url` is the syntax check (no DNS), cheap enough for an input model's validator;
`forbidden_reason` is applied again to every address the resolver returns, at connect time
(`mcp_platform.web.transport`), so a hostname cannot smuggle a private address past it.

What a function's settings add (ports besides 80 and 443, the test-only loopback switch) is its
`AddressPolicy`, applied once at cold start (`apply_policy`: the service app, the router's and the
authorization server's wiring). It is the process's, as the guard is: input validators and the
connect-time check run deep in pydantic and httpcore, where no settings object reaches. Until a
function applies one, the strict policy holds.
"""

from __future__ import annotations

import ipaddress
import socket
from dataclasses import dataclass
from typing import TYPE_CHECKING
from urllib.parse import urlsplit

from mcp_platform.protocol.errors import ToolError
from mcp_platform.web.errors import WebErrorCode

if TYPE_CHECKING:
    from mcp_platform.runtime.settings import FunctionSettings

IPAddress = ipaddress.IPv4Address | ipaddress.IPv6Address

STANDARD_PORTS = frozenset({80, 443})

_METADATA = frozenset(
    ipaddress.ip_address(a) for a in ("169.254.169.254", "fd00:ec2::254", "169.254.170.2", "100.100.100.200")
)
_CGNAT = ipaddress.ip_network("100.64.0.0/10")
_NAT64 = ipaddress.ip_network("64:ff9b::/96")
_IPV4_COMPATIBLE = ipaddress.ip_network("::/96")


class BlockedAddressError(ToolError):
    """A URL or resolved address the SSRF rules refuse; code `url_not_allowed`."""

    def __init__(self, message: str) -> None:
        super().__init__(message, WebErrorCode.URL_NOT_ALLOWED)


@dataclass(frozen=True)
class AddressPolicy:
    """What a function's settings let a caller's URL reach beyond public addresses on ports 80 and 443."""

    extra_ports: frozenset[int] = frozenset()
    """`SSRF_ALLOWED_PORTS` (template parameter `FetchExtraPorts`)."""
    loopback: bool = False
    """Test-only `SSRF_ALLOW_LOOPBACK=1`: 127.0.0.0/8 and ::1 on any port (local test servers)."""

    @classmethod
    def of(cls, settings: FunctionSettings) -> AddressPolicy:
        """The policy `settings` set; unparsable ports are ignored, and the loopback switch is refused in Lambda.

        In Lambda (`AWS_LAMBDA_FUNCTION_NAME` set), 127.0.0.1:9001 is the Runtime API (and loopback reaches
        extensions): a caller's URL there could read or answer invocations, whatever the switch says.
        """
        extra = (p.strip() for p in settings.ssrf_allowed_ports.split(","))
        ports = frozenset(int(p) for p in extra if p.isdigit() and 0 < int(p) < 65536)
        return cls(ports, settings.ssrf_allow_loopback and not settings.aws_lambda_function_name)

    @property
    def ports(self) -> frozenset[int]:
        """80, 443 and the extra ports."""
        return STANDARD_PORTS | self.extra_ports


_policy = AddressPolicy()


def apply_policy(policy: AddressPolicy) -> None:
    """Make `policy` the process's (at cold start, from the function's settings)."""
    global _policy  # noqa: PLW0603 - the one process-wide guard setting, set at cold start
    _policy = policy


def current_policy() -> AddressPolicy:
    return _policy


def port_refusal(port: int, host: str) -> str | None:
    """Why a URL to `host` may not use `port` (fetch's rule, also the shot proxy's), or None when it may.

    The test-only loopback switch frees the port of a name (tests point names at local servers) or a
    loopback address, never of another IP address.
    """
    literal = parse_ip_literal(host)
    policy = current_policy()
    if port in policy.ports or (policy.loopback and (literal is None or literal.is_loopback)):
        return None
    ports = ", ".join(str(p) for p in sorted(policy.ports))
    return f"port {port} is not allowed; use the scheme's default port or one of {ports}"


def forbidden_reason(ip: IPAddress) -> str | None:
    """Why `ip` may not be fetched, or None when it is a public address.

    Examples:
        >>> forbidden_reason(ipaddress.ip_address("::ffff:10.0.0.1"))
        'private address'
        >>> forbidden_reason(ipaddress.ip_address("93.184.215.14")) is None
        True
    """
    if ip in _METADATA:
        return "cloud metadata address"
    if isinstance(ip, ipaddress.IPv6Address) and (inner := embedded_ipv4(ip)) is not None:
        return forbidden_reason(inner)
    return _ipv4_or_v6_reason(ip)


def _ipv4_or_v6_reason(ip: IPAddress) -> str | None:
    checks = (
        (ip.is_loopback, "loopback address"),
        (ip.is_unspecified, "unspecified address"),
        (ip.is_link_local, "link-local address"),
        (ip.is_multicast, "multicast address"),
        (isinstance(ip, ipaddress.IPv4Address) and ip in _CGNAT, "carrier-grade NAT (CGNAT) address"),
        (ip.is_private, "private address"),
        (ip.is_reserved, "reserved address"),
        (not ip.is_global, "non-public address"),
    )
    for hit, reason in checks:
        if hit:
            if reason == "loopback address" and current_policy().loopback:
                return None
            return reason
    return None


def embedded_ipv4(ip: ipaddress.IPv6Address) -> ipaddress.IPv4Address | None:
    """The IPv4 address an IPv6 address carries (mapped, compatible, NAT64, 6to4, Teredo), if any."""
    if ip.ipv4_mapped is not None:
        return ip.ipv4_mapped
    if ip.sixtofour is not None:
        return ip.sixtofour
    if ip.teredo is not None:
        return ip.teredo[1]
    if ip in _NAT64 or (ip in _IPV4_COMPATIBLE and int(ip) > 1):
        return ipaddress.IPv4Address(int(ip) & 0xFFFFFFFF)
    return None


def parse_ip_literal(host: str) -> IPAddress | None:
    """`host` as an IP address if it is one in any spelling a resolver accepts, else None.

    Examples:
        >>> parse_ip_literal("0x7f.1")
        IPv4Address('127.0.0.1')
        >>> parse_ip_literal("example.com") is None
        True
    """
    host = host.strip("[]")
    try:
        return ipaddress.ip_address(host.split("%", 1)[0])
    except ValueError:
        pass
    try:
        # inet_aton takes the classic forms: 1-4 parts, each decimal, 0-octal or 0x-hex.
        return ipaddress.IPv4Address(socket.inet_aton(host))
    except OSError:
        return None


def check_address(ip: IPAddress, host: str) -> None:
    """Raise `BlockedAddressError` when `ip` (what `host` resolved to) is not public."""
    if reason := forbidden_reason(ip):
        raise BlockedAddressError(f"url: {host} resolves to {ip}, a {reason}; only public addresses may be fetched")


def check_url(url: str) -> str:
    """Syntax check of a URL to fetch (no DNS); returns it stripped or raises `BlockedAddressError`.

    Rules: http or https, a host, no user:password, port 80, 443 or one the policy adds
    (`SSRF_ALLOWED_PORTS`), and a host that is not an IP literal of a non-public address.
    Hostnames are checked again after resolution at connect time.

    Examples:
        >>> check_url("https://example.com/a")
        'https://example.com/a'
    """
    url = url.strip()
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError as exc:
        raise BlockedAddressError(f"url: not a valid URL ({exc})") from None
    if parts.scheme.lower() not in ("http", "https"):
        raise BlockedAddressError(f"url: scheme {parts.scheme or '(none)'!r} is not allowed; use http or https")
    host = parts.hostname
    if not host:
        raise BlockedAddressError("url: has no host; give an absolute http(s) URL")
    if parts.username is not None or parts.password is not None:
        raise BlockedAddressError("url: credentials (user:password@) in the URL are not allowed")
    if (ip := parse_ip_literal(host)) is not None:
        check_address(ip, host)
    if port is not None and (refusal := port_refusal(port, host)):
        raise BlockedAddressError(f"url: {refusal}")
    return url


def public_url(value: str) -> str:
    """`check_url` for a pydantic field validator: raises `ValueError` with the rule.

    Examples:
        >>> class Args(BaseModel):
        ...     url: Annotated[str, AfterValidator(public_url)]
    """
    try:
        return check_url(value)
    except BlockedAddressError as exc:
        raise ValueError(exc.message.removeprefix("url: ")) from None
