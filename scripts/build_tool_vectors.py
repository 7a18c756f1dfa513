"""Write the router's copy of WordLlama (tools_search's embedding) from the installed `wordllama` wheel.

    python scripts/build_tool_vectors.py

The wheel ships its weights (32,000 tokens x 256 dimensions, float16) and its tokenizer, but
depending on it at run time would bring numpy, tokenizers and huggingface_hub (157 MB) into
the router. This keeps what the ranking uses, in the router package:

  data/wordllama_256_int8.bin   each token's vector as int8 (32000 x 256) then one float32 scale
                                per token (its largest magnitude / 127): 8.3 MB
  data/wordllama_bpe.json.gz    the tokenizer's vocabulary (in id order) and merges (in rank order)

tests/unit/test_tool_embedding.py checks the committed files against the wheel when it is installed
(requirements-dev.txt pins it).
"""

from __future__ import annotations

import gzip
import importlib.resources
import json
import sys
from pathlib import Path

import numpy as np
from safetensors.numpy import load_file

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "functions" / "platform" / "router" / "mcp_router" / "data"
TABLE = DATA / "wordllama_256_int8.bin"
BPE = DATA / "wordllama_bpe.json.gz"


def quantised_table() -> bytes:
    """The wheel's token vectors as int8 rows followed by their float32 scales (little-endian)."""
    weights = importlib.resources.files("wordllama") / "weights" / "l2_supercat_256.safetensors"
    table = load_file(str(weights))["embedding.weight"].astype(np.float32)
    scales = np.abs(table).max(axis=1) / 127
    scales[scales == 0] = 1.0
    rows = np.round(table / scales[:, None]).astype(np.int8)
    return rows.tobytes() + scales.astype("<f4").tobytes()


def bpe() -> bytes:
    """The tokenizer's vocabulary in id order and its merges in rank order, as gzipped JSON."""
    path = importlib.resources.files("wordllama") / "tokenizers" / "l2_supercat_tokenizer_config.json"
    model = json.loads(path.read_text(encoding="utf-8"))["model"]
    vocab = sorted(model["vocab"], key=model["vocab"].__getitem__)
    merges = [m if isinstance(m, str) else " ".join(m) for m in model["merges"]]
    text = json.dumps({"vocab": vocab, "merges": merges}, ensure_ascii=False, separators=(",", ":"))
    return gzip.compress(text.encode(), mtime=0)


def main() -> int:
    DATA.mkdir(parents=True, exist_ok=True)
    TABLE.write_bytes(quantised_table())
    BPE.write_bytes(bpe())
    for path in (TABLE, BPE):
        print(f"{path.relative_to(ROOT)}: {path.stat().st_size:,} bytes")
    return 0


if __name__ == "__main__":
    sys.exit(main())
