"""Research on the live path with zero-latency backends: wall time per brief and the platform's overhead.

    python bench/research.py [--runs 10] [--page-delay 0.5]

Starts the loopback fakes of SearXNG and an OpenAI-compatible model server
(tests/support/fake_backends.py) and a loopback site with six article pages, then measures
`research_brief` depth quick (search → 3 pages → model → quote gate → envelope):

  service   - the research service in-process (`app.handle`), no router: pipeline + extraction
  end-to-end- through the official `mcp` client against the local default (`python -m localdev`):
              adds transport, auth, rate limit, billing (DynamoDB on moto) and JSON-RPC
  overhead  - end-to-end minus service: the router's share per brief

The backends answer at once, so every millisecond is the platform's own. With `--page-delay`
each page takes that long to arrive; a brief that reads its pages concurrently then costs about
one delay, not three.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]  # tests/: the e2e server fixture imports its siblings

import anyio
from mcp import Client
from service_env import use_service_environment

from tests.e2e.conftest import running_local_server
from tests.integration.web_site import LocalSite, Reply
from tests.support.fake_backends import Document, FakeChatModel, FakeSearxng

TOPICS = ["length", "source", "delta", "cities", "bridges", "shipping"]
QUESTION = "How long is the Danube river?"


def _article(topic: str) -> bytes:
    sentence = f"The Danube {topic} has been measured and described by geographers for more than two centuries."
    body = "".join(
        f"<p>{sentence} Paragraph {i} adds more about the river {topic} and its people.</p>" for i in range(8)
    )
    return f"<html><head><title>Danube {topic}</title></head><body><article>{body}</article></body></html>".encode()


def _figures(name: str, seconds: list[float]) -> None:
    ms = sorted(s * 1000 for s in seconds)
    p95 = ms[max(0, round(0.95 * len(ms)) - 1)]
    print(f"{name:<28} median {statistics.median(ms):7.1f} ms   p95 {p95:7.1f} ms   ({len(ms)} briefs)")


def in_process(runs: int) -> list[float]:
    from localdev.template import add_code_paths

    add_code_paths()
    use_service_environment("research")
    os.environ.setdefault("POWERTOOLS_LOG_LEVEL", "ERROR")  # one line per completion is noise here
    from research_service.app import app

    times = []
    for _ in range(runs + 1):
        started = time.perf_counter()
        reply = app.handle(
            {
                "tool": "research_brief",
                "arguments": {"query": QUESTION, "depth": "quick"},
                "account_id": "a",
                "request_id": "r",
            }
        )
        times.append(time.perf_counter() - started)
        assert reply.structured_content["meta"]["mode"] == "live", reply.structured_content
        assert "fail_gate" not in reply.structured_content, reply.structured_content["gaps"]
    return times[1:]  # the first run pays imports


def end_to_end(url: str, runs: int) -> list[float]:
    async def scenario() -> list[float]:
        times = []
        async with Client(url) as client:
            cursor = None
            while (cursor := (await client.list_tools(cursor=cursor)).next_cursor) is not None:
                pass  # every page, so the client knows research_brief's output schema
            for _ in range(runs + 1):
                started = time.perf_counter()
                result = await client.call_tool("research_brief", {"query": QUESTION, "depth": "quick"})
                times.append(time.perf_counter() - started)
                assert result.structured_content["credits_charged"] == 25, result.structured_content
        return times[1:]

    return anyio.run(scenario)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=10)
    parser.add_argument("--page-delay", type=float, default=0.5, help="seconds per page for the concurrency row")
    args = parser.parse_args()
    with LocalSite() as site, FakeSearxng() as search, FakeChatModel() as model:
        for topic in TOPICS:
            site.routes[f"/danube/{topic}"] = Reply(body=_article(topic))
        search.documents = [Document(site.url(f"/danube/{t}"), f"Danube {t}", "About the Danube.") for t in TOPICS]
        settings = {
            "SEARCH_PROVIDER": "searxng",
            "SEARCH_BASE_URL": search.origin,
            "LLM_PROVIDER": "openai",
            "LLM_BASE_URL": model.base_url,
            "LLM_MODEL": "bench",
            "SSRF_ALLOW_LOOPBACK": "1",
        }
        os.environ.update(settings)
        service = in_process(args.runs)
        _figures("service (in-process)", service)
        with running_local_server(settings, ".bench-research-server.log") as server:
            e2e = end_to_end(server.url_with_key, args.runs)
            _figures("end-to-end (mcp client)", e2e)
            overhead = 1000 * (statistics.median(e2e) - statistics.median(service))
            print(f"{'overhead (router etc.)':<28} median {overhead:7.1f} ms per brief")
            pages = len(TOPICS[:3])
            for topic in TOPICS:
                body = _article(topic)
                # LocalSite sleeps after each KB it sends: the page is complete after all but the last sleep.
                chunks = -(-len(body) // 1024)
                site.routes[f"/danube/{topic}"] = Reply(body=body, delay=args.page_delay / max(1, chunks - 1))
            slow = in_process(max(3, args.runs // 3))
            _figures(f"service, {args.page_delay:g} s per page", slow)
            sequential = pages * args.page_delay
            print(f"  {pages} pages read concurrently; one after another they would take ≥ {sequential:.1f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
