"""hello: greets the caller; the platform's end-to-end smoke test."""
