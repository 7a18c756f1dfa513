"""OpenAI-compatible Chat Completions (`POST {base}/chat/completions`) on the shared backend client.

The same wire format is spoken by OpenAI, Ollama (`http://127.0.0.1:11434/v1`), vLLM, LM Studio,
llama.cpp's server and LiteLLM, so one client serves them all. The key is optional: self-hosted
servers usually need none. Images go as `image_url` parts with `data:` URLs (vision models only).
"""

from __future__ import annotations

import base64
from typing import TYPE_CHECKING, Any

from mcp_platform.llm.base import BASE_URL_ENV, DEFAULT_BASE_URLS, DEFAULT_TIMEOUT, KEY_ENV, Completion, Image
from mcp_platform.outbound import upstream
from mcp_platform.outbound.provider_http import deadline_in, keyed_client, provider_backend, request_json

if TYPE_CHECKING:
    from collections.abc import Sequence

    import httpx

LABEL = "the OpenAI-compatible model server"
BACKEND = provider_backend("openai", LABEL, BASE_URL_ENV, DEFAULT_BASE_URLS["openai"] or "", timeout_s=120)


class OpenAiClient:
    """`LlmClient` for any OpenAI-compatible server at `base_url`, the function's `LLM_BASE_URL` (up to the
    version: `.../v1`; empty: OpenAI's own API).

    Each call ends within its `timeout` (default 20 s). `http` (tests: a mock transport) replaces
    the container's shared connection pool.
    """

    def __init__(
        self, *, model: str, api_key: str | None = None, base_url: str = "", http: httpx.Client | None = None
    ) -> None:
        self.name = f"openai/{model}"
        self._model = model
        headers = {"Authorization": f"Bearer {api_key}"} if api_key else {}
        self._client = keyed_client(BACKEND, base_url, headers, http)
        # OpenAI itself wants `max_completion_tokens` (its reasoning models refuse `max_tokens`);
        # the self-hosted servers (Ollama, vLLM, llama.cpp, LM Studio) read `max_tokens`.
        at_openai = BACKEND.base_url(base_url) == DEFAULT_BASE_URLS["openai"]
        self._max_tokens_field = "max_completion_tokens" if at_openai else "max_tokens"

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
        content: str | list[dict[str, Any]] = user
        if images:
            content = [{"type": "text", "text": user}] + [
                {"type": "image_url", "image_url": {"url": _data_url(image)}} for image in images
            ]
        body = {
            "model": self._model,
            "messages": [{"role": "system", "content": system}, {"role": "user", "content": content}],
            self._max_tokens_field: max_tokens,
            "temperature": temperature,
            "stream": False,
        }
        payload = request_json(
            self._client,
            "POST",
            "/chat/completions",
            body=body,
            deadline=deadline_in(DEFAULT_TIMEOUT if timeout is None else timeout),
            refused=f"check the API key in the parameter named by {KEY_ENV}",
        )
        usage = (payload.get("usage") if isinstance(payload, dict) else None) or {}
        return Completion(_text(payload), self.name, usage.get("prompt_tokens"), usage.get("completion_tokens"))


def _data_url(image: Image) -> str:
    return f"data:{image.media_type};base64,{base64.b64encode(image.data).decode()}"


def _text(payload: Any) -> str:
    choices = (payload.get("choices") if isinstance(payload, dict) else None) or []
    message = (choices[0].get("message") or {}) if choices else {}
    content = message.get("content")
    if isinstance(content, list):  # some servers answer with content parts
        content = "".join(part.get("text", "") for part in content if isinstance(part, dict))
    text = (content or "").strip()
    if not text:
        reason = choices[0].get("finish_reason") if choices else "no choices"
        raise upstream.bad_answer(LABEL, f"no text, finish reason: {reason or 'unknown'}")
    return text
