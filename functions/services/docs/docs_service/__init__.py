"""docs: PDF and office documents (and HTML/text) as markdown."""
