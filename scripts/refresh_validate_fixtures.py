"""Re-record tests/fixtures/validate/ from public DNS and EU VIES (needs internet).

    .venv/bin/python scripts/refresh_validate_fixtures.py

DNS answers are stored in the shape `tests/validate_support.py::RecordedResolver`
replays. VIES answers come from the production endpoint for the verdicts and from
VIES's own test service (`check-vat-test-service`, numbers 100 = valid, 200 =
invalid, others = error codes) for the error bodies that cannot be provoked at will.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import dns.resolver
import httpx

FIXTURES = Path(__file__).resolve().parent.parent / "tests/fixtures/validate"
VIES = "https://ec.europa.eu/taxation_customs/vies/rest-api"
DNS_QUERIES = [
    (".", "NS"),
    ("gmail.com", "MX"),
    ("example.com", "MX"),
    ("no-such-domain-3f9a1c.com", "MX"),
]
VIES_CALLS = {
    "vies_valid.json": ("check-vat-number", "DE", "136695976"),
    "vies_valid_named.json": ("check-vat-number", "IE", "6388047V"),
    "vies_invalid.json": ("check-vat-test-service", "DE", "200"),
    "vies_invalid_input.json": ("check-vat-test-service", "DE", "201"),
    "vies_ms_unavailable.json": ("check-vat-test-service", "DE", "301"),
}


def record_dns() -> dict[str, Any]:
    resolver = dns.resolver.Resolver()
    answers: dict[str, Any] = {}
    for name, rdtype in DNS_QUERIES:
        key = f"{name} {rdtype}"
        try:
            records = resolver.resolve(name, rdtype)
        except dns.resolver.NXDOMAIN:
            answers[key] = "NXDOMAIN"
            continue
        except dns.resolver.NoAnswer:
            answers[key] = "NoAnswer"
            continue
        if rdtype == "MX":
            answers[key] = {"MX": [[r.preference, str(r.exchange).rstrip(".")] for r in records]}
        elif rdtype == "TXT":
            answers[key] = {"TXT": [b"".join(r.strings).decode() for r in records]}
        else:
            answers[key] = {rdtype: [r.to_text().rstrip(".") for r in records]}
    return answers


def record_vies() -> dict[str, Any]:
    out = {}
    with httpx.Client(timeout=30) as client:
        for filename, (path, country, number) in VIES_CALLS.items():
            response = client.post(f"{VIES}/{path}", json={"countryCode": country, "vatNumber": number})
            out[filename] = response.json()
    return out


if __name__ == "__main__":
    (FIXTURES / "dns_answers.json").write_text(json.dumps(record_dns(), indent=2) + "\n")
    for filename, body in record_vies().items():
        (FIXTURES / filename).write_text(json.dumps(body, indent=2) + "\n")
    print(f"refreshed {FIXTURES}")
