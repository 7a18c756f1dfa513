"""The LLM interface, its values, and the configuration that picks an implementation."""

from __future__ import annotations

import os
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING, Any, Protocol

from mcp_platform.errors import ErrorCode, ToolError
from mcp_platform.secrets import NOT_CONFIGURED, is_configured, secret_from_env

if TYPE_CHECKING:
    from collections.abc import Sequence

PROVIDER_ENV = "LLM_PROVIDER"
MODEL_ENV = "LLM_MODEL"
BASE_URL_ENV = "LLM_BASE_URL"
KEY_ENV = "LLM_API_KEY_PARAMETER"
GEMINI_KEY_ENV = "GEMINI_API_KEY_PARAMETER"
PROVIDERS = ("gemini", "bedrock", "openai")
DEFAULT_MODELS = {"gemini": "gemini-2.5-flash-lite", "bedrock": "amazon.nova-lite-v1:0", "openai": None}
DEFAULT_BASE_URLS = {
    "gemini": "https://generativelanguage.googleapis.com/v1beta",
    "openai": "https://api.openai.com/v1",
    "bedrock": None,  # botocore's regional endpoint
}
# Older per-provider model settings, still honoured when LLM_MODEL is unset.
_LEGACY_MODEL_ENV = {"gemini": "GEMINI_MODEL", "bedrock": "BEDROCK_MODEL_ID"}
DEFAULT_TIMEOUT = 20.0

IMAGE_TYPES = {"image/png": "png", "image/jpeg": "jpeg", "image/gif": "gif", "image/webp": "webp"}
"""Media types every provider accepts (value: Bedrock's `format` name)."""
MAX_IMAGE_BYTES = 3_750_000
"""Largest image every provider takes (Bedrock Converse's per-image limit; Gemini and OpenAI allow more)."""


@dataclass(frozen=True)
class Image:
    """One image sent beside the text: raw bytes and their media type (one of `IMAGE_TYPES`)."""

    data: bytes
    media_type: str

    def __post_init__(self) -> None:
        if self.media_type not in IMAGE_TYPES:
            raise ToolError(
                f"image type {self.media_type!r} cannot be sent to the model; use one of {sorted(IMAGE_TYPES)}",
                ErrorCode.INVALID_ARGUMENTS,
            )
        if not self.data:
            raise ToolError("an image sent to the model is empty", ErrorCode.INVALID_ARGUMENTS)
        if len(self.data) > MAX_IMAGE_BYTES:
            raise ToolError(
                f"an image sent to the model has {len(self.data)} bytes; at most {MAX_IMAGE_BYTES} are accepted "
                "(downscale or recompress it first)",
                ErrorCode.INVALID_ARGUMENTS,
            )


@dataclass(frozen=True)
class Completion:
    """A model's answer and the token usage the provider reported for it.

    `input_tokens` / `output_tokens` are the provider's own counts (Gemini `usageMetadata`,
    Bedrock `usage`, OpenAI `usage`); None when the server did not report them (some
    OpenAI-compatible servers omit `usage`), so callers can tell an estimate from a count.
    """

    text: str
    model: str
    """`provider/model` that answered."""
    input_tokens: int | None = None
    output_tokens: int | None = None


class LlmClient(Protocol):
    """A model call: text (and optionally images) in, text and token usage out."""

    name: str
    """`provider/model`, for status tools and results."""

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
        """The model's answer to `user` (with `images` after the text) under `system`.

        `timeout` (seconds) caps this call, for callers that must answer before their own
        deadline; None keeps the provider's default. Raises `ToolError`: `upstream_unavailable`
        (unreachable, timed out, rate-limited, HTTP error, no text), or `invalid_arguments` for an
        image the providers cannot take.
        """
        ...


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
