"""Lambda entry of the research service (template: `research_service.app.handler`)."""

from mcp_platform.runtime.service import ServiceApp
from research_service.brief import research_brief
from research_service.compare import compare_options
from research_service.credits import credits
from research_service.lookup import source_lookup
from research_service.settings import settings

app = ServiceApp(
    "research",
    {
        "research_brief": research_brief,
        "source_lookup": source_lookup,
        "compare_options": compare_options,
        "credits": credits,
    },
    settings=settings(),
)

handler = app.lambda_handler
