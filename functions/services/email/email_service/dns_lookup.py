"""DNS answers for the email tools, through dnspython with the configured resolver.

A name that does not exist or has no record of the type is an answer (an empty
list); a resolver that cannot answer (timeout, SERVFAIL, no network) is an
`upstream_unavailable` error naming DNS, so no verdict is ever drawn from a
lookup that did not happen.
"""

from __future__ import annotations

from functools import cache

import dns.exception
import dns.resolver

from email_service.settings import settings
from mcp_platform.protocol.errors import ErrorCode, ToolError


@cache
def resolver() -> dns.resolver.Resolver:
    """The container's resolver: DNS_NAMESERVERS (host or host:port) or the system's."""
    config = settings()
    if not config.dns_nameservers:
        resolver = dns.resolver.Resolver()
    else:
        resolver = dns.resolver.Resolver(configure=False)
        resolver.nameservers = []
        for server in config.dns_nameservers:
            host, _, port = server.rpartition(":") if server.count(":") == 1 else (server, "", "")
            resolver.nameservers.append(host)
            if port:
                resolver.port = int(port)
    resolver.lifetime = config.dns_timeout_s
    resolver.cache = dns.resolver.LRUCache()
    return resolver


def lookup(name: str, rdtype: str) -> list[dns.rdata.Rdata]:
    """The records of `rdtype` at `name`; [] when there are none."""
    try:
        return list(resolver().resolve(name, rdtype, raise_on_no_answer=False) or [])
    except dns.resolver.NXDOMAIN:
        return []
    except dns.exception.Timeout:
        raise ToolError(f"DNS: looking up {rdtype} {name} timed out", ErrorCode.UPSTREAM_UNAVAILABLE) from None
    except dns.exception.DNSException as exc:
        raise ToolError(
            f"DNS: no resolver could answer {rdtype} {name} ({type(exc).__name__})", ErrorCode.UPSTREAM_UNAVAILABLE
        ) from None


def txt(name: str) -> list[str]:
    """TXT records at `name`, each one's strings joined (RFC 7208 3.3)."""
    return [b"".join(record.strings).decode("utf-8", "replace") for record in lookup(name, "TXT")]


def mx(domain: str) -> list[tuple[int, str]]:
    """MX records as (preference, host), lowest preference first."""
    records = [(record.preference, record.exchange.to_text(omit_final_dot=True)) for record in lookup(domain, "MX")]
    return sorted(records)


def has_address(domain: str) -> bool:
    """Whether `domain` has an A or AAAA record (the implicit MX of RFC 5321 5.1)."""
    return bool(lookup(domain, "A") or lookup(domain, "AAAA"))
