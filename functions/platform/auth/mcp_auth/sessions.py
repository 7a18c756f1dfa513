"""Portal sessions: a random cookie, stored hashed with its account and its CSRF token, for an hour."""

from __future__ import annotations

import hmac
import secrets
import time
from dataclasses import asdict, dataclass
from typing import TYPE_CHECKING

import orjson

from mcp_platform.oauth.grants import digest

if TYPE_CHECKING:
    from collections.abc import Callable

    from mcp_platform.oauth.grants import GrantStore

SESSION_COOKIE = "mcp_session"
SESSION_SECONDS = 3600


@dataclass(frozen=True)
class Session:
    account_id: str
    csrf: str
    """Every portal form carries it; a post without it (or with another) is refused."""

    def csrf_ok(self, token: str) -> bool:
        return bool(token) and hmac.compare_digest(token, self.csrf)


class Sessions:
    def __init__(self, grants: GrantStore, clock: Callable[[], float] = time.time) -> None:
        self._grants = grants
        self._clock = clock

    def start(self, account_id: str) -> str:
        """A new session; returns the cookie value."""
        token = secrets.token_urlsafe(32)
        session = Session(account_id, secrets.token_urlsafe(32))
        expires = int(self._clock()) + SESSION_SECONDS
        self._grants.put_document(_key(token), orjson.dumps(asdict(session)).decode(), expires)
        return token

    def get(self, token: str | None) -> Session | None:
        body = self._grants.get_document(_key(token)) if token else None
        return Session(**orjson.loads(body)) if body else None

    def end(self, token: str) -> None:
        self._grants.take_document(_key(token))


def _key(token: str) -> str:
    return "session#" + digest(token)
