"""SPF (RFC 7208), DMARC (RFC 7489) and DKIM key (RFC 6376) records: parsing, no I/O.

The SPF lookup count follows includes and redirects through a `txt` function the
caller gives, so the rules are tested without DNS.
"""

from __future__ import annotations

import base64
import binascii
import re
from typing import TYPE_CHECKING

from mcp_platform.contracts.email import DkimKey, Dmarc, Spf, SpfTerm

if TYPE_CHECKING:
    from collections.abc import Callable

MAX_SPF_LOOKUPS = 10
"""RFC 7208 4.6.4: more DNS-querying terms than this is a permerror at every receiver."""
_MECHANISMS = frozenset({"all", "include", "a", "mx", "ptr", "ip4", "ip6", "exists"})
_QUERYING = frozenset({"include", "a", "mx", "ptr", "exists", "redirect"})
_TERM = re.compile(r"^(?P<q>[+\-~?]?)(?P<name>[A-Za-z][A-Za-z0-9_.-]*)(?P<sep>[:=/]?)(?P<value>.*)$")
_POLICIES = ("none", "quarantine", "reject")


def is_spf(record: str) -> bool:
    return record.lower() == "v=spf1" or record.lower().startswith("v=spf1 ")


def is_dmarc(record: str) -> bool:
    return re.match(r"^v\s*=\s*DMARC1\s*(;|$)", record, re.IGNORECASE) is not None


def spf_record(domain: str, txt: Callable[[str], list[str]]) -> Spf:
    """The SPF policy published at `domain`, with its DNS lookups counted through `txt`."""
    records = [record for record in txt(domain) if is_spf(record)]
    if len(records) != 1:
        errors = [f"{len(records)} SPF records; exactly one is allowed (permerror)"] if records else []
        return Spf(records_found=len(records), errors=errors)
    terms, errors = parse_spf(records[0])
    lookups = _count_lookups(terms, txt, seen={domain}, errors=errors)
    if lookups > MAX_SPF_LOOKUPS:
        errors.append(f"{lookups} DNS lookups; receivers stop at {MAX_SPF_LOOKUPS} (permerror)")
    all_term = next((term for term in terms if term.kind == "all"), None)
    return Spf(
        record=records[0],
        records_found=1,
        terms=terms,
        all=(all_term.qualifier or "+") if all_term else None,
        dns_lookups=lookups,
        errors=errors,
    )


def parse_spf(record: str) -> tuple[list[SpfTerm], list[str]]:
    """The terms of one `v=spf1` record and the syntax errors found."""
    terms: list[SpfTerm] = []
    errors: list[str] = []
    for raw in record.split()[1:]:
        match = _TERM.match(raw)
        if match is None:
            errors.append(f"unparsable term {raw!r}")
            continue
        name, sep, value = match["name"].lower(), match["sep"], match["value"]
        if sep == "=":
            if match["q"]:
                errors.append(f"a modifier takes no qualifier: {raw!r}")
            terms.append(SpfTerm(kind=name, value=value))
        elif name in _MECHANISMS:
            terms.append(SpfTerm(qualifier=match["q"] or "+", kind=name, value=(sep + value).lstrip(":") or None))
        else:
            errors.append(f"unknown mechanism {raw!r}")
    return terms, errors


def _count_lookups(terms: list[SpfTerm], txt: Callable[[str], list[str]], *, seen: set[str], errors: list[str]) -> int:
    count = 0
    for term in terms:
        if term.kind not in _QUERYING:
            continue
        count += 1
        if term.kind in {"include", "redirect"} and term.value and "%" not in term.value:
            target = term.value.lower().rstrip(".")
            if target in seen:
                errors.append(f"{term.kind} loop through {target}")
                continue
            seen.add(target)
            nested = [record for record in txt(target) if is_spf(record)]
            if len(nested) != 1:
                errors.append(f"{term.kind}:{target} has {len(nested)} SPF records")
                continue
            nested_terms, nested_errors = parse_spf(nested[0])
            errors.extend(f"{target}: {error}" for error in nested_errors)
            count += _count_lookups(nested_terms, txt, seen=seen, errors=errors)
        if count > 2 * MAX_SPF_LOOKUPS:
            break  # far over the limit already; stop querying
    return count


def dmarc_record(records: list[str]) -> Dmarc:
    """The DMARC policy among the TXT records at `_dmarc.<domain>`."""
    found = [record for record in records if is_dmarc(record)]
    if len(found) != 1:
        errors = [f"{len(found)} DMARC records; exactly one is allowed"] if found else []
        return Dmarc(records_found=len(found), errors=errors)
    tags, errors = _tags(found[0])
    policy = tags.get("p", "").lower()
    subdomain = tags.get("sp", "").lower()
    if policy not in _POLICIES:
        errors.append("p= is missing or not none/quarantine/reject")
    if subdomain and subdomain not in _POLICIES:
        errors.append("sp= is not none/quarantine/reject")
    percent = _int(tags.get("pct"), errors, "pct")
    return Dmarc(
        record=found[0],
        records_found=1,
        policy=policy if policy in _POLICIES else None,  # type: ignore[arg-type]
        subdomain_policy=subdomain if subdomain in _POLICIES else None,  # type: ignore[arg-type]
        percent=percent,
        rua=_uris(tags.get("rua")),
        ruf=_uris(tags.get("ruf")),
        adkim=_alignment(tags.get("adkim"), errors, "adkim"),
        aspf=_alignment(tags.get("aspf"), errors, "aspf"),
        errors=errors,
    )


def dkim_key(selector: str, records: list[str]) -> DkimKey:
    """The DKIM key published at `<selector>._domainkey.<domain>`, if any."""
    candidates = [record for record in records if "p=" in record.replace(" ", "")]
    if not candidates:
        return DkimKey(selector=selector, found=False)
    tags, _ = _tags(candidates[0])
    key_type = tags.get("k", "rsa").lower()
    public = re.sub(r"\s+", "", tags.get("p", ""))
    return DkimKey(
        selector=selector,
        found=True,
        key_type=key_type,
        key_bits=_rsa_bits(public) if key_type == "rsa" and public else None,
        testing="y" in tags.get("t", "").lower().split(":"),
        revoked=public == "",
    )


def _tags(record: str) -> tuple[dict[str, str], list[str]]:
    tags: dict[str, str] = {}
    errors: list[str] = []
    for part in record.split(";"):
        if not part.strip():
            continue
        name, eq, value = part.partition("=")
        if not eq:
            errors.append(f"unparsable tag {part.strip()!r}")
            continue
        tags.setdefault(name.strip().lower(), value.strip())
    return tags, errors


def _int(value: str | None, errors: list[str], name: str) -> int | None:
    if value is None:
        return None
    if not value.isdigit() or int(value) > 100:
        errors.append(f"{name}= must be 0-100")
        return None
    return int(value)


def _alignment(value: str | None, errors: list[str], name: str) -> str | None:
    if value is None:
        return None
    if value.lower() not in {"r", "s"}:
        errors.append(f"{name}= must be r or s")
        return None
    return value.lower()


def _uris(value: str | None) -> list[str]:
    return [uri.strip() for uri in (value or "").split(",") if uri.strip()]


def _rsa_bits(public_b64: str) -> int | None:
    """Modulus size of a DER SubjectPublicKeyInfo (or bare RSAPublicKey) RSA key; None if it does not parse."""
    try:
        der = base64.b64decode(public_b64 + "=" * (-len(public_b64) % 4), validate=True)
        return _modulus_bits(der)
    except (binascii.Error, ValueError, IndexError):
        return None


def _read(der: bytes, at: int) -> tuple[int, int, int]:
    """(tag, start of content, end of content) of the DER element at `at`."""
    tag, length = der[at], der[at + 1]
    at += 2
    if length & 0x80:
        size = length & 0x7F
        length = int.from_bytes(der[at : at + size], "big")
        at += size
    if at + length > len(der):
        raise ValueError("truncated DER")
    return tag, at, at + length


def _modulus_bits(der: bytes) -> int:
    tag, start, _ = _read(der, 0)  # SEQUENCE: SubjectPublicKeyInfo or RSAPublicKey
    if tag != 0x30:
        raise ValueError("not a DER sequence")
    first, first_start, first_end = _read(der, start)
    if first == 0x30:  # AlgorithmIdentifier; the key follows as a BIT STRING
        bits_tag, bits_start, _ = _read(der, first_end)
        if bits_tag != 0x03:
            raise ValueError("no key bit string")
        return _modulus_bits(der[bits_start + 1 :])  # skip the unused-bits byte
    if first != 0x02:
        raise ValueError("no modulus")
    modulus = der[first_start:first_end].lstrip(b"\x00")
    return int.from_bytes(modulus, "big").bit_length()
