"""`make dev`: the whole platform on loopback.

An embedded DynamoDB/S3-compatible endpoint (moto server) holds the template's
tables and buckets, a dev account with every service approved is seeded, and
the router serves `http://127.0.0.1:$PORT/mcp` with every service in-process.

Environment: PORT (3000), LOCAL_AWS_PORT (4566), DEV_API_KEY (generated if
unset), DEV_CREDITS (1000000), DEV_RATE_LIMIT_PER_MINUTE (60000: the dev account's own limit;
others have RATE_LIMIT_PER_MINUTE, the template's 120), and any
variable the template sets, which the shell may override. `--router-only` serves one more router
instance over the store of a running `make dev` (LOCAL_AWS_PORT), on PORT.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

from localdev.first_run import build_geo_db
from localdev.server import DEFAULT_GEO_DB, LocalPlatform, LocalSettingError
from localdev.template import add_code_paths


def main() -> int:
    add_code_paths()
    try:
        platform = LocalPlatform.from_env(os.environ)
    except LocalSettingError as exc:
        print(f"make dev: {exc}", file=sys.stderr)
        return 2
    if "--router-only" in sys.argv[1:]:
        # A second router instance on PORT over the store another `make dev` runs on LOCAL_AWS_PORT:
        # any instance answers any request (tasks included), as in AWS.
        platform.configure()
        print(f"router on http://127.0.0.1:{platform.port}/mcp over the store on :{platform.aws_port}", flush=True)
        platform.serve()
        return 0
    try:
        platform.start_store()
        key = platform.seed()
    except OSError as exc:
        print(f"make dev: cannot start the local store on port {platform.aws_port}: {exc}", file=sys.stderr)
        return 1
    print(platform.banner(key), flush=True)
    geo_db = Path(os.environ["GEO_DB_PATH"])
    if geo_db == DEFAULT_GEO_DB:  # a database of the operator's own is theirs to provide
        build_geo_db(geo_db)
    platform.serve()
    return 0


if __name__ == "__main__":
    sys.exit(main())
