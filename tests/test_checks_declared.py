"""Checks declared once as data (``claims/<id>/checks.yaml``, :mod:`sparseact.claims._checks`).

For a claim that declares its checks: every declared check is a row of the run's ledger (results/ledger.csv) and
the ledger holds no undeclared check of the claim; a check that can FAIL (it declares a finding class) is pinned in
the verifier (sparseact.verify.checker.STATEMENTS, which imports nothing from the claims: tests/test_layers.py) and
one that cannot is not; the notebook's Verdicts bullets are the declarations' rules
(:func:`sparseact.claims._checks.sync_verdict_prose`). A claim that does not declare its checks yet is read from its
source (tests/fail_sites.py) by :func:`can_fail`, until the last claim declares them.
"""

import pandas as pd
import pytest
import yaml
from fail_sites import can_fail_check_ids

from sparseact.claims import claim_ids
from sparseact.claims._checks import declaration_path, declared_checks, sync_verdict_prose
from sparseact.verify.checker import STATEMENTS
from sparseact.verify.records import declared_record
from sparseact.verify.verdicts import Verdict

DECLARED = [claim for claim in claim_ids() if declaration_path(claim).is_file()]


def can_fail(repo_root) -> dict[str, str]:
    """Check id -> claim, for every check that can FAIL: declared with a finding class, or, for a claim without
    checks.yaml, read from its source (tests/fail_sites.py)."""
    found = {
        check_id: claim
        for check_id, claim in can_fail_check_ids(repo_root / "src" / "sparseact" / "claims").items()
        if claim not in DECLARED
    }
    for claim in DECLARED:
        found.update({check_id: claim for check_id, d in declared_checks(claim).items() if d["finding"] is not None})
    return found


def test_some_claim_declares_its_checks():
    assert "section1_index" in DECLARED


@pytest.mark.parametrize("claim", DECLARED)
def test_the_ledger_holds_exactly_the_declared_checks(repo_root, claim):
    ledger = pd.read_csv(repo_root / "results" / "ledger.csv", keep_default_na=False)
    emitted = set(ledger.loc[ledger["claim_id"] == claim, "check_id"])
    declared = set(declared_checks(claim))
    assert declared <= emitted, f"declared but not in the ledger: {sorted(declared - emitted)}"
    assert emitted <= declared, f"in the ledger but not declared: {sorted(emitted - declared)}"


@pytest.mark.parametrize("claim", DECLARED)
def test_a_check_that_can_fail_is_pinned(claim):
    for check_id, declaration in declared_checks(claim).items():
        assert declaration["pinned"] is (check_id in STATEMENTS), check_id


@pytest.mark.parametrize("claim", DECLARED)
def test_the_notebook_prose_is_the_declared_rules(repo_root, claim):
    notebook = repo_root / "notebooks" / f"{claim}.py"
    assert not sync_verdict_prose(claim, notebook, write=False), (
        f"notebooks/{claim}.py's Verdicts bullets differ from checks.yaml: run "
        f"sparseact.claims._checks.sync_verdict_prose({claim!r}, Path('notebooks/{claim}.py'))"
    )


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda d: d.pop("rule"), "exactly the keys"),
        (lambda d: d.update(extra=1), "exactly the keys"),
        (lambda d: d.update(id="lemma9/x"), "another claim"),
        (lambda d: d.update(method="guess"), "method"),
        (lambda d: d.update(finding="bad"), "finding"),
        (lambda d: d.update(finding=None), "pinned"),
        (lambda d: d.update(pinned="yes"), "pinned"),
    ],
)
def test_a_bad_declaration_is_refused(tmp_path, monkeypatch, change, message):
    from sparseact.claims import _checks

    entry = dict(declared_checks("section1_index")["section1_index/computes"])
    change(entry)
    (tmp_path / "section1_index").mkdir()
    (tmp_path / "section1_index" / "checks.yaml").write_text(yaml.safe_dump([entry]))
    monkeypatch.setattr(_checks, "CLAIMS_FOLDER", tmp_path)
    with pytest.raises(ValueError, match=message):
        declared_checks("section1_index")


def test_declared_record_refuses_a_measured_declared_field_and_a_wrong_finding():
    declaration = declared_checks("section1_index")["section1_index/computes"]
    common = dict(claim_id="section1_index", paper_ref="Section 1", variant="", instances=1, range="r")
    common |= dict(worst_value=0.0, worst_value_label="x")
    record = declared_record(declaration, verdict=Verdict.PASS, **common)
    assert (record.check_id, record.statement_id, record.method) == (
        "section1_index/computes",
        "section1-index",
        "exact",
    )
    with pytest.raises(ValueError, match=r"declared in checks\.yaml"):
        declared_record(declaration, verdict=Verdict.PASS, method="exact", **common)
    with pytest.raises(ValueError, match="lacks"):
        declared_record({"id": "section1_index/x"}, verdict=Verdict.PASS, **common)
