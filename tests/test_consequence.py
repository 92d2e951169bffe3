"""The consequence of an erratum is derived from the statements it names (sparseact.publish.statements.consequence)."""

import pytest

from sparseact.paper import statements as paper_statements
from sparseact.publish.statements import CONSEQUENCES, consequence

ENTRIES = {
    "thm": {"id": "thm", "kind": "theorem", "paper_ref": "Theorem 1"},
    "thm-sharp": {"id": "thm-sharp", "kind": "derived", "paper_ref": "Theorem 1 (ours)", "sharper": {"than": "thm"}},
    "gap": {
        "id": "gap",
        "kind": "proof-step",
        "paper_ref": "Theorem 1 (proof, step)",
        "proof_of": "thm",
        "correction": {"text": "x", "verified_by": ["thm-sharp"]},
    },
    "slip": {
        "id": "slip",
        "kind": "proof-step",
        "paper_ref": "Theorem 1 (proof, other step)",
        "proof_of": "thm",
        "correction": {"text": "x", "verified_by": ["thm/check"]},
    },
    "conj": {"id": "conj", "kind": "conjecture", "paper_ref": "Conjecture 2"},
    "intro": {"id": "intro", "kind": "introduction", "paper_ref": "Section 1"},
}


@pytest.mark.parametrize(
    ("finding", "named", "level"),
    [
        ("statement-error", ["thm"], "result-false"),
        ("proof-slip", ["gap"], "proof-gap"),
        ("proof-slip", ["slip"], "step"),
        ("typo", ["slip"], "typo"),
        ("typo", ["thm"], "typo"),
        ("constant-factor", ["conj"], "conjecture-remark"),
        ("proof-slip", ["slip", "thm"], "result-false"),
        ("statement-error", ["intro"], "informal"),
        ("statement-error", ["intro", "thm"], "result-false"),
    ],
)
def test_consequence_levels(finding, named, level):
    assert consequence(finding, named, ENTRIES)[0] == level
    assert level in CONSEQUENCES


def test_proof_gap_names_the_result_and_what_proves_it():
    assert consequence("proof-slip", ["gap"], ENTRIES)[1] == "Theorem 1 survives by Theorem 1 (ours)"


def test_lemma9_printed_proof_is_a_gap_and_lemma9_survives():
    entries = {e["id"]: e for e in paper_statements()}
    level, detail = consequence("proof-slip", ["lemma9-proof-V"], entries)
    assert level == "proof-gap" and detail.startswith("Lemma 9 survives by")
