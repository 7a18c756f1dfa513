"""Loopback fakes of backend APIs, written from their public documentation, for tests and e2e runs.

- `FakeChatModel`: the OpenAI Chat Completions API (`POST /v1/chat/completions`, as OpenAI,
  Ollama, vLLM and llama.cpp serve it), `usage` included. Its "model" is deterministic: asked for
  the research JSON, it quotes the first long sentence of every `<page>` in the prompt verbatim
  (or, with `paraphrase = True`, rewords it, so the quote gate must drop it); otherwise it
  summarises the page. `status` / `delay` make it fail or hang.
- `FakeSearxng`: SearXNG's JSON API (`GET /search?q=…&format=json`), answering with `results`
  (and `answers` / `infoboxes`) built from `documents`; HTTP 403 when `format` is not json, as a
  SearXNG without json in `search.formats` does.
- The existing providers on the same model and documents: `FakeGemini` (`POST
  /v1beta/models/{model}:generateContent`, `x-goog-api-key`, `usageMetadata`), `FakeSerper`
  (`POST /search`, `/news`, `X-API-KEY`), `FakeBrave` (`GET /res/v1/web/search`, `/news/search`,
  `X-Subscription-Token`); a wrong key is answered 401/403 as each documents.

Each fake is a threaded HTTP server on an ephemeral 127.0.0.1 port that records every request;
use it as a context manager.
"""

from __future__ import annotations

import json
import re
import threading
import time
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import parse_qs, urlsplit

_PAGE = re.compile(r'<page url="([^"]*)" title="([^"]*)">\n(.*?)\n</page>', re.DOTALL)
_SENTENCE = re.compile(r"[^.!?\n]+[.!?]")
_MARKDOWN = re.compile(r"^[#>*\-|\s]|\[|\]\(")


@dataclass
class Seen:
    """One request as the fake received it."""

    method: str
    path: str
    query: dict[str, str]
    headers: dict[str, str]
    body: Any = None
    client_port: int = 0
    """The caller's TCP port: requests on one kept-alive connection share it."""


@dataclass
class _Reply:
    status: int
    body: Any
    headers: dict[str, str] = field(default_factory=dict)


class _JsonServer:
    """A threaded loopback HTTP server answering JSON from `self.answer(seen)`."""

    def __init__(self) -> None:
        self.requests: list[Seen] = []
        self.delay = 0.0
        """Seconds to wait before answering (a hanging backend)."""
        server = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def _serve(self) -> None:
                parts = urlsplit(self.path)
                length = int(self.headers.get("Content-Length") or 0)
                raw = self.rfile.read(length) if length else b""
                seen = Seen(
                    self.command,
                    parts.path,
                    {k: v[-1] for k, v in parse_qs(parts.query).items()},
                    {k.lower(): v for k, v in self.headers.items()},
                    json.loads(raw) if raw else None,
                    self.client_address[1],
                )
                server.requests.append(seen)
                if server.delay:
                    time.sleep(server.delay)
                reply = server.answer(seen)
                data = json.dumps(reply.body).encode()
                try:
                    self.send_response(reply.status)
                    for name, value in {"Content-Type": "application/json", **reply.headers}.items():
                        self.send_header(name, value)
                    self.send_header("Content-Length", str(len(data)))
                    self.end_headers()
                    self.wfile.write(data)
                except (BrokenPipeError, ConnectionResetError):
                    pass

            do_GET = do_POST = _serve

            def log_message(self, *_args: Any) -> None:
                pass

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._server.daemon_threads = True
        self._thread = threading.Thread(target=self._server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)

    @property
    def origin(self) -> str:
        return f"http://127.0.0.1:{self._server.server_address[1]}"

    def answer(self, seen: Seen) -> _Reply:
        raise NotImplementedError

    def __enter__(self) -> _JsonServer:
        self._thread.start()
        return self

    def __exit__(self, *_exc: object) -> None:
        self._server.shutdown()
        self._server.server_close()


def quotable(text: str) -> list[str]:
    """Sentences of a page's markdown that a model could quote: prose of at least 8 words."""
    sentences = []
    for line in text.splitlines():
        if _MARKDOWN.search(line[:2]) or "](" in line:
            continue
        sentences += [s.strip() for s in _SENTENCE.findall(line) if len(s.split()) >= 8]
    return sentences


def paraphrase(sentence: str) -> str:
    """The sentence reworded (what a model that does not copy would write)."""
    return "Reportedly, " + sentence[0].lower() + sentence[1:].replace(" the ", " a ").rstrip(".") + ", sources say."


class FakeChatModel(_JsonServer):
    """OpenAI-compatible Chat Completions at `{origin}/v1`; see the module docstring."""

    def __init__(self, *, api_key: str | None = None) -> None:
        super().__init__()
        self.api_key = api_key
        self.status = 200
        self.paraphrase = False
        self.report_usage = True

    @property
    def base_url(self) -> str:
        return f"{self.origin}/v1"

    def answer(self, seen: Seen) -> _Reply:
        if (seen.method, seen.path) != ("POST", "/v1/chat/completions"):
            return _Reply(404, {"error": {"message": f"no route {seen.path}", "type": "invalid_request_error"}})
        if self.api_key and seen.headers.get("authorization") != f"Bearer {self.api_key}":
            return _Reply(401, {"error": {"message": "Incorrect API key provided", "type": "invalid_request_error"}})
        if self.status != 200:
            return _Reply(self.status, {"error": {"message": "the model server failed", "type": "server_error"}})
        body = seen.body or {}
        messages = body.get("messages") or []
        system = next((m["content"] for m in messages if m["role"] == "system"), "")
        user = next((m["content"] for m in messages if m["role"] == "user"), "")
        text_parts = [user] if isinstance(user, str) else [p["text"] for p in user if p["type"] == "text"]
        images = [] if isinstance(user, str) else [p for p in user if p["type"] == "image_url"]
        content = self._write(system, "\n".join(text_parts), len(images))
        reply: dict[str, Any] = {
            "id": f"chatcmpl-{len(self.requests)}",
            "object": "chat.completion",
            "created": int(time.time()),
            "model": body.get("model", ""),
            "choices": [{"index": 0, "message": {"role": "assistant", "content": content}, "finish_reason": "stop"}],
        }
        if self.report_usage:
            prompt = len(system.split()) + sum(len(t.split()) for t in text_parts) + 85 * len(images)
            completion = len(content.split())
            reply["usage"] = {
                "prompt_tokens": prompt,
                "completion_tokens": completion,
                "total_tokens": prompt + completion,
            }
        return _Reply(200, reply)

    def _write(self, system: str, user: str, images: int) -> str:
        return write(system, user, images, paraphrased=self.paraphrase)


def write(system: str, user: str, images: int = 0, *, paraphrased: bool = False) -> str:
    """The deterministic "model": research JSON quoting each page's first long sentence, else a summary."""
    pages = [(url, text) for url, _title, text in _PAGE.findall(user)]
    if "JSON object" not in system:
        first = [quotable(text)[:2] for _url, text in pages]
        seen = f" I see {images} image(s)." if images else ""
        return "\n".join(f"- {s}" for group in first for s in group) or f"The text has no prose.{seen}"
    claims = []
    for url, text in pages:
        sentences = quotable(text)
        if sentences:
            quote = paraphrase(sentences[0]) if paraphrased else sentences[0]
            claims.append({"claim": sentences[0], "quote": quote, "source_url": url, "stance": "supports"})
    summary = claims[0]["claim"] if claims else "The pages do not answer this."
    return json.dumps(
        {
            "tldr": summary,
            "body": "\n".join(f"- {c['claim']}" for c in claims),
            "answer": summary,
            "claims": claims,
            "sources": [{"url": c["source_url"], "type": "secondary", "supports": c["claim"]} for c in claims],
            "gaps": [],
        }
    )


class FakeGemini(_JsonServer):
    """Gemini's `generateContent` at `{origin}/v1beta` with key `api_key`; the same model as `FakeChatModel`."""

    def __init__(self, api_key: str) -> None:
        super().__init__()
        self.api_key = api_key

    @property
    def base_url(self) -> str:
        return f"{self.origin}/v1beta"

    def answer(self, seen: Seen) -> _Reply:
        found = re.fullmatch(r"/v1beta/models/([^/:]+):generateContent", seen.path)
        if seen.method != "POST" or not found:
            return _Reply(404, {"error": {"code": 404, "message": "not found", "status": "NOT_FOUND"}})
        if seen.headers.get("x-goog-api-key") != self.api_key:
            message = "API key not valid. Please pass a valid API key."
            return _Reply(400, {"error": {"code": 400, "message": message, "status": "INVALID_ARGUMENT"}})
        body = seen.body or {}
        system = " ".join(p.get("text", "") for p in (body.get("systemInstruction") or {}).get("parts", []))
        parts = body["contents"][0]["parts"]
        user = " ".join(p["text"] for p in parts if "text" in p)
        images = sum(1 for p in parts if "inline_data" in p)
        text = write(system, user, images)
        prompt = len(system.split()) + len(user.split()) + 258 * images
        return _Reply(
            200,
            {
                "candidates": [
                    {"content": {"parts": [{"text": text}], "role": "model"}, "finishReason": "STOP", "index": 0}
                ],
                "usageMetadata": {
                    "promptTokenCount": prompt,
                    "candidatesTokenCount": len(text.split()),
                    "totalTokenCount": prompt + len(text.split()),
                },
                "modelVersion": found.group(1),
            },
        )


@dataclass
class Document:
    """A page the fake search engine knows."""

    url: str
    title: str
    content: str
    published: str | None = None


class FakeSearxng(_JsonServer):
    """SearXNG's JSON search API at `origin`; see the module docstring."""

    def __init__(self, documents: list[Document] | None = None) -> None:
        super().__init__()
        self.documents = documents or []
        self.status = 200
        self.answers: list[Any] = []
        self.infoboxes: list[dict[str, Any]] = []

    def answer(self, seen: Seen) -> _Reply:
        if seen.path != "/search":
            return _Reply(404, {"error": "not found"})
        if seen.query.get("format") != "json":
            return _Reply(403, {"error": "format not allowed"})
        if self.status != 200:
            return _Reply(self.status, {"error": "upstream"})
        news = seen.query.get("categories") == "news"
        results = []
        for position, doc in enumerate(self.documents, 1):
            if news and not doc.published:
                continue
            result = {
                "url": doc.url,
                "title": doc.title,
                "content": doc.content,
                "engine": "duckduckgo",
                "engines": ["duckduckgo", "brave"],
                "positions": [position],
                "score": 1.0 / position,
                "category": "news" if news else "general",
            }
            if doc.published:
                result["publishedDate"] = doc.published
            results.append(result)
        return _Reply(
            200,
            {
                "query": seen.query.get("q", ""),
                "number_of_results": len(results),
                "results": results,
                "answers": self.answers,
                "corrections": [],
                "infoboxes": self.infoboxes,
                "suggestions": [],
                "unresponsive_engines": [],
            },
        )


class FakeSerper(_JsonServer):
    """The Serper API (`POST /search`, `/news`) with key `api_key`, results from `documents`."""

    def __init__(self, api_key: str, documents: list[Document] | None = None) -> None:
        super().__init__()
        self.api_key = api_key
        self.documents = documents or []

    def answer(self, seen: Seen) -> _Reply:
        if seen.method != "POST" or seen.path not in ("/search", "/news"):
            return _Reply(404, {"message": "Not found", "statusCode": 404})
        if seen.headers.get("x-api-key") != self.api_key:
            return _Reply(403, {"message": "Unauthorized.", "statusCode": 403})
        body = seen.body or {}
        docs = [d for d in self.documents if seen.path == "/search" or d.published][: int(body.get("num", 10))]
        items = [{"title": d.title, "link": d.url, "snippet": d.content, "position": i} for i, d in enumerate(docs, 1)]
        if seen.path == "/news":
            items = [{**item, "date": d.published, "source": "Example"} for item, d in zip(items, docs, strict=True)]
        key = "organic" if seen.path == "/search" else "news"
        return _Reply(200, {"searchParameters": {**body, "engine": "google"}, key: items, "credits": 1})


class FakeBrave(_JsonServer):
    """The Brave Search API at `{origin}/res/v1` with key `api_key`, results from `documents`."""

    def __init__(self, api_key: str, documents: list[Document] | None = None) -> None:
        super().__init__()
        self.api_key = api_key
        self.documents = documents or []

    @property
    def base_url(self) -> str:
        return f"{self.origin}/res/v1"

    def answer(self, seen: Seen) -> _Reply:
        if seen.method != "GET" or seen.path not in ("/res/v1/web/search", "/res/v1/news/search"):
            return _Reply(404, {"type": "ErrorResponse", "error": {"status": 404, "code": "NOT_FOUND"}})
        if seen.headers.get("x-subscription-token") != self.api_key:
            error = {"status": 422, "code": "SUBSCRIPTION_TOKEN_INVALID", "detail": "The provided token is invalid."}
            return _Reply(422, {"type": "ErrorResponse", "error": error})
        news = seen.path.endswith("/news/search")
        docs = [d for d in self.documents if not news or d.published][: int(seen.query.get("count", 20))]
        results = [
            {
                "title": d.title,
                "url": d.url,
                "description": d.content,
                "page_age": d.published,
                "meta_url": {"hostname": urlsplit(d.url).hostname},
            }
            for d in docs
        ]
        if news:
            return _Reply(200, {"type": "news", "query": {"original": seen.query.get("q")}, "results": results})
        return _Reply(200, {"type": "search", "query": {"original": seen.query.get("q")}, "web": {"results": results}})
