"""Regenerate the tool catalogue artefact the router loads (shared/mcp_platform/catalogue/catalogue.json).

    .venv/bin/python scripts/gen_catalogue.py          # rewrite it from the contracts
    .venv/bin/python scripts/gen_catalogue.py --check  # exit 1 if it is stale

Run it after changing a contract; tests/unit/test_catalogue.py fails until you do, and a stale file
makes the router import every contract at init (correct, but the slow cold start it exists to avoid).
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "shared"))

from mcp_platform.catalogue.artefact import ARTEFACT, generate


def main() -> int:
    text = generate()
    if "--check" in sys.argv:
        if not ARTEFACT.exists() or ARTEFACT.read_text(encoding="utf-8") != text:
            print(f"{ARTEFACT} is stale: run scripts/gen_catalogue.py", file=sys.stderr)
            return 1
        return 0
    ARTEFACT.write_text(text, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
