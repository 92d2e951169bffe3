"""``sparseact.claims.theorem17.dense_lower_bound``: the exact arithmetic of dense-lower-bound-uniform."""

from __future__ import annotations

import math
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from sparseact.claims.theorem17.dense_lower_bound import (
    BLOCK_FACTOR,
    degree_one_error,
    hamming_ball,
    hamming_ball_rows,
    uniform_instance,
)


@pytest.mark.parametrize("t", [1, 2, 5])
def test_degree_one_coefficients_are_half_z(t):
    assert degree_one_error(t) == 0


@given(st.integers(min_value=1, max_value=120))
def test_hamming_ball_below_entropy_bound(t):
    """|B(floor(t/4))| <= 2^{H(1/4) t}, compared in floating point against the closed form of H(1/4)."""
    entropy = -(0.25 * math.log2(0.25) + 0.75 * math.log2(0.75))
    assert math.log2(hamming_ball(t)) <= entropy * t + 1e-9
    assert entropy == pytest.approx(2 - 0.75 * math.log2(3), abs=1e-15)


def test_hamming_ball_rows_hold_and_count():
    rows = hamming_ball_rows(40)
    assert len(rows) == 40 and all(r["holds"] for r in rows)
    assert rows[3]["volume"] == 1 + 4  # t = 4: radius 1


def test_uniform_instance_witness_is_least_and_valid():
    w = uniform_instance(2, Fraction(1, 2), 1, Fraction(1, 4), 1)
    assert w["M"] == 16 and w["L"] == BLOCK_FACTOR // 2 and w["n"] == w["t"] * w["L"]
    assert w["wrong_ok"] and w["below"] and w["bound"] < Fraction(3, 4)
    t = w["t"] - 4  # the previous multiple of 4 fails the integer comparison
    assert ((t + 1) ** 16 * 2**t) ** 4 >= Fraction(3, 4) ** 4 * 3 ** (3 * t)


@given(
    st.integers(min_value=1, max_value=3),
    st.fractions(min_value=Fraction(1, 4), max_value=4),
    st.fractions(min_value=Fraction(1, 4), max_value=4),
    st.fractions(min_value=Fraction(1, 10), max_value=Fraction(9, 10)),
)
def test_uniform_instance_block_length_pins_the_radius(s, eps, W, delta):
    """8 eps t/(W^2 L) <= t/4 whatever the parameters (L = max(1, ceil(32 eps/W^2)))."""
    w = uniform_instance(s, eps, W, delta, Fraction(1, 100))
    assert w["wrong_ok"] and 32 * eps <= W**2 * w["L"]


@pytest.mark.parametrize(
    "args, error",
    [
        ((0, Fraction(1), 1, Fraction(1, 2), 1), ValueError),
        ((1, Fraction(1), 0, Fraction(1, 2), 1), ValueError),
        ((1, Fraction(1), 1, Fraction(1), 1), ValueError),
        ((1, Fraction(0), 1, Fraction(1, 2), 1), ValueError),
        ((1, 0.5, 1, Fraction(1, 2), 1), TypeError),
        ((True, Fraction(1), 1, Fraction(1, 2), 1), ValueError),
    ],
)
def test_uniform_instance_rejects_bad_arguments(args, error):
    with pytest.raises(error):
        uniform_instance(*args)


@pytest.mark.parametrize("bad", [0, -1, 1.5, True])
def test_sizes_reject_bad_t(bad):
    for function in (degree_one_error, hamming_ball, hamming_ball_rows):
        with pytest.raises(ValueError):
            function(bad)
