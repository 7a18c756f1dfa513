"""SPF, DMARC and DKIM record readers, the grade, Authentication-Results and mailbox rules: no I/O."""

from __future__ import annotations

import pytest

from email_service import grading, records
from email_service.parsing import auth_results
from email_support import rsa_key
from mcp_platform.contracts.email import DkimKey, Dmarc, MxRecord, SendInput, Spf, mailbox


def spf_of(zone: dict[str, list[str]], domain: str = "d.example") -> Spf:
    return records.spf_record(domain, lambda name: zone.get(name, []))


def test_spf_terms_qualifiers_and_modifiers() -> None:
    spf = spf_of(
        {"d.example": ["v=spf1 ip4:192.0.2.0/24 -ip6:2001:db8::/32 ~a/24 mx:mail.d.example exp=why.d.example ?all"]}
    )
    kinds = [(term.qualifier, term.kind, term.value) for term in spf.terms]
    assert kinds == [
        ("+", "ip4", "192.0.2.0/24"),
        ("-", "ip6", "2001:db8::/32"),
        ("~", "a", "/24"),
        ("+", "mx", "mail.d.example"),
        (None, "exp", "why.d.example"),
        ("?", "all", None),
    ]
    assert (spf.all, spf.dns_lookups, spf.errors) == ("?", 2, [])


def test_spf_counts_nested_includes_and_redirect_and_stops_loops() -> None:
    zone = {
        "d.example": ["v=spf1 include:a.example redirect=r.example"],
        "a.example": ["v=spf1 include:b.example a -all"],
        "b.example": ["v=spf1 include:a.example -all"],
        "r.example": ["v=spf1 mx -all"],
    }
    spf = spf_of(zone)
    assert spf.dns_lookups == 6  # include a, include b, include a (loop), a, redirect, mx
    assert any("loop" in error for error in spf.errors)
    assert spf.all is None


def test_spf_errors() -> None:
    assert spf_of({"d.example": ["v=spf1 -all", "v=spf1 +all"]}).errors == [
        "2 SPF records; exactly one is allowed (permerror)"
    ]
    bad = spf_of({"d.example": ["v=spf1 foo:bar +exp=x include:missing.example -all"]})
    assert bad.errors == [
        "unknown mechanism 'foo:bar'",
        "a modifier takes no qualifier: '+exp=x'",
        "include:missing.example has 0 SPF records",
    ]
    assert spf_of({"d.example": ["not spf"]}).records_found == 0


def test_dmarc_tags_and_errors() -> None:
    dmarc = records.dmarc_record(["v=DMARC1;p=Quarantine; pct=25; rua=mailto:a@d.example, mailto:b@d.example; aspf=s"])
    assert (dmarc.policy, dmarc.percent, dmarc.rua, dmarc.aspf, dmarc.errors) == (
        "quarantine",
        25,
        ["mailto:a@d.example", "mailto:b@d.example"],
        "s",
        [],
    )
    broken = records.dmarc_record(["v=DMARC1; p=maybe; pct=300; adkim=x"])
    assert broken.policy is None and len(broken.errors) == 3
    assert records.dmarc_record(["v=spf1 -all"]).records_found == 0


@pytest.mark.parametrize("bits", [1024, 2048, 4096])
def test_dkim_key_size(bits: int) -> None:
    key = records.dkim_key("s", [f"v=DKIM1; k=rsa; p={rsa_key(bits)}"])
    assert (key.found, key.key_type, key.key_bits, key.revoked) == (True, "rsa", bits, False)


def test_dkim_revoked_missing_and_ed25519() -> None:
    assert records.dkim_key("s", ["v=DKIM1; p="]).revoked is True
    assert records.dkim_key("s", []).found is False
    ed = records.dkim_key("s", ["v=DKIM1; k=ed25519; p=11qYAYKxCrfVS/7TyWQHOg7hcvPapiMlrwIaaPcHURo="])
    assert (ed.key_type, ed.key_bits) == ("ed25519", None)


def test_grade_scale() -> None:
    good = grading.findings(
        [MxRecord(preference=10, host="mx.d.example")],
        spf_of({"d.example": ["v=spf1 mx -all"]}),
        records.dmarc_record(["v=DMARC1; p=reject; rua=mailto:r@d.example"]),
        [DkimKey(selector="s", found=True, key_type="rsa", key_bits=2048)],
    )
    assert grading.grade(good) == (100, "A")
    nothing = grading.findings([], Spf(records_found=0), Dmarc(records_found=0), [DkimKey(selector="s", found=False)])
    assert grading.grade(nothing) == (10, "F")


def test_authentication_results_with_comments_and_quotes() -> None:
    (spf, dkim) = auth_results(
        'mx.example; spf=softfail (ip not allowed) smtp.mailfrom="a@b.example"; dkim=none; arc=pass'
    )[:2]
    assert (spf.authserv_id, spf.method, spf.result, spf.properties) == (
        "mx.example",
        "spf",
        "softfail",
        {"smtp.mailfrom": "a@b.example"},
    )
    assert (dkim.method, dkim.result) == ("dkim", "none")
    assert auth_results("mx.example; none") == []


@pytest.mark.parametrize(
    ("rest", "properties"),
    [
        ("smtp.mailfrom=a@b.example header.d=b.example", {"smtp.mailfrom": "a@b.example", "header.d": "b.example"}),
        ('header.b = "ab cd" policy.iprev=192.0.2.1', {"header.b": "ab cd", "policy.iprev": "192.0.2.1"}),
        ("..header.d=b.example", {"header.d": "b.example"}),
        ("x.header.d=b.example", {"x.header.d": "b.example"}),
        ("header..d=v", {"header..d": "v"}),
        ("header.=v header=v .=v", {}),
        ('header.d="open a.b=c', {"header.d": "open", "a.b": "c"}),
        ('header.d="x"y.z=w', {"header.d": "x", "y.z": "w"}),
        ("header.d=a.b=c", {"header.d": "a.b=c"}),
        ("a.a.a.a.a" * 400 + " header.d=v", {"header.d": "v"}),
        ("-" * 4000 + "." + "-" * 4000, {}),
    ],
)
def test_authentication_results_properties(rest: str, properties: dict[str, str]) -> None:
    """Keys are whole `ptype.property` tokens; long tokens without `=` are where the pattern had backtracked."""
    (result,) = auth_results(f"mx.example; spf=pass {rest}")
    assert result.properties == properties


@pytest.mark.parametrize(
    ("value", "properties"),
    [
        ("mx.example; spf=pass (a (b) smtp.mailfrom=x) header.d=d", {"smtp.mailfrom": "x)", "header.d": "d"}),
        ("mx.example; spf=pass (comment) smtp.mailfrom=x", {"smtp.mailfrom": "x"}),
        ("mx.example; spf=pass (no close smtp.mailfrom=x", {"smtp.mailfrom": "x"}),
        ("mx.example; spf=pass (a)(b smtp.mailfrom=x", {"smtp.mailfrom": "x"}),
        ("mx.example; spf=pass " + "(" * 4000 + " smtp.mailfrom=x", {"smtp.mailfrom": "x"}),
    ],
)
def test_authentication_results_comments(value: str, properties: dict[str, str]) -> None:
    """A comment runs from `(` to the next `)`; an unclosed `(` is left as text."""
    (result,) = auth_results(value)
    assert result.properties == properties


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("anna@d.example", "anna@d.example"),
        ("Anna Smith <anna@d.example>", "Anna Smith <anna@d.example>"),
        ('"Smith, Anna" <anna@d.example>', '"Smith, Anna" <anna@d.example>'),
        ("Ünal <unal@bücher.example>", "Ünal <unal@bücher.example>"),
    ],
)
def test_mailbox_accepts_one_address(value: str, expected: str) -> None:
    assert mailbox(value) == expected


@pytest.mark.parametrize(
    "value",
    [
        "a@d.example, b@d.example",
        "a@d.example\r\nBcc: x@d.example",
        "group: a@d.example;",
        "anna",
        "a@localhost",
        "@d.example",
    ],
)
def test_mailbox_refuses_everything_else(value: str) -> None:
    with pytest.raises(ValueError, match="address"):
        mailbox(value)


def test_send_input_keeps_headers_single_line() -> None:
    with pytest.raises(ValueError, match="subject must be one line"):
        SendInput(to=["a@d.example"], subject="Hi\nBcc: x@d.example", text="x")
