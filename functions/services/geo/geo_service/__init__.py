"""geo: GeoNames countries, cities, admin regions, places and seas from a read-only SQLite file."""
