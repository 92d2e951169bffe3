"""The constructions against the functions they are claimed to compute (small, exhaustive)."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sparseact import constructions as C
from sparseact.cube import hypercube


@pytest.mark.parametrize("p", [1, 2, 3, 4])
def test_junta_network_computes_random_junta(rng, p):
    n = 7
    table = rng.choice([-1.0, 1.0], size=1 << p)
    variables = sorted(rng.choice(n, size=p, replace=False).tolist())
    net = C.junta_network(table, variables, n, s=1 << (p + 1))
    X = hypercube(n)
    values, active = net.evaluate(X)
    np.testing.assert_array_equal(values, C.junta_function(table, variables)(X))
    assert active.max() == 1 and active.min() == 1
    assert net.scale_W() == pytest.approx(np.sqrt(p)) and net.scale_B() == p - 1


def test_junta_parity_closed_form():
    net = C.junta_network(C.parity_truth_table(3), [0, 1, 2], 3)
    X = hypercube(3)
    np.testing.assert_array_equal(net(X), X.prod(axis=1))


def test_junta_rejects_bad_input():
    with pytest.raises(ValueError, match="at least 2\\*\\*p"):
        C.junta_network([1.0, -1.0, 1.0, 1.0], [0, 1], 4, s=2)
    with pytest.raises(ValueError, match="distinct"):
        C.junta_network([1.0, -1.0, 1.0, 1.0], [0, 0], 4)
    with pytest.raises(ValueError, match="values in"):
        C.junta_network([0.5, -1.0], [0], 4)


@pytest.mark.parametrize("b", [1, 2, 3])
def test_index_network(b):
    net = C.index_network(b)
    Z = hypercube(b + (1 << b))
    values, active = net.evaluate(Z)
    np.testing.assert_array_equal(values, C.index_function(b)(Z))
    assert active.max() == 1
    assert net.n_neurons == 1 << b


def test_printed_chi_is_constant_not_a_parity():
    Y = hypercube(3)
    for S in C.all_subsets(3):
        chi = C.chi_printed(Y, S)
        assert np.all(chi == float(len(S) % 2 == 0))
        assert not np.array_equal(chi, C.parity01(Y, S))


@pytest.mark.parametrize("m", [1, 2, 3, 4, 5])
def test_corrected_parity_network_all_subsets(m):
    Y = hypercube(m)
    for S in C.all_subsets(m):
        net, embed = C.parity_network(m, S, "corrected")
        values, active = net.evaluate(embed(Y))
        np.testing.assert_array_equal(values, C.parity01(Y, S))
        assert active.max() <= 1 and net.n_neurons <= 2 * m


def test_printed_lift_only_right_for_full_set():
    m = 3
    Y = hypercube(m)
    X = C.quadratic_lift(Y)
    for S in C.all_subsets(m):
        t = Y[:, list(S)].sum(axis=1)
        w, beta = C.parity_lift_weights(m, S, 1.0, "printed")
        agrees = np.allclose(X @ w - beta, 0.5 - (t - 1.0) ** 2)
        assert agrees == (len(S) == m)


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), r=st.integers(1, 6), a=st.floats(-5, 5))
def test_lifted_quadratic_identity(seed, r, a):
    rng = np.random.default_rng(seed)
    v = rng.standard_normal(r)
    Z = hypercube(r)
    w, beta = C.lifted_quadratic_weights(v, a)
    np.testing.assert_allclose(C.quadratic_lift(Z) @ w - beta, 0.5 - (Z @ v - a) ** 2, atol=1e-9)


def test_lwr_linear_form_impossible_affine_form_exact():
    q, m = 5, 2
    Y = C.zq_points(q, m)
    w = np.array([1, 3])
    _, residual = C.lwr_linear_form_printed(w, q, Y)
    Z = C.lwr_encode(Y, q)
    assert np.abs(residual).max() > 0.1
    np.testing.assert_allclose(residual @ Z, 0.0, atol=1e-8)  # certificate: orthogonal to z(Y)
    assert residual @ (Y @ w) > 1.0
    v, c = C.lwr_affine_form(w, q)
    np.testing.assert_array_equal(c + Z @ v, Y @ w)


def test_lwr_identity_printed_fails_corrected_holds():
    q, p, m = 4, 2, 2
    t = np.arange(q * q * m)
    printed, printed_active = C.lwr_identity(t, q, p, m, "printed")
    corrected, corrected_active = C.lwr_identity(t, q, p, m, "corrected")
    lam = C.lwr_lambda(t, q, p)
    assert not np.array_equal(printed, lam) and printed_active.max() > 1
    np.testing.assert_array_equal(corrected, lam)
    assert corrected_active.max() == 1


@pytest.mark.parametrize("q,m,p", [(2, 2, 2), (3, 2, 2), (5, 2, 3), (4, 3, 2)])
def test_lwr_network_all_secrets(q, m, p):
    Y = C.zq_points(q, m)
    for w in C.zq_points(q, m):
        net, embed = C.lwr_network(w, q, p)
        values, active = net.evaluate(embed(Y))
        np.testing.assert_array_equal(values, C.lwr_function(w, q, p)(Y))
        assert active.max() <= 1


def test_appendix_a_unit_rows_sparse_and_correct(rng):
    b, q = 3, 6
    Wy = C.unit_gaussian_rows(rng, 1 << b, q)
    net = C.appendix_a_network(Wy, np.sqrt(q))
    X = hypercube(b + q)
    values, active = net.evaluate(X)
    assert active.max() == 1
    np.testing.assert_allclose(values, C.appendix_a_target(Wy)(X), atol=1e-12)


def test_appendix_a_unrestricted_rows_counterexample():
    b, q = 2, 9
    net = C.appendix_a_network(np.ones((1 << b, q)), np.sqrt(q))
    assert net.max_active() > 1  # q - 2 sqrt(q) > 0


def test_variant_and_argument_errors():
    with pytest.raises(ValueError, match="variant"):
        C.parity_shifts(3, (0,), "typo")
    with pytest.raises(ValueError, match="gamma"):
        C.appendix_a_network(np.ones((2, 3)), -1.0)
    with pytest.raises(ValueError, match="2\\*\\*b rows"):
        C.appendix_a_network(np.ones((3, 3)), 1.0)
    with pytest.raises(ValueError, match="Z_q"):
        C.lwr_encode(np.array([[5]]), 5)


def test_is_prime_and_gf_solve_refuses_a_composite_modulus():
    from sparseact.constructions import gf_solve, is_prime

    primes = [n for n in range(2000) if n >= 2 and all(n % d for d in range(2, int(n**0.5) + 1))]
    assert [n for n in range(2000) if is_prime(n)] == primes
    assert is_prime(2**61 - 1) and not is_prime(2**61 + 1)
    with pytest.raises(ValueError, match="where the primality test is exact"):
        is_prime(10**5000 + 1)  # refused before any arithmetic (the probe's integer-string traceback)
    with pytest.raises(ValueError, match="p must be prime"):
        gf_solve([[1, 2], [3, 4]], [1, 1], 4)


def test_repeated_or_non_finite_junta_and_parity_inputs_are_refused():
    """The second probe's silent cases: a repeated coordinate, a NaN truth table."""
    from sparseact.constructions import dense_parity01_network, junta_function

    with pytest.raises(ValueError, match="distinct coordinates"):
        dense_parity01_network(3, [0, 0])
    with pytest.raises(ValueError, match="distinct coordinates"):
        junta_function([0.0, 1.0, 1.0, 0.0], [1, 1])
    with pytest.raises(ValueError, match="finite"):
        junta_function([float("nan"), 1.0], [0])
