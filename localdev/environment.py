"""The environment the template gives each function, resolved for the local default.

`!Ref SomeTable` becomes the table's logical id (the local store names tables
so); `!Ref SomeParameter` becomes the parameter's default; `!Sub` fills in
those and the pseudo parameters (the stack is `local`); `!If` takes the branch the
parameters' defaults choose. Values that only AWS
can resolve are left out. Each function gets only its own block plus Globals,
as in AWS: a variable missing from a block makes that function's settings
refuse to load, locally too.
"""

from __future__ import annotations

import os
import re
import threading
from contextlib import contextmanager
from functools import cache
from typing import TYPE_CHECKING, Any

from localdev import template

if TYPE_CHECKING:
    from collections.abc import Iterator, Mapping

_PER_FUNCTION = {"POWERTOOLS_SERVICE_NAME"}


_PSEUDO = {
    "AWS::StackName": "local",
    "AWS::Region": "us-east-1",
    "AWS::AccountId": "000000000000",
    "AWS::Partition": "aws",
    "AWS::URLSuffix": "amazonaws.com",
}
"""Pseudo parameters as the local default names them (the stack is called `local`)."""
_SUB = re.compile(r"\$\{([^}]+)\}")


def resolve(value: Any, resources: dict[str, Any], parameters: dict[str, Any]) -> str | None:
    if isinstance(value, (str, int, float)):
        return str(value)
    if isinstance(value, dict) and isinstance(value.get("Fn::Sub"), str):
        parts = {
            name: _PSEUDO.get(name) or resolve({"Ref": name}, resources, parameters)
            for name in _SUB.findall(value["Fn::Sub"])
        }
        if any(v is None for v in parts.values()):
            return None
        return _SUB.sub(lambda m: str(parts[m.group(1)]), value["Fn::Sub"])
    if isinstance(value, dict) and isinstance(value.get("Fn::If"), list):
        condition, if_true, if_false = value["Fn::If"]
        return resolve(if_true if template.condition_holds(condition) else if_false, resources, parameters)
    if isinstance(value, dict) and "Ref" in value:
        name = value["Ref"]
        if name in parameters:
            return str(parameters[name].get("Default", ""))
        if name in resources:
            is_bucket = resources[name].get("Type") == "AWS::S3::Bucket"
            return template.local_bucket_name(name) if is_bucket else name
    return None


def for_function(wiring: template.FunctionWiring) -> dict[str, str]:
    """Globals and the function's own block, resolved (POWERTOOLS_SERVICE_NAME included)."""
    doc = template.load_template()
    resources, parameters = doc["Resources"], doc.get("Parameters", {})
    globals_env = doc.get("Globals", {}).get("Function", {}).get("Environment", {}).get("Variables", {})
    env = {}
    for name, value in {**globals_env, **wiring.environment}.items():
        if (resolved := resolve(value, resources, parameters)) is not None:
            env[name] = resolved
    return env


@cache
def template_names() -> frozenset[str]:
    """Every variable any function's block (or Globals) sets."""
    return frozenset(name for wiring in template.functions() for name in for_function(wiring))


def function_environment() -> dict[str, str]:
    """Every function's variables merged, for the parts of the local process no one function owns."""
    env: dict[str, str] = {}
    for wiring in template.functions():
        env.update({k: v for k, v in for_function(wiring).items() if k not in _PER_FUNCTION})
    return env


def own(wiring: template.FunctionWiring, process: Mapping[str, str]) -> dict[str, str]:
    """The function's environment: its block and Globals, each value overridable by the process (the shell)."""
    return {name: process.get(name, value) for name, value in for_function(wiring).items() if name not in _PER_FUNCTION}


@contextmanager
def isolated(wiring: template.FunctionWiring) -> Iterator[None]:
    """The process environment as this function's cold start sees it: other functions' variables removed.

    Used while a handler is imported in-process (its settings are parsed then), so each
    function is configured from its own block only, as in Lambda.
    """
    saved = dict(os.environ)
    mine = own(wiring, saved)
    try:
        for name in template_names() - mine.keys():
            os.environ.pop(name, None)
        os.environ.update(mine)
        yield
    finally:
        os.environ.clear()
        os.environ.update(saved)


_LOADING = threading.Lock()


def load_handlers(functions: Mapping[str, template.FunctionWiring]) -> dict[str, Any]:
    """Each function's handler, imported (its cold start: settings are parsed then) with only its own environment.

    One at a time: `isolated` changes the process environment while it lasts.
    """
    handlers = {}
    for service, wiring in functions.items():
        with _LOADING, isolated(wiring):
            handlers[service] = wiring.load_handler()
    return handlers
