"""API key format: `mcp_` + 43 URL-safe characters (32 random bytes)."""

from __future__ import annotations

import hashlib
import re
import secrets

KEY_PREFIX = "mcp_"
_KEY_SHAPE = re.compile(r"^mcp_[A-Za-z0-9_-]{43}$")


def generate_key() -> str:
    """A new random API key. It is shown once and never stored in clear."""
    return KEY_PREFIX + secrets.token_urlsafe(32)


def is_well_formed(key: str) -> bool:
    return bool(_KEY_SHAPE.match(key))


def hash_key(key: str) -> str:
    """The stored form of a key. Keys are 256-bit random, so a fast unsalted hash is safe here."""
    return hashlib.sha256(key.encode()).hexdigest()


def display_prefix(key: str) -> str:
    """Enough of a key to recognise it in a listing (`mcp_AbCd…`), never enough to use it."""
    return key[: len(KEY_PREFIX) + 4] + "…"
