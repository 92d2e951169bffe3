"""The independent certificate verifier: closed forms, refusal of tampered certificates, the CLI."""

import json

import numpy as np
import pytest

from sparseact.certificates import certificate, formula, quantity
from sparseact.cli import main
from sparseact.verify import cube, evaluate_formula, evaluate_quantity, verify_certificate, walsh_coefficients

PARITY3 = {"monomial": [0, 1, 2], "n": 3}
MAJORITY3 = {"truth_table": [float(np.sign(x.sum())) for x in cube(3)]}


@pytest.mark.parametrize(("function", "kind", "extra", "expected"), [
    (PARITY3, "average_sensitivity", {}, 3.0),
    (MAJORITY3, "average_sensitivity", {}, 1.5),
    (PARITY3, "noise_sensitivity", {"rho": 0.3}, (1 - 0.3**3) / 2),
    ({"monomial": [0, 1], "n": 2}, "noise_sensitivity", {"rho": -0.5}, (1 - 0.25) / 2),
    (PARITY3, "fourier_tail", {"degree": 2}, 1.0),
    (MAJORITY3, "fourier_tail", {"degree": 1}, 0.25),
    (MAJORITY3, "correlation_with_sum", {}, 1.5),
    ({"halfspace": {"w": [1.0, 1.0], "b": 1.5}}, "average_sensitivity", {}, 0.25),
])
def test_closed_forms(function, kind, extra, expected):
    assert evaluate_quantity(quantity(kind, function=function, **extra)) == pytest.approx(expected, abs=1e-12)


def test_walsh_coefficients_of_majority():
    coefficients = walsh_coefficients(np.array(MAJORITY3["truth_table"]))
    assert coefficients[[1, 2, 4]] == pytest.approx([0.5] * 3) and coefficients[7] == pytest.approx(-0.5)


def test_network_quantities():
    net = {"u": [1.0, 2.0], "W": [[1.0, 1.0], [-1.0, -1.0]], "b": [0.0, 0.0]}
    assert evaluate_quantity(quantity("value", function={"network": net}, x=[1, 1])) == 2.0
    assert evaluate_quantity(quantity("value", function={"network": net}, x=[-1, -1])) == 4.0
    assert evaluate_quantity(quantity("active_count", network=net, x=[1, 1])) == 1.0
    assert evaluate_quantity(quantity("max_active", network=net)) == 1.0
    # Every flip changes the active set: {1} at (1,1), {2} at (-1,-1), {} at the mixed points.
    assert evaluate_quantity(quantity("transition_probability", network=net)) == 1.0
    assert evaluate_quantity(quantity("lemma9_U", network=net)) == 0.0


def test_rademacher_lower_bound_checks_membership():
    X = [[1.0], [-1.0]]
    zetas = [[1, 1], [1, -1], [-1, 1], [-1, -1]]
    networks = [{"u": [1.0], "W": [[0.0]], "b": [-1.0]}, {"u": [1.0], "W": [[1.0]], "b": [0.0]},
                {"u": [1.0], "W": [[-1.0]], "b": [0.0]}, {"u": [-1.0], "W": [[0.0]], "b": [-1.0]}]
    spec = quantity("rademacher_lower_bound", X=X, zetas=zetas, networks=networks, s=1, k=1, W=1.0, B=1.0)
    assert evaluate_quantity(spec) == pytest.approx(0.75)
    with pytest.raises(ValueError, match="not in the class"):
        evaluate_quantity({**spec, "B": 0.5})


def test_orthogonal_residual():
    spec = quantity("orthogonal_residual", Z=[[1.0], [1.0]], t=[1.0, 0.0], r=[1.0, -1.0])
    assert evaluate_quantity(spec) == 1.0
    with pytest.raises(ValueError, match="orthogonal"):
        evaluate_quantity({**spec, "r": [1.0, 0.0]})


def test_formula_variables_may_be_quantities():
    spec = formula("2 * ns / (1 - rho**d)", rho=0.5, d=1,
                   ns=quantity("noise_sensitivity", function={"monomial": [0, 1], "n": 2}, rho=0.5))
    assert evaluate_quantity(spec) == pytest.approx(2 * (1 - 0.25) / 2 / 0.5)


def test_formula_is_restricted():
    assert evaluate_formula("sum(relu(t - a) for t in range(3))", {"a": 1}) == 1.0
    with pytest.raises(ValueError, match="only"):
        evaluate_formula("__import__('os').getcwd()", {})
    with pytest.raises(ValueError, match="Attribute"):
        evaluate_formula("(1).real", {})


def _as_certificate():
    """AS(chi_[3]) = 3 violates a (made-up) printed bound AS <= 2."""
    return certificate("<=", quantity("average_sensitivity", function=PARITY3), formula("2 * c", c=1), 3.0, 2.0,
                       "AS(chi_S)", "2")


def test_verify_confirms_and_refuses_tampering():
    assert verify_certificate(_as_certificate()).confirmed
    tampered_value = {**_as_certificate(), "lhs_value": 3.5}
    assert "recomputes" in verify_certificate(tampered_value).message
    tampered_instance = {**_as_certificate(), "lhs": quantity("average_sensitivity", function={"monomial": [0], "n": 3})}
    result = verify_certificate(tampered_instance)
    assert not result.confirmed and "holds" in result.message
    broken = {**_as_certificate(), "rhs": {"quantity": "no-such-thing"}}
    assert not verify_certificate(broken).confirmed


def test_cli_exit_status(tmp_path, capsys):
    good, bad = tmp_path / "good.json", tmp_path / "bad.json"
    good.write_text(json.dumps({"check_id": "x/y", "certificate": _as_certificate()}))
    bad.write_text(json.dumps({"check_id": "x/z", "certificate": {**_as_certificate(), "rhs_value": 2.5}}))
    assert main(["verify-certificate", str(good)]) == 0
    assert main(["verify-certificate", str(good), str(bad)]) == 1
    out = capsys.readouterr().out
    assert "confirmed" in out and "NOT confirmed" in out


def test_fail_fields():
    from sparseact.certificates import certificate_if_violated, fail_fields
    from sparseact.ledger import ClaimRecord, Verdict

    fields = dict(claim_id="x", check_id="x/y", paper_ref="", statement="", check="", variant="", method="exact",
                  instances=1, worst_value=3.0, worst_value_label="")
    calls = []
    passed = fail_fields(Verdict.PASS, "proof-slip", lambda: calls.append(1), notes="n")
    assert passed == dict(verdict=Verdict.PASS, finding="", certificate=None, counterexample="", notes="n")
    assert not calls
    failed = ClaimRecord(**fields, **fail_fields(Verdict.FAIL, "typo", lambda: (_as_certificate(), "chi_[3]")))
    assert failed.finding == "typo" and failed.counterexample == "chi_[3]"
    assert verify_certificate(failed.certificate).confirmed
    uncertified = ClaimRecord(**fields, **fail_fields(Verdict.FAIL, "typo", lambda: None, notes="n"))
    assert uncertified.verdict is Verdict.INCONCLUSIVE and uncertified.certificate is None
    assert uncertified.notes.startswith("n [") and "INCONCLUSIVE" in uncertified.notes
    assert certificate_if_violated("<=", formula("1"), formula("1"), 1.0, 1.0 + 1e-13, "a", "b") is None
    assert certificate_if_violated("<=", formula("2"), formula("1"), 2.0, 1.0, "a", "b")["lhs_value"] == 2.0


def test_fail_fields_from_the_worst_recorded_violation():
    """The run-time violations table (one per claim, keyed by check) gives the FAIL its worst certificate."""
    from sparseact.certificates import fail_fields
    from sparseact.claims._failures import TABLE, violation, with_violations, worst_violation
    from sparseact.ledger import Verdict

    assert with_violations({"t": None}, []) == {"t": None}  # nothing violated: no table
    weaker = {**_as_certificate(), "rhs": formula("2 * c", c=1.25), "rhs_value": 2.5}
    tables = with_violations({}, [violation("x/y", 0.5, "chi_[3] (weaker)", weaker),
                                  violation("x/y", 1.0, "chi_[3]", _as_certificate()),
                                  violation("x/z", 9.0, "other check", _as_certificate())])
    assert list(tables[TABLE]["check"]) == ["x/y", "x/y", "x/z"]
    failed = fail_fields(Verdict.FAIL, "typo", lambda: worst_violation(tables, "x/y"))
    assert failed["verdict"] is Verdict.FAIL and failed["finding"] == "typo"
    assert failed["certificate"] == _as_certificate() and verify_certificate(failed["certificate"]).confirmed
    assert failed["counterexample"].startswith("chi_[3]: AS(chi_S) = 3, 2 = 2") and "2 violating instances" in (
        failed["counterexample"])
    assert verify_certificate(weaker).confirmed
    assert worst_violation(tables, "x/none") is None and worst_violation({}, "x/y") is None
    assert fail_fields(Verdict.FAIL, "typo", lambda: worst_violation({}, "x/y"))["verdict"] is Verdict.INCONCLUSIVE


def test_lemma9_wR():
    net = {"u": [1.0, 2.0], "W": [[1.0, 1.0], [-1.0, -1.0]], "b": [0.0, 0.0]}
    # w^R = (1, 1) at (1, 1), 2 (-1, -1) at (-1, -1), 0 at the mixed points: (2 + 8 + 0 + 0) / 4
    assert evaluate_quantity(quantity("lemma9_wR", network=net)) == 2.5


def test_gf_p_solve():
    """LWR_{2,2,1}: secrets 0, 1 of Z_2; two samples each (N = 2, m = 1): Pr[rank 1] = 1 - 2^-2."""
    spec = quantity("gf_p_solve", p=2, q=2, m=1, N=2, secrets=[[0], [1]], samples=[[[1], [0]], [[0], [1]]])
    assert evaluate_quantity(spec) == pytest.approx(0.75)
    rank_deficient = quantity("gf_p_solve", p=2, q=2, m=1, N=2, secrets=[[0], [1]], samples=[[[1], [0]], [[0], [0]]])
    assert evaluate_quantity(rank_deficient) == pytest.approx(0.375)  # one secret not recovered
    with pytest.raises(ValueError, match="not prime"):
        evaluate_quantity(quantity("gf_p_solve", p=4, q=4, m=1, N=2, secrets=[[v] for v in range(4)],
                                   samples=[[[1], [0]]] * 4))
    with pytest.raises(ValueError, match="all of Z_q"):
        evaluate_quantity(quantity("gf_p_solve", p=2, q=2, m=1, N=2, secrets=[[1]], samples=[[[1], [0]]]))
