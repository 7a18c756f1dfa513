"""promptguard: layered, offline prompt-injection screening and canary tokens."""
