"""The importer: Dr. Duke's official CSV dump in, one read-only SQLite database out.

Run `python -m herbal_service.importer --help`. It reads the full official dump
(`Duke-Source-CSV.zip` of figshare article 24660351, or its unzipped folder) and builds what it
can from a partial copy: tables absent from the dump are recorded as absent, and the tools that
need them say so.
"""
