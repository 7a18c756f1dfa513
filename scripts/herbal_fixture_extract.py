"""Cut tests/fixtures/herbal/dump/ out of a Dr. Duke's dump: real rows for a few herbs and chemicals.

    python scripts/herbal_fixture_extract.py --source ../shared/data/duke-phytochem

Keeps the FNFTAX and COMMON_NAMES rows of HERBS, the CHEMICALS and AGGREGAC rows of CHEMICALS
(the chemicals tests/fixtures/herbal/full-tables/ links to the herbs), the ACTIVITIES and
REFERENCES rows those AGGREGAC rows name, and all of PARTS. Rows are copied unchanged, re-quoted
in each file's own style (some files quote every field, the others only where needed).
"""

from __future__ import annotations

import argparse
import csv
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "tests" / "fixtures" / "herbal" / "dump"
HERBS = {"1", "54", "198", "283", "442", "450", "491", "691", "1042", "1078", "2081", "2082", "2083", "2084", "2085"}
"""Okra (no constituents), garlic, tea, grapefruit, ginkgo, licorice, St John's wort, ginseng, valerian,
ginger, and five oregano taxa (one species, several infraspecific names)."""
CHEMICALS = {
    "HYPERICIN", "HYPERFORIN", "QUERCETIN", "RUTIN", "GINKGOLIDE-B", "BILOBALIDE", "KAEMPFEROL", "GINSENOSIDES",
    "ADENOSINE", "GLYCYRRHIZIN", "GLABRIDIN", "LIQUIRITIN", "VALERENIC-ACID", "VALTRATE", "GINGEROL", "6-GINGEROL",
    "SHOGAOL", "ZINGERONE", "NARINGENIN", "BERGAPTEN", "CAFFEINE", "AJOENE", "ALLICIN", "DIALLYL-DISULFIDE",
    "CARVACROL", "THYMOL",
}  # fmt: skip
QUOTE_ALL = {"CHEMICALS", "COMMON_NAMES", "FNFTAX", "PARTS"}


def copy(source: Path, name: str, keep: object) -> list[dict[str, str]]:
    with (source / f"{name}.csv").open(encoding="latin-1", newline="") as handle:
        reader = csv.DictReader(handle)
        rows = [row for row in reader if keep(row)]  # type: ignore[operator]
        header = reader.fieldnames or []
    quoting = csv.QUOTE_ALL if name in QUOTE_ALL else csv.QUOTE_MINIMAL
    with (OUT / f"{name}.csv").open("w", encoding="latin-1", newline="") as out:
        out.write(",".join(header) + "\n")  # the dump's headers are never quoted
        csv.writer(out, quoting=quoting, lineterminator="\n").writerows([row[h] for h in header] for row in rows)
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--source", type=Path, required=True, help="Folder of the dump's CSV files.")
    args = parser.parse_args()
    OUT.mkdir(parents=True, exist_ok=True)
    copy(args.source, "FNFTAX", lambda r: r["FNFNUM"] in HERBS)
    copy(args.source, "COMMON_NAMES", lambda r: r["FNFNUM"] in HERBS)
    copy(args.source, "CHEMICALS", lambda r: r["CHEM"] in CHEMICALS)
    copy(args.source, "PARTS", lambda r: True)
    links = copy(args.source, "AGGREGAC", lambda r: r["CHEM"] in CHEMICALS)
    activities = {r["ACTIVITY"] for r in links}
    references = {r["REFERENCE"] for r in links} | {"1", "15"}
    copy(args.source, "ACTIVITIES", lambda r: r["ACTIVITY"] in activities)
    copy(args.source, "REFERENCES", lambda r: r["REFERENCE"] in references)


if __name__ == "__main__":
    main()
