"""What `make dev` builds after it starts serving, so a first run does not wait for it.

The geo database (about 1-2 minutes from PyPI data and tests/fixtures/geo) is needed by the geo_*
tools only. On a first run it is built in the background by `make geo-db`, its output in
build/geo/build.log; until it is there, geo calls answer `upstream_unavailable` saying it is being
built (the `.building` marker `mcp_platform.storage.readonly_db` looks for). Once the file exists, the
Makefile's `dev` target keeps it current before starting, as before.
"""

from __future__ import annotations

import subprocess
import threading
from typing import TYPE_CHECKING

from localdev.template import ROOT
from mcp_platform.storage.readonly_db import building_marker

if TYPE_CHECKING:
    from pathlib import Path


def build_geo_db(db: Path) -> threading.Thread | None:
    """Start `make geo-db` on a background thread when `db` is missing; None when it is there."""
    if db.exists():
        return None
    marker = building_marker(db)
    marker.parent.mkdir(parents=True, exist_ok=True)
    marker.touch()
    log = db.parent / "build.log"
    print(
        f"  geo        building its database in the background (first run only, about 1-2 min; log: {log});"
        " geo_* tools answer once it is ready",
        flush=True,
    )

    def build() -> None:
        try:
            with log.open("w") as out:
                command = ["make", "-s", "geo-db", f"GEO_DB={db}"]
                ready = (
                    subprocess.run(command, check=False, cwd=ROOT, stdout=out, stderr=subprocess.STDOUT).returncode == 0
                )
        finally:
            marker.unlink(missing_ok=True)
        print(f"geo database {'ready' if ready else f'build failed, see {log}'}", flush=True)

    thread = threading.Thread(target=build, name="geo-db-build", daemon=True)
    thread.start()
    return thread
