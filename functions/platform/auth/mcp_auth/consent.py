"""The consent page: sign in (an API key of the account, or a code sent to its email), then allow or deny.

`GET /oauth/consent?request=…` shows the sign-in step; each POST carries the request id and
the CSRF token bound to it (in the form and in an HttpOnly cookie; both must match the one
stored with the request). Allowing issues the code and redirects to the client's registered
redirect URI with `code`, `state` and `iss` (RFC 9207); denying redirects with `access_denied`.
A request that is unknown, expired or fails the CSRF check never redirects anywhere.
"""

from __future__ import annotations

import hmac
from html import escape
from typing import TYPE_CHECKING

from mcp.server.auth.provider import construct_redirect_uri
from starlette.responses import RedirectResponse, Response

from mcp_auth.pages import code_form, email_field, email_of, hidden, message, origin_of, page
from mcp_platform.auth.keys import hash_key, is_well_formed
from mcp_platform.oauth.grants import digest
from mcp_platform.oauth.scopes import CREDITS_READ, grantable, services_of

if TYPE_CHECKING:
    from starlette.requests import Request

    from mcp_auth.email_codes import EmailCodes
    from mcp_auth.pending import PendingRequest, PendingRequests
    from mcp_auth.provider import GrantProvider
    from mcp_auth.settings import AuthSettings
    from mcp_platform.auth.store import Account, AccountStore

CSRF_COOKIE = "mcp_csrf"


class Consent:
    def __init__(
        self,
        settings: AuthSettings,
        provider: GrantProvider,
        pending: PendingRequests,
        accounts: AccountStore,
        email_codes: EmailCodes,
    ) -> None:
        self._settings = settings
        self._provider = provider
        self._pending = pending
        self._accounts = accounts
        self._email_codes = email_codes

    async def show(self, request: Request) -> Response:
        request_id = request.query_params.get("request", "")
        return self._sign_in_step(request_id)

    async def decide(self, request: Request) -> Response:
        form = await request.form()
        request_id = str(form.get("request", ""))
        pending = self._pending.get(request_id)
        if pending is None:
            return _gone()
        if not _csrf_ok(str(form.get("csrf", "")), request.cookies.get(CSRF_COOKIE, ""), pending):
            return page("Request refused", message("The form's security token is missing or stale."), status=403)
        match form.get("action"):
            case "sign_in":
                return self._sign_in(request_id, pending, self._account_of(str(form.get("api_key", ""))))
            case "send_code":
                return self._code_step(request_id, email_of(str(form.get("email", ""))))
            case "verify_code":
                email = email_of(str(form.get("email", ""))) or ""
                account_id = self._email_codes.verify(email, str(form.get("code", "")))
                account = self._accounts.get_account(account_id) if account_id else None
                return self._sign_in(request_id, pending, account)
            case "allow" | "deny" as decision if pending.account_id:
                return self._finish(request_id, decision)
        return page("Request refused", message("Sign in first."), status=400)

    # -- steps

    def _sign_in_step(self, request_id: str, error: str = "") -> Response:
        bound = self._pending.csrf_for(request_id)
        if bound is None:
            return _gone()
        pending, csrf = bound
        body = (
            f"<p><strong>{escape(pending.client_name)}</strong> asks to use this MCP platform for you.</p>"
            + (message(error) if error else "")
            + '<form method="post" action="/oauth/consent">'
            + hidden("request", request_id)
            + hidden("csrf", csrf)
            + hidden("action", "sign_in")
            + '<p><label for="api_key">API key of your account</label><br>'
            + '<input id="api_key" name="api_key" type="password" autocomplete="off" required size="50"></p>'
            + '<p><button type="submit">Sign in</button></p></form>'
            + '<form method="post" action="/oauth/consent">'
            + hidden("request", request_id)
            + hidden("csrf", csrf)
            + hidden("action", "send_code")
            + email_field()
            + '<p><button type="submit">Email me a code</button></p></form>'
        )
        return _with_csrf(page("Sign in", body, status=400 if error else 200), csrf)

    def _code_step(self, request_id: str, email: str | None) -> Response:
        if email is None:
            return self._sign_in_step(request_id, "That is not an email address.")
        self._email_codes.send(email)
        bound = self._pending.csrf_for(request_id)
        if bound is None:
            return _gone()
        _pending, csrf = bound
        fields = (hidden("request", request_id), hidden("csrf", csrf), hidden("action", "verify_code"))
        return _with_csrf(page("Enter your code", code_form("/oauth/consent", email, *fields)), csrf)

    def _sign_in(self, request_id: str, pending: PendingRequest, account: Account | None) -> Response:
        if account is None:
            left = self._pending.failed_attempt(request_id, pending)
            if left == 0:
                return page("Too many attempts", message("Start again from the application."), status=429)
            return self._sign_in_step(request_id, f"That did not sign you in; {left} attempts left.")
        self._pending.signed_in(request_id, pending, account.account_id, account.name)
        bound = self._pending.csrf_for(request_id)
        assert bound is not None
        pending, csrf = bound
        scopes = grantable(pending.scopes, account.services)
        services = sorted(services_of(scopes))
        items = [f"<li>use the {escape(s)} tools (billed to your credits)</li>" for s in services]
        if CREDITS_READ in scopes:
            items.append("<li>read your balance, ledger and usage</li>")
        body = (
            f"<p><strong>{escape(pending.client_name)}</strong> "
            f"(<code>{escape(pending.client_id)}</code>) asks to:</p><ul>{''.join(items)}</ul>"
            f"<p>Account: <strong>{escape(account.name)}</strong> (<code>{escape(account.account_id)}</code>)</p>"
            f"<p>You will be sent back to <code>{escape(pending.redirect_uri)}</code>.</p>"
            '<form method="post" action="/oauth/consent">'
            + hidden("request", request_id)
            + hidden("csrf", csrf)
            + '<p><button type="submit" name="action" value="allow">Allow</button> '
            + '<button type="submit" name="action" value="deny">Deny</button></p></form>'
        )
        response = page("Allow access?", body, redirect_origin=origin_of(pending.redirect_uri))
        return _with_csrf(response, csrf)

    def _finish(self, request_id: str, decision: str) -> Response:
        pending = self._pending.take(request_id)
        if pending is None or pending.account_id is None:
            return _gone()
        issuer = self._settings.issuer
        if decision == "deny":
            target = construct_redirect_uri(
                pending.redirect_uri, error="access_denied", state=pending.state, iss=issuer
            )
        else:
            account = self._accounts.get_account(pending.account_id)
            scopes = grantable(pending.scopes, account.services if account else ())
            code = self._provider.issue_code(pending, pending.account_id, scopes)
            target = construct_redirect_uri(pending.redirect_uri, code=code, state=pending.state, iss=issuer)
        response = RedirectResponse(target, status_code=303, headers={"cache-control": "no-store"})
        response.delete_cookie(CSRF_COOKIE, path="/oauth", secure=True, httponly=True, samesite="strict")
        return response

    def _account_of(self, api_key: str) -> Account | None:
        api_key = api_key.strip()
        if not is_well_formed(api_key):
            return None
        record = self._accounts.get_key(hash_key(api_key))
        if record is None or record.revoked:
            return None
        return self._accounts.get_account(record.account_id)


def _csrf_ok(form_token: str, cookie_token: str, pending: PendingRequest) -> bool:
    if not form_token or not pending.csrf_hash:
        return False
    return hmac.compare_digest(form_token, cookie_token) and hmac.compare_digest(digest(form_token), pending.csrf_hash)


def _with_csrf(response: Response, csrf: str) -> Response:
    response.set_cookie(CSRF_COOKIE, csrf, max_age=600, path="/oauth", secure=True, httponly=True, samesite="strict")
    return response


def _gone() -> Response:
    return page(
        "Request expired", message("This authorization request is unknown or expired; start again."), status=400
    )
