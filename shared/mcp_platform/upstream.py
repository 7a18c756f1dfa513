"""Calls to operator-configured backend APIs (search providers, LLM servers): one HTTP-failure mapping.

Configured backends are trusted by the operator, so these calls do not pass the user-URL SSRF
guard (`mcp_platform.web`), which stays on for every URL a caller gives. Every failure becomes a
`ToolError` naming the backend, never the key:

- unreachable / timed out → `upstream_unavailable`
- 401 / 403 → `upstream_unavailable`, naming the setting that holds the key (or the caller's `refused`)
- 429 → `rate_limited`
- any other 4xx / 5xx, or a body that is not JSON → `upstream_unavailable`
"""

from __future__ import annotations

import os
from typing import Any

import httpx

from mcp_platform.errors import ErrorCode, ToolError


def base_url(env_name: str, default: str) -> str:
    """The origin (with any path prefix) from `env_name`, else the public default; no trailing slash."""
    return (os.environ.get(env_name, "").strip() or default).rstrip("/")


def request_json(
    client: httpx.Client,
    method: str,
    url: str,
    *,
    backend: str,
    key_setting: str | None = None,
    refused: str | None = None,
    **kwargs: Any,
) -> Any:
    """The JSON body of `method url`; raises `ToolError` as the module docstring maps it.

    `key_setting` names the setting holding the key (for 401/403 messages); `refused` replaces
    the 401/403 explanation for backends without keys.
    """
    try:
        response = client.request(method, url, **kwargs)
    except httpx.TimeoutException:
        raise ToolError(f"{backend} did not answer in time", ErrorCode.UPSTREAM_UNAVAILABLE) from None
    except httpx.HTTPError as exc:
        raise ToolError(
            f"{backend} is unreachable ({exc.__class__.__name__})", ErrorCode.UPSTREAM_UNAVAILABLE
        ) from None
    status = response.status_code
    if status in (401, 403):
        why = refused or (
            f"rejected the API key; check the parameter named by {key_setting}" if key_setting else "refused the call"
        )
        raise ToolError(f"{backend} answered HTTP {status}: {why}", ErrorCode.UPSTREAM_UNAVAILABLE)
    if status == 429:
        raise ToolError(f"{backend} rate limit reached; try again shortly", ErrorCode.RATE_LIMITED)
    if status >= 400:
        raise ToolError(f"{backend} answered HTTP {status}", ErrorCode.UPSTREAM_UNAVAILABLE)
    try:
        return response.json()
    except ValueError:
        raise ToolError(f"{backend} sent a non-JSON answer", ErrorCode.UPSTREAM_UNAVAILABLE) from None
