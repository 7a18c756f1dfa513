"""Re-record the provider responses under tests/fixtures/search/ (needs internet and real keys).

Keys come from the environment only: SERPER_API_KEY, BRAVE_API_KEY, GEMINI_API_KEY; Bedrock uses the
default AWS credentials and BEDROCK_MODEL_ID. Each response is written as it came back, so the tests
replay exactly what the provider sends. Run: `python scripts/refresh_search_fixtures.py [serper brave gemini bedrock]`.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import httpx

OUT = Path(__file__).resolve().parent.parent / "tests" / "fixtures" / "search"
WEB = {"q": "budapest tram network history", "num": 3, "gl": "us", "hl": "en"}
NEWS = {"q": "budapest tram", "num": 2, "gl": "us", "hl": "en"}
PROMPT = "Summarize in two bullet points: a fetch guard refuses private addresses and connects to the checked IP."


def _save(name: str, payload: object) -> None:
    (OUT / name).write_text(json.dumps(payload, indent=2, ensure_ascii=False) + "\n")
    print("wrote", name)


def serper() -> None:
    headers = {"X-API-KEY": os.environ["SERPER_API_KEY"]}
    _save("serper_web.json", httpx.post("https://google.serper.dev/search", json=WEB, headers=headers).json())
    _save("serper_news.json", httpx.post("https://google.serper.dev/news", json=NEWS, headers=headers).json())


def brave() -> None:
    headers = {"X-Subscription-Token": os.environ["BRAVE_API_KEY"], "Accept": "application/json"}
    base = "https://api.search.brave.com/res/v1"
    _save("brave_web.json", httpx.get(f"{base}/web/search", params={"q": WEB["q"], "count": 3}, headers=headers).json())
    _save(
        "brave_news.json", httpx.get(f"{base}/news/search", params={"q": NEWS["q"], "count": 2}, headers=headers).json()
    )


def gemini() -> None:
    body = {"contents": [{"role": "user", "parts": [{"text": PROMPT}]}]}
    url = "https://generativelanguage.googleapis.com/v1beta/models/gemini-2.5-flash-lite:generateContent"
    _save(
        "gemini_generate.json",
        httpx.post(url, json=body, headers={"x-goog-api-key": os.environ["GEMINI_API_KEY"]}).json(),
    )


def bedrock() -> None:
    import boto3

    response = boto3.client("bedrock-runtime").converse(
        modelId=os.environ.get("BEDROCK_MODEL_ID", "amazon.nova-lite-v1:0"),
        messages=[{"role": "user", "content": [{"text": PROMPT}]}],
    )
    response.pop("ResponseMetadata", None)
    _save("bedrock_converse.json", response)


if __name__ == "__main__":
    for name in sys.argv[1:] or ["serper", "brave", "gemini", "bedrock"]:
        {"serper": serper, "brave": brave, "gemini": gemini, "bedrock": bedrock}[name]()
