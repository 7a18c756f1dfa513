"""geo's settings: its template.yaml environment (and Globals), parsed once per container."""

from __future__ import annotations

from typing import ClassVar

from mcp_platform.runtime.settings import FunctionSettings, settings_of


class Settings(FunctionSettings):
    OPTIONAL_ENV: ClassVar[frozenset[str]] = frozenset({"geo_db_path", "geo_db_tmp_dir"})

    geo_db_bucket: str = ""
    """S3 bucket of the database; empty: read `geo_db_path` (or the default local build)."""
    geo_db_key: str = ""
    geo_db_path: str = ""
    """A database file on disk (a layer, or `make geo-db`'s output locally); wins over S3."""
    geo_db_tmp_dir: str = "/tmp"


settings = settings_of(Settings)
