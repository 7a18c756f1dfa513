"""Lambda's Invoke API on loopback, each service's real handler in-process, without Docker.

The router's deployed invoker (botocore `LambdaInvoker`) talks to this exactly as it talks
to Lambda: `POST /2015-03-31/functions/<name>/invocations`, the reply's JSON as the body,
`X-Amz-Function-Error: Unhandled` when the handler raises, a 404
`ResourceNotFoundException` for an unknown function. Function names are
`<prefix><service>`. Tests and `bench/router.py` use it; `make sam-local` runs the real thing.
"""

from __future__ import annotations

import json
import re
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import TYPE_CHECKING, Any

from localdev import environment, template
from localdev.context import LambdaContext

if TYPE_CHECKING:
    from collections.abc import Mapping

_PATH = re.compile(r"^/2015-03-31/functions/(?P<name>[^/]+)/invocations$")


class InvokeApi:
    """Serves on 127.0.0.1:`port` (a free one) from `start()` until `stop()`.

    `functions` (service → wiring; default: every service function of the template) are
    loaded first, each with only its own template block and Globals in the environment, as
    in Lambda and the in-process invoker: a variable missing from a block fails here too.
    """

    def __init__(self, prefix: str, functions: Mapping[str, template.FunctionWiring] | None = None) -> None:
        self._handlers = environment.load_handlers(template.service_functions() if functions is None else functions)
        api = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                api._invoke(self)

            def log_message(self, *_: Any) -> None:
                pass

        self.prefix = prefix
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.port: int = self._server.server_address[1]

    @property
    def endpoint(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> None:
        threading.Thread(target=self._server.serve_forever, daemon=True).start()

    def stop(self) -> None:
        self._server.shutdown()
        self._server.server_close()

    def _invoke(self, request: BaseHTTPRequestHandler) -> None:
        payload = json.loads(request.rfile.read(int(request.headers.get("content-length", "0"))) or b"null")
        match = _PATH.match(request.path.split("?", 1)[0])
        name = match["name"] if match else ""
        handler = self._handlers.get(name.removeprefix(self.prefix)) if name.startswith(self.prefix) else None
        headers = {"content-type": "application/json"}
        if handler is None:
            status, headers["x-amzn-errortype"] = 404, "ResourceNotFoundException"
            body: Any = {"Type": "User", "message": f"Function not found: {name}"}
        else:
            try:
                status, body = 200, handler(payload, LambdaContext(name))
            except Exception as exc:  # what Lambda reports as FunctionError
                status, headers["x-amz-function-error"] = 200, "Unhandled"
                body = {"errorMessage": str(exc), "errorType": type(exc).__name__}
        data = json.dumps(body).encode()
        request.send_response(status)
        for key, value in {**headers, "content-length": str(len(data))}.items():
            request.send_header(key, value)
        request.end_headers()
        request.wfile.write(data)
