"""docs through the official mcp client against the local default: documents served from 127.0.0.1 or staged."""

from __future__ import annotations

import base64

import pytest
from mcp import Client

from docs_support import make_docx, make_pdf
from tests.e2e.tool_calls import Tools
from tests.integration.web_site import LocalSite, Reply

pytestmark = pytest.mark.e2e

DOCS_PRICE = 2
STAGING_UPLOAD_PRICE = 1
DOCX = "application/vnd.openxmlformats-officedocument.wordprocessingml.document"


@pytest.mark.anyio
async def test_documents_by_url(local_server) -> None:
    with LocalSite() as site:
        site.routes["/report.pdf"] = Reply(
            body=make_pdf(["Alpha page text.", "Beta page text.", "Gamma page text."]),
            headers={"Content-Type": "application/pdf"},
        )
        site.routes["/memo.docx"] = Reply(body=make_docx(), headers={"Content-Type": DOCX})
        site.routes["/broken.pdf"] = Reply(
            body=b"%PDF-1.4\nnot really a pdf", headers={"Content-Type": "application/pdf"}
        )
        async with Client(local_server.url_with_key) as client:
            tools = await Tools.listed(client)

            pdf = await tools.charged("docs_extract", {"url": site.url("/report.pdf")}, DOCS_PRICE)
            assert (pdf["kind"], pdf["pages"], pdf["title"], pdf["truncated"]) == ("pdf", 3, "Report", False)
            assert pdf["content"].startswith("## Page 1\n\nAlpha page text.")
            assert "## Page 3\n\nGamma page text." in pdf["content"]

            part = await tools.charged(
                "docs_extract", {"url": site.url("/report.pdf"), "pages": "2-3", "max_length": 20}, DOCS_PRICE
            )
            assert (part["content"], part["truncated"], part["next_start_index"]) == (
                "## Page 2\n\nBeta page",
                True,
                20,
            )

            memo = await tools.charged("docs_extract", {"url": site.url("/memo.docx")}, DOCS_PRICE)
            assert (memo["kind"], memo["url"]) == ("docx", site.url("/memo.docx"))
            for fragment in (
                "# Quarterly memo",
                "Revenue grew in every region.",
                "- Hire two engineers",
                "| EU | 12% |",
            ):
                assert fragment in memo["content"]

            await tools.refused("docs_extract", {"url": site.url("/broken.pdf")}, "corrupt_document")
            both = await tools.refused(
                "docs_extract", {"url": site.url("/memo.docx"), "staging_id": "stg_" + "0" * 32}, "invalid_arguments"
            )
            assert "exactly one of url or staging_id" in both["error"]

            status = await tools.free("docs_status", {})
            assert status["ok"] is True
            assert {"pdf", "docx"} <= set(status["formats"])


@pytest.mark.anyio
async def test_staged_document(local_server) -> None:
    async with Client(local_server.url_with_key) as client:
        tools = await Tools.listed(client)
        upload = {"content_base64": base64.b64encode(make_docx()).decode(), "filename": "memo.docx", "media_type": DOCX}
        staged = await tools.charged("staging_upload", upload, STAGING_UPLOAD_PRICE)

        memo = await tools.charged("docs_extract", {"staging_id": staged["id"]}, DOCS_PRICE)
        assert (memo["kind"], memo["staging_id"]) == ("docx", staged["id"])
        assert "# Quarterly memo" in memo["content"]

        missing = await tools.refused("docs_extract", {"staging_id": "stg_" + "f" * 32}, "not_found")
        assert "stg_" + "f" * 32 in missing["error"]
