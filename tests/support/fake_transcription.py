"""An OpenAI-compatible transcription endpoint on loopback, written from OpenAI's API reference:
`POST /v1/audio/transcriptions`, multipart form (file, model, language, response_format,
timestamp_granularities[]), answering `verbose_json` ({task, language, duration, text, segments}).
It records each request's fields and file; it transcribes nothing (the test sets `text`).
"""

from __future__ import annotations

import json
import threading
from dataclasses import dataclass, field
from email.parser import BytesParser
from email.policy import HTTP
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


@dataclass
class Upload:
    fields: dict[str, str]
    filename: str
    file: bytes
    authorization: str | None


@dataclass
class FakeTranscription:
    text: str = "hello from the fake"
    language: str = "english"
    status: int = 200
    body: bytes | None = None
    """Sent instead of the transcript when set (an endpoint answering what is not its JSON)."""
    uploads: list[Upload] = field(default_factory=list)

    def __post_init__(self) -> None:
        fake = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
                head = f"Content-Type: {self.headers['Content-Type']}\r\n\r\n".encode()
                message = BytesParser(policy=HTTP).parsebytes(head + body)
                fields, filename, data = {}, "", b""
                for part in message.iter_parts():
                    name = part.get_param("name", header="content-disposition")
                    if part.get_filename():
                        filename, data = part.get_filename(), part.get_payload(decode=True)
                    else:
                        fields[name] = part.get_content().strip()
                fake.uploads.append(Upload(fields, filename, data, self.headers.get("Authorization")))
                if self.path != "/v1/audio/transcriptions" or fake.status != 200:
                    self._reply(fake.status if fake.status != 200 else 404, {"error": {"message": "refused"}})
                    return
                words = fake.text.split()
                half = len(words) // 2
                self._reply(
                    200,
                    fake.body
                    or {
                        "task": "transcribe",
                        "language": fake.language,
                        "duration": 2.5,
                        "text": fake.text,
                        "segments": [
                            {"id": 0, "start": 0.0, "end": 1.2, "text": " " + " ".join(words[:half])},
                            {"id": 1, "start": 1.2, "end": 2.5, "text": " " + " ".join(words[half:])},
                        ],
                    },
                )

            def _reply(self, status: int, body: Any) -> None:
                data = body if isinstance(body, bytes) else json.dumps(body).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def log_message(self, *_args: Any) -> None:
                pass

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self._server.server_address[1]}/v1"

    def __enter__(self) -> FakeTranscription:
        self._thread.start()
        return self

    def __exit__(self, *_: object) -> None:
        self._server.shutdown()
        self._server.server_close()
