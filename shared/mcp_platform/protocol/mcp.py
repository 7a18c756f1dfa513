"""MCP vocabulary shared by the router and its tests: versions, meta keys, the tool result."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import orjson

if TYPE_CHECKING:
    from mcp_platform.protocol.payloads import ServiceReply

LEGACY_VERSIONS = ("2025-03-26", "2025-06-18", "2025-11-25")
"""Legacy-era revisions (initialize handshake), oldest first."""
MODERN_VERSIONS = ("2026-07-28",)
"""Modern-era revisions (stateless, server/discover, per-request _meta)."""
LATEST_LEGACY = LEGACY_VERSIONS[-1]
DEFAULT_NEGOTIATED = "2025-03-26"
"""What a request without an MCP-Protocol-Version header speaks (the transport spec's rule)."""

PROTOCOL_VERSION_META = "io.modelcontextprotocol/protocolVersion"
CLIENT_CAPABILITIES_META = "io.modelcontextprotocol/clientCapabilities"
CLIENT_INFO_META = "io.modelcontextprotocol/clientInfo"
SERVER_INFO_META = "io.modelcontextprotocol/serverInfo"


def tool_result(reply: ServiceReply) -> dict[str, Any]:
    """The `tools/call` result of seed 000.

    `content[0].text` is the JSON of `structuredContent` and `isError` mirrors
    `structuredContent.is_error`; extra blocks (images) follow the text block.

    Examples:
        >>> tool_result(ServiceReply(structured_content={"ok": True}))
        {'content': [{'type': 'text', 'text': '{"ok":true}'}], 'structuredContent': {'ok': True}, 'isError': False}
    """
    text = orjson.dumps(reply.structured_content).decode()
    return {
        "content": [{"type": "text", "text": text}, *reply.content],
        "structuredContent": reply.structured_content,
        "isError": reply.is_error,
    }
