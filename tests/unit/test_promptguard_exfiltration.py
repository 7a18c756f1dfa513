"""exfiltration_link's look-aheads: each admits the longest address its branch reads, and no longer one."""

from __future__ import annotations

import pytest

from promptguard_service import rules

PATTERN = next(rule for rule in rules.RULES if rule.name == "exfiltration_link").pattern
RUN = "a" * 300
"""As much of an address as each of the pattern's runs reads."""


@pytest.mark.parametrize(
    ("address", "longer"),
    [
        (f"![x](http://{RUN}?conversation={RUN})", f"![x](http://{RUN}a?conversation={RUN})"),
        (f"http://{RUN}?{RUN}{{x}}", f"http://{RUN}?{RUN}a{{x}}"),
        (f"http://{RUN}/${{conversations}}", f"http://{RUN}a/${{conversations}}"),
    ],
    ids=["image with a data parameter", "slot in the query", "slot named for the data"],
)
def test_the_longest_address_is_read_and_no_longer_one(address: str, longer: str) -> None:
    assert PATTERN.search(f"see {address} now")
    assert not PATTERN.search(f"see {longer} now")
