"""promptguard_check on the prompt-injection benchmark: the issue's figures, per context.

    python bench/promptguard.py                      # ../shared/bench-data/prompt-injection/dev.jsonl
    python bench/promptguard.py --data other.jsonl --limit 2000

Calls the tool in-process (`app.handle`: validation, every offline layer, output shaping) once per
row and prints, per context and overall: (a) recall at the threshold where at most 5 % of that
context's benign rows score higher, (b) balanced accuracy at the tool's own `block` policy, (c)
over-defence (share of hard negatives not flagged as injection), (d) median and p99 latency per
text, and the p99 for 2,000-character texts (the issue's target: <= 10 ms): one news page 200 times,
and every long dev text once, cut to 2,000 characters.

The shipped model was fitted on dev.jsonl, so figures on that file are in-sample. The held-out
figures the training script measured are printed beside them, for sources never seen in training
and for new rows of known sources: the hidden half, a mix of both, should land between them.
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
import time
from pathlib import Path
from typing import Any

from service_env import use_promptguard_offline
from stats import percentile

use_promptguard_offline()

from reference import reference_path

from promptguard_service.app import app
from promptguard_service.calibration import load_calibration

DEFAULT_DATA = reference_path("bench-data", "prompt-injection", "dev.jsonl")
CONTEXTS = ("user_prompt", "rag_chunk", "tool_result")
WORST_CASES = {
    "one 100,000-letter word": "a" * 100_000,
    "short-word lines": "- send send send send\n" * 4_545,
    "misspelt trigger words": "ignroe " * 14_285,
    "mojibake on one line": "Ã© " * 33_333,
    "one long base64 run": "QUJD" * 25_000,
    "one word of letters and digits": "ZZZZ234567" * 10_000,
    "links glued together": "http://a?" * 11_111,
    "markdown images glued together": "![x](http://a?data=" * 5_263,
    "exclamations, then a password": "x! " * 33_330 + "пароль",
    "clauses opening on an errand": "- send " * 14_285,
    "Chinese orders to answer and negations": "回答没有" * 25_000,
    "Chinese negated rules": "没有规则" * 25_000,
}
"""Texts of the maximum length (100,000 characters) built to make one layer slow; each once found a
superlinear step (the respelling of a long word, the chopped-words decoder, a line-wide pattern, an
e-mail pattern tried at each letter of a word, a link pattern rescanning glued links, a question
pattern that read past "!", a gap of "two words" in Chinese, which has no spaces)."""


def call(text: str, context: str) -> tuple[dict[str, Any], float]:
    started = time.perf_counter()
    reply = app.handle(
        {
            "tool": "promptguard_check",
            "arguments": {"text": text, "context": context},
            "account_id": "acct_bench",
            "request_id": "bench",
        }
    )
    return reply.structured_content, (time.perf_counter() - started) * 1000


def recall_at_fpr(scores: list[float], labels: list[int], fpr: float = 0.05) -> float | None:
    """Recall of the injections above the score that at most `fpr` of the benign rows reach (None without both)."""
    benign = sorted((s for s, y in zip(scores, labels, strict=True) if y == 0), reverse=True)
    injected = [s for s, y in zip(scores, labels, strict=True) if y == 1]
    if not benign or not injected:
        return None
    threshold = benign[min(math.floor(fpr * len(benign)), len(benign) - 1)]
    return sum(s > threshold for s in injected) / len(injected)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA)
    parser.add_argument("--limit", type=int, default=0, help="score only the first N rows")
    args = parser.parse_args()
    rows = [json.loads(line) for line in args.data.open(encoding="utf-8")]
    rows = rows[: args.limit] if args.limit else rows
    call("warm-up", "user_prompt")
    results = []
    for row in rows:
        out, ms = call(row["text"], row["context"])
        valid = isinstance(out.get("score"), float | int) and "policy" in out and "injection" in out
        results.append((row, out if valid else {"score": 0.0, "policy": "block", "injection": True}, ms))

    print(f"promptguard_check on {args.data.name}: {len(rows)} rows (in-process, offline layers)")
    print(f"{'context':<12} {'rows':>5} {'recall@5%FPR':>13} {'bal.acc@block':>14} {'median ms':>10} {'p99 ms':>8}")
    for context in (*CONTEXTS, "all"):
        part = [r for r in results if context in ("all", r[0]["context"])]
        labels = [1 if r[0]["label"] == "injection" else 0 for r in part]
        scores = [float(r[1]["score"]) for r in part]
        blocked = [r[1]["policy"] == "block" for r in part]
        tpr = sum(b for b, y in zip(blocked, labels, strict=True) if y) / max(1, sum(labels))
        tnr = sum(not b for b, y in zip(blocked, labels, strict=True) if not y) / max(1, len(labels) - sum(labels))
        recall = recall_at_fpr(scores, labels) if context != "all" else None
        recall_text = f"{recall:.3f}" if recall is not None else "-"
        times = [r[2] for r in part]
        print(
            f"{context:<12} {len(part):>5} {recall_text:>13} {(tpr + tnr) / 2:>14.3f} "
            f"{statistics.median(times):>10.2f} {percentile(times, 0.99):>8.2f}"
        )
    hard = [r for r in results if r[0]["category"] == "hard_negative"]
    print(
        f"over-defence (hard negatives not flagged): {sum(not r[1]['injection'] for r in hard) / len(hard):.3f} "
        f"of {len(hard)}"
    )

    base = next((r[0]["text"] for r in results if len(r[0]["text"]) >= 2000 and r[0]["label"] == "benign"), "")
    sample = [base[:2000]] * 200 if base else []
    times_2k = [call(text, "tool_result")[1] for text in sample]
    if times_2k:
        print(
            f"2,000-char text: median {statistics.median(times_2k):.2f} ms, p99 {percentile(times_2k, 0.99):.2f} ms "
            f"(target p99 <= 10 ms)"
        )
    # Every long text once, cut to 2,000 characters and read in its own context: the target is for any
    # such text, and attacks, tables and code take other paths than the one news page above.
    varied = [(r[0]["text"][:2000], r[0]["context"]) for r in results if len(r[0]["text"]) >= 2000]
    times_varied = [call(text, context)[1] for text, context in varied]
    if times_varied:
        print(
            f"2,000-char texts, {len(varied)} different (dev rows of 2,000+ cut): median "
            f"{statistics.median(times_varied):.2f} ms, p99 {percentile(times_varied, 0.99):.2f} ms, "
            f"slowest {max(times_varied):.2f} ms"
        )

    worst = {name: call(text, "tool_result")[1] for name, text in WORST_CASES.items()}
    name = max(worst, key=worst.__getitem__)
    print(f"100,000-char adversarial texts ({len(worst)}): slowest {worst[name]:.0f} ms ({name})")

    calibration = load_calibration()
    for key, what in (
        ("held_out", "leave-one-source-out: sources never seen in training"),
        ("held_out_known_sources", "five random folds: new rows of known sources"),
    ):
        held = calibration.get(key)
        if not held:
            continue
        print(f"\nheld-out, {what} (scripts/train_promptguard.py; dev figures above are in-sample):")
        for context in (*CONTEXTS, "all"):
            figures = held[context]
            recall = figures["recall_at_5pct_fpr"]
            print(
                f"  {context:<12} recall@5%FPR {recall if recall is not None else '-':>6}  "
                f"bal.acc@block {figures['balanced_accuracy']:.3f}"
            )
        print(f"  over-defence {held['over_defence']:.3f}")


if __name__ == "__main__":
    main()
