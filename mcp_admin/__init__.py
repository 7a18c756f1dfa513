"""`mcp-admin`, the operator CLI: outside the layer every Lambda loads."""
