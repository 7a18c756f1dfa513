"""Parsers for the GeoNames dump formats (tab-separated, UTF-8, `#` comments in countryInfo).

Only the columns the service uses are kept. Each parser streams, so allCountries (12 M rows)
never has to fit in memory.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Iterator
    from pathlib import Path

GEONAME_COLUMNS = 19
"""geonameid name asciiname alternatenames lat lon fclass fcode cc cc2 a1 a2 a3 a4 pop elev dem tz mdate."""


@dataclass
class Geoname:
    """One row of allCountries / citiesNNN / any feature extract."""

    geoname_id: int
    name: str
    ascii_name: str
    alternate_names: list[str]
    latitude: float
    longitude: float
    feature: str
    """`class.code`, e.g. `P.PPLC`."""
    country_code: str
    admin1: str
    admin2: str
    population: int
    elevation: int | None
    dem: int | None
    timezone: str
    modified: str


@dataclass
class CountryInfo:
    iso2: str
    iso3: str
    iso_numeric: str
    fips: str
    name: str
    capital: str
    area_km2: float | None
    population: int
    continent_code: str
    tld: str
    currency_code: str
    currency_name: str
    phone: str
    postal_code_format: str
    postal_code_regex: str
    languages: list[str]
    geoname_id: int
    neighbours: list[str]


@dataclass
class AdminCode:
    code: str
    """Full code: `CC.A1` (admin1) or `CC.A1.A2` (admin2)."""
    name: str
    ascii_name: str
    geoname_id: int


@dataclass
class AltNames:
    """What the alternate-names dump says about one geonameid."""

    english: str | None = None
    english_preferred: bool = False
    iata: str | None = None
    icao: str | None = None
    others: list[str] = field(default_factory=list)


# isolanguage values that are codes or links, not names a person would type.
_NOT_NAMES = frozenset({"link", "wkdt", "post", "unlc", "faac", "tcid", "fr_1793", "abbr"})


def _rows(path: Path, min_columns: int) -> Iterator[list[str]]:
    with path.open(encoding="utf-8") as handle:
        for lineno, line in enumerate(handle, 1):
            if not line.strip() or line.startswith("#"):
                continue
            cols = line.rstrip("\n").split("\t")
            if len(cols) < min_columns:
                raise ValueError(f"{path}:{lineno}: expected {min_columns} tab-separated columns, got {len(cols)}")
            yield cols


def _int(text: str) -> int | None:
    return int(text) if text.strip() else None


def read_geonames(path: Path) -> Iterator[Geoname]:
    for c in _rows(path, GEONAME_COLUMNS):
        yield Geoname(
            geoname_id=int(c[0]),
            name=c[1],
            ascii_name=c[2] or c[1],
            alternate_names=[n for n in c[3].split(",") if n],
            latitude=float(c[4]),
            longitude=float(c[5]),
            feature=f"{c[6]}.{c[7]}",
            country_code=c[8],
            admin1=c[10],
            admin2=c[11],
            population=_int(c[14]) or 0,
            elevation=_int(c[15]),
            dem=_int(c[16]),
            timezone=c[17],
            modified=c[18],
        )


def read_country_info(path: Path) -> Iterator[CountryInfo]:
    for c in _rows(path, 18):
        yield CountryInfo(
            iso2=c[0],
            iso3=c[1],
            iso_numeric=c[2],
            fips=c[3],
            name=c[4],
            capital=c[5],
            area_km2=float(c[6]) if c[6] else None,
            population=_int(c[7]) or 0,
            continent_code=c[8],
            tld=c[9],
            currency_code=c[10],
            currency_name=c[11],
            phone=c[12],
            postal_code_format=c[13],
            postal_code_regex=c[14],
            languages=[x for x in c[15].split(",") if x],
            geoname_id=int(c[16]),
            neighbours=[x for x in c[17].split(",") if x],
        )


def read_admin_codes(path: Path) -> Iterator[AdminCode]:
    """admin1CodesASCII.txt and admin2Codes.txt share one layout."""
    for c in _rows(path, 4):
        yield AdminCode(code=c[0], name=c[1], ascii_name=c[2] or c[1], geoname_id=int(c[3]))


def read_alternate_names(path: Path, into: dict[int, AltNames]) -> None:
    """Fold alternateNames(V2).txt into `into`: English name, IATA, ICAO and the other names.

    English: a preferred `en` name wins over the first `en` name seen; historic names are skipped.
    """
    for c in _rows(path, 8):
        gid, lang, name = int(c[1]), c[2], c[3]
        is_preferred, is_historic = c[4] == "1", c[7] == "1"
        if not name or lang in _NOT_NAMES or is_historic:
            continue
        entry = into.setdefault(gid, AltNames())
        if lang == "iata":
            entry.iata = entry.iata or name.upper()
        elif lang == "icao":
            entry.icao = entry.icao or name.upper()
        elif lang == "en" and (entry.english is None or (is_preferred and not entry.english_preferred)):
            entry.english, entry.english_preferred = name, is_preferred
        else:
            entry.others.append(name)
