"""Amazon Bedrock through the Converse API (boto3)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import boto3
from botocore.config import Config
from botocore.exceptions import BotoCoreError, ClientError

from mcp_platform import upstream
from mcp_platform.llm.base import IMAGE_TYPES, Completion, Image

if TYPE_CHECKING:
    from collections.abc import Sequence

_THROTTLED = frozenset({"ThrottlingException", "ServiceQuotaExceededException", "TooManyRequestsException"})


class BedrockClient:
    """`LlmClient` for any Converse-capable Bedrock model; pass `boto3_client` in tests (Stubber).

    `endpoint_url` replaces the regional endpoint (a VPC endpoint or a compatible gateway).
    """

    def __init__(
        self,
        *,
        model_id: str,
        boto3_client: Any = None,
        timeout: float | None = None,
        endpoint_url: str | None = None,
    ) -> None:
        self.name = f"bedrock/{model_id}"
        self._model_id = model_id
        # botocore has no per-call timeout: a capped client reads for at most `timeout` and does not retry.
        config = Config(read_timeout=timeout, retries={"total_max_attempts": 1}) if timeout else None
        self._client = boto3_client or boto3.client("bedrock-runtime", config=config, endpoint_url=endpoint_url)

    def complete(
        self,
        *,
        system: str,
        user: str,
        images: Sequence[Image] = (),
        max_tokens: int = 1024,
        temperature: float = 0.2,
    ) -> Completion:
        content: list[dict[str, Any]] = [{"text": user}]
        content += [
            {"image": {"format": IMAGE_TYPES[image.media_type], "source": {"bytes": image.data}}} for image in images
        ]
        try:
            response = self._client.converse(
                modelId=self._model_id,
                system=[{"text": system}],
                messages=[{"role": "user", "content": content}],
                inferenceConfig={"maxTokens": max_tokens, "temperature": temperature},
            )
        except ClientError as exc:
            code = exc.response.get("Error", {}).get("Code", "")
            if code in _THROTTLED:
                raise upstream.unavailable("Bedrock", f"is throttling our requests ({code})") from None
            raise upstream.unavailable("Bedrock", f"refused the call ({code})") from None
        except BotoCoreError as exc:
            raise upstream.unreachable("Bedrock", exc) from None
        blocks = response.get("output", {}).get("message", {}).get("content", [])
        text = "".join(block.get("text", "") for block in blocks).strip()
        if not text:
            raise upstream.bad_answer("Bedrock", f"no text, stop reason: {response.get('stopReason', 'unknown')}")
        usage = response.get("usage") or {}
        return Completion(text, self.name, usage.get("inputTokens"), usage.get("outputTokens"))
