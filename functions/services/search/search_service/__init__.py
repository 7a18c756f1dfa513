"""search: web/news results from a Google-results provider, result pages as markdown or summaries."""
