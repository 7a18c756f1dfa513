"""The environment the template gives each function, resolved for the local default.

`!Ref SomeTable` becomes the table's logical id (the local store names tables
so); `!Ref SomeParameter` becomes the parameter's default unless the variable
is already set in the shell. Values that only AWS can resolve are left out.
"""

from __future__ import annotations

from typing import Any

from localdev import template

_PER_FUNCTION = {"POWERTOOLS_SERVICE_NAME"}


def resolve(value: Any, resources: dict[str, Any], parameters: dict[str, Any]) -> str | None:
    if isinstance(value, (str, int, float)):
        return str(value)
    if isinstance(value, dict) and "Ref" in value:
        name = value["Ref"]
        if name in parameters:
            return str(parameters[name].get("Default", ""))
        if name in resources:
            is_bucket = resources[name].get("Type") == "AWS::S3::Bucket"
            return template.local_bucket_name(name) if is_bucket else name
    return None


def function_environment() -> dict[str, str]:
    """Every function's variables merged (services share one process locally), router included."""
    doc = template.load_template()
    resources, parameters = doc["Resources"], doc.get("Parameters", {})
    env: dict[str, str] = {}
    globals_env = doc.get("Globals", {}).get("Function", {}).get("Environment", {}).get("Variables", {})
    for wiring in template.functions():
        for name, value in {**globals_env, **wiring.environment}.items():
            if name in _PER_FUNCTION:
                continue
            resolved = resolve(value, resources, parameters)
            if resolved is not None:
                env[name] = resolved
    return env
