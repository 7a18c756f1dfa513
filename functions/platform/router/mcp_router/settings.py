"""Router configuration: the router's template environment, parsed once per container (cold start)."""

from __future__ import annotations

from typing import Any, ClassVar

from pydantic import field_validator

from mcp_platform.auth.signup import SignupMode
from mcp_platform.runtime.settings import LedgerSettings, LlmSettings, SearchProviderSettings, csv_items


class RouterSettings(SearchProviderSettings, LlmSettings, LedgerSettings):
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

    @field_validator("allowed_origins", "allowed_hosts", mode="before")
    @classmethod
    def _csv(cls, value: Any) -> Any:
        return csv_items(value)

    @field_validator("public_url")
    @classmethod
    def _no_trailing_slash(cls, value: str) -> str:
        return value.rstrip("/")
