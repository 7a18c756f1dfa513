"""The protocol core: JSON-RPC and MCP on the wire, schemas, errors, router↔service payloads."""
