"""Lambda entry of the search service (template: `search_service.app.handler`)."""

from mcp_platform.runtime.service import ServiceApp
from search_service.pages import search_fetch, search_fetch_summary
from search_service.results import search_news, search_web
from search_service.settings import settings
from search_service.status import search_status

app = ServiceApp(
    "search",
    {
        "search_web": search_web,
        "search_news": search_news,
        "search_fetch": search_fetch,
        "search_fetch_summary": search_fetch_summary,
        "search_status": search_status,
    },
    settings=settings(),
)

handler = app.lambda_handler
