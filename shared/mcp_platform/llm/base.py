"""The LLM interface and the configuration that picks an implementation."""

from __future__ import annotations

import os
from functools import lru_cache
from typing import Any, Protocol

from mcp_platform.errors import ToolError
from mcp_platform.secrets import NOT_CONFIGURED, secret_from_env

PROVIDER_ENV = "LLM_PROVIDER"
GEMINI_KEY_ENV = "GEMINI_API_KEY_PARAMETER"
DEFAULT_GEMINI_MODEL = "gemini-2.5-flash-lite"
DEFAULT_BEDROCK_MODEL = "amazon.nova-lite-v1:0"


class LlmClient(Protocol):
    """A text-in, text-out model call."""

    name: str
    """`provider/model`, for status tools and results."""

    def complete(
        self,
        *,
        system: str,
        user: str,
        max_tokens: int = 1024,
        temperature: float = 0.2,
        timeout: float | None = None,
    ) -> str:
        """The model's answer to `user` under `system`; raises `ToolError` on any failure.

        `timeout` (seconds) caps this call, for callers that must answer before their own
        deadline; None keeps the client's default.
        """
        ...


def llm_settings() -> dict[str, Any]:
    """The configured provider and model and the settings still missing (no secret is read)."""
    provider = os.environ.get(PROVIDER_ENV, "gemini").strip().lower() or "gemini"
    if provider == "bedrock":
        return {
            "provider": "bedrock",
            "model": os.environ.get("BEDROCK_MODEL_ID") or DEFAULT_BEDROCK_MODEL,
            "missing": [],
        }
    if provider != "gemini":
        return {"provider": provider, "model": None, "missing": [PROVIDER_ENV]}
    missing = [] if os.environ.get(GEMINI_KEY_ENV, "").strip() else [GEMINI_KEY_ENV]
    return {"provider": "gemini", "model": os.environ.get("GEMINI_MODEL") or DEFAULT_GEMINI_MODEL, "missing": missing}


def llm_from_env() -> LlmClient:
    """The container's client for `LLM_PROVIDER` (gemini, the default, or bedrock), built once.

    The HTTP or boto client inside (TLS context, connection pool) is what a per-call
    client would rebuild every time; per-call deadlines go to `complete(timeout=...)`.
    A rotated Gemini key (read through the secrets cache) builds a new client.
    """
    settings = llm_settings()
    if settings["provider"] not in ("gemini", "bedrock"):
        raise ToolError(f"{PROVIDER_ENV} must be gemini or bedrock, not {settings['provider']!r}", NOT_CONFIGURED)
    key = secret_from_env(GEMINI_KEY_ENV, "the Gemini API key") if settings["provider"] == "gemini" else ""
    return _client(settings["provider"], settings["model"], key)


@lru_cache(maxsize=4)
def _client(provider: str, model: str, api_key: str) -> LlmClient:
    if provider == "bedrock":
        from mcp_platform.llm.bedrock import BedrockClient

        return BedrockClient(model_id=model)
    from mcp_platform.llm.gemini import GeminiClient

    return GeminiClient(api_key=api_key, model=model)
