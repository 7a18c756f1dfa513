"""The LLM interface, its values, and the configuration that picks an implementation."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

from mcp_platform.protocol.errors import ErrorCode, ToolError

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
