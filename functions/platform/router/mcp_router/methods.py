"""MCP methods the router answers itself, and the routing of `tools/call`.

Era differences live here and nowhere else: the modern era (2026-07-28) adds
`resultType`, server info in `_meta` and caching hints; `initialize` and `ping`
exist only in the legacy era, `server/discover` only in the modern one.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import orjson

from mcp_platform.catalogue import generated_docs
from mcp_platform.catalogue.discovery import PLATFORM_ICON, icon
from mcp_platform.oauth.scopes import CREDITS_READ
from mcp_platform.protocol.errors import ToolError
from mcp_platform.protocol.jsonrpc import INVALID_PARAMS, METHOD_NOT_FOUND, RESOURCE_NOT_FOUND, JsonRpcError
from mcp_platform.protocol.mcp import LATEST_LEGACY, LEGACY_VERSIONS, MODERN_VERSIONS, SERVER_INFO_META
from mcp_router import credits
from mcp_router.context import RequestContext
from mcp_router.meta_tools import META_TOOLS, TOOLS_CALL, TOOLS_SEARCH, MetaTools, refused, unwrap
from mcp_router.pagination import page
from mcp_router.task_methods import LEGACY_CAPABILITY, MODERN_CAPABILITY

if TYPE_CHECKING:
    from mcp_platform.catalogue.registry import Registry, ToolSpec
    from mcp_router.credits import CreditResources
    from mcp_router.settings import RouterSettings
    from mcp_router.task_methods import TaskMethods
    from mcp_router.tool_calls import ToolCaller

INSTRUCTIONS = (
    "Tools are grouped by service (<service>_<verb>); tools_search finds the right one for a task described in "
    "plain words. Each tool's description says what it costs in credits; "
    "*_status tools and hello_ping are free, and failed calls are never charged. Billed results carry "
    "credits_charged and credits_balance. Read docs://catalog for every tool and price, docs://errors for "
    "error codes and which are worth retrying, docs://<service>/payload for a service's exact contracts, "
    "credits://balance for your balance, credits://ledger for every charge and refund (paged, "
    "?since=YYYY-MM-DD) and credits://usage for totals by day."
)
LIST_TTL_MS = 300_000
"""Tool lists and docs change only on deploy: five minutes of client caching is safe."""


Handler = Callable[[RequestContext, dict[str, Any]], dict[str, Any]]


class Methods:
    def __init__(
        self,
        registry: Registry,
        credit_resources: CreditResources,
        caller: ToolCaller,
        settings: RouterSettings,
        tasks: TaskMethods | None = None,
    ) -> None:
        self._registry = registry
        self._credits = credit_resources
        self._caller = caller
        self._settings = settings
        self._tasks = tasks
        self._meta = MetaTools(registry, caller)
        self._server_info = {"name": settings.server_name, "version": settings.server_version}
        self._capabilities: dict[str, Any] = {"tools": {}, "resources": {}, "prompts": {}}
        self._modern_capabilities = dict(self._capabilities)
        if tasks is not None:
            self._capabilities["tasks"] = LEGACY_CAPABILITY
            self._modern_capabilities["extensions"] = MODERN_CAPABILITY
        shared: dict[str, Handler] = {
            "tools/list": self.tools_list,
            "tools/call": self.tools_call,
            "resources/list": self.resources_list,
            "resources/templates/list": self.resource_templates_list,
            "resources/read": self.resources_read,
            "prompts/list": self.prompts_list,
        }
        self._legacy: dict[str, Handler] = {**shared, "initialize": self.initialize, "ping": self.ping}
        self._modern: dict[str, Handler] = {**shared, "server/discover": self.discover}
        if tasks is not None:
            self._legacy.update(tasks.legacy_handlers())
            self._modern.update(tasks.modern_handlers())

    def dispatch(self, exchange: RequestContext, method: str, params: dict[str, Any]) -> dict[str, Any]:
        handler = (self._modern if exchange.modern else self._legacy).get(method)
        if handler is None:
            raise JsonRpcError(METHOD_NOT_FOUND, f"Method not found: {method}")
        result = handler(exchange, params)
        if exchange.modern:
            result.setdefault("resultType", "complete")
            result.setdefault("_meta", {})[SERVER_INFO_META] = self._server_info
        return result

    # -- lifecycle

    def initialize(self, _ex: RequestContext, params: dict[str, Any]) -> dict[str, Any]:
        requested = params.get("protocolVersion")
        return {
            "protocolVersion": requested if requested in LEGACY_VERSIONS else LATEST_LEGACY,
            "capabilities": self._capabilities,
            "serverInfo": self._server_info,
            "instructions": INSTRUCTIONS,
        }

    def ping(self, _ex: RequestContext, _params: dict[str, Any]) -> dict[str, Any]:
        return {}

    def discover(self, _ex: RequestContext, _params: dict[str, Any]) -> dict[str, Any]:
        return {
            "supportedVersions": [*MODERN_VERSIONS, *reversed(LEGACY_VERSIONS)],
            "capabilities": self._modern_capabilities,
            "instructions": INSTRUCTIONS,
            **_cache_hint(LIST_TTL_MS, "public"),
        }

    # -- tools

    def tools_list(self, ex: RequestContext, params: dict[str, Any]) -> dict[str, Any]:
        """The connection's tools: (unless it discovers) every tool it may call, then the meta-tools."""
        callable_tools = [] if ex.profile.discover else [s for s in self._registry if self._caller.callable(s, ex)]
        listed = [*callable_tools, *self._meta.listed(ex.profile)]
        tools, next_cursor = page(listed, params.get("cursor"), self._settings.tools_page_size)
        result: dict[str, Any] = {"tools": [self._wire(spec) for spec in tools]}
        if next_cursor:
            result["nextCursor"] = next_cursor
        return self._cacheable(ex, result, LIST_TTL_MS, "private")

    def tools_call(self, ex: RequestContext, params: dict[str, Any]) -> dict[str, Any]:
        try:
            if params.get("name") == TOOLS_SEARCH.name:
                if self._tasks is not None:  # refuses params.task, as for every tool that runs only synchronously
                    self._tasks.start(ex, TOOLS_SEARCH, params)
                return self._meta.search(ex, params.get("arguments"))
            if params.get("name") == TOOLS_CALL.name:
                params = unwrap(params)  # from here on, exactly the tools/call it stands for
        except ToolError as exc:
            return refused(exc)
        if self._tasks is not None and (task := self._tasks.start(ex, self._caller.tool(ex, params), params)):
            return task
        return self._caller.call(ex, params)

    def _wire(self, spec: ToolSpec) -> dict[str, Any]:
        """A tool as listed: with its service's icon (2025-11-25 `icons`) when the public URL is known."""
        if not self._settings.public_url:
            return spec.to_wire()
        service = PLATFORM_ICON if spec.name in META_TOOLS else spec.service
        return {**spec.to_wire(), "icons": [icon(self._settings.public_url, service)]}

    def prompts_list(self, ex: RequestContext, params: dict[str, Any]) -> dict[str, Any]:
        page([], params.get("cursor"), self._settings.tools_page_size)  # validates the cursor
        return self._cacheable(ex, {"prompts": []}, LIST_TTL_MS, "public")

    # -- resources

    def _services(self, ex: RequestContext) -> list[str]:
        return [s for s in self._registry.services if s in ex.principal.services]

    def resources_list(self, ex: RequestContext, params: dict[str, Any]) -> dict[str, Any]:
        resources = [
            {
                "uri": "docs://catalog",
                "name": "catalog",
                "title": "Tool catalogue and prices",
                "mimeType": "text/markdown",
            },
            {
                "uri": "docs://errors",
                "name": "errors",
                "title": "Error codes: which a retry can help, and what each means",
                "mimeType": "text/markdown",
            },
            *credits.RESOURCES,
            *(
                {
                    "uri": f"docs://{service}/payload",
                    "name": f"{service}-payload",
                    "title": f"{service}: request and response contracts",
                    "mimeType": "text/markdown",
                }
                for service in self._services(ex)
            ),
        ]
        items, next_cursor = page(resources, params.get("cursor"), self._settings.tools_page_size)
        result: dict[str, Any] = {"resources": list(items)}
        if next_cursor:
            result["nextCursor"] = next_cursor
        return self._cacheable(ex, result, LIST_TTL_MS, "private")

    def resource_templates_list(self, ex: RequestContext, params: dict[str, Any]) -> dict[str, Any]:
        page([], params.get("cursor"), self._settings.tools_page_size)
        templates = [
            {
                "uriTemplate": "docs://{service}/payload",
                "name": "service-payload",
                "title": "A service's request and response contracts",
                "mimeType": "text/markdown",
            },
            *credits.TEMPLATES,
        ]
        return self._cacheable(ex, {"resourceTemplates": templates}, LIST_TTL_MS, "public")

    def resources_read(self, ex: RequestContext, params: dict[str, Any]) -> dict[str, Any]:
        uri = params.get("uri")
        if not isinstance(uri, str):
            raise JsonRpcError(INVALID_PARAMS, "resources/read needs a string `uri`")
        if uri.startswith("credits:") and not ex.principal.reads_credits:
            raise JsonRpcError(
                INVALID_PARAMS, f"{uri} needs the scope {CREDITS_READ}, which this access token was not granted"
            )
        if (body := self._credits.read(ex.principal.account_id, uri)) is not None:
            contents = {"uri": uri, "mimeType": "application/json", "text": orjson.dumps(body).decode()}
            return self._cacheable(ex, {"contents": [contents]}, 0, "private")
        text = self._doc(ex, uri)
        if text is None:
            code = INVALID_PARAMS if ex.modern else RESOURCE_NOT_FOUND
            raise JsonRpcError(code, f"Resource not found: {uri}", data={"uri": uri})
        contents = {"uri": uri, "mimeType": "text/markdown", "text": text}
        return self._cacheable(ex, {"contents": [contents]}, LIST_TTL_MS, "private")

    def _doc(self, ex: RequestContext, uri: str) -> str | None:
        if uri == "docs://catalog":
            return generated_docs.catalog(self._registry, self._services(ex))
        if uri == "docs://errors":
            return generated_docs.errors()
        service = uri.removeprefix("docs://").removesuffix("/payload")
        if uri == f"docs://{service}/payload" and service in self._services(ex):
            return generated_docs.service_payload(self._registry, service, self._settings.public_url)
        return None

    @staticmethod
    def _cacheable(ex: RequestContext, result: dict[str, Any], ttl_ms: int, scope: str) -> dict[str, Any]:
        return {**result, **_cache_hint(ttl_ms, scope)} if ex.modern else result


def _cache_hint(ttl_ms: int, scope: str) -> dict[str, Any]:
    return {"ttlMs": ttl_ms, "cacheScope": scope}
