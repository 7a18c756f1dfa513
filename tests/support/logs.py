"""What the Powertools logger writes, read back in a test."""

from __future__ import annotations

import io
import logging

import pytest

from mcp_platform.runtime.observability import logger


@pytest.fixture
def log_buffer(monkeypatch: pytest.MonkeyPatch) -> io.StringIO:
    """The log lines as a Lambda would ship them (the handler keeps the stream it was created with)."""
    buffer = io.StringIO()
    for handler in logging.getLogger(logger.service).handlers:
        monkeypatch.setattr(handler, "stream", buffer)
    return buffer
