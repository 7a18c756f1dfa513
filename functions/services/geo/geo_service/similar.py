"""Nearest neighbours among the importer's stored vectors (cosine), loaded once per container."""

from __future__ import annotations

import threading
from dataclasses import dataclass
from typing import TYPE_CHECKING

from geo_service.kinds import TYPE_RANK

if TYPE_CHECKING:
    import numpy as np

    from geo_service.store import GeoDb


@dataclass(frozen=True)
class VectorIndex:
    ids: np.ndarray
    types: np.ndarray
    matrix: np.ndarray
    """float32, one unit-length row per entity, in `ids` order."""

    def neighbours(self, geoname_id: int, entity_type: str | None, limit: int) -> list[tuple[int, float]] | None:
        """[(geoname_id, cosine distance)] nearest first, without the anchor; None if it has no vector."""
        import numpy as np  # numpy loads with the vectors (first similarity call), not at the service's init

        pos = np.searchsorted(self.ids, geoname_id)
        if pos >= len(self.ids) or self.ids[pos] != geoname_id:
            return None
        # einsum, not BLAS: one thread, no thread-pool start-up or contention on a small Lambda.
        scores = np.einsum("ij,j->i", self.matrix, self.matrix[pos])
        scores[pos] = -np.inf
        if entity_type is not None:
            scores[self.types != TYPE_RANK[entity_type]] = -np.inf
        top = np.argpartition(-scores, min(limit, len(scores) - 1))[:limit]
        top = top[np.argsort(-scores[top])]
        return [(int(self.ids[i]), round(float(1.0 - scores[i]), 4)) for i in top if np.isfinite(scores[i])]


_cache: dict[str, VectorIndex | None] = {}
_lock = threading.Lock()


def vector_index(db: GeoDb) -> VectorIndex | None:
    """The database's vectors (None when the importer stored none)."""
    import numpy as np

    key = str(db.path)
    with _lock:
        if key not in _cache:
            row = db.one("SELECT dim, ids, types, matrix FROM vectors LIMIT 1")
            if row is None or not row["ids"]:
                _cache[key] = None
            else:
                ids = np.frombuffer(row["ids"], dtype=np.int64)
                matrix = np.frombuffer(row["matrix"], dtype=np.float16).reshape(len(ids), row["dim"])
                _cache[key] = VectorIndex(ids, np.frombuffer(row["types"], dtype=np.uint8), matrix.astype(np.float32))
        return _cache[key]
