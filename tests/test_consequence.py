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
    "lemma": {"id": "lemma", "kind": "lemma", "paper_ref": "Lemma 2", "argument": {"uses": ["lemma-sharp"]}},
    "lemma-sharp": {
        "id": "lemma-sharp",
        "kind": "derived",
        "paper_ref": "Lemma 2 (ours)",
        "sharper": {"than": "lemma"},
        "argument": {"uses": ["lemma/check"]},
    },
    "route": {"id": "route", "kind": "derived", "paper_ref": "a step", "argument": {"uses": ["lemma-sharp"]}},
    "via-lemma": {
        "id": "via-lemma",
        "kind": "proof-step",
        "paper_ref": "Theorem 1 (proof, third step)",
        "proof_of": "thm",
        "correction": {"text": "x", "verified_by": ["thm/check", "route"]},
    },
    "printed-route": {
        "id": "printed-route",
        "kind": "derived",
        "paper_ref": "a step via the lemma",
        "argument": {"uses": ["lemma"]},
    },
    "via-printed": {
        "id": "via-printed",
        "kind": "proof-step",
        "paper_ref": "Theorem 1 (proof, fourth step)",
        "proof_of": "thm",
        "correction": {"text": "x", "verified_by": ["printed-route"]},
    },
    "weaker": {
        "id": "weaker",
        "kind": "proof-step",
        "paper_ref": "Theorem 1 (proof, last line)",
        "proof_of": "thm",
        "correction": {"text": "x", "verified_by": ["thm/check"], "unproved": "the constant 1"},
    },
    "def": {"id": "def", "kind": "definition", "paper_ref": "Definition 3"},
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
        ("proof-slip", ["via-lemma"], "proof-gap"),
        ("proof-slip", ["via-printed"], "step"),
        ("proof-slip", ["weaker"], "proof-gap"),
        ("statement-error", ["def"], "definition"),
        ("statement-error", ["def", "thm"], "result-false"),
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


def test_a_step_resting_on_a_sharper_lemma_names_it():
    """A correction that needs a lemma the paper does not have (through any argument) is a gap, not a local repair."""
    assert consequence("proof-slip", ["via-lemma"], ENTRIES)[1] == "Theorem 1 survives by Lemma 2 (ours)"
