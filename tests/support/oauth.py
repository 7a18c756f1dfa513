"""Mint OAuth grants straight into a GrantStore, for router tests that need a token without the browser flow."""

from __future__ import annotations

import secrets
import time
from typing import TYPE_CHECKING

from mcp_platform.oauth.grants import ACCESS_PREFIX, Family, Grant, TokenRecord, digest, new_secret

if TYPE_CHECKING:
    from collections.abc import Sequence

    from mcp_platform.oauth.grants import GrantStore


def mint_access_token(
    grants: GrantStore,
    account_id: str,
    scopes: Sequence[str],
    resource: str,
    *,
    lifetime: int = 3600,
    client_id: str = "client_test",
) -> str:
    """A live access token of a new family (connected app) for `account_id`; returns the secret."""
    now = int(time.time())
    family_id = "fam_" + secrets.token_hex(8)
    family = Family(family_id, account_id, client_id, "Test client", tuple(scopes), now, now + 86400)
    grants.put_family(family)
    token = new_secret(ACCESS_PREFIX)
    grant = Grant(account_id, client_id, tuple(scopes), resource, family.family_id)
    grants.put_access(digest(token), TokenRecord(grant, now + lifetime))
    return token
