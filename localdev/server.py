"""The local platform: moto server for AWS state, the router on uvicorn, services in-process."""

from __future__ import annotations

import os
import secrets
import shlex
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from localdev import environment, template
from localdev.store import create_buckets, create_sender_identity, create_tables
from localdev.store_process import StoreProcess, dynamodb_through
from mcp_platform.auth.keys import is_well_formed

if TYPE_CHECKING:
    from collections.abc import Mapping, MutableMapping

DEV_ACCOUNT = "acct_dev"
LOOPBACK_HOSTS = "localhost,127.0.0.1,::1"
DEFAULT_AWS_PORT = 4566
"""The store's port when LOCAL_AWS_PORT is unset: also what `mcp-admin --local` assumes."""
LOCAL_SENDER = "platform@mcp.localhost"
DEFAULT_GEO_DB = template.ROOT / "build" / "geo" / "geo-small.sqlite"
"""What `make geo-db` builds; when missing, make dev builds it after it starts (localdev.first_run)."""
LOCAL_CHROMIUM = "/usr/bin/chromium"


class LocalSettingError(ValueError):
    """A `make dev` environment variable that cannot be used; the message is the one line to print."""


def integer_setting(env: Mapping[str, str], name: str, default: int) -> int:
    """`env[name]` as an int (`default` when unset); anything else is a `LocalSettingError`."""
    raw = env.get(name) or str(default)
    try:
        return int(raw)
    except ValueError:
        raise LocalSettingError(f"{name} must be a whole number, not {raw!r}") from None


DEV_CREDITS = 1_000_000
"""The dev account's grant: enough for a benchmark of thousands of calls (a run of the prompt-injection
set alone is 6,047 billed calls); the balance still falls by each call's price."""
DEV_RATE_LIMIT_PER_MINUTE = 60_000
"""The dev account's tool calls per minute (every other account, signed up or made with mcp-admin, has the
template's 120, as in AWS). 8 billed calls in flight run at 130-156 a second on a shared 2-core machine
(docs/performance.md), ~9,000 a minute, and a faster machine must not be refused mid-benchmark; a client
that hammers free calls still meets the limit within the minute."""

DEV_SIGNUPS_PER_IP_PER_HOUR = 1000
"""Sign-ups per address per hour in make dev: every local test registers from 127.0.0.1, so the template's
5 (a brake on abuse from one address in AWS) would refuse the sixth test account within the hour."""


@dataclass
class LocalPlatform:
    port: int
    aws_port: int
    dev_key: str | None
    dev_credits: int
    dev_rate_limit: int = DEV_RATE_LIMIT_PER_MINUTE

    @classmethod
    def from_env(cls, env: Mapping[str, str]) -> LocalPlatform:
        """The settings of `make dev`; a malformed one raises `LocalSettingError` naming what is expected."""
        dev_key = env.get("DEV_API_KEY") or None
        if dev_key is not None and not is_well_formed(dev_key):
            raise LocalSettingError(
                "DEV_API_KEY is malformed: a key is mcp_ followed by 43 URL-safe characters (A-Z a-z 0-9 _ -); "
                "unset it to get a generated one"
            )
        return cls(
            port=integer_setting(env, "PORT", 3000),
            aws_port=integer_setting(env, "LOCAL_AWS_PORT", DEFAULT_AWS_PORT),
            dev_key=dev_key,
            dev_credits=integer_setting(env, "DEV_CREDITS", DEV_CREDITS),
            dev_rate_limit=integer_setting(env, "DEV_RATE_LIMIT_PER_MINUTE", DEV_RATE_LIMIT_PER_MINUTE),
        )

    def configure(self, env: MutableMapping[str, str] = os.environ) -> None:
        """Point every AWS client at the local store and give the process the template's variables."""
        defaults = {
            **environment.function_environment(),
            "AWS_ENDPOINT_URL": f"http://127.0.0.1:{self.aws_port}",
            "AWS_ACCESS_KEY_ID": "local",
            "AWS_SECRET_ACCESS_KEY": "local",
            "AWS_DEFAULT_REGION": "us-east-1",
            "ALLOWED_HOSTS": LOOPBACK_HOSTS,
            "PUBLIC_URL": f"http://127.0.0.1:{self.port}",
            "ISSUER_URL": f"http://127.0.0.1:{self.port}",  # the OAuth issuer (in AWS: PublicUrl or the HttpApi URL)
            "SIGN_IN_OUTBOX": "local",  # sign-in codes on the console and at /account/outbox, not through SES
            "POWERTOOLS_TRACE_DISABLED": "true",
            "POWERTOOLS_METRICS_DISABLED": "true",
            "POWERTOOLS_SERVICE_NAME": "local",
            "SIGNUP_MODE": "open",  # `make dev`: agents may register themselves (the template's default is invite)
            "SIGNUPS_PER_IP_PER_HOUR": str(DEV_SIGNUPS_PER_IP_PER_HOUR),
            "GEO_DB_PATH": str(DEFAULT_GEO_DB),
            "HERBAL_DB_PATH": str(template.ROOT / "build" / "herbal" / "herbal.sqlite"),  # what `make herbal-db` builds
            # email_send from an identity the local store verifies; moto has no SES suppression list to read.
            "EMAIL_FROM": LOCAL_SENDER,
            "EMAIL_SUPPRESSION_CHECK": "off",
            "SHOT_BROWSER_PATH": LOCAL_CHROMIUM,  # Debian's chromium (make chromium); Lambda uses Playwright's build
            # The offline engines: espeak-ng, pocketsphinx and RapidOCR; moto has no Polly voices or Rekognition.
            "TTS_ENGINE": "espeak",
            "WHISPER_ENGINE": "pocketsphinx",
            "VISION_OCR_ENGINE": "rapidocr",
            "VISION_LABELS_ENGINE": "none",
            # promptguard_canary's HMAC secret: per run locally (AWS reads it from SSM / Secrets Manager).
            "PROMPTGUARD_CANARY_SECRET": secrets.token_hex(32),
        }
        for name, value in defaults.items():
            env.setdefault(name, value)
        env.pop("AWS_PROFILE", None)

    def start_store(self, also_on: tuple[str, ...] = ()) -> None:
        """moto in a process of its own (`localdev.store_process`), with the template's tables and buckets;
        its endpoint listens on loopback and on the addresses `also_on`."""
        self.configure()
        store = StoreProcess(self.aws_port, ("127.0.0.1", *also_on))
        store.start()
        dynamodb_through(store.channel, os.environ["AWS_ENDPOINT_URL"])
        create_tables()
        create_buckets()
        create_sender_identity(os.environ["EMAIL_FROM"])

    def seed(self) -> str:
        """The dev account (every service, DEV_CREDITS) and its key; returns the key."""
        from mcp_platform.auth.accounts import AccountAdmin
        from mcp_platform.auth.dynamodb import DynamoAccountStore
        from mcp_platform.billing.dynamodb import build_ledger
        from mcp_platform.catalogue.registry import load_registry
        from mcp_platform.runtime.settings import LedgerSettings
        from mcp_platform.storage.aws import client

        ddb = client("dynamodb")
        env = os.environ
        admin = AccountAdmin(
            DynamoAccountStore(ddb, env["ACCOUNTS_TABLE"], env["API_KEYS_TABLE"]),
            build_ledger(
                LedgerSettings(
                    accounts_table=env["ACCOUNTS_TABLE"],
                    ledger_table=env["LEDGER_TABLE"],
                    calls_table=env["CALLS_TABLE"],
                ),
                ddb,
            ),
        )
        services = frozenset(load_registry().services)
        admin.create_account(
            "local developer",
            services,
            self.dev_credits,
            account_id=DEV_ACCOUNT,
            rate_limit_per_minute=self.dev_rate_limit,
        )
        return admin.issue_key(DEV_ACCOUNT, self.dev_key)

    def app(self):
        from localdev.invoker import InProcessInvoker, failure_sink
        from localdev.routes import PathRouter
        from mcp_platform.billing.lifecycle import CallBilling
        from mcp_platform.runtime.observability import logger
        from mcp_router.asgi import GatewayApp
        from mcp_router.gateway import Gateway
        from mcp_router.wiring import dependencies_from_env

        # Router lines name the router; a service's lines name it for its call only (its log_context).
        logger.append_keys(function_name="local-router")
        invoker = InProcessInvoker()
        router = next(f for f in template.functions() if f.service == "router")
        with environment.isolated(router):  # the router's settings see only the router's block
            deps = dependencies_from_env(invoker=invoker)
        if deps.task_store is not None:
            invoker.on_failure = failure_sink(deps.task_store, CallBilling(deps.ledger))
        return PathRouter(GatewayApp(Gateway(deps), deps.settings.max_body_bytes), *self._auth_app())

    @staticmethod
    def _auth_app() -> tuple[Any, list[str]]:
        """The authorization server's app and the paths API Gateway sends it (same origin as the router)."""
        from mcp_auth.wiring import app_from_env

        auth = next(f for f in template.functions() if f.service == "auth")
        with environment.isolated(auth):
            return app_from_env(), template.http_paths(auth.logical_id)

    def serve(self) -> None:
        import uvicorn

        uvicorn.run(self.app(), host="127.0.0.1", port=self.port, log_level="warning", lifespan="on")

    def admin_command(self) -> str:
        """`mcp-admin` as a fresh terminal runs it: this virtualenv's copy, and the store's port unless default."""
        admin = shlex.quote(str(Path(sys.executable).parent / "mcp-admin"))
        port = "" if self.aws_port == DEFAULT_AWS_PORT else f"LOCAL_AWS_PORT={self.aws_port} "
        return f"{port}{admin} --local show {DEV_ACCOUNT}"

    def banner(self, key: str) -> str:
        url = f"http://127.0.0.1:{self.port}/mcp"
        return "\n".join(
            [
                "",
                f"MCP platform running locally (all services in-process, moto store on 127.0.0.1:{self.aws_port})",
                f"  endpoint   {url}",
                f"  api key    {key}",
                f"  account    {DEV_ACCOUNT} ({self.dev_credits} credits, {self.dev_rate_limit} calls a minute,"
                " every service approved)",
                f"  try        curl -s {url} -H 'Authorization: Bearer {key}' -H 'Content-Type: application/json' "
                '-d \'{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"hello_ping"}}\'',
                f"  admin      {self.admin_command()}",
                f"  portal     http://127.0.0.1:{self.port}/account (sign in with the key; mail: /account/outbox)",
                f"  oauth      http://127.0.0.1:{self.port}/.well-known/oauth-authorization-server (docs/oauth.md)",
                "Ctrl-C stops it; state lives in memory only.",
                "",
            ]
        )
