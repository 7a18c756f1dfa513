"""OAuth 2.1 grants of the MCP authorization spec: what the authorization server issues and the router accepts."""
