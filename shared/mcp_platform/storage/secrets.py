"""API keys and other secrets: read from SSM Parameter Store or Secrets Manager, never from code.

An environment variable names *where* the secret is, never the secret itself:
`SEARCH_API_KEY_PARAMETER=/mcp/prod/serper-key` (an SSM SecureString) or
`SEARCH_API_KEY_PARAMETER=secretsmanager:mcp/prod/serper` (a Secrets Manager secret). Values are
cached per container by Powertools Parameters for `max_age` seconds and are never logged.
"""

from __future__ import annotations

import os

from mcp_platform.protocol.errors import ErrorCode, ToolError

NOT_CONFIGURED = "provider_not_configured"
"""Error code when a backend's setting is missing: the message names the environment variable."""
_SECRETS_MANAGER = "secretsmanager:"


class MissingSettingError(ToolError):
    """A required setting (environment variable) is not set; code `provider_not_configured`."""

    def __init__(
        self, setting: str, what: str, *, holds: str = "the SSM parameter (or 'secretsmanager:<id>') holding it"
    ) -> None:
        super().__init__(
            f"{what} is not configured: set {setting} to {holds}",
            NOT_CONFIGURED,
            missing_setting=setting,
        )
        self.setting = setting


def is_configured(env_name: str) -> bool:
    """True when the environment variable naming the secret is set (the secret itself is not read)."""
    return bool(os.environ.get(env_name, "").strip())


def secret_from_env(env_name: str, what: str, *, max_age: int = 300) -> str:
    """The secret that the environment variable `env_name` points to.

    Raises `MissingSettingError` when the variable is unset and `ToolError(upstream_unavailable)`
    when the parameter cannot be read; the message names the variable, never the value.

    Examples:
        >>> key = secret_from_env("SEARCH_API_KEY_PARAMETER", "the search provider's API key")
    """
    ref = os.environ.get(env_name, "").strip()
    if not ref:
        raise MissingSettingError(env_name, what)
    # Imported with the first secret read: Powertools Parameters pulls in boto3 and s3transfer
    # (~60 ms), which every service importing this module would otherwise pay at init.
    from aws_lambda_powertools.utilities import parameters

    try:
        if ref.startswith(_SECRETS_MANAGER):
            value = parameters.get_secret(ref.removeprefix(_SECRETS_MANAGER), max_age=max_age)
        else:
            value = parameters.get_parameter(ref, decrypt=True, max_age=max_age)
    except parameters.exceptions.GetParameterError:
        raise ToolError(
            f"{what} could not be read from the parameter named by {env_name}", ErrorCode.UPSTREAM_UNAVAILABLE
        ) from None
    return value.strip() if isinstance(value, str) else str(value)
