"""API Gateway's routing, locally: requests to the authorization server's paths go to its app, the rest to the router.

The paths come from the template's `HttpApi` events of the auth function, so a route added
there is served by `make dev` too. `{proxy+}` matches everything under its prefix.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from collections.abc import Iterable

_GREEDY = "{proxy+}"


class PathRouter:
    def __init__(self, default: Any, other: Any, other_paths: Iterable[str]) -> None:
        self._default = default
        self._other = other
        paths = list(other_paths)
        self._exact = frozenset(p for p in paths if not p.endswith(_GREEDY))
        self._prefixes = tuple(p.removesuffix(_GREEDY) for p in paths if p.endswith(_GREEDY))

    def app_for(self, path: str) -> Any:
        if path in self._exact or path.startswith(self._prefixes):
            return self._other
        return self._default

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] == "lifespan":
            await self._default(scope, receive, send)
            return
        await self.app_for(scope["path"])(scope, receive, send)
