"""One interface to a text LLM, with Gemini (HTTP API via httpx) and Amazon Bedrock (Converse).

    >>> llm = llm_from_env()            # LLM_PROVIDER=gemini|bedrock
    >>> text = llm.complete(system="Summarize.", user="<page>...</page>", max_tokens=800)

`complete` raises `ToolError` (`upstream_unavailable`, `rate_limited`, or
`provider_not_configured` naming the missing setting), so tools can let errors through.
Gemini needs httpx (the `web` layer); Bedrock needs only boto3 (the common layer).
"""

from __future__ import annotations

from mcp_platform.llm.base import LlmClient, llm_from_env, llm_settings

__all__ = ["LlmClient", "llm_from_env", "llm_settings"]
