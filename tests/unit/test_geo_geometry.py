"""Pure helpers of the geo service: haversine, bounding boxes, coastal categories, name folding."""

from __future__ import annotations

import pytest

from geo_service.geometry import bounding_boxes, haversine_km
from geo_service.kinds import coastal_category
from geo_service.text import exact_key, fold, words


def test_haversine_known_distances() -> None:
    assert haversine_km(0, 0, 0, 1) == pytest.approx(111.195, abs=0.001)  # R = 6371 km
    assert haversine_km(51.5074, -0.1278, 48.8566, 2.3522) == pytest.approx(343.6, abs=0.5)
    assert haversine_km(10, 20, 10, 20) == 0


def test_bounding_box_contains_the_circle() -> None:
    [(min_lat, max_lat, min_lon, max_lon)] = bounding_boxes(45.0, 10.0, 100)
    assert haversine_km(45, 10, max_lat, 10) == pytest.approx(100, abs=0.01)
    assert min_lat < 45 < max_lat and min_lon < 10 < max_lon
    assert haversine_km(45, 10, 45, max_lon) >= 99.9


def test_bounding_box_splits_at_the_antimeridian_and_covers_poles() -> None:
    boxes = bounding_boxes(0.0, 179.5, 200)
    assert len(boxes) == 2 and {b[3] for b in boxes} >= {180.0}
    assert bounding_boxes(89.5, 0.0, 200) == [(pytest.approx(87.7, abs=0.1), 90.0, -180.0, 180.0)]


@pytest.mark.parametrize(
    ("km", "category"),
    [
        (0, "direct_coastal"),
        (5, "direct_coastal"),
        (5.1, "coastal"),
        (15, "coastal"),
        (50, "near_coast"),
        (50.1, "inland"),
        (None, "inland"),
    ],
)
def test_coastal_category_thresholds(km: float | None, category: str) -> None:
    assert coastal_category(km) == category


def test_name_folding() -> None:
    assert fold("  São   Paulo ") == "sao paulo"
    assert exact_key("Kraków") == "kraków" and fold("Kraków") == "krakow"
    assert words('Saint-Étienne "x" OR *') == ["saint", "etienne", "x", "or"]
