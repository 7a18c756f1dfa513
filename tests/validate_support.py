"""Recorded DNS answers for email deliverability tests (tests/fixtures/validate/dns_answers.json)."""

from __future__ import annotations

import json
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import dns.resolver

FIXTURES = Path(__file__).resolve().parent / "fixtures" / "validate"


def fixture(name: str) -> Any:
    return json.loads((FIXTURES / name).read_text())


class RecordedResolver:
    """Answers `resolve(name, type)` from the recording; unrecorded questions have no answer."""

    def __init__(self, answers: dict[str, Any] | None = None) -> None:
        self.answers = fixture("dns_answers.json") if answers is None else answers
        self.asked: list[str] = []

    def resolve(self, qname: str, rdtype: str) -> list[SimpleNamespace]:
        key = f"{qname} {rdtype}"
        self.asked.append(key)
        answer = self.answers.get(key, "NoAnswer")
        if answer == "NXDOMAIN":
            raise dns.resolver.NXDOMAIN
        if answer == "NoAnswer":
            raise dns.resolver.NoAnswer
        records = answer[rdtype]
        if rdtype == "MX":
            return [SimpleNamespace(preference=p, exchange=f"{host}.") for p, host in records]
        if rdtype in ("A", "AAAA"):
            return [SimpleNamespace(address=address) for address in records]
        if rdtype == "TXT":
            return [SimpleNamespace(strings=[text.encode()]) for text in records]
        return [SimpleNamespace(target=value) for value in records]
