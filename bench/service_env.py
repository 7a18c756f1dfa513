"""The template environment of the functions a benchmark runs.

Each function's settings model refuses to load when a variable of its template block is missing, as
in Lambda; a benchmark running a function (in-process or in a child process) gives it that block
(and Globals) first, resolved as the local default resolves it.
"""

from __future__ import annotations

import os

from localdev import environment, template


def function_environment(service: str) -> dict[str, str]:
    """The template variables of the function tagged `service` (the router's too)."""
    wiring = next(w for w in template.functions() if w.service == service)
    return environment.own(wiring, {})


def use_service_environment(*services: str) -> None:
    """Set the template variables of `services`' functions that the process does not set already."""
    for service in services:
        for name, value in function_environment(service).items():
            os.environ.setdefault(name, value)
