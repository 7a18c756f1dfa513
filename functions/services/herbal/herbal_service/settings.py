"""herbal's settings: its template.yaml environment (and Globals), parsed once per container."""

from __future__ import annotations

from typing import ClassVar

from mcp_platform.runtime.settings import FunctionSettings, settings_of


class Settings(FunctionSettings):
    OPTIONAL_ENV: ClassVar[frozenset[str]] = frozenset({"herbal_db_path", "herbal_db_tmp_dir"})

    herbal_db_bucket: str = ""
    """S3 bucket of the database; empty: read `herbal_db_path` (or the default local build)."""
    herbal_db_key: str = ""
    herbal_db_path: str = ""
    """A database file on disk (a layer, or `make herbal-db`'s output locally); wins over S3."""
    herbal_db_tmp_dir: str = "/tmp"


settings = settings_of(Settings)
