"""The account portal: sign in with an API key, then balance, usage, ledger (CSV), keys and connected apps.

Server-rendered pages over the same read model as `credits://usage` (`billing.usage`): no framework,
no script. Every post carries the session's CSRF token; the session cookie is HttpOnly, Secure and
SameSite=Strict on `/account`. Keys and apps are changed only when they belong to the session's account.
"""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass
from datetime import UTC, datetime
from html import escape
from typing import TYPE_CHECKING, Any

from pydantic import ValidationError
from starlette.responses import RedirectResponse, Response

from mcp_auth.pages import code_form, email_field, email_of, hidden, message, page
from mcp_auth.sessions import SESSION_COOKIE, SESSION_SECONDS, Session, Sessions
from mcp_auth.usage_chart import usage_svg
from mcp_platform.auth.accounts import SignupRefusedError
from mcp_platform.auth.keys import hash_key, is_well_formed
from mcp_platform.auth.signup import EmailTakenError, InviteRejectedError, SignupMode, SignupRequest
from mcp_platform.billing.usage import USAGE_DAYS, read_all, read_page, usage

if TYPE_CHECKING:
    from collections.abc import Callable

    from starlette.requests import Request

    from mcp_auth.email_codes import EmailCodes, LocalOutbox
    from mcp_platform.auth.accounts import AccountAdmin, SignupDesk
    from mcp_platform.billing.ledger import Ledger
    from mcp_platform.billing.usage import LedgerHistory
    from mcp_platform.oauth.grants import GrantStore
    from mcp_platform.ratelimit.limiter import RateLimiter

PORTAL = "/account"


@dataclass(frozen=True)
class AccountViews:
    """What the portal reads and changes."""

    admin: AccountAdmin
    ledger: Ledger
    history: LedgerHistory
    service_of: Callable[[str], str]
    grants: GrantStore
    email_codes: EmailCodes
    signups: SignupDesk
    signup_limiter: RateLimiter
    """Per source address, windows of an hour: the same windows as POST /api/auth/register."""
    signups_per_ip_per_hour: int
    outbox: LocalOutbox | None = None
    """`make dev`'s outbox, shown at /account/outbox; None in AWS (SES delivers)."""


class Portal:
    def __init__(self, views: AccountViews, sessions: Sessions, clock: Callable[[], float]) -> None:
        self._v = views
        self._sessions = sessions
        self._clock = clock

    # -- signing in and out

    async def home(self, request: Request) -> Response:
        session = self._session(request)
        if session is None:
            return _sign_in_page("", self._v.signups.mode)
        return self._dashboard(session)

    async def sign_in(self, request: Request) -> Response:
        form = await request.form()
        key = str(form.get("api_key", "")).strip()
        record = self._v.admin.store.get_key(hash_key(key)) if is_well_formed(key) else None
        if record is None or record.revoked:
            return _sign_in_page("That key is not valid.", self._v.signups.mode, status=400)
        return self._signed_in(record.account_id)

    async def send_code(self, request: Request) -> Response:
        form = await request.form()
        email = email_of(str(form.get("email", "")))
        if email is None:
            return _sign_in_page("That is not an email address.", self._v.signups.mode, status=400)
        self._v.email_codes.send(email)
        return page("Enter your code", code_form(f"{PORTAL}/sign-in/code", email))

    async def sign_in_with_code(self, request: Request) -> Response:
        form = await request.form()
        email = email_of(str(form.get("email", ""))) or ""
        account_id = self._v.email_codes.verify(email, str(form.get("code", "")))
        if account_id is None:
            body = message("That code is wrong or expired.") + code_form(f"{PORTAL}/sign-in/code", email)
            return page("Enter your code", body, status=400)
        return self._signed_in(account_id)

    async def sign_up(self, request: Request) -> Response:
        """A new account (when SignupMode allows): its key shown once, and signed in."""
        desk = self._v.signups
        if desk.mode is SignupMode.CLOSED:
            return _sign_in_page("Sign-up is closed here; ask the operator for a key.", desk.mode, status=403)
        form = await request.form()
        try:
            signup = SignupRequest(
                email=str(form.get("email", "")),
                account_type="agent",
                invite_code=str(form.get("invite_code") or "") or None,
            )
        except ValidationError:
            return _sign_in_page("That is not an email address.", desk.mode, status=400)
        client_ip = request.client.host if request.client else "unknown"
        if not self._v.signup_limiter.hit(f"signup#{client_ip}", self._v.signups_per_ip_per_hour).allowed:
            return _sign_in_page("Too many sign-ups from this address; try again later.", desk.mode, status=429)
        try:
            registration = desk.register(signup)
        except (SignupRefusedError, InviteRejectedError):
            return _sign_in_page("Sign-up needs a valid invite code here.", desk.mode, status=403)
        except EmailTakenError:
            return _sign_in_page("An account with this email exists: sign in with an emailed code.", desk.mode, 409)
        body = (
            f"<p>Account <code>{escape(registration.account_id)}</code> with {registration.balance} credits.</p>"
            + _shown_once(registration.api_key)
        )
        return self._with_session(page("Welcome", body), registration.account_id)

    async def outbox(self, _request: Request) -> Response:
        if self._v.outbox is None:
            return page("Not found", message("There is no local outbox here."), status=404)
        items = "".join(
            f"<li><strong>{escape(to)}</strong>: {escape(subject)}: <span>{escape(text)}</span></li>"
            for to, subject, text in self._v.outbox.messages
        )
        return page("Local outbox", f"<ul>{items}</ul>" if items else "<p>No mail yet.</p>")

    def _signed_in(self, account_id: str) -> Response:
        return self._with_session(_back_home(), account_id)

    def _with_session(self, response: Response, account_id: str) -> Response:
        response.set_cookie(
            SESSION_COOKIE,
            self._sessions.start(account_id),
            max_age=SESSION_SECONDS,
            path=PORTAL,
            secure=True,
            httponly=True,
            samesite="strict",
        )
        return response

    async def sign_out(self, request: Request) -> Response:
        if (await self._checked(request)) is not None:
            self._sessions.end(request.cookies.get(SESSION_COOKIE, ""))
        response = _back_home()
        response.delete_cookie(SESSION_COOKIE, path=PORTAL, secure=True, httponly=True, samesite="strict")
        return response

    # -- changes

    async def create_key(self, request: Request) -> Response:
        checked = await self._checked(request)
        if checked is None:
            return _refused()
        session, _form = checked
        return page("New API key", _shown_once(self._v.admin.issue_key(session.account_id)))

    async def revoke_key(self, request: Request) -> Response:
        store = self._v.admin.store
        return await self._revoke(
            request, "key_id", lambda account: {k.key_hash for k in store.keys_of(account)}, store.revoke_key
        )

    async def revoke_app(self, request: Request) -> Response:
        grants = self._v.grants
        return await self._revoke(
            request,
            "family_id",
            lambda account: {f.family_id for f in grants.families_of(account)},
            grants.revoke_family,
        )

    async def _revoke(
        self, request: Request, field: str, owned: Callable[[str], set[str]], revoke: Callable[[str], object]
    ) -> Response:
        """Revoke the key or app the form names, if it is the session account's own."""
        checked = await self._checked(request)
        if checked is None:
            return _refused()
        session, form = checked
        if (target := str(form.get(field, ""))) in owned(session.account_id):
            revoke(target)
        return _back_home()

    async def ledger_csv(self, request: Request) -> Response:
        session = self._session(request)
        if session is None:
            return _refused()
        out = io.StringIO()
        columns = ["created_at", "kind", "amount", "balance_after", "service", "tool", "reason", "request_id"]
        writer = csv.DictWriter(out, columns, extrasaction="ignore")
        writer.writeheader()
        balance = self._v.ledger.balance(session.account_id)
        writer.writerows(read_all(self._v.history, session.account_id, balance, self._v.service_of))
        headers = {"content-disposition": 'attachment; filename="ledger.csv"', "cache-control": "no-store"}
        return Response(out.getvalue(), media_type="text/csv; charset=utf-8", headers=headers)

    # -- the dashboard

    def _dashboard(self, session: Session) -> Response:
        account = self._v.admin.store.get_account(session.account_id)
        balance = self._v.ledger.balance(session.account_id)
        totals = usage(self._v.history, session.account_id, balance, self._v.service_of, self._clock()).totals_by_day
        recent = read_page(self._v.history, session.account_id, balance, self._v.service_of, limit=50).entries
        csrf = session.csrf
        body = (
            f"<p>Account <strong>{escape(account.name if account else '')}</strong> "
            f"(<code>{escape(session.account_id)}</code>)</p>"
            f'<h2>Balance</h2><p id="balance">{balance} credits</p>'
            f"<h2>Usage, last {USAGE_DAYS} days</h2>{usage_svg(totals)}{_usage_table(totals)}"
            f'<h2>Ledger</h2><p><a href="{PORTAL}/ledger.csv">Download the whole ledger as CSV</a></p>'
            f"{_ledger_table(recent)}"
            f"<h2>API keys</h2>{self._keys(session.account_id, csrf)}"
            f"<h2>Connected apps</h2>{self._apps(session.account_id, csrf)}"
            f'<form method="post" action="{PORTAL}/sign-out">{hidden("csrf", csrf)}'
            '<p><button type="submit">Sign out</button></p></form>'
        )
        return page("Your account", body)

    def _keys(self, account_id: str, csrf: str) -> str:
        rows = "".join(
            f"<tr><td><code>{escape(k.prefix)}</code></td><td>{escape(k.created_at)}</td>"
            + (
                "<td>revoked</td>"
                if k.revoked
                else f"<td>{_post('keys/revoke', csrf, 'Revoke', key_id=k.key_hash)}</td>"
            )
            + "</tr>"
            for k in self._v.admin.store.keys_of(account_id)
        )
        table = f"<table><tr><th>Key</th><th>Created</th><th></th></tr>{rows}</table>" if rows else "<p>No keys.</p>"
        return table + _post("keys", csrf, "Create a key")

    def _apps(self, account_id: str, csrf: str) -> str:
        families = [f for f in self._v.grants.families_of(account_id) if not f.revoked]
        if not families:
            return "<p>No connected apps.</p>"
        rows = "".join(
            f"<tr><td>{escape(f.client_name)}</td><td>{escape(' '.join(f.scopes))}</td>"
            f"<td>{datetime.fromtimestamp(f.created_at, UTC):%Y-%m-%d}</td>"
            f"<td>{_post('apps/revoke', csrf, 'Revoke', family_id=f.family_id)}</td></tr>"
            for f in families
        )
        return f"<table><tr><th>App</th><th>Scopes</th><th>Connected</th><th></th></tr>{rows}</table>"

    # -- plumbing

    def _session(self, request: Request) -> Session | None:
        return self._sessions.get(request.cookies.get(SESSION_COOKIE))

    async def _checked(self, request: Request) -> tuple[Session, Any] | None:
        """The session and form of a post whose CSRF token matches the session's; None otherwise."""
        session = self._session(request)
        form = await request.form()
        if session is None or not session.csrf_ok(str(form.get("csrf", ""))):
            return None
        return session, form


def _post(action: str, csrf: str, label: str, **fields: str) -> str:
    inputs = "".join(hidden(name, value) for name, value in fields.items())
    return (
        f'<form method="post" action="{PORTAL}/{action}">{hidden("csrf", csrf)}{inputs}'
        f'<button type="submit">{escape(label)}</button></form>'
    )


def _usage_table(usage: list[dict[str, Any]]) -> str:
    rows = "".join(
        f"<tr><td>{escape(r['day'])}</td><td>{escape(r['service'])}</td><td>{r['calls']}</td><td>{r['net']}</td></tr>"
        for r in usage
        if r["service"] != "(grants)"
    )
    if not rows:
        return ""
    return f'<table id="usage"><tr><th>Day</th><th>Service</th><th>Calls</th><th>Credits</th></tr>{rows}</table>'


def _ledger_table(entries: list[dict[str, Any]]) -> str:
    rows = "".join(
        f"<tr><td>{escape(e['created_at'])}</td><td>{escape(e['kind'])}</td><td>{e['amount']}</td>"
        f"<td>{escape(e.get('tool') or e.get('reason') or '')}</td><td>{e['balance_after']}</td></tr>"
        for e in entries
    )
    head = "<tr><th>When</th><th>Kind</th><th>Credits</th><th>Tool or reason</th><th>Balance</th></tr>"
    return f'<table id="ledger">{head}{rows}</table>'


def _shown_once(key: str) -> str:
    return (
        "<p>Copy your API key now: it is shown once and never again.</p>"
        '<p><label for="new_key">New API key</label><br>'
        f'<input id="new_key" readonly size="52" value="{escape(key)}"></p>'
        f'<p><a href="{PORTAL}">Go to your account</a></p>'
    )


def _sign_up_form(mode: SignupMode) -> str:
    if mode is SignupMode.CLOSED:
        return ""
    invite = (
        '<p><label for="invite_code">Invite code</label><br><input id="invite_code" name="invite_code" required></p>'
        if mode is SignupMode.INVITE
        else ""
    )
    return (
        f'<h2>New here?</h2><form method="post" action="{PORTAL}/sign-up">'
        '<p><label for="signup_email">Email address for the new account</label><br>'
        '<input id="signup_email" name="email" type="email" autocomplete="email" required size="40"></p>'
        f'{invite}<p><button type="submit">Create an account</button></p></form>'
    )


def _sign_in_page(error: str, mode: SignupMode, status: int = 200) -> Response:
    body = (
        (message(error) if error else "")
        + f'<form method="post" action="{PORTAL}/sign-in">'
        + '<p><label for="api_key">API key of your account</label><br>'
        + '<input id="api_key" name="api_key" type="password" autocomplete="off" required size="50"></p>'
        + '<p><button type="submit">Sign in</button></p></form>'
        + f'<form method="post" action="{PORTAL}/email-code">{email_field()}'
        + '<p><button type="submit">Email me a code</button></p></form>'
        + _sign_up_form(mode)
    )
    return page("Sign in to your account", body, status=status)


def _back_home() -> Response:
    return RedirectResponse(PORTAL, status_code=303, headers={"cache-control": "no-store"})


def _refused() -> Response:
    return page(
        "Request refused", message("Sign in again: the session or the form's token is missing or stale."), status=403
    )
