"""Provider status and pricing follow the function's own settings, never the process environment.

In the local default all functions share one process: a variable one function's block sets (an LLM
base URL, a search key) must not change what another function reports or charges.
"""

from __future__ import annotations

import pytest

from mcp_platform.outbound.provider_status import provider_status, providers_configured
from mcp_platform.runtime.settings import ProviderSettings
from mcp_platform.storage.secrets import MissingSettingError, read_secret
from tests.support.research import LIVE_SETTINGS


def test_another_functions_variables_in_the_process_change_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    for name, value in LIVE_SETTINGS.items():
        monkeypatch.setenv(name, value)  # as if another function of the same process were configured
    quiet = ProviderSettings()
    assert not providers_configured(quiet)
    status = provider_status(quiet)
    assert status["missing"] == ["SEARCH_API_KEY_PARAMETER", "GEMINI_API_KEY_PARAMETER"]
    assert status["llm"]["base_url"] == "public default" and status["search"]["provider"] == "serper"


def test_configured_providers_are_reported_without_their_addresses() -> None:
    live = ProviderSettings.model_validate(LIVE_SETTINGS)
    assert providers_configured(live)
    status = provider_status(live)
    assert status["missing"] == [] and status["search"]["provider"] == "searxng"
    assert status["search"]["base_url"] == status["llm"]["base_url"] == "configured"
    assert "127.0.0.1" not in repr(status)


def test_an_empty_reference_names_the_setting_not_a_value() -> None:
    with pytest.raises(MissingSettingError) as caught:
        read_secret("  ", setting="SEARCH_API_KEY_PARAMETER", what="the search key")
    assert caught.value.code == "provider_not_configured"
    assert caught.value.extra["missing_setting"] == "SEARCH_API_KEY_PARAMETER"
