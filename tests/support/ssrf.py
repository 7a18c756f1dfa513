"""The SSRF guard's policy for one test: what a function's settings would apply at cold start."""

from __future__ import annotations

from typing import TYPE_CHECKING

from mcp_platform.web import addresses
from mcp_platform.web.addresses import AddressPolicy

if TYPE_CHECKING:
    import pytest

LOOPBACK = AddressPolicy(loopback=True)
"""The test-only switch on: local test servers on 127.0.0.1 may be fetched, on any port."""
STRICT = AddressPolicy()
"""Public addresses on ports 80 and 443 only, as in Lambda."""


def use_policy(monkeypatch: pytest.MonkeyPatch, policy: AddressPolicy) -> None:
    """`policy` for the rest of this test; the process's policy comes back after it."""
    monkeypatch.setattr(addresses, "_policy", policy)
