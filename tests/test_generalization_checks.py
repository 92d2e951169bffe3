"""Theorem 17 and Theorem 19 checks on tiny grids: rows exist, verdicts are computed, tables are consistent."""

import numpy as np
import pytest

from sparseact.generalization_checks import check_theorem17, check_theorem19, product_weights

T19 = {"distributions": ["uniform"], "n": 4, "m_values": [10, 20, 40], "s_values": [1, 2, 4], "k_values": [1],
       "W": 1.0, "B": 1.0, "n_zeta": 2, "confirm_zeta": 4, "dimension": {"n_values": [2, 4, 8], "m": 12, "s": 1, "k": 1},
       "exact": {"m": 4, "n": 2, "s_values": [1, 2], "k_values": [1], "zetas": 3},
       "scale": {"m": 8, "n": 2, "R_values": [1.0, 0.2, 0.13]}}
T17 = {"index_b": [1], "junta_n": 4, "junta_p": [2], "bias": 0.7, "sample_sizes": [16, 32], "seeds": 1,
       "width_factor": 2, "restarts": 1, "max_iter": 40, "degree": 2, "eps": 0.05, "delta": 0.2}


def test_product_weights_sum_to_one():
    weights = product_weights(5, 0.3)
    assert weights.sum() == pytest.approx(1.0)
    assert weights[0] == pytest.approx(0.3**5)  # row 0 is the all-ones point


def test_theorem19_rows():
    report = check_theorem19(T19, np.random.default_rng(1))
    ids = {r.check_id: r for r in report.records}
    assert set(ids) == {"thm19/estimators", "thm19/bound", "eq15/bound", "conj20/bound", "thm19/sparse-vs-dense",
                        "conj20/dimension", "thm19/scale"}
    assert ids["thm19/scale"].verdict.value == "FAIL" and ids["thm19/scale"].counterexample
    assert ids["thm19/estimators"].verdict.value == "PASS"  # lower <= exact <= proof quantity, per zeta
    sweep = report.tables["theorem19-sweep"]
    assert (sweep["ci_low"] <= sweep["estimate"]).all() and set(sweep["cls"]) == {"sparse", "dense"}


def test_theorem17_rows():
    report = check_theorem17(T17, np.random.default_rng(2))
    (record,) = report.records
    assert record.check_id == "thm17/sample-complexity"
    curves = report.tables["theorem17-curves"]
    assert set(curves["learner"]) == {"sparse ERM", "unconstrained", "low-degree d=2"}
    assert (curves["test_loss"] >= 0).all()
