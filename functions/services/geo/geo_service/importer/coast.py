"""Nearest-point search over coastline points and marine features, for the precomputed coastal fields.

A grid of 1-degree cells searched in widening windows: the exact nearest point within `max_km`,
fast enough for every city of allCountries.
"""

from __future__ import annotations

import math
from collections import defaultdict

import numpy as np

from geo_service.geometry import EARTH_RADIUS_KM, bounding_boxes

_CELL_DEG = 1.0


class PointIndex:
    """Nearest of a fixed set of points (degrees) to a query point, within a radius."""

    def __init__(self, lats: list[float], lons: list[float]) -> None:
        self.size = len(lats)
        buckets: dict[tuple[int, int], list[int]] = defaultdict(list)
        for i, (lat, lon) in enumerate(zip(lats, lons, strict=True)):
            buckets[_cell(lat, lon)].append(i)
        lat_rad, lon_rad = np.radians(np.asarray(lats, float)), np.radians(np.asarray(lons, float))
        self._cells = {key: (np.asarray(ids), lat_rad[ids], lon_rad[ids]) for key, ids in buckets.items()}

    def nearest(self, lat: float, lon: float, max_km: float) -> tuple[int, float] | None:
        """(index, distance_km) of the nearest point within `max_km`, or None.

        Widens a window of cells (25, 50, 100 km, ...) and stops as soon as the best hit lies within
        the current window's radius: every point that could be nearer has then been looked at.
        """
        seen: set[tuple[int, int]] = set()
        best: tuple[int, float] | None = None
        radius = 25.0
        while True:
            radius = min(radius, max_km)
            for key in _window(lat, lon, radius) - seen:
                seen.add(key)
                if (hit := self._nearest_in(key, lat, lon)) and (best is None or hit[1] < best[1]):
                    best = hit
            if (best is not None and best[1] <= radius) or radius >= max_km:
                return best if best is not None and best[1] <= max_km else None
            radius *= 2

    def _nearest_in(self, key: tuple[int, int], lat: float, lon: float) -> tuple[int, float] | None:
        cell = self._cells.get(key)
        if cell is None:
            return None
        ids, plat, plon = cell
        p1, l1 = math.radians(lat), math.radians(lon)
        h = np.sin((plat - p1) / 2) ** 2 + math.cos(p1) * np.cos(plat) * np.sin((plon - l1) / 2) ** 2
        k = int(np.argmin(h))
        return int(ids[k]), float(2 * EARTH_RADIUS_KM * math.asin(min(1.0, math.sqrt(float(h[k])))))


def _cell(lat: float, lon: float) -> tuple[int, int]:
    return math.floor(lat / _CELL_DEG), math.floor(lon / _CELL_DEG) % 360


def _window(lat: float, lon: float, radius_km: float) -> set[tuple[int, int]]:
    cells: set[tuple[int, int]] = set()
    for min_lat, max_lat, min_lon, max_lon in bounding_boxes(lat, lon, radius_km):
        for row in range(math.floor(min_lat / _CELL_DEG), math.floor(max_lat / _CELL_DEG) + 1):
            for col in range(math.floor(min_lon / _CELL_DEG), math.floor(max_lon / _CELL_DEG) + 1):
                cells.add((row, col % 360))
    return cells
