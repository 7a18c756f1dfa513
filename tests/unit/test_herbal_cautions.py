"""Which Dr. Duke's activity names count as interaction cautions (herbal_service.cautions)."""

from __future__ import annotations

import pytest

from herbal_service.cautions import CAUTIONS, caution_of


@pytest.mark.parametrize(
    ("activity", "caution"),
    [
        ("Anticoagulant", "bleeding"),
        ("Antiaggregant", "bleeding"),
        ("MAO-Inhibitor", "mao_inhibition"),
        ("MAO-B-Inhibitor", "mao_inhibition"),
        ("Cytochrome-P450-2E1-Inhibitor", "cyp_inhibition"),
        ("CYP1A1-Inhibitor", "cyp_inhibition"),
        ("Inhibit Cytochrome P-450 Activity", "cyp_inhibition"),
        ("P450-Inducer", "cyp_induction"),
        ("Cytochrome-P488-Inducer", "cyp_induction"),
        ("Estrogenic?", "hormonal"),
        ("hypoglycemic", "blood_sugar"),
        ("Hypertensive", "blood_pressure_high"),
        ("Hypotensive", "blood_pressure_low"),
        ("CNS-Depressant", "sedation"),
        ("Hepatotoxic", "organ_toxicity"),
    ],
)
def test_interaction_activities_map_to_their_caution(activity: str, caution: str) -> None:
    found = caution_of(activity)
    assert found is not None and found.name == caution


@pytest.mark.parametrize(
    "activity", ["Antioxidant", "Antiviral", "Abortifacient", "Antihypertensive-Synergist", "Pesticide"]
)
def test_activities_that_are_not_interactions_are_left_out(activity: str) -> None:
    assert caution_of(activity) is None


def test_every_caution_says_what_and_for_which_drugs() -> None:
    assert len({c.name for c in CAUTIONS}) == len(CAUTIONS)
    for caution in CAUTIONS:
        assert caution.concern and caution.drugs and (caution.keys or caution.pattern)
