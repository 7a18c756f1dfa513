"""One settings model per function: parsed at cold start from that function's template block and Globals only."""

from __future__ import annotations

import importlib
import os
from typing import TYPE_CHECKING, Any, ClassVar

import pytest

from localdev import environment, template
from mcp_platform.runtime.settings import FunctionSettings, SettingsError, StagingSettings, TaskSettings
from mcp_router.settings import RouterSettings

if TYPE_CHECKING:
    from mcp_platform.catalogue.registry import Registry

FUNCTIONS = template.functions()


def _settings_class(wiring: template.FunctionWiring) -> type[FunctionSettings]:
    if wiring.service == "router":
        return RouterSettings
    module = importlib.import_module(wiring.module)
    return type(module.app.settings if hasattr(module, "app") else module.settings)


@pytest.mark.parametrize("wiring", FUNCTIONS, ids=[f.logical_id for f in FUNCTIONS])
def test_each_function_loads_from_its_own_block_and_globals(wiring: template.FunctionWiring) -> None:
    cls = _settings_class(wiring)
    own = environment.for_function(wiring)
    cls.from_env(own)  # refuses (SettingsError) a variable the block does not set
    required = cls.env_names() - {n.upper() for n in cls.optional_fields()}
    assert required <= own.keys()


@pytest.mark.parametrize("wiring", FUNCTIONS, ids=[f.logical_id for f in FUNCTIONS])
def test_a_variable_missing_from_the_block_fails_naming_it(wiring: template.FunctionWiring) -> None:
    cls = _settings_class(wiring)
    own = environment.for_function(wiring)
    required = sorted(cls.env_names() - {n.upper() for n in cls.optional_fields()})
    victim = required[-1]
    with pytest.raises(SettingsError, match=victim):
        cls.from_env({k: v for k, v in own.items() if k != victim})


@pytest.mark.parametrize("wiring", FUNCTIONS, ids=[f.logical_id for f in FUNCTIONS])
def test_every_variable_of_the_block_is_a_field_of_the_settings(wiring: template.FunctionWiring) -> None:
    """The converse: nothing in the block is left for some module to read from os.environ at call time
    (POWERTOOLS_* and PYDANTIC_* configure those libraries themselves)."""
    own = {name for name in environment.for_function(wiring) if not name.startswith(("POWERTOOLS_", "PYDANTIC_"))}
    assert own - _settings_class(wiring).env_names() == set()


def test_bad_values_are_refused_with_the_variable_named() -> None:
    env = environment.for_function(next(f for f in FUNCTIONS if f.service == "router"))
    with pytest.raises(SettingsError, match="RATE_LIMIT_PER_MINUTE"):
        RouterSettings.from_env({**env, "RATE_LIMIT_PER_MINUTE": "many"})
    with pytest.raises(SettingsError, match="SIGNUP_MODE"):
        RouterSettings.from_env({**env, "SIGNUP_MODE": "sometimes"})


def test_optional_variables_keep_their_defaults_and_csv_lists_parse() -> None:
    env = environment.for_function(next(f for f in FUNCTIONS if f.service == "router"))
    settings = RouterSettings.from_env({**env, "ALLOWED_ORIGINS": "https://a.example, https://b.example"})
    assert settings.allowed_origins == ("https://a.example", "https://b.example")
    assert settings.tools_page_size == 500 and settings.public_url == ""


def test_optional_fields_combine_across_bases() -> None:
    class Both(StagingSettings):
        OPTIONAL_ENV: ClassVar[frozenset[str]] = frozenset({"extra"})
        extra: int = 1

    assert Both.optional_fields() == {"extra", "ssrf_allow_loopback", "aws_lambda_function_name"}  # and the base's
    env: dict[str, Any] = {
        "STAGE": "dev",
        "LOG_LEVEL": "INFO",
        "ENABLE_PREVIEW_TOOLS": "1",
        "SSRF_ALLOWED_PORTS": "",
        "SERVICE_TIMEOUT_SECONDS": "25",
    }
    assert Both.from_env({**env, "STAGING_BUCKET": "b"}).enable_preview_tools is True
    with pytest.raises(SettingsError, match="STAGING_BUCKET"):
        Both.from_env(env)


def test_the_local_default_imports_each_function_with_only_its_own_variables(monkeypatch: pytest.MonkeyPatch) -> None:
    staging = next(f for f in FUNCTIONS if f.service == "staging")
    hello = next(f for f in FUNCTIONS if f.service == "hello")
    monkeypatch.setenv("CACHE_TABLE", "from-the-shell")
    monkeypatch.setenv("STAGING_BUCKET", "shell-bucket")
    with environment.isolated(hello):
        assert "STAGING_BUCKET" not in os.environ and "CACHE_TABLE" not in os.environ
        assert os.environ["STAGE"] == "dev"  # Globals
    with environment.isolated(staging):
        assert os.environ["STAGING_BUCKET"] == "shell-bucket"  # the shell overrides a block's value
        assert "CACHE_TABLE" not in os.environ
    assert os.environ["CACHE_TABLE"] == "from-the-shell"  # restored afterwards


def test_a_function_whose_tools_run_as_tasks_has_the_task_settings(registry: Registry) -> None:
    task_services = {spec.service for spec in registry if spec.task_support != "forbidden"}
    assert task_services, "the catalogue has task-capable tools"
    for wiring in FUNCTIONS:
        if wiring.service in task_services:
            assert issubclass(_settings_class(wiring), TaskSettings), wiring.logical_id


def test_every_local_override_is_a_setting_some_function_reads() -> None:
    """`make dev` sets variables beyond the template (offline engines, local files, the canary secret):
    each must be a field of some function's settings, or it would silently configure nothing."""
    from localdev.server import LocalPlatform

    local: dict[str, str] = {}
    LocalPlatform(port=3000, aws_port=4566, dev_key=None, dev_credits=1).configure(local)
    read = frozenset().union(*(_settings_class(wiring).env_names() for wiring in FUNCTIONS))
    overrides = {name for name in local if not name.startswith(("AWS_", "POWERTOOLS_", "PYDANTIC_"))}
    assert overrides - read == set()
    assert {"TTS_ENGINE", "WHISPER_ENGINE", "SHOT_BROWSER_PATH", "HERBAL_DB_PATH", "GEO_DB_PATH"} <= overrides
