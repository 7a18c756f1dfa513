"""Server-rendered HTML: plain forms with labelled inputs, one submit button per step, no script.

Everything shown that came from elsewhere (a client's name, a scope, an account name) goes
through `html.escape`. Responses carry a strict CSP: nothing loads, forms post only to this
origin (and, for the redirect that ends a consent, to the client's redirect URI's origin).
"""

from __future__ import annotations

from html import escape
from urllib.parse import urlsplit

from starlette.responses import HTMLResponse

from mcp_platform.auth.signup import normalise_email

_STYLE = "body{font-family:system-ui,sans-serif;max-width:36rem;margin:2rem auto;padding:0 1rem;line-height:1.5}"


def page(title: str, body: str, *, status: int = 200, redirect_origin: str | None = None) -> HTMLResponse:
    form_action = "'self'" + (f" {redirect_origin}" if redirect_origin else "")
    csp = (
        "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; frame-ancestors 'none'; "
        f"form-action {form_action}"
    )
    html = (
        f'<!doctype html><html lang="en"><head><meta charset="utf-8"><title>{escape(title)}</title>'
        f'<meta name="viewport" content="width=device-width"><style>{_STYLE}</style></head>'
        f"<body><h1>{escape(title)}</h1>{body}</body></html>"
    )
    headers = {
        "content-security-policy": csp,
        "cache-control": "no-store",
        "x-content-type-options": "nosniff",
        "referrer-policy": "no-referrer",
    }
    return HTMLResponse(html, status_code=status, headers=headers)


def origin_of(url: str) -> str:
    parts = urlsplit(url)
    return f"{parts.scheme}://{parts.netloc}"


def hidden(name: str, value: str) -> str:
    return f'<input type="hidden" name="{escape(name)}" value="{escape(value)}">'


def message(text: str) -> str:
    return f'<p role="alert">{escape(text)}</p>'


def email_of(value: str) -> str | None:
    """The address normalised as sign-up stores it, or None for something else."""
    try:
        return normalise_email(value)
    except ValueError:
        return None


def email_field() -> str:
    return (
        '<p><label for="email">Email address of your account</label><br>'
        '<input id="email" name="email" type="email" autocomplete="email" required size="40"></p>'
    )


def code_form(action: str, email: str, *fields: str) -> str:
    """The second step of an email sign-in: the code sent to `email` (`fields`: more hidden inputs)."""
    return (
        f"<p>If {escape(email)} belongs to an account, a code is on its way.</p>"
        f'<form method="post" action="{escape(action)}">{hidden("email", email)}{"".join(fields)}'
        '<p><label for="code">Sign-in code</label><br>'
        '<input id="code" name="code" inputmode="numeric" autocomplete="one-time-code" required size="8"></p>'
        '<p><button type="submit">Sign in with the code</button></p></form>'
    )
