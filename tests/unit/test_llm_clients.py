"""The LLM client is built once per container; each call carries its own deadline.

OpenAI-compatible calls go to the loopback `FakeChatModel` (real HTTP, so connection reuse is
visible) or through respx (to read the timeout each request carried); Bedrock's runtime clients
are inspected and stubbed (botocore's Stubber).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import boto3
import pytest
import respx
from aws_lambda_powertools.utilities.parameters import base as parameters_base
from botocore.stub import ANY, Stubber

from mcp_platform.llm import forget_clients, llm_client
from mcp_platform.llm.bedrock import TIMED_CLIENTS, BedrockClient
from mcp_platform.protocol.errors import ToolError
from mcp_platform.runtime.settings import LlmSettings
from tests.support.fake_backends import FakeChatModel

if TYPE_CHECKING:
    from collections.abc import Iterator

REPLY = {"choices": [{"index": 0, "message": {"role": "assistant", "content": "ok"}}], "usage": {}}
CONVERSE = {
    "output": {"message": {"role": "assistant", "content": [{"text": "fine"}]}},
    "stopReason": "end_turn",
    "usage": {"inputTokens": 3, "outputTokens": 1, "totalTokens": 4},
    "metrics": {"latencyMs": 5},
}
CONVERSE_ASKED = {"modelId": "amazon.nova-lite-v1:0", "system": ANY, "messages": ANY, "inferenceConfig": ANY}


@pytest.fixture
def env() -> dict[str, str]:
    """A function's LLM variables, read as its `LlmSettings` would be (`LlmSettings.model_validate(env)`)."""
    return {}


@pytest.fixture
def openai_env(env: dict[str, str]) -> Iterator[FakeChatModel]:
    with FakeChatModel() as model:
        env.update({"LLM_PROVIDER": "openai", "LLM_BASE_URL": model.base_url, "LLM_MODEL": "m"})
        yield model  # type: ignore[misc]


def test_two_calls_reuse_one_client_and_one_connection(openai_env: FakeChatModel, env: dict[str, str]) -> None:
    first = llm_client(LlmSettings.model_validate(env))
    first.complete(system="s", user="one")
    second = llm_client(LlmSettings.model_validate(env))
    second.complete(system="s", user="two")
    assert second is first
    one, two = openai_env.requests
    assert one.client_port == two.client_port != 0  # the second request went over the kept-alive connection


def test_a_per_call_timeout_reaches_the_request(env: dict[str, str]) -> None:
    env["LLM_PROVIDER"] = "openai"
    env["LLM_MODEL"] = "m"
    env["LLM_BASE_URL"] = "http://llm.test/v1"
    with respx.mock() as router:
        route = router.post("http://llm.test/v1/chat/completions").respond(json=REPLY)
        llm = llm_client(LlmSettings.model_validate(env))
        llm.complete(system="s", user="u", timeout=3.0)
        llm.complete(system="s", user="u")
        llm.complete(system="s", user="u", timeout=0.4)
    sent = [call.request.extensions["timeout"]["read"] for call in route.calls]
    assert 2.9 < sent[0] <= 3.0  # what was left of the 3 s when the request went
    assert 19.9 < sent[1] <= 20.0  # no timeout: the default
    assert 0.3 < sent[2] <= 0.4


def test_a_slow_model_fails_the_call_within_its_timeout(openai_env: FakeChatModel, env: dict[str, str]) -> None:
    openai_env.delay = 1.5
    with pytest.raises(ToolError) as info:
        llm_client(LlmSettings.model_validate(env)).complete(system="s", user="u", timeout=0.5)
    assert info.value.code == "upstream_unavailable" and "did not answer in time" in info.value.message


def test_changed_provider_settings_give_a_new_client(openai_env: FakeChatModel, env: dict[str, str], aws: None) -> None:
    first = llm_client(LlmSettings.model_validate(env))
    env["LLM_MODEL"] = "other"
    by_model = llm_client(LlmSettings.model_validate(env))
    assert by_model is not first and by_model.name == "openai/other"
    env["LLM_BASE_URL"] = openai_env.base_url + "/"  # the same URL once normalised
    assert llm_client(LlmSettings.model_validate(env)) is by_model
    env["LLM_BASE_URL"] = openai_env.origin.replace("127.0.0.1", "localhost") + "/v1"
    by_base = llm_client(LlmSettings.model_validate(env))
    assert by_base is not by_model
    ssm = boto3.client("ssm")
    ssm.put_parameter(Name="/mcp/t/key-a", Value="sk-a", Type="SecureString")
    ssm.put_parameter(Name="/mcp/t/key-b", Value="sk-b", Type="SecureString")
    parameters_base.DEFAULT_PROVIDERS.clear()  # Powertools' SSM provider, made inside moto
    env["LLM_API_KEY_PARAMETER"] = "/mcp/t/key-a"
    keyed = llm_client(LlmSettings.model_validate(env))
    assert keyed is not by_base
    env["LLM_API_KEY_PARAMETER"] = "/mcp/t/key-b"
    rotated = llm_client(LlmSettings.model_validate(env))
    assert rotated is not keyed
    openai_env.api_key = "sk-b"
    assert rotated.complete(system="s", user="u").text  # the new client carries the new key
    assert openai_env.requests[-1].headers["authorization"] == "Bearer sk-b"
    env["LLM_PROVIDER"] = "bedrock"
    assert isinstance(llm_client(LlmSettings.model_validate(env)), BedrockClient)
    forget_clients()
    env["LLM_PROVIDER"] = "openai"
    assert llm_client(LlmSettings.model_validate(env)) is not rotated  # forgotten: built anew
    parameters_base.DEFAULT_PROVIDERS.clear()


def test_bedrock_keeps_one_runtime_client_per_whole_second_timeout(env: dict[str, str]) -> None:
    env["LLM_PROVIDER"] = "bedrock"
    llm = llm_client(LlmSettings.model_validate(env))
    assert isinstance(llm, BedrockClient) and llm_client(LlmSettings.model_validate(env)) is llm
    capped = llm.runtime(7.5)
    assert (capped.meta.config.read_timeout, capped.meta.config.retries["total_max_attempts"]) == (7, 1)
    assert llm.runtime(7.9) is capped and llm.runtime(0.2).meta.config.read_timeout == 1
    default = llm.runtime(None)
    assert default.meta.config.read_timeout == 10 and default is llm.runtime()  # mcp_platform.storage.aws's default
    for seconds in range(20, 20 + TIMED_CLIENTS):
        llm.runtime(seconds)
    assert llm.runtime(7.5) is not capped  # the least recently used went first: the cache stays small


def test_bedrock_calls_go_through_the_client_of_their_timeout(env: dict[str, str]) -> None:
    env["LLM_PROVIDER"] = "bedrock"
    llm = llm_client(LlmSettings.model_validate(env))
    assert isinstance(llm, BedrockClient)
    with Stubber(llm.runtime(4.0)) as four, Stubber(llm.runtime(None)) as default:
        four.add_response("converse", CONVERSE, CONVERSE_ASKED)
        default.add_response("converse", CONVERSE, CONVERSE_ASKED)
        assert llm_client(LlmSettings.model_validate(env)).complete(system="s", user="u", timeout=4.6).text == "fine"
        assert llm_client(LlmSettings.model_validate(env)).complete(system="s", user="u").text == "fine"
        four.assert_no_pending_responses()
        default.assert_no_pending_responses()
