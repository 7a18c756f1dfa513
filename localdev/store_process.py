"""The local store in a process of its own, so `make dev` uses a second core.

moto answers every AWS request of `make dev`. In the router's process it took about two thirds of a
billed call's CPU, and with one interpreter lock that capped the platform at one core's worth of
Python. Here moto runs in a child process: its HTTP endpoint (S3 and presigned URLs, SES, and every
other process: `mcp-admin --local`, `--router-only`, `make sam-local`'s containers) and, for the
router's own DynamoDB requests, a private channel (a Unix socket, authenticated) that carries the
request botocore signed and the answer moto gave, byte for byte, without HTTP's cost on either side.
The requests stay botocore's, serialised and parsed as over the wire.

moto runs one DynamoDB request at a time, from any of its clients: DynamoDB executes each request
atomically, and moto's backend does not when threads call it at once.
"""

from __future__ import annotations

import logging
import os
import secrets
import socket
import tempfile
import threading
import time
from dataclasses import dataclass
from multiprocessing import get_context
from multiprocessing.connection import Client, Connection, answer_challenge, deliver_challenge, wait
from pathlib import Path
from typing import Any

from localdev.store import moto_as_dynamodb
from mcp_platform.storage import aws

_READY_WITHIN_S = 60.0


@dataclass(frozen=True)
class Channel:
    """Where the store's DynamoDB channel listens, and the key a client proves itself with."""

    address: str
    authkey: bytes


class StoreProcess:
    """moto in a child process: its HTTP endpoint on `port` of each of `hosts`, and its DynamoDB channel."""

    def __init__(self, port: int, hosts: tuple[str, ...] = ("127.0.0.1",)) -> None:
        self.port = port
        self.hosts = hosts
        folder = Path(tempfile.mkdtemp(prefix="mcp-store-"))  # 0700: only this user reaches the socket
        self.channel = Channel(str(folder / "dynamodb.sock"), secrets.token_bytes(32))
        self._process: Any = None

    @property
    def pid(self) -> int:
        return int(self._process.pid)

    def start(self) -> None:
        """Start the child (it inherits this process's environment) and wait until both endpoints answer."""
        context = get_context("spawn")
        ready = context.Event()
        self._process = context.Process(
            target=serve,
            args=(self.hosts, self.port, self.channel, os.getpid(), ready),
            name="local-store",
            daemon=True,
        )
        self._process.start()
        deadline = time.monotonic() + _READY_WITHIN_S
        while not ready.wait(0.1):
            if not self._process.is_alive():
                raise OSError(f"the local store exited while starting (exit code {self._process.exitcode})")
            if time.monotonic() > deadline:
                self._process.kill()
                raise OSError(f"the local store did not start within {_READY_WITHIN_S:.0f} s")


def serve(hosts: tuple[str, ...], port: int, channel: Channel, parent: int, ready: Any) -> None:
    """The child's body: moto's HTTP servers, the channel's listener, and an exit when the parent is gone."""
    from moto.dynamodb.responses import DynamoHandler
    from moto.server import ThreadedMotoServer

    logging.getLogger("werkzeug").setLevel(logging.ERROR)  # one line per AWS call is noise here
    moto_as_dynamodb()
    _one_request_at_a_time(DynamoHandler)
    for host in hosts:  # one process, one set of moto backends: every endpoint sees the same state
        ThreadedMotoServer(ip_address=host, port=port, verbose=False).start()
    listening = socket.socket(socket.AF_UNIX)
    listening.bind(channel.address)
    listening.listen(64)
    threading.Thread(target=_exit_with(parent), daemon=True, name="parent-watch").start()
    ready.set()
    _answer_all(listening, channel.authkey)


def _one_request_at_a_time(handler: Any) -> None:
    """Run moto's DynamoDB requests one at a time, whichever endpoint they came through."""
    lock = threading.Lock()
    dispatch = handler._dispatch

    def atomic(self: Any, *args: Any, **kwargs: Any) -> Any:
        with lock:
            return dispatch(self, *args, **kwargs)

    handler._dispatch = atomic


def _answer_all(listening: socket.socket, authkey: bytes) -> None:
    """Answer every client's DynamoDB requests from this one thread, each request whole, as they come.

    The requests run one at a time anyway; one thread answering them all spends nothing on threads
    handing the interpreter lock to one another.
    """
    from moto.core.exceptions import HTTPException
    from moto.dynamodb.responses import DynamoHandler

    url = f"https://dynamodb.{os.environ['AWS_DEFAULT_REGION']}.amazonaws.com/"
    clients: list[Connection] = []
    while True:
        for ready in wait([listening, *clients]):
            if ready is listening:
                clients.append(_accept(listening, authkey))
                continue
            assert isinstance(ready, Connection)
            try:
                request = _request(*ready.recv())
            except (EOFError, OSError):
                clients.remove(ready)
                ready.close()
                continue
            try:  # what moto's own stubber does under mock_aws
                reply = DynamoHandler.dispatch(request, url, request.headers)
            except HTTPException as exc:
                reply = exc.code, exc.get_headers(), exc.get_body()
            status, reply_headers, reply_body = reply
            ready.send((status, dict(reply_headers), reply_body))


def _accept(listening: socket.socket, authkey: bytes) -> Connection:
    """The next client, once it has proved it holds the key (as `multiprocessing.connection.Listener` does)."""
    accepted, _ = listening.accept()
    connection = Connection(accepted.detach())
    deliver_challenge(connection, authkey)
    answer_challenge(connection, authkey)
    return connection


def _request(method: str, url: str, headers: list[tuple[str, str]], body: bytes) -> Any:
    """botocore's prepared request again, as the router's process sent it."""
    from botocore.awsrequest import AWSPreparedRequest
    from botocore.compat import HTTPHeaders

    fields = HTTPHeaders()
    for name, value in headers:
        fields[name] = value
    return AWSPreparedRequest(method, url, fields, body, stream_output=False)


def _exit_with(parent: int) -> Any:
    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(0.5)
        os._exit(0)

    return watch


def dynamodb_through(channel: Channel, endpoint: str) -> None:
    """Send this process's DynamoDB requests to `endpoint` through the store's channel instead of over HTTP.

    Clients made afterwards from the shared session (`mcp_platform.storage.aws`) get it; each thread
    keeps one connection. A second call for the same endpoint changes nothing. Local use only.
    """
    from botocore.awsrequest import AWSResponse
    from botocore.exceptions import ConnectionClosedError, EndpointConnectionError
    from moto.core.botocore_stubber import MockRawResponse

    prefix = endpoint.rstrip("/") + "/"
    connections = threading.local()

    def answer(request: Any, **kwargs: Any) -> AWSResponse | None:
        if not request.url.startswith(prefix):
            return None
        headers = [
            (name, value.decode() if isinstance(value, bytes) else value) for name, value in request.headers.items()
        ]
        body = request.body.encode() if isinstance(request.body, str) else request.body or b""
        connection = getattr(connections, "connection", None)
        try:
            if connection is None:
                connection = connections.connection = Client(channel.address, "AF_UNIX", authkey=channel.authkey)
        except OSError as exc:  # as over HTTP: botocore retries it, then the caller sees the store is down
            raise EndpointConnectionError(endpoint_url=endpoint) from exc
        try:
            connection.send((request.method, request.url, headers, body))
            reply = connection.recv()
        except (OSError, EOFError):
            reply = None
        if reply is None:  # the answer is lost, as a dropped HTTP connection loses it
            connections.connection = None
            raise ConnectionClosedError(endpoint_url=endpoint)
        status, reply_headers, reply_body = reply
        return AWSResponse(request.url, status, reply_headers, MockRawResponse(reply_body))  # type: ignore[arg-type]

    # botocore calls every before-send handler and sends what each answers: one handler per endpoint, ever.
    aws.session().register("before-send.dynamodb", answer, unique_id=f"localdev-store {prefix}")
