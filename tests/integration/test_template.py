"""The SAM template is what we test: it lints, and every function it wires runs.

`sam build` and `sam validate --lint` run in CI (`make lint build`); here
cfn-lint (what `sam validate --lint` runs) checks the template, and each
function's handler is imported from its CodeUri, with only the common layer
beside it, and invoked with its sample event from `events/`.
"""

from __future__ import annotations

import copy
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from localdev import environment, template
from mcp_platform.protocol.payloads import ServiceReply
from mcp_router.tool_calls import MIN_INVOKE_SECONDS, SETTLE_MARGIN_SECONDS

if TYPE_CHECKING:
    from mcp_platform.catalogue.registry import Registry

ROOT = Path(__file__).resolve().parents[2]
HARNESS = Path(__file__).with_name("wiring_harness.py")
FUNCTIONS = template.functions()


def test_template_passes_cfn_lint() -> None:
    run = subprocess.run(
        [str(Path(sys.executable).with_name("cfn-lint")), str(ROOT / "template.yaml")],
        capture_output=True,
        text=True,
        check=False,
    )
    assert run.returncode == 0, run.stdout + run.stderr


def test_every_registered_service_has_a_function_and_vice_versa(registry: Registry) -> None:
    assert set(template.service_functions()) == set(registry.services)


def test_service_functions_are_private_and_named_for_the_router() -> None:
    doc = template.load_template()
    for wiring in template.service_functions().values():
        props = doc["Resources"][wiring.logical_id]["Properties"]
        assert "Events" not in props, f"{wiring.logical_id} must be reachable only through the router"
        assert props["FunctionName"] == {"Fn::Sub": f"${{AWS::StackName}}-svc-{wiring.service}"}
        assert props["Tags"]["service"] == wiring.service


def _transformed() -> dict:
    """The template after the SAM transform (as CloudFormation receives it), code locations stubbed."""
    from samtranslator.translator.transform import transform

    doc = copy.deepcopy(template.load_template())  # cached and shared; the transform consumes its input
    for resource in doc["Resources"].values():
        props = resource.get("Properties", {})
        for uri in ("CodeUri", "ContentUri"):
            if uri in props:
                props[uri] = "s3://bucket/code.zip"

    class NoManagedPolicies:
        def load(self) -> dict:
            return {}

    return transform(doc, {}, NoManagedPolicies())


def test_router_uses_snapstart_and_the_api_calls_its_alias(monkeypatch: pytest.MonkeyPatch) -> None:
    """Cold starts resume from a snapshot only when a published version is invoked: the API must call the alias."""
    monkeypatch.setenv("AWS_DEFAULT_REGION", "us-east-1")
    resources = _transformed()["Resources"]
    assert resources["RouterFunction"]["Properties"]["SnapStart"] == {"ApplyOn": "PublishedVersions"}
    alias = resources["RouterFunctionAliaslive"]["Properties"]
    assert alias["FunctionVersion"]["Fn::GetAtt"][0].startswith("RouterFunctionVersion")
    (api,) = [r for r in resources.values() if r["Type"] == "AWS::ApiGatewayV2::Api"]
    uris = [
        op["x-amazon-apigateway-integration"]["uri"]["Fn::Sub"]
        for ops in api["Properties"]["Body"]["paths"].values()
        for op in ops.values()
    ]
    router_uris = [uri for uri in uris if "${RouterFunction" in uri]
    assert len(router_uris) == _event_count("RouterFunction")  # every route of the router (/mcp twice, health…)
    assert all("${RouterFunctionAliaslive}" in uri for uri in router_uris), router_uris
    permissions = [r["Properties"] for r in resources.values() if r["Type"] == "AWS::Lambda::Permission"]
    router_permissions = [p for p in permissions if "Router" in str(p["FunctionName"])]
    assert router_permissions and all(
        p["FunctionName"] == {"Ref": "RouterFunctionAliaslive"} for p in router_permissions
    )


def _event_count(logical_id: str) -> int:
    return len(template.load_template()["Resources"][logical_id]["Properties"]["Events"])


def _invoke(wiring: template.FunctionWiring, event: Path) -> object:
    # Nothing of the template's from this process: the harness gives the function its own block and Globals.
    inherited = {k: v for k, v in os.environ.items() if k not in environment.template_names()}
    env = {**inherited, "PYTHONPATH": os.pathsep.join([str(wiring.code_dir), str(ROOT / "shared")])}
    env.pop("AWS_ENDPOINT_URL", None)
    run = subprocess.run(
        [sys.executable, str(HARNESS), wiring.logical_id, str(event)],
        capture_output=True,
        text=True,
        env=env,
        cwd=ROOT,
        timeout=120,
        check=False,
    )
    assert run.returncode == 0, run.stderr[-4000:]
    return json.loads(run.stdout.strip().splitlines()[-1])


@pytest.mark.parametrize("wiring", FUNCTIONS, ids=[f.logical_id for f in FUNCTIONS])
def test_handler_runs_as_wired(wiring: template.FunctionWiring) -> None:
    event = ROOT / "events" / f"{wiring.service}.json"
    assert event.exists(), f"add a sample event for {wiring.logical_id} at events/{wiring.service}.json"
    result = _invoke(wiring, event)
    if wiring.service == "router":
        # An API Gateway HTTP API event with a bad key: the answer Mangum builds from the gateway.
        assert result["statusCode"] == 401
        assert json.loads(result["body"])["error"]["code"] == -32000
    elif wiring.service == "auth":
        # API Gateway asking for the authorization server's metadata (RFC 8414), issuer from the template.
        assert result["statusCode"] == 200
        assert json.loads(result["body"])["issuer"].startswith("https://")
    elif wiring.service == "reconcile":
        # A scheduled event on empty tables: a sweep that finds nothing to fix.
        assert result == {
            "reversed": [],
            "refunded": [],
            "settled": [],
            "left": [],
            "failed": [],
            "failures": 0,
            "credits_returned": 0,
        }
    elif wiring.service == "tasks":
        # An on-failure destination event for a task the (empty) store does not know: nothing to fail.
        assert result == {"task_id": "task_unknownToTheStore", "failed": False}
    else:
        reply = ServiceReply.model_validate(result)
        assert not reply.is_error, reply.structured_content


def test_the_reconciliation_sweep_runs_on_a_schedule_and_the_service_timeout_fits_the_router() -> None:
    doc = template.load_template()
    sweep = doc["Resources"]["ReconcileFunction"]["Properties"]
    [event] = sweep["Events"].values()
    assert event["Type"] == "ScheduleV2"
    assert event["Properties"]["ScheduleExpression"] == {"Ref": "ReconcileSchedule"}
    alarm = doc["Resources"]["ReconcileAlarm"]["Properties"]
    assert (alarm["Namespace"], alarm["MetricName"]) == ("McpPlatform", "reconciled_calls")
    assert alarm["Dimensions"] == [
        {"Name": "service", "Value": sweep["Environment"]["Variables"]["POWERTOOLS_SERVICE_NAME"]}
    ]
    router_timeout = doc["Resources"]["RouterFunction"]["Properties"]["Timeout"]
    longest_service = doc["Parameters"]["ServiceTimeoutSeconds"]["MaxValue"]
    # The router's invoke read timeout is the service's + 1 s, and it keeps SETTLE_MARGIN_SECONDS to settle.
    assert longest_service + 1 + SETTLE_MARGIN_SECONDS + MIN_INVOKE_SECONDS <= router_timeout
