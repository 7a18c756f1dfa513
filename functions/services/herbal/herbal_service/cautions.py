"""Which of Dr. Duke's activities matter for herb-drug interactions, grouped into cautions.

The list follows the mechanisms behind the herb-drug interactions that reviews and drug
references document most (e.g. St John's wort inducing CYP3A4 and P-glycoprotein; ginkgo, garlic
and ginger adding to anticoagulants; liquorice lowering potassium): effects that add to or oppose
a drug's action (bleeding, blood sugar, blood pressure, sedation, heart rhythm, hormones,
immunity, cholinergic tone) and effects on how drugs are cleared (cytochrome P450 inhibition or
induction), plus additive liver and kidney toxicity. Activities that are only therapeutic claims
(antiviral, anticancer, antioxidant) or about pregnancy (abortifacient) are not interactions and
are left out. Names are Dr. Duke's activity names; a trailing "?" (a doubtful report) still
matches, and the finding shows it. P450 activities are matched by pattern, since the dump names
them many ways (P450-Inhibitor, CYP1A1-Inhibitor, Cytochrome-P450-2E1-Inhibitor, ...).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from herbal_service.text import fold


@dataclass(frozen=True)
class Caution:
    name: str
    concern: str
    drugs: str
    activities: tuple[str, ...] = ()
    pattern: str | None = None
    keys: frozenset[str] = field(init=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "keys", frozenset(fold(a) for a in self.activities))

    def matches(self, activity: str) -> bool:
        if fold(activity).rstrip("?").strip() in self.keys:
            return True
        return self.pattern is not None and re.search(self.pattern, activity, re.IGNORECASE) is not None


CAUTIONS: tuple[Caution, ...] = (
    Caution("bleeding", "May add to the effect of blood thinners and raise bleeding risk.",
            "anticoagulants (warfarin, heparins, DOACs), antiplatelets (aspirin, clopidogrel), NSAIDs",
            ("Anticoagulant", "Antiaggregant", "Antiplatelet", "Antithrombotic", "Antithrombic", "Fibrinolytic",
             "Thrombolytic", "Antithromboxane", "Antithromboxane-B2", "Tissue-Thromboplastin-Inhibitor",
             "Antithrombogenic", "Anticerebrothrombotic")),
    Caution("clotting", "May promote clotting and oppose blood thinners.", "anticoagulants, antiplatelets",
            ("Coagulant", "Antifibrinolytic", "Prothrombogenic", "Thrombogenic", "Aggregant")),
    Caution("mao_inhibition", "Monoamine-oxidase inhibition: risk of hypertensive crisis or serotonin syndrome.",
            "SSRIs/SNRIs, tricyclics, triptans, sympathomimetics (decongestants), pethidine, tyramine-rich food",
            ("MAO-Inhibitor", "MAO-A-Inhibitor", "MAO-B-Inhibitor")),
    Caution("serotonergic", "Serotonergic activity: risk of serotonin syndrome.",
            "SSRIs/SNRIs, triptans, tramadol, MAO inhibitors",
            ("Serotoninergic", "Serotonin-Agonist", "Selective-Serotonin-Reuptake-Inhibitor")),
    Caution("cyp_inhibition", "Cytochrome P450 inhibition: may raise blood levels of drugs the liver clears.",
            "drugs with a narrow margin cleared by P450: ciclosporin, tacrolimus, warfarin, some statins, "
            "antiretrovirals", pattern=r"(CYP|P-?450|P488|Cytochrome).*Inhibit|Inhibit.*(CYP|P-?450|Cytochrome)"),
    Caution("cyp_induction", "Cytochrome P450 induction: may lower blood levels and effect of drugs the liver "
            "clears (as St John's wort does).",
            "hormonal contraceptives, ciclosporin, warfarin, digoxin, antiretrovirals, many others",
            pattern=r"(CYP|P-?450|P488|Cytochrome).*Induc"),
    Caution("blood_sugar", "May lower blood sugar, adding to antidiabetic drugs.", "insulin, sulfonylureas, other "
            "antidiabetics", ("Hypoglycemic", "Antidiabetic", "Insulinogenic", "Insulin-Sparing", "Insulinotonic",
                              "Insulinic", "Antihyperinsulinemic")),
    Caution("blood_pressure_low", "May lower blood pressure, adding to antihypertensives.",
            "antihypertensives, nitrates, PDE5 inhibitors", ("Hypotensive", "Antihypertensive")),
    Caution("blood_pressure_high", "May raise blood pressure, opposing antihypertensives.",
            "antihypertensives, MAO inhibitors, stimulants", ("Hypertensive", "Sympathomimetic", "Adrenergic")),
    Caution("sedation", "Sedative or CNS-depressant: adds to other sedating drugs.",
            "benzodiazepines, opioids, antihistamines, hypnotics, alcohol",
            ("Sedative", "CNS-Sedative", "CNS-Depressant", "Hypnotic", "Tranquilizer", "Narcotic", "Neurosedative",
             "GABA-nergic", "Anxiolytic")),
    Caution("heart", "Acts on heart rate, rhythm or contraction (cardiac glycoside-like effects).",
            "digoxin, antiarrhythmics, beta blockers, QT-prolonging drugs",
            ("Cardiotonic", "Myocardiotonic", "Arrhythmigenic", "Antiarrhythmic", "Cardiodepressant",
             "Beta-Adrenergic Receptor Blocker")),
    Caution("potassium_fluid", "Fluid or potassium loss: raises digoxin and lithium toxicity, adds to diuretics.",
            "digoxin, lithium, diuretics, corticosteroids",
            ("Diuretic", "Hypokalemic", "Laxative", "Purgative", "Potassium-Sparing")),
    Caution("hormonal", "Estrogen-like or anti-estrogen activity.",
            "hormonal contraceptives, hormone replacement, tamoxifen, aromatase inhibitors",
            ("Estrogenic", "Antiestrogenic", "Estrogen-Agonist", "Amphiestrogenic", "Aromatase-Inhibitor")),
    Caution("immune", "Acts on the immune system, for or against immunosuppressive treatment.",
            "ciclosporin, tacrolimus, corticosteroids, other immunosuppressants",
            ("Immunosuppressant", "Immunostimulant")),
    Caution("cholinergic", "Cholinergic or anticholinergic: adds to or opposes drugs acting on acetylcholine.",
            "donepezil and other cholinesterase inhibitors, anticholinergics, neuromuscular blockers",
            ("Anticholinesterase", "Cholinergic", "Anticholinergic", "Parasympathomimetic")),
    Caution("organ_toxicity", "Reported liver or kidney toxicity: adds to drugs with the same burden.",
            "paracetamol, methotrexate, isoniazid, NSAIDs, aminoglycosides", ("Hepatotoxic", "Nephrotoxic")),
)  # fmt: skip


def caution_of(activity: str) -> Caution | None:
    """The first caution an activity belongs to (each activity counts once), or None."""
    return next((c for c in CAUTIONS if c.matches(activity)), None)
