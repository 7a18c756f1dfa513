"""Router configuration: the router's template environment, parsed once per container (cold start)."""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Any, ClassVar, Self

from pydantic import Field, field_validator

from mcp_platform.auth.signup import SignupMode
from mcp_platform.runtime.settings import LedgerSettings, ProviderSettings, csv_items

if TYPE_CHECKING:
    from collections.abc import Mapping

SERVICE_FUNCTION = "SERVICE_FUNCTION_"
"""`SERVICE_FUNCTION_<SERVICE>=<function name>` names one service's function outright (`make sam-local`)."""


class RouterSettings(ProviderSettings, LedgerSettings):
    """The router's own variables, plus the search and LLM providers' that `/health` reports on."""

    OPTIONAL_ENV: ClassVar[frozenset[str]] = frozenset(
        {
            "allowed_hosts",
            "tools_page_size",
            "server_name",
            "server_version",
            "public_url",
            "max_batch_size",
            "router_timeout_seconds",
            "task_timeout_seconds",
            "task_event_max_age_seconds",
            "task_result_wait_seconds",
            "tasks_table",
            "staging_bucket",
            "oauth_table",
            "authorization_server_url",
            "service_functions",
        }
    )

    # -- stores and services (template: !Ref of each table, the service function prefix)
    api_keys_table: str = ""
    rate_limit_table: str = ""
    signups_table: str = ""
    tasks_table: str = ""
    """Durable tasks; empty: the router offers no tasks (tools run synchronously only)."""
    staging_bucket: str = ""
    """Where task replies over the item size limit go."""
    service_function_prefix: str = ""
    service_functions: dict[str, str] = Field(default_factory=dict)
    """Service -> function name, from the `SERVICE_FUNCTION_<SERVICE>` variables (`from_env`); the others are
    `service_function_prefix` + service. Only `make sam-local` sets them: its functions keep their logical ids."""
    oauth_table: str = ""
    """OAuth grants (codes, tokens, connected apps); empty: the router accepts API keys only."""

    # -- limits and behaviour (template parameters)
    rate_limit_per_minute: int = 120
    key_cache_seconds: float = 30.0
    max_body_bytes: int = 1_048_576
    allowed_origins: tuple[str, ...] = ()
    """Browser Origins allowed to call /mcp; a request without Origin is always allowed."""
    signup_mode: SignupMode = SignupMode.INVITE
    signups_per_ip_per_hour: int = 5
    welcome_credits: int = 100

    # -- local overrides and tuning (absent in AWS)
    allowed_hosts: tuple[str, ...] = ()
    """Host header values accepted (without port); empty accepts any (behind API Gateway)."""
    tools_page_size: int = 500
    """Items per page of tools/list (and the other lists): one page holds any connection's whole catalogue,
    so clients that read only the first page (the official SDK validates results against it) see every tool."""
    server_name: str = "mcp-platform"
    server_version: str = "0.1.0"
    public_url: str = ""
    """Base URL shown in generated docs, e.g. https://api.example.com (no trailing slash)."""
    authorization_server_url: str = ""
    """The OAuth issuer named in the protected-resource metadata; empty: this deployment's own origin."""
    max_batch_size: int = 20
    """Most messages in one legacy-era JSON-RPC batch; a larger batch is one Invalid Request error."""
    router_timeout_seconds: float = 29.0
    """The router's own budget when the runtime does not say (locally); in Lambda its remaining time."""
    task_timeout_seconds: float = 900.0
    """Longest a task may run (the task-capable functions' Lambda timeout); later it fails and is refunded."""
    task_event_max_age_seconds: float = 600.0
    """Longest a task's event may wait in Lambda's queue (template TaskEventMaxAgeSeconds): part of its deadline."""
    task_result_wait_seconds: float = 20.0
    """How long `tasks/result` waits for a working task; under the router's own 29 s."""

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None) -> Self:
        """The router's settings, with `service_functions` gathered from `SERVICE_FUNCTION_<SERVICE>`."""
        source = dict(os.environ if env is None else env)
        named = {
            key.removeprefix(SERVICE_FUNCTION).lower(): value
            for key, value in source.items()
            if key.startswith(SERVICE_FUNCTION) and key != "SERVICE_FUNCTION_PREFIX"
        }
        return super().from_env(source).model_copy(update={"service_functions": named})

    @field_validator("allowed_origins", "allowed_hosts", mode="before")
    @classmethod
    def _csv(cls, value: Any) -> Any:
        return csv_items(value)

    @field_validator("public_url")
    @classmethod
    def _no_trailing_slash(cls, value: str) -> str:
        return value.rstrip("/")
