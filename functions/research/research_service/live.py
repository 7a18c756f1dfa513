"""Live backends: the platform's search providers, SSRF-guarded fetch pipeline and LLM.

They are built by the web services (search, fetch, `mcp_platform.llm`); until
those are configured in this deployment, research answers from golden runs
or the sample, and says so in `meta.mode`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from research_service.ports import Backends


def live_backends() -> Backends | None:
    """The live backends when provider keys are configured, else None."""
    return None
