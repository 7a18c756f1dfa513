"""Which LLM client a function gets: the provider, model and base URL its settings name, one client each.

Apart from `base` (the interface and its value types), so that the providers import `base` and this
module imports the providers, never the other way round.
"""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING, Any

from mcp_platform.llm.base import (
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
from mcp_platform.storage.secrets import NOT_CONFIGURED, read_secret

if TYPE_CHECKING:
    from mcp_platform.runtime.settings import LlmSettings


def provider_name(settings: LlmSettings) -> str:
    return settings.llm_provider.strip().lower() or "gemini"


def _model(settings: LlmSettings, provider: str) -> str | None:
    # Older per-provider model settings, still honoured when LLM_MODEL is unset.
    legacy = {"gemini": settings.gemini_model, "bedrock": settings.bedrock_model_id}.get(provider, "")
    return settings.llm_model.strip() or legacy.strip() or DEFAULT_MODELS.get(provider)


def _base_url(settings: LlmSettings, provider: str) -> str | None:
    return settings.llm_base_url.strip().rstrip("/") or DEFAULT_BASE_URLS.get(provider)


def llm_status(settings: LlmSettings) -> dict[str, Any]:
    """The configured provider, model and base URL, and the settings still missing (no secret is read).

    `missing` is empty exactly when `llm_client(settings)` can build a client. For `openai` a key is
    required only at the public OpenAI URL: self-hosted servers (Ollama, vLLM, ...) often need none.
    """
    provider = provider_name(settings)
    if provider not in PROVIDERS:
        return {"provider": provider, "model": None, "base_url": None, "missing": [PROVIDER_ENV]}
    model, base = _model(settings, provider), _base_url(settings, provider)
    missing = []
    if provider == "gemini" and not settings.gemini_api_key_parameter.strip():
        missing.append(GEMINI_KEY_ENV)
    if provider == "openai":
        if not model:
            missing.append(MODEL_ENV)
        if base == DEFAULT_BASE_URLS["openai"] and not settings.llm_api_key_parameter.strip():
            missing.append(KEY_ENV)
    return {"provider": provider, "model": model, "base_url": base, "missing": missing}


def llm_client(settings: LlmSettings) -> LlmClient:
    """The container's client for the model `settings` name (`LLM_PROVIDER`: gemini, the default; bedrock; openai).

    Built on first use and kept: later calls with the same provider, model, base URL and key get
    the same client, so its connections are reused. Each call's deadline goes to
    `complete(timeout=...)`. The key is looked up on every call (Powertools caches it for 5 min),
    so a rotated key gets a new client. Raises `provider_not_configured` naming the first missing setting.
    """
    status = llm_status(settings)
    provider, model, base = status["provider"], status["model"], status["base_url"]
    if status["missing"] == [PROVIDER_ENV]:
        raise ToolError(f"{PROVIDER_ENV} must be one of {', '.join(PROVIDERS)}, not {provider!r}", NOT_CONFIGURED)
    key: str | None = None
    if provider == "openai":
        if not model:
            raise ToolError(
                f"the OpenAI-compatible model is not configured: set {MODEL_ENV} (e.g. llama3.2)",
                NOT_CONFIGURED,
                missing_setting=MODEL_ENV,
            )
        if KEY_ENV in status["missing"] or settings.llm_api_key_parameter.strip():
            key = read_secret(settings.llm_api_key_parameter, setting=KEY_ENV, what="the OpenAI-compatible API key")
    elif provider == "gemini":
        key = read_secret(settings.gemini_api_key_parameter, setting=GEMINI_KEY_ENV, what="the Gemini API key")
    return _client(provider, model, base, key)


@lru_cache(maxsize=4)
def _client(provider: str, model: str, base_url: str | None, key: str | None) -> LlmClient:
    """One client per configuration; a rotated key or changed settings make a new one, and the oldest of 4 goes."""
    if provider == "bedrock":
        from mcp_platform.llm.bedrock import BedrockClient

        return BedrockClient(model_id=model, endpoint_url=base_url)
    if provider == "openai":
        from mcp_platform.llm.openai import OpenAiClient

        return OpenAiClient(model=model, api_key=key, base_url=base_url or "")
    from mcp_platform.llm.gemini import GeminiClient

    return GeminiClient(api_key=key or "", model=model, base_url=base_url or "")


def forget_clients() -> None:
    """Drop the container's clients (tests; the next `llm_client()` builds anew)."""
    _client.cache_clear()
