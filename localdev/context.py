"""A Lambda-like context object for invoking handlers outside Lambda."""

from __future__ import annotations

import time
from dataclasses import dataclass, field

from mcp_platform.protocol.ids import request_id


@dataclass
class LambdaContext:
    """The attributes of the Lambda runtime's context object that handlers and Powertools read."""

    function_name: str
    timeout_s: float = 25.0
    memory_limit_in_mb: int = 512
    aws_request_id: str = field(default_factory=request_id)
    _started: float = field(default_factory=time.monotonic)

    @property
    def invoked_function_arn(self) -> str:
        return f"arn:aws:lambda:us-east-1:000000000000:function:{self.function_name}"

    def get_remaining_time_in_millis(self) -> int:
        return max(0, int((self.timeout_s - (time.monotonic() - self._started)) * 1000))
