"""Layer 2: named rules for the known attack families, matched on the normalised text.

The rules describe the *structure* of an injection rather than one data set's wording: an instruction
addressed to the model (`your reply`, `as an AI`, `assistant:`), an override of earlier instructions,
chat-template role and turn markers, requests for the hidden prompt, exfiltration through links and
markdown images, and tool-call hijacking. Each rule has a name (it shows up in `layers` and
`spotlight`), the intent it indicates and a strength: `strong` rules alone can block, `weak` ones
are cues the learned model weighs together with everything else.

Override vocabulary is covered in the languages the platform's users write most (English, German,
Spanish, French, Portuguese, Italian, Chinese, Japanese, Russian); the learned layer covers the rest.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

Strength = Literal["strong", "weak"]


@dataclass(frozen=True)
class Rule:
    name: str
    intent: str
    strength: Strength
    pattern: re.Pattern[str]
    gate: tuple[str, ...]
    """Substrings of which one must occur for the pattern to be tried (a fast pre-check)."""

    def finditer(self, text: str) -> list[re.Match[str]]:
        if not any(word in text for word in self.gate):
            return []
        return list(self.pattern.finditer(text))


@dataclass(frozen=True)
class Hit:
    rule: Rule
    start: int
    end: int


_PREV = (
    r"(?:all|any|every|the|your|my|these|those|previous|prior|above|earlier|preceding|former|initial|original|"
    r"old|system|given|current|existing|default|safety|other|of|that|was|you)"
)
_RULES_WORDS = (
    r"(?:instructions?|directives?|rules|guidelines?|prompts?|commands|constraints?|restrictions?|programming|"
    r"guardrails?|safeguards?|training|ethics|content polic(?:y|ies)|system messages?)"
)

_SPECS: list[tuple[str, str, Strength, str]] = [
    (
        "override_instructions",
        "instruction_override",
        "strong",
        rf"\b(?:ignore|ignoring|disregard|forget|override|overrid(?:e|ing)|bypass|skip|neglect|overlook|abandon|"
        rf"dismiss|drop|discard|cancel|nullify|void|erase|delete|clear|reset|set aside|throw out|pay no attention to)"
        rf"\s+(?:\w+\s+){{0,4}}?{_PREV}\s+(?:\w+\s+){{0,3}}?{_RULES_WORDS}\b",
    ),
    (
        "override_instructions_i18n",
        "instruction_override",
        "strong",
        r"(?:ignorier\w*|vergiss\w*|missacht\w*|ignora\w*|olvida\w*|ignorez|ignore[rs]?|oublie\w*|esquec\w*|"
        r"dimentica\w*|игнорир\w*|забудь\w*|не обращай)\s+(?:\S+\s+){0,5}?"
        r"(?:anweisung\w*|instru\w*|regeln|vorgaben|befehl\w*|indicaciones|règles|consignes|regras|regole|"
        r"инструкц\w*|указани\w*|правил\w*)"
        r"|(?:忽略|无视|忽视|忘记|忘掉|不要理会|無視|忘れ)[^。\n]{0,12}(?:指令|指示|说明|提示|规则|設定|命令|要求|ルール)",
    ),
    (
        "new_instructions",
        "instruction_override",
        "weak",
        r"\b(?:new|updated|real|actual|revised|additional|important|urgent|secret|hidden|special)\s+"
        r"(?:instructions?|directives?|task|orders?|rules?)\s*[:!-]"
        r"|\bfrom now on,?\s+(?:you|your|the (?:ai|assistant|model))\b"
        r"|\binstead,?\s+(?:you\s+(?:must|should|will|shall)|respond|reply|answer|output|say|print|write)\b"
        r"|\b(?:stop|end)\s+(?:the\s+)?(?:current\s+)?(?:task|summar\w+|translation)\b",
    ),
    (
        "role_marker",
        "role_play_jailbreak",
        "strong",
        r"<\|(?:im_start|im_end|system|user|assistant|endoftext|eot_id|start_header_id)\|?>|\[/?inst\]|<</?sys>>"
        r"|(?:^|\n)\s*(?:#{1,4}\s*)?(?:system|assistant)\s*(?:prompt|message|override|instruction)?\s*:\s*\S"
        r"|\[(?:system|admin|developer)(?:\s+(?:message|note|override|instruction))?\]"
        r"|</?(?:system|instructions?|admin)>",
    ),
    (
        "mode_switch",
        "role_play_jailbreak",
        "strong",
        r"\b(?:developer|dev|debug|god|admin|maintenance|sudo|jailbreak|unrestricted|unfiltered|dan)\s+mode\b"
        r"|\bdo anything now\b|\bjailbr(?:ea|o)k(?:en|ed)?\b"
        r"|\b(?:you are|you're|act as|pretend (?:to be|you are)|roleplay as|role-play as|become)\s+(?:now\s+)?"
        r"(?:an?\s+)?(?:\w+\s+){0,2}?(?:unrestricted|unfiltered|uncensored|amoral|evil|unethical|unbound|"
        r"free from|without (?:any )?(?:restrictions|limits|rules|filters))"
        r"|\b(?:no|without|free of|free from)\s+(?:any\s+)?(?:ethical|moral|content|safety)?\s*"
        r"(?:restrictions|limitations|filters|guidelines|censorship|boundaries)\b"
        r"|\bstay in character\b|\bbreak character\b",
    ),
    (
        "prompt_leak",
        "prompt_leak",
        "strong",
        r"\b(?:reveal|show|print|repeat|output|display|tell|give|share|leak|disclose|dump|write out|spell out|"
        r"recite|expose|return|what (?:is|are|was|were))\s+(?:me\s+)?(?:\w+\s+){0,3}?"
        r"(?:system|initial|original|hidden|secret|internal|pre-?)\s*(?:prompts?|instructions?|messages?|"
        r"configuration|guidelines|rules)\b"
        r"|\b(?:repeat|print|output|return)\s+(?:\w+\s+){0,3}?(?:words|text|everything|all)\s+(?:above|before)\b"
        r"|\b(?:reveal|share|show|display|dump|disclose|leak|expose|print|output|list|repeat|recite)\w*\s+(?:me\s+)?"
        r"(?:\w+\s+){0,2}?(?:your|its|the (?:ai|assistant|model|bot)'?s?)\s+(?:\w+\s+){0,2}?"
        r"(?:prompts?|guidelines|instructions|restrictions|rules|configurations?|setup|programming|directives)\b"
        r"|\b(?:reveal|display|dump|show|print)_(?:system_)?(?:prompt|guidelines|instructions|config\w*)\b"
        r"|\bwhat (?:were you|you were) (?:told|instructed|given)\b"
        r"|\b(?:the |your )?(?:password|secret key|api key|passphrase)\b[^.\n]{0,40}\?",
    ),
    (
        "addressed_to_model",
        "instruction_override",
        "weak",
        r"\b(?:in|to|into|within|throughout|for|at the (?:end|start|beginning) of)\s+(?:your|the)\s+"
        r"(?:reply|replies|response|responses|answer|answers|output|summary|message|completion)\b"
        r"|\b(?:your|the)\s+(?:reply|response|answer|output|summary)\s+(?:should|must|needs? to|has to|will)\b"
        r"|\b(?:respond|reply|answer)\s+(?:only\s+)?(?:with|in|using|by)\b"
        r"|\b(?:begin|start|end|conclude|preface|sign|finish)\s+your\s+(?:reply|response|answer|message|output)\b"
        r"|\b(?:dear|hey|attention|note to|message to|instructions? (?:for|to))\s+(?:the\s+)?"
        r"(?:ai|assistant|chatbot|bot|model|llm|gpt|claude|language model|agent)\b"
        r"|\b(?:as an? (?:ai|language model|assistant)|if you are an? (?:ai|llm|language model|assistant))\b"
        r"|\b(?:when|if|after|before)\s+(?:you|the (?:ai|assistant|model|agent))\s+"
        r"(?:summari[sz]e|read|process|answer|reply|respond|translate|see)\b",
    ),
    (
        "exfiltration_link",
        "exfiltration",
        "strong",
        r"!\[[^\]\n]{0,100}\]\(\s*https?://[^)\s]*[?=&{][^)\s]*\)"
        r"|https?://[^\s)\"']*(?:\{[^}\s]{1,40}\}|\$\{?\w+|%7b\w+%7d|\[(?:data|info|secret|conversation)\])"
        r"|\b(?:send|forward|email|e-mail|post|upload|transmit|exfiltrate|leak|copy)\s+(?:\w+\s+){0,5}?"
        r"(?:conversation|chat history|history|credentials|passwords?|cookies|tokens?|api keys?|secrets?|"
        r"personal (?:data|information)|user data|the data|contents?|files?)\s+(?:\w+\s+){0,3}?to\s+"
        r"(?:https?://|[\w.+-]+@[\w-]+\.|this (?:url|address|email|server))",
    ),
    (
        "tool_hijack",
        "tool_hijack",
        "weak",
        r"\b(?:call|invoke|use|run|execute|trigger)\s+(?:the\s+)?(?:[\w.-]+\s+){0,2}?"
        r"(?:tool|function|plugin|api|action|command|browser|code interpreter|shell)\b"
        r"(?=[^.\n]{0,80}\b(?:with|to|and|on)\b)"
        r"|\b(?:delete|remove|wipe|transfer|wire|approve|purchase|buy|unsubscribe|forward)\s+(?:\w+\s+){0,3}?"
        r"(?:all|every|the user'?s?|their)\s+(?:\w+\s+){0,2}?(?:files|emails|funds|money|repositories|data|"
        r"accounts?|contacts|documents|messages)\b"
        r"|\b(?:import|include|add|insert|incorporate|integrate|embed|paste)\s+(?:\w+\s+){0,4}?"
        r"(?:code|snippet|script|function|line)\b[^.\n]{0,60}(?:\bcode\b|:)",
    ),
    (
        "remote_code",
        "exfiltration",
        "weak",
        r"\b(?:requests\.(?:post|get|put)|urllib\.request|socket\.(?:socket|connect)|\.sendall|"
        r"subprocess\.|os\.system|eval\(|exec\(|curl\s+-|wget\s+http|base64\s+-d|/etc/passwd|\.ssh/|"
        r"keylogger|pynput|smtplib|ftplib|paramiko|reverse shell|nc\s+-e)",
    ),
]

_GATES: dict[str, tuple[str, ...]] = {
    "override_instructions": (
        "ignor", "disregard", "forget", "overrid", "bypass", "skip", "neglect", "overlook", "abandon", "dismiss",
        "drop", "discard", "cancel", "nullify", "void", "erase", "delete", "clear", "reset", "set aside",
        "throw out", "pay no attention",
    ),
    "override_instructions_i18n": (
        "ignor", "vergiss", "missacht", "olvid", "oubli", "esquec", "dimentic", "игнор", "забудь", "не обращай",
        "忽略", "无视", "忽视", "忘", "不要理会", "無視",
    ),
    "new_instructions": ("instruction", "directive", "task", "order", "rule", "from now on", "instead", "stop", "end"),
    "role_marker": (
        "<|", "[inst", "[/inst", "<<", "system", "assistant", "[admin", "[developer", "<instruction", "</instruction",
        "<admin", "</admin",
    ),
    "mode_switch": (
        "mode", "anything now", "jailbr", "you are", "you're", "act as", "pretend", "roleplay", "role-play",
        "become", "restriction", "limitation", "filter", "guideline", "censorship", "boundaries", "character",
    ),
    "prompt_leak": ("prompt", "instruction", "message", "configuration", "guideline", "rules", "above", "before",
                    "password", "secret key", "api key", "passphrase", "restriction", "setup", "programming",
                    "directive", "config", "were told", "you were"),
    "addressed_to_model": ("your", "the reply", "the response", "the answer", "the output", "the summary",
                           "respond", "reply", "answer", "dear", "hey", "attention", "note to", "message to",
                           "instruction", "as a", "as an", "if you are", "when", "if", "after", "before"),
    "exfiltration_link": ("http", "send", "forward", "email", "e-mail", "post", "upload", "transmit", "exfiltrat",
                          "leak", "copy"),
    "tool_hijack": ("tool", "function", "plugin", "api", "action", "command", "browser", "interpreter", "shell",
                    "delete", "remove", "wipe", "transfer", "wire", "approve", "purchase", "buy", "unsubscribe",
                    "forward", "code", "snippet", "script", "line"),
    "remote_code": ("requests.", "urllib", "socket", "sendall", "subprocess", "os.system", "eval(", "exec(", "curl",
                    "wget", "base64", "/etc/passwd", ".ssh/", "keylogger", "pynput", "smtplib", "ftplib", "paramiko",
                    "reverse shell", "nc "),
}  # fmt: skip

RULES: tuple[Rule, ...] = tuple(
    Rule(name, intent, strength, re.compile(rx), _GATES[name]) for name, intent, strength, rx in _SPECS
)
RULE_NAMES: tuple[str, ...] = tuple(rule.name for rule in RULES)


def match(text: str) -> list[Hit]:
    """Every rule hit in a normalised text, in text order."""
    hits = [Hit(rule, m.start(), m.end()) for rule in RULES for m in rule.finditer(text)]
    return sorted(hits, key=lambda hit: hit.start)
