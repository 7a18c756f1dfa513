"""Write the MCP Registry `server.json` of a deployed stack, generated from the registry.

    .venv/bin/python scripts/server_json.py https://api.example.com > server.json
    .venv/bin/python scripts/server_json.py https://api.example.com --name mcp-platform --version 1.2.0

One `remotes` entry per documented connection profile (all tools, ?profile=discover,
?services=…); then `mcp-publisher publish` as the MCP Registry's docs describe.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import orjson

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "shared"))

from mcp_platform.catalogue.discovery import registry_server_json
from mcp_platform.catalogue.registry import load_registry


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("url", help="the stack's public URL, without /mcp (e.g. https://api.example.com)")
    parser.add_argument("--name", default="mcp-platform", help="server name (SERVER_NAME of the router)")
    parser.add_argument("--version", default="0.1.0", help="server version (SERVER_VERSION of the router)")
    args = parser.parse_args()
    document = registry_server_json(load_registry(), args.url.rstrip("/"), args.name, args.version)
    sys.stdout.write(orjson.dumps(document, option=orjson.OPT_INDENT_2).decode() + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
