"""Per-account request rate limits, enforced across router instances."""
