"""Server-rendered HTML: plain forms with labelled inputs, one submit button per step, no script.

Everything shown that came from elsewhere (a client's name, a scope, an account name) goes
through `html.escape`. Responses carry a strict CSP: nothing loads, forms post only to this
origin (and, for the redirect that ends a consent, to the client's redirect URI's origin).
"""

from __future__ import annotations

from html import escape
from urllib.parse import urlsplit

from starlette.responses import HTMLResponse

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
