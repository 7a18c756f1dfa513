"""`make sam-local`: SAM sets only declared variables, so the driver declares the local ones."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

from localdev.sam_local import declare_overrides

if TYPE_CHECKING:
    from pathlib import Path

BUILT = """
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
  AccountsTable:
    Type: AWS::DynamoDB::Table
    Properties: {}
"""


def test_every_override_is_declared_and_nothing_else_changes(tmp_path: Path) -> None:
    built = tmp_path / "template.yaml"
    built.write_text(BUILT)
    overrides = {
        "RouterFunction": {"AWS_ENDPOINT_URL_LAMBDA": "http://host.docker.internal:3001", "ALLOWED_HOSTS": "x"},
        "Parameters": {"AWS_ENDPOINT_URL_S3": "http://host.docker.internal:4566"},
    }
    doc = json.loads(declare_overrides(built, overrides).read_text())
    router = doc["Resources"]["RouterFunction"]["Properties"]
    assert router["Environment"]["Variables"] == {
        "ACCOUNTS_TABLE": {"Ref": "AccountsTable"},
        "ALLOWED_HOSTS": "",
        "AWS_ENDPOINT_URL_LAMBDA": "",
        "AWS_ENDPOINT_URL_S3": "",
    }
    assert router["CodeUri"] == "RouterFunction"
    hello = doc["Resources"]["HelloFunction"]["Properties"]
    assert hello["Environment"]["Variables"] == {"AWS_ENDPOINT_URL_S3": ""}
    assert doc["Resources"]["AccountsTable"] == {"Type": "AWS::DynamoDB::Table", "Properties": {}}
