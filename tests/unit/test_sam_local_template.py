"""`make sam-local`: what the driver hands SAM is derived from template.yaml, the one list of functions."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

import pytest

from localdev import template
from localdev.sam_local import ENV_FILE, SamLocal, sam_local_template
from localdev.server import LocalSettingError
from mcp_platform.catalogue.registry import load_registry
from mcp_router.invoker import LambdaInvoker
from mcp_router.settings import RouterSettings
from tests.support.dynamo import router_env

if TYPE_CHECKING:
    from pathlib import Path

BUILT = """
Globals:
  Function:
    Environment:
      Variables:
        STAGE: dev
Resources:
  RouterFunction:
    Type: AWS::Serverless::Function
    Properties:
      CodeUri: RouterFunction
      Environment:
        Variables:
          ACCOUNTS_TABLE: !Ref AccountsTable
          ALLOWED_HOSTS: ""
  HelloFunction:
    Type: AWS::Serverless::Function
    Properties:
      CodeUri: HelloFunction
  StagingFunction:
    Type: AWS::Serverless::Function
    Properties:
      CodeUri: StagingFunction
      Environment:
        Variables:
          STAGING_BUCKET: !Ref StagingBucket
  ShotFunction:
    Type: AWS::Serverless::Function
    Condition: HasShotImage
    Properties:
      PackageType: Image
      ImageUri: !Ref ShotImageUri
  AccountsTable:
    Type: AWS::DynamoDB::Table
    Properties: {}
"""


def _sam(parameter_overrides: str = "") -> SamLocal:
    return SamLocal("sam", "stand-in:local", 3001, "172.17.0.1", parameter_overrides)


def test_local_variables_are_declared_and_template_ones_only_where_the_block_has_them(tmp_path: Path) -> None:
    built = tmp_path / "template.yaml"
    built.write_text(BUILT)
    overrides = {
        "RouterFunction": {"AWS_ENDPOINT_URL_LAMBDA": "http://host.docker.internal:3001", "ALLOWED_HOSTS": "x"},
        "Parameters": {"AWS_ENDPOINT_URL_S3": "http://host.docker.internal:4566", "STAGING_BUCKET": "stagingbucket"},
    }
    kept = ["RouterFunction", "HelloFunction", "StagingFunction"]
    doc = json.loads(sam_local_template(built, overrides, kept).read_text())
    router = doc["Resources"]["RouterFunction"]["Properties"]
    assert router["Environment"]["Variables"] == {
        "ACCOUNTS_TABLE": {"Ref": "AccountsTable"},
        "ALLOWED_HOSTS": "",
        "AWS_ENDPOINT_URL_LAMBDA": "",
        "AWS_ENDPOINT_URL_S3": "",
    }
    assert router["CodeUri"] == "RouterFunction"
    # STAGING_BUCKET is a template variable: hello's block does not set it, so it must not get it here either.
    hello = doc["Resources"]["HelloFunction"]["Properties"]
    assert hello["Environment"]["Variables"] == {"AWS_ENDPOINT_URL_S3": ""}
    staging = doc["Resources"]["StagingFunction"]["Properties"]["Environment"]["Variables"]
    assert staging == {"STAGING_BUCKET": {"Ref": "StagingBucket"}, "AWS_ENDPOINT_URL_S3": ""}
    assert "ShotFunction" not in doc["Resources"]  # not created: sam local would ignore its Condition
    assert doc["Resources"]["AccountsTable"] == {"Type": "AWS::DynamoDB::Table", "Properties": {}}


def test_the_env_file_names_no_service_function_itself() -> None:
    router = json.loads(ENV_FILE.read_text())["RouterFunction"]
    assert [name for name in router if name.startswith("SERVICE_FUNCTION_")] == ["SERVICE_FUNCTION_PREFIX"]


def test_the_router_reaches_every_service_function_the_stack_has(tmp_path: Path) -> None:
    sam = _sam()
    _, overrides = sam.env_file(4566, tmp_path)
    invoker = LambdaInvoker.of(None, RouterSettings.from_env({**router_env(), **overrides["RouterFunction"]}))
    deployed = {f.logical_id for f in sam.functions()}
    by_service = template.service_functions()
    for service in load_registry().services:
        wiring = by_service[service]
        # A function AWS would not create (shot without its image) is not found, as in AWS: "not reachable".
        assert (invoker.function_name(service) in deployed) is (wiring.condition is None), service
        if wiring.condition is None:
            assert invoker.function_name(service) == wiring.logical_id
    # Every service function of the template, the image-based one included when its image is given.
    with_shot = _sam("ShotImageUri=mcp-shot:local")
    _, overrides = with_shot.env_file(4566, tmp_path)
    names = {k: v for k, v in overrides["RouterFunction"].items() if k != "SERVICE_FUNCTION_PREFIX"}
    assert {k for k in names if k.startswith("SERVICE_FUNCTION_")} == {
        f"SERVICE_FUNCTION_{service.upper()}" for service in by_service
    }
    assert json.loads((tmp_path / "sam-local-env.json").read_text()) == overrides


def test_a_function_under_a_false_condition_is_left_out_as_aws_would() -> None:
    shot = template.service_functions()["shot"]
    assert (shot.package_type, shot.condition) == ("Image", "HasShotImage")
    default = _sam()
    assert "ShotFunction" not in {f.logical_id for f in default.functions()}
    assert not any(arg.startswith("ShotFunction=") for arg in default.common_args(ENV_FILE))
    with_image = _sam("ShotImageUri=mcp-shot:local")
    assert "ShotFunction" in {f.logical_id for f in with_image.functions()}
    args = with_image.common_args(ENV_FILE)
    assert args[args.index("--parameter-overrides") + 1] == "ShotImageUri=mcp-shot:local"
    # Its code is its image: SAM must run that one, not the stand-in (which has no shot code).
    assert "ShotFunction=mcp-shot:local" in args


def test_conditions_are_evaluated_with_defaults_and_overrides() -> None:
    assert template.condition_holds("IsProd") is False
    assert template.condition_holds("IsProd", {"Stage": "prod"}) is True
    assert template.condition_holds("HasServiceConcurrency") is False  # default 0: a number compared as text
    assert template.condition_holds("HasServiceConcurrency", {"ServiceReservedConcurrency": "5"}) is True
    with pytest.raises(ValueError, match="NoSuchParameter"):
        template.parameter_value({"Ref": "NoSuchParameter"})


def test_a_malformed_parameter_override_is_refused_before_anything_starts() -> None:
    env = {"INVOKE_IMAGE": "stand-in:local", "DOCKER_BRIDGE_IP": "172.17.0.1"}
    assert SamLocal.from_env({**env, "PARAMETER_OVERRIDES": "Stage=prod 'AllowedOrigins=a b'"}).parameters() == {
        "Stage": "prod",
        "AllowedOrigins": "a b",
    }
    with pytest.raises(LocalSettingError, match="ShotImageUri"):
        SamLocal.from_env({**env, "PARAMETER_OVERRIDES": "ShotImageUri"})
