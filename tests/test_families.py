import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sparseact.analysis import average_sensitivity, noise_sensitivity
from sparseact.bounds import lemma9_average_sensitivity, lemma10_noise_sensitivity
from sparseact.cube import hypercube
from sparseact.families import (
    EXACT_MAX_N,
    SEARCH_MAX_N,
    WEIGHT_KINDS,
    SearchResult,
    SparsityCertificate,
    adversarial_search,
    bucket_network,
    certify_sparsity,
    densest_threshold,
    make_ratio_objective,
    random_sparse_network,
    repair_sparsity,
    rescale,
)
from sparseact.networks import SparseReLUNetwork


def brute_max_active(net):
    return int(net.active_counts(hypercube(net.n_inputs)).max())


def active_sets(net):
    return net.preactivations(hypercube(net.n_inputs)) > 0


def common_threshold(net):
    t = net.b / np.linalg.norm(net.W, axis=1)
    np.testing.assert_allclose(t, t[0], rtol=1e-12, atol=1e-12)
    return float(t[0])


def AS(net):
    return average_sensitivity(net.truth_table())


# ---------------------------------------------------------------------------
# certification
# ---------------------------------------------------------------------------


def test_constants():
    assert EXACT_MAX_N == 22
    assert SEARCH_MAX_N <= EXACT_MAX_N


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), n=st.integers(1, 9), s=st.integers(1, 7), integer=st.booleans())
def test_certify_exact_matches_brute_force(seed, n, s, integer):
    rng = np.random.default_rng(seed)
    if integer:  # integer weights: many preactivations exactly 0 (strictly inactive)
        net = SparseReLUNetwork(rng.integers(-2, 3, s), rng.integers(-1, 2, (s, n)), rng.integers(-2, 3, s))
    else:
        net = SparseReLUNetwork(rng.standard_normal(s), rng.standard_normal((s, n)), rng.standard_normal(s))
    cert = certify_sparsity(net)
    assert cert == SparsityCertificate(brute_max_active(net), "exact", 2**n)
    assert cert.exact


def test_certify_monte_carlo_beyond_exact_range():
    n = EXACT_MAX_N + 2
    # neurons depend on the first 3 coordinates only: the exact maximum is known
    W = np.zeros((4, n))
    W[:, :3] = [[1, 1, 1], [1, 1, -1], [1, -1, 1], [-1, -1, -1]]
    net = SparseReLUNetwork(np.ones(4), W, [0.5, 0.5, 0.5, 0.5])
    small = SparseReLUNetwork(np.ones(4), W[:, :3], net.b)
    cert = certify_sparsity(net, np.random.default_rng(0), n_samples=5_000)
    assert cert.method == "monte-carlo" and not cert.exact and cert.n_points == 5_000
    assert cert.max_active == small.max_active() == 3
    # a lower bound in general: never more than the true maximum
    few = certify_sparsity(net, np.random.default_rng(1), n_samples=1)
    assert few.max_active <= 3
    with pytest.raises(ValueError, match="rng"):
        certify_sparsity(net)
    with pytest.raises(ValueError, match="n_samples"):
        certify_sparsity(net, np.random.default_rng(0), n_samples=0)
    with pytest.raises(ValueError, match="SparseReLUNetwork"):
        certify_sparsity("not a network")


# ---------------------------------------------------------------------------
# random_sparse_network and thresholds
# ---------------------------------------------------------------------------


def test_densest_threshold_matches_brute_force(rng):
    for n, s, k in [(5, 6, 1), (7, 9, 3), (8, 4, 2)]:
        W = rng.standard_normal((s, n))
        Z = hypercube(n) @ (W / np.linalg.norm(W, axis=1)[:, None]).T
        expected = np.sort(Z, axis=1)[:, s - k - 1].max()
        assert densest_threshold(W, k) == pytest.approx(expected, abs=1e-12)
    with pytest.raises(ValueError, match="non-zero"):
        densest_threshold(np.zeros((3, 2)), 1)
    with pytest.raises(ValueError, match="k must be < s"):
        densest_threshold(np.ones((3, 2)), 3)


@pytest.mark.parametrize("weights", WEIGHT_KINDS)
@pytest.mark.parametrize("n,s,k", [(4, 3, 1), (6, 8, 2), (9, 12, 3), (10, 16, 5), (7, 20, 1)])
def test_random_sparse_network_is_certified_and_tight(weights, n, s, k):
    rng = np.random.default_rng(1000 * n + 10 * s + k)
    net = random_sparse_network(n, s, k, rng, weights=weights)
    assert (net.n_inputs, net.n_neurons) == (n, s)
    assert np.all(np.abs(net.u) == 1.0)
    cert = certify_sparsity(net)
    assert cert.exact and cert.max_active <= k
    assert brute_max_active(net) <= k  # also with the plain matrix-product arithmetic
    # densest: any smaller common threshold breaks k-sparsity
    t = common_threshold(net)
    norms = np.linalg.norm(net.W, axis=1)
    lower = SparseReLUNetwork(net.u, net.W, (t - 1e-6 * max(1.0, abs(t))) * norms)
    assert lower.max_active() > k
    if weights == "sparse":
        assert np.all(np.count_nonzero(net.W, axis=1) == round(math.sqrt(n)))


def test_random_sparse_network_usually_reaches_k():
    hits = 0
    for seed in range(20):
        net = random_sparse_network(8, 10, 3, np.random.default_rng(seed))
        assert net.max_active() <= 3
        hits += net.max_active() == 3
    assert hits >= 18  # ties at the maximiser are a measure-zero event for Gaussian weights


def test_random_sparse_network_k_equals_s_is_all_active(rng):
    net = random_sparse_network(6, 4, 4, rng, weights="sign")
    assert np.all(net.active_counts(hypercube(6)) == 4)


def test_random_sparse_network_beyond_exact_range(rng):
    net = random_sparse_network(EXACT_MAX_N + 3, 8, 2, rng, n_samples=2_000)
    assert (net.n_inputs, net.n_neurons) == (EXACT_MAX_N + 3, 8)
    common_threshold(net)


def test_random_sparse_network_deterministic():
    a = random_sparse_network(7, 6, 2, np.random.default_rng(5), weights="sparse")
    b = random_sparse_network(7, 6, 2, np.random.default_rng(5), weights="sparse")
    for x, y in [(a.u, b.u), (a.W, b.W), (a.b, b.b)]:
        np.testing.assert_array_equal(x, y)


def test_random_sparse_network_bad_args(rng):
    with pytest.raises(ValueError, match="k must be <= s"):
        random_sparse_network(5, 3, 4, rng)
    with pytest.raises(ValueError, match="k must be >= 1"):
        random_sparse_network(5, 3, 0, rng)
    with pytest.raises(ValueError, match="n must be >= 1"):
        random_sparse_network(0, 3, 1, rng)
    with pytest.raises(ValueError, match="s must be an integer"):
        random_sparse_network(4, 2.5, 1, rng)
    with pytest.raises(ValueError, match="weights"):
        random_sparse_network(5, 3, 1, rng, weights="uniform")
    with pytest.raises(ValueError, match="Generator"):
        random_sparse_network(5, 3, 1, 42)


# ---------------------------------------------------------------------------
# repair
# ---------------------------------------------------------------------------


def test_repair_sparsity_raises_biases_by_common_shift(rng):
    n, s, k = 7, 9, 2
    net = SparseReLUNetwork(rng.standard_normal(s), rng.standard_normal((s, n)), rng.standard_normal(s) - 2.0)
    assert net.max_active() > k
    fixed = repair_sparsity(net, k)
    assert fixed.max_active() <= k
    np.testing.assert_array_equal(fixed.u, net.u)
    np.testing.assert_array_equal(fixed.W, net.W)
    shift = (fixed.b - net.b) / np.linalg.norm(net.W, axis=1)
    assert shift[0] > 0
    np.testing.assert_allclose(shift, shift[0], rtol=1e-9)
    # only removes activations
    assert not np.any(active_sets(fixed) & ~active_sets(net))
    # already sparse: unchanged
    again = repair_sparsity(fixed, k)
    np.testing.assert_array_equal(again.b, fixed.b)


# ---------------------------------------------------------------------------
# bucket_network
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("n,s,k", [(3, 8, 1), (8, 8, 2), (10, 12, 3), (6, 16, 2), (9, 7, 3), (5, 2, 1)])
def test_bucket_network_has_exactly_k_active_everywhere(n, s, k):
    net = bucket_network(n, s, k, np.random.default_rng(n * s * k))
    assert (net.n_inputs, net.n_neurons) == (n, s)
    counts, p = net.active_counts(hypercube(n)), math.floor(math.log2(s / k))
    assert np.all(counts == k)
    assert np.all(np.abs(net.u) == 1.0)
    assert net.scale_W() == pytest.approx(math.sqrt(p))
    assert net.scale_B() in (p - 1, p)
    # each active neuron contributes exactly u_j: h is a sum of k {-1, 1}-valued p-juntas
    values = net.truth_table()
    np.testing.assert_array_equal(values, np.round(values))
    assert len(np.flatnonzero(np.any(net.W != 0, axis=0))) == k * p


def test_bucket_network_bad_args(rng):
    with pytest.raises(ValueError, match="s >= 2k"):
        bucket_network(10, 5, 3, rng)
    with pytest.raises(ValueError, match="n >= k\\*p"):
        bucket_network(5, 16, 2, rng)
    with pytest.raises(ValueError, match="k must be <= s"):
        bucket_network(5, 2, 3, rng)


# ---------------------------------------------------------------------------
# rescale
# ---------------------------------------------------------------------------


def test_rescale_keeps_pattern_and_sets_W(rng):
    net = random_sparse_network(6, 5, 2, rng)
    for W in (1.0, 0.37, 12.5):
        out = rescale(net, W=W)
        assert out.scale_W() == pytest.approx(W, rel=1e-15)
        np.testing.assert_array_equal(active_sets(out), active_sets(net))
        np.testing.assert_array_equal(out.W, net.W)
        np.testing.assert_array_equal(out.b, net.b)
        c = out.u / net.u
        assert c[0] > 0
        np.testing.assert_allclose(c, c[0], rtol=1e-15)
        assert out.scale_B() == pytest.approx(net.scale_B() * W / net.scale_W(), rel=1e-12)
    out = rescale(net, B=2.0)
    assert out.scale_B() == pytest.approx(2.0, rel=1e-15)
    both = rescale(net, W=1.0, B=net.scale_B() / net.scale_W())
    assert both.scale_W() == pytest.approx(1.0, rel=1e-15)
    # the input is not modified
    assert net.u is not out.u and net.W is not out.W


def test_rescale_bad_args(rng):
    net = random_sparse_network(6, 5, 2, rng)
    with pytest.raises(ValueError, match="give W or B"):
        rescale(net)
    with pytest.raises(ValueError, match="W must be > 0"):
        rescale(net, W=0.0)
    with pytest.raises(ValueError, match="W must be > 0"):
        rescale(net, W=-1.0)
    with pytest.raises(ValueError, match="finite"):
        rescale(net, W=math.inf)
    with pytest.raises(ValueError, match="inconsistent"):
        rescale(net, W=1.0, B=3.0 * net.scale_B() / net.scale_W())
    zero_b = SparseReLUNetwork([1.0], [[1.0, 0.0]], [0.0])
    with pytest.raises(ValueError, match="scale_B"):
        rescale(zero_b, B=1.0)
    with pytest.raises(ValueError, match="scale_W"):
        rescale(SparseReLUNetwork([0.0], [[1.0, 0.0]], [0.5]), W=1.0)


# ---------------------------------------------------------------------------
# objectives
# ---------------------------------------------------------------------------


def test_ratio_objectives_match_definitions(rng):
    net = random_sparse_network(7, 6, 2, rng)
    n, s, k, W, B = 7, 6, 2, net.scale_W(), net.scale_B()
    table = net.truth_table()
    as_ = average_sensitivity(table)
    assert make_ratio_objective("lemma9", k)(net) == pytest.approx(
        as_ / float(lemma9_average_sensitivity(n, s, k, W, B))
    )
    assert make_ratio_objective("edge", k)(net) == pytest.approx(as_ / (4 * k**2 * W**2))
    assert make_ratio_objective("lemma10", k, rho=0.5)(net) == pytest.approx(
        float(noise_sensitivity(table, 0.5)) / float(lemma10_noise_sensitivity(0.5, n, s, k, W, B))
    )
    with pytest.raises(ValueError, match="rho is required"):
        make_ratio_objective("lemma10", 2)
    with pytest.raises(ValueError, match="rho must lie"):
        make_ratio_objective("lemma10", 2, rho=1.0)
    with pytest.raises(ValueError, match="only used"):
        make_ratio_objective("lemma9", 2, rho=0.5)
    with pytest.raises(ValueError, match="kind"):
        make_ratio_objective("lemma11", 2)
    with pytest.raises(ValueError, match="k must be >= 1"):
        make_ratio_objective("lemma9", 0)
    with pytest.raises(ValueError, match="only s=6"):
        make_ratio_objective("lemma9", 7)(net)


@settings(max_examples=40, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    n=st.integers(1, 8),
    s=st.integers(1, 8),
    k=st.integers(1, 8),
    weights=st.sampled_from(WEIGHT_KINDS),
)
def test_edge_bound_holds_for_k_sparse_networks(seed, n, s, k, weights):
    # AS(h) <= 4 k^2 W^2 for every h in H_{n,s,k}^{W,B} (module docstring)
    k = min(k, s)
    rng = np.random.default_rng(seed)
    net = random_sparse_network(n, s, k, rng, weights=weights)
    net = SparseReLUNetwork(rng.standard_normal(s), net.W, net.b)  # arbitrary u, same pattern
    assert AS(net) <= 4 * k**2 * net.scale_W() ** 2 * (1 + 1e-12)


def test_edge_bound_holds_for_bucket_networks():
    for n, s, k in [(6, 8, 1), (8, 8, 2), (10, 12, 3)]:
        net = bucket_network(n, s, k, np.random.default_rng(s + k))
        assert make_ratio_objective("edge", k)(net) <= 1.0


# ---------------------------------------------------------------------------
# adversarial search
# ---------------------------------------------------------------------------


def _check_result(res, n, s, k, objective, restarts):
    assert isinstance(res, SearchResult)
    assert (res.best.n_inputs, res.best.n_neurons) == (n, s)
    cert = certify_sparsity(res.best)
    assert cert.exact and cert.max_active <= k
    assert brute_max_active(res.best) <= k
    assert res.best.scale_W() == pytest.approx(1.0, rel=1e-15)
    assert res.best_value == objective(res.best)
    assert res.history.shape == (restarts,)
    assert np.all(np.diff(res.history) >= 0) and res.history[-1] == res.best_value
    assert restarts <= res.evaluations <= restarts * 41


def test_adversarial_search_beats_its_starting_networks():
    n, s, k = 8, 6, 2
    init = [
        random_sparse_network(n, s, k, np.random.default_rng(1)),
        bucket_network(n, s, k, np.random.default_rng(2)),
    ]
    res = adversarial_search(AS, n, s, k, np.random.default_rng(3), restarts=3, iterations=40, init=init)
    _check_result(res, n, s, k, AS, 3)
    start_values = [AS(rescale(net, W=1.0)) for net in init]
    assert res.best_value >= max(start_values)
    # a random start is improved on (maximise AS at W = 1)
    alone = adversarial_search(AS, n, s, k, np.random.default_rng(4), restarts=1, iterations=40, init=init[:1])
    assert alone.best_value > start_values[0] * 1.05


def test_adversarial_search_repairs_dense_init():
    n, s, k = 6, 5, 1
    dense = SparseReLUNetwork(np.ones(s), np.random.default_rng(0).standard_normal((s, n)), np.full(s, -3.0))
    assert dense.max_active() == s
    objective = make_ratio_objective("lemma9", k)
    res = adversarial_search(objective, n, s, k, np.random.default_rng(1), restarts=1, iterations=10, init=[dense])
    _check_result(res, n, s, k, objective, 1)


def test_adversarial_search_deterministic():
    objective = make_ratio_objective("edge", 2)
    runs = [
        adversarial_search(objective, 7, 5, 2, np.random.default_rng(11), restarts=3, iterations=15) for _ in range(2)
    ]
    a, b = runs
    assert a.best_value == b.best_value and a.evaluations == b.evaluations
    np.testing.assert_array_equal(a.history, b.history)
    for x, y in [(a.best.u, b.best.u), (a.best.W, b.best.W), (a.best.b, b.best.b)]:
        np.testing.assert_array_equal(x, y)
    _check_result(a, 7, 5, 2, objective, 3)


def test_adversarial_search_bad_args(rng):
    with pytest.raises(ValueError, match="callable"):
        adversarial_search(1.0, 5, 3, 1, rng)
    with pytest.raises(ValueError, match="n must be <="):
        adversarial_search(AS, SEARCH_MAX_N + 1, 3, 1, rng)
    with pytest.raises(ValueError, match="k must be <= s"):
        adversarial_search(AS, 5, 3, 4, rng)
    with pytest.raises(ValueError, match="restarts"):
        adversarial_search(AS, 5, 3, 1, rng, restarts=0)
    with pytest.raises(ValueError, match="iterations"):
        adversarial_search(AS, 5, 3, 1, rng, iterations=-1)
    with pytest.raises(ValueError, match="step"):
        adversarial_search(AS, 5, 3, 1, rng, step=0.0)
    with pytest.raises(ValueError, match="step must be <= 2"):  # 1e300 overflowed the first perturbation
        adversarial_search(AS, 5, 3, 1, rng, step=1e300)
    with pytest.raises(ValueError, match="Generator"):
        adversarial_search(AS, 5, 3, 1, None)
    good = random_sparse_network(5, 3, 1, rng)
    with pytest.raises(ValueError, match="expected s=4"):
        adversarial_search(AS, 5, 4, 1, rng, init=[good])
    with pytest.raises(ValueError, match="init networks"):
        adversarial_search(AS, 5, 3, 1, rng, restarts=1, init=[good, good])
