"""The importer: GeoNames dump files in, one read-only SQLite database out.

Run `python -m geo_service.importer --help`. The local default and the tests feed it dump-format
files converted from PyPI packages; production feeds it the real GeoNames dumps.
"""
