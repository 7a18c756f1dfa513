"""The template environment of the functions a benchmark runs.

Each function's settings model refuses to load when a variable of its template block is missing, as
in Lambda; a benchmark running a function (in-process or in a child process) gives it that block
(and Globals) first, resolved as the local default resolves it.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

from localdev import environment, template

ROOT = Path(__file__).resolve().parent.parent


def function_environment(service: str) -> dict[str, str]:
    """The template variables of the function tagged `service` (the router's too)."""
    wiring = next(w for w in template.functions() if w.service == service)
    return environment.own(wiring, {})


def use_service_environment(*services: str) -> None:
    """Set the template variables of `services`' functions that the process does not set already."""
    for service in services:
        for name, value in function_environment(service).items():
            os.environ.setdefault(name, value)


def use_promptguard_offline() -> None:
    """promptguard in-process for a benchmark: its code importable, its environment set, its offline
    layers only (no Bedrock guardrail: a benchmark calls no AWS), Powertools quiet."""
    sys.path[:0] = [str(ROOT / "shared"), str(ROOT / "functions" / "services" / "promptguard")]
    os.environ.setdefault("POWERTOOLS_TRACE_DISABLED", "true")
    os.environ.setdefault("POWERTOOLS_LOG_LEVEL", "ERROR")
    os.environ.pop("PROMPTGUARD_GUARDRAIL_ID", None)
    use_service_environment("promptguard")
