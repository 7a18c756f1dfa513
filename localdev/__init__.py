"""The local default: the whole platform on loopback, wired from template.yaml."""

from localdev.template import add_code_paths

add_code_paths()
