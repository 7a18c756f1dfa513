"""One settings model per function, parsed once at cold start from the environment its template block sets.

A function's settings are a `FunctionSettings` subclass: one field per
environment variable, named after it in lower case (`STAGING_BUCKET` →
`staging_bucket`). `from_env()` refuses, at cold start and naming every one,
the variables a function's template block (or Globals) must set and does not:
so a variable missing from a block fails at once, locally (the local default
and the wiring test give each function only its own block) as in AWS, instead
of on some later call. Fields listed in `OPTIONAL_ENV` may be absent (local
overrides and tuning knobs); their defaults apply.

Direct construction (`RouterSettings(rate_limit_per_minute=2)`) keeps every
default: that is for tests, which set what they exercise.
"""

from __future__ import annotations

import functools
import os
from typing import TYPE_CHECKING, Any, ClassVar, Self

from pydantic import BaseModel, ConfigDict, ValidationError

if TYPE_CHECKING:
    from collections.abc import Mapping


class SettingsError(RuntimeError):
    """The environment lacks or mistypes a setting; raised at cold start, naming each variable."""


def _env_name(field: str) -> str:
    return field.upper()


def csv_items(value: Any) -> Any:
    """A comma-separated variable as a tuple of its non-empty items (`BeforeValidator` / `field_validator`)."""
    if isinstance(value, str):
        return tuple(part.strip() for part in value.split(",") if part.strip())
    return value


class FunctionSettings(BaseModel):
    """What every function gets from template.yaml's Globals."""

    model_config = ConfigDict(
        frozen=True, extra="ignore", alias_generator=_env_name, validate_by_name=True, validate_by_alias=True
    )

    OPTIONAL_ENV: ClassVar[frozenset[str]] = frozenset({"ssrf_allow_loopback", "aws_lambda_function_name"})
    """Fields that may be absent from the environment (their default applies)."""

    stage: str = "dev"
    log_level: str = "INFO"
    enable_preview_tools: bool = False
    """`ENABLE_PREVIEW_TOOLS=1` lists and runs preview tools."""
    ssrf_allowed_ports: str = ""
    """Ports a caller's URL may use besides 80/443 (the SSRF guard's `web.addresses.AddressPolicy`)."""
    ssrf_allow_loopback: bool = False
    """Tests and the local default only: caller URLs may reach loopback test servers (refused in Lambda)."""
    aws_lambda_function_name: str = ""
    """Set by the Lambda runtime (never by the template): the function runs in Lambda."""
    service_timeout_seconds: float = 25.0
    """How long the router waits for a synchronous call (a task-capable function's own timeout is a task's)."""

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None) -> Self:
        """The settings in `env` (default: the process environment); `SettingsError` names what is wrong."""
        source = dict(os.environ if env is None else env)
        optional = cls.optional_fields()
        missing = [
            _env_name(name) for name in cls.model_fields if name not in optional and _env_name(name) not in source
        ]
        if missing:
            raise SettingsError(
                f"{cls.__name__}: the environment does not set {', '.join(sorted(missing))}; "
                "add it to this function's Environment in template.yaml (or to Globals)"
            )
        try:
            return cls.model_validate(
                {_env_name(n): source[_env_name(n)] for n in cls.model_fields if _env_name(n) in source}
            )
        except ValidationError as exc:
            problems = "; ".join(f"{'.'.join(map(str, e['loc']))}: {e['msg']}" for e in exc.errors(include_url=False))
            raise SettingsError(f"{cls.__name__}: {problems}") from None

    @classmethod
    def optional_fields(cls) -> frozenset[str]:
        """`OPTIONAL_ENV` of this class and every base."""
        names: set[str] = set()
        for klass in cls.__mro__:
            names |= vars(klass).get("OPTIONAL_ENV", frozenset())
        return frozenset(names)

    @classmethod
    def env_names(cls) -> frozenset[str]:
        """Every environment variable this model reads."""
        return frozenset(_env_name(name) for name in cls.model_fields)


class StagingSettings(FunctionSettings):
    """Functions that read or write staged files (`storage.staging_store`, `protocol.binary`)."""

    staging_bucket: str = ""


class TaskSettings(StagingSettings):
    """Functions that run or settle durable tasks (`mcp_platform.durable_tasks.worker.task_store`)."""

    tasks_table: str = ""
    """The task table; task payloads over DynamoDB's item size go to `staging_bucket`."""


class BackendSettings(FunctionSettings):
    """Functions that call configured backend APIs (`mcp_platform.backends`).

    Each such function also declares one field per backend it calls, named after the backend's
    base-URL variable (`PUBCHEM_BASE_URL` → `pubchem_base_url`); `backend_client(name, settings)`
    reads it there.
    """

    backend_cache_table: str = ""
    """DynamoDB table of cached backend answers; empty: memory only."""


class LedgerSettings(FunctionSettings):
    """The billing tables every function that charges, settles or refunds writes (template: AccountsTable,
    LedgerTable, CallsTable); `billing.dynamodb.build_ledger` makes the one `DynamoLedger` from them."""

    OPTIONAL_ENV: ClassVar[frozenset[str]] = frozenset({"calls_open_shards"})

    accounts_table: str = ""
    ledger_table: str = ""
    calls_table: str = ""
    calls_open_shards: int = 32
    """Partitions of the calls table's `open` index (template CallsOpenShards; see billing/dynamodb.py)."""


class WebSettings(FunctionSettings):
    """Functions that fetch caller-given URLs (`mcp_platform.web`)."""

    OPTIONAL_ENV = frozenset({"web_max_bytes", "web_connect_timeout", "web_total_timeout"})

    web_contact_url: str = ""
    web_max_bytes: int | None = None
    web_connect_timeout: float | None = None
    web_total_timeout: float | None = None


class SearchProviderSettings(FunctionSettings):
    """Functions that call the search provider (`mcp_platform.search`)."""

    OPTIONAL_ENV = frozenset({"search_base_url"})

    search_provider: str = "serper"
    search_api_key_parameter: str = ""
    search_base_url: str = ""
    """Empty: the provider's public origin (SearXNG, an operator's own instance, has none)."""


class LlmSettings(FunctionSettings):
    """Functions that call the LLM (`mcp_platform.llm.llm_client`)."""

    OPTIONAL_ENV = frozenset({"gemini_model"})

    llm_provider: str = "gemini"
    llm_model: str = ""
    """Empty: the provider's default model (openai has none)."""
    llm_base_url: str = ""
    """Empty: the provider's public API (for bedrock, the regional endpoint)."""
    llm_api_key_parameter: str = ""
    """Where the OpenAI-compatible key is (SSM / Secrets Manager); empty for keyless self-hosted servers."""
    gemini_api_key_parameter: str = ""
    bedrock_model_id: str = ""
    gemini_model: str = ""


class ProviderSettings(SearchProviderSettings, LlmSettings):
    """Functions that search and ask the LLM, or report on both (`mcp_platform.outbound.provider_status`)."""


def settings_of[S: FunctionSettings](model: type[S]) -> functools._lru_cache_wrapper[S]:
    """`settings()` for one function: `model` parsed from the environment on first call, then kept.

    A function's app module asks for it at import, so a missing variable fails the cold start; tests
    call `settings.cache_clear()` after changing the environment.
    """
    return functools.cache(model.from_env)


def powertools_switch(name: str) -> bool:
    """Whether the Powertools switch `name` (`POWERTOOLS_TRACE_DISABLED`, `..._METRICS_DISABLED`) is on.

    These are process-wide and Powertools reads them itself; the platform reads them here, once
    at import, only to skip the wrappers and buffers Powertools would still run when disabled.
    """
    return os.environ.get(name, "").lower() in ("1", "true")
