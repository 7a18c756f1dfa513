"""Gemini through its HTTP API (`generateContent`) with httpx."""

from __future__ import annotations

import base64
from typing import TYPE_CHECKING, Any

import httpx

from mcp_platform.errors import ErrorCode, ToolError
from mcp_platform.llm.base import DEFAULT_BASE_URLS, DEFAULT_TIMEOUT, GEMINI_KEY_ENV, Completion, Image
from mcp_platform.upstream import request_json

if TYPE_CHECKING:
    from collections.abc import Sequence


class GeminiClient:
    """`LlmClient` for Gemini; the key goes in the `x-goog-api-key` header, never the URL.

    `base_url` is the API root up to the version (`https://generativelanguage.googleapis.com/v1beta`).
    """

    def __init__(
        self,
        *,
        api_key: str,
        model: str,
        base_url: str | None = None,
        client: httpx.Client | None = None,
        timeout: float = DEFAULT_TIMEOUT,
    ) -> None:
        self.name = f"gemini/{model}"
        self._url = f"{(base_url or DEFAULT_BASE_URLS['gemini']).rstrip('/')}/models/{model}:generateContent"
        self._key = api_key
        self._client = client or httpx.Client(timeout=timeout)

    def complete(
        self,
        *,
        system: str,
        user: str,
        images: Sequence[Image] = (),
        max_tokens: int = 1024,
        temperature: float = 0.2,
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
            self._url,
            backend="Gemini",
            key_setting=GEMINI_KEY_ENV,
            json=body,
            headers={"x-goog-api-key": self._key},
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
        raise ToolError(f"Gemini returned no text (reason: {reason or 'unknown'})", ErrorCode.UPSTREAM_UNAVAILABLE)
    return text
