"""The low-degree algorithm (Section 2.1, Lemma 7): sparseact.learners.low_degree."""

import itertools
import math

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sparseact.analysis import fourier_tail, fwht, walsh_coefficients
from sparseact.cube import hypercube
from sparseact.families import random_sparse_network
from sparseact.learners import low_degree as ld
from sparseact.learners.low_degree import LowDegreeRegressor, monomial_count, monomials

MOMENTS = ("blocks", "cube")


def random_points(rng, m, n):
    return 1.0 - 2.0 * rng.integers(0, 2, size=(m, n)).astype(np.float64)


def dense_features(X, masks):
    """Straightforward (m, N) feature matrix, one np.prod per monomial."""
    n = X.shape[1]
    cols = [np.prod(X[:, [i for i in range(n) if (T >> i) & 1]], axis=1) for T in masks.tolist()]
    return np.stack(cols, axis=1)


def random_polynomial(rng, n, d):
    masks = monomials(n, d)
    coef = rng.standard_normal(masks.size)
    table = np.zeros(1 << n)
    table[masks] = coef
    values = fwht(table)  # values[j] = sum_T c_T chi_T(x_j)
    return masks, coef, values


# ---------------------------------------------------------------------------
# monomials
# ---------------------------------------------------------------------------


@pytest.mark.parametrize(("n", "d"), [(0, 0), (1, 0), (1, 1), (4, 2), (6, 6), (7, 3), (10, 4), (5, 9)])
def test_monomials_count_and_order(n, d):
    masks = monomials(n, d)
    assert masks.dtype == np.int64
    expected = [sum(1 << i for i in T) for t in range(min(n, d) + 1) for T in itertools.combinations(range(n), t)]
    assert masks.tolist() == expected
    assert masks.size == sum(math.comb(n, t) for t in range(d + 1)) == monomial_count(n, d)
    assert len(set(masks.tolist())) == masks.size


def test_monomials_large_count():
    assert monomials(20, 3).size == 1 + 20 + 190 + 1140
    assert monomials(62, 1)[-1] == 1 << 61


def test_colex_basis_is_a_permutation_of_lex():
    basis = ld._Basis(9, 4)
    assert np.array_equal(basis.colex[basis.lex_from_colex], basis.lex)
    coef = np.arange(basis.N, dtype=np.float64)
    assert np.array_equal(basis.to_lex(basis.to_colex(coef)), coef)
    X = random_points(np.random.default_rng(0), 17, 9)
    P = basis.features_t(np.ascontiguousarray(X.T), np.empty((basis.N, 17)))
    assert np.array_equal(P.T, dense_features(X, basis.colex))


@pytest.mark.parametrize(("n", "d"), [(-1, 2), (3, -1), (1.5, 1), (True, 1), (63, 1), ("4", 2), (3, None)])
def test_monomials_bad_arguments(n, d):
    with pytest.raises(ValueError, match=r"\w"):
        monomials(n, d)


# ---------------------------------------------------------------------------
# Whole cube as the sample: Fourier coefficients and Lemma 7's floor
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("moments", MOMENTS)
@pytest.mark.parametrize("method", ["regression", "correlation"])
def test_whole_cube_recovers_walsh_coefficients(method, moments):
    n, d = 7, 3
    rng = np.random.default_rng(1)
    values = rng.standard_normal(1 << n)
    model = LowDegreeRegressor(degree=d, method=method, moments=moments).fit(hypercube(n), values)
    fhat = walsh_coefficients(values)
    assert np.array_equal(model.monomials_, monomials(n, d))
    np.testing.assert_allclose(model.coef_, fhat[model.monomials_], rtol=0, atol=1e-14)
    assert model.moments_ == moments
    assert model.solver_ == ("cholesky" if method == "regression" else "correlation")
    # Lemma 7's approximation floor: L_U = (1/2) sum_{|T| > d} fhat(T)^2.
    assert model.exact_test_error(values) == pytest.approx(fourier_tail(values, d) / 2, rel=1e-12)


def test_whole_cube_network_target_floor_decreases_with_degree():
    n = 10
    net = random_sparse_network(n, 6, 2, np.random.default_rng(2))
    values = net.truth_table()
    X = hypercube(n)
    errors = []
    for d in range(n + 1):
        model = LowDegreeRegressor(degree=d).fit(X, values)
        err = model.exact_test_error(values)
        assert err == pytest.approx(fourier_tail(values, d) / 2, rel=1e-10, abs=1e-14)
        errors.append(err)
    assert all(a >= b - 1e-14 for a, b in itertools.pairwise(errors))
    assert errors[-1] < 1e-20


def test_exact_test_error_is_parseval_distance():
    n, d = 8, 2
    rng = np.random.default_rng(3)
    values = rng.standard_normal(1 << n)
    X = random_points(rng, 200, n)
    y = values[ld._cube_indices(X)]
    model = LowDegreeRegressor(degree=d).fit(X, y)
    fhat = walsh_coefficients(values)
    full = np.zeros(1 << n)
    full[model.monomials_] = model.coef_
    expected = 0.5 * np.sum((full - fhat) ** 2)
    assert model.exact_test_error(values) == pytest.approx(expected, rel=1e-12)
    brute = 0.5 * np.mean((model.predict(hypercube(n)) - values) ** 2)
    assert model.exact_test_error(values) == pytest.approx(brute, rel=1e-12)


# ---------------------------------------------------------------------------
# Random samples
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("moments", MOMENTS)
def test_polynomial_target_recovered_exactly(moments):
    n, d = 9, 3
    rng = np.random.default_rng(4)
    masks, coef, values = random_polynomial(rng, n, d)
    m = 3 * masks.size
    X = random_points(rng, m, n)
    y = values[ld._cube_indices(X)]
    model = LowDegreeRegressor(degree=d, moments=moments).fit(X, y)
    assert model.solver_ == "cholesky" and model.rank_ == masks.size
    np.testing.assert_allclose(model.coef_, coef, rtol=0, atol=1e-11)
    cube_pred = model.predict_cube()
    np.testing.assert_allclose(cube_pred, values, rtol=0, atol=1e-10)
    np.testing.assert_allclose(model.predict(hypercube(n)), cube_pred, rtol=0, atol=1e-12)
    assert model.exact_test_error(values) < 1e-20
    # The straightforward dense least squares gives the same coefficients.
    ref = np.linalg.lstsq(dense_features(X, model.monomials_), y, rcond=None)[0]
    np.testing.assert_allclose(model.coef_, ref, rtol=0, atol=1e-11)


SINGULAR_CASES = [
    "fewer points than monomials",
    "repeated points, fewer than monomials",
    "repeated points, more than monomials",
]


def singular_sample(case: str, rng):
    """``(X, y, solver, rank)`` of a sample whose least-squares problem is singular (n = 8, N = 93 at d = 3)."""
    distinct = np.unique(random_points(rng, 40, 8), axis=0)
    if case == SINGULAR_CASES[0]:  # m < N: the m x m kernel path
        return distinct, rng.standard_normal(distinct.shape[0]), "kernel", distinct.shape[0]
    if case == SINGULAR_CASES[1]:  # Phi Phi^T is singular too
        X = np.concatenate([distinct, distinct[:10]])
        return X, rng.standard_normal(X.shape[0]), "kernel", distinct.shape[0]
    # m >= N but rank 40 < N: the N x N fallback
    y = np.repeat(rng.standard_normal(distinct.shape[0]), 3)
    return np.repeat(distinct, 3, axis=0), y, "lstsq", distinct.shape[0]


@pytest.mark.parametrize("moments", MOMENTS)
@pytest.mark.parametrize("case", SINGULAR_CASES)
def test_singular_problems_give_the_minimum_norm_solution(case, moments):
    X, y, solver, rank = singular_sample(case, np.random.default_rng(5))
    model = LowDegreeRegressor(degree=3, moments=moments).fit(X, y)
    assert model.solver_ == solver and model.rank_ == rank
    assert (model.moments_ == "kernel") == (solver == "kernel")
    ref = np.linalg.lstsq(dense_features(X, model.monomials_), y, rcond=None)[0]
    np.testing.assert_allclose(model.coef_, ref, rtol=0, atol=1e-10)
    if case == SINGULAR_CASES[0]:
        np.testing.assert_allclose(model.predict(X), y, rtol=0, atol=1e-10)  # interpolates


def test_kernel_path_with_dependent_distinct_points_takes_the_eigendecomposition():
    # 4 distinct points of an affine plane of {-1, 1}^4, degree 1 (N = 5): K_u = Phi_u Phi_u^T is
    # singular (rank 3), so no Cholesky; the eigendecomposition gives the minimum-norm solution
    X = np.array([[a, b, 1.0, 1.0] for a in (1.0, -1.0) for b in (1.0, -1.0)])
    y = np.array([0.3, -1.2, 2.0, 0.7])
    model = LowDegreeRegressor(degree=1).fit(X, y)
    assert model.solver_ == "kernel" and model.rank_ == 3
    ref = np.linalg.lstsq(dense_features(X, model.monomials_), y, rcond=None)[0]
    np.testing.assert_allclose(model.coef_, ref, rtol=0, atol=1e-12)


def test_cube_and_blocks_paths_agree():
    n, d = 10, 3
    rng = np.random.default_rng(6)
    X = random_points(rng, 2000, n)
    y = np.sin(X @ rng.standard_normal(n))
    for method in ("regression", "correlation"):
        a = LowDegreeRegressor(degree=d, method=method, moments="blocks").fit(X, y)
        b = LowDegreeRegressor(degree=d, method=method, moments="cube").fit(X, y)
        np.testing.assert_allclose(a.coef_, b.coef_, rtol=0, atol=1e-12)


def test_float32_gram_is_bitwise_the_float64_gram():
    n, d = 12, 3
    rng = np.random.default_rng(7)
    X = random_points(rng, 3000, n)
    y = rng.standard_normal(3000)
    basis = ld._Basis(n, d)
    G32, b32 = ld._moments_blocks(basis, X, y, 1000, True, np.float32)
    G64, b64 = ld._moments_blocks(basis, X, y, 1000, True, np.float64)
    assert np.array_equal(G32, G64)
    assert np.array_equal(G64, np.rint(G64))
    np.testing.assert_allclose(b32, b64, rtol=1e-13, atol=1e-12)
    Gc, _ = ld._moments_cube(basis, X, y, True)
    assert np.array_equal(Gc, G64)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    block=st.integers(min_value=1, max_value=400),
    method=st.sampled_from(["regression", "correlation"]),
    seed=st.integers(min_value=0, max_value=2**32 - 1),
)
def test_blockwise_fit_equals_one_block_fit(block, method, seed):
    n, d, m = 6, 2, 300
    rng = np.random.default_rng(seed)
    X = random_points(rng, m, n)
    y = rng.standard_normal(m)
    one = LowDegreeRegressor(degree=d, method=method, block_size=m, moments="blocks").fit(X, y)
    many = LowDegreeRegressor(degree=d, method=method, block_size=block, moments="blocks").fit(X, y)
    np.testing.assert_allclose(many.coef_, one.coef_, rtol=0, atol=1e-12)
    np.testing.assert_allclose(many.predict(X), one.predict(X), rtol=0, atol=1e-11)


def test_ridge_zero_vs_small_and_closed_form_on_cube():
    n, d = 8, 2
    rng = np.random.default_rng(8)
    X = random_points(rng, 500, n)
    y = rng.standard_normal(500)
    plain = LowDegreeRegressor(degree=d).fit(X, y)
    small = LowDegreeRegressor(degree=d, ridge=1e-9).fit(X, y)
    np.testing.assert_allclose(small.coef_, plain.coef_, rtol=0, atol=1e-7)
    assert np.linalg.norm(small.coef_) <= np.linalg.norm(plain.coef_)
    # On the whole cube Phi^T Phi = 2**n I, so the ridge solution is fhat / (1 + ridge).
    values = rng.standard_normal(1 << n)
    model = LowDegreeRegressor(degree=d, ridge=0.5).fit(hypercube(n), values)
    np.testing.assert_allclose(model.coef_, walsh_coefficients(values)[model.monomials_] / 1.5, atol=1e-14)


def test_degree_zero_and_zero_dimensional_inputs():
    rng = np.random.default_rng(9)
    y = rng.standard_normal(7)
    for moments in MOMENTS:
        model = LowDegreeRegressor(degree=0, moments=moments).fit(np.ones((7, 0)), y)
        assert model.coef_.tolist() == pytest.approx([y.mean()])
        assert model.predict(np.ones((3, 0))) == pytest.approx([y.mean()] * 3)
        assert model.predict_cube().tolist() == pytest.approx([y.mean()])


def test_predict_empty_and_int_inputs():
    X = hypercube(4).astype(np.int8)
    y = X[:, 0] * X[:, 1] * 2.0
    model = LowDegreeRegressor(degree=2).fit(X, y)
    assert model.coefficients_[(0, 1)] == pytest.approx(2.0)
    assert model.predict(np.empty((0, 4))).shape == (0,)
    np.testing.assert_allclose(model.predict(X), y, atol=1e-14)


def test_coefficients_dict_and_params():
    model = LowDegreeRegressor(degree=2, ridge=0.1)
    assert model.get_params() == {
        "degree": 2,
        "method": "regression",
        "block_size": None,
        "ridge": 0.1,
        "moments": "auto",
    }
    assert model.set_params(degree=1, method="correlation") is model
    assert model.degree == 1 and model.method == "correlation"
    assert repr(model) == "LowDegreeRegressor(degree=1, method='correlation', ridge=0.1)"
    X = hypercube(3)
    model.fit(X, X[:, 2] + 0.5)
    coefs = model.coefficients_
    assert list(coefs) == [(), (0,), (1,), (2,)]
    assert coefs[()] == pytest.approx(0.5) and coefs[(2,)] == pytest.approx(1.0)
    assert model.n_features_in_ == 3 and model.n_monomials_ == 4 and model.n_samples_ == 8


def test_init_does_not_validate():
    model = LowDegreeRegressor(degree=-3, method="nope", block_size=0, ridge=-1.0)
    assert model.degree == -3
    with pytest.raises(ValueError, match="degree"):
        model.fit(hypercube(2), np.zeros(4))


# ---------------------------------------------------------------------------
# Errors
# ---------------------------------------------------------------------------

X4 = hypercube(4)
Y4 = np.arange(16, dtype=np.float64)

FIT_CASES = {
    "1-d X": (dict(), np.ones(4), np.ones(4), "two-dimensional"),
    "3-d X": (dict(), np.ones((2, 2, 2)), np.ones(2), "two-dimensional"),
    "empty X": (dict(), np.ones((0, 3)), np.ones(0), "empty"),
    "zero entry": (dict(), np.where(X4 == 1, 0.0, X4), Y4, r"\{-1, 1\}"),
    "two entry": (dict(), 2 * X4, Y4, r"\{-1, 1\}"),
    "nan entry": (dict(), np.where(X4 == 1, np.nan, X4), Y4, r"\{-1, 1\}"),
    "string X": (dict(), np.array([["a", "b"]]), np.ones(1), "numeric"),
    "bool X": (dict(), np.ones((2, 2), dtype=bool), np.ones(2), "numeric"),
    "y length": (dict(), X4, np.ones(15), "different numbers of samples"),
    "y 2-d": (dict(), X4, np.ones((16, 1)), "one-dimensional"),
    "y nan": (dict(), X4, np.where(Y4 > 3, np.nan, Y4), "finite"),
    "degree > n": (dict(degree=5), X4, Y4, "degree must be <= n"),
    "negative degree": (dict(degree=-1), X4, Y4, "degree"),
    "float degree": (dict(degree=2.0), X4, Y4, "degree"),
    "bad method": (dict(method="lasso"), X4, Y4, "method"),
    "bad moments": (dict(moments="gpu"), X4, Y4, "moments"),
    "zero block": (dict(block_size=0), X4, Y4, "block_size"),
    "negative ridge": (dict(ridge=-0.1), X4, Y4, "ridge"),
    "nan ridge": (dict(ridge=float("nan")), X4, Y4, "ridge"),
    "string ridge": (dict(ridge="0"), X4, Y4, "ridge"),
    "cube too large": (dict(degree=1, moments="cube"), np.ones((2, 25)), np.ones(2), "n <= 24"),
}


@pytest.mark.parametrize("name", list(FIT_CASES))
def test_fit_bad_inputs(name):
    params, X, y, pattern = FIT_CASES[name]
    with pytest.raises(ValueError, match=pattern):
        LowDegreeRegressor(**params).fit(X, y)


def test_memory_limit(monkeypatch):
    monkeypatch.setattr(ld, "MEMORY_LIMIT_BYTES", 1 << 20)
    with pytest.raises(ValueError, match="GiB"):
        LowDegreeRegressor(degree=2).fit(X4, Y4)


def test_fitted_model_bad_inputs():
    model = LowDegreeRegressor(degree=2)
    with pytest.raises(ValueError, match="not fitted"):
        model.predict(X4)
    with pytest.raises(ValueError, match="not fitted"):
        model.predict_cube(4)
    model.fit(X4, Y4)
    with pytest.raises(ValueError, match="columns"):
        model.predict(np.ones((3, 5)))
    with pytest.raises(ValueError, match=r"\{-1, 1\}"):
        model.predict(np.zeros((3, 4)))
    with pytest.raises(ValueError, match="does not match"):
        model.predict_cube(5)
    with pytest.raises(ValueError, match="length 2"):
        model.exact_test_error(np.ones(8))
    with pytest.raises(ValueError, match="finite"):
        model.exact_test_error(np.full(16, np.inf))
    with pytest.raises(ValueError, match="invalid parameter"):
        model.set_params(alpha=1.0)
