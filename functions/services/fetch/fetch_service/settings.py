"""fetch's settings: the shared web settings of its template.yaml environment, parsed once per container."""

from __future__ import annotations

from mcp_platform.runtime.settings import WebSettings, settings_of

settings = settings_of(WebSettings)
