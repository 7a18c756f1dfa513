"""Finding and reading the tables of a Dr. Duke's CSV dump (a folder or the official zip).

The official files are latin-1, comma-separated with a header row; quoting varies by file and
some quoted fields span lines, so every file goes through the csv module. Empty strings stand for
missing values. Tables are found by file name (`FARMACY_NEW.csv`) at any depth, case-insensitively;
when several sources hold the same table, the last one given wins.
"""

from __future__ import annotations

import csv
import hashlib
import io
import zipfile
from contextlib import AbstractContextManager, contextmanager
from dataclasses import dataclass
from functools import partial
from pathlib import Path, PurePosixPath
from typing import IO, TYPE_CHECKING

from herbal_service.layout import TABLES

if TYPE_CHECKING:
    from collections.abc import Callable, Iterator

ENCODING = "latin-1"

REQUIRED_COLUMNS: dict[str, tuple[str, ...]] = {
    "FNFTAX": ("FNFNUM", "TAXON", "GENUS", "SPECIES", "FAMILY"),
    "COMMON_NAMES": ("CNNAM", "FNFNUM"),
    "CHEMICALS": ("CHEM",),
    "PARTS": ("PPCO", "PPNA"),
    "REFERENCES": ("REFERENCE", "LONGREF"),
    "ACTIVITIES": ("ACTIVITY",),
    "AGGREGAC": ("CHEM", "ACTIVITY"),
    "FARMACY_NEW": ("FNFNUM", "CHEM", "PPCO"),
    "FARMACY": ("FNFNUM", "CHEM", "PPCO"),
    "ETHNOBOT": ("ACTIVITY", "GENUS", "SPECIES"),
}
"""Columns the importer cannot do without; the others it reads when present."""


class DumpError(ValueError):
    """A dump the importer cannot read: the message names the file and what is wrong."""


@dataclass(frozen=True)
class TableFile:
    name: str
    where: str
    """Where it was found, for the build record (`Duke-Source-CSV.zip:Duke-Source-CSV/FNFTAX.csv`)."""
    open_bytes: Callable[[], AbstractContextManager[IO[bytes]]]

    def sha256(self) -> str:
        digest = hashlib.sha256()
        with self.open_bytes() as handle:
            for block in iter(lambda: handle.read(1 << 20), b""):
                digest.update(block)
        return digest.hexdigest()

    def rows(self) -> Iterator[dict[str, str]]:
        """Data rows as {COLUMN: value}, values stripped; refuses a file without the needed columns."""
        with self.open_bytes() as raw:
            text = io.TextIOWrapper(raw, encoding=ENCODING, newline="")
            reader = csv.reader(text)
            header = [h.strip().upper() for h in next(reader, [])]
            if missing := [c for c in REQUIRED_COLUMNS[self.name] if c not in header]:
                raise DumpError(f"{self.where}: missing column(s) {', '.join(missing)} (header: {','.join(header)})")
            width = len(header)
            for record in reader:
                if not any(field.strip() for field in record):
                    continue
                values = [field.strip() for field in record[:width]]
                yield dict(zip(header, values + [""] * (width - len(values)), strict=True))


def _table_name(filename: str) -> str | None:
    path = PurePosixPath(filename)
    if path.suffix.lower() != ".csv":
        return None
    name = path.stem.upper()
    return name if name in TABLES else None


def locate(sources: list[Path]) -> dict[str, TableFile]:
    """The dump tables in `sources` (folders and zip files), by table name."""
    found: dict[str, TableFile] = {}
    for source in sources:
        if source.is_dir():
            for path in sorted(source.rglob("*")):
                if path.is_file() and (name := _table_name(path.name)):
                    where = f"{source.name}/{path.relative_to(source).as_posix()}"
                    found[name] = TableFile(name, where, partial(_open_file, path))
        elif zipfile.is_zipfile(source):
            with zipfile.ZipFile(source) as archive:
                members = sorted(archive.namelist())
            for member in members:
                if name := _table_name(member):
                    found[name] = TableFile(name, f"{source.name}:{member}", partial(_zip_member, source, member))
        else:
            raise DumpError(f"{source}: neither a folder nor a zip file")
    return found


def _open_file(path: Path) -> IO[bytes]:
    return path.open("rb")


@contextmanager
def _zip_member(archive: Path, member: str) -> Iterator[IO[bytes]]:
    with zipfile.ZipFile(archive) as handle, handle.open(member) as stream:
        yield stream
