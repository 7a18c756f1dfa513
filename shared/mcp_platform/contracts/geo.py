"""geo: GeoNames countries, cities, admin regions, places and seas on a read-only SQLite database (free).

Names, inputs, defaults, bounds and output shapes follow SERVICES.md (recovered from the public
platform's geo service, so agents written for it keep working). Every "not found" is an error
result, never an empty success.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal, get_args

from pydantic import BaseModel, Field, StringConstraints, model_validator

from mcp_platform.catalogue.registry import ToolInput, ToolSpec
from mcp_platform.contracts._common import status_output_schema, status_tool

EntityType = Literal["country", "city", "place", "admin1", "admin2", "marine"]
PlaceKind = Literal[
    "hill", "mountain", "peak", "volcano", "lake", "lakes", "reservoir", "waterfall", "island", "islands",
    "atoll", "airport", "heliport", "park", "nature_reserve", "wildlife_reserve", "pass", "ruin", "castle",
    "museum", "monument", "oilfield",
]  # fmt: skip
CoastalCategory = Literal["direct_coastal", "coastal", "near_coast", "inland"]
ContinentCode = Literal["AF", "AN", "AS", "EU", "NA", "OC", "SA"]

ENTITY_TYPES: list[str] = list(get_args(EntityType))
PLACE_KINDS: list[str] = list(get_args(PlaceKind))
COASTAL_CATEGORIES: list[str] = list(get_args(CoastalCategory))

CountryCode = Annotated[str, StringConstraints(strip_whitespace=True, to_upper=True, pattern=r"^[A-Za-z]{2}$")]
Admin1Short = Annotated[str, StringConstraints(strip_whitespace=True, pattern=r"^[A-Za-z0-9]{1,20}$")]
Query = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=200)]
GeonameId = Annotated[int, Field(ge=1, description="GeoNames id (from geo_resolve or any result).")]

_CC = "ISO 3166-1 alpha-2 country code, e.g. IT."
_A1 = "Admin1 short code within country_code, e.g. 03 (IT.03) or CA (US.CA); geo_admin1_list lists them."


def _limit(default: int, maximum: int = 50) -> Any:
    return Field(default=default, ge=1, le=maximum, description=f"Most results to return (1-{maximum}).")


def _one_of(model: BaseModel, *groups: tuple[str, ...]) -> None:
    """Exactly one group of fields must be fully given; names the fields otherwise."""
    given = [g for g in groups if any(getattr(model, f) is not None for f in g)]
    names = " or ".join("+".join(g) for g in groups)
    if len(given) != 1:
        raise ValueError(f"give exactly one of {names}")
    missing = [f for f in given[0] if getattr(model, f) is None]
    if missing:
        raise ValueError(f"{'+'.join(given[0])} go together; missing {', '.join(missing)}")


def _min_max(model: Any) -> None:
    low, high = model.min_population, model.max_population
    if low is not None and high is not None and low > high:
        raise ValueError("min_population must not exceed max_population")


class NoArgs(ToolInput):
    pass


class ResolveInput(ToolInput):
    query: Query = Field(description="A name (any language GeoNames knows), ISO2/ISO3 country code or IATA code.")
    entity_type: EntityType | None = Field(default=None, description="Only this kind of entity.")
    country_code: CountryCode | None = Field(default=None, description=_CC)
    place_kind: PlaceKind | None = Field(default=None, description="Only places of this kind.")
    limit: int = _limit(10)


class GetInput(ToolInput):
    geoname_id: GeonameId


class SearchInput(ToolInput):
    query: Query = Field(description="Words to match against names (typos are tolerated).")
    entity_type: EntityType | None = Field(default=None, description="Only this kind of entity.")
    limit: int = _limit(20)


class CountryGetInput(ToolInput):
    iso2: CountryCode | None = Field(default=None, description=_CC)
    geoname_id: GeonameId | None = None

    @model_validator(mode="after")
    def _exactly_one(self) -> CountryGetInput:
        _one_of(self, ("iso2",), ("geoname_id",))
        return self


class CountryListInput(ToolInput):
    continent_code: ContinentCode | None = Field(default=None, description="Only countries on this continent.")
    limit: int = _limit(50, 252)


class CountryInput(ToolInput):
    iso2: CountryCode = Field(description=_CC)


class Admin1ListInput(ToolInput):
    country_code: CountryCode = Field(description=_CC)
    limit: int = _limit(50, 100)


AdminCode = Annotated[str, StringConstraints(strip_whitespace=True, pattern=r"^[A-Za-z]{2}(\.[A-Za-z0-9]+){1,2}$")]


class AdminGetInput(ToolInput):
    admin_code: AdminCode | None = Field(
        default=None, description="Full admin code: CC.A1 for admin1 (e.g. IT.03), CC.A1.A2 for admin2."
    )  # fmt: skip
    geoname_id: GeonameId | None = None

    @model_validator(mode="after")
    def _exactly_one(self) -> AdminGetInput:
        _one_of(self, ("admin_code",), ("geoname_id",))
        return self


class Admin2ListInput(ToolInput):
    country_code: CountryCode = Field(description=_CC)
    admin1_code: Admin1Short | None = Field(default=None, description=_A1)
    limit: int = _limit(50, 100)


class CitiesSearchInput(ToolInput):
    country_code: CountryCode | None = Field(default=None, description=_CC)
    admin1_code: Admin1Short | None = Field(default=None, description=_A1 + " Needs country_code.")
    min_population: int | None = Field(default=None, ge=0, description="Smallest population.")
    max_population: int | None = Field(default=None, ge=0, description="Largest population.")
    coastal_category: CoastalCategory | None = Field(
        default=None, description="direct_coastal (<=5 km from the sea), coastal (<=15), near_coast (<=50), inland."
    )
    max_distance_to_coast_km: float | None = Field(default=None, ge=0, le=20000, description="Sea within this many km.")
    is_capital: bool | None = Field(default=None, description="true: only national capitals; false: exclude them.")
    query: Query | None = Field(default=None, description="Name contains these words.")
    limit: int = _limit(20)

    @model_validator(mode="after")
    def _check(self) -> CitiesSearchInput:
        _min_max(self)
        if self.admin1_code is not None and self.country_code is None:
            raise ValueError("admin1_code needs country_code")
        return self


class CoastalCitiesInput(ToolInput):
    country_code: CountryCode = Field(description=_CC)
    admin1_code: Admin1Short | None = Field(default=None, description=_A1)
    max_distance_to_coast_km: float = Field(
        default=5, ge=0, le=20000, description="Sea within this many km (ignored when only coastal_category is given)."
    )
    coastal_category: CoastalCategory | None = Field(default=None, description="Only cities of this coastal category.")
    max_population: int | None = Field(default=None, ge=0, description="Largest population.")
    limit: int = _limit(20)


class RegionCitiesInput(ToolInput):
    country_code: CountryCode = Field(description=_CC)
    admin1_code: Admin1Short = Field(description=_A1)
    min_population: int | None = Field(default=None, ge=0, description="Smallest population.")
    max_population: int | None = Field(default=None, ge=0, description="Largest population.")
    limit: int = _limit(20)

    @model_validator(mode="after")
    def _check(self) -> RegionCitiesInput:
        _min_max(self)
        return self


class NearestMarineInput(ToolInput):
    geoname_id: GeonameId | None = None
    city_query: Query | None = Field(default=None, description="City name, resolved to the best-matching city.")

    @model_validator(mode="after")
    def _exactly_one(self) -> NearestMarineInput:
        _one_of(self, ("geoname_id",), ("city_query",))
        return self


class MarineGetInput(ToolInput):
    geoname_id: GeonameId | None = None
    query: Query | None = Field(default=None, description="Sea, bay or gulf name, e.g. Adriatic Sea.")

    @model_validator(mode="after")
    def _exactly_one(self) -> MarineGetInput:
        _one_of(self, ("geoname_id",), ("query",))
        return self


class DistanceInput(ToolInput):
    from_id: GeonameId | None = None
    from_query: Query | None = Field(default=None, description="Start as a name or code (resolved like geo_resolve).")
    to_id: GeonameId | None = None
    to_query: Query | None = Field(default=None, description="End as a name or code (resolved like geo_resolve).")

    @model_validator(mode="after")
    def _ends(self) -> DistanceInput:
        for end in ("from", "to"):
            if (getattr(self, f"{end}_id") is None) == (getattr(self, f"{end}_query") is None):
                raise ValueError(f"give exactly one of {end}_id or {end}_query")
        return self


class NearbyInput(ToolInput):
    center_id: GeonameId | None = None
    center_query: Query | None = Field(default=None, description="Centre as a name or code.")
    latitude: float | None = Field(default=None, ge=-90, le=90, description="Centre latitude (with longitude).")
    longitude: float | None = Field(default=None, ge=-180, le=180, description="Centre longitude (with latitude).")
    radius_km: float = Field(default=30, ge=0.1, le=500, description="Search radius in km (0.1-500).")
    entity_type: EntityType | None = Field(default=None, description="Only this kind of entity.")
    place_kind: PlaceKind | None = Field(default=None, description="Only places of this kind.")
    limit: int = _limit(20)

    @model_validator(mode="after")
    def _exactly_one(self) -> NearbyInput:
        _one_of(self, ("center_id",), ("center_query",), ("latitude", "longitude"))
        return self


class PlacesSearchInput(ToolInput):
    place_kind: PlaceKind | None = Field(default=None, description="Only places of this kind.")
    country_code: CountryCode | None = Field(default=None, description=_CC)
    query: Query | None = Field(default=None, description="Name contains these words.")
    min_elevation: float | None = Field(default=None, ge=-500, le=9000, description="Lowest elevation in metres.")
    limit: int = _limit(20)


class AirportLookupInput(ToolInput):
    iata: (
        Annotated[str, StringConstraints(strip_whitespace=True, to_upper=True, pattern=r"^[A-Za-z0-9]{3}$")] | None
    ) = Field(default=None, description="3-letter IATA code, e.g. BUD.")
    icao: (
        Annotated[str, StringConstraints(strip_whitespace=True, to_upper=True, pattern=r"^[A-Za-z0-9]{4}$")] | None
    ) = Field(default=None, description="4-letter ICAO code, e.g. LHBP.")
    query: Query | None = Field(default=None, description="Airport name contains these words.")
    country_code: CountryCode | None = Field(default=None, description=_CC)
    near_query: Query | None = Field(default=None, description="Airports around this place (a name or code).")
    radius_km: float = Field(default=50, ge=0.1, le=500, description="Radius for near_query in km (0.1-500).")
    limit: int = _limit(10)

    @model_validator(mode="after")
    def _some_filter(self) -> AirportLookupInput:
        if all(v is None for v in (self.iata, self.icao, self.query, self.country_code, self.near_query)):
            raise ValueError("give iata, icao, query, country_code or near_query")
        return self


class RankPlacesInput(ToolInput):
    place_kind: PlaceKind = Field(description="Kind of place to rank, e.g. peak.")
    country_code: CountryCode | None = Field(default=None, description=_CC)
    limit: int = _limit(10)


# ------------------------------------------------------------------ output schemas
_STR = {"type": "string"}
_NUM = {"type": "number"}
_INT = {"type": "integer"}
_ENTITY_PROPS: dict[str, Any] = {
    "geoname_id": _INT,
    "entity_type": {"type": "string", "enum": ENTITY_TYPES},
    "name": _STR,
    "ascii_name": _STR,
    "iso2": _STR,
    "iso3": _STR,
    "country_code": _STR,
    "place_kind": {"type": "string", "enum": PLACE_KINDS},
    "feature_code": _STR,
    "admin_code": _STR,
    "population": _INT,
    "latitude": _NUM,
    "longitude": _NUM,
    "payload": {"type": "object"},
}


def _obj(props: dict[str, Any], required: list[str]) -> dict[str, Any]:
    return {"type": "object", "properties": props, "required": required, "additionalProperties": False}


def _entity(**extra: Any) -> dict[str, Any]:
    return _obj({**_ENTITY_PROPS, **extra}, ["geoname_id", "entity_type", "name"])


ENTITY = _entity()
_REF = _obj({"geoname_id": _INT, "name": _STR, "iso2": _STR, "iso3": _STR}, ["geoname_id", "name"])
_POINT = _obj(
    {
        "geoname_id": _INT,
        "name": _STR,
        "entity_type": {"type": "string", "enum": ENTITY_TYPES},
        "latitude": _NUM,
        "longitude": _NUM,
        "coords_from": {"type": "string", "enum": ["self", "capital", "input"]},
    },
    ["latitude", "longitude", "coords_from"],
)


def _list(item: dict[str, Any] = ENTITY, **head: Any) -> dict[str, Any]:
    props = {**head, "count": _INT, "results": {"type": "array", "items": item}}
    return _obj(props, [*head, "count", "results"])


_NEARBY = _list(_entity(distance_km=_NUM), center=_POINT, radius_km=_NUM)
_NOTE = {"type": "string", "description": "Why the answer has the shape it has (e.g. a fallback)."}

STATUS_OUT = status_output_schema(
    {
        "read_only": {"type": "boolean"},
        "counts": {"type": "object", "additionalProperties": _INT},
        "place_kinds": {"type": "array", "items": _STR},
        "place_kind_counts": {"type": "object", "additionalProperties": _INT},
        "data_version": _STR,
        "built_at": _STR,
        "sources": {"type": "array", "items": _STR},
        "has_vectors": {"type": "boolean"},
    },
    required=["read_only", "counts", "place_kinds", "data_version"],
)
_CITY_REF = _obj(
    {"geoname_id": _INT, "name": _STR, "country_code": _STR, "latitude": _NUM, "longitude": _NUM},
    ["geoname_id", "name"],
)


def _tool(name: str, title: str, description: str, model: type[BaseModel], out: dict[str, Any]) -> ToolSpec:
    return ToolSpec(
        name=name,
        service="geo",
        title=title,
        description=description + " Free.",
        input_model=model,
        output_schema=out,
    )


TOOLS = [
    status_tool("geo", title="Geo status", description="Health of the geo database: row counts per entity_type and "
                "place_kind, data version and build time. Use it to check what data is loaded. Free.",
                output_schema=STATUS_OUT),
    _tool("geo_resolve", "Resolve a place name", "Turn a name, ISO2/ISO3 country code or IATA airport code into "
          "GeoNames entities, best match first (2 letters: country by ISO2; 3 letters: airport by IATA, else "
          "country by ISO3; otherwise exact name, English name, ASCII name, then prefix and fuzzy matches; cities "
          "before places before countries; larger population first). Start here to get a geoname_id.",
          ResolveInput, _list(query=_STR)),
    _tool("geo_get", "Get an entity", "Full profile of one entity by geoname_id (all columns and the complete "
          "payload: alternate names, admin names, coastal fields, codes).", GetInput,
          _obj({"entity": ENTITY}, ["entity"])),
    _tool("geo_text_search", "Fuzzy name search", "Fuzzy full-text search over names and alternate names; "
          "tolerates typos. Each result has a similarity in 0-1.", SearchInput,
          _list(_entity(similarity=_NUM))),
    _tool("geo_semantic_search", "Similar entities", "Entities most similar to the best match of the query, by "
          "the stored vectors (name character n-grams, kind, size, location). mode is vector_neighbours, or "
          "text_fallback (with a note) when no vectors are stored.", SearchInput,
          _obj({"mode": {"type": "string", "enum": ["vector_neighbours", "text_fallback"]}, "anchor": ENTITY,
                "note": _NOTE, "count": _INT, "results": {"type": "array", "items": _entity(distance=_NUM,
                                                                                              similarity=_NUM)}},
               ["mode", "count", "results"])),
    _tool("geo_country_get", "Get a country", "Country facts by ISO2 or geoname_id: capital, continent, "
          "currency, languages, neighbours, area, population.", CountryGetInput,
          _obj({"country": ENTITY}, ["country"])),
    _tool("geo_country_list", "List countries", "The countries of the world, or of one continent "
          "(AF Africa, AN Antarctica, AS Asia, EU Europe, NA North America, OC Oceania, SA South America), "
          "by name.", CountryListInput, _list()),
    _tool("geo_country_neighbours", "Country neighbours", "Countries sharing a land border with a country.",
          CountryInput, _obj({"country": _REF, "neighbours": {"type": "array", "items": ENTITY}, "note": _NOTE},
                             ["country", "neighbours"])),
    _tool("geo_country_capital", "Country capital", "The capital city of a country, as a full city entity.",
          CountryInput, _obj({"country": _REF, "capital_name": _STR, "capital": ENTITY},
                             ["country", "capital_name", "capital"])),
    _tool("geo_admin1_list", "List admin1 regions", "First-level regions of a country (states, regions, "
          "provinces) with their admin codes CC.A1.", Admin1ListInput, _list()),
    _tool("geo_admin1_get", "Get an admin1 region", "One first-level region by admin code (e.g. IT.03) or "
          "geoname_id.", AdminGetInput, _obj({"admin1": ENTITY}, ["admin1"])),
    _tool("geo_admin2_list", "List admin2 regions", "Second-level regions (provinces, counties) of a country, "
          "optionally within one admin1 region.", Admin2ListInput, _list()),
    _tool("geo_admin2_get", "Get an admin2 region", "One second-level region by admin code (CC.A1.A2) or "
          "geoname_id.", AdminGetInput, _obj({"admin2": ENTITY}, ["admin2"])),
    _tool("geo_cities_search", "Search cities", "Cities filtered by country, admin1 region, population, coastal "
          "category, distance to the sea, capital status and name; largest population first.",
          CitiesSearchInput, _list()),
    _tool("geo_coastal_cities", "Coastal cities", "Cities of a country near the sea: within "
          "max_distance_to_coast_km (default 5) or of a coastal_category; largest population first.",
          CoastalCitiesInput, _list()),
    _tool("geo_region_cities", "Cities of a region", "Cities of one admin1 region, largest population first.",
          RegionCitiesInput, _list(country_code=_STR, admin1_code=_STR)),
    _tool("geo_nearest_marine", "Nearest sea", "The sea, bay or gulf nearest to a city, with the city's "
          "distance to the coast and coastal category (precomputed).", NearestMarineInput,
          _obj({"city": _CITY_REF, "nearest_marine_name": _STR, "nearest_marine_distance_km": _NUM,
                "distance_to_coast_km": _NUM, "coastal_category": {"type": "string", "enum": COASTAL_CATEGORIES},
                "marine": ENTITY}, ["city", "nearest_marine_name", "nearest_marine_distance_km", "marine"])),
    _tool("geo_marine_get", "Get a sea", "A marine feature (sea, bay, gulf, strait, ocean) by geoname_id or "
          "name.", MarineGetInput, _obj({"marine": ENTITY}, ["marine"])),
    _tool("geo_distance", "Distance", "Great-circle (haversine, R = 6371 km) distance between two entities "
          "given by id or name; countries are measured from their capital.", DistanceInput,
          _obj({"distance_km": _NUM, "from": _POINT, "to": _POINT}, ["distance_km", "from", "to"])),
    _tool("geo_nearby", "Nearby", "Entities within radius_km of a centre (an id, a name or coordinates), "
          "nearest first, with distance_km; optional entity_type and place_kind filters.", NearbyInput, _NEARBY),
    _tool("geo_places_search", "Search places", "Places (peaks, lakes, airports, parks, ...) by kind, country, "
          "name and minimum elevation; highest first.", PlacesSearchInput, _list()),
    _tool("geo_airport_lookup", "Airport lookup", "Airports by IATA or ICAO code, name or country, or around a "
          "place (near_query: nearest first with distance_km).", AirportLookupInput,
          {"anyOf": [_obj({"results": {"type": "array", "items": ENTITY}}, ["results"]), _NEARBY],
           "type": "object"}),
    _tool("geo_rank_places", "Rank places", "Places of one kind ranked by elevation (e.g. the highest peaks), "
          "optionally within a country.", RankPlacesInput, _list(place_kind=_STR)),
    _tool("geo_place_kinds", "Place kinds", "The entity_type and place_kind values the other tools accept.",
          NoArgs, _obj({"entity_types": {"type": "array", "items": _STR},
                        "place_kinds": {"type": "array", "items": _STR}}, ["entity_types", "place_kinds"])),
]  # fmt: skip
