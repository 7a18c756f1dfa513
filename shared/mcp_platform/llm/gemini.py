"""Gemini through its HTTP API (`generateContent`) on the shared backend client."""

from __future__ import annotations

import base64
from typing import TYPE_CHECKING, Any

from mcp_platform.llm.base import BASE_URL_ENV, DEFAULT_BASE_URLS, DEFAULT_TIMEOUT, GEMINI_KEY_ENV, Completion, Image
from mcp_platform.outbound import upstream
from mcp_platform.outbound.provider_http import deadline_in, keyed_client, provider_backend, request_json

if TYPE_CHECKING:
    from collections.abc import Sequence

    import httpx

BACKEND = provider_backend("gemini", "Gemini", BASE_URL_ENV, DEFAULT_BASE_URLS["gemini"] or "", timeout_s=120)


class GeminiClient:
    """`LlmClient` for Gemini; the key goes in the `x-goog-api-key` header, never the URL.

    The API root up to the version is `base_url`, the function's `LLM_BASE_URL` (empty: the default
    `https://generativelanguage.googleapis.com/v1beta`); each call ends within its `timeout`
    (default 20 s). `http` (tests: a mock transport) replaces the container's shared connection pool.
    """

    def __init__(self, *, api_key: str, model: str, base_url: str = "", http: httpx.Client | None = None) -> None:
        self.name = f"gemini/{model}"
        self._path = f"/models/{model}:generateContent"
        self._client = keyed_client(BACKEND, base_url, {"x-goog-api-key": api_key}, http)

    def complete(
        self,
        *,
        system: str,
        user: str,
        images: Sequence[Image] = (),
        max_tokens: int = 1024,
        temperature: float = 0.2,
        timeout: float | None = None,
    ) -> Completion:
        parts: list[dict[str, Any]] = [{"text": user}]
        parts += [
            {"inline_data": {"mime_type": image.media_type, "data": base64.b64encode(image.data).decode()}}
            for image in images
        ]
        body = {
            "systemInstruction": {"parts": [{"text": system}]},
            "contents": [{"role": "user", "parts": parts}],
            "generationConfig": {"maxOutputTokens": max_tokens, "temperature": temperature},
        }
        payload = request_json(
            self._client,
            "POST",
            self._path,
            body=body,
            deadline=deadline_in(DEFAULT_TIMEOUT if timeout is None else timeout),
            refused=f"check the API key in the parameter named by {GEMINI_KEY_ENV}",
        )
        usage = payload.get("usageMetadata") or {}
        output = usage.get("candidatesTokenCount")
        if output is not None and usage.get("thoughtsTokenCount"):
            output += usage["thoughtsTokenCount"]  # thinking models bill their thoughts as output
        return Completion(_text(payload), self.name, usage.get("promptTokenCount"), output)


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
        raise upstream.bad_answer("Gemini", f"no text, reason: {reason or 'unknown'}")
    return text
