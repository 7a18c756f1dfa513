"""Read template.yaml so the local default and the tests wire what AWS wires.

The template is the one source of truth for which functions exist, where their
code lives, which handler the runtime calls and which tables there are. The
local server and the wiring test read it instead of keeping a second list.
"""

from __future__ import annotations

import importlib
import sys
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

import yaml

if TYPE_CHECKING:
    from collections.abc import Mapping

ROOT = Path(__file__).resolve().parent.parent
TEMPLATE = ROOT / "template.yaml"


class CfnLoader(yaml.SafeLoader):
    """SafeLoader that keeps CloudFormation short-form tags (`!Ref X` → `{"Ref": X}`)."""


def _cfn_tag(loader: CfnLoader, suffix: str, node: yaml.Node) -> dict[str, Any]:
    name = "Ref" if suffix == "Ref" else f"Fn::{suffix}"
    if isinstance(node, yaml.ScalarNode):
        value: Any = loader.construct_scalar(node)
        if suffix == "GetAtt":
            value = value.split(".", 1)
    elif isinstance(node, yaml.SequenceNode):
        value = loader.construct_sequence(node, deep=True)
    else:
        value = loader.construct_mapping(node, deep=True)
    return {name: value}


CfnLoader.add_multi_constructor("!", _cfn_tag)


@dataclass(frozen=True)
class FunctionWiring:
    """One `AWS::Serverless::Function` as the runtime would load it."""

    logical_id: str
    service: str
    code_dir: Path
    handler: str
    environment: dict[str, Any]
    package_type: str = "Zip"
    image_uri: Any = None
    """`ImageUri` as written (an Image function's code is its container image)."""
    condition: str | None = None
    """The resource's `Condition`: AWS creates the function only where it holds (`condition_holds`)."""

    @property
    def module(self) -> str:
        return self.handler.rsplit(".", 1)[0]

    @property
    def attribute(self) -> str:
        return self.handler.rsplit(".", 1)[1]

    def load_handler(self) -> Any:
        """Import the handler exactly as the Lambda runtime would (code dir first on sys.path)."""
        if str(self.code_dir) not in sys.path:
            sys.path.insert(0, str(self.code_dir))
        return getattr(importlib.import_module(self.module), self.attribute)


@cache
def load_template(path: Path = TEMPLATE) -> dict[str, Any]:
    return yaml.load(path.read_text(), Loader=CfnLoader)


def functions(path: Path = TEMPLATE) -> list[FunctionWiring]:
    """Every function in the template, router included, in template order."""
    template = load_template(path)
    out = []
    for logical_id, resource in template["Resources"].items():
        if resource["Type"] != "AWS::Serverless::Function":
            continue
        props = resource["Properties"]
        service = props["Tags"]["service"]
        if props.get("PackageType") == "Image":
            # A container image copies functions/services/<service>/ beside the common layer (its Dockerfile).
            code_dir, handler = ROOT / "functions" / "services" / service, props["ImageConfig"]["Command"][0]
        else:
            code_dir, handler = ROOT / props["CodeUri"], props["Handler"]
        out.append(
            FunctionWiring(
                logical_id=logical_id,
                service=service,
                code_dir=code_dir.resolve(),
                handler=handler,
                environment=props.get("Environment", {}).get("Variables", {}),
                package_type=props.get("PackageType", "Zip"),
                image_uri=props.get("ImageUri"),
                condition=resource.get("Condition"),
            )
        )
    return out


PLATFORM_FUNCTIONS = frozenset({"router", "reconcile", "tasks", "auth"})
"""Functions that are part of the platform, not tool services (tagged `service: <name>` all the same)."""


def service_functions(path: Path = TEMPLATE) -> dict[str, FunctionWiring]:
    """Service name → wiring, for every tool service (not the router, the reconciliation sweep or the task events)."""
    return {f.service: f for f in functions(path) if f.service not in PLATFORM_FUNCTIONS}


def http_paths(logical_id: str, path: Path = TEMPLATE) -> list[str]:
    """The paths of a function's `HttpApi` events, as written (`/oauth/{proxy+}` included)."""
    events = load_template(path)["Resources"][logical_id]["Properties"].get("Events", {})
    return [e["Properties"]["Path"] for e in events.values() if e["Type"] == "HttpApi"]


def parameter_value(node: Any, overrides: Mapping[str, str] | None = None, path: Path = TEMPLATE) -> str:
    """A literal, or `!Ref Parameter` as the stack would have it: the override if given, else the default."""
    if not (isinstance(node, dict) and "Ref" in node):
        return str(node)
    name = node["Ref"]
    if overrides and name in overrides:
        return overrides[name]
    parameters = load_template(path).get("Parameters", {})
    if name not in parameters:
        raise ValueError(f"!Ref {name}: only template parameters are resolved here")
    return str(parameters[name].get("Default", ""))


def condition_holds(name: str, overrides: Mapping[str, str] | None = None, path: Path = TEMPLATE) -> bool:
    """Evaluate the template's condition `name` with the parameters' defaults (and `overrides`), as AWS would."""
    conditions = load_template(path).get("Conditions", {})

    def holds(node: Any) -> bool:
        ((function, args),) = node.items()
        match function:
            case "Fn::Equals":
                return parameter_value(args[0], overrides, path) == parameter_value(args[1], overrides, path)
            case "Fn::Not":
                return not holds(args[0])
            case "Fn::And":
                return all(holds(arg) for arg in args)
            case "Fn::Or":
                return any(holds(arg) for arg in args)
            case "Condition" | "Fn::Condition":
                return holds(conditions[args])
        raise ValueError(f"condition {name}: {function} is not evaluated locally")

    return holds(conditions[name])


def tables(path: Path = TEMPLATE) -> dict[str, dict[str, Any]]:
    """Logical id → properties of every DynamoDB table in the template."""
    template = load_template(path)
    return {
        logical_id: resource["Properties"]
        for logical_id, resource in template["Resources"].items()
        if resource["Type"] == "AWS::DynamoDB::Table"
    }


def buckets(path: Path = TEMPLATE) -> list[str]:
    """Logical ids of the template's S3 buckets (created locally as `local_bucket_name(id)`)."""
    template = load_template(path)
    return [lid for lid, res in template["Resources"].items() if res["Type"] == "AWS::S3::Bucket"]


def local_bucket_name(logical_id: str) -> str:
    """S3 names are lower-case; locally a bucket is named after its logical id."""
    return logical_id.lower()


def add_code_paths() -> None:
    """Put the common layer and every function's code on sys.path, as the runtime would see them."""
    for path in [ROOT / "shared", *(f.code_dir for f in functions())]:
        if str(path) not in sys.path:
            sys.path.insert(0, str(path))
