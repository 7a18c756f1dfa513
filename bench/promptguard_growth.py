"""promptguard's rules on texts built to make a pattern backtrack: how their time grows with length.

    python bench/promptguard_growth.py                # every rule, then the whole check
    python bench/promptguard_growth.py --ratio 4      # flag smaller growth

A text of one repeated unit (a rule's gate word with a separator, a glued link, an encoding's
alphabet) makes a pattern that rescans what it already read cost the square of the length. Each unit is
timed at `--short` and at four times that length; linear work grows about four times, so a growth over
`--ratio` (default 6) is printed as SUPERLINEAR. Three such patterns were found this way and fixed
(a link pattern: 39 s on 10,000 characters of "http://a?"). Prints the slowest units and the count.
"""

from __future__ import annotations

import argparse

from growth import repeated, seconds
from service_env import use_promptguard_offline

use_promptguard_offline()

from promptguard_service import normalize, rules
from promptguard_service.engine import check

SEPARATORS = (
    "", " ", "?", "! ", ". ", "\n", ": ", "- ", "'", "{x}", "/", "=", "@a.b ", "http://a?", "![x](http://a?q=",
)  # fmt: skip
"""What follows each gate word; "" glues them as Chinese and Japanese write (a gap of "two words" read as
every split of an unspaced run: 500 characters of "没有规则" took 7.5 s)."""
EXTRA_UNITS = (
    "x! ", "http://a?", "![x](http://a?data=", "- send ", "your reply ", ":'", "QUJD", "ZZZZ234567", "0101 ",
    "01010101 ", ".- ", "-- / ", "Ã© ", "%41", "ignroe ", "1gn0r3 ", "i g n o r e ", "a\u0301\u0301 ", "| a | b |\n",
    "\u200b", "\U000e0041", "твой пароль! ", "alfa bravo ", "alfa / ", "⠁⠃ ", "ɐǝ ", "ɐqpd sou ", "x8?@C6 ",
    "NoQ_va%CW4Y-}KKa%Fa ", "<!--SGVsbG8=-->", "\u2062\u2064\u200b", "ígnóré ", "a+b+c ", "ɪɢɴᴏʀᴇ ", "1n57ruc710n5 ",
    "73 103 ",
)  # fmt: skip
"""Units beyond the gate words: the shapes each decoder and rule family reads."""
RULES = (*rules.RULES, *rules.EXTRA_STRONG)


def slowest_rule(text: str) -> tuple[float, str]:
    """The slowest rule on `text`, tried past its pre-checks: an attacker can put their words anywhere."""
    normalised = normalize.normalize(text).text
    return max((seconds(lambda rule=rule: rule.matches(normalised)), rule.name) for rule in RULES)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--short", type=int, default=2_000, help="characters of the shorter text")
    parser.add_argument("--ratio", type=float, default=6.0, help="growth (x4 length) reported as superlinear")
    args = parser.parse_args()
    long = 4 * args.short
    gates = sorted({word for rule in RULES for word in rule.words()})
    units = [word + separator for word in gates for separator in SEPARATORS] + list(EXTRA_UNITS)
    found: list[tuple[float, float, str, str]] = []
    for unit in units:  # the rules alone: fast enough to try every unit
        short_s, _ = slowest_rule(repeated(unit, args.short))
        if short_s < 0.0015:
            continue  # too fast at this length to measure a growth
        long_s, name = slowest_rule(repeated(unit, long))
        found.append((long_s, long_s / short_s, name, unit))
    for unit in EXTRA_UNITS:  # the whole check: normalisation, decoders, views, rules, model
        short_s = seconds(lambda unit=unit: check(repeated(unit, args.short), "tool_result"))
        long_s = seconds(lambda unit=unit: check(repeated(unit, long), "tool_result"))
        found.append((long_s, long_s / short_s, "whole check", unit))
    superlinear = [f for f in found if f[1] > args.ratio and f[0] > 0.02]
    print(f"{len(units)} units, {len(found)} timed at {args.short} and {long} characters")
    print(f"{'at ' + str(long):>12} {'growth':>7}  {'where':<24} unit")
    for long_s, growth, name, unit in sorted(found, reverse=True)[:10]:
        print(f"{long_s * 1000:>9.1f} ms {growth:>6.1f}x  {name:<24} {unit!r}")
    print(f"superlinear (growth > {args.ratio:g}x, > 20 ms): {len(superlinear)}")
    for long_s, growth, name, unit in superlinear:
        print(f"  SUPERLINEAR {growth:.1f}x {long_s * 1000:.1f} ms {name} {unit!r}")


if __name__ == "__main__":
    main()
