"""Tests for sparseact.bounds: hand-computed values, broadcasting, monotonicity, domains."""

from __future__ import annotations

import inspect
import math

import numpy as np
import pytest
from hypothesis import assume, example, given, settings
from hypothesis import strategies as st

from sparseact import bounds as bd

rel = dict(rel=1e-12, abs=0.0)

# ---------------------------------------------------------------------------
# hand-computed values (written out with math.log / math.sqrt, natural log)
# ---------------------------------------------------------------------------


def test_log_convention_is_natural():
    assert bd.LOG_CONVENTION == "natural"


def test_lemma6_values():
    assert bd.lemma6_halfspace_as(0.5, 10) == pytest.approx(0.5 * math.sqrt(10 * math.log(2.0)), **rel)
    assert bd.lemma6_halfspace_as(0.1, 4) == pytest.approx(0.1 * math.sqrt(4 * math.log(10.0)), **rel)
    assert bd.lemma6_halfspace_as(1.0, 7) == 0.0


def test_lemma9_values():
    expected = 2**4 * 1**2 * math.sqrt(100) * math.log(1000) + 2**3 * 1**2 * math.sqrt(math.log(10))
    assert bd.lemma9_average_sensitivity(100, 10, 2, 1.0, 1.0) == pytest.approx(expected, **rel)
    expected = 3**4 * 0.5**2 * math.sqrt(4) * math.log(12) + 3**3 * 2**2 * math.sqrt(math.log(3))
    assert bd.lemma9_average_sensitivity(4, 3, 3, 0.5, 2.0) == pytest.approx(expected, **rel)
    # s = 1: bias term is 0 as printed
    assert bd.lemma9_average_sensitivity(9, 1, 1, 2.0, 3.0) == pytest.approx(4 * 3 * math.log(9), **rel)


def test_lemma9_terms_values():
    weight, bias = bd.lemma9_terms(100, 10, 2, 1.0, 1.0)
    assert weight == pytest.approx(16 * 10 * math.log(1000), **rel)
    assert bias == pytest.approx(8 * math.sqrt(math.log(10)), **rel)
    weight, bias = bd.lemma9_terms(1, 1, 1, 5.0, 5.0)
    assert weight == 0.0 and bias == 0.0


def test_lemma9_term_U_values():
    assert bd.lemma9_term_U(3, 2.0) == pytest.approx(9.0, **rel)
    assert bd.lemma9_term_U(1, 0.5) == pytest.approx(0.0625, **rel)


def test_lemma9_transition_probability_values():
    assert bd.lemma9_transition_probability(16, 20, 2) == pytest.approx(2 * math.sqrt(math.log(10)) / 4, **rel)
    assert bd.lemma9_transition_probability(9, 30, 1) == pytest.approx(math.sqrt(math.log(30)) / 3, **rel)
    assert bd.lemma9_transition_probability(9, 4, 4) == 0.0  # s = k: formula as printed


def test_lemma10_values():
    expected = math.sqrt(0.5) * (2**4 * 1 * math.log(10 * 5 / 0.5) ** 2 + 2**3 * 1 * math.sqrt(math.log(5)))
    assert bd.lemma10_noise_sensitivity(0.5, 10, 5, 2, 1.0, 1.0) == pytest.approx(expected, **rel)
    expected = math.sqrt(2.0) * (9 * math.log(4 / 2.0) ** 2)
    assert bd.lemma10_noise_sensitivity(-1.0, 2, 2, 1, 3.0, 0.0) == pytest.approx(expected, **rel)
    expected = math.sqrt(0.01) * (2**4 * 0.25**2 * math.log(1 * 3 / 0.01) ** 2 + 2**3 * 2**2 * math.sqrt(math.log(3)))
    assert bd.lemma10_noise_sensitivity(0.99, 1, 3, 2, 0.25, 2.0) == pytest.approx(expected, rel=1e-9)


def test_claim21_values():
    assert bd.claim21_tail_bound(0.1, 0.5, 3) == pytest.approx(0.2 / (1 - 0.125), **rel)
    assert bd.claim21_tail_bound(0.3, 0.0, 2) == pytest.approx(0.6, **rel)
    assert bd.claim21_tail_bound(0.05, 0.9, 1) == pytest.approx(0.1 / 0.1, **rel)


def test_theorem8_degree_values():
    expected = (math.log(1000) ** 4 + math.log(10)) / 0.01
    assert bd.theorem8_degree(0.1, 100, 10, 1, 1.0, 1.0) == pytest.approx(expected, **rel)
    expected = (2**8 * 0.5**4 * math.log(8) ** 4 + 2**6 * 2**4 * math.log(4)) / 0.25
    assert bd.theorem8_degree(0.5, 2, 4, 2, 0.5, 2.0) == pytest.approx(expected, **rel)


def test_theorem8_one_minus_rho_values():
    first = math.log(1000 / 0.1) / math.log(1000) ** 4
    second = 1 / math.log(10)
    assert first < second
    assert bd.theorem8_one_minus_rho(0.1, 100, 10, 1, 1.0, 1.0) == pytest.approx(0.01 * first, **rel)
    # large B: the bias constraint wins
    first = math.log(1000 / 0.1) / math.log(1000) ** 4
    second = 1 / (10.0**4 * math.log(10))
    assert second < first
    assert bd.theorem8_one_minus_rho(0.1, 100, 10, 1, 1.0, 10.0) == pytest.approx(0.01 * second, **rel)
    # k = 2, W = 0.5, B = 0 (no bias constraint)
    first = math.log(2 * 4 * 3 * 0.25 / 0.2) / (2**8 * 0.5**4 * math.log(12) ** 4)
    assert bd.theorem8_one_minus_rho(0.2, 4, 3, 2, 0.5, 0.0) == pytest.approx(0.04 * first, **rel)


def test_theorem8_one_minus_rho_degenerate():
    assert bd.theorem8_one_minus_rho(0.1, 5, 3, 1, 0.0, 0.0) == np.inf
    assert bd.theorem8_one_minus_rho(0.1, 1, 1, 1, 1.0, 1.0) == np.inf
    # k n s W^2 <= eps: printed value is <= 0, returned unclipped
    assert bd.theorem8_one_minus_rho(1.0, 1, 2, 1, 0.5, 0.0) < 0


def test_theorem8_sample_complexity_and_class_sup():
    assert bd.class_sup_bound(9, 2, 1.0, 1.0) == pytest.approx(8.0, **rel)
    assert bd.class_sup_bound(4, 3, 0.5, 0.0) == pytest.approx(3.0, **rel)
    expected = 4**2 * 2**2 * (1 * 2 + 1) ** 2 * math.log(100) / 0.1
    assert bd.theorem8_sample_complexity(0.1, 0.01, 4, 3, 2, 1.0, 1.0, 2) == pytest.approx(expected, **rel)
    expected = 1 * 1 * (0.5 * 3 + 0) ** 2 * math.log(2) / 0.25
    assert bd.theorem8_sample_complexity(0.25, 0.5, 9, 1, 1, 0.5, 0.0, 0) == pytest.approx(expected, **rel)


@pytest.mark.parametrize(
    "call, names",
    [
        (lambda: bd.theorem8_sample_complexity(0.1, 0.1, 1000, 10, 1, 1.0, 1.0, 1000), "n=1000, s=10"),
        (lambda: bd.theorem8_sample_complexity(0.1, 0.1, 10, 4, 2, 1.0, 1.0, 10**9), "d=1000000000"),
        (lambda: bd.lemma9_average_sensitivity(10, 4, 2, 1e200, 1e200), "W=1e+200, B=1e+200"),
        (lambda: bd.theorem8_degree(1e-300, 10, 4, 2, 1.0, 1.0), "eps=1e-300"),
        (lambda: bd.solve_for_m(1e308, 1e308), "a=1e+308, b=1e+308"),
        (lambda: bd.lemma10_noise_sensitivity(0.5, 10, 4, 2, 1e200, 1.0), "W=1e+200"),
        (lambda: bd.theorem19_rademacher(10, 3, 2, 1e200, 1.0, 1e200), "W=1e+200, B=1.0, R=1e+200"),
        (lambda: bd.memoriser_sample_complexity(2000, 1.0, 0.1, 0.1), "n=2000"),
    ],
)
def test_overflow_beyond_float64_is_refused_naming_the_arguments(call, names):
    """Finite arguments whose bound leaves float64 (issue 60's probe: A-B7, B13, B28, B40, B44, B45) are a one-line
    ValueError naming them, never an inf taken for a bound."""
    with pytest.raises(ValueError, match=r"exceeds float64 .* at .*" + names.replace("+", r"\+")):
        call()


def test_lemma7_values():
    assert bd.lemma7_sample_complexity(3, 2, 2.0, 0.5, math.exp(-1)) == pytest.approx(72.0, **rel)
    expected = 10**1.5 * 0.25 * math.log(20) / 0.01
    assert bd.lemma7_sample_complexity(10, 1.5, 0.5, 0.01, 0.05) == pytest.approx(expected, **rel)


def test_rademacher_values():
    assert bd.theorem19_rademacher(100, 5, 4, 1.0, 1.0, 2.0) == pytest.approx(
        3 * math.sqrt(20 * math.log(300)) / 10, **rel
    )
    assert bd.theorem19_rademacher(50, 3, 7, 0.0, 2.0, 1.0) == pytest.approx(
        2 * math.sqrt(21 * math.log(150)) / math.sqrt(50), **rel
    )
    assert bd.eq15_rademacher(100, 5, 4, 2, 1.0, 1.0, 2.0) == pytest.approx(
        3 * math.sqrt(40 * math.log(600)) / 10, **rel
    )
    assert bd.eq15_rademacher(64, 2, 9, 3, 0.5, 0.0, 4.0) == pytest.approx(
        2 * math.sqrt(54 * math.log(3 * 64 * 4)) / 8, **rel
    )
    assert bd.conjecture20_rademacher(100, 4, 2, 1.0, 1.0, 2.0) == pytest.approx(3 * math.sqrt(8) / 10, **rel)
    assert bd.conjecture20_rademacher(25, 9, 1, 2.0, 0.0, 1.0) == pytest.approx(2 * 3 / 5, **rel)
    assert bd.dense_rademacher(100, 4, 1.0, 1.0, 2.0) == pytest.approx(1.2, **rel)
    assert bd.dense_rademacher(16, 10, 0.5, 0.5, 3.0) == pytest.approx(2 * 10 / 4, **rel)


def test_theorem17_values():
    expected = (9 * 2 * 4 * 5 * math.log(2 * 3 / 0.1) + math.log(20)) / 0.01
    assert bd.theorem17_sample_complexity(0.1, 0.05, 5, 4, 2, 1.0, 1.0, 2.0) == pytest.approx(expected, **rel)
    expected = (1 * 1 * 1 * 1 * math.log(1 / 0.5) + math.log(2)) / 0.25
    assert bd.theorem17_sample_complexity(0.5, 0.5, 1, 1, 1, 0.0, 1.0, 0.0) == pytest.approx(expected, **rel)
    # k(R+B) < eps: the printed log is negative and is not clipped
    expected = (0.01 * 3 * math.log(0.1 / 0.5) + math.log(10)) / 0.25
    assert bd.theorem17_sample_complexity(0.5, 0.1, 1, 3, 1, 1.0, 0.0, 0.1) == pytest.approx(expected, **rel)


def test_theorem19_proof_terms_values():
    bias, weight = bd.theorem19_proof_terms(100, 5, 4, 1.0, 1.0, 2.0, c=2.0)
    assert bias == pytest.approx(4 * 1 * math.sqrt(4 * 5 * 2 * math.log(100)) / 10, **rel)
    assert weight == pytest.approx(4 * 1 * 2 * math.sqrt(5 * 4 * math.log(200)) / 10, **rel)
    bias, weight = bd.theorem19_proof_terms(9, 1, 1, 3.0, 0.5, 1.0)
    assert bias == pytest.approx(4 * 0.5 * math.sqrt(math.log(4.5)) / 3, **rel)
    assert weight == pytest.approx(4 * 3 * math.sqrt(math.log(9)) / 3, **rel)


def test_scalar_inputs_give_scalars():
    out = bd.lemma9_average_sensitivity(10, 5, 2, 1.0, 1.0)
    assert np.ndim(out) == 0
    assert isinstance(float(out), float)


# ---------------------------------------------------------------------------
# broadcasting
# ---------------------------------------------------------------------------

_BROADCAST_CASES = [
    (bd.lemma6_halfspace_as, ([0.1, 0.5, 1.0], [[4.0], [16.0]])),
    (bd.lemma9_average_sensitivity, ([10.0, 100.0, 1000.0], [[5.0], [50.0]], 2, 1.0, 0.5)),
    (bd.lemma9_term_U, ([1.0, 2.0, 3.0], [[0.5], [2.0]])),
    (bd.lemma9_transition_probability, ([10.0, 100.0, 1000.0], [[5.0], [50.0]], 2)),
    (bd.lemma10_noise_sensitivity, ([-1.0, 0.0, 0.9], [[4.0], [64.0]], 8, 2, 1.0, 1.0)),
    (bd.claim21_tail_bound, (0.1, [0.0, 0.5, 0.9], [[1], [4]])),
    (bd.theorem8_degree, ([0.1, 0.2, 0.5], [[4.0], [64.0]], 8, 2, 1.0, 1.0)),
    (bd.theorem8_one_minus_rho, ([0.1, 0.2, 0.5], [[4.0], [64.0]], 8, 2, 1.0, 1.0)),
    (bd.theorem8_sample_complexity, (0.1, 0.05, [4.0, 8.0, 16.0], 8, 2, 1.0, 1.0, [[1], [2]])),
    (bd.class_sup_bound, ([4.0, 9.0, 16.0], [[1.0], [3.0]], 1.0, 0.5)),
    (bd.lemma7_sample_complexity, ([4.0, 9.0, 16.0], [[1], [2]], 2.0, 0.1, 0.05)),
    (bd.theorem19_rademacher, ([10.0, 100.0, 1000.0], [[2.0], [8.0]], 4, 1.0, 1.0, 1.0)),
    (bd.eq15_rademacher, ([10.0, 100.0, 1000.0], 5, 4, [[1], [3]], 1.0, 1.0, 1.0)),
    (bd.conjecture20_rademacher, ([10.0, 100.0, 1000.0], 4, [[1], [3]], 1.0, 1.0, 1.0)),
    (bd.dense_rademacher, ([10.0, 100.0, 1000.0], [[1], [3]], 1.0, 1.0, 1.0)),
    (bd.theorem17_sample_complexity, ([0.1, 0.2, 0.5], 0.05, [[2.0], [8.0]], 4, 2, 1.0, 1.0, 1.0)),
]


@pytest.mark.parametrize("func,args", _BROADCAST_CASES, ids=lambda x: getattr(x, "__name__", ""))
def test_broadcasting_matches_elementwise(func, args):
    out = np.asarray(func(*args))
    arrays = np.broadcast_arrays(*[np.asarray(a, dtype=float) for a in args])
    assert out.shape == arrays[0].shape == (2, 3)
    for idx in np.ndindex(out.shape):
        scalar_args = [float(a[idx]) for a in arrays]
        assert out[idx] == pytest.approx(float(func(*scalar_args)), rel=1e-12)


def test_broadcasting_pairs():
    weight, bias = bd.lemma9_terms([10.0, 100.0], [[5.0], [50.0], [500.0]], 1, 1.0, 1.0)
    assert weight.shape == (3, 2) and bias.shape == (3, 2)
    b8, w14 = bd.theorem19_proof_terms([10.0, 100.0], [[1.0], [2.0], [3.0]], 4, 1.0, 1.0, 1.0)
    assert b8.shape == (3, 2) and w14.shape == (3, 2)


def test_output_has_shape_of_all_inputs():
    # s only enters through validation, yet the output follows its shape too
    out = bd.theorem8_sample_complexity(0.1, 0.1, 4, [[3.0], [5.0]], 1, 1.0, 1.0, [1, 2])
    assert np.shape(out) == (2, 2)
    weight, bias = bd.lemma9_terms([10.0, 100.0], [[5.0], [50.0], [500.0]], 1, 1.0, 1.0)
    assert weight.shape == bias.shape == (3, 2)


def test_incompatible_shapes_raise():
    with pytest.raises(ValueError):
        bd.dense_rademacher([10.0, 20.0], [1, 2, 3], 1.0, 1.0, 1.0)
    # one line naming the shapes, before numpy's own broadcast error (the second probe's traceback)
    with pytest.raises(ValueError, match=r"shapes do not broadcast together: n \(2,\), s \(3,\)"):
        bd.lemma9_average_sensitivity([10, 12], [4, 4, 4], 2, 1.0, 1.0)


# ---------------------------------------------------------------------------
# structural properties (hypothesis)
# ---------------------------------------------------------------------------

counts = st.integers(min_value=1, max_value=10**4)
scales = st.floats(min_value=0.0, max_value=1e2, allow_nan=False)
pos_scales = st.floats(min_value=1e-3, max_value=1e2, allow_nan=False)


@settings(max_examples=200, deadline=None)
@given(n1=counts, n2=counts, s=counts, k=counts, W=scales, B=scales)
def test_lemma9_nondecreasing_in_n(n1, n2, s, k, W, B):
    assume(k <= s)
    lo, hi = sorted((n1, n2))
    assert bd.lemma9_average_sensitivity(lo, s, k, W, B) <= bd.lemma9_average_sensitivity(hi, s, k, W, B)


@settings(max_examples=200, deadline=None)
@given(n=counts, s=counts, k1=counts, k2=counts, W=scales, B=scales)
def test_lemma9_nondecreasing_in_k(n, s, k1, k2, W, B):
    lo, hi = sorted((k1, k2))
    assume(hi <= s)
    assert bd.lemma9_average_sensitivity(n, s, lo, W, B) <= bd.lemma9_average_sensitivity(n, s, hi, W, B)


@settings(max_examples=200, deadline=None)
@given(n=counts, s=counts, k=counts, W1=scales, W2=scales, B1=scales, B2=scales)
def test_lemma9_nondecreasing_in_W_and_B(n, s, k, W1, W2, B1, B2):
    assume(k <= s)
    wl, wh = sorted((W1, W2))
    bl, bh = sorted((B1, B2))
    f = bd.lemma9_average_sensitivity
    assert f(n, s, k, wl, bl) <= f(n, s, k, wh, bl) <= f(n, s, k, wh, bh)


@settings(max_examples=200, deadline=None)
@given(n=counts, s1=counts, s2=counts, k=counts, W=scales, B=scales)
def test_lemma9_nondecreasing_in_s(n, s1, s2, k, W, B):
    lo, hi = sorted((s1, s2))
    assume(k <= lo)
    assert bd.lemma9_average_sensitivity(n, lo, k, W, B) <= bd.lemma9_average_sensitivity(n, hi, k, W, B)


@settings(max_examples=200, deadline=None)
@given(n=counts, s=counts, k=counts, W=scales, B=scales)
def test_lemma9_sum_of_terms(n, s, k, W, B):
    assume(k <= s)
    weight, bias = bd.lemma9_terms(n, s, k, W, B)
    assert weight >= 0 and bias >= 0
    assert bd.lemma9_average_sensitivity(n, s, k, W, B) == weight + bias


@settings(max_examples=200, deadline=None)
@given(m1=counts, m2=counts, n=counts, s=counts, W=scales, B=pos_scales, R=pos_scales)
def test_theorem19_decreasing_in_m_for_large_m(m1, m2, n, s, W, B, R):
    # sqrt(log(mA)/m) is decreasing once m*A >= e
    lo, hi = sorted((m1, m2))
    assume(lo * (R + B) >= math.e)
    f = bd.theorem19_rademacher
    assert f(hi, n, s, W, B, R) <= f(lo, n, s, W, B, R) * (1 + 1e-12)


@settings(max_examples=200, deadline=None)
@given(m=counts, n=counts, s=counts, W=scales, B=pos_scales, R=pos_scales)
def test_eq15_at_k1_is_theorem19(m, n, s, W, B, R):
    assume(m * (R + B) >= 1)
    assert bd.eq15_rademacher(m, n, s, 1, W, B, R) == pytest.approx(
        bd.theorem19_rademacher(m, n, s, W, B, R), rel=1e-12, abs=0.0
    )


@settings(max_examples=200, deadline=None)
@given(m=counts, n=counts, s=counts, k=counts, W=scales, B=pos_scales, R=pos_scales)
def test_eq15_vs_theorem19_only_log_argument_and_k(m, n, s, k, W, B, R):
    # eq15 / thm19 = sqrt(k * log(k m (R+B)) / log(m (R+B))): they differ only in the
    # extra factor k and the log(k m ...) vs log(m ...) argument.
    assume(k <= s and m * (R + B) > 1.01 and W * R + B > 0)
    ratio = bd.eq15_rademacher(m, n, s, k, W, B, R) / bd.theorem19_rademacher(m, n, s, W, B, R)
    expected = math.sqrt(k * math.log(k * m * (R + B)) / math.log(m * (R + B)))
    assert ratio == pytest.approx(expected, rel=1e-9)


@settings(max_examples=200, deadline=None)
@given(m=counts, s=counts, k=counts, W=scales, B=scales, R=scales)
def test_conjecture20_below_dense(m, s, k, W, B, R):
    assume(k <= s)
    assert bd.conjecture20_rademacher(m, s, k, W, B, R) <= bd.dense_rademacher(m, s, W, B, R) * (1 + 1e-12)


@settings(max_examples=200, deadline=None)
@given(m=counts, n=counts, s=counts, W=scales, B=pos_scales, R=pos_scales, c=st.floats(min_value=0.01, max_value=100.0))
def test_proof_terms_sum_within_4_max_sqrt_c_of_eq1(m, n, s, W, B, R, c):
    assume(m * B >= 1 and m * R >= 1)
    bias, weight = bd.theorem19_proof_terms(m, n, s, W, B, R, c=c)
    eq1 = bd.theorem19_rademacher(m, n, s, W, B, R)
    assert bias + weight <= 4 * max(math.sqrt(c), 1.0) * eq1 * (1 + 1e-9) + 1e-300


@settings(max_examples=200, deadline=None)
@given(
    ns=st.floats(min_value=0.0, max_value=10.0),
    rho=st.floats(min_value=0.0, max_value=0.999),
    d1=st.integers(1, 50),
    d2=st.integers(1, 50),
)
def test_claim21_nonincreasing_in_d(ns, rho, d1, d2):
    lo, hi = sorted((d1, d2))
    assert bd.claim21_tail_bound(ns, rho, hi) <= bd.claim21_tail_bound(ns, rho, lo) * (1 + 1e-12)


@settings(max_examples=200, deadline=None)
@given(
    n=counts,
    s=counts,
    k=counts,
    W=scales,
    B=scales,
    eps=st.floats(min_value=1e-3, max_value=1.0),
    delta=st.floats(min_value=1e-6, max_value=0.99),
    d=st.integers(0, 3),
)
@example(n=1.0, s=4.0, k=4.0, W=0.0, B=3.884528767058161e-162, eps=1.0, delta=0.5, d=0)  # subnormal result
@example(n=4179.0, s=589.0, k=589.0, W=3.770432511615328e-159, B=0.0, eps=1.0, delta=0.5, d=3)  # subnormal square
def test_theorem8_samples_is_lemma7_with_class_sup(n, s, k, W, B, eps, delta, d):
    """Theorem 8's count is Lemma 7's with C = k (W sqrt(n) + B): k^2 (W sqrt(n) + B)^2 against (k (W sqrt(n) + B))^2,
    equal to 12 digits where the square (W sqrt(n) + B)^2 is a normal float. Below the normal range a float keeps
    fewer digits (none at all once it underflows to 0), so there both counts are checked against what a square of the
    smallest normal float carries, n^d k^2 tiny log(1/delta) / eps."""
    assume(k <= s)
    C = bd.class_sup_bound(n, k, W, B)
    tiny = np.finfo(float).tiny
    theorem8 = bd.theorem8_sample_complexity(eps, delta, n, s, k, W, B, d)
    lemma7 = bd.lemma7_sample_complexity(n, d, C, eps, delta)
    if (W * np.sqrt(n) + B) ** 2 < tiny:
        ceiling = n**d * k**2 * tiny * np.log(1.0 / delta) / eps * (1 + 1e-12)
        assert 0 <= theorem8 <= ceiling and 0 <= lemma7 <= ceiling
    else:
        assert theorem8 == pytest.approx(lemma7, rel=1e-12)


@settings(max_examples=200, deadline=None)
@given(p=st.floats(min_value=1e-12, max_value=1.0), n=counts)
def test_lemma6_nonnegative_and_sqrt_n_scaling(p, n):
    v = bd.lemma6_halfspace_as(p, n)
    assert v >= 0
    assert bd.lemma6_halfspace_as(p, 4 * n) == pytest.approx(2 * v, rel=1e-12, abs=1e-300)


@settings(max_examples=200, deadline=None)
@given(n=counts, s=counts, k=counts, W=scales, B=scales)
def test_lemma10_vanishes_as_rho_to_1(n, s, k, W, B):
    assume(k <= s)
    vals = [bd.lemma10_noise_sensitivity(1 - t, n, s, k, W, B) for t in (1e-6, 1e-10, 1e-14)]
    assert vals[2] <= vals[1] <= vals[0]


# ---------------------------------------------------------------------------
# domain errors
# ---------------------------------------------------------------------------

_BAD = [
    (bd.lemma6_halfspace_as, (0.0, 5), "p"),
    (bd.lemma6_halfspace_as, (1.5, 5), "p"),
    (bd.lemma6_halfspace_as, (0.5, 0), "n"),
    (bd.lemma9_average_sensitivity, (0, 5, 1, 1.0, 1.0), "n"),
    (bd.lemma9_average_sensitivity, (10, -1, 1, 1.0, 1.0), "s"),
    (bd.lemma9_average_sensitivity, (10, 5, 0, 1.0, 1.0), "k"),
    (bd.lemma9_average_sensitivity, (10, 5, 6, 1.0, 1.0), "k must be <= s"),
    (bd.lemma9_average_sensitivity, (10, 5, 2, -1.0, 1.0), "W"),
    (bd.lemma9_average_sensitivity, (10, 5, 2, 1.0, -0.1), "B"),
    (bd.lemma9_average_sensitivity, (0.5, 5, 2, 1.0, 1.0), "n"),
    (bd.lemma9_average_sensitivity, ([10, np.nan], 5, 2, 1.0, 1.0), "n"),
    (bd.lemma9_terms, (10, 5, [1, 7], 1.0, 1.0), "k must be <= s"),
    (bd.lemma9_term_U, (0, 1.0), "k"),
    (bd.lemma9_term_U, (1, -1.0), "W"),
    (bd.lemma9_transition_probability, (10, 3, 4), "k must be <= s"),
    (bd.lemma10_noise_sensitivity, (1.0, 10, 5, 1, 1.0, 1.0), "rho"),
    (bd.lemma10_noise_sensitivity, (-1.5, 10, 5, 1, 1.0, 1.0), "rho"),
    (bd.lemma10_noise_sensitivity, (0.5, 10, 5, 1, 1.0, -2.0), "B"),
    (bd.claim21_tail_bound, (0.1, 1.0, 3), "rho"),
    (bd.claim21_tail_bound, (0.1, -0.5, 3), "rho"),
    (bd.claim21_tail_bound, (0.1, 0.5, 0), "d"),
    (bd.claim21_tail_bound, (0.1, 0.5, 2.5), "d"),
    (bd.claim21_tail_bound, (-0.1, 0.5, 2), "ns_rho"),
    (bd.theorem8_degree, (0.0, 10, 5, 1, 1.0, 1.0), "eps"),
    (bd.theorem8_degree, (-0.1, 10, 5, 1, 1.0, 1.0), "eps"),
    (bd.theorem8_one_minus_rho, (0.1, 10, 5, 6, 1.0, 1.0), "k must be <= s"),
    (bd.theorem8_sample_complexity, (0.1, 1.0, 10, 5, 1, 1.0, 1.0, 2), "delta"),
    (bd.theorem8_sample_complexity, (0.1, 0.0, 10, 5, 1, 1.0, 1.0, 2), "delta"),
    (bd.theorem8_sample_complexity, (0.1, 0.1, 10, 5, 1, 1.0, 1.0, -1), "d"),
    (bd.class_sup_bound, (10, 1, 1.0, -1.0), "B"),
    (bd.lemma7_sample_complexity, (10, 2, -1.0, 0.1, 0.1), "C"),
    (bd.lemma7_sample_complexity, (10, 2, 1.0, 0.1, 1.5), "delta"),
    (bd.theorem19_rademacher, (0, 5, 4, 1.0, 1.0, 1.0), "m"),
    (bd.theorem19_rademacher, (10, 5, 4, 1.0, 1.0, -1.0), "R"),
    (bd.theorem19_rademacher, (2, 5, 4, 1.0, 0.1, 0.2), r"m\*\(R\+B\)"),
    (bd.eq15_rademacher, (10, 5, 4, 5, 1.0, 1.0, 1.0), "k must be <= s"),
    (bd.eq15_rademacher, (1, 5, 4, 1, 1.0, 0.0, 0.5), r"k\*m\*\(R\+B\)"),
    (bd.conjecture20_rademacher, (0, 4, 1, 1.0, 1.0, 1.0), "m"),
    (bd.conjecture20_rademacher, (10, 4, 1, -1.0, 1.0, 1.0), "W"),
    (bd.dense_rademacher, (10, 0, 1.0, 1.0, 1.0), "s"),
    (bd.theorem17_sample_complexity, (0.0, 0.1, 5, 4, 1, 1.0, 1.0, 1.0), "eps"),
    (bd.theorem17_sample_complexity, (0.1, 0.1, 5, 4, 1, 1.0, 0.0, 0.0), "R \\+ B"),
    (bd.theorem19_proof_terms, (10, 5, 4, 1.0, 0.0, 1.0), r"m\*B"),
    (bd.theorem19_proof_terms, (10, 5, 4, 1.0, 1.0, 0.01), r"m\*R"),
    (bd.theorem19_proof_terms, (10, 5, 4, 1.0, 1.0, 1.0, 0.0), "c"),
]


@pytest.mark.parametrize("func,args,match", _BAD, ids=lambda x: getattr(x, "__name__", None))
def test_out_of_domain_raises(func, args, match):
    with pytest.raises(ValueError, match=match):
        func(*args)


def test_non_numeric_raises_value_error():
    with pytest.raises(ValueError, match="n"):
        bd.lemma9_average_sensitivity("ten", 5, 1, 1.0, 1.0)


# ---------------------------------------------------------------------------
# registry
# ---------------------------------------------------------------------------

_EXPECTED_IDS = {
    "lemma6": bd.lemma6_halfspace_as,
    "lemma9": bd.lemma9_average_sensitivity,
    "lemma10": bd.lemma10_noise_sensitivity,
    "claim2.1": bd.claim21_tail_bound,
    "thm8-degree": bd.theorem8_degree,
    "thm19": bd.theorem19_rademacher,
    "eq15": bd.eq15_rademacher,
    "conj20": bd.conjecture20_rademacher,
    "dense": bd.dense_rademacher,
    "thm17": bd.theorem17_sample_complexity,
}


def test_registry_complete():
    assert bd.BOUNDS == _EXPECTED_IDS


@pytest.mark.parametrize("bound_id", sorted(_EXPECTED_IDS))
def test_describe_returns_printed_formula(bound_id):
    text = bd.describe(bound_id)
    assert isinstance(text, str) and text
    assert any(tok in text for tok in ("O(", "O\\left(", "\\leq", "\\Theta", "\\frac"))


def test_describe_specific_texts():
    assert "k^4 W^2 \\sqrt{n} \\log(ns) + k^3 B^2 \\sqrt{\\log s}" in bd.describe("lemma9")
    assert "\\log(m(R+B))" in bd.describe("thm19")
    assert "\\log(km(R + B))" in bd.describe("eq15")
    assert "\\log(ns)^4" in bd.describe("thm8-degree")


def test_describe_unknown_id():
    with pytest.raises(ValueError, match="unknown bound id"):
        bd.describe("lemma99")


def test_every_public_function_documents_reference_and_formula():
    names = [n for n in bd.__all__ if callable(getattr(bd, n)) and n != "describe"]
    for name in names:
        doc = getattr(bd, name).__doc__
        assert doc and "Printed" in doc, name


#: A valid value of every argument of the bound functions that take a count.
_VALID = dict(eps=0.1, delta=0.1, rho=0.5, W=1.0, B=1.0, R=1.0, C=1.0, d=2, c=1.0, p=0.5, n=8, s=4, k=2, m=8)
_COUNTED = [
    (name, [p for p in inspect.signature(getattr(bd, name)).parameters if p in ("n", "s", "k", "m")])
    for name in bd.__all__
    if callable(getattr(bd, name)) and not isinstance(getattr(bd, name), type) and name != "describe"
]
_COUNTED = [(name, counts) for name, counts in _COUNTED if counts]


def test_every_function_taking_a_count_is_checked():
    assert len(_COUNTED) >= 15 and {"lemma9_average_sensitivity", "class_sup_bound"} <= {n for n, _ in _COUNTED}


@settings(max_examples=200, deadline=None)
@given(
    case=st.sampled_from([(name, count) for name, counts in _COUNTED for count in counts]),
    value=st.floats(min_value=1.0, max_value=1e6).filter(lambda v: v != int(v)) | st.booleans(),
    as_list=st.booleans(),
)
def test_a_count_must_be_a_whole_number(case, value, as_list):
    """n, s, k and m are counts: ``lemma9_average_sensitivity(10.5, 4, 2, 1.0, 1.0)`` returned 203.2 (issue 60,
    probe 5, case 12); every bound function shares the one check, for scalars and lists alike, and bools too."""
    name, count = case
    function = getattr(bd, name)
    arguments = {p: _VALID[p] for p in inspect.signature(function).parameters if p in _VALID}
    function(**arguments)
    with pytest.raises(ValueError, match=f"^{count} "):
        function(**{**arguments, count: [value] if as_list else value})
