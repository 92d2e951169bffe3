"""Tests for sparseact.analysis: exact Fourier analysis (Section 2.1, Claim 2.1) and Monte Carlo."""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest
import scipy.linalg
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from sparseact.analysis import (
    MonteCarloEstimate,
    _fwht_into,
    average_sensitivity,
    average_sensitivity_mc,
    fourier_tail,
    fwht,
    fwht_reference,
    influences,
    level_weights,
    noise_sensitivity,
    noise_sensitivity_from_level_weights,
    noise_sensitivity_mc,
    walsh_coefficients,
)
from sparseact.cube import hypercube, indices_from_points
from sparseact.networks import SparseReLUNetwork

# ---------------------------------------------------------------------------
# Independent reference implementations (no Walsh-Hadamard transform involved)
# ---------------------------------------------------------------------------


def popcounts(n: int) -> np.ndarray:
    return np.array([bin(j).count("1") for j in range(1 << n)], dtype=np.int64)


def character_matrix(n: int) -> np.ndarray:
    """chi[T, j] = prod_{i in T} x_i for x = hypercube(n)[j], built from the points."""
    X = hypercube(n)
    chi = np.ones((1 << n, 1 << n))
    for T in range(1 << n):
        for i in range(n):
            if T >> i & 1:
                chi[T] *= X[:, i]
    return chi


def brute_coefficients(values: np.ndarray) -> np.ndarray:
    n = values.size.bit_length() - 1
    return character_matrix(n) @ values / values.size


def brute_noise_sensitivity(values: np.ndarray, rho: float) -> float:
    """NS_rho from the definition: sum over all (x, y) of Pr[x] Pr[y | x] (1/4)(f(x)-f(y))^2."""
    N = values.size
    n = N.bit_length() - 1
    p = (1.0 - rho) / 2.0
    j = np.arange(N)
    dist = popcounts(n)[j[:, None] ^ j[None, :]]  # Hamming distance between rows
    prob = (p**dist) * ((1.0 - p) ** (n - dist)) / N  # 0**0 == 1 handles rho = +-1
    diff2 = (values[:, None] - values[None, :]) ** 2
    return float((prob * 0.25 * diff2).sum())


def brute_influences(values: np.ndarray) -> np.ndarray:
    """Inf_i by flipping columns of the point matrix (not by index arithmetic)."""
    N = values.size
    n = N.bit_length() - 1
    X = hypercube(n)
    out = np.empty(n)
    for i in range(n):
        Xf = X.copy()
        Xf[:, i] *= -1
        out[i] = np.mean(0.25 * (values - values[indices_from_points(Xf)]) ** 2)
    return out


def table(f, n: int) -> np.ndarray:
    return np.asarray([f(x) for x in hypercube(n)], dtype=np.float64)


def random_network(n: int, s: int, seed: int) -> SparseReLUNetwork:
    rng = np.random.default_rng(seed)
    return SparseReLUNetwork(rng.standard_normal(s), rng.standard_normal((s, n)) / math.sqrt(n), rng.standard_normal(s))


# ---------------------------------------------------------------------------
# Closed forms
# ---------------------------------------------------------------------------


@pytest.fixture(params=[1, 2, 5, 8])
def parity(request):
    n = request.param
    return n, table(lambda x: np.prod(x), n)


@pytest.fixture(params=[(1, 1), (4, 1), (4, 3), (7, 7)])
def dictator(request):
    n, i = request.param  # f(x) = x_i, 1-based i
    return n, i, table(lambda x: x[i - 1], n)


@pytest.fixture(params=[1, 3, 5, 7, 9])
def majority(request):
    n = request.param
    return n, table(lambda x: np.sign(x.sum()), n)


@pytest.fixture(params=[(2, 2), (2, 3), (3, 2), (3, 3), (4, 2)])
def tribes(request):
    # Tribes_{w,m}: "True" is x_i = -1; f = -1 iff some tribe of w consecutive
    # coordinates is all True (OR of ANDs), else +1.
    w, m = request.param
    n = w * m

    def f(x):
        return -1.0 if any(np.all(x[k * w : (k + 1) * w] == -1) for k in range(m)) else 1.0

    return w, m, table(f, n)


def test_parity(parity):
    n, v = parity
    fhat = walsh_coefficients(v)
    expected = np.zeros(1 << n)
    expected[-1] = 1.0  # chi_[n] is the full bitmask
    np.testing.assert_array_equal(fhat, expected)
    np.testing.assert_allclose(influences(v), np.ones(n))
    assert average_sensitivity(v) == pytest.approx(n)
    rho = np.linspace(-1, 1, 11)
    np.testing.assert_allclose(noise_sensitivity(v, rho), (1 - rho**n) / 2, atol=1e-15)
    w = level_weights(v)
    np.testing.assert_allclose(w, np.eye(n + 1)[n])
    for d in range(n + 2):
        assert fourier_tail(v, d) == (1.0 if d < n else 0.0)


def test_dictator(dictator):
    n, i, v = dictator
    fhat = walsh_coefficients(v)
    expected = np.zeros(1 << n)
    expected[1 << (i - 1)] = 1.0
    np.testing.assert_array_equal(fhat, expected)
    np.testing.assert_array_equal(influences(v), np.eye(n)[i - 1])
    assert average_sensitivity(v) == 1.0
    assert noise_sensitivity(v, 0.3) == pytest.approx(0.35)
    np.testing.assert_array_equal(level_weights(v), np.eye(n + 1)[1])


def test_majority(majority):
    n, v = majority
    pivotal = math.comb(n - 1, (n - 1) // 2) / 2 ** (n - 1)  # Pr[coordinate i is pivotal]
    np.testing.assert_allclose(influences(v), np.full(n, pivotal), rtol=1e-12)
    assert average_sensitivity(v) == pytest.approx(n * pivotal, rel=1e-12)
    # Majority is odd: only odd levels carry weight; Parseval gives 1 in total.
    w = level_weights(v)
    np.testing.assert_allclose(w[0::2], 0.0, atol=1e-15)
    assert w.sum() == pytest.approx(1.0)
    # W^1 = n * fhat({i})^2 with fhat({i}) = Inf_i (monotone Boolean function).
    assert w[1] == pytest.approx(n * pivotal**2)


def test_tribes(tribes):
    w, m, v = tribes
    n = w * m
    # i is pivotal iff the other w-1 coordinates of its tribe are all True and
    # every other tribe is not all True.
    inf_each = 2.0 ** -(w - 1) * (1 - 2.0**-w) ** (m - 1)
    np.testing.assert_allclose(influences(v), np.full(n, inf_each), rtol=1e-12)
    assert average_sensitivity(v) == pytest.approx(n * inf_each, rel=1e-12)
    # Pr[Tribes = True] = 1 - (1 - 2^-w)^m gives fhat(empty) = E f.
    p_true = 1 - (1 - 2.0**-w) ** m
    assert walsh_coefficients(v)[0] == pytest.approx(1 - 2 * p_true)


@pytest.mark.parametrize("n", [0, 1, 3, 6])
@pytest.mark.parametrize("c", [0.0, -2.5])
def test_constant(n, c):
    v = np.full(1 << n, c)
    fhat = walsh_coefficients(v)
    assert fhat[0] == c and not fhat[1:].any()
    assert influences(v).shape == (n,) and not influences(v).any()
    assert average_sensitivity(v) == 0.0
    np.testing.assert_array_equal(noise_sensitivity(v, [-1.0, 0.0, 0.5, 1.0]), 0.0)
    np.testing.assert_array_equal(level_weights(v), np.eye(n + 1)[0] * c * c)
    assert fourier_tail(v, 0) == 0.0


def test_noise_sensitivity_shapes_and_endpoints():
    v = np.random.default_rng(0).standard_normal(32)
    assert isinstance(noise_sensitivity(v, 0.5), float)
    assert noise_sensitivity(v, np.float64(0.5)) == noise_sensitivity(v, 0.5)
    rho = np.linspace(-1, 1, 12).reshape(3, 4)
    assert noise_sensitivity(v, rho).shape == (3, 4)
    assert noise_sensitivity(v, []).shape == (0,)
    assert noise_sensitivity(v, 1.0) == 0.0
    fhat = walsh_coefficients(v)
    # rho = 0: y independent of x, NS = (1/2) Var f.
    assert noise_sensitivity(v, 0.0) == pytest.approx(0.5 * (fhat[1:] ** 2).sum(), rel=1e-12)
    # rho = -1: y = -x, NS = sum over odd |T| of fhat^2.
    odd = popcounts(5) % 2 == 1
    assert noise_sensitivity(v, -1.0) == pytest.approx((fhat[odd] ** 2).sum(), rel=1e-12)
    # Accurate near rho = 1 (no cancellation in 1 - rho^t): NS ~ (1-rho)/2 AS.
    eps = 1e-12
    assert noise_sensitivity(v, 1 - eps) == pytest.approx(eps / 2 * average_sensitivity(v), rel=1e-6)


def test_noise_sensitivity_from_level_weights_matches():
    v = np.random.default_rng(1).standard_normal(64)
    rho = np.linspace(-1, 1, 9)
    np.testing.assert_array_equal(
        noise_sensitivity_from_level_weights(level_weights(v), rho), noise_sensitivity(v, rho)
    )


# ---------------------------------------------------------------------------
# fwht: correctness of the transform and the blocked kernel
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("n", range(0, 7))
def test_fwht_matches_hadamard_and_characters(n):
    v = np.random.default_rng(n).standard_normal(1 << n)
    H = scipy.linalg.hadamard(1 << n)
    # Sylvester order: H[T, j] = (-1)^popcount(T & j) = chi_T(x^{(j)}).
    np.testing.assert_array_equal(H, character_matrix(n))
    np.testing.assert_allclose(fwht(v), H @ v, rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(walsh_coefficients(v), brute_coefficients(v), rtol=1e-12, atol=1e-14)


@pytest.mark.parametrize("n", list(range(0, 21)))
def test_fwht_bitwise_equals_plain_butterfly(n):
    v = np.random.default_rng(100 + n).standard_normal(1 << n)
    ref = fwht_reference(v)
    out = fwht(v)
    np.testing.assert_array_equal(out, ref)
    np.testing.assert_array_equal(fwht(v), out)  # reproducible


@pytest.mark.parametrize("block_bits", [1, 2, 3, 4, 5, 6, 7, 9, 12])
def test_fwht_kernel_all_blockings(block_bits):
    # Every branch of the depth-first kernel at small sizes: in-block stages
    # with and without the in-register first six, and every stage group above
    # the block (radix 2 or 4 remainder, radix 8), out of place and in place.
    for n in range(0, 16):
        v = np.random.default_rng(n).standard_normal(1 << n)
        ref = fwht_reference(v)
        out = np.empty_like(v)
        assert _fwht_into(v, out, block_bits)
        np.testing.assert_array_equal(out, ref, err_msg=f"n={n}")
        w = v.copy()
        assert _fwht_into(w, w, block_bits)
        np.testing.assert_array_equal(w, ref, err_msg=f"n={n}, in place")


@pytest.mark.parametrize("in_place", [False, True])
@pytest.mark.parametrize("bad", [np.nan, np.inf, -np.inf])
@pytest.mark.parametrize("size, position", [(1, 0), (2, 1), (64, 63), (1 << 13, 4096), (1 << 16, 12345)])
def test_fwht_finds_non_finite_values_during_the_transform(in_place, bad, size, position):
    v = np.zeros(size)
    v[position] = bad
    with pytest.raises(ValueError, match="finite"):
        fwht(v, out=v if in_place else None)


def test_fwht_overflow_out_of_place_is_not_a_non_finite_input():
    """A finite table whose transform overflows is refused as such, never as a table holding NaN or inf."""
    with pytest.raises(ValueError, match="exceeds float64"):
        fwht(np.full(8, 1e308))


@pytest.mark.parametrize("block_bits", [1, 3, 12])
def test_fwht_kernel_reports_an_overflow_in_any_stage(block_bits):
    # Two finite entries that overflow only in stage h, at one index pair, for every stage of every size: the
    # kernel says so (False) with no pass over its output, and fwht refuses the result instead of returning inf.
    for n in range(1, 18):
        for h in {1 << i for i in (0, n // 2, n - 1)}:
            v = np.zeros(1 << n)
            v[[3 % h, 3 % h + h]] = 1e308
            w = v.copy()
            assert not _fwht_into(w, w, block_bits), (n, h)
            v[3 % h + h] = -1e308  # 0 and 2e308 in stage h: still an overflow
            assert not _fwht_into(v.copy(), v.copy(), block_bits), (n, h)
            v[3 % h + h] = 0.0  # finite all the way
            assert _fwht_into(v, v, block_bits), (n, h)
    v = np.zeros(1 << 16)
    v[[5, 5 + (1 << 15)]] = 1e308
    with pytest.raises(ValueError, match="exceeds float64"):
        fwht(v)
    with pytest.raises(ValueError, match="so large that the transform overflows"):
        fwht(v, out=v)


@settings(max_examples=60, deadline=None)
@given(n=st.integers(0, 17), seed=st.integers(0, 2**32 - 1), scale=st.sampled_from([1e-300, 1.0, 1e150, 1e300]))
def test_fwht_bitwise_equals_reference_or_both_refuse(n, seed, scale):
    v = scale * np.random.default_rng(seed).standard_normal(1 << n)
    try:
        ref = fwht_reference(v)
    except ValueError as exc:
        assert "exceeds float64" in str(exc)
        with pytest.raises(ValueError, match="exceeds float64"):
            fwht(v)
        return
    np.testing.assert_array_equal(fwht(v), ref)
    w = v.copy()
    np.testing.assert_array_equal(fwht(w, out=w), ref)


#: The quantities quadratic in the table (each reads the table as its only argument).
QUADRATIC = {
    "average_sensitivity": average_sensitivity,
    "influences": influences,
    "level_weights": level_weights,
    "fourier_tail": lambda values: fourier_tail(values, 0),
    "noise_sensitivity": lambda values: noise_sensitivity(values, 0.5),
}


@settings(max_examples=200, deadline=None)
@given(
    name=st.sampled_from(sorted(QUADRATIC)),
    table=st.integers(0, 4).flatmap(
        lambda n: hnp.arrays(np.float64, 1 << n, elements=st.floats(allow_nan=False, allow_infinity=False))
    ),
)
def test_quadratic_quantities_are_finite_or_refused_as_overflow(name, table):
    """Any finite table, however large its values: a finite result, or ValueError when the result exceeds float64
    (average_sensitivity([1e200, -1e200]) returned inf)."""
    try:
        out = QUADRATIC[name](table)
    except ValueError as error:
        assert "exceeds float64" in str(error) and "rescale the truth table" in str(error)
    else:
        assert np.isfinite(out).all()


@settings(max_examples=200, deadline=None)
@given(
    table=st.integers(0, 4).flatmap(
        lambda n: hnp.arrays(
            np.float64, 1 << n, elements=st.floats(-1.0, 1.0).filter(lambda v: v == 0.0 or abs(v) >= 1e-50)
        )
    ),
    shift=st.integers(0, 1100),
)
def test_quadratic_quantities_scale_exactly_by_a_power_of_two(table, shift):
    """f scaled by 2^k: each quadratic quantity scales by 4^k exactly, also where a transform or a square
    of the scaled table overflows on the way; ValueError exactly where 4^k times the result exceeds float64."""
    with np.errstate(over="ignore"):
        scaled = np.ldexp(table, shift)
    assume(np.isfinite(scaled).all())
    for name, quantity in QUADRATIC.items():
        with np.errstate(over="ignore"):
            expected = np.ldexp(np.asarray(quantity(table)), 2 * shift)
        if np.isfinite(expected).all():
            np.testing.assert_array_equal(quantity(scaled), expected, err_msg=name)
        else:
            with pytest.raises(ValueError, match="exceeds float64"):
                quantity(scaled)


def test_influences_of_a_huge_constant_table_are_zero_on_the_parseval_path():
    """n = 18 (the Parseval kernel): squares of 2^1020-sized partial transforms overflow, the influences are 0."""
    table = np.full(1 << 18, np.ldexp(1.0, 1020))
    np.testing.assert_array_equal(influences(table), np.zeros(18))
    assert average_sensitivity(table) == 0.0
    with pytest.raises(ValueError, match="the average sensitivity exceeds float64"):
        average_sensitivity(np.r_[np.full(1 << 17, 1e200), np.full(1 << 17, -1e200)])


def test_fwht_does_not_modify_input_and_accepts_other_dtypes():
    v = np.arange(16, dtype=np.int32)
    before = v.copy()
    out = fwht(v)
    np.testing.assert_array_equal(v, before)
    assert out.dtype == np.float64
    np.testing.assert_array_equal(out, fwht_reference(v.astype(float)))
    np.testing.assert_array_equal(fwht(v.tolist()), out)
    np.testing.assert_array_equal(fwht(np.arange(32.0)[::2] / 2), out)  # non-contiguous view
    np.testing.assert_array_equal(fwht([True, False]), [1.0, 1.0])


def test_fwht_out_and_in_place():
    v = np.random.default_rng(3).standard_normal(1 << 14)
    ref = fwht(v)
    buf = np.empty_like(v)
    assert fwht(v, out=buf) is buf
    np.testing.assert_array_equal(buf, ref)
    w = v.copy()
    assert fwht(w, out=w) is w
    np.testing.assert_array_equal(w, ref)
    # Another view of the same buffer is in place too (not an overlap).
    u = v.copy()
    view = u[:]
    assert fwht(u, out=view) is view
    np.testing.assert_array_equal(u, ref)
    u = v.copy()
    assert fwht(u[:], out=u) is u
    np.testing.assert_array_equal(u, ref)


def test_level_weights_into_a_reused_buffer():
    # One scratch for repeated calls: the same weights as without it, the Walsh coefficients left in it.
    rng = np.random.default_rng(4)
    buf = np.empty(1 << 10)
    for _ in range(2):
        v = rng.standard_normal(1 << 10)
        before = v.copy()
        np.testing.assert_array_equal(level_weights(v, out=buf), level_weights(v))
        np.testing.assert_array_equal(v, before)
        np.testing.assert_array_equal(buf, walsh_coefficients(v))
    with pytest.raises(ValueError, match="out must not be values itself"):
        level_weights(v, out=v)
    with pytest.raises(ValueError, match="out must have shape"):
        level_weights(v, out=np.empty(8))
    with pytest.raises(ValueError, match="overlaps"):
        level_weights(v[:512], out=v[256:768])


@settings(max_examples=40, deadline=None)
@given(n=st.integers(0, 8), data=st.data())
def test_fwht_involution(n, data):
    v = data.draw(hnp.arrays(np.float64, 1 << n, elements=st.floats(-100, 100)))
    np.testing.assert_allclose(fwht(fwht(v)), (1 << n) * v, rtol=1e-12, atol=1e-9)


# ---------------------------------------------------------------------------
# Identities on random real-valued functions (hypothesis)
# ---------------------------------------------------------------------------

real_tables = st.integers(0, 8).flatmap(
    lambda n: hnp.arrays(np.float64, 1 << n, elements=st.floats(-10, 10, allow_subnormal=False))
)


@settings(max_examples=60, deadline=None)
@given(v=real_tables)
def test_parseval_and_level_weights(v):
    n = v.size.bit_length() - 1
    fhat = walsh_coefficients(v)
    norm2 = float(np.mean(v**2))
    assert float((fhat**2).sum()) == pytest.approx(norm2, rel=1e-12, abs=1e-12)
    w = level_weights(v)
    assert w.shape == (n + 1,)
    assert (w >= 0).all()
    assert w.sum() == pytest.approx(norm2, rel=1e-12, abs=1e-12)
    pc = popcounts(n)
    np.testing.assert_allclose(w, np.bincount(pc, weights=fhat**2, minlength=n + 1), rtol=1e-12, atol=1e-13)


@settings(max_examples=60, deadline=None)
@given(v=real_tables, d=st.integers(0, 10))
def test_fourier_tail_consistency(v, d):
    n = v.size.bit_length() - 1
    fhat = walsh_coefficients(v)
    tail = fourier_tail(v, d)
    assert isinstance(tail, float)
    assert tail == pytest.approx(float((fhat[popcounts(n) > d] ** 2).sum()), rel=1e-12, abs=1e-13)
    assert tail == pytest.approx(level_weights(v)[d + 1 :].sum(), rel=1e-12, abs=1e-13)
    if d >= n:
        assert tail == 0.0
    # ||f - f^{<=d}||^2 computed in the time domain
    low = fhat * (popcounts(n) <= d)
    approx = fwht(low)  # f^{<=d} on the cube (the transform is its own inverse up to 2^n)
    assert float(np.mean((v - approx) ** 2)) == pytest.approx(tail, rel=1e-9, abs=1e-11)


@pytest.mark.parametrize("n", [1, 2, 3, 5, 8, 12, 13, 15])
def test_influences_exact_on_sign_tables_and_spectral(n):
    # ±1 tables: every partial sum is an integer multiple of 4**-n, so the
    # spectral influences equal the direct ones bitwise; real tables agree
    # with sum_{T ni i} fhat(T)^2 summed by numpy, and repeat bit for bit.
    rng = np.random.default_rng(500 + n)
    s = np.where(rng.standard_normal(1 << n) > 0.3, 1.0, -1.0)
    direct = np.array([np.mean((s - s[np.arange(s.size) ^ (1 << i)]) ** 2) / 4 for i in range(n)])
    np.testing.assert_array_equal(influences(s), direct)
    v = rng.standard_normal(1 << n)
    c = walsh_coefficients(v)
    T = np.arange(v.size)
    spectral = np.array([np.sum(c[(T >> i) & 1 == 1] ** 2) for i in range(n)])
    np.testing.assert_allclose(influences(v), spectral, rtol=1e-13)
    np.testing.assert_array_equal(influences(v), influences(v.copy()))


@pytest.mark.parametrize("n", [18, 19, 20])
def test_influences_from_the_eighths_exact_on_sign_tables_and_spectral(n):
    # From n = 18 on, influences come from the transforms of the eighths and
    # one radix-8 butterfly across them (Parseval on part of the coordinates),
    # without the full spectrum: the same guarantees as below n = 18.
    from sparseact.analysis import _PARSEVAL_MIN_N

    assert n >= _PARSEVAL_MIN_N
    rng = np.random.default_rng(900 + n)
    s = np.where(rng.standard_normal(1 << n) > 0.3, 1.0, -1.0)
    j = np.arange(s.size)
    direct = np.array([np.mean((s - s[j ^ (1 << i)]) ** 2) / 4 for i in range(n)])
    np.testing.assert_array_equal(influences(s), direct)
    v = rng.standard_normal(1 << n) * 3.0 + 0.5
    spectral = np.array([np.sum(walsh_coefficients(v)[(j >> i) & 1 == 1] ** 2) for i in range(n)])
    np.testing.assert_allclose(influences(v), spectral, rtol=1e-13)
    np.testing.assert_array_equal(influences(v), influences(v.copy()))
    before = v.copy()
    influences(v)
    np.testing.assert_array_equal(v, before)  # read only
    v[12345] = np.nan
    with pytest.raises(ValueError, match="finite"):
        influences(v)


@settings(max_examples=60, deadline=None)
@given(v=real_tables)
def test_average_sensitivity_identity(v):
    n = v.size.bit_length() - 1
    fhat = walsh_coefficients(v)
    pc = popcounts(n)
    spectral_as = float((pc * fhat**2).sum())
    assert average_sensitivity(v) == pytest.approx(spectral_as, rel=1e-10, abs=1e-12)
    infl = influences(v)
    np.testing.assert_allclose(infl, brute_influences(v), rtol=1e-12, atol=1e-13)
    # Inf_i = sum_{T containing i} fhat(T)^2
    spectral_inf = [float((fhat[(np.arange(1 << n) >> i) & 1 == 1] ** 2).sum()) for i in range(n)]
    np.testing.assert_allclose(infl, spectral_inf, rtol=1e-10, atol=1e-12)
    # AS from the definition: E_x[sen_f(x)] with an explicit loop over x and i.
    X = hypercube(n)
    sen = np.zeros(1 << n)
    for i in range(n):
        Xf = X.copy()
        Xf[:, i] *= -1
        sen += 0.25 * (v - v[indices_from_points(Xf)]) ** 2
    assert average_sensitivity(v) == pytest.approx(float(sen.mean()), rel=1e-12, abs=1e-12)


@settings(max_examples=40, deadline=None)
@given(v=real_tables, rho=st.floats(-1, 1))
def test_noise_sensitivity_claim_2_1_vs_definition(v, rho):
    """Claim 2.1: NS_rho = sum_T (1/2)(1 - rho^|T|) fhat(T)^2, checked against the definition."""
    brute = brute_noise_sensitivity(v, rho)
    assert noise_sensitivity(v, rho) == pytest.approx(brute, rel=1e-9, abs=1e-11)
    n = v.size.bit_length() - 1
    fhat = walsh_coefficients(v)
    claim = float((0.5 * (1 - rho ** popcounts(n)) * fhat**2).sum())
    assert claim == pytest.approx(brute, rel=1e-9, abs=1e-11)


@settings(max_examples=60, deadline=None)
@given(v=real_tables, rho=st.floats(0, 1, exclude_max=True), d=st.integers(1, 9))
def test_claim_2_1_tail_inequality(v, rho, d):
    # sum_{|T|>d} fhat^2 <= 2 NS_rho / (1 - rho^d) for rho in [0, 1), d >= 1.
    tail = fourier_tail(v, d)
    bound = 2 * noise_sensitivity(v, rho) / (1 - rho**d)
    assert tail <= bound * (1 + 1e-9) + 1e-12


def test_claim_2_1_tail_inequality_needs_nonnegative_rho():
    # Claim 2.1 states the tail bound without a range for rho; it relies on
    # 1 - rho^|T| >= 1 - rho^d for |T| > d, true for rho in [0, 1) but not for
    # rho < 0. Counterexample: f = chi_{1,2}, d = 1, rho = -1/2:
    # tail = 1 > 2 NS / (1 - rho) = 2 * 0.375 / 1.5 = 0.5.
    v = table(lambda x: x[0] * x[1], 2)
    rho, d = -0.5, 1
    assert fourier_tail(v, d) == 1.0
    assert noise_sensitivity(v, rho) == pytest.approx(0.375)
    assert fourier_tail(v, d) > 2 * noise_sensitivity(v, rho) / (1 - rho**d)


@pytest.mark.parametrize("n, r", [(2, 2), (3, 2), (3, 3), (4, 2)])
def test_appendix_b_bucket_coupling(n, r):
    """Appendix B, eq. (17): for rho = 1 - 2/r, NS_rho(f) = (1/r) E_{z,A}[AS(H_z)].

    x_l = z_l v_{e(l)} with bucket e(l) uniform in [r]; H_z(v) = f(x). Exact
    enumeration over z, the bucket assignment and v (with the 1/4 factors of
    the paper's definitions of NS and AS on both sides).
    """
    v = random_network(n, 3, seed=7).truth_table()
    rho = 1 - 2 / r
    V = hypercube(r)
    total = 0.0
    count = 0
    for z in hypercube(n):
        for e in itertools.product(range(r), repeat=n):
            X = z[None, :] * V[:, list(e)]  # row k: x for bucket signs V[k]
            H = v[indices_from_points(X)]  # truth table of H_z on {-1,1}^r
            total += average_sensitivity(H)
            count += 1
    assert total / count / r == pytest.approx(noise_sensitivity(v, rho), rel=1e-12)


# ---------------------------------------------------------------------------
# Monte Carlo
# ---------------------------------------------------------------------------


@pytest.fixture(scope="module")
def net10():
    net = random_network(10, 8, seed=2024)
    return net, net.truth_table()


@pytest.mark.parametrize("method", ["all_coordinates", "random_coordinate"])
def test_average_sensitivity_mc_covers_exact(net10, method):
    net, v = net10
    exact = average_sensitivity(v)
    est = average_sensitivity_mc(net, 10, 20_000, np.random.default_rng(11), confidence=0.99, method=method)
    assert isinstance(est, MonteCarloEstimate)
    assert est.method == method and est.n_samples == 20_000 and est.confidence == 0.99
    assert est.ci_low < est.estimate < est.ci_high
    assert est.ci_low <= exact <= est.ci_high
    assert abs(est.estimate - exact) < 0.05 * exact


def test_average_sensitivity_mc_variance_ordering(net10):
    net, _ = net10
    a = average_sensitivity_mc(net, 10, 5000, np.random.default_rng(1), method="all_coordinates")
    b = average_sensitivity_mc(net, 10, 5000, np.random.default_rng(1), method="random_coordinate")
    assert a.ci_high - a.ci_low < b.ci_high - b.ci_low  # Rao-Blackwellised is tighter per sample


@pytest.mark.parametrize("rho", [-0.5, 0.0, 0.5, 0.9])
def test_noise_sensitivity_mc_covers_exact(net10, rho):
    net, v = net10
    exact = noise_sensitivity(v, rho)
    est = noise_sensitivity_mc(net, 10, rho, 20_000, np.random.default_rng(5), confidence=0.99)
    assert est.ci_low <= exact <= est.ci_high


def test_mc_deterministic_and_chunk_independent(net10):
    net, _ = net10
    a = noise_sensitivity_mc(net, 10, 0.7, 3000, np.random.default_rng(9))
    b = noise_sensitivity_mc(net, 10, 0.7, 3000, np.random.default_rng(9))
    assert a == b
    c = average_sensitivity_mc(net, 10, 1000, np.random.default_rng(9), chunk_size=1000)
    d = average_sensitivity_mc(net, 10, 1000, np.random.default_rng(9), chunk_size=1000)
    e = average_sensitivity_mc(net, 10, 1000, np.random.default_rng(9), chunk_size=1001)
    assert c == d == e


def test_mc_parity_is_exact():
    # sen_f(x) = n for every x, so the all-coordinates estimator has zero variance.
    est = average_sensitivity_mc(lambda X: np.prod(X, axis=1), 12, 100, np.random.default_rng(0))
    assert est.estimate == est.ci_low == est.ci_high == 12.0
    # NS at rho = -1 of parity on odd n is exactly 1 (y = -x flips the sign).
    est = noise_sensitivity_mc(lambda X: np.prod(X, axis=1), 5, -1.0, 100, np.random.default_rng(0))
    assert est.estimate == 1.0


def test_mc_interval_coverage():
    # Empirical coverage of the 90% interval over many independent repetitions.
    v = random_network(4, 3, seed=3).truth_table()
    exact = noise_sensitivity(v, 0.3)

    def f(X):
        return v[indices_from_points(X)]

    rng = np.random.default_rng(123)
    reps = 300
    hits = 0
    for _ in range(reps):
        est = noise_sensitivity_mc(f, 4, 0.3, 400, rng, confidence=0.9)
        hits += est.ci_low <= exact <= est.ci_high
    assert 0.84 <= hits / reps <= 0.96


# ---------------------------------------------------------------------------
# Bad inputs
# ---------------------------------------------------------------------------

TABLE_FUNCS = [fwht, walsh_coefficients, level_weights, influences, average_sensitivity]


@pytest.mark.parametrize("func", TABLE_FUNCS)
@pytest.mark.parametrize(
    "bad, match",
    [
        (np.ones(3), "length 2\\*\\*n"),
        (np.ones(0), "length 2\\*\\*n"),
        (np.ones(12), "length 2\\*\\*n"),
        (np.ones((4, 4)), "one-dimensional"),
        (np.float64(1.0), "one-dimensional"),
        (np.array([1.0, np.nan]), "finite"),
        (np.array([1.0, np.inf, 0.0, 0.0]), "finite"),
        (np.array([1.0 + 1j, 0.0]), "real"),
        (["a", "b"], "real"),
        ([[1.0, 2.0], [3.0]], "real"),
        (np.array([1, None], dtype=object), "real"),  # None is not a number: refused, not read as NaN
        (np.array([1, "a"], dtype=object), "real"),
    ],
)
def test_bad_tables(func, bad, match):
    with pytest.raises(ValueError, match=match):
        func(bad)


def test_bad_noise_and_tail_args():
    v = np.ones(8)
    for rho in [1.5, -1.01, np.nan, [0.5, 2.0], "x"]:
        with pytest.raises(ValueError, match="rho"):
            noise_sensitivity(v, rho)
    for d in [-1, 1.5, True, "2"]:
        with pytest.raises(ValueError, match="d must"):
            fourier_tail(v, d)
    with pytest.raises(ValueError, match="weights"):
        noise_sensitivity_from_level_weights(np.ones((2, 2)), 0.5)
    with pytest.raises(ValueError, match="weights"):
        noise_sensitivity_from_level_weights([], 0.5)


def test_bad_out():
    v = np.ones(8)
    with pytest.raises(ValueError, match="out must have shape"):
        fwht(v, out=np.empty(16))
    with pytest.raises(ValueError, match="float64"):
        fwht(v, out=np.empty(8, dtype=np.float32))
    with pytest.raises(ValueError, match="contiguous"):
        fwht(v, out=np.empty(16)[::2])
    big = np.ones(16)
    with pytest.raises(ValueError, match="overlaps"):
        fwht(big[:8], out=big[4:12])
    ro = np.empty(8)
    ro.flags.writeable = False
    with pytest.raises(ValueError, match="writeable"):
        fwht(v, out=ro)
    with pytest.raises(ValueError, match="writeable"):
        fwht(ro, out=ro)  # in place on a read-only table
    with pytest.raises(ValueError, match="numpy array"):
        fwht(v, out=[0.0] * 8)


def test_bad_mc_args():
    f = lambda X: X[:, 0]  # noqa: E731
    rng = np.random.default_rng(0)
    with pytest.raises(ValueError, match="callable"):
        average_sensitivity_mc(3, 4, 10, rng)
    with pytest.raises(ValueError, match="n must"):
        average_sensitivity_mc(f, 0, 10, rng)
    with pytest.raises(ValueError, match="n_samples"):
        average_sensitivity_mc(f, 4, 1, rng)
    with pytest.raises(ValueError, match="Generator"):
        average_sensitivity_mc(f, 4, 10, 42)
    with pytest.raises(ValueError, match="confidence"):
        average_sensitivity_mc(f, 4, 10, rng, confidence=1.0)
    with pytest.raises(ValueError, match="method"):
        average_sensitivity_mc(f, 4, 10, rng, method="nope")
    with pytest.raises(ValueError, match="shape"):
        average_sensitivity_mc(lambda X: X, 4, 10, rng)
    with pytest.raises(ValueError, match="non-finite"):
        noise_sensitivity_mc(lambda X: np.full(X.shape[0], np.inf), 4, 0.5, 10, rng)
    with pytest.raises(ValueError, match="rho"):
        noise_sensitivity_mc(f, 4, 1.5, 10, rng)
    with pytest.raises(ValueError, match="scalar rho"):
        noise_sensitivity_mc(f, 4, [0.5, 0.6], 10, rng)
    with pytest.raises(ValueError, match="chunk_size"):
        noise_sensitivity_mc(f, 4, 0.5, 10, rng, chunk_size=0)


@pytest.mark.parametrize("transform", ["fwht", "fwht_reference"])
def test_a_transform_beyond_float64_is_refused_not_inf(transform):
    import sparseact.analysis

    with pytest.raises(ValueError, match="exceeds float64"):
        getattr(sparseact.analysis, transform)([1.7e308, -1.7e308])


def test_a_truth_table_beyond_the_memory_limit_is_refused_before_any_copy():
    """A broadcast view of 2**31 entries costs nothing to pass; its float64 copy would be 16 GiB (the second
    probe's 90-second hang): refused in one line naming the size."""
    huge = np.broadcast_to(np.float64(1.0), (2**31,))
    with pytest.raises(ValueError, match="needs 16 GiB, above the memory limit"):
        fwht(huge)
