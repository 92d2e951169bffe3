"""Verdicts of the Lemma 6/9/10, Claim 2.1 and Appendix B checks on a small grid."""

import numpy as np
import pytest

from sparseact.cube import hypercube
from sparseact.ledger import Verdict
from sparseact.sensitivity_checks import (
    check_lemma9,
    check_lemma10,
    noise_sensitivity_by_definition,
)
from sparseact import analysis

SMALL9 = {
    "lemma9": {"n_values": [6, 7, 8], "s_values": [2, 4, 8], "k_values": [1, 2, 4], "families": ["gaussian", "bucket"],
               "instances": 3,
               "adversarial": {"n_values": [6], "s": 4, "k_values": [1], "restarts": 1, "iterations": 5},
               "monte_carlo": {"n_values": [30, 40, 50], "s": 4, "k": 1, "samples": 500}},
    "lemma6": {"n_values": [6, 8, 10], "thresholds": 4, "random_draws": 1},
}
SMALL10 = {
    "lemma10": {"n_values": [5, 6, 7], "s": 4, "k_values": [1, 2], "instances": 1, "one_minus_rho": [0.01, 0.1, 1.0]},
    "appB": {"n": 3, "s": 2, "k": 1, "rho_values": [0.3, 0.5], "instances": 1},
}


@pytest.fixture(scope="module")
def verdicts():
    rng = np.random.default_rng(5)
    records = check_lemma9(SMALL9, rng).records + check_lemma10(SMALL10, rng).records
    return {r.check_id: r for r in records}


@pytest.mark.parametrize("check_id,expected", [
    ("lemma9/term-U-printed", "FAIL"), ("lemma9/term-U-corrected", "PASS"),
    ("lemma9/transition-union-printed", "FAIL"), ("lemma9/transition-union-corrected", "PASS"),
    ("lemma9/tighter-4k2W2", "PASS"), ("lemma9/bound", "PASS"),
    ("lemma6/identity-printed", "FAIL"), ("lemma6/identity-corrected", "PASS"),
    ("claim2.1/tail", "PASS"), ("claim2.1/tail-all-rho", "FAIL"), ("claim2.1/ns-formula", "PASS"),
    ("appB/eq17-printed", "FAIL"), ("appB/eq17-corrected", "PASS"),
])
def test_expected_verdicts(verdicts, check_id, expected):
    assert verdicts[check_id].verdict.value == expected, verdicts[check_id]


def test_fails_carry_counterexamples(verdicts):
    for record in verdicts.values():
        if record.verdict is Verdict.FAIL:
            assert record.counterexample, record.check_id


def test_noise_sensitivity_by_definition_matches_closed_form():
    X = hypercube(4)
    parity = X.prod(axis=1)
    for rho in (-0.5, 0.0, 0.3, 0.9):
        assert noise_sensitivity_by_definition(parity, rho) == pytest.approx((1 - rho**4) / 2)
        assert noise_sensitivity_by_definition(parity, rho) == pytest.approx(float(analysis.noise_sensitivity(parity, rho)))


def test_monte_carlo_chunks_are_seeded_per_dimension():
    from sparseact.sensitivity_checks import lemma9_monte_carlo_chunk

    block = {"n_values": [30, 40], "s": 4, "k": 1, "samples": 300}
    a = lemma9_monte_carlo_chunk(block, 30, seed=9)
    assert a.equals(lemma9_monte_carlo_chunk(block, 30, seed=9))
    assert list(a["n"]) == [30]
    assert not a.equals(lemma9_monte_carlo_chunk(block, 30, seed=10))
