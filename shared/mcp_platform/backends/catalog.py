"""The configured backend APIs: where each lives, how politely to call it, how long to keep answers.

The origin of each API is a setting of the function calling it (its variable, e.g. `PUBCHEM_BASE_URL`,
is a field of that function's settings; empty: the public service). The value
may carry a path prefix (a mirror at `http://host/pubchem`): request paths are appended to it
verbatim, so they are always the API's own documented paths (`/rest/pug/...`, `/REST/...`).
Backends are operator-trusted configuration, not caller input: they skip the SSRF guard of
`mcp_platform.web`, but only http and https are accepted.
"""

from __future__ import annotations

from dataclasses import dataclass
from urllib.parse import urlsplit

from mcp_platform.protocol.errors import ToolError
from mcp_platform.storage.secrets import NOT_CONFIGURED

DAY = 86_400


@dataclass(frozen=True)
class Backend:
    """One HTTP API the platform calls on its own behalf.

    Examples:
        >>> BACKENDS["pubchem"].base_url("")          # the function's PUBCHEM_BASE_URL, or the default
        'https://pubchem.ncbi.nlm.nih.gov'
    """

    name: str
    """Short id, used in cache keys and metrics (`pubchem`)."""
    label: str
    """What error messages and `source` call it (`PubChem`)."""
    env: str
    """The variable (a settings field in lower case) holding the origin, optionally with a path prefix."""
    default_url: str
    rate_per_s: float
    """Polite request rate of one container; bursts of `burst` requests may go at once."""
    burst: int = 1
    cache_ttl_s: int = 7 * DAY
    """How long a successful answer is reused (0: never cached). Calls may override it."""
    timeout_s: float = 10.0
    """Longest single request; each is also cut to what is left of the call's deadline."""
    key_env: str = ""
    """The variable (a settings field in lower case) naming the secret (SSM / Secrets Manager) with an optional
    API key."""
    key_param: str = ""
    """Query parameter the key travels in."""

    def base_url(self, configured: str) -> str:
        """The origin `configured` (empty: the default) without a trailing slash; refuses anything but http(s).

        `configured` is the calling function's setting for `env`.
        """
        value = (configured or self.default_url).strip()
        value = value.rstrip("/")
        parts = urlsplit(value)
        if parts.scheme not in ("http", "https") or not parts.hostname or parts.query or parts.fragment:
            raise ToolError(
                f"{self.env} must be an http(s) URL with a host and optional path prefix, e.g. {self.default_url}",
                NOT_CONFIGURED,
                backend=self.label,
            )
        return value


_ALL = (
    # PubChem's usage policy: at most 5 requests per second.
    Backend("pubchem", "PubChem", "PUBCHEM_BASE_URL", "https://pubchem.ncbi.nlm.nih.gov", rate_per_s=5, burst=5),
    # NLM asks RxNav users for at most 20 requests per second per IP.
    Backend("rxnav", "RxNav", "RXNAV_BASE_URL", "https://rxnav.nlm.nih.gov", rate_per_s=20, burst=5),
    # openFDA without a key: 240 requests per minute; adverse events and recalls change daily.
    Backend(
        "openfda",
        "openFDA",
        "OPENFDA_BASE_URL",
        "https://api.fda.gov",
        rate_per_s=4,
        burst=4,
        cache_ttl_s=DAY,
        key_env="OPENFDA_API_KEY_PARAMETER",
        key_param="api_key",
    ),
    Backend("dailymed", "DailyMed", "DAILYMED_BASE_URL", "https://dailymed.nlm.nih.gov", rate_per_s=5, burst=2),
    Backend("gbif", "GBIF", "GBIF_BASE_URL", "https://api.gbif.org", rate_per_s=10, burst=5),
    Backend("powo", "Kew POWO", "POWO_BASE_URL", "https://powo.science.kew.org", rate_per_s=3, burst=2),
    Backend("dsld", "NIH DSLD", "DSLD_BASE_URL", "https://api.ods.od.nih.gov", rate_per_s=5, burst=2),
    Backend("ods", "NIH ODS", "ODS_BASE_URL", "https://ods.od.nih.gov", rate_per_s=5, burst=2),
)
BACKENDS: dict[str, Backend] = {backend.name: backend for backend in _ALL}
"""Every configured API by name. Services may also build their own `Backend` (e.g. EU VIES)."""
