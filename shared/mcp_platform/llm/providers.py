"""Which LLM client a function gets: the provider, model and base URL its environment names, one client each.

Apart from `base` (the interface and its value types), so that the providers import `base` and this
module imports the providers, never the other way round.
"""

from __future__ import annotations

import os
from functools import lru_cache
from typing import Any

from mcp_platform.llm.base import (
    BASE_URL_ENV,
    DEFAULT_BASE_URLS,
    DEFAULT_MODELS,
    GEMINI_KEY_ENV,
    KEY_ENV,
    MODEL_ENV,
    PROVIDER_ENV,
    PROVIDERS,
    LlmClient,
)
from mcp_platform.protocol.errors import ToolError
from mcp_platform.storage.secrets import NOT_CONFIGURED, is_configured, secret_from_env

# Older per-provider model settings, still honoured when LLM_MODEL is unset.
_LEGACY_MODEL_ENV = {"gemini": "GEMINI_MODEL", "bedrock": "BEDROCK_MODEL_ID"}


def provider_name() -> str:
    return os.environ.get(PROVIDER_ENV, "gemini").strip().lower() or "gemini"


def _model(provider: str) -> str | None:
    legacy = _LEGACY_MODEL_ENV.get(provider, "")
    return (
        os.environ.get(MODEL_ENV, "").strip()
        or (os.environ.get(legacy, "").strip() if legacy else "")
        or DEFAULT_MODELS.get(provider)
    )


def _base_url(provider: str) -> str | None:
    configured = os.environ.get(BASE_URL_ENV, "").strip().rstrip("/")
    return configured or DEFAULT_BASE_URLS.get(provider)


def llm_settings() -> dict[str, Any]:
    """The configured provider, model and base URL, and the settings still missing (no secret is read).

    `missing` is empty exactly when `llm_from_env()` can build a client. For `openai` a key is
    required only at the public OpenAI URL: self-hosted servers (Ollama, vLLM, ...) often need none.
    """
    provider = provider_name()
    if provider not in PROVIDERS:
        return {"provider": provider, "model": None, "base_url": None, "missing": [PROVIDER_ENV]}
    model, base = _model(provider), _base_url(provider)
    missing = []
    if provider == "gemini" and not is_configured(GEMINI_KEY_ENV):
        missing.append(GEMINI_KEY_ENV)
    if provider == "openai":
        if not model:
            missing.append(MODEL_ENV)
        if base == DEFAULT_BASE_URLS["openai"] and not is_configured(KEY_ENV):
            missing.append(KEY_ENV)
    return {"provider": provider, "model": model, "base_url": base, "missing": missing}


def llm_from_env() -> LlmClient:
    """The container's client for the model `LLM_PROVIDER` names (gemini, the default; bedrock; openai).

    Built on first use and kept: later calls with the same provider, model, base URL and key get
    the same client, so its connections are reused. Each call's deadline goes to
    `complete(timeout=...)`. The key is looked up on every call (Powertools caches it for 5 min),
    so a rotated key gets a new client. Raises `provider_not_configured` naming the first missing setting.
    """
    settings = llm_settings()
    provider, model, base = settings["provider"], settings["model"], settings["base_url"]
    if settings["missing"] == [PROVIDER_ENV]:
        raise ToolError(f"{PROVIDER_ENV} must be one of {', '.join(PROVIDERS)}, not {provider!r}", NOT_CONFIGURED)
    key: str | None = None
    if provider == "openai":
        if not model:
            raise ToolError(
                f"the OpenAI-compatible model is not configured: set {MODEL_ENV} (e.g. llama3.2)",
                NOT_CONFIGURED,
                missing_setting=MODEL_ENV,
            )
        if KEY_ENV in settings["missing"] or is_configured(KEY_ENV):
            key = secret_from_env(KEY_ENV, "the OpenAI-compatible API key")
    elif provider == "gemini":
        key = secret_from_env(GEMINI_KEY_ENV, "the Gemini API key")
    return _client(provider, model, base, key)


@lru_cache(maxsize=4)
def _client(provider: str, model: str, base_url: str | None, key: str | None) -> LlmClient:
    """One client per configuration; a rotated key or changed settings make a new one, and the oldest of 4 goes."""
    if provider == "bedrock":
        from mcp_platform.llm.bedrock import BedrockClient

        return BedrockClient(model_id=model, endpoint_url=base_url)
    if provider == "openai":
        from mcp_platform.llm.openai import OpenAiClient

        return OpenAiClient(model=model, api_key=key)
    from mcp_platform.llm.gemini import GeminiClient

    return GeminiClient(api_key=key or "", model=model)


def forget_clients() -> None:
    """Drop the container's clients (tests; the next `llm_from_env()` builds anew)."""
    _client.cache_clear()
