"""Invoke one function's handler as template.yaml wires it, in a process of its own.

Usage: python wiring_harness.py LOGICAL_ID EVENT_FILE. sys.path holds only the
function's CodeUri and the common layer (plus the test tools), so a function
that imports another function's code fails here as it would in Lambda. AWS is
moto, with the template's tables and buckets; the environment is the
template's, resolved locally. Prints the handler's return value as JSON.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.append(str(ROOT))  # the harness itself (localdev.template), after the function's own paths

from localdev import environment, template
from localdev.context import LambdaContext


def main(logical_id: str, event_file: str) -> None:
    wiring = next(f for f in template.functions() if f.logical_id == logical_id)
    from moto import mock_aws

    from localdev.store import create_buckets, create_tables

    # Only this function's block and Globals, as in Lambda: a variable it needs but does not set fails here.
    with environment.isolated(wiring), mock_aws():
        create_tables()
        create_buckets()
        handler = wiring.load_handler()
        event = json.loads(Path(event_file).read_text())
        result = handler(event, LambdaContext(function_name=logical_id))
    print(json.dumps(result))


if __name__ == "__main__":
    main(*sys.argv[1:])
