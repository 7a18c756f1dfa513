"""Lambda entry of the pdf service (template: `pdf_service.app.handler`)."""

from mcp_platform.runtime.service import ServiceApp
from mcp_platform.runtime.settings import StagingSettings
from pdf_service.documents import info, merge, split, status
from pdf_service.typeset import from_markdown

app = ServiceApp(
    "pdf",
    {
        "pdf_from_markdown": from_markdown,
        "pdf_merge": merge,
        "pdf_split": split,
        "pdf_info": info,
        "pdf_status": status,
    },
    settings=StagingSettings.from_env(),
)

handler = app.lambda_handler
