"""Cheap, deterministic entity vectors for geo_semantic_search (no model, no network).

A vector is hashed character trigrams of the entity's names and its country's name, plus its
kind, place kind, position on the unit sphere, size and elevation; L2-normalised, stored as
float16. Similar vectors mean "similar name, same kind of thing, similar size, nearby".
"""

from __future__ import annotations

import math
import zlib
from dataclasses import dataclass

import numpy as np

from geo_service.kinds import TYPE_RANK
from geo_service.text import fold

DIM = 48
_TRIGRAM_DIMS = 28
_KIND_BASE = _TRIGRAM_DIMS  # 6 entity types
_PLACE_BASE = _KIND_BASE + len(TYPE_RANK)  # 6 hashed place-kind dims
_GEO_BASE = _PLACE_BASE + 6  # x, y, z
_SIZE = _GEO_BASE + 3  # log population, elevation, capital flag


@dataclass(frozen=True)
class VectorInput:
    entity_type: str
    names: list[str]
    place_kind: str | None
    latitude: float | None
    longitude: float | None
    population: int
    elevation: float | None
    is_capital: bool


def _bucket(token: str, dims: int) -> tuple[int, float]:
    h = zlib.crc32(token.encode())
    return h % dims, 1.0 if (h >> 16) & 1 else -1.0


def vector(item: VectorInput) -> np.ndarray:
    """The stored vector of one entity (float32, unit length)."""
    v = np.zeros(DIM, dtype=np.float32)
    trigrams = np.zeros(_TRIGRAM_DIMS, dtype=np.float32)
    for name in item.names:
        text = f"  {fold(name)} "
        for i in range(len(text) - 2):
            slot, sign = _bucket(text[i : i + 3], _TRIGRAM_DIMS)
            trigrams[slot] += sign
    if norm := float(np.linalg.norm(trigrams)):
        v[:_TRIGRAM_DIMS] = trigrams / norm
    v[_KIND_BASE + TYPE_RANK[item.entity_type]] = 0.6
    if item.place_kind:
        slot, _ = _bucket(item.place_kind, 6)
        v[_PLACE_BASE + slot] = 0.5
    if item.latitude is not None and item.longitude is not None:
        lat, lon = math.radians(item.latitude), math.radians(item.longitude)
        v[_GEO_BASE : _GEO_BASE + 3] = (
            0.6 * math.cos(lat) * math.cos(lon),
            0.6 * math.cos(lat) * math.sin(lon),
            0.6 * math.sin(lat),
        )
    v[_SIZE] = 0.5 * math.log10(item.population + 1) / 9
    v[_SIZE + 1] = 0.3 * (item.elevation or 0.0) / 9000
    v[_SIZE + 2] = 0.3 if item.is_capital else 0.0
    return v / float(np.linalg.norm(v))
