"""The EU VIES REST client (`POST /check-vat-number`) on the shared backend client.

VIES answers three ways: a verdict (`valid` true/false), an application error
(`{"actionSucceed": false, "errorWrappers": [{"error": CODE}]}`, with HTTP 200, 400 or 500)
or nothing useful at all. Only a verdict says anything about the number: every VIES error
code but INVALID_INPUT means "could not ask" and becomes status 'unavailable'. VIES itself
unreachable, rate-limiting or answering garbage is an error result naming VIES (the one
mapping in `mcp_platform.outbound.upstream`), so the call is refunded.
"""

from __future__ import annotations

from dataclasses import replace
from functools import cache
from typing import Any

from mcp_platform.backends import Backend, BackendClient
from mcp_platform.contracts.validate import VatLive
from mcp_platform.outbound import upstream
from mcp_platform.protocol import json_text
from validate_service.settings import settings

VIES = Backend(
    "vies",
    "EU VIES",
    "VIES_BASE_URL",
    "https://ec.europa.eu",
    rate_per_s=2,
    burst=2,
    cache_ttl_s=0,  # a registration can end any day; VIES answers are never reused
)
"""The origin and timeout are validate's settings (VIES_BASE_URL, VIES_TIMEOUT_S)."""
CHECK_PATH = "/taxation_customs/vies/rest-api/check-vat-number"
HINT = "retry later or use live=false for the offline check"
_ANSWERS = frozenset({400, 500})
"""VIES sends its application errors (INVALID_INPUT, MS_UNAVAILABLE, ...) with these statuses too."""
_NOT_PUBLISHED = {"", "---"}


def endpoint() -> str:
    """The check URL at the configured origin (`VIES_BASE_URL`)."""
    return VIES.base_url(settings().vies_base_url) + CHECK_PATH


class ViesClient:
    """Asks VIES whether a VAT number is registered.

    Examples:
        >>> ViesClient().check("DE", "136695976", deadline=ctx.deadline_epoch).status
        'valid'
    """

    def __init__(self, client: BackendClient) -> None:
        self._client = client

    def check(self, country_code: str, number: str, deadline: float | None = None) -> VatLive:
        """`country_code` as VIES spells it (EL for Greece); `number` without the prefix."""
        response = self._client.post(
            CHECK_PATH,
            {"countryCode": country_code, "vatNumber": number},
            accept=_ANSWERS,
            deadline=deadline,
            hint=HINT,
        )
        body = _json(response.body)
        if body is None:
            raise upstream.bad_answer(VIES.label, f"HTTP {response.status} without a JSON body", hint=HINT)
        return _interpret(body, response.status)


def _interpret(body: dict[str, Any], status_code: int) -> VatLive:
    if isinstance(body.get("valid"), bool):
        return VatLive(
            status="valid" if body["valid"] else "invalid",
            name=_published(body.get("name")),
            address=_published(body.get("address")),
            request_date=body.get("requestDate"),
        )
    codes = [str(w.get("error")) for w in body.get("errorWrappers") or [] if isinstance(w, dict) and w.get("error")]
    if not codes:
        raise upstream.bad_answer(VIES.label, f"HTTP {status_code} with neither a verdict nor an error code", hint=HINT)
    status = "invalid" if "INVALID_INPUT" in codes else "unavailable"
    return VatLive(status=status, detail=", ".join(codes))


def _json(raw: bytes) -> dict[str, Any] | None:
    try:
        body = json_text.loads(raw)
    except ValueError:
        return None
    return body if isinstance(body, dict) else None


def _published(value: Any) -> str | None:
    """VIES writes '---' where a member state does not publish a name or address."""
    return None if not isinstance(value, str) or value.strip() in _NOT_PUBLISHED else value.strip()


def vies_client() -> ViesClient:
    """One client per container, reused across warm invocations, as validate's settings configure it."""
    return _vies_client(settings().vies_base_url, settings().vies_timeout_s)


@cache
def _vies_client(origin: str, timeout_s: float) -> ViesClient:
    return ViesClient(BackendClient(replace(VIES, timeout_s=timeout_s), origin=origin))
