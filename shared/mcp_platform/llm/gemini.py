"""Gemini through its HTTP API (`generateContent`) with httpx."""

from __future__ import annotations

from typing import Any

import httpx

from mcp_platform.errors import ErrorCode, ToolError

API = "https://generativelanguage.googleapis.com/v1beta/models"
DEFAULT_TIMEOUT = 20.0


class GeminiClient:
    """`LlmClient` for Gemini; the key goes in the `x-goog-api-key` header, never the URL."""

    def __init__(
        self, *, api_key: str, model: str, client: httpx.Client | None = None, timeout: float = DEFAULT_TIMEOUT
    ) -> None:
        self.name = f"gemini/{model}"
        self._model = model
        self._key = api_key
        self._timeout = timeout
        self._client = client or httpx.Client(timeout=timeout)

    def complete(
        self,
        *,
        system: str,
        user: str,
        max_tokens: int = 1024,
        temperature: float = 0.2,
        timeout: float | None = None,
    ) -> str:
        body = {
            "systemInstruction": {"parts": [{"text": system}]},
            "contents": [{"role": "user", "parts": [{"text": user}]}],
            "generationConfig": {"maxOutputTokens": max_tokens, "temperature": temperature},
        }
        try:
            response = self._client.post(
                f"{API}/{self._model}:generateContent",
                json=body,
                headers={"x-goog-api-key": self._key},
                timeout=timeout if timeout is not None else self._timeout,
            )
        except httpx.HTTPError as exc:
            raise ToolError(
                f"Gemini is unreachable ({exc.__class__.__name__})", ErrorCode.UPSTREAM_UNAVAILABLE
            ) from None
        if response.status_code == 429:
            raise ToolError("Gemini rate limit reached; try again shortly", ErrorCode.RATE_LIMITED)
        if response.status_code >= 400:
            raise ToolError(f"Gemini answered HTTP {response.status_code}", ErrorCode.UPSTREAM_UNAVAILABLE)
        return _text(response.json())


def _text(payload: dict[str, Any]) -> str:
    candidates = payload.get("candidates") or []
    parts = (candidates[0].get("content") or {}).get("parts") or [] if candidates else []
    text = "".join(part.get("text", "") for part in parts).strip()
    if not text:
        reason = (
            candidates[0].get("finishReason")
            if candidates
            else (payload.get("promptFeedback") or {}).get("blockReason")
        )
        raise ToolError(f"Gemini returned no text (reason: {reason or 'unknown'})", ErrorCode.UPSTREAM_UNAVAILABLE)
    return text
