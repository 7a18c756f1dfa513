"""Calling providers over HTTP: shared clients, their status, one mapping of their failures."""
