"""Router configuration, read once per container from the environment the template sets."""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Mapping


def _csv(value: str) -> tuple[str, ...]:
    return tuple(part.strip() for part in value.split(",") if part.strip())


@dataclass(frozen=True)
class RouterSettings:
    rate_limit_per_minute: int = 120
    key_cache_seconds: float = 30.0
    max_body_bytes: int = 1_048_576
    allowed_origins: tuple[str, ...] = ()
    """Browser Origins allowed to call /mcp; a request without Origin is always allowed."""
    allowed_hosts: tuple[str, ...] = ()
    """Host header values accepted (without port); empty accepts any (behind API Gateway)."""
    preview_tools: bool = False
    tools_page_size: int = 50
    server_name: str = "mcp-platform"
    server_version: str = "0.1.0"
    public_url: str = ""
    """Base URL shown in generated docs, e.g. https://api.example.com (no trailing slash)."""
    max_batch_size: int = 20
    """Most messages in one legacy-era JSON-RPC batch; a larger batch is one Invalid Request error."""
    service_timeout_seconds: float = 25.0
    """Longest a service may run (its Lambda timeout)."""
    router_timeout_seconds: float = 29.0
    """The router's own budget when the runtime does not say (locally); in Lambda its remaining time."""
    task_timeout_s: float = 900.0
    """Longest a task may run (the task-capable functions' Lambda timeout); later it fails and is refunded."""
    task_result_wait_s: float = 20.0
    """How long `tasks/result` waits for a working task; under the router's own 29 s."""

    @classmethod
    def from_env(cls, env: Mapping[str, str] = os.environ) -> RouterSettings:
        return cls(
            rate_limit_per_minute=int(env.get("RATE_LIMIT_PER_MINUTE", "120")),
            key_cache_seconds=float(env.get("KEY_CACHE_SECONDS", "30")),
            max_body_bytes=int(env.get("MAX_BODY_BYTES", "1048576")),
            allowed_origins=_csv(env.get("ALLOWED_ORIGINS", "")),
            allowed_hosts=_csv(env.get("ALLOWED_HOSTS", "")),
            preview_tools=env.get("ENABLE_PREVIEW_TOOLS", "") == "1",
            tools_page_size=int(env.get("TOOLS_PAGE_SIZE", "50")),
            public_url=env.get("PUBLIC_URL", "").rstrip("/"),
            max_batch_size=int(env.get("MAX_BATCH_SIZE", "20")),
            service_timeout_seconds=float(env.get("SERVICE_TIMEOUT_SECONDS", "25")),
            router_timeout_seconds=float(env.get("ROUTER_TIMEOUT_SECONDS", "29")),
            task_timeout_s=float(env.get("TASK_TIMEOUT_SECONDS", "900")),
            task_result_wait_s=float(env.get("TASK_RESULT_WAIT_SECONDS", "20")),
        )
