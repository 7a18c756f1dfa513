"""Search and LLM provider keys as a deployment has them, with every provider API call mocked.

Import the `provider_keys` fixture into a test module: the keys are SSM SecureStrings in moto,
the settings point at them, Powertools' parameter cache is empty, and respx intercepts every
outbound HTTP call except loopback (the local test site), so a test routes the provider calls
it expects and replays recorded responses.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import boto3
import pytest
import respx
from aws_lambda_powertools.utilities.parameters import base as parameters_base

if TYPE_CHECKING:
    from collections.abc import Iterator

SEARCH_KEY, GEMINI_KEY = "search-secret", "gemini-secret"
SERPER = "https://google.serper.dev"
BRAVE = "https://api.search.brave.com/res/v1"
GEMINI = "https://generativelanguage.googleapis.com/v1beta/models/gemini-2.5-flash-lite:generateContent"


@pytest.fixture
def provider_keys(aws: None, monkeypatch: pytest.MonkeyPatch) -> Iterator[respx.MockRouter]:
    ssm = boto3.client("ssm")
    ssm.put_parameter(Name="/mcp/test/search-key", Value=SEARCH_KEY, Type="SecureString")
    ssm.put_parameter(Name="/mcp/test/gemini-key", Value=GEMINI_KEY, Type="SecureString")
    monkeypatch.setenv("SEARCH_API_KEY_PARAMETER", "/mcp/test/search-key")
    monkeypatch.setenv("GEMINI_API_KEY_PARAMETER", "/mcp/test/gemini-key")
    monkeypatch.setenv("SEARCH_PROVIDER", "serper")  # the template's defaults
    monkeypatch.setenv("LLM_PROVIDER", "gemini")
    parameters_base.DEFAULT_PROVIDERS.clear()
    with respx.mock(assert_all_called=False) as router:
        router.route(host="127.0.0.1").pass_through()
        yield router
    parameters_base.DEFAULT_PROVIDERS.clear()
