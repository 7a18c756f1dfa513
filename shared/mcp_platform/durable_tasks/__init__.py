"""Durable MCP tasks: long tool calls answered with a handle the client polls (both protocol eras)."""
