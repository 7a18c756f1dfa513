"""Tool contracts, one module per service: each defines `TOOLS: list[ToolSpec]`.

Contracts live in the common layer so the router can list, validate and price
every tool without invoking the service that implements it.
"""
