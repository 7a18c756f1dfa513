"""The template environment of the services a benchmark calls in-process.

Each function's settings model refuses to load when a variable of its template block is missing, as
in Lambda; a benchmark importing a service's app gives the process that block (and Globals) first.
"""

from __future__ import annotations

import os

from localdev import environment, template


def use_service_environment(*services: str) -> None:
    """Set the template variables of `services`' functions that the process does not set already."""
    wirings = template.service_functions()
    for service in services:
        os.environ.update(environment.own(wirings[service], os.environ))
