"""promptguard: layered prompt-injection screening that works offline, and a canary probe.

`promptguard_check` reads one untrusted text (a user prompt, a retrieved chunk, a tool result)
through normalisation, named rules, small learned models (character n-grams for a user prompt, n-grams
scored over windows for a document) and, when a guardrail
is configured, Amazon Bedrock Guardrails as a second opinion. It never fails open: a missing or
failing second opinion gives the offline verdict with `degraded: true`, and still costs its credit.
`promptguard_canary` plants an HMAC-derived canary token and verifies whether it leaked (also
encoded) or went missing.
"""

from __future__ import annotations

from functools import partial
from typing import Any, Literal

from pydantic import BaseModel, Field, model_validator

from mcp_platform.catalogue.registry import Annotations, ToolInput, ToolSpec
from mcp_platform.protocol.schema import output_schema

SERVICE = "promptguard"
MAX_TEXT_CHARS = 100_000
Context = Literal["user_prompt", "rag_chunk", "tool_result"]
Intent = Literal["instruction_override", "exfiltration", "tool_hijack", "role_play_jailbreak", "prompt_leak", "none"]
Policy = Literal["allow", "flag", "block"]


# ---------------------------------------------------------------- inputs


class CheckInput(ToolInput):
    text: str = Field(
        min_length=1,
        max_length=MAX_TEXT_CHARS,
        description="The untrusted text to screen (one delta: a prompt, a retrieved passage, a tool's output). "
        "Never logged or stored.",
    )
    context: Context = Field(
        description="Where the text comes from: user_prompt (typed by the user), rag_chunk (a retrieved passage "
        "of prose or a table) or tool_result (what a tool returned: an e-mail, a page, code, an API answer). "
        "Thresholds differ: rag_chunk is the stricter of the document contexts (fitted to encyclopaedia "
        "passages and tables; about one README chunk in twenty and one news article in eight is blocked there), "
        "so send retrieved text that gives its reader instructions (READMEs, changelogs, code, manuals, product "
        "and drug labels, news) as tool_result."
    )
    locale: str | None = Field(
        default=None,
        max_length=35,
        pattern=r"^[A-Za-z]{2,3}(?:[-_][A-Za-z0-9]{2,8})*$",
        description="BCP 47 tag of the caller's UI (e.g. 'de-AT'). Audit only: it switches no model or rule.",
    )
    session_id: str | None = Field(
        default=None,
        max_length=128,
        pattern=r"^[A-Za-z0-9._:-]+$",
        description="The caller's conversation id, written to the audit log only.",
    )


class CanaryInput(ToolInput):
    action: Literal["plant", "verify"] = Field(
        description="plant: make a canary token and the system-prompt line that carries it. verify: look for "
        "that token (also base64/hex/spaced/case-changed) in a text."
    )
    mode: Literal["never_reveal", "always_include"] = Field(
        default="never_reveal",
        description="plant: never_reveal (the model must never output the token; seeing it means the prompt "
        "leaked) or always_include (the model must end every answer with it; its absence means the model was "
        "redirected). verify: the mode the token was planted with.",
    )
    token: str | None = Field(
        default=None,
        min_length=20,
        max_length=80,
        pattern=r"^cnry-[a-z0-9]+-[a-f0-9]+$",
        description="verify: the token plant returned.",
    )
    text: str | None = Field(
        default=None,
        max_length=MAX_TEXT_CHARS,
        description="verify: the model's output or tool-call arguments to inspect. Never logged or stored.",
    )

    @model_validator(mode="after")
    def _verify_needs_token_and_text(self) -> CanaryInput:
        if self.action == "verify" and (self.token is None or self.text is None):
            raise ValueError("verify needs both token and text")
        return self


# ---------------------------------------------------------------- outputs


class Spotlight(BaseModel):
    start: int = Field(description="Offset of the span in the original text (Python string index).")
    end: int = Field(description="End offset, exclusive.")
    excerpt: str = Field(description="The span itself, at most 200 characters.")
    reason: str = Field(description="The rule or layer that found it, e.g. 'rule:override_instructions'.")


class Layer(BaseModel):
    name: str = Field(
        description="normalization, rules, structure (in a document: its most anomalous line), model, "
        "bedrock_guardrails, or a decoded view ('decoded:base64', ...)."
    )
    fired: bool
    score: float = Field(ge=0, le=1)
    detail: str | None = Field(default=None, description="What fired, or why a layer did not run.")


class CheckOutput(BaseModel):
    injection: bool = Field(description="True when policy is block.")
    score: float = Field(ge=0, le=1, description="Calibrated probability that the text carries an injection.")
    policy: Policy = Field(description="allow, flag (suspicious: review or sandbox) or block, per context.")
    intent: Intent
    spotlight: list[Spotlight] = Field(description="The spans that triggered, at most 20, in text order.")
    layers: list[Layer]
    disagreement: bool = Field(description="The rules and the learned model disagree about this text.")
    degraded: bool = Field(description="A configured second opinion was unavailable; the verdict is offline only.")
    context: Context
    thresholds: dict[str, float] = Field(description="The context's flag and block thresholds on score.")
    engine_version: str


class CanaryPlantOutput(BaseModel):
    action: Literal["plant"] = "plant"
    mode: Literal["never_reveal", "always_include"]
    token: str = Field(description="The canary; stateless, verifiable by any instance holding the secret.")
    instruction: str = Field(description="A line to paste into the system prompt.")


class CanaryFinding(BaseModel):
    start: int
    end: int
    encoding: str = Field(
        description="plain, case_changed, spaced, reversed, decimal, or the encoding of the segment it was decoded "
        "from (base64, base85, hex, url_encoding, braille, nato, ...)."
    )


class CanaryVerifyOutput(BaseModel):
    action: Literal["verify"] = "verify"
    mode: Literal["never_reveal", "always_include"]
    authentic: bool = Field(description="The token was made by this deployment (its HMAC checks out).")
    leaked: bool = Field(description="The token, or an encoding of it, appears in the text.")
    hijacked: bool = Field(description="always_include mode: the token is missing from the text.")
    findings: list[CanaryFinding] = Field(description="Where the token appears.")


# ---------------------------------------------------------------- tools


def _one_of(*models: type[BaseModel]) -> dict[str, Any]:
    """An object schema that is exactly one of `models`, their `$defs` hoisted to the root."""
    branches = [output_schema(model) for model in models]
    defs = {name: schema for branch in branches for name, schema in branch.pop("$defs", {}).items()}
    return {"type": "object", "oneOf": branches, **({"$defs": defs} if defs else {})}


_tool = partial(ToolSpec, service=SERVICE, annotations=Annotations(read_only=True, idempotent=True), price=1)

TOOLS = [
    _tool(
        name="promptguard_check",
        title="Screen a text for prompt injection",
        description="Checks one untrusted text delta (a user prompt, a retrieved chunk or a tool result) for prompt "
        "injection: normalisation against evasion (Unicode, homoglyphs, small capitals and letter symbols, Zalgo, "
        "accents, leetspeak, spacing, chopped and misspelt words, base64/base32/base85/hex/URL/binary/decimal/"
        "Morse/Braille/NATO/ROT47/Caesar/Atbash/reversed/upside-down encodings, HTML entities and backslash "
        "escapes, text hidden in Unicode tags, "
        "variation selectors or invisible bits), named rules, the structure of a document (a planted line's "
        "imperative, question, 'you', other script, or topic foreign to the page), small learned models "
        "(character n-grams for a user prompt, n-grams scored over windows for a document), and optionally "
        "Amazon Bedrock Guardrails. Returns injection, a calibrated score, policy allow|flag|block, the intent "
        "and the spans that triggered. Never fails open (degraded: true when a second opinion is down). "
        "Costs 1 credit.",
        input_model=CheckInput,
        output_schema=output_schema(CheckOutput),
    ),
    _tool(
        name="promptguard_canary",
        title="Plant or verify a canary token",
        description="plant: a stateless canary token (HMAC of the deployment secret, your account and a nonce) and "
        "a system-prompt line carrying it. verify {token, text}: leaked (the token, or its base64/hex/spaced/"
        "case-changed form, appears in the text), hijacked (always_include mode: it is missing) and where. "
        "Costs 1 credit.",
        input_model=CanaryInput,
        output_schema=_one_of(CanaryPlantOutput, CanaryVerifyOutput),
    ),
]
