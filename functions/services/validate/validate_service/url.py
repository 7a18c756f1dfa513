"""URLs through pydantic-core's WHATWG parser (the `url` crate) and `idna` for host names."""

from __future__ import annotations

import ipaddress
from typing import TYPE_CHECKING

import idna
from pydantic_core import PydanticCustomError, Url, ValidationError

from mcp_platform.contracts.validate import UrlInput, UrlOutput

if TYPE_CHECKING:
    from mcp_platform.runtime.service import ServiceContext


def validate_url(arguments: UrlInput, _ctx: ServiceContext) -> UrlOutput:
    try:
        url = Url(arguments.url.strip())
    except (ValidationError, PydanticCustomError) as exc:
        detail = exc.errors()[0].get("ctx", {}).get("error") if isinstance(exc, ValidationError) else str(exc)
        return UrlOutput(valid=False, reason=f"not an absolute URL: {detail}")
    parts = UrlOutput(
        valid=True,
        normalized=str(url),
        scheme=url.scheme,
        host=url.host,
        host_unicode=url.unicode_host(),
        port=url.port,
        path=url.path,
        query=url.query,
        fragment=url.fragment,
        has_credentials=bool(url.username or url.password),
    )
    reason = _problem(url, arguments.allowed_schemes)
    return parts.model_copy(update={"valid": False, "reason": reason}) if reason else parts


def _problem(url: Url, allowed_schemes: list[str]) -> str | None:
    if url.scheme not in allowed_schemes:
        return f"scheme {url.scheme!r} is not one of {allowed_schemes}"
    if url.host is None or _is_ip_literal(url.host):
        return None
    try:
        idna.decode(url.host)
    except idna.IDNAError as exc:
        return f"host is not a valid domain name: {exc}"
    return None


def _is_ip_literal(host: str) -> bool:
    try:
        ipaddress.ip_address(host.strip("[]"))
    except ValueError:
        return False
    return True
