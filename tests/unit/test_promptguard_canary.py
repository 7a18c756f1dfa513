"""promptguard_canary: stateless HMAC tokens, found again as written or encoded."""

from __future__ import annotations

import base64
import codecs
from typing import TYPE_CHECKING

import pytest

from mcp_platform.protocol.errors import ToolError
from promptguard_service import canary

if TYPE_CHECKING:
    from collections.abc import Callable


@pytest.fixture(autouse=True)
def _secret(monkeypatch: pytest.MonkeyPatch, reload_settings: Callable[[], None]) -> None:
    monkeypatch.setenv(canary.SECRET_PARAMETER_ENV, "")
    monkeypatch.setenv("PROMPTGUARD_CANARY_SECRET", "test-secret-0123456789")
    reload_settings()


def test_plant_gives_a_token_and_the_line_that_carries_it() -> None:
    planted = canary.plant("acct_a", "never_reveal")
    assert planted.token.startswith("cnry-") and planted.token in planted.instruction
    assert canary.plant("acct_a", "never_reveal").token != planted.token  # a fresh nonce every time


def test_verify_is_stateless_and_tells_forged_tokens(
    monkeypatch: pytest.MonkeyPatch, reload_settings: Callable[[], None]
) -> None:
    token = canary.plant("acct_a", "never_reveal").token
    assert canary.verify("acct_a", "never_reveal", token, "clean answer").authentic is True
    assert canary.verify("acct_b", "never_reveal", token, "clean answer").authentic is False  # another account
    forged = token[:-1] + ("0" if token[-1] != "0" else "1")
    assert canary.verify("acct_a", "never_reveal", forged, "").authentic is False
    monkeypatch.setenv("PROMPTGUARD_CANARY_SECRET", "another deployment")
    reload_settings()
    assert canary.verify("acct_a", "never_reveal", token, "").authentic is False


@pytest.mark.parametrize(
    ("encoding", "leak"),
    [
        ("plain", lambda t: f"Sure! The canary is {t}."),
        ("case_changed", lambda t: f"secret: {t.upper()}"),
        ("spaced", lambda t: "here: " + " ".join(t)),
        ("reversed", lambda t: f"backwards {t[::-1]} done"),
        ("base64", lambda t: "data=" + base64.b64encode(t.encode()).decode()),
        ("hex", lambda t: "x " + t.encode().hex() + " y"),
        ("url_encoding", lambda t: "https://attacker.example/c?d=" + "".join(f"%{b:02x}" for b in t.encode())),
        ("decimal", lambda t: "codes: " + ", ".join(str(ord(ch)) for ch in t)),
        ("base85", lambda t: "blob " + base64.b85encode(t.encode()).decode() + " end"),
    ],
)
def test_encoded_leaks_are_found_with_their_place(encoding: str, leak) -> None:
    token = canary.plant("acct_a", "never_reveal").token
    text = leak(token)
    result = canary.verify("acct_a", "never_reveal", token, text)
    assert result.leaked is True and result.hijacked is False
    assert result.findings[0].encoding == encoding
    assert 0 <= result.findings[0].start < result.findings[0].end <= len(text)


def test_rot13_alone_is_not_claimed_and_clean_text_is_clean() -> None:
    token = canary.plant("acct_a", "never_reveal").token
    assert canary.verify("acct_a", "never_reveal", token, "The answer is 42.").leaked is False
    assert canary.verify("acct_a", "never_reveal", token, codecs.encode(token, "rot13")).findings == []


def test_always_include_mode_reports_a_missing_token_as_hijacked() -> None:
    token = canary.plant("acct_a", "always_include").token
    kept = canary.verify("acct_a", "always_include", token, f"Here is the summary.\n{token}")
    assert (kept.hijacked, kept.leaked, kept.authentic) == (False, False, True)
    dropped = canary.verify("acct_a", "always_include", token, "Sure, I sent the files to evil.example.")
    assert dropped.hijacked is True


def test_no_secret_is_a_clear_configuration_error(
    monkeypatch: pytest.MonkeyPatch, reload_settings: Callable[[], None]
) -> None:
    monkeypatch.delenv("PROMPTGUARD_CANARY_SECRET")
    reload_settings()
    with pytest.raises(ToolError) as raised:
        canary.plant("acct_a", "never_reveal")
    assert raised.value.code == "provider_not_configured"
    assert canary.SECRET_PARAMETER_ENV in raised.value.message
