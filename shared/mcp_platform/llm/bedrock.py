"""Amazon Bedrock through the Converse API (boto3)."""

from __future__ import annotations

import threading
from collections import OrderedDict
from typing import TYPE_CHECKING, Any

from botocore.config import Config
from botocore.exceptions import BotoCoreError, ClientError

from mcp_platform.llm.base import IMAGE_TYPES, Completion, Image
from mcp_platform.outbound import upstream
from mcp_platform.storage.aws import configured_client

if TYPE_CHECKING:
    from collections.abc import Sequence

_THROTTLED = frozenset({"ThrottlingException", "ServiceQuotaExceededException", "TooManyRequestsException"})
TIMED_CLIENTS = 8
"""Runtime clients kept per `BedrockClient`, one per whole-second read timeout; the least recently used goes."""


class BedrockClient:
    """`LlmClient` for any Converse-capable Bedrock model; pass `boto3_client` in tests (Stubber).

    `endpoint_url` replaces the regional endpoint (a VPC endpoint or a compatible gateway).
    botocore takes no per-request timeout, so a call's `timeout` picks a runtime client whose
    read timeout is that many whole seconds (at least 1) and which does not retry; the last
    `TIMED_CLIENTS` of them are kept. A call without a timeout uses the platform's default client
    (`mcp_platform.storage.aws.default_config()`).
    """

    def __init__(self, *, model_id: str, boto3_client: Any = None, endpoint_url: str | None = None) -> None:
        self.name = f"bedrock/{model_id}"
        self._model_id = model_id
        self._endpoint_url = endpoint_url
        self._fixed = boto3_client
        self._runtimes: OrderedDict[int | None, Any] = OrderedDict()
        self._lock = threading.Lock()

    def runtime(self, timeout: float | None = None) -> Any:
        """The botocore `bedrock-runtime` client a call with this `timeout` goes through."""
        if self._fixed is not None:
            return self._fixed
        seconds = None if timeout is None else max(1, int(timeout))  # whole seconds: never past the caller's
        with self._lock:
            if (found := self._runtimes.get(seconds)) is not None:
                self._runtimes.move_to_end(seconds)
                return found
            config = None if seconds is None else Config(read_timeout=seconds, retries={"total_max_attempts": 1})
            made = configured_client("bedrock-runtime", config, endpoint_url=self._endpoint_url)
            self._runtimes[seconds] = made
            if len(self._runtimes) > TIMED_CLIENTS:
                self._runtimes.popitem(last=False)
            return made

    def complete(
        self,
        *,
        system: str,
        user: str,
        images: Sequence[Image] = (),
        max_tokens: int = 1024,
        temperature: float = 0.2,
        timeout: float | None = None,
    ) -> Completion:
        content: list[dict[str, Any]] = [{"text": user}]
        content += [
            {"image": {"format": IMAGE_TYPES[image.media_type], "source": {"bytes": image.data}}} for image in images
        ]
        try:
            response = self.runtime(timeout).converse(
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
