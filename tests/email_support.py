"""A DNS server on loopback (dnslib) answering from zones the email tests define; never the real DNS.

Names not in the zones answer NXDOMAIN, as a real authoritative server would.
"""

from __future__ import annotations

import base64
import socket
from functools import cache

from dnslib import QTYPE, RCODE, RR
from dnslib.server import BaseResolver, DNSServer


@cache
def rsa_key(bits: int) -> str:
    """Base64 DER SubjectPublicKeyInfo of an RSA public key of `bits` bits, as a DKIM p= tag carries it.

    Only the encoding matters to the tools, so the modulus is a random odd number of that size
    (cryptography refuses to generate keys under 1024 bits, and weak keys are what some tests need).
    """
    import secrets

    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric import rsa

    modulus = secrets.randbits(bits) | (1 << (bits - 1)) | 1
    public = rsa.RSAPublicNumbers(65537, modulus).public_key()
    der = public.public_bytes(serialization.Encoding.DER, serialization.PublicFormat.SubjectPublicKeyInfo)
    return base64.b64encode(der).decode("ascii")


def _txt(name: str, value: str) -> str:
    # TXT strings are at most 255 bytes each (RFC 1035); a DKIM key spans several.
    chunks = " ".join(f'"{value[i : i + 250]}"' for i in range(0, len(value), 250))
    return f"{name} 300 IN TXT {chunks}"


def zone_text() -> str:
    """The test zones: a well set-up domain, a weak one, SPF over its lookup limit, no-MX and null-MX domains."""
    many_includes = " ".join(f"include:spf{i}.many.example" for i in range(11))
    lines = [
        "good.example. 300 IN MX 10 mx1.good.example.",
        "good.example. 300 IN MX 20 mx2.good.example.",
        _txt("good.example.", "v=spf1 include:_spf.mail.example mx -all"),
        _txt("good.example.", "google-site-verification=abc"),
        _txt("_spf.mail.example.", "v=spf1 ip4:192.0.2.0/24 ip6:2001:db8::/32 -all"),
        _txt(
            "_dmarc.good.example.", "v=DMARC1; p=reject; sp=quarantine; rua=mailto:dmarc@good.example; adkim=s; aspf=r"
        ),
        _txt("selector1._domainkey.good.example.", f"v=DKIM1; k=rsa; p={rsa_key(2048)}"),
        "weak.example. 300 IN MX 10 mx.weak.example.",
        _txt("weak.example.", "v=spf1 ptr +all"),
        _txt("_dmarc.weak.example.", "v=DMARC1; p=none; pct=50"),
        _txt("s1._domainkey.weak.example.", f"v=DKIM1; t=y; p={rsa_key(512)}"),
        "many.example. 300 IN MX 10 mx.many.example.",
        _txt("many.example.", f"v=spf1 {many_includes} ~all"),
        *[_txt(f"spf{i}.many.example.", "v=spf1 a -all") for i in range(11)],
        _txt("twice.example.", "v=spf1 -all"),
        _txt("twice.example.", "v=spf1 mx -all"),
        "nomx.example. 300 IN A 192.0.2.10",
        "null-mx.example. 300 IN MX 0 .",
    ]
    return "\n".join(lines)


class ZoneResolver(BaseResolver):  # type: ignore[misc]
    def __init__(self, zone: str) -> None:
        self.records = RR.fromZone(zone)

    def resolve(self, request, handler):  # type: ignore[no-untyped-def]
        reply = request.reply()
        qname, qtype = request.q.qname, QTYPE[request.q.qtype]
        matching = [rr for rr in self.records if rr.rname == qname]
        if not matching:
            reply.header.rcode = RCODE.NXDOMAIN
        for rr in matching:
            if qtype in {"ANY", QTYPE[rr.rtype]}:
                reply.add_answer(rr)
        return reply


class LoopbackDns:
    """UDP and TCP on one free loopback port; `address` is what DNS_NAMESERVERS takes."""

    def __init__(self, zone: str | None = None) -> None:
        port = _free_port()
        resolver = ZoneResolver(zone if zone is not None else zone_text())
        self._servers = [
            DNSServer(resolver, address="127.0.0.1", port=port, tcp=tcp, logger=_Quiet()) for tcp in (False, True)
        ]
        self.address = f"127.0.0.1:{port}"

    def __enter__(self) -> LoopbackDns:
        for server in self._servers:
            server.start_thread()
        return self

    def __exit__(self, *_: object) -> None:
        for server in self._servers:
            server.stop()


class _Quiet:
    def __getattr__(self, _name: str):  # type: ignore[no-untyped-def]
        return lambda *args, **kwargs: None


def _free_port() -> int:
    # A port free for both UDP and TCP.
    while True:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as udp:
            udp.bind(("127.0.0.1", 0))
            port = udp.getsockname()[1]
            with socket.socket() as tcp:
                try:
                    tcp.bind(("127.0.0.1", port))
                except OSError:
                    continue
        return port
