"""Amazon Bedrock through the Converse API (boto3)."""

from __future__ import annotations

import math
from typing import Any

from botocore.config import Config
from botocore.exceptions import BotoCoreError, ClientError

from mcp_platform.aws import configured_client
from mcp_platform.errors import ErrorCode, ToolError

DEFAULT_TIMEOUT = 20
_THROTTLED = frozenset({"ThrottlingException", "ServiceQuotaExceededException", "TooManyRequestsException"})


class BedrockClient:
    """`LlmClient` for any Converse-capable Bedrock model; pass `boto3_client` in tests (Stubber)."""

    def __init__(self, *, model_id: str, boto3_client: Any = None) -> None:
        self.name = f"bedrock/{model_id}"
        self._model_id = model_id
        self._client = boto3_client or configured_client("bedrock-runtime", Config(read_timeout=DEFAULT_TIMEOUT))
        self._given = boto3_client is not None
        """A client given by the caller (tests: a Stubber's) answers every call."""
        self._capped: dict[int, Any] = {}

    def client_for(self, timeout: float | None) -> Any:
        """The client reading for at most `timeout` seconds (whole, rounded up) without retrying.

        botocore has no per-call timeout, so there is one client per cap, built on first use and
        kept for the container (a handful at most: caps are whole seconds under the Lambda timeout).
        """
        if timeout is None or self._given:
            return self._client
        cap = max(1, math.ceil(timeout))
        if cap not in self._capped:
            config = Config(read_timeout=cap, retries={"total_max_attempts": 1})
            self._capped[cap] = configured_client("bedrock-runtime", config)
        return self._capped[cap]

    def complete(
        self,
        *,
        system: str,
        user: str,
        max_tokens: int = 1024,
        temperature: float = 0.2,
        timeout: float | None = None,
    ) -> str:
        try:
            response = self.client_for(timeout).converse(
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
