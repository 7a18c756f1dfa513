"""SnapStart runtime hooks of the router, run as the Lambda runtime runs them, in a fresh process.

Before the snapshot: the first calls' work is done (each tool's contract and validator, which a cold
start without SnapStart builds on the tool's first call; public documents) and no
connection is opened. After a restore: randomness, request ids, the AWS session and clients and the
gateway are new, so no two environments restored from one snapshot share them, and requests work.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

PROBE = r"""
import json, random
import snapshot_restore_py as hooks
from mcp_platform.storage import aws
from mcp_platform.protocol import ids
import mcp_router.lambda_entry as entry

specs = list(entry._deps.registry)
def validators():
    return sum("_contract" in s.__dict__ and s.input_model.__pydantic_complete__ for s in specs)
facts = {"validators_before": validators()}
gateway, loader = entry.app.gateway, aws.session().get_component("data_loader")
ddb, session, prefix = aws.client("dynamodb"), aws.session(), ids.request_id()[:12]
for func, args, kwargs in reversed(hooks.get_before_snapshot()):
    func(*args, **kwargs)
facts["validators_after_prime"] = validators()
facts["tools"] = len(specs)
facts["pools_after_prime"] = len(ddb._endpoint.http_session._manager.pools)
random.seed(1234)  # the state every environment restored from this snapshot would share
for func, args, kwargs in hooks.get_after_restore():
    func(*args, **kwargs)
facts["random_reseeded"] = random.random() != random.Random(1234).random()
facts["new_prefix"] = ids.request_id()[:12] != prefix
facts["new_session"] = aws.session() is not session
facts["models_kept"] = aws.session().get_component("data_loader") is loader
facts["new_client"] = aws.client("dynamodb") is not ddb
facts["new_gateway"] = entry.app.gateway is not gateway
event = json.load(open("events/router.json"))
event.update(routeKey="GET /health", rawPath="/health", body="")
event["requestContext"]["http"].update(method="GET", path="/health")
class Context:
    function_name, memory_limit_in_mb, aws_request_id = "router", 1024, "r1"
    invoked_function_arn = "arn:aws:lambda:us-east-1:123456789012:function:router"
facts["health_after_restore"] = entry.handler(event, Context())["statusCode"]
print(json.dumps(facts))
"""


def test_snapstart_hooks_prime_before_and_renew_after() -> None:
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join([str(ROOT / "functions" / "platform" / "router"), str(ROOT / "shared")]),
        "ACCOUNTS_TABLE": "AccountsTable",
        "API_KEYS_TABLE": "ApiKeysTable",
        "LEDGER_TABLE": "LedgerTable",
        "RATE_LIMIT_TABLE": "RateLimitTable",
        "CALLS_TABLE": "CallsTable",
        "POWERTOOLS_TRACE_DISABLED": "true",
    }
    run = subprocess.run([sys.executable, "-c", PROBE], cwd=ROOT, env=env, capture_output=True, text=True, check=False)
    assert run.returncode == 0, run.stderr
    facts = json.loads(run.stdout.strip().splitlines()[-1])
    assert facts["validators_after_prime"] == facts["tools"] > facts["validators_before"] == 0
    assert facts["pools_after_prime"] == 0
    assert facts["health_after_restore"] == 200
    renewed = ("random_reseeded", "new_prefix", "new_session", "models_kept", "new_client", "new_gateway")
    assert {name: facts[name] for name in renewed} == dict.fromkeys(renewed, True)
