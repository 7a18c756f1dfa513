"""The platform's common layer: wire models, the tool registry, billing, auth and errors."""

__version__ = "0.1.0"
