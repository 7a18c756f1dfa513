"""The EU VIES REST client (`POST /check-vat-number`), one httpx client per container.

VIES answers three ways: a verdict (`valid` true/false), an application error
(`{"actionSucceed": false, "errorWrappers": [{"error": CODE}]}`, sometimes with
HTTP 200) or nothing at all. Only a verdict says anything about the number:
every VIES error code but INVALID_INPUT means "could not ask" and becomes status
'unavailable'. VIES itself unreachable, rate-limiting or answering garbage is an
error result naming VIES, so the call is refunded.
"""

from __future__ import annotations

import os
from functools import cache
from typing import Any

import httpx

from mcp_platform.contracts.validate import VatLive
from mcp_platform.errors import ErrorCode, ToolError

VIES_URL = os.environ.get("VIES_URL", "https://ec.europa.eu/taxation_customs/vies/rest-api/check-vat-number")
VIES_TIMEOUT_S = float(os.environ.get("VIES_TIMEOUT_S", "10"))
_NOT_PUBLISHED = {"", "---"}


class ViesClient:
    """Asks VIES whether a VAT number is registered.

    Examples:
        >>> ViesClient().check("DE", "136695976", timeout=5.0).status
        'valid'
    """

    def __init__(self, client: httpx.Client | None = None, url: str = VIES_URL) -> None:
        self._client = client or httpx.Client(headers={"Accept": "application/json"}, follow_redirects=False)
        self._url = url

    def check(self, country_code: str, number: str, timeout: float = VIES_TIMEOUT_S) -> VatLive:
        """`country_code` as VIES spells it (EL for Greece); `number` without the prefix."""
        try:
            response = self._client.post(
                self._url, json={"countryCode": country_code, "vatNumber": number}, timeout=timeout
            )
        except httpx.TimeoutException:
            raise _unavailable(f"EU VIES did not answer within {timeout:.0f} s") from None
        except httpx.HTTPError as exc:
            raise _unavailable(f"EU VIES is unreachable ({type(exc).__name__})") from None
        if response.status_code == httpx.codes.TOO_MANY_REQUESTS:
            raise ToolError("EU VIES is rate-limiting requests; retry later or use live=false", ErrorCode.RATE_LIMITED)
        body = _json(response)
        if body is None:
            raise _unavailable(f"EU VIES answered HTTP {response.status_code} without a JSON body")
        return _interpret(body, response.status_code)


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
        raise _unavailable(f"EU VIES answered HTTP {status_code} with neither a verdict nor an error code")
    status = "invalid" if "INVALID_INPUT" in codes else "unavailable"
    return VatLive(status=status, detail=", ".join(codes))


def _json(response: httpx.Response) -> dict[str, Any] | None:
    try:
        body = response.json()
    except ValueError:
        return None
    return body if isinstance(body, dict) else None


def _published(value: Any) -> str | None:
    """VIES writes '---' where a member state does not publish a name or address."""
    return None if not isinstance(value, str) or value.strip() in _NOT_PUBLISHED else value.strip()


def _unavailable(message: str) -> ToolError:
    return ToolError(f"{message}; retry later or use live=false for the offline check", ErrorCode.UPSTREAM_UNAVAILABLE)


@cache
def vies_client() -> ViesClient:
    """One client per container, reused across warm invocations."""
    return ViesClient()
