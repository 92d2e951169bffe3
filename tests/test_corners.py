"""The degenerate-corner rule (sparseact.verify.corners), and that it is applied to every statement alike."""

import csv
import io
import json
import math
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from sparseact.paper import statements as paper_statements
from sparseact.verify import corners

RESULTS = Path(__file__).resolve().parents[1] / "results"
CERTIFICATES = sorted((RESULTS / "certificates").glob("*/*.json"))
#: The rule's second clause: checks whose instance uses a parameter outside the range the paper uses.
PARAMETER_RANGE_CHECKS = {
    # the paper uses the junta inclusion at p = floor(log2 s) >= 1
    "theorem13/junta-corner": ("p", lambda p: p < 1),
}
#: Corner FAILs whose printed logarithm sits in a quantity the certificate records as a number (the printed degree
#: of Theorem 8, which the check evaluates with the rule itself), with the variables that put them in the corner.
DEGREE_CORNERS = {"theorem8/degree-degenerate": dict(n=1, s=1, k=1)}
#: Corner FAILs whose two sides are formulas (the needed samples, a formula too): the rule applied to the printed
#: bound, the right side.
FORMULA_BOUND_CORNERS = {"theorem8/theorem4-n1"}


def _certificate(path: Path) -> dict:
    return json.loads(path.read_text())


def test_the_certificates_exist():
    assert len(CERTIFICATES) >= 40


@pytest.mark.parametrize("path", CERTIFICATES, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_class_follows_the_rule(path):
    """A certificate of the form measured-quantity REL printed-bound-with-a-log is out-of-range exactly when
    flooring the logarithms at 1 removes its violation; every other out-of-range certificate is a declared
    parameter-range or degree corner."""
    data = _certificate(path)
    in_corner = corners.certificate_in_corner(data["certificate"])
    if in_corner:
        assert data["finding"] == corners.CORNER_FINDING, data["check_id"]
    elif data["finding"] == corners.CORNER_FINDING:
        check = data["check_id"]
        assert check in PARAMETER_RANGE_CHECKS or check in DEGREE_CORNERS or check in FORMULA_BOUND_CORNERS, (
            f"{check}: out-of-range without a corner"
        )
        if check in FORMULA_BOUND_CORNERS:
            certificate = data["certificate"]
            bound = certificate["rhs"]
            assert corners.in_log_corner(
                certificate["relation"], certificate["lhs_value"], bound["expr"], bound["vars"]
            ), check
        if check in PARAMETER_RANGE_CHECKS:
            name, outside = PARAMETER_RANGE_CHECKS[check]
            assert outside(data["certificate"]["rhs"]["vars"][name])


def test_no_statement_fails_through_corner_failures_alone():
    ledger = list(csv.DictReader(io.StringIO((RESULTS / "ledger.csv").read_text(encoding="utf-8"))))
    statements = {
        row["statement_id"]: row
        for row in csv.DictReader(io.StringIO((RESULTS / "statements.csv").read_text(encoding="utf-8")))
    }
    fails: dict[str, set[str]] = {}
    for row in ledger:
        if row["verdict"] == "FAIL":
            fails.setdefault(row["statement_id"], set()).add(row["finding"])
    refuted = {entry["id"] for entry in paper_statements() if entry.get("refuted_by")}  # by a proof, not a FAIL
    corner_only = [sid for sid, findings in fails.items() if findings == {corners.CORNER_FINDING}]
    assert corner_only, "the ledger has corner FAILs (Lemma 10, Theorem 8, Theorem 19)"
    for sid in corner_only:
        assert statements[sid]["status"] != "fails-as-stated" or sid in refuted, sid
    for sid, findings in fails.items():
        if findings - {corners.CORNER_FINDING}:
            assert statements[sid]["status"] == "fails-as-stated", sid


def test_theorem19_corner():
    """(1) at m R = 1.04, B = 0: below the floor the printed bound is violated, floored it is not."""
    expr = "(W*R+B)*sqrt(s*n*log(m*(R+B)))/sqrt(m)"
    variables = dict(W=1.0, R=0.13, B=0.0, s=1, n=2, m=8)
    assert corners.in_log_corner("<=", 0.0223, expr, variables)
    assert not corners.in_log_corner("<=", 0.0223, expr, dict(variables, R=10.0))  # not violated at all
    assert not corners.in_log_corner("<=", 10.0, expr, variables)  # violated even with the floor


def test_up_to_constant():
    expr = "k*sqrt(log(s/k))/sqrt(n)"
    assert corners.in_log_corner_up_to_constant(expr, dict(k=2, s=2, n=5))
    assert not corners.in_log_corner_up_to_constant(expr, dict(k=1, s=4, n=5))
    assert not corners.in_log_corner_up_to_constant("k/sqrt(n)", dict(k=1, n=4))  # no logarithm


def test_a_certificate_at_w_zero_is_in_the_degenerate_class():
    """W = 0 (every network a constant) is a corner for every statement alike; W > 0 is not."""
    at = {"relation": "<=", "lhs": {"quantity": "formula", "expr": "W", "vars": {"W": 0.0}}, "lhs_value": 1.0}
    assert corners.in_degenerate_class({"W": 0.0, "n": 2}) and corners.certificate_in_corner(at)
    assert not corners.in_degenerate_class({"W": 1e-4}) and not corners.in_degenerate_class({"n": 0})
    assert not corners.certificate_in_corner({**at, "lhs": {**at["lhs"], "vars": {"W": 1e-4}}})


def test_finding():
    assert corners.finding("proof-slip", [True, True]) == corners.CORNER_FINDING
    assert corners.finding("proof-slip", [True, False]) == "proof-slip"
    with pytest.raises(ValueError, match="at least one"):
        corners.finding("proof-slip", [])


@given(st.floats(1e-6, 1e6), st.floats(1e-6, 1e6), st.integers(1, 50))
def test_evaluate_matches_math(a, b, n):
    value = corners.evaluate("sqrt(a*b)*log(e*n) + max(a, b) - min(a, b)", dict(a=a, b=b, n=n))
    assert math.isclose(value, math.sqrt(a * b) * math.log(math.e * n) + abs(a - b), rel_tol=1e-12)


@given(st.floats(1e-9, 1e9))
def test_floor(a):
    assert corners.evaluate("log(a)", dict(a=a), floor_logs=True) == max(1.0, math.log(a))


@pytest.mark.parametrize(
    "expr", ["__import__('os')", "a.b", "a[0]", "lambda: 1", "f(a)", "a if", "", "(a, a)", "log(a, key=1)", "True + a"]
)
def test_evaluate_refuses_non_arithmetic(expr):
    with pytest.raises(ValueError):
        corners.evaluate(expr, dict(a=2.0))


def test_evaluate_names_unknown_variables_and_domain_errors():
    with pytest.raises(ValueError, match="'b'"):
        corners.evaluate("a + b", dict(a=1.0))
    with pytest.raises(ValueError, match="cannot evaluate"):
        corners.evaluate("log(a)", dict(a=0.0))
    with pytest.raises(ValueError, match="bound_side"):
        corners.in_log_corner("<=", 1.0, "log(a)", dict(a=2.0), bound_side="middle")


def test_theorems_8_and_4_hold_except_in_the_delta_corner():
    """As delta -> 1 the printed log(1/delta) vanishes: Theorems 8 and 4 are proved through their floored forms and
    the committed tables say so (reason, headline)."""
    statements = {
        row["statement_id"]: row
        for row in csv.DictReader(io.StringIO((RESULTS / "statements.csv").read_text(encoding="utf-8")))
    }
    headline = {
        row["statement_id"]: row
        for row in csv.DictReader(io.StringIO((RESULTS / "headline.csv").read_text(encoding="utf-8")))
    }
    for sid, floored in (("theorem8", "theorem8-floored"), ("theorem4", "theorem4-floored")):
        assert statements[floored]["status"] == "proved"
        assert statements[sid]["status"] == "proved"
        corner = f"where a printed logarithm is below 1, {floored} proves it with that logarithm floored at 1"
        assert corner in statements[sid]["reason"]
    assert "(degenerate corners aside)" in headline["theorem8"]["cost"]


def test_theorem8_last_line_writes_its_degree_out():
    """The last line's certificate writes the printed degree with its logarithms, so the rule sees them: at the old
    instance n = 2, s = k = 1 (log s = 0, log(ns) < 1) the violation is a corner; at the recorded one it is not."""
    from sparseact.claims.theorem8.sharp import FINAL_LINE_COUNT, FINAL_LINE_INSTANCE

    assert "log(n*s)" in FINAL_LINE_COUNT and "log(s)" in FINAL_LINE_COUNT
    lam = 1e5
    old = dict(C=1.0, c=1.0, n=2, s=1, k=1, W=lam, B=lam, eps=0.1 * lam**2, delta=0.1)
    assert corners.in_log_corner("<=", 1.0, FINAL_LINE_COUNT, old)
    data = _certificate(RESULTS / "certificates" / "theorem8" / "final-line-scale.json")
    certificate = data["certificate"]
    assert certificate["rhs"]["expr"] == FINAL_LINE_COUNT
    assert certificate["rhs"]["vars"]["s"] == FINAL_LINE_INSTANCE["s"] >= 3  # log s >= 1, log(ns) >= 1
    assert not corners.certificate_in_corner(certificate) and data["finding"] == "typo"
