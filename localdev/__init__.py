"""The local default: the whole platform on loopback, wired from template.yaml."""
