"""Claim ``lemma6``: the stages on a tiny block, the known verdicts, the certificate, independence, closed forms.

The block has no relation between its keys that the schema cannot express, so ``lemma6`` defines no ``check``.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from certified import assert_forced_fail_refused, tamper_constant

from sparseact import sensitivity
from sparseact.claims import generate_point, get_claim, stage_claim
from sparseact.claims.lemma6 import compute, verdicts

SEED = 11
REPLICATES = 2
BLOCK = {"n_values": [6, 8, 10], "thresholds": 4, "random_draws": 1}


def _cube(n):
    j = np.arange(1 << n)[:, None]
    return 1.0 - 2.0 * ((j >> np.arange(n)[None, :]) & 1)


def _evaluate(q):
    """Brute force, independent of the check code: the two quantity kinds the certificate uses."""
    if "halfspace" in q["function"]:
        w, b = np.asarray(q["function"]["halfspace"]["w"], dtype=float), q["function"]["halfspace"]["b"]
        f = lambda X: (X @ w > b).astype(float)  # noqa: E731
        n = w.size
    else:
        spec = q["function"]["network"]
        u, W, b = (np.asarray(spec[k], dtype=float) for k in ("u", "W", "b"))
        f = lambda X: np.maximum(X @ W.T - b, 0.0) @ u  # noqa: E731
        n = W.shape[1]
    X = _cube(n)
    if q["quantity"] == "average_sensitivity":
        total = 0.0
        for i in range(n):
            Y = X.copy()
            Y[:, i] = -Y[:, i]
            total += np.mean(0.25 * (f(X) - f(Y)) ** 2)
        return float(total)
    assert q["quantity"] == "correlation_with_sum"
    return float(np.mean(f(X) * X.sum(axis=1)))


@pytest.fixture(scope="module")
def report(tmp_path_factory):
    return stage_claim("lemma6", BLOCK, SEED, REPLICATES, tmp_path_factory.mktemp("lemma6"))


@pytest.fixture(scope="module")
def records(report):
    return {r.check_id: r for r in report.records}


@pytest.mark.parametrize(
    "check_id,expected",
    [
        ("lemma6/bound", "PASS"),
        ("lemma6/identity-printed", "FAIL"),
        ("lemma6/identity-corrected", "PASS"),
        ("lemma6/hoeffding", "PASS"),
        ("lemma6/sensitivity-pm1", "PASS"),
    ],
)
def test_known_verdicts(records, check_id, expected):
    assert records[check_id].verdict.value == expected, records[check_id]
    from sparseact.paper import statements

    assert records[check_id].statement_id in {s["id"] for s in statements()}
    assert records[check_id].range


def test_observed_constant_is_below_one(records):
    assert 0 < records["lemma6/bound"].worst_value < 1.0
    assert "observed constant" in records["lemma6/bound"].notes


def test_tightness_row(report):
    row = report.tables["tightness"].iloc[0]
    assert row["proved_over_family"] >= 1.0 and row["family_value"] > 0


def test_identity_fail_has_a_certificate_that_recomputes(records):
    record = records["lemma6/identity-printed"]
    assert record.finding == "proof-slip" and record.counterexample
    cert = record.certificate
    lhs, rhs = _evaluate(cert["lhs"]), _evaluate(cert["rhs"])
    assert math.isclose(lhs, cert["lhs_value"], rel_tol=1e-12) and math.isclose(rhs, cert["rhs_value"], rel_tol=1e-12)
    assert cert["relation"] == "==" and abs(lhs - rhs) > 1e-3 and rhs < 0 < lhs


def test_run_agrees_with_the_core_identity_check(report):
    table = report.tables["lemma6"]
    claim = get_claim("lemma6")
    point = claim.points(BLOCK)["n6"]
    data = compute.generate(point, np.random.default_rng(3))
    rows = compute.run(point, data, None)["lemma6"]
    for (w, b), (_, row) in zip(zip(data["w"], data["b"], strict=True), rows.iterrows(), strict=True):
        ident = sensitivity.lemma6_identity_check(w, float(b))
        assert row["p"] == pytest.approx(ident.p, abs=1e-15)
        assert row["AS"] == pytest.approx(ident.AS, abs=1e-12)
        assert row["printed_rhs"] == pytest.approx(ident.paper_rhs, abs=1e-12)
        if row["positive"]:
            assert row["corrected_rhs"] == pytest.approx(ident.corrected_rhs, abs=1e-12)
    assert set(table["kind"]) == set(compute.KINDS)


def test_point_data_does_not_depend_on_other_grid_values(tmp_path):
    claim = get_claim("lemma6")
    small, big = claim.points({**BLOCK, "n_values": [8]}), claim.points(BLOCK)
    assert small["n8"] == big["n8"]
    generate_point("lemma6", "n8", small["n8"], SEED, REPLICATES, tmp_path / "a.npz")
    generate_point("lemma6", "n8", big["n8"], SEED, REPLICATES, tmp_path / "b.npz")
    assert (tmp_path / "a.npz").read_bytes() == (tmp_path / "b.npz").read_bytes()


@pytest.mark.parametrize("n", [3, 4, 7, 8])
def test_quarter_indicator_network(n):
    X = _cube(n)
    for t in range(n + 1):
        b = -n + 2 * t
        net = verdicts.quarter_indicator_network(n, b)
        assert np.array_equal(net.evaluate(X)[0], 0.25 * (X.sum(axis=1) <= b))


def test_corrected_identity_closed_form_for_majority():
    """g = 1{#(x_i = 1) <= t}: g(x) != g(x^i) iff the other n-1 coordinates hold exactly t ones, so
    AS(g) = (1/4) n C(n-1, t) / 2^(n-1) = -(1/2) E[g sum x_i], and the printed (1/4) E[g sum x_i] = -AS/2."""
    n = 7
    for t in range(n):
        w, b = np.ones(n), float(-n + 2 * t)
        ident = sensitivity.lemma6_identity_check(w, b)
        closed = 0.25 * n * math.comb(n - 1, t) / 2 ** (n - 1)
        assert ident.AS == pytest.approx(closed, rel=1e-12)
        assert ident.corrected_rhs == pytest.approx(closed, rel=1e-12)
        assert ident.paper_rhs == pytest.approx(-closed / 2, rel=1e-12)


def test_identity_corrected_fail_forced_is_refused(monkeypatch):
    """A forced violation: the factor -1/4 instead of -1/2, in the check and in the certificate's formula alike."""
    from sparseact.claims._failures import WORST

    point = get_claim("lemma6").points(BLOCK)["n6"]
    data = compute.generate(point, np.random.default_rng(3))
    tables = compute.run(point, data, None)
    assert {r.check_id: r for r in verdicts.assemble(BLOCK, tables).records}[
        "lemma6/identity-corrected"
    ].verdict.value == "PASS"
    tamper_constant(monkeypatch, "lemma6", "CORRECTED_FACTOR", -0.25)
    tables = compute.run(point, data, None)
    positive = tables["lemma6"][tables["lemma6"]["positive"] & (tables["lemma6"]["p"] < 1)]
    assert len(tables[WORST]) == 1 and len(positive) > 0  # one worst instance per point
    assert set(tables[WORST]["measure"]) == {"corrected-error"}
    assert tables[WORST]["excess"].iloc[0] == positive["corrected_error"].max()
    record = {r.check_id: r for r in verdicts.assemble(BLOCK, tables).records}["lemma6/identity-corrected"]
    assert_forced_fail_refused(record, "proof-slip")
    assert record.certificate["rhs"]["vars"]["f"] == -0.25
    assert abs(record.certificate["lhs_value"] - record.certificate["rhs_value"]) == pytest.approx(record.worst_value)
