"""Lambda entry of the geo service (template: `geo_service.app.handler`)."""

from geo_service import admin, catalogue, cities, countries, places, search, spatial
from geo_service.settings import settings
from mcp_platform.runtime.service import ServiceApp

app = ServiceApp(
    "geo",
    {
        "geo_status": catalogue.status,
        "geo_resolve": search.resolve,
        "geo_get": search.get,
        "geo_text_search": search.text_search,
        "geo_semantic_search": search.semantic_search,
        "geo_country_get": countries.country_get,
        "geo_country_list": countries.country_list,
        "geo_country_neighbours": countries.neighbours,
        "geo_country_capital": countries.capital,
        "geo_admin1_list": admin.admin1_list,
        "geo_admin1_get": admin.admin1_get,
        "geo_admin2_list": admin.admin2_list,
        "geo_admin2_get": admin.admin2_get,
        "geo_cities_search": cities.cities_search,
        "geo_coastal_cities": cities.coastal_cities,
        "geo_region_cities": cities.region_cities,
        "geo_nearest_marine": cities.nearest_marine,
        "geo_marine_get": cities.marine_get,
        "geo_distance": spatial.distance,
        "geo_nearby": spatial.nearby,
        "geo_places_search": places.places_search,
        "geo_airport_lookup": places.airport_lookup,
        "geo_rank_places": places.rank_places,
        "geo_place_kinds": catalogue.place_kinds,
    },
    settings=settings(),
)

handler = app.lambda_handler
