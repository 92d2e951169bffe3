"""The registry of checks: every claim declares its checks once as data (``claims/<id>/checks.yaml``,
:mod:`sparseact.claims._checks`), and this module holds the run and the verifier to the declarations.

* every declared check is a row of the run's ledger (results/ledger.csv), and the ledger holds no undeclared check;
* a check that can FAIL (it declares a finding class) is pinned in the verifier (``sparseact.verify.checker.PINS``,
  the claims' pins, ``claims/<id>/pins.py``), apart from :data:`NOT_YET_PINNED`, and every pin is such a check;
* a check declared ``pinned: true`` is pinned in its own claim's pins (``sparseact.claims.<claim>.pins``), and its
  pin refutes the declared statement with the declared finding class;
* the verifier imports nothing from the claims (it owns the statements it checks);
* the notebook's Verdicts bullets are the declarations' rules (:func:`sparseact.claims._checks.sync_verdict_prose`);
* a check id is typed once, in its ``checks.yaml``: no string of the code (``src/sparseact``) or of the notebooks' code
  cells holds one, docstrings apart (code names a check by its attribute of the claim's ``Checks``), the runs stage's
  modules included: they do not read the declarations and name what they measured, not a check.
"""

import ast
import importlib
import importlib.util
import re

import pandas as pd
import pytest
import yaml
from test_layers import imports, strings

from sparseact.claims import claim_ids
from sparseact.claims._checks import declaration_path, declared_checks, sync_verdict_prose
from sparseact.verify.checker import PINS
from sparseact.verify.corners import CORNER_FINDING
from sparseact.verify.declarations import Checks, Declaration
from sparseact.verify.records import declared_record
from sparseact.verify.verdicts import Verdict

CLAIMS = claim_ids()

#: Checks declared with a finding class (they can FAIL) that no statement of the verifier pins yet, with the reason;
#: their certificates are refused ("refutes no statement the verifier knows"). None has FAILed on any run or test.
NOT_YET_PINNED = {
    "theorem19/estimators": "the right side is the exact solver's own maximum, which no plain evaluator recomputes",
}


def can_fail() -> dict[str, str]:
    """Check id -> claim, for every check that declares a finding class (it can FAIL)."""
    return {
        check_id: claim
        for claim in CLAIMS
        for check_id, declaration in declared_checks(claim).items()
        if declaration["finding"] is not None
    }


@pytest.mark.parametrize("claim", CLAIMS)
def test_every_claim_declares_its_checks(claim):
    assert declaration_path(claim).is_file(), f"claims/{claim}/checks.yaml is missing"
    assert declared_checks(claim)


@pytest.mark.parametrize("claim", CLAIMS)
def test_the_ledger_holds_exactly_the_declared_checks(repo_root, claim):
    ledger = pd.read_csv(repo_root / "results" / "ledger.csv", keep_default_na=False)
    emitted = set(ledger.loc[ledger["claim_id"] == claim, "check_id"])
    declared = set(declared_checks(claim))
    assert declared <= emitted, f"declared but not in the ledger: {sorted(declared - emitted)}"
    assert emitted <= declared, f"in the ledger but not declared: {sorted(emitted - declared)}"


def test_every_check_that_can_fail_is_pinned_and_every_pin_can_fail():
    failing = can_fail()
    assert {
        "theorem19/eq12-printed",
        "section4_parity/network-printed",
        "lemma9/proof-V-printed",
        "scaling/lemma18-printed",
        "theorem8/tail-step",
        "theorem13/junta-corner",
    } <= set(failing)
    assert set(failing) - set(PINS) == set(NOT_YET_PINNED)
    assert set(PINS) <= set(failing), sorted(set(PINS) - set(failing))
    for claim in CLAIMS:
        for check_id, declaration in declared_checks(claim).items():
            assert declaration["pinned"] is (check_id in PINS), check_id


def _claim_pins(claim: str) -> dict:
    """The ``PINS`` of ``sparseact.claims.<claim>.pins`` (imported as any module: the checker's is the same); empty
    when the claim has no pins."""
    name = f"sparseact.claims.{claim}.pins"
    return importlib.import_module(name).PINS if importlib.util.find_spec(name) else {}


@pytest.mark.parametrize("claim", CLAIMS)
def test_a_claim_pins_its_declared_checks_in_its_own_module(claim):
    """``pinned: true`` in ``claims/<claim>/checks.yaml`` is exactly a pin in ``claims/<claim>/pins.py``."""
    declared = {check_id for check_id, declaration in declared_checks(claim).items() if declaration["pinned"]}
    assert set(_claim_pins(claim)) == declared


def test_the_checker_holds_every_claims_pins_once():
    """``sparseact.verify.checker.PINS`` is the claims' modules' pins merged, none lost to another's id."""
    merged = [check_id for claim in CLAIMS for check_id in _claim_pins(claim)]
    assert len(merged) == len(set(merged)) and set(merged) == set(PINS)
    assert all(PINS[check_id] is _claim_pins(check_id.split("/")[0])[check_id] for check_id in merged)


def test_the_checker_refuses_a_pins_module_keying_another_claims_check(monkeypatch):
    """A check's pin comes from its own claim's module only (what lets a claim's job list only its claim's pins in its
    code stamp, sparseact.claims.verifier_pins): a module keying another claim's check is refused at import."""
    import sys
    import types

    from sparseact.verify import checker

    stray = types.SimpleNamespace(PINS={"nonesuch/a": None, "lemma9/transition": None})
    monkeypatch.setitem(sys.modules, "sparseact.claims.nonesuch.pins", stray)
    with pytest.raises(
        ValueError, match=r"sparseact\.claims\.nonesuch\.pins pins checks of another claim: lemma9/transition$"
    ):
        checker._claim_pins("nonesuch")
    assert checker._claim_pins("lemma9") is importlib.import_module("sparseact.claims.lemma9.pins").PINS


def test_a_pins_file_that_fails_to_load_is_read_again(monkeypatch, tmp_path):
    """The checker reads a claim's pins.py by path as an import would: a file that raises leaves no half-made module
    behind, so the next load reads the file again."""
    import sys

    from sparseact.verify import checker

    pins = tmp_path / "sparseact" / "claims" / "nonesuch" / "pins.py"
    pins.parent.mkdir(parents=True)
    pins.write_text("raise ValueError('broken pins')\n")
    monkeypatch.setattr(checker, "CLAIMS_FOLDER", pins.parent.parent)
    for _ in range(2):
        with pytest.raises(ValueError, match="broken pins"):
            checker._claim_pins("nonesuch")
        assert "sparseact.claims.nonesuch.pins" not in sys.modules
    pins.write_text("PINS = {}\n")
    assert checker._claim_pins("nonesuch") == {}
    monkeypatch.delitem(sys.modules, "sparseact.claims.nonesuch.pins")


@pytest.mark.parametrize("claim", CLAIMS)
def test_a_pin_refutes_the_declared_statement_with_the_declared_finding(claim):
    """A pin's statement id is the check's declared ``statement``, and its pinned finding one the declaration allows:
    the class, or for ``[<class>, out-of-range]`` either one or the pair (the checker then takes the one the
    degenerate-corner rule gives the instance)."""
    for check_id, pin in _claim_pins(claim).items():
        declaration = declared_checks(claim)[check_id]
        assert pin.statement.statement_id == declaration["statement"], check_id
        if pin.pinned_text is None:
            continue
        finding, declared = pin.pinned_text["finding"], declaration["finding"]
        if isinstance(declared, str):
            assert finding == declared, check_id
        else:
            assert declared[1] == CORNER_FINDING
            assert finding in declared or finding == tuple(declared), check_id


def test_the_verifier_imports_nothing_from_the_claims():
    """The pins are the verifier's own statements (tests/test_layers.py holds every layer; this is the registry's)."""
    assert not [
        (a, b) for a, b, _ in imports() if a.startswith("sparseact.verify") and b.startswith("sparseact.claims")
    ]


@pytest.mark.parametrize("claim", CLAIMS)
def test_the_notebook_prose_is_the_declared_rules(repo_root, claim):
    notebook = repo_root / "notebooks" / f"{claim}.py"
    assert not sync_verdict_prose(claim, notebook, write=False), (
        f"notebooks/{claim}.py's Verdicts bullets differ from checks.yaml: run "
        f"sparseact.claims._checks.sync_verdict_prose({claim!r}, Path('notebooks/{claim}.py'))"
    )


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda d: d.pop("rule"), "has the keys"),
        (lambda d: d.update(extra=1), "has the keys"),
        (lambda d: d.update(measures=[]), "measures"),
        (lambda d: d.update(measures=["a", "a"]), "measures"),
        (lambda d: d.update(measures=3), "measures"),
        (lambda d: d.update(measures=["a", ""]), "measures"),
        (lambda d: d.update(reading={"table": "t", "of": "c", "at-most": 0}), "reading"),
        (lambda d: d.update(reading={"table": "t", "of": "c", "at-most": "0", "label": "x"}), "reading"),
        (lambda d: d.update(reading={"table": "t", "of": "c", "at-most": 0, "label": "x", "extra": 1}), "reading"),
        (lambda d: d.update(reading={"table": "t", "of": "c", "at-most": 0, "label": "x", "where": 1}), "reading"),
        (lambda d: d.update(reading={"table": [], "of": "c", "at-most": 0, "label": "x"}), "reading"),
        (lambda d: d.update(reading={"table": "t", "of": "c", "label": "x"}), "reading"),
        (lambda d: d.update(reading={"table": "t", "of": "c", "at-most": 0, "at-least": 0, "label": "x"}), "reading"),
        (lambda d: d.update(reading={"table": "t", "of": "c", "at-least": 0, "over": "b", "label": "x"}), "reading"),
        (lambda d: d.update(id="lemma9/x"), "another claim"),
        (lambda d: d.update(method="guess"), "method"),
        (lambda d: d.update(finding="bad"), "finding"),
        (lambda d: d.update(finding=["proof-slip", "typo"]), "finding"),
        (lambda d: d.update(finding=["out-of-range", "out-of-range"]), "finding"),
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
    failing = dict(common, verdict=Verdict.FAIL, certificate={"statement": "x"}, counterexample="x")
    with pytest.raises(ValueError, match="FAILs with finding 'typo'"):
        declared_record(declaration, finding="typo", **failing)


def test_a_corner_rule_declaration_takes_either_class():
    """``[<class>, out-of-range]``: a FAIL takes the class, or out-of-range by the degenerate-corner rule."""
    declaration = declared_checks("lemma9")["lemma9/transition"]
    assert declaration["finding"] == ["proof-slip", "out-of-range"]
    common = dict(claim_id="lemma9", paper_ref="Lemma 9", variant="", instances=1, range="r", worst_value=1.0)
    common |= dict(worst_value_label="x", verdict=Verdict.FAIL, certificate={"statement": "x"}, counterexample="x")
    for finding in declaration["finding"]:
        assert declared_record(declaration, finding=finding, **common).finding == finding
    with pytest.raises(ValueError, match="FAILs with finding 'typo'"):
        declared_record(declaration, finding="typo", **common)


def typed_check_ids(repo_root) -> dict[str, list[str]]:
    """File -> the ``line: id`` of each check id a string of its code holds, over ``src/sparseact`` and the notebooks'
    code cells (a notebook's Markdown cells are comments of its jupytext file, so its ``ast`` holds only code)."""
    declared = sorted((check_id for claim in CLAIMS for check_id in declared_checks(claim)), key=len, reverse=True)
    token = re.compile(r"(?<![\w/.-])(" + "|".join(map(re.escape, declared)) + r")(?![\w/-])")
    files = sorted([*(repo_root / "src" / "sparseact").rglob("*.py"), *(repo_root / "notebooks").glob("*.py")])
    found = {}
    for path in files:
        hits = [
            f"{node.lineno}: {check_id}"
            for node in strings(ast.parse(path.read_text()))
            for check_id in token.findall(node.value)
        ]
        if hits:
            found[str(path.relative_to(repo_root))] = hits
    return found


def test_a_check_id_is_typed_only_in_its_declaration(repo_root):
    """Code names a check by its attribute of the claim's ``Checks`` (``CHECKS.transition_union_printed``,
    :class:`sparseact.verify.declarations.Checks`), notes build its id from it, and the pins key ``PINS`` by it: a
    check id is typed in ``checks.yaml`` only (and referred to by the argument graph's data, statements.yaml and the
    errata). The runs stage, which must not read ``checks.yaml`` (a declaration edit reruns only assembly jobs,
    tests/test_rerun.py), names no check at all: it names what it measured (the measure of a worst instance,
    :func:`sparseact.claims._failures.worst_instance`), and each claim's ``verdicts.py`` maps its checks to measures."""
    found = typed_check_ids(repo_root)
    assert not found, f"{sum(map(len, found.values()))} check ids typed in code: {found}"


def typed_short_names(path, claim: str) -> list[str]:
    """The ``line: name`` of each string of ``path``'s code (docstrings apart) that types a check of ``claim`` by its
    short name: a string equal to a hyphenated name after ``<claim>/`` (``"chi-printed"``), or an f-string whose
    first piece is a hyphen-ended head of one (``f"lift-{variant}"``). A one-word name (``bound``, ``network``) is
    also the name of a column, a table or a key, so only hyphenated names are held to this."""
    names = [check_id.split("/", 1)[1] for check_id in declared_checks(claim)]
    hyphenated = {name for name in names if "-" in name}
    heads = {name[: i + 1] for name in hyphenated for i, c in enumerate(name) if c == "-"}
    tree = ast.parse(path.read_text())
    hits = [f"{node.lineno}: {node.value}" for node in strings(tree) if node.value in hyphenated]
    hits += [
        f"{node.lineno}: f{node.values[0].value!r}..."
        for node in ast.walk(tree)
        if isinstance(node, ast.JoinedStr)
        and node.values
        and isinstance(node.values[0], ast.Constant)
        and node.values[0].value in heads
    ]
    return hits


@pytest.mark.parametrize("claim", CLAIMS)
def test_verdicts_name_their_checks_by_attribute_not_short_name(repo_root, claim):
    """A claim's ``verdicts.py`` (its ``uniform_families.py``, its pins module) passes a check's declaration
    (``CHECKS.chi_printed``), not its short name (``"chi-printed"``, ``f"lift-{variant}"``) for a helper to prefix
    with ``<claim>/``: a misspelt attribute fails at import, a misspelt string only when the row is built."""
    paths = [
        repo_root / "src" / "sparseact" / "claims" / claim / "verdicts.py",
        repo_root / "src" / "sparseact" / "claims" / claim / "uniform_families.py",
        repo_root / "src" / "sparseact" / "claims" / claim / "pins.py",
    ]
    found = {
        str(path.relative_to(repo_root)): hits
        for path in paths
        if path.is_file() and (hits := typed_short_names(path, claim))
    }
    assert not found, f"check short names typed in code: {found}"


def test_code_names_a_check_by_its_attribute():
    """``Checks``: a check's declaration is the attribute of its name with ``-`` as ``_`` (a keyword ends in ``_``);
    a misspelt name names the claim and its checks, and two ids of one name are refused."""
    lemma9 = declared_checks("lemma9")
    assert lemma9.transition_union_printed is lemma9["lemma9/transition-union-printed"]
    assert lemma9.tighter_4k2W2.id == "lemma9/tighter-4k2W2"
    assert declared_checks("theorem8").C_H_attained.id == "theorem8/C_H-attained"
    assert declared_checks("section4_parity").class_.id == "section4_parity/class"
    with pytest.raises(
        AttributeError, match=r"lemma9 declares no check named 'transition_union'.*transition_corrected"
    ):
        _ = lemma9.transition_union
    entries = {"x/a-b": Declaration(id="x/a-b"), "x/a_b": Declaration(id="x/a_b")}
    with pytest.raises(ValueError, match=r"'x/a-b' and 'x/a_b' both give the Python name 'a_b'"):
        Checks("x", entries)
