"""pdf: make, merge, split and inspect PDFs."""
