"""Test environment: fake AWS credentials, code on the path as the template wires it.

Fixtures every tier shares: `aws` (moto with the template's tables created),
`registry`, and `validate_output` (jsonschema against a tool's outputSchema).
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

ROOT = Path(__file__).resolve().parent.parent

# Set before any boto3 client exists: tests never talk to real AWS.
for key, value in {
    "AWS_ACCESS_KEY_ID": "testing",
    "AWS_SECRET_ACCESS_KEY": "testing",
    "AWS_SESSION_TOKEN": "testing",
    "AWS_DEFAULT_REGION": "us-east-1",
    "POWERTOOLS_TRACE_DISABLED": "true",
    "POWERTOOLS_METRICS_NAMESPACE": "McpPlatform",
    "POWERTOOLS_SERVICE_NAME": "tests",
}.items():
    os.environ[key] = value
os.environ.pop("AWS_PROFILE", None)
# The geo service reads the database `make geo-db` builds (make test builds it first).
os.environ.setdefault("GEO_DB_PATH", str(ROOT / "build" / "geo" / "geo-small.sqlite"))
# The herbal service reads the test extract's database (tests/herbal_support.py builds it when stale);
# the suite asserts facts of that extract, so a developer's HERBAL_DB_PATH is not used here.
os.environ["HERBAL_DB_PATH"] = str(ROOT / "build" / "herbal" / "herbal-test.sqlite")

sys.path.insert(0, str(ROOT))
from localdev.template import add_code_paths

add_code_paths()  # the common layer and every function's code, as the runtime sees them

from localdev import environment

# Every function's template environment (its settings refuse to load without it), as the local default has it;
# the search cache is on only where a test turns it on.
for _name, _value in {**environment.function_environment(), "CACHE_TABLE": ""}.items():
    os.environ.setdefault(_name, _value)

import jsonschema
import pytest

from mcp_platform.catalogue.registry import Registry, load_registry

if TYPE_CHECKING:
    from collections.abc import Callable, Iterator


def _clear_service_settings() -> None:
    for name, module in list(sys.modules.items()):
        if name.endswith("_service.settings") and hasattr(module, "settings"):
            module.settings.cache_clear()


@pytest.fixture(autouse=True)
def fresh_service_settings() -> Iterator[None]:
    """Service settings are parsed once per container; a test that sets a variable gets them parsed again.

    Each test starts from settings parsed anew (fixtures may set variables first); a test that sets a
    variable after a call calls `reload_settings()`. Whatever a test did is forgotten after it.
    """
    _clear_service_settings()
    yield
    _clear_service_settings()


@pytest.fixture(autouse=True)
def fresh_llm_clients() -> Iterator[None]:
    """The LLM client is kept per container (`llm_client`); no test inherits one an earlier test built."""
    from mcp_platform.llm import forget_clients

    yield
    forget_clients()


@pytest.fixture
def reload_settings() -> Callable[[], None]:
    """Parse every service's settings again from the environment as the test has set it."""
    return _clear_service_settings


@pytest.fixture(scope="session", autouse=True)
def herbal_test_db() -> Path:
    """The herbal database HERBAL_DB_PATH names, (re)built from tests/fixtures/herbal when stale (~0.1 s)."""
    from tests.herbal_support import ensure_test_db

    return ensure_test_db()


@pytest.fixture(scope="session")
def registry() -> Registry:
    return load_registry()


@pytest.fixture
def aws() -> Iterator[None]:
    """moto for every AWS API, with the template's DynamoDB tables created (named by logical id).

    Each request is atomic, as in DynamoDB (`moto_as_dynamodb`), so
    concurrency tests measure our races, not moto's.
    """
    from moto import mock_aws

    from localdev.store import create_tables, moto_as_dynamodb

    moto_as_dynamodb()
    with mock_aws():
        create_tables()
        yield


@pytest.fixture
def validate_output(registry: Registry):
    """`validate_output(tool_name, structured)`: jsonschema-validate a non-error result."""

    def check(tool: str, structured: dict[str, Any]) -> dict[str, Any]:
        assert structured.get("is_error") is not True, structured
        spec = registry.get(tool)
        assert spec is not None, f"unknown tool {tool}"
        jsonschema.Draft202012Validator(spec.output_schema).validate(structured)
        return structured

    return check


@pytest.fixture(scope="session")
def recorded_apis_server() -> Iterator[Any]:
    """One loopback server for the session answering every backend API from tests/fixtures recordings."""
    from tests.support.recorded_apis import RecordedApis

    with RecordedApis() as server:
        yield server


@pytest.fixture
def recorded_apis(recorded_apis_server: Any, aws: None, monkeypatch: pytest.MonkeyPatch) -> Iterator[Any]:
    """The backend base URLs pointed at the recordings server, the DynamoDB cache table (moto),
    fresh per-container clients, and request counts from zero."""
    from mcp_platform.backends import reset_clients

    for name, value in recorded_apis_server.environment().items():
        monkeypatch.setenv(name, value)
    monkeypatch.setenv("BACKEND_CACHE_TABLE", "BackendCacheTable")
    _clear_service_settings()  # the data services' settings read those variables again
    reset_clients()
    recorded_apis_server.reset()
    yield recorded_apis_server
    reset_clients()
