"""Signing in by a one-time code sent to the account's email (the address it signed up with).

A code is six digits, works once, for ten minutes and five tries; it is stored as a hash with
its address. Asking for a code answers the same whether or not the address has an account, so
the form tells nobody which addresses exist. SES sends it in AWS; `make dev` prints it on the
console and keeps it on a local outbox page instead (`SIGN_IN_OUTBOX=local`).
"""

from __future__ import annotations

import hmac
import secrets
import threading
import time
from collections import deque
from dataclasses import asdict, dataclass, replace
from typing import TYPE_CHECKING, Any, Protocol

import orjson

from mcp_platform.oauth.grants import digest
from mcp_platform.runtime.observability import logger

if TYPE_CHECKING:
    from collections.abc import Callable

    from mcp_platform.oauth.grants import GrantStore

CODE_SECONDS = 600
MAX_CODE_ATTEMPTS = 5


class Outbox(Protocol):
    def send(self, to: str, subject: str, text: str) -> None: ...


class SesOutbox:
    def __init__(self, ses: Any, sender: str) -> None:
        self._ses = ses
        self._sender = sender

    def send(self, to: str, subject: str, text: str) -> None:
        if not self._sender:
            logger.warning("no EmailFromAddress configured: a sign-in code was not sent")
            return
        self._ses.send_email(
            FromEmailAddress=self._sender,
            Destination={"ToAddresses": [to]},
            Content={"Simple": {"Subject": {"Data": subject}, "Body": {"Text": {"Data": text}}}},
        )


class LocalOutbox:
    """`make dev`'s mail: printed on the console and listed at /account/outbox (newest first, 50 kept)."""

    def __init__(self) -> None:
        self.messages: deque[tuple[str, str, str]] = deque(maxlen=50)
        self._lock = threading.Lock()

    def send(self, to: str, subject: str, text: str) -> None:
        with self._lock:
            self.messages.appendleft((to, subject, text))
        print(f"[local outbox] to {to}: {subject}: {text}", flush=True)


@dataclass(frozen=True)
class _Code:
    code_hash: str
    account_id: str
    expires_at: int
    attempts: int = 0


class EmailCodes:
    def __init__(
        self,
        grants: GrantStore,
        account_for_email: Callable[[str], str | None],
        outbox: Outbox,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self._grants = grants
        self._account_for = account_for_email
        self._outbox = outbox
        self._clock = clock

    def send(self, email: str) -> None:
        """Send a new code if `email` has an account; silently nothing otherwise."""
        account_id = self._account_for(email)
        if account_id is None:
            return
        code = f"{secrets.randbelow(10**6):06d}"
        self._put(email, _Code(_hash(email, code), account_id, int(self._clock()) + CODE_SECONDS))
        self._outbox.send(email, "Your sign-in code", f"Your code is {code}. It works once, for ten minutes.")

    def verify(self, email: str, code: str) -> str | None:
        """The account, if `code` is the live code for `email`; a wrong one uses up one of its tries."""
        body = self._grants.get_document(_key(email))
        if body is None:
            return None
        stored = _Code(**orjson.loads(body))
        if hmac.compare_digest(_hash(email, code.strip()), stored.code_hash):
            return stored.account_id if self._grants.take_document(_key(email)) else None
        if stored.attempts + 1 >= MAX_CODE_ATTEMPTS:
            self._grants.take_document(_key(email))
        else:
            self._put(email, replace(stored, attempts=stored.attempts + 1))
        return None

    def _put(self, email: str, code: _Code) -> None:
        self._grants.put_document(_key(email), orjson.dumps(asdict(code)).decode(), code.expires_at)


def _hash(email: str, code: str) -> str:
    return digest(f"{email}\x00{code}")


def _key(email: str) -> str:
    return "email-code#" + digest(email)
