"""Live backends: the platform's search providers, SSRF-guarded fetch pipeline and LLM behind research's ports.

Nothing here searches, fetches or prompts by itself: each adapter calls the
common layer (`mcp_platform.search`, `mcp_platform.web.fetch_page`,
`mcp_platform.llm`) and translates its `ToolError`s into the ports'
exceptions, which the pipeline turns into gaps. Research is live exactly when
the settings the search service uses are present (a search provider key and a
configured LLM); otherwise it answers from golden runs or the sample and says
so in `meta.mode`.
"""

from __future__ import annotations

from mcp_platform.llm import llm_client
from mcp_platform.outbound.provider_http import deadline_in
from mcp_platform.outbound.provider_status import providers_configured
from mcp_platform.protocol.errors import ToolError
from mcp_platform.runtime.observability import logger
from mcp_platform.search.providers import SearchQuery, search_provider
from mcp_platform.web import FetchLimits, WebErrorCode, fetch_page
from research_service.envelope import utc_now
from research_service.ports import (
    Backends,
    FetchBlockedError,
    FetchFailedError,
    LlmReply,
    Page,
    SearchHit,
    UpstreamError,
)
from research_service.settings import settings

_BLOCKED = frozenset({WebErrorCode.ROBOTS_DISALLOWED, WebErrorCode.URL_NOT_ALLOWED})


def live_backends() -> Backends | None:
    """The live backends when provider keys are configured, else None (no secret is read here)."""
    if not providers_configured(settings()):
        return None
    return Backends("live", ProviderSearcher(), GuardedFetcher(), PlatformLlm())


class ProviderSearcher:
    """Web results from the configured provider (`SEARCH_PROVIDER`), default locale, no operators."""

    def search(self, query: str, num: int, timeout: float) -> list[SearchHit]:
        try:
            found = search_provider(settings()).search("web", SearchQuery(q=query, num=num), deadline_in(timeout))
        except ToolError as exc:
            raise UpstreamError(exc.message) from None
        return [
            SearchHit(title=item["title"], link=item["link"], snippet=item["snippet"], kind=item["kind"])
            for item in found.get("organic", [])
        ]


class GuardedFetcher:
    """Pages through `fetch_page`: SSRF rules, robots.txt, byte and time caps, main content as markdown."""

    def fetch(self, url: str, timeout: float) -> Page:
        try:
            page = fetch_page(url, limits=FetchLimits.of(settings()).within(timeout))
        except ToolError as exc:
            if exc.code in _BLOCKED:
                raise FetchBlockedError(exc.message) from None
            if exc.code == WebErrorCode.HTTP_ERROR:
                # A 4xx/5xx is an outcome source_lookup reports (404 → not_found), not a failure.
                status = int(exc.extra["status"])
                return Page(
                    url=url, final_url=str(exc.extra.get("final_url") or url), status=status, retrieved_at=utc_now()
                )
            raise FetchFailedError(exc.message, exc.extra.get("status")) from None
        return Page(
            url=url,
            final_url=page.final_url,
            status=page.status,
            title=page.title,
            text=page.content,
            retrieved_at=utc_now(),
            redirects=page.redirects,
        )


class PlatformLlm:
    """The configured LLM (`LLM_PROVIDER`: Gemini, Bedrock or OpenAI-compatible), capped to the budget's time."""

    def complete(self, system: str, prompt: str, max_tokens: int, timeout: float) -> LlmReply:
        try:
            answer = llm_client(settings()).complete(system=system, user=prompt, max_tokens=max_tokens, timeout=timeout)
        except ToolError as exc:
            raise UpstreamError(exc.message) from None
        logger.info(
            "llm completion",
            extra={"model": answer.model, "input_tokens": answer.input_tokens, "output_tokens": answer.output_tokens},
        )
        return LlmReply(answer.text, answer.input_tokens or 0, answer.output_tokens or 0)
