"""Scopes: one per service (`tools:<service>`) and `credits:read` for the `credits://` resources.

An API key carries no scopes: it may do whatever its account may. A token carries
the scopes the person granted, always within its account's approved services.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Iterable

CREDITS_READ = "credits:read"
SERVICE_PREFIX = "tools:"


def service_scope(service: str) -> str:
    return SERVICE_PREFIX + service


def all_scopes(services: Iterable[str]) -> list[str]:
    """Every scope a deployment offers, services in the given order, then `credits:read`."""
    return [*(service_scope(s) for s in services), CREDITS_READ]


def services_of(scopes: Iterable[str]) -> frozenset[str]:
    return frozenset(s.removeprefix(SERVICE_PREFIX) for s in scopes if s.startswith(SERVICE_PREFIX))


def grantable(requested: Iterable[str] | None, account_services: Iterable[str]) -> list[str]:
    """What a token for this account may carry: the requested scopes it may have (all of them when none are named)."""
    allowed = all_scopes(sorted(account_services))
    if requested is None:
        return allowed
    wanted = set(requested)
    return [s for s in allowed if s in wanted]
