"""Credits: a balance per account and an immutable ledger that always sums to it."""
