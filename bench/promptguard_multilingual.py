"""promptguard_check on benign requests in sixteen languages that it was never fitted on.

    python bench/promptguard_multilingual.py

The benchmark's benign user prompts in other languages are XQuAD's reading-comprehension questions; its
attacks in other languages are many (CyberSecEval's translations), so a model fitted on it learns that
a foreign script is a sign of attack. The team wrote ordinary requests in sixteen languages (German ...
Dutch: a recipe, a translation, "forget my previous question"); one line in two trains the model, and
this prints the share of the other half allowed, flagged and blocked as user prompts. Every text is
benign: what is blocked is a false positive.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path

from service_env import use_promptguard_offline

use_promptguard_offline()

from promptguard_service.engine import check

HELD_OUT = Path(__file__).with_name("promptguard_multilingual_benign.txt")


def main() -> None:
    lines = [line.strip() for line in HELD_OUT.read_text(encoding="utf-8").splitlines()]
    texts = [line for line in lines if line and not line.startswith("#")]
    verdicts = [check(text, "user_prompt") for text in texts]
    policies = Counter(verdict.policy for verdict in verdicts)
    print(f"{len(texts)} benign requests in sixteen languages, never trained on (user_prompt)")
    print("  ".join(f"{policy} {policies[policy] / len(texts):.3f}" for policy in ("allow", "flag", "block")))
    for text, verdict in zip(texts, verdicts, strict=True):
        if verdict.policy == "block":
            print(f"  blocked ({verdict.score:.3f}): {text}")


if __name__ == "__main__":
    main()
