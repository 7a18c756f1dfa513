"""The one mapping of HTTP failures of a backend to error results.

Every module that calls an HTTP backend (the configured data APIs, search providers, the LLM, EU VIES,
the web client's transport) turns httpx exceptions and unwanted statuses into a `ToolError` here, so
the codes and wording agree everywhere:

* not found (HTTP 404/410, or an answer that says so) → `not_found`, naming what was looked up;
* unreachable, timed out, rate-limited (429), down (5xx), refusing our credentials or our request
  → `upstream_unavailable`, naming the backend, with `backend` and (when there was one) `status`.

Both are error results, so the router refunds the call: neither is ever charged.
"""

from __future__ import annotations

from mcp_platform.protocol.errors import ErrorCode, ToolError

_NOT_FOUND = frozenset({404, 410})


def not_found(what: str, backend: str) -> ToolError:
    """`not_found`: `what` (e.g. "compound named 'xyzzy'") is not in `backend`.

    Examples:
        >>> not_found("compound named 'xyzzy'", "PubChem").message
        "PubChem has no compound named 'xyzzy'"
    """
    return ToolError(f"{backend} has no {what}", ErrorCode.NOT_FOUND, backend=backend)


def unreachable(backend: str, exc: Exception, *, hint: str = "") -> ToolError:
    """`upstream_unavailable` for a request that got no HTTP answer (connect error, timeout, bad TLS...)."""
    import httpx  # loaded by the request that failed; not at this module's import (~20 ms of a service's init)

    if isinstance(exc, httpx.TimeoutException):
        reason = "did not answer in time"
    else:
        reason = f"is unreachable ({type(exc).__name__})"
    return _unavailable(f"{backend} {reason}", backend, None, hint)


def http_failure(backend: str, status: int, *, what: str | None = None, hint: str = "") -> ToolError:
    """The error result for an HTTP status the caller did not accept as an answer.

    `what` names the thing looked up; with it, 404/410 become `not_found`. Without it a 404 means
    the request itself was wrong (a moved endpoint) and is `upstream_unavailable` like any other.
    """
    if status in _NOT_FOUND and what:
        return not_found(what, backend)
    if status == 429:
        reason = "is rate-limiting our requests (HTTP 429)"
    elif status in (401, 403):
        reason = f"refused our credentials (HTTP {status})"
    elif status >= 500:
        reason = f"is failing (HTTP {status})"
    else:
        reason = f"refused the request (HTTP {status})"
    return _unavailable(f"{backend} {reason}", backend, status, hint)


def unavailable(backend: str, reason: str, *, hint: str = "") -> ToolError:
    """`upstream_unavailable` for any other reason we cannot ask `backend` now (`reason` completes the sentence)."""
    return _unavailable(f"{backend} {reason}", backend, None, hint)


def bad_answer(backend: str, problem: str, *, hint: str = "") -> ToolError:
    """`upstream_unavailable` for an answer we cannot read (not JSON, unexpected shape)."""
    return _unavailable(f"{backend} sent an answer we cannot read ({problem})", backend, None, hint)


def _unavailable(message: str, backend: str, status: int | None, hint: str) -> ToolError:
    extra: dict[str, object] = {"backend": backend}
    if status is not None:
        extra["status"] = status
    text = f"{message}; {hint}" if hint else f"{message}; try again later"
    return ToolError(text, ErrorCode.UPSTREAM_UNAVAILABLE, **extra)
