"""Tests for sparseact.sensitivity: the quantities inside the proofs of Lemmas 6, 9, 10.

Besides checking the implementation against naive loops and closed forms, these
tests pin down, on concrete instances, which of the paper's printed steps hold
exactly, which hold up to a constant, and which fail (see the module docstring
of :mod:`sparseact.sensitivity`).
"""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sparseact._validation import MEMORY_LIMIT_BYTES, max_cube_dim
from sparseact.analysis import average_sensitivity, noise_sensitivity
from sparseact.cube import hypercube
from sparseact.families import random_sparse_network
from sparseact.networks import SparseReLUNetwork
from sparseact.sensitivity import (
    MAX_EXACT_DIM,
    bucket_count,
    bucket_coupling_noise_sensitivity,
    halfspace_family,
    halfspace_indicator,
    lemma6_identity_check,
    lemma6_measure,
    lemma9_decomposition,
    lemma9_hoeffding_level,
)
from sparseact.sensitivity._common import CUBE_BYTES_PER_POINT, _check_net

# ---------------------------------------------------------------------------
# helpers
# ---------------------------------------------------------------------------


def make_net(seed: int, n: int, s: int, integer: bool) -> SparseReLUNetwork:
    """Random network; integer weights/biases create exact ties (<w, x> = b: inactive)."""
    rng = np.random.default_rng(seed)
    if integer:
        W = rng.integers(-2, 3, size=(s, n)).astype(float)
        b = rng.integers(-2, 3, size=s).astype(float)
        u = rng.integers(-2, 3, size=s).astype(float)
    else:
        W = rng.standard_normal((s, n))
        b = rng.standard_normal(s)
        u = rng.standard_normal(s)
    return SparseReLUNetwork(u, W, b)


net_params = st.tuples(st.integers(0, 2**32 - 1), st.integers(1, 8), st.integers(1, 6), st.booleans())


def naive_lemma9(net: SparseReLUNetwork) -> dict:
    """Direct loops over (x, i), independent of the packed/numba implementation."""
    n, s = net.n_inputs, net.n_neurons
    X = hypercube(n)
    N = X.shape[0]
    pre = X @ net.W.T - net.b
    act = pre > 0
    h = np.maximum(pre, 0) @ net.u
    U = V = Uw = 0.0
    changed = 0
    flips = np.zeros(s)
    for j in range(N):
        R = act[j]
        wR = (R * net.u) @ net.W
        for i in range(n):
            y = j ^ (1 << i)
            d2 = (h[j] - h[y]) ** 2
            if np.array_equal(R, act[y]):
                U += d2 / 4
                Uw += wR[i] ** 2
            else:
                V += d2 / 4
                changed += 1
            flips += R != act[y]
    return dict(
        U=U / N,
        V=V / N,
        Uw=Uw / N,
        trans=changed / (n * N),
        union=flips.sum() / (n * N),
        p=act.mean(axis=0),
        flip_sums=flips / N,
        h=h,
        act=act,
    )


# ---------------------------------------------------------------------------
# Lemma 9: decomposition
# ---------------------------------------------------------------------------


@settings(max_examples=60, deadline=None)
@given(net_params)
def test_lemma9_U_plus_V_is_AS_and_proof_relations(params):
    net = make_net(*params)
    T = lemma9_decomposition(net)
    AS = average_sensitivity(net.truth_table())
    tol = 1e-12 * max(1.0, AS)
    assert T.U >= 0 and T.V >= 0
    assert abs(T.U + T.V - AS) <= tol
    assert abs(T.AS - AS) <= tol
    # exact statements that do hold
    assert T.U_intermediate <= T.U_bound * (1 + 1e-12) + 1e-15
    assert T.U <= 4 * T.U_intermediate * (1 + 1e-12) + 1e-15  # the corrected middle step
    assert T.V <= T.V_bound * (1 + 1e-12) + 1e-15
    assert T.transition_probability <= T.transition_union_bound + 1e-15
    assert T.transition_union_bound == pytest.approx(4 * T.transition_bound_sum, rel=1e-15, abs=0)
    # AS(g_j) agrees with the analysis module on the indicator tables
    X = hypercube(net.n_inputs)
    G = (X @ net.W.T - net.b > 0).astype(float)
    for j in range(net.n_neurons):
        assert T.neuron_average_sensitivities[j] == pytest.approx(average_sensitivity(G[:, j]), abs=1e-15)
        assert T.activation_probabilities[j] == G[:, j].mean()
    assert T.k == net.max_active()


@settings(max_examples=25, deadline=None)
@given(st.tuples(st.integers(0, 2**32 - 1), st.integers(1, 5), st.integers(1, 4), st.booleans()))
def test_lemma9_against_naive_loops(params):
    net = make_net(*params)
    T = lemma9_decomposition(net)
    ref = naive_lemma9(net)
    assert T.transition_probability == pytest.approx(ref["trans"], rel=1e-15, abs=0)
    assert T.transition_union_bound == pytest.approx(ref["union"], rel=1e-15, abs=0)
    assert T.U == pytest.approx(ref["U"], rel=1e-12, abs=1e-14)
    assert T.V == pytest.approx(ref["V"], rel=1e-12, abs=1e-14)
    np.testing.assert_array_equal(T.activation_probabilities, ref["p"])
    np.testing.assert_allclose(T.neuron_average_sensitivities * 4, ref["flip_sums"], rtol=0, atol=1e-15)
    # The exact form of (U): on R_x = R_{x^i}, h(x) - h(x^i) = 2 w_i^{R_x} x_i, so
    # (U) = E_x[sum_i (w_i^{R_x})^2 1{R_x = R_{x^i}}]  (no 1/4).
    assert T.U == pytest.approx(ref["Uw"], rel=1e-10, abs=1e-12)
    # h(x) = l_{R_x}(x) = <w^{R_x}, x> - b^{R_x} on the cube
    X = hypercube(net.n_inputs)
    h = np.einsum("xj,j,jl,xl->x", ref["act"], net.u, net.W, X) - ref["act"] @ (net.u * net.b)
    np.testing.assert_allclose(h, ref["h"], rtol=1e-12, atol=1e-12)


def test_lemma9_U_bound_fails_by_factor_4_for_an_always_active_neuron():
    # h(x) = <w, x> + 10 everywhere on {-1,1}^3 (one neuron, always active): AS = ||w||^2.
    w = np.array([1.0, 0.5, 0.25])
    T = lemma9_decomposition(SparseReLUNetwork([1.0], [w], [-10.0]))
    assert T.k == 1 and T.V == 0 and T.transition_probability == 0
    assert T.U == pytest.approx(w @ w, rel=1e-15)
    assert T.U_intermediate == pytest.approx(w @ w / 4, rel=1e-15)
    assert T.U_bound == pytest.approx(w @ w / 4, rel=1e-15)
    # the printed (U) <= E[(1/4)||w^{R_x}||^2] <= k^2 W^2 / 4 is violated by exactly 4
    assert T.U == pytest.approx(4 * T.U_intermediate, rel=1e-15)
    assert T.U == pytest.approx(4 * T.U_bound, rel=1e-15)


def test_lemma9_single_neuron_transition_is_four_times_printed_sum():
    # s = 1: R_x != R_{x^i} iff g_1 changes, so the union bound is an equality and
    # Pr_{x,i}[R_x != R_{x^i}] = (4/n) AS(g_1), four times the printed (1/n) sum_j AS(g_j).
    n = 7
    T = lemma9_decomposition(SparseReLUNetwork([1.0], [np.ones(n)], [1.0]))
    assert T.transition_probability == T.transition_union_bound
    assert T.transition_probability == 4 * T.transition_bound_sum
    # closed form: g = 1{#(+1) >= 5}; boundary pairs between #(+1) = 4 and 5
    assert T.transition_probability == pytest.approx(2 * math.comb(n, 4) * (n - 4) / (n * 2**n), rel=1e-15)


def test_lemma9_printed_transition_chain_fails_on_random_sparse_network():
    rng = np.random.default_rng(2024)
    net = random_sparse_network(12, 16, 2, rng)
    T = lemma9_decomposition(net)
    assert T.k == 2
    # union bound holds, the printed '= (1/n) sum_j AS(g_j)' (factor 4 lost) does not
    assert T.transition_probability <= T.transition_union_bound
    assert T.transition_probability > T.transition_bound_sum
    # the final printed bound k sqrt(log(s/k))/sqrt(n) holds comfortably here
    assert T.transition_probability < T.transition_paper_bound
    assert T.U <= T.U_bound


# ---------------------------------------------------------------------------
# Lemma 9: Hoeffding level and deterministic bound
# ---------------------------------------------------------------------------


@settings(max_examples=40, deadline=None)
@given(net_params, st.floats(0.0, 3.0))
def test_hoeffding_deterministic_bound_and_event_inclusions(params, c):
    net = make_net(*params)
    L = lemma9_hoeffding_level(net, c=c)
    h = net.truth_table()
    assert L.max_abs_h == np.abs(h).max()
    assert L.deterministic_holds
    assert L.max_abs_h <= L.deterministic_bound * (1 + 1e-12) + 1e-300
    assert L.t <= L.level * (1 + 1e-12) + 1e-12  # log(n^k s) <= k log(ns)
    # {|h(x)| > t} is contained in the union event over R with |R| <= k (R = R_x)
    assert L.union_probability is not None
    assert L.prob_exceed_t <= L.union_probability
    assert L.target == 1 / (net.n_inputs * net.n_neurons) ** 4


def test_hoeffding_c_required_closed_form():
    # h = relu(sum_i x_i): k = 1, W = sqrt(n), B = 0, max h = n attained only at x = 1.
    n = 8
    net = SparseReLUNetwork([1.0], [np.ones(n)], [0.0])
    L = lemma9_hoeffding_level(net)
    assert L.k == 1 and L.B == 0
    expected = n / (math.sqrt(n) * math.sqrt(math.log(n)))  # = sqrt(n / log n)
    assert L.c_required == pytest.approx(expected, rel=1e-12)
    assert L.deterministic_bound == pytest.approx(n, rel=1e-12)  # tight here
    # at c = c_required the event {h >= n} has probability 2^-n > 1/n^4; just above, 0
    at = lemma9_hoeffding_level(net, c=L.c_required)
    assert at.prob_exceed_level == 2.0**-n and not at.holds
    above = lemma9_hoeffding_level(net, c=L.c_required * (1 + 1e-9))
    assert above.prob_exceed_level == 0 and above.holds


# ---------------------------------------------------------------------------
# Lemma 6
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("n", [1, 2, 5, 8, 11])
def test_majority_closed_forms_and_identity(n):
    fam = halfspace_family(n, None, "majority-like")
    assert len(fam) == (n - 1) // 2 + 1
    for t, (w, b) in enumerate(fam):
        p, AS = lemma6_measure(w, b)
        # g = 1{#{i: x_i = +1} <= t}
        assert p == sum(math.comb(n, m) for m in range(t + 1)) / 2**n
        assert AS == (n - t) * math.comb(n, t) / 2 ** (n + 1)
        chk = lemma6_identity_check(w, b)
        # exact: E[x_i g] = -(1/2) Pr[g(x) != g(x^i)] (the proof prints +Pr)
        np.testing.assert_array_equal(chk.coordinate_means, -0.5 * chk.flip_probabilities)
        # exact: AS(g) = -(1/2) E[g sum_i x_i]; printed (1/4) E[g sum_i x_i] = -AS/2
        assert chk.corrected_rhs == AS
        assert chk.paper_rhs == -AS / 2
        assert chk.paper_rhs < 0 < AS
    assert fam[0][1] == -n and lemma6_measure(*fam[0])[0] == 2.0**-n
    assert lemma6_measure(*fam[-1])[0] <= 0.5


@pytest.mark.parametrize("kind", ["random-positive", "random-gaussian"])
@pytest.mark.parametrize("n", [3, 9, 12])
def test_random_halfspace_family_and_identity(kind, n):
    rng = np.random.default_rng(n)
    fam = halfspace_family(n, rng, kind)
    assert len(fam) == n
    for q, (w, b) in enumerate(fam):
        chk = lemma6_identity_check(w, b)
        assert chk.p == 2.0 ** (q - n)  # biases span p = 2^-n, ..., 1/2
        assert chk.corrected_rhs == pytest.approx(chk.AS, rel=1e-14, abs=1e-15)
        np.testing.assert_allclose(chk.coordinate_means, -0.5 * np.sign(w) * chk.flip_probabilities, atol=1e-15)
        if kind == "random-positive":
            assert np.all(w > 0)
            assert chk.paper_rhs == pytest.approx(-chk.AS / 2, rel=1e-14, abs=1e-15)


def test_mixed_sign_identity_needs_signs():
    w = np.array([1.0, -2.0, 0.5, 0.0])
    chk = lemma6_identity_check(w, 0.7)
    assert chk.corrected_rhs == chk.AS
    assert chk.flip_probabilities[3] == 0 and chk.coordinate_means[3] == 0
    unsigned = -0.5 * chk.coordinate_means.sum()
    assert unsigned != pytest.approx(chk.AS)


def test_halfspace_indicator_orientation():
    rng = np.random.default_rng(5)
    w = rng.standard_normal(6)
    X = hypercube(6)
    b = float(np.median(X @ w)) + 1e-3
    g = halfspace_indicator(w, b)
    np.testing.assert_array_equal(g, (X @ w <= b).astype(float))
    # ties are included (<=): majority with b attained exactly
    g0 = halfspace_indicator(np.ones(4), 0.0)
    np.testing.assert_array_equal(g0, (hypercube(4).sum(axis=1) <= 0).astype(float))
    # complement of the Lemma 9 neuron activity
    np.testing.assert_array_equal(1 - g, SparseReLUNetwork([1.0], [w], [b]).active_counts(X))


# ---------------------------------------------------------------------------
# Appendix B, eq. (17)
# ---------------------------------------------------------------------------


def even_net() -> SparseReLUNetwork:
    # relu(x1 + x2 - 1) + relu(-x1 - x2 - 1) = 1{x1 = x2} = (1 + x1 x2)/2: only level 0 and 2.
    return SparseReLUNetwork([1.0, 1.0], [[1.0, 1.0, 0.0], [-1.0, -1.0, 0.0]], [1.0, 1.0])


def test_bucket_count():
    assert bucket_count(0.0) == 2
    assert bucket_count(1 / 3) == 3  # 2/(1 - 1/3) rounds to 2.9999999999999996
    assert bucket_count(0.5) == 4
    assert bucket_count(-1.0) == 1
    assert bucket_count(-0.2) == 1
    assert bucket_count(0.9) == 20


@pytest.mark.parametrize("seed", [0, 1, 2])
@pytest.mark.parametrize("rho", [-0.5, 0.0, 0.2, 1 / 3, 0.45, 0.5])
def test_eq17_exact_at_rho_effective(seed, rho):
    net = random_sparse_network(4, 4, 2, np.random.default_rng(seed))
    res = bucket_coupling_noise_sensitivity(net, rho, exact=True)
    r = bucket_count(rho)
    assert res.exact and res.right_ci is None and res.r == r
    assert res.n_terms == 2**4 * r**4
    assert res.rho_effective == 1 - 2 / r
    # (1/r) E[AS(H_z)] = NS_{rho_eff}(h) exactly (Section 2.1 normalisation on both sides)
    assert res.right == pytest.approx(res.left_at_rho_effective, rel=1e-12, abs=1e-15)
    # printed middle line = (1/r) E sum_b E_v (H(v) - H(v^b))^2 = 4 (1/r) E[AS(H_z)]
    assert res.middle == pytest.approx(4 * res.right, rel=1e-15)
    # printed first line E[(h(x) - h(y))^2] = 4 NS_rho(h)
    assert res.left_unnormalised == 4 * res.left
    if float(2 / (1 - rho)).is_integer():
        assert res.right == pytest.approx(res.left, rel=1e-12, abs=1e-15)
    if rho >= 0:  # rho_eff <= rho: a valid upper bound
        assert res.right >= res.left * (1 - 1e-12)


def test_eq17_not_exact_at_non_integer_r():
    net = random_sparse_network(5, 4, 2, np.random.default_rng(7))
    res = bucket_coupling_noise_sensitivity(net, 0.3)  # r = 2, rho_eff = 0
    assert res.r == 2 and res.rho_effective == 0.0
    assert res.right == pytest.approx(res.left_at_rho_effective, rel=1e-12)
    assert res.right > res.left * 1.01


def test_eq17_fails_for_negative_rho():
    net = even_net()
    res = bucket_coupling_noise_sensitivity(net, -0.5)  # r = 1, rho_eff = -1, y = -x
    assert res.right == pytest.approx(0.0, abs=1e-15)  # h(-x) = h(x)
    # NS_{-1/2}(h) = (1/2)(1 - 1/4) * (1/2)^2 for hat h({1,2}) = 1/2
    assert res.left == pytest.approx(0.5 * 0.75 * 0.25, rel=1e-12)
    assert res.right < res.left


def test_eq17_coupling_matches_direct_enumeration():
    """Independent check of the coupling: enumerate (z, A, v, b), build x and y explicitly."""
    net = random_sparse_network(3, 3, 2, np.random.default_rng(11))
    n = 3
    for r in (1, 2, 3):
        rho = 1 - 2 / r
        tot = 0.0
        count = 0
        for z in itertools.product([1.0, -1.0], repeat=n):
            for A in itertools.product(range(r), repeat=n):
                for v in itertools.product([1.0, -1.0], repeat=r):
                    x = np.array([z[i] * v[A[i]] for i in range(n)])
                    for b in range(r):
                        vb = list(v)
                        vb[b] = -vb[b]
                        y = np.array([z[i] * vb[A[i]] for i in range(n)])
                        tot += 0.25 * (net(x)[0] - net(y)[0]) ** 2
                        count += 1
        direct = tot / count
        assert direct == pytest.approx(noise_sensitivity(net.truth_table(), rho), rel=1e-12, abs=1e-15)
        res = bucket_coupling_noise_sensitivity(net, rho)
        assert res.right == pytest.approx(direct, rel=1e-12, abs=1e-15)


@pytest.mark.parametrize("rho", [0.0, 0.5, 0.6])
def test_eq17_monte_carlo_agrees_with_exact(rho):
    net = random_sparse_network(5, 5, 2, np.random.default_rng(3))
    ex = bucket_coupling_noise_sensitivity(net, rho, exact=True)
    mc = bucket_coupling_noise_sensitivity(
        net, rho, rng=np.random.default_rng(99), exact=False, n_samples=20000, confidence=0.999
    )
    assert not mc.exact and mc.right_mc is not None and mc.right_mc.n_samples == 20000
    lo, hi = mc.right_ci
    assert lo <= ex.right <= hi
    assert mc.middle == 4 * mc.right
    assert mc.left == ex.left and mc.left_at_rho_effective == ex.left_at_rho_effective


def test_eq17_auto_mode():
    net = random_sparse_network(8, 3, 1, np.random.default_rng(1))
    res = bucket_coupling_noise_sensitivity(net, 0.5, rng=0, exact=None, n_samples=500)
    assert not res.exact  # (2*4)^8 * 16 is over budget
    small = bucket_coupling_noise_sensitivity(random_sparse_network(3, 3, 1, np.random.default_rng(1)), 0.5, exact=None)
    assert small.exact


# ---------------------------------------------------------------------------
# random_sparse_network
# ---------------------------------------------------------------------------


def test_random_sparse_network_sparsity():
    rng = np.random.default_rng(0)
    for k in (1, 2, 3):
        net = random_sparse_network(10, 12, k, rng)
        assert net.max_active() <= k


# ---------------------------------------------------------------------------
# bad input
# ---------------------------------------------------------------------------


@given(st.integers(1, 1 << 20))
def test_the_exact_cap_is_what_the_memory_limit_allows(bytes_per_point):
    """The largest cube that fits: ``2^n`` points at ``bytes_per_point`` within the limit, ``2^(n+1)`` beyond it."""
    n = max_cube_dim(bytes_per_point)
    assert bytes_per_point << n <= MEMORY_LIMIT_BYTES < bytes_per_point << (n + 1)


def test_the_exact_computations_accept_every_cube_the_memory_allows():
    """n = 24 (a 2^24-point cube, 512 MiB at CUBE_BYTES_PER_POINT) passes the check, one more than the derived cap does
    not, before anything is allocated."""
    assert MAX_EXACT_DIM == max_cube_dim(CUBE_BYTES_PER_POINT) >= 24
    assert _check_net(SparseReLUNetwork([1.0], np.ones((1, 24)), [0.0])) == (24, 1)
    with pytest.raises(ValueError, match=f"in \\[1, {MAX_EXACT_DIM}\\]"):
        halfspace_indicator(np.ones(MAX_EXACT_DIM + 1), 0.0)


def test_bad_input_errors():
    net = SparseReLUNetwork([1.0], [[1.0, 1.0]], [0.0])
    with pytest.raises(ValueError, match="SparseReLUNetwork"):
        lemma9_decomposition("not a network")
    with pytest.raises(ValueError, match="neurons"):
        lemma9_decomposition(SparseReLUNetwork(np.ones(65), np.ones((65, 2)), np.zeros(65)))
    with pytest.raises(ValueError, match="input dimension"):
        lemma9_decomposition(SparseReLUNetwork([1.0], np.ones((1, MAX_EXACT_DIM + 1)), [0.0]))
    with pytest.raises(ValueError, match="c must be"):
        lemma9_hoeffding_level(net, c=-1.0)
    with pytest.raises(ValueError, match="rho"):
        bucket_coupling_noise_sensitivity(net, 1.0)
    with pytest.raises(ValueError, match="rho"):
        bucket_coupling_noise_sensitivity(net, -1.5)
    with pytest.raises(ValueError, match="too large"):
        bucket_coupling_noise_sensitivity(net, 0.95)
    with pytest.raises(ValueError, match="exact enumeration"):
        bucket_coupling_noise_sensitivity(SparseReLUNetwork([1.0], np.ones((1, 9)), [0.0]), 0.5, exact=True)
    with pytest.raises(ValueError, match="n_samples"):
        bucket_coupling_noise_sensitivity(net, 0.5, exact=False, n_samples=1)
    with pytest.raises(ValueError, match="exact"):
        bucket_coupling_noise_sensitivity(net, 0.5, exact="yes")
    with pytest.raises(ValueError, match="w must be one-dimensional"):
        halfspace_indicator([[1.0]], 0.0)
    with pytest.raises(ValueError, match="len"):
        halfspace_indicator([], 0.0)
    with pytest.raises(ValueError, match="finite"):
        lemma6_measure([1.0, np.nan], 0.0)
    with pytest.raises(ValueError, match="b must be"):
        lemma6_identity_check([1.0], "x")
    with pytest.raises(ValueError, match="kind"):
        halfspace_family(4, np.random.default_rng(0), "majority")
    with pytest.raises(ValueError, match="n must be"):
        halfspace_family(0, np.random.default_rng(0), "random-gaussian")
    with pytest.raises(ValueError, match="rng"):
        halfspace_family(4, None, "random-gaussian")
    with pytest.raises(ValueError, match="k must be"):
        random_sparse_network(4, 3, 4, np.random.default_rng(0))


def test_halfspace_family_thresholds_and_draws():
    rng = np.random.default_rng(4)
    fam = halfspace_family(12, rng, "random-gaussian", thresholds=4, draws=3)
    assert len(fam) == 12
    ws = [w for w, _ in fam]
    assert all(np.array_equal(ws[0], ws[i]) for i in range(4))
    assert not np.array_equal(ws[0], ws[4])
    ps = [lemma6_measure(w, b)[0] for w, b in fam[:4]]
    assert ps[0] == 2.0**-12 and ps[-1] == 0.5  # both ends of the sweep kept
    maj = halfspace_family(9, None, "majority-like", thresholds=3, draws=5)
    assert [b for _, b in maj] == [-9.0, -5.0, -1.0]
    assert len(halfspace_family(5, None, "majority-like", thresholds=100)) == 3
    with pytest.raises(ValueError, match="thresholds"):
        halfspace_family(5, rng, "random-positive", thresholds=0)
    with pytest.raises(ValueError, match="draws"):
        halfspace_family(5, rng, "random-positive", draws=0)
