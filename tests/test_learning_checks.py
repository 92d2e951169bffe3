"""Verdicts of the Theorem 8 / Lemma 7 / Theorem 13-hardness checks on a small grid."""

import numpy as np
import pytest

from sparseact.cube import hypercube
from sparseact.learning_checks import check_theorem8, degree_needed, number_of_monomials

SMALL = {
    "theorem8": {"n": 8, "s": 4, "k_values": [1, 2], "families": ["gaussian"], "parity_p": 2, "degrees": [0, 1, 2, 3],
                 "sample_sizes": [200, 400, 800], "seeds": 2, "eps": 0.05, "relative_eps": 0.1, "delta": 0.1},
    "hardness": {"n_values": [5, 6, 7], "p_values": [2, 3], "degrees": [0, 1, 2, 3], "samples": 400},
}


@pytest.fixture(scope="module")
def verdicts():
    return {r.check_id: r for r in check_theorem8(SMALL, np.random.default_rng(3)).records}


@pytest.mark.parametrize("check_id,expected", [
    ("thm8/tail-step-printed", "FAIL"), ("thm8/tail-step-corrected", "PASS"), ("thm8/rho-choice", "FAIL"),
    ("thm13-hardness/parity-cliff", "PASS"), ("thm13-hardness/cost", "PASS"), ("thm8/prescription", "PASS"),
])
def test_expected_verdicts(verdicts, check_id, expected):
    assert verdicts[check_id].verdict.value == expected, verdicts[check_id]


def test_fails_have_counterexamples(verdicts):
    for record in verdicts.values():
        if record.verdict.value == "FAIL":
            assert record.counterexample


def test_degree_needed_closed_forms():
    X = hypercube(6)
    parity3 = X[:, :3].prod(axis=1)
    assert degree_needed(parity3, 1e-9) == 3
    assert degree_needed(X[:, 0], 1e-9) == 1
    assert degree_needed(np.ones(64), 1e-9) == 0
    assert degree_needed(parity3, 0.1, relative=True) == 3


def test_number_of_monomials():
    assert number_of_monomials(20, 3) == 1 + 20 + 190 + 1140
    assert number_of_monomials(3, 5) == 8
