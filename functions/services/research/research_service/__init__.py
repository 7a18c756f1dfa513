"""research: quote-gated research briefs, source lookups, comparisons and the credits card (seed 004)."""
