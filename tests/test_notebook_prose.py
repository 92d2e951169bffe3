"""The claim notebooks' prose types no outcome: verdicts come from the ledger, as the cards below the prose.

Rule, for every markdown cell of every claim notebook (``notebooks/<claim>.py``), after blanking math:

* the result verbs ``holds``, ``fails`` and ``hold``/``fail`` followed by "on", "for", "in", "at", "with",
  "when", "exactly", "everywhere" do not occur (say what a check compares, not how it came out);
* a verdict word (PASS, FAIL, INCONCLUSIVE; also PASSes, FAILs, FAILed) occurs only in a clause that states
  a rule, i.e. that has a conditional or modal cue (:data:`CUES`): "PASS when the slope is at most 0.1",
  "a FAIL needs an exact certificate", "INCONCLUSIVE, never FAIL" pass; "Conjecture 20 is INCONCLUSIVE: the
  intervals straddle (16)" and "The printed identity FAILs" do not. A clause ends at . ; : ? ! or a bullet.

The ``## Verdicts`` cell names every check of its claim by its ledger id (results/ledger.csv), names no id
the ledger lacks, and ends by pointing at the generated cards.
"""

import re

import jupytext
import pandas as pd
import pytest

from sparseact.claims import claim_ids

RESULT_VERBS = re.compile(r"\b(holds|fails|(hold|fail)\s+(on|for|in|at|with|when|exactly|everywhere))\b")
VERDICT = re.compile(r"\b(PASS|FAIL|INCONCLUSIVE)(es|s|ed)?\b")
CUES = re.compile(
    r"\b(when|if|unless|only|otherwise|else|never|would|can|cannot|needs?|requires?|whether)\b", re.IGNORECASE
)
MATH = re.compile(r"\$\$.*?\$\$|\$[^$]*\$", re.DOTALL)
CLAUSE_END = re.compile(r"[.;:?!](?=\s)|\n\s*\n|\n\s*\* ")
CHECK_ID = re.compile(r"`([A-Za-z0-9_]+/[A-Za-z0-9_.\-]+)`")
CARDS = "The cards below are generated from the ledger rows of this run"


def markdown_cells(repo_root, claim):
    return [c.source for c in jupytext.read(repo_root / "notebooks" / f"{claim}.py").cells if c.cell_type == "markdown"]


def typed_outcomes(text: str) -> list[str]:
    """The clauses of ``text`` that assert an outcome by the rule of this module."""
    clauses = CLAUSE_END.split(MATH.sub("(math)", text))
    return [
        " ".join(c.split()) for c in clauses if RESULT_VERBS.search(c) or (VERDICT.search(c) and not CUES.search(c))
    ]


def test_rule_catches_typed_outcomes_and_allows_rules():
    assert typed_outcomes("Conjecture 20 with constant 1 is INCONCLUSIVE: the intervals straddle (16).")
    assert typed_outcomes("Lemma 10 and Claim 2.1 hold on everything enumerated.")
    assert typed_outcomes("The tail bound fails for $\\rho<0$ (finding `out-of-range`).")
    assert typed_outcomes("Theorem 8 holds on every target but is vacuous at constant 1.")
    assert typed_outcomes("(1) and (15) are far below (PASS; exact tiny samples).")
    assert typed_outcomes("The printed identity FAILs (finding `proof-slip`).")
    assert not typed_outcomes("PASS when the slope is at most 0.1; otherwise INCONCLUSIVE, never FAIL.")
    assert not typed_outcomes(
        "A lower-bound estimate can refute a bound only with an exact certificate: FAIL only "
        "with an exact certificate, and a FAIL here would be a `proof-slip`."
    )


@pytest.mark.parametrize("claim", claim_ids())
def test_markdown_types_no_outcome(repo_root, claim):
    found = [clause for text in markdown_cells(repo_root, claim) for clause in typed_outcomes(text)]
    assert not found, f"notebooks/{claim}.py types outcomes (state the rule, the cards give the result): {found}"


@pytest.mark.parametrize("claim", claim_ids())
def test_verdicts_cell_explains_every_check(repo_root, claim):
    ledger = pd.read_csv(repo_root / "results" / "ledger.csv", keep_default_na=False)
    (cell,) = [text for text in markdown_cells(repo_root, claim) if text.startswith("## Verdicts")]
    named = {i for i in CHECK_ID.findall(cell) if i.split("/")[0] in claim_ids()}
    assert set(ledger.loc[ledger["claim_id"] == claim, "check_id"]) <= named, "a check of the claim is not explained"
    assert named <= set(ledger["check_id"]), f"unknown check ids: {named - set(ledger['check_id'])}"
    assert CARDS in " ".join(cell.split("\n\n")[-1].split()), "the cell does not end by pointing at the cards"
