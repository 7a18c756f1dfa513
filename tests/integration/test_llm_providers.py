"""The LLM interface on all three providers: text, real token usage, images, failures, settings.

OpenAI-compatible calls go over real HTTP to the loopback `FakeChatModel`; Gemini is replayed
with respx from its documented `generateContent` shape; Bedrock through botocore's Stubber.
"""

from __future__ import annotations

import base64
import json
from typing import TYPE_CHECKING

import boto3
import httpx
import pytest
import respx
from botocore.stub import Stubber

from mcp_platform.llm import MAX_IMAGE_BYTES, Completion, Image, llm_client, llm_status
from mcp_platform.llm.bedrock import BedrockClient
from mcp_platform.llm.gemini import GeminiClient
from mcp_platform.llm.openai import OpenAiClient
from mcp_platform.protocol.errors import ToolError
from mcp_platform.runtime.settings import LlmSettings
from tests.support.fake_backends import FakeChatModel

if TYPE_CHECKING:
    from collections.abc import Iterator

PNG = base64.b64decode(
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg=="
)
GEMINI = "https://generativelanguage.googleapis.com/v1beta/models/gemini-2.5-flash-lite:generateContent"
GEMINI_REPLY = {
    "candidates": [{"content": {"parts": [{"text": "A red pixel."}], "role": "model"}, "finishReason": "STOP"}],
    "usageMetadata": {"promptTokenCount": 270, "candidatesTokenCount": 4, "thoughtsTokenCount": 10},
}


@pytest.fixture
def env() -> dict[str, str]:
    """A function's LLM variables, read as its `LlmSettings` would be (`LlmSettings.model_validate(env)`)."""
    return {}


@pytest.fixture
def model(env: dict[str, str]) -> Iterator[FakeChatModel]:
    """The loopback model server, with LLM_BASE_URL pointing at it."""
    with FakeChatModel() as fake:
        env["LLM_BASE_URL"] = fake.base_url
        yield fake  # type: ignore[misc]


# ---------------------------------------------------------------- openai-compatible


def test_openai_returns_text_and_the_servers_token_counts(model: FakeChatModel) -> None:
    client = OpenAiClient(model="llama3.2", base_url=model.base_url)
    answer = client.complete(system="Summarise.", user='<page url="u" title="t">\nOne two three.\n</page>')
    assert isinstance(answer, Completion) and answer.model == "openai/llama3.2"
    sent = model.requests[-1]
    assert sent.body["model"] == "llama3.2" and sent.body["max_tokens"] == 1024 and sent.body["stream"] is False
    assert sent.body["messages"][0] == {"role": "system", "content": "Summarise."}
    assert "authorization" not in sent.headers  # no key configured, none sent
    words = len("Summarise.".split()) + len(sent.body["messages"][1]["content"].split())
    assert (answer.input_tokens, answer.output_tokens) == (words, len(answer.text.split()))


def test_openai_sends_images_as_data_url_parts(model: FakeChatModel) -> None:
    client = OpenAiClient(model="llava", api_key="sk-local", base_url=model.base_url)
    model.api_key = "sk-local"
    answer = client.complete(system="Describe.", user="What is it?", images=[Image(PNG, "image/png")] * 2)
    content = model.requests[-1].body["messages"][1]["content"]
    assert content[0] == {"type": "text", "text": "What is it?"}
    assert [part["image_url"]["url"] for part in content[1:]] == [
        "data:image/png;base64," + base64.b64encode(PNG).decode()
    ] * 2
    assert answer.input_tokens == 1 + 3 + 2 * 85
    assert model.requests[-1].headers["authorization"] == "Bearer sk-local"


def test_openai_without_usage_reports_none_not_an_estimate(model: FakeChatModel) -> None:
    model.report_usage = False
    answer = OpenAiClient(model="m", base_url=model.base_url).complete(system="s", user="u")
    assert (answer.input_tokens, answer.output_tokens) == (None, None) and answer.text


@pytest.mark.parametrize(
    ("status", "words", "attempts"),
    [
        (500, "is failing (HTTP 500)", 1),
        (503, "is failing (HTTP 503)", 3),  # retried while the deadline allows
        (429, "is rate-limiting our requests (HTTP 429)", 3),
        (401, "refused our credentials (HTTP 401); check the API key in the parameter named by LLM_API_KEY", 1),
    ],
)
def test_openai_failures_are_clear_tool_errors(model: FakeChatModel, status: int, words: str, attempts: int) -> None:
    if status == 401:
        model.api_key = "right"
    else:
        model.status = status
    with pytest.raises(ToolError) as info:
        OpenAiClient(model="m", api_key="wrong", base_url=model.base_url).complete(system="s", user="u")
    assert info.value.code == "upstream_unavailable" and words in info.value.message
    assert info.value.message.startswith("the OpenAI-compatible model server") and "wrong" not in info.value.message
    assert len(model.requests) == attempts


def test_openai_timeout_and_unreachable_server(model: FakeChatModel) -> None:
    model.delay = 1.5
    with pytest.raises(ToolError) as info:
        OpenAiClient(model="m", base_url=model.base_url).complete(system="s", user="u", timeout=0.5)
    assert info.value.code == "upstream_unavailable" and "did not answer in time" in info.value.message
    with pytest.raises(ToolError) as info:
        OpenAiClient(model="m", base_url="http://127.0.0.1:9/v1").complete(system="s", user="u")
    assert "unreachable" in info.value.message


def test_openai_itself_gets_max_completion_tokens() -> None:
    reply = {"choices": [{"index": 0, "message": {"role": "assistant", "content": "ok"}}], "usage": {}}
    with respx.mock() as router:
        route = router.post("https://api.openai.com/v1/chat/completions").respond(json=reply)
        OpenAiClient(model="gpt-5-mini", api_key="k").complete(system="s", user="u", max_tokens=300)
    body = json.loads(route.calls.last.request.content)
    assert body["max_completion_tokens"] == 300 and "max_tokens" not in body


def test_openai_empty_answer_is_an_error() -> None:
    reply = {"choices": [{"index": 0, "message": {"role": "assistant", "content": ""}, "finish_reason": "length"}]}
    transport = httpx.MockTransport(lambda _request: httpx.Response(200, json=reply))
    client = OpenAiClient(model="m", http=httpx.Client(transport=transport))
    with pytest.raises(ToolError) as info:
        client.complete(system="s", user="u")
    assert "finish reason: length" in info.value.message and info.value.code == "upstream_unavailable"


# ---------------------------------------------------------------- gemini


def test_gemini_counts_thoughts_as_output_and_inlines_images() -> None:
    with respx.mock() as router:
        route = router.post(GEMINI).respond(json=GEMINI_REPLY)
        answer = GeminiClient(api_key="k", model="gemini-2.5-flash-lite").complete(
            system="Describe.", user="What?", images=[Image(PNG, "image/png"), Image(b"\xff\xd8jpeg", "image/jpeg")]
        )
    assert answer == Completion("A red pixel.", "gemini/gemini-2.5-flash-lite", 270, 14)
    parts = json.loads(route.calls.last.request.content)["contents"][0]["parts"]
    assert parts[0] == {"text": "What?"}
    assert parts[1] == {"inline_data": {"mime_type": "image/png", "data": base64.b64encode(PNG).decode()}}
    assert parts[2]["inline_data"]["mime_type"] == "image/jpeg"


def test_gemini_base_url_is_configurable(env: dict[str, str], aws: None) -> None:
    boto3.client("ssm").put_parameter(Name="/mcp/t/gemini", Value="g-key", Type="SecureString")
    env["GEMINI_API_KEY_PARAMETER"] = "/mcp/t/gemini"
    env["LLM_BASE_URL"] = "http://gemini.mirror.test/v1beta/"
    with respx.mock() as router:
        route = router.post("http://gemini.mirror.test/v1beta/models/gemini-2.5-flash-lite:generateContent")
        route.respond(json=GEMINI_REPLY)
        assert llm_client(LlmSettings.model_validate(env)).complete(system="s", user="u").text == "A red pixel."
    assert route.calls.last.request.headers["x-goog-api-key"] == "g-key"


# ---------------------------------------------------------------- bedrock


def test_bedrock_reports_usage_and_sends_image_blocks() -> None:
    client = boto3.client("bedrock-runtime", region_name="us-east-1")
    stubber = Stubber(client)
    expected = {
        "modelId": "amazon.nova-lite-v1:0",
        "system": [{"text": "Describe."}],
        "messages": [
            {
                "role": "user",
                "content": [{"text": "What?"}, {"image": {"format": "webp", "source": {"bytes": b"RIFFwebp"}}}],
            }
        ],
        "inferenceConfig": {"maxTokens": 100, "temperature": 0.2},
    }
    response = {
        "output": {"message": {"role": "assistant", "content": [{"text": "A picture."}]}},
        "stopReason": "end_turn",
        "usage": {"inputTokens": 1500, "outputTokens": 3, "totalTokens": 1503},
        "metrics": {"latencyMs": 120},
    }
    stubber.add_response("converse", response, expected)
    with stubber:
        answer = BedrockClient(model_id="amazon.nova-lite-v1:0", boto3_client=client).complete(
            system="Describe.", user="What?", images=[Image(b"RIFFwebp", "image/webp")], max_tokens=100
        )
    assert answer == Completion("A picture.", "bedrock/amazon.nova-lite-v1:0", 1500, 3)


def test_bedrock_endpoint_url_is_configurable(env: dict[str, str]) -> None:
    env["LLM_PROVIDER"] = "bedrock"
    env["LLM_BASE_URL"] = "http://127.0.0.1:8999"
    assert llm_client(LlmSettings.model_validate(env)).runtime(2.0).meta.endpoint_url == "http://127.0.0.1:8999"  # type: ignore[attr-defined]


# ---------------------------------------------------------------- images and settings


def test_an_image_no_provider_takes_is_refused() -> None:
    with pytest.raises(ToolError) as info:
        Image(b"II*\x00", "image/tiff")
    assert info.value.code == "invalid_arguments" and "image/png" in info.value.message
    assert Image(b"\x89" * MAX_IMAGE_BYTES, "image/png").data  # the limit itself is accepted
    with pytest.raises(ToolError) as info:
        Image(b"\x89" * (MAX_IMAGE_BYTES + 1), "image/png")
    assert info.value.code == "invalid_arguments" and "downscale" in info.value.message


def test_settings_say_what_is_active_and_missing(env: dict[str, str]) -> None:
    assert llm_status(LlmSettings.model_validate(env)) == {
        "provider": "gemini",
        "model": "gemini-2.5-flash-lite",
        "base_url": "https://generativelanguage.googleapis.com/v1beta",
        "missing": ["GEMINI_API_KEY_PARAMETER"],
    }
    env["LLM_PROVIDER"] = "openai"
    assert llm_status(LlmSettings.model_validate(env))["missing"] == [
        "LLM_MODEL",
        "LLM_API_KEY_PARAMETER",
    ]  # public OpenAI needs a key
    env["LLM_BASE_URL"] = "http://127.0.0.1:11434/v1"
    assert llm_status(LlmSettings.model_validate(env))["missing"] == ["LLM_MODEL"]  # a self-hosted server needs none
    with pytest.raises(ToolError) as info:
        llm_client(LlmSettings.model_validate(env))
    assert (info.value.code, info.value.extra["missing_setting"]) == ("provider_not_configured", "LLM_MODEL")
    env["LLM_MODEL"] = "llama3.2"
    assert llm_status(LlmSettings.model_validate(env)) == {
        "provider": "openai",
        "model": "llama3.2",
        "base_url": "http://127.0.0.1:11434/v1",
        "missing": [],
    }
    assert llm_client(LlmSettings.model_validate(env)).name == "openai/llama3.2"
    env["LLM_PROVIDER"] = "mistral"
    assert llm_status(LlmSettings.model_validate(env))["missing"] == ["LLM_PROVIDER"]
    with pytest.raises(ToolError, match="gemini, bedrock, openai"):
        llm_client(LlmSettings.model_validate(env))


def test_openai_key_is_read_through_the_secrets_helper(model: FakeChatModel, env: dict[str, str], aws: None) -> None:
    boto3.client("ssm").put_parameter(Name="/mcp/t/llm", Value="sk-ssm", Type="SecureString")
    model.api_key = "sk-ssm"
    env.update(
        {
            "LLM_PROVIDER": "openai",
            "LLM_MODEL": "qwen2.5",
            "LLM_BASE_URL": model.base_url,
            "LLM_API_KEY_PARAMETER": "/mcp/t/llm",
        }
    )
    assert llm_client(LlmSettings.model_validate(env)).complete(system="s", user="u").text
    assert model.requests[-1].headers["authorization"] == "Bearer sk-ssm"
