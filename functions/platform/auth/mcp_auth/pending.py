"""Authorization requests waiting for the person's decision on the consent page.

`/authorize` parks the validated request under a random id (stored hashed, ten minutes);
the consent page shows it and posts the decision back with the id and a CSRF token bound
to it. Wrong sign-in attempts are counted on the request; after `MAX_ATTEMPTS` it is dropped.
"""

from __future__ import annotations

import secrets
import time
from dataclasses import asdict, dataclass, replace
from typing import TYPE_CHECKING

import orjson

from mcp_platform.oauth.grants import digest

if TYPE_CHECKING:
    from collections.abc import Callable

    from mcp.server.auth.provider import AuthorizationParams
    from mcp.shared.auth import OAuthClientInformationFull

    from mcp_platform.oauth.grants import GrantStore

PENDING_SECONDS = 600
MAX_ATTEMPTS = 5


@dataclass(frozen=True)
class PendingRequest:
    client_id: str
    client_name: str
    """From the client's metadata: shown escaped, never trusted as markup."""
    redirect_uri: str
    redirect_uri_explicit: bool
    code_challenge: str
    state: str | None
    scopes: list[str] | None
    csrf_hash: str = ""
    attempts: int = 0
    account_id: str | None = None
    """Set once the person has signed in; the decision step needs it."""
    account_name: str = ""

    @classmethod
    def of(cls, client: OAuthClientInformationFull, params: AuthorizationParams) -> PendingRequest:
        return cls(
            client_id=client.client_id or "",
            client_name=client.client_name or client.client_id or "an unnamed application",
            redirect_uri=str(params.redirect_uri),
            redirect_uri_explicit=params.redirect_uri_provided_explicitly,
            code_challenge=params.code_challenge,
            state=params.state,
            scopes=params.scopes,
        )


class PendingRequests:
    def __init__(self, grants: GrantStore, clock: Callable[[], float] = time.time) -> None:
        self._grants = grants
        self._clock = clock

    def park(self, request: PendingRequest) -> str:
        """Store `request`; returns its id (the consent page's `request` parameter)."""
        request_id = secrets.token_urlsafe(32)
        self._put(request_id, request)
        return request_id

    def csrf_for(self, request_id: str) -> tuple[PendingRequest, str] | None:
        """The request and a fresh CSRF token bound to it (the page's form and cookie carry it)."""
        request = self.get(request_id)
        if request is None:
            return None
        token = secrets.token_urlsafe(32)
        self._put(request_id, replace(request, csrf_hash=digest(token)))
        return request, token

    def get(self, request_id: str) -> PendingRequest | None:
        body = self._grants.get_document(_key(request_id))
        return PendingRequest(**orjson.loads(body)) if body else None

    def failed_attempt(self, request_id: str, request: PendingRequest) -> int:
        """Count a wrong sign-in; the attempts left (0: the request is gone)."""
        attempts = request.attempts + 1
        if attempts >= MAX_ATTEMPTS:
            self._grants.take_document(_key(request_id))
            return 0
        self._put(request_id, replace(request, attempts=attempts))
        return MAX_ATTEMPTS - attempts

    def signed_in(self, request_id: str, request: PendingRequest, account_id: str, account_name: str) -> None:
        self._put(request_id, replace(request, account_id=account_id, account_name=account_name))

    def take(self, request_id: str) -> PendingRequest | None:
        """The request, removed (a decision is made once)."""
        body = self._grants.take_document(_key(request_id))
        return PendingRequest(**orjson.loads(body)) if body else None

    def _put(self, request_id: str, request: PendingRequest) -> None:
        expires = int(self._clock()) + PENDING_SECONDS
        self._grants.put_document(_key(request_id), orjson.dumps(asdict(request)).decode(), expires)


def _key(request_id: str) -> str:
    return "pending#" + digest(request_id)
