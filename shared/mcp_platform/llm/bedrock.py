"""Amazon Bedrock through the Converse API (boto3)."""

from __future__ import annotations

from typing import Any

from botocore.config import Config
from botocore.exceptions import BotoCoreError, ClientError

from mcp_platform.aws import configured_client
from mcp_platform.errors import ErrorCode, ToolError

_THROTTLED = frozenset({"ThrottlingException", "ServiceQuotaExceededException", "TooManyRequestsException"})


class BedrockClient:
    """`LlmClient` for any Converse-capable Bedrock model; pass `boto3_client` in tests (Stubber)."""

    def __init__(self, *, model_id: str, boto3_client: Any = None, timeout: float | None = None) -> None:
        self.name = f"bedrock/{model_id}"
        self._model_id = model_id
        # botocore has no per-call timeout: a capped client reads for at most `timeout` and does not retry.
        config = Config(read_timeout=timeout, retries={"total_max_attempts": 1}) if timeout else None
        self._client = boto3_client or configured_client("bedrock-runtime", config)

    def complete(self, *, system: str, user: str, max_tokens: int = 1024, temperature: float = 0.2) -> str:
        try:
            response = self._client.converse(
                modelId=self._model_id,
                system=[{"text": system}],
                messages=[{"role": "user", "content": [{"text": user}]}],
                inferenceConfig={"maxTokens": max_tokens, "temperature": temperature},
            )
        except ClientError as exc:
            code = exc.response.get("Error", {}).get("Code", "")
            if code in _THROTTLED:
                raise ToolError("Bedrock is throttling; try again shortly", ErrorCode.RATE_LIMITED) from None
            raise ToolError(f"Bedrock refused the call ({code})", ErrorCode.UPSTREAM_UNAVAILABLE) from None
        except BotoCoreError as exc:
            raise ToolError(
                f"Bedrock is unreachable ({exc.__class__.__name__})", ErrorCode.UPSTREAM_UNAVAILABLE
            ) from None
        blocks = response.get("output", {}).get("message", {}).get("content", [])
        text = "".join(block.get("text", "") for block in blocks).strip()
        if not text:
            raise ToolError(
                f"Bedrock returned no text (stop reason: {response.get('stopReason', 'unknown')})",
                ErrorCode.UPSTREAM_UNAVAILABLE,
            )
        return text
