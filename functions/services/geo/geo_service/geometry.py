"""Great-circle distance (haversine, R = 6371 km) and the bounding box that prefilters it."""

from __future__ import annotations

import math

EARTH_RADIUS_KM = 6371.0


def haversine_km(lat1: float, lon1: float, lat2: float, lon2: float) -> float:
    """Distance in km between two points given in degrees.

    Examples:
        >>> round(haversine_km(47.498, 19.040, 48.208, 16.372), 1)  # Budapest - Vienna
        214.5
    """
    p1, p2 = math.radians(lat1), math.radians(lat2)
    dp, dl = p2 - p1, math.radians(lon2 - lon1)
    h = math.sin(dp / 2) ** 2 + math.cos(p1) * math.cos(p2) * math.sin(dl / 2) ** 2
    return 2 * EARTH_RADIUS_KM * math.asin(min(1.0, math.sqrt(h)))


def bounding_boxes(lat: float, lon: float, radius_km: float) -> list[tuple[float, float, float, float]]:
    """(min_lat, max_lat, min_lon, max_lon) boxes that contain every point within `radius_km`.

    Near a pole the box spans all longitudes; across the antimeridian it splits in two.
    """
    dlat = math.degrees(radius_km / EARTH_RADIUS_KM)
    min_lat, max_lat = max(-90.0, lat - dlat), min(90.0, lat + dlat)
    if min_lat <= -90.0 or max_lat >= 90.0:
        return [(min_lat, max_lat, -180.0, 180.0)]
    # Widest longitude span of the circle (at the latitude where it is tangent to a meridian).
    ratio = math.sin(radius_km / EARTH_RADIUS_KM) / math.cos(math.radians(lat))
    if ratio >= 1.0:
        return [(min_lat, max_lat, -180.0, 180.0)]
    dlon = math.degrees(math.asin(ratio))
    lo, hi = lon - dlon, lon + dlon
    if lo < -180.0:
        return [(min_lat, max_lat, lo + 360.0, 180.0), (min_lat, max_lat, -180.0, hi)]
    if hi > 180.0:
        return [(min_lat, max_lat, lo, 180.0), (min_lat, max_lat, -180.0, hi - 360.0)]
    return [(min_lat, max_lat, lo, hi)]
