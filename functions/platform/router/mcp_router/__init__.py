"""The router: MCP streamable HTTP (stateless), auth, billing and dispatch to service Lambdas."""
