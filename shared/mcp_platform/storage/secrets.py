"""API keys and other secrets: read from SSM Parameter Store or Secrets Manager, never from code.

A setting names *where* the secret is, never the secret itself:
`SEARCH_API_KEY_PARAMETER=/mcp/prod/serper-key` (an SSM SecureString) or
`SEARCH_API_KEY_PARAMETER=secretsmanager:mcp/prod/serper` (a Secrets Manager secret). The function's
settings model holds that reference (`search_api_key_parameter`) and passes it to `read_secret`.
Values are cached per container by Powertools Parameters for `max_age` seconds and are never logged.
"""

from __future__ import annotations

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


def read_secret(reference: str, *, setting: str, what: str, max_age: int = 300) -> str:
    """The secret at `reference`, the value of the setting named `setting` (which messages name).

    Raises `MissingSettingError` when `reference` is empty and `ToolError(upstream_unavailable)`
    when the parameter cannot be read; the message names the setting, never the value.

    Examples:
        >>> key = read_secret(settings().search_api_key_parameter, setting="SEARCH_API_KEY_PARAMETER",
        ...                   what="the search provider's API key")
    """
    ref = reference.strip()
    if not ref:
        raise MissingSettingError(setting, what)
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
            f"{what} could not be read from the parameter named by {setting}", ErrorCode.UPSTREAM_UNAVAILABLE
        ) from None
    return value.strip() if isinstance(value, str) else str(value)
