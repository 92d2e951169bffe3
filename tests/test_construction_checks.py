"""The checks' verdicts on small grids, and the machinery failing on false claims."""

import numpy as np
import pytest

from sparseact import construction_checks as CC
from sparseact import constructions as C
from sparseact.cube import hypercube
from sparseact.ledger import Verdict
from sparseact.networks import SparseReLUNetwork

SMALL = {
    "thm13": dict(n_values=[3, 6], s_values=[2, 8], p_values=[1, 2, 3], random_tables=1, include_parity=True),
    "index": dict(b_values=[1, 2]),
    "sec4-parity": dict(m_values=[2, 3], full_cube_max_m=2, scale_m_values=[2, 4, 8, 16]),
    "sec4-lwr": dict(instances=[dict(q=3, m=2, p=2), dict(q=5, m=2, p=3)], max_secrets=9),
    "appA": dict(b_values=[2], q=6, weight_draws=1, gamma_points=5, whp=dict(q=8, b_values=[2, 3, 4], c_values=[0.5, 1.0])),
}

EXPECTED = {
    "thm13/computes": "PASS", "thm13/sparsity": "PASS", "thm13/scale": "PASS",
    "index/computes": "PASS", "index/sparsity": "PASS",
    "sec4-parity/chi-definition": "FAIL", "sec4-parity/identity-vs-printed-chi": "PASS",
    "sec4-parity/identity-printed": "FAIL", "sec4-parity/identity-corrected": "PASS",
    "sec4-parity/identity-one-active": "PASS", "sec4-parity/lift-printed": "FAIL",
    "sec4-parity/lift-corrected": "PASS", "sec4-parity/network-printed": "FAIL",
    "sec4-parity/network-corrected": "PASS", "sec4-parity/sparsity-printed": "FAIL",
    "sec4-parity/sparsity-corrected": "PASS", "sec4-parity/scale": "PASS",
    "sec4-lwr/linear-encoding": "FAIL", "sec4-lwr/affine-encoding": "PASS",
    "sec4-lwr/identity-printed": "FAIL", "sec4-lwr/identity-corrected": "PASS",
    "sec4-lwr/lifted-weights-pm1": "FAIL", "sec4-lwr/network": "PASS", "sec4-lwr/scale": "PASS",
    "appA/sparse-sqrt-q-printed": "FAIL", "appA/sparse-sqrt-q-corrected": "PASS", "appA/computes": "PASS",
    "appA/dense-weights": "PASS",
}


@pytest.fixture(scope="module")
def reports():
    return {name: CC.run_construction(name, params, seed=7) for name, params in SMALL.items()}


def test_verdicts_on_small_grids(reports):
    got = {r.check_id: r.verdict.value for rep in reports.values() for r in rep.records}
    for check_id, verdict in EXPECTED.items():
        assert got[check_id] == verdict, check_id


def test_every_fail_has_a_counterexample_or_count(reports):
    for rep in reports.values():
        for r in rep.records:
            if r.verdict is Verdict.FAIL and r.check_id != "sec4-parity/sparsity-printed":
                assert r.counterexample, r.check_id


def test_reports_are_reproducible():
    a = CC.run_construction("appA", SMALL["appA"], seed=3)
    b = CC.run_construction("appA", SMALL["appA"], seed=3)
    for name in a.tables:
        assert a.tables[name].equals(b.tables[name])


def test_false_construction_claim_fails(monkeypatch):
    """A deliberately wrong network fed through the same check comes out FAIL."""
    original = C.index_network

    def broken_index_network(b):
        good = original(b)
        return SparseReLUNetwork(good.u, good.W, good.b - 2.0)  # neighbours at distance 1 fire too

    monkeypatch.setattr(C, "index_network", broken_index_network)
    report = CC.check_index(dict(b_values=[2]), np.random.default_rng(0))
    verdicts = {r.check_id: r for r in report.records}
    assert verdicts["index/computes"].verdict is Verdict.FAIL
    assert "b=2" in verdicts["index/computes"].counterexample
    assert verdicts["index/sparsity"].verdict is Verdict.FAIL


def test_false_junta_claim_fails(monkeypatch):
    monkeypatch.setattr(C, "junta_function", lambda table, variables: (lambda X: -np.asarray(table)[0] * np.ones(len(X))))
    report = CC.check_thm13(dict(n_values=[3], s_values=[4], p_values=[2], random_tables=0, include_parity=True),
                            np.random.default_rng(0))
    assert {r.check_id: r.verdict for r in report.records}["thm13/computes"] is Verdict.FAIL


def test_excess_fraction_matches_active_counts(rng):
    b, q = 2, 5
    Wy = C.unit_gaussian_rows(rng, 1 << b, q)
    gammas = [0.0, 0.3, 0.8, 2.0]
    fast = CC.appendix_a_excess_fraction(Wy, gammas)
    X = hypercube(b + q)
    slow = [np.mean(C.appendix_a_network(Wy, g).active_counts(X) > 1) for g in gammas]
    np.testing.assert_allclose(fast, slow)


def test_lwr_scale_polynomials_bound_all_small_cases():
    for q in range(2, 8):
        for m in (1, 2, 3):
            for p in (2, q):
                Wb, Bb = CC.lwr_scale_polynomials(q, m, p)
                for w in C.zq_points(q, m)[:: max(1, q**m // 20)]:
                    net, _ = C.lwr_network(w, q, p)
                    assert net.scale_W() <= Wb and net.scale_B() <= Bb


def test_unknown_construction():
    with pytest.raises(ValueError, match="unknown construction"):
        CC.run_construction("thm99", {}, seed=0)
