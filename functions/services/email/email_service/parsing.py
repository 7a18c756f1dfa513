"""email_parse: an RFC 5322 message read by the stdlib's `email` package (policy.default).

The stdlib parser never raises on a malformed message: it repairs what it can and
lists the defects, which the result reports. Attachments are staged for the
caller, each with a download URL, instead of being inlined.
"""

from __future__ import annotations

import base64
import binascii
import re
from email import policy
from email.parser import BytesParser
from email.utils import getaddresses, parsedate_to_datetime
from typing import TYPE_CHECKING

from mcp_platform.contracts.email import Attachment, AuthResult, Header, Mailbox, ParseOutput
from mcp_platform.protocol.binary import stage_output
from mcp_platform.protocol.errors import ErrorCode, ToolError
from mcp_platform.storage import staging_store

if TYPE_CHECKING:
    from email.message import EmailMessage

    from mcp_platform.contracts.email import ParseInput
    from mcp_platform.runtime.service import ServiceContext

MAX_MESSAGE_BYTES = 25 * 1024 * 1024
MAX_HEADERS = 200
MAX_ATTACHMENTS = 20
_HEADER_LINE = re.compile(rb"^[\x21-\x39\x3b-\x7e]+:", re.MULTILINE)
_AUTH_RESULT = re.compile(r"^\s*(?P<method>[\w.-]+)\s*=\s*(?P<result>[\w.-]+)(?P<rest>.*)$", re.DOTALL)
_PROPERTY = re.compile(r"(?<![\w.-])\.*+(?P<key>[\w-]++\.[\w.-]++)\s*+=\s*+(?P<value>\"[^\"]*+\"|[^\s;]++)")
r"""`ptype.property=value`. A key starts where its token does and is read without backtracking: tried
from every character of a long token and rescanning it each time, `[\w-]+\.[\w.-]+\s*=` took 0.6 s on
8,000 characters of "-". Same matches: a key can only end where its token does."""
_COMMENT = re.compile(r"\([^)]*\)")


def email_parse(arguments: ParseInput, ctx: ServiceContext) -> ParseOutput:
    message = BytesParser(policy=policy.default).parsebytes(_message_bytes(arguments, ctx))
    text, text_cut = _body(message, "plain", arguments.max_text_chars)
    html, html_cut = _body(message, "html", arguments.max_text_chars)
    return ParseOutput(
        subject=_header(message, "subject"),
        date=_date(message),
        message_id=_header(message, "message-id"),
        from_=_mailboxes(message, "from"),
        to=_mailboxes(message, "to"),
        cc=_mailboxes(message, "cc"),
        reply_to=_mailboxes(message, "reply-to"),
        headers=[Header(name=name, value=_text(value)) for name, value in message.items()[:MAX_HEADERS]],
        text=text,
        html=html,
        truncated=text_cut or html_cut,
        attachments=_attachments(message, ctx),
        authentication_results=[
            result for value in message.get_all("authentication-results", []) for result in auth_results(str(value))
        ],
        defects=sorted({type(defect).__name__ for part in message.walk() for defect in part.defects}),
    )


def _message_bytes(arguments: ParseInput, ctx: ServiceContext) -> bytes:
    if arguments.staging_id is not None:
        store = staging_store.store_for(ctx.staging_bucket)
        _, data = store.read(ctx.account_id, arguments.staging_id, MAX_MESSAGE_BYTES)
        return data
    raw = arguments.raw or ""
    encoded = raw.encode("utf-8", "surrogateescape")
    if _HEADER_LINE.match(encoded.lstrip()):
        return encoded.lstrip()
    try:
        data = base64.b64decode(re.sub(r"\s+", "", raw), validate=True)
    except (binascii.Error, ValueError):
        data = b""
    if not _HEADER_LINE.match(data.lstrip()):
        raise ToolError(
            "raw: neither a message (it must start with a header line such as 'From: ...') nor base64 of one",
            ErrorCode.INVALID_ARGUMENTS,
        )
    return data.lstrip()


def auth_results(value: str) -> list[AuthResult]:
    """The method results of one Authentication-Results header (RFC 8601): `authserv-id; method=result ...`."""
    value = _without_comments(value)
    authserv, _, rest = value.partition(";")
    results = []
    for part in rest.split(";"):
        match = _AUTH_RESULT.match(part)
        if match is None or match["method"].lower() == "none":
            continue
        properties = {prop["key"].lower(): prop["value"].strip('"') for prop in _PROPERTY.finditer(match["rest"])}
        results.append(
            AuthResult(
                authserv_id=authserv.strip() or None,
                method=match["method"].lower(),
                result=match["result"].lower(),
                properties=properties,
            )
        )
    return results


def _without_comments(value: str) -> str:
    """Each `(...)` replaced by a space. No comment closes past the last `)`, so the pattern is not run
    there: from each `(` of a run of them it scanned to the end (quadratic: 64 ms on 8,000 `(`)."""
    head, close, tail = value.rpartition(")")
    return _COMMENT.sub(" ", head + close) + tail


def _text(value: object) -> str:
    return " ".join(str(value).split())


def _header(message: EmailMessage, name: str) -> str | None:
    value = message.get(name)
    return _text(value) if value is not None else None


def _date(message: EmailMessage) -> str | None:
    value = message.get("date")
    if value is None:
        return None
    try:
        return parsedate_to_datetime(str(value)).isoformat()
    except (TypeError, ValueError):
        return None


def _mailboxes(message: EmailMessage, name: str) -> list[Mailbox]:
    values = [str(value) for value in message.get_all(name, [])]
    return [Mailbox(name=display or None, address=address) for display, address in getaddresses(values) if address]


def _body(message: EmailMessage, subtype: str, cap: int) -> tuple[str | None, bool]:
    part = message.get_body(preferencelist=(subtype,))
    if part is None:
        return None, False
    try:
        content = part.get_content()
    except (LookupError, ValueError):  # an unknown charset or broken transfer encoding
        content = part.get_payload(decode=True).decode("utf-8", "replace")  # type: ignore[union-attr]
    text = str(content)
    return text[:cap], len(text) > cap


def _attachments(message: EmailMessage, ctx: ServiceContext) -> list[Attachment]:
    out: list[Attachment] = []
    for part in message.iter_attachments():
        if len(out) == MAX_ATTACHMENTS:
            break
        data = part.get_payload(decode=True) or b""
        if not isinstance(data, bytes):
            continue
        media_type = part.get_content_type()
        filename = part.get_filename()
        staged = stage_output(data, media_type, ctx, filename=filename, inline_image=False)
        out.append(
            Attachment(
                filename=filename,
                media_type=media_type,
                size=len(data),
                inline=part.get_content_disposition() == "inline",
                file=staged.file,
            )
        )
    return out
