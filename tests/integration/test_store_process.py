"""`make dev`'s store in a process of its own (`localdev.store_process`): one state behind both endpoints."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import TYPE_CHECKING, Any

import botocore.session
import pytest
from botocore.httpsession import URLLib3Session

if TYPE_CHECKING:
    from collections.abc import Iterator

ROOT = Path(__file__).resolve().parents[2]


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@pytest.fixture(scope="module")
def store() -> Iterator[Any]:
    from localdev.store_process import StoreProcess

    with pytest.MonkeyPatch.context() as env:
        for name, value in {"AWS_DEFAULT_REGION": "us-east-1", "AWS_ACCESS_KEY_ID": "local"}.items():
            env.setenv(name, value)
        env.setenv("AWS_SECRET_ACCESS_KEY", "local")
        process = StoreProcess(_free_port())
        process.start()
        yield process


def _over_http(port: int) -> Any:
    return botocore.session.get_session().create_client(
        "dynamodb",
        endpoint_url=f"http://127.0.0.1:{port}",
        region_name="us-east-1",
        aws_access_key_id="local",
        aws_secret_access_key="local",
    )


def _through_channel(store: Any) -> Any:
    from localdev.store_process import dynamodb_through
    from mcp_platform.storage.aws import configured_client

    endpoint = f"http://127.0.0.1:{store.port}"
    dynamodb_through(store.channel, endpoint)
    return configured_client("dynamodb", endpoint_url=endpoint, region_name="us-east-1")


def _table(ddb: Any, name: str) -> None:
    ddb.create_table(
        TableName=name,
        BillingMode="PAY_PER_REQUEST",
        AttributeDefinitions=[{"AttributeName": "k", "AttributeType": "S"}],
        KeySchema=[{"AttributeName": "k", "KeyType": "HASH"}],
    )


def test_the_routers_requests_take_the_channel_and_other_processes_see_the_same_tables(
    store: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    local = _through_channel(store)
    with monkeypatch.context() as no_http:
        no_http.setattr(URLLib3Session, "send", lambda *_: pytest.fail("a request went over HTTP"))
        _table(local, "Channel")
        local.put_item(TableName="Channel", Item={"k": {"S": "a"}, "n": {"N": "1"}})
        with pytest.raises(local.exceptions.ConditionalCheckFailedException) as refused:
            local.put_item(
                TableName="Channel",
                Item={"k": {"S": "a"}},
                ConditionExpression="attribute_not_exists(k)",
                ReturnValuesOnConditionCheckFailure="ALL_OLD",
            )
        assert refused.value.response["Item"]["n"] == {"N": "1"}  # moto's error, as it answered it
    assert _over_http(store.port).get_item(TableName="Channel", Key={"k": {"S": "a"}})["Item"]["n"] == {"N": "1"}


def test_concurrent_debits_from_both_endpoints_never_overspend(store: Any) -> None:
    """DynamoDB runs each request atomically; the store runs one at a time, whichever endpoint it came from."""
    local, remote = _through_channel(store), _over_http(store.port)
    _table(local, "Debits")
    local.put_item(TableName="Debits", Item={"k": {"S": "acct"}, "balance": {"N": "100"}})

    def debit(ddb: Any) -> int:
        taken = 0
        for _ in range(25):
            try:
                ddb.update_item(
                    TableName="Debits",
                    Key={"k": {"S": "acct"}},
                    UpdateExpression="SET balance = balance - :one ADD taken :one",
                    ConditionExpression="balance >= :one",
                    ExpressionAttributeValues={":one": {"N": "1"}},
                )
                taken += 1
            except ddb.exceptions.ConditionalCheckFailedException:
                pass
        return taken

    with ThreadPoolExecutor(8) as pool:
        taken = sum(pool.map(debit, [local, remote] * 4))
    item = remote.get_item(TableName="Debits", Key={"k": {"S": "acct"}}, ConsistentRead=True)["Item"]
    assert taken == 100, (taken, item)
    assert item["balance"] == {"N": "0"} and item["taken"] == {"N": "100"}


def _running(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except FileNotFoundError:
        return False
    return state != "Z"  # an exited child nobody has reaped yet is gone too


def test_the_store_ends_with_the_process_that_started_it() -> None:
    """A router killed without a word (kill -9, a crashed test) leaves no store holding its port."""
    script = (
        "import os, sys\n"
        "from localdev.store_process import StoreProcess\n"
        "store = StoreProcess(int(sys.argv[1])); store.start()\n"
        "print(store.pid, flush=True)\n"
        "os._exit(0)\n"
    )
    env = {**os.environ, "AWS_DEFAULT_REGION": "us-east-1", "PYTHONPATH": os.pathsep.join(sys.path)}
    done = subprocess.run(
        [sys.executable, "-c", script, str(_free_port())],
        cwd=ROOT,
        env=env,
        capture_output=True,
        timeout=120,
        check=True,
    )
    child = int(done.stdout.split()[-1])
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        if not _running(child):
            return
        time.sleep(0.2)
    os.kill(child, 9)
    pytest.fail("the store outlived the process that started it")


def test_a_store_that_is_gone_is_a_connection_error_for_the_caller(monkeypatch: pytest.MonkeyPatch) -> None:
    """As over HTTP: botocore retries the lost request, then raises its own error (the router answers it)."""
    from botocore.exceptions import ConnectionClosedError, EndpointConnectionError

    from localdev.store_process import StoreProcess

    for name, value in {"AWS_DEFAULT_REGION": "us-east-1", "AWS_ACCESS_KEY_ID": "local"}.items():
        monkeypatch.setenv(name, value)
    monkeypatch.setenv("AWS_SECRET_ACCESS_KEY", "local")
    store = StoreProcess(_free_port())
    store.start()
    ddb = _through_channel(store)
    _table(ddb, "Gone")
    os.kill(store.pid, 9)
    while _running(store.pid):
        time.sleep(0.05)
    with pytest.raises((ConnectionClosedError, EndpointConnectionError)):
        ddb.get_item(TableName="Gone", Key={"k": {"S": "a"}})
