"""API keys and accounts: keys are stored only as SHA-256 hashes."""
