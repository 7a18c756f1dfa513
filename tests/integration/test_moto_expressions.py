"""`localdev/moto_expressions.py` changes moto's cost, never its answers: the same requests, with and without it.

Each side runs in a fresh interpreter (the patches are process-wide once made), under `mock_aws`, and
prints every answer and every error; the two transcripts must be identical. The requests repeat each
expression with other values, so the caches are hit, and include the errors moto's validation passes
raise (overlapping paths, two SET clauses, a key attribute, an unknown name, a malformed condition).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

SCRIPT = r"""
import json, sys
if sys.argv[1] == "patched":
    from localdev.moto_expressions import at_dynamodb_cost
    at_dynamodb_cost()
import boto3
from moto import mock_aws

S = lambda v: {"S": v}
N = lambda v: {"N": str(v)}
REQUESTS = []
for n in (1, 2, 3):
    REQUESTS += [
        ("update_item", dict(Key={"k": S("acct")},
            UpdateExpression="SET balance = if_not_exists(balance, :zero) - :amt, seq = if_not_exists(seq, :zero) + :one, #j = :j ADD pending :one",
            ConditionExpression="attribute_not_exists(#j) AND (attribute_not_exists(balance) OR balance >= :amt)",
            ExpressionAttributeNames={"#j": f"j_{n}"},
            ExpressionAttributeValues={":amt": N(n), ":zero": N(0), ":one": N(1), ":j": {"M": {"call": S(f"c{n}")}}},
            ReturnValues="UPDATED_NEW", ReturnValuesOnConditionCheckFailure="ALL_OLD")),
        ("update_item", dict(Key={"k": S("acct")}, UpdateExpression="REMOVE #j ADD pending :minus",
            ConditionExpression="attribute_exists(#j)", ExpressionAttributeNames={"#j": f"j_{n}"},
            ExpressionAttributeValues={":minus": N(-1)}, ReturnValues="ALL_NEW")),
        ("update_item", dict(Key={"k": S("acct")}, UpdateExpression="REMOVE #j",
            ConditionExpression="attribute_exists(#j)", ExpressionAttributeNames={"#j": f"j_{n}"},
            ReturnValuesOnConditionCheckFailure="ALL_OLD")),
        ("update_item", dict(Key={"k": S(f"m{n}")}, UpdateExpression="SET m.x = :v, l = list_append(if_not_exists(l, :e), :l)",
            ExpressionAttributeValues={":v": N(n), ":e": {"L": []}, ":l": {"L": [N(n)]}}, ReturnValues="ALL_NEW")),
        ("update_item", dict(Key={"k": S(f"m{n}")}, UpdateExpression="SET m = :m",
            ExpressionAttributeValues={":m": {"M": {"x": N(n)}}}, ReturnValues="ALL_NEW")),
        ("update_item", dict(Key={"k": S(f"m{n}")}, UpdateExpression="SET m.x = :v, l = list_append(if_not_exists(l, :e), :l)",
            ExpressionAttributeValues={":v": N(n), ":e": {"L": []}, ":l": {"L": [N(n)]}}, ReturnValues="ALL_NEW")),
        ("update_item", dict(Key={"k": S("acct")}, UpdateExpression="SET a = :v, a = :w",
            ExpressionAttributeValues={":v": N(n), ":w": N(n + 1)})),
        ("update_item", dict(Key={"k": S("acct")}, UpdateExpression="SET a = :v SET b = :v",
            ExpressionAttributeValues={":v": N(n)})),
        ("update_item", dict(Key={"k": S("acct")}, UpdateExpression="SET k = :v", ExpressionAttributeValues={":v": S("x")})),
        ("update_item", dict(Key={"k": S("acct")}, UpdateExpression="SET #missing = :v", ExpressionAttributeValues={":v": N(n)})),
        ("update_item", dict(Key={"k": S("acct")}, UpdateExpression="SET a = :v", ConditionExpression="a >> :v",
            ExpressionAttributeValues={":v": N(n)})),
        ("update_item", dict(Key={"k": S("acct")}, UpdateExpression="SET a = a + :v", ExpressionAttributeValues={":v": N(n)})),
        ("put_item", dict(Item={"k": S(f"p{n % 2}"), "state": S("reserved")},
            ConditionExpression="attribute_not_exists(k) OR (#s <> :r AND size(#s) > :z)",
            ExpressionAttributeNames={"#s": "state"}, ExpressionAttributeValues={":r": S("reserved"), ":z": N(0)},
            ReturnValuesOnConditionCheckFailure="ALL_OLD")),
        ("transact_write_items", dict(TransactItems=[
            {"Update": {"TableName": "T", "Key": {"k": S("acct")}, "UpdateExpression": "SET seq = seq + :one",
                        "ConditionExpression": "seq >= :one", "ExpressionAttributeValues": {":one": N(1)}}},
            {"ConditionCheck": {"TableName": "T", "Key": {"k": S(f"p{n % 2}")},
                                "ConditionExpression": "attribute_exists(k) AND begins_with(#s, :p)",
                                "ExpressionAttributeNames": {"#s": "state"}, "ExpressionAttributeValues": {":p": S("res")}}},
        ])),
    ]

with mock_aws():
    ddb = boto3.client("dynamodb", region_name="us-east-1")
    ddb.create_table(TableName="T", BillingMode="PAY_PER_REQUEST",
        AttributeDefinitions=[{"AttributeName": "k", "AttributeType": "S"}],
        KeySchema=[{"AttributeName": "k", "KeyType": "HASH"}])
    for operation, arguments in REQUESTS:
        if operation != "transact_write_items":
            arguments = {"TableName": "T", **arguments}
        try:
            answer = getattr(ddb, operation)(**arguments)
            answer.pop("ResponseMetadata", None)
        except ddb.exceptions.ClientError as exc:
            answer = {"error": exc.response["Error"], "item": exc.response.get("Item"),
                      "reasons": exc.response.get("CancellationReasons")}
        except Exception as exc:  # moto lets some bad input escape as a Python error: it must escape the same way
            answer = {"raised": type(exc).__name__, "message": str(exc)}
        print(json.dumps([operation, answer], sort_keys=True))
    for row in sorted(ddb.scan(TableName="T")["Items"], key=lambda item: item["k"]["S"]):
        print(json.dumps(row, sort_keys=True))
"""


def _transcript(mode: str) -> list[object]:
    env = {
        **os.environ,
        "AWS_ACCESS_KEY_ID": "x",
        "AWS_SECRET_ACCESS_KEY": "x",
        "PYTHONPATH": os.pathsep.join(sys.path),
    }
    run = subprocess.run(
        [sys.executable, "-c", SCRIPT, mode], cwd=ROOT, env=env, capture_output=True, text=True, timeout=300, check=True
    )
    return [json.loads(line) for line in run.stdout.splitlines()]


def test_the_patched_engine_answers_every_request_as_moto_does() -> None:
    plain, patched = _transcript("plain"), _transcript("patched")
    assert len(plain) > 40
    assert any("error" in answer for _operation, answer in plain[:42])  # the validation errors are in the run
    assert patched == plain
