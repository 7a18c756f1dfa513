"""One interface to an LLM: Gemini (HTTP API), Amazon Bedrock (Converse), OpenAI-compatible servers.

    >>> llm = llm_client(settings())    # the function's LlmSettings (LLM_PROVIDER=gemini|bedrock|openai); kept
    >>> answer = llm.complete(system="Summarize.", user="<page>...</page>", max_tokens=800, timeout=12.0)
    >>> answer.text, answer.input_tokens, answer.output_tokens
    >>> llm.complete(system="Describe.", user="What is shown?", images=[Image(png_bytes, "image/png")])

`complete` raises `ToolError` (`upstream_unavailable` from `mcp_platform.outbound.upstream`, naming the
backend, or `provider_not_configured` naming the missing setting), so tools can let errors through.
Gemini and OpenAI-compatible servers go through the shared backend client (deadline, retries of
429/503 with Retry-After); Bedrock through boto3.
"""

from __future__ import annotations

from mcp_platform.llm.base import IMAGE_TYPES, MAX_IMAGE_BYTES, Completion, Image, LlmClient
from mcp_platform.llm.providers import forget_clients, llm_client, llm_status

__all__ = [
    "IMAGE_TYPES",
    "MAX_IMAGE_BYTES",
    "Completion",
    "Image",
    "LlmClient",
    "forget_clients",
    "llm_client",
    "llm_status",
]
