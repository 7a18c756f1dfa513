"""promptguard_check on benign technical documents it was never fitted on: false positives outside the benchmark.

    python bench/promptguard_documents.py

The benchmark's clean documents are encyclopaedia passages, tables, e-mails, news pages and code.
Operators also retrieve READMEs, changelogs and API guides: lines that open with imperatives ("Add
support for ...", "Use the client ..."), words to "you", code samples and badges. This cuts the long
descriptions of the packages installed in this interpreter into chunks (at paragraph boundaries, at
most a few per package), scores each as rag_chunk and as tool_result, and prints the share allowed,
flagged and blocked at the shipped thresholds, and which rules fired on the blocked ones. Every text
is benign: what is blocked is a false positive.

Half of the packages (`trains_model`) give the document model benign rag_chunk rows
(`scripts/train_promptguard.py`); this bench scores the other half only, documents it never saw. Its
rag_chunk figure is no longer blind: it chose the rag_chunk block floor (`calibration._BLOCK_FLOOR`,
0.299 of these chunks blocked before it, 0.047 after), with the benchmark's news articles.
"""

from __future__ import annotations

import argparse
import hashlib
import re
from collections import Counter
from importlib import metadata

from service_env import use_promptguard_offline

use_promptguard_offline()

from promptguard_service.engine import check

CHUNK_CHARS = 1500
MIN_CHARS = 300


def chunks(body: str) -> list[str]:
    """`body` cut at paragraph boundaries into chunks of at most `CHUNK_CHARS` (shorter ones dropped)."""
    found, current = [], ""
    for raw in re.split(r"\n\s*\n", body):
        paragraph = raw.strip("\n")
        if current and len(current) + len(paragraph) + 2 > CHUNK_CHARS:
            found.append(current)
            current = ""
        current = f"{current}\n\n{paragraph}" if current else paragraph[:CHUNK_CHARS]
    if current:
        found.append(current)
    return [chunk for chunk in found if len(chunk) >= MIN_CHARS]


def package_documents(per_package: int) -> dict[str, list[str]]:
    """Up to `per_package` chunks, spread over its description, of every installed package, by name."""
    documents = {}
    for dist in metadata.distributions():
        name, body = dist.metadata["Name"], dist.metadata.json.get("description")
        if name and isinstance(body, str) and (cut := chunks(body)):
            documents[name.lower()] = cut[:: max(1, len(cut) // per_package)][:per_package]
    return dict(sorted(documents.items()))


def trains_model(package: str) -> bool:
    """Whether a package's chunks are training rows rather than bench texts: its name's SHA-256 is even, a
    split that holds whichever packages an interpreter has."""
    return int(hashlib.sha256(package.encode()).hexdigest(), 16) % 2 == 0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--per-package", type=int, default=6, help="chunks per package description")
    args = parser.parse_args()
    unseen = {name: texts for name, texts in package_documents(args.per_package).items() if not trains_model(name)}
    documents = [text for texts in unseen.values() for text in texts]
    print(f"{len(documents)} chunks of {len(unseen)} installed packages' descriptions, never trained on; all benign")
    print(f"{'context':<12} {'allowed':>8} {'flagged':>8} {'blocked':>8}  rules on the blocked")
    for context in ("rag_chunk", "tool_result"):
        policies: Counter[str] = Counter()
        rules: Counter[str] = Counter()
        for text in documents:
            verdict = check(text, context)
            policies[verdict.policy] += 1
            if verdict.policy == "block":
                detail = next(layer.detail for layer in verdict.layers if layer.name == "rules")
                rules.update((detail or "model only").split(", "))
        shares = [policies[p] / len(documents) for p in ("allow", "flag", "block")]
        common = ", ".join(f"{name} {count}" for name, count in rules.most_common(4))
        print(f"{context:<12} {shares[0]:>8.3f} {shares[1]:>8.3f} {shares[2]:>8.3f}  {common}")


if __name__ == "__main__":
    main()
