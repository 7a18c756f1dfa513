"""fetch: public web pages as markdown through the shared web layer."""
