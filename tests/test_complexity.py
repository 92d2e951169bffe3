"""Tests for sparseact.complexity: cells, exact Rademacher complexity, lower bounds, proof quantity."""

from __future__ import annotations

import itertools
import math
import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sparseact import complexity as cx
from sparseact.analysis import MonteCarloEstimate
from sparseact.networks import SparseReLUNetwork

# ---------------------------------------------------------------------------
# helpers
# ---------------------------------------------------------------------------


def as_sets(masks) -> set[frozenset]:
    return {frozenset(np.flatnonzero(mk).tolist()) for mk in masks}


def cells_2d_bruteforce(X: np.ndarray) -> set[frozenset]:
    """Halfspace cells of points in general position in R^2, independently of any LP.

    The order of the projections on ``u(theta)`` only changes at angles where
    ``u`` is orthogonal to some ``x_i - x_j``; one direction strictly between
    consecutive critical angles sees every order, and the cells of a direction
    are its threshold sets ``{p > tau}`` (all suffixes of the sorted order).
    """
    m = X.shape[0]
    crit = []
    for i, j in itertools.combinations(range(m), 2):
        d = X[i] - X[j]
        a = math.atan2(d[1], d[0]) + math.pi / 2
        crit += [a % (2 * math.pi), (a + math.pi) % (2 * math.pi)]
    crit = np.sort(np.array(crit))
    mids = (crit + np.roll(crit, -1)) / 2
    mids[-1] = (crit[-1] + crit[0] + 2 * math.pi) / 2
    out = {frozenset(), frozenset(range(m))}
    for th in mids:
        p = X @ np.array([math.cos(th), math.sin(th)])
        order = np.argsort(-p)
        for r in range(1, m + 1):
            out.add(frozenset(order[:r].tolist()))
    return out


def brute_sup_s1(X, zeta, W, B, grid=201):
    """sup over a grid of single neurons (s = k = 1) for n in {1, 2}: a lower bound of the sup."""
    n = X.shape[1]
    b = np.linspace(-B, B, grid)
    if n == 1:
        w = np.linspace(-W, W, 4 * grid)[:, None]
    else:
        r = np.linspace(0, W, 40)
        th = np.linspace(0, 2 * np.pi, 240, endpoint=False)
        w = np.stack([np.outer(r, np.cos(th)).ravel(), np.outer(r, np.sin(th)).ravel()], axis=1)
    Wg = np.repeat(w, b.size, axis=0)
    bg = np.tile(b, w.shape[0])
    pre = Wg @ X.T - bg[:, None]
    return float(np.abs(np.maximum(pre, 0.0) @ zeta).max()) / X.shape[0]


def exact_per_zeta(X, s, k, W, B, every=1):
    """Exact sup (ExactSup) for every ``every``-th sign vector with zeta_1 = +1 (in ``_all_zetas_half``'s order)."""
    masks, _ = cx.class_cells(X, W, B)
    zetas = cx._all_zetas_half(X.shape[0])[::every]
    return zetas, masks, [cx.sup_exact(X, z, s, k, W, B, masks) for z in zetas]


# ---------------------------------------------------------------------------
# halfspace cells
# ---------------------------------------------------------------------------


def test_cells_points_on_a_line_are_prefixes_and_suffixes():
    x = np.array([[-2.0], [-0.5], [0.3], [1.0], [4.0]])
    cells = as_sets(cx.halfspace_cells(x))
    m = 5
    expected = {frozenset(range(r, m)) for r in range(m + 1)} | {frozenset(range(r)) for r in range(m + 1)}
    assert cells == expected
    assert len(cells) == 2 * m
    # shuffled input: the same sets up to relabelling
    perm = np.array([3, 0, 4, 2, 1])
    cells_p = as_sets(cx.halfspace_cells(x[perm]))
    assert {frozenset(int(perm[i]) for i in c) for c in cells_p} == expected


def test_cells_collinear_points_in_the_plane():
    t = np.array([-1.0, 0.0, 0.5, 2.0])
    X = np.stack([t, 2 * t + 1], axis=1)  # on the line y = 2x + 1
    cells = as_sets(cx.halfspace_cells(X))
    expected = {frozenset(range(r, 4)) for r in range(5)} | {frozenset(range(r)) for r in range(5)}
    assert cells == expected


def test_cells_homogeneous_on_a_line():
    x = np.array([[-2.0], [-1.0], [0.0], [1.5]])
    cells = as_sets(cx.halfspace_cells(x, homogeneous=True))
    assert cells == {frozenset(), frozenset({3}), frozenset({0, 1})}


def test_cells_cube_counts_are_threshold_function_counts():
    from sparseact.cube import hypercube

    # number of linearly separable Boolean functions: 4, 14, 104 for n = 1, 2, 3
    for n, count in [(1, 4), (2, 14), (3, 104)]:
        cells = cx.halfspace_cells(hypercube(n))
        assert len(cells) == count
    # n = 2: everything except the two XOR patterns
    X = hypercube(2)
    cells = as_sets(cx.halfspace_cells(X))
    diag = [i for i in range(4) if X[i, 0] == X[i, 1]]
    anti = [i for i in range(4) if X[i, 0] != X[i, 1]]
    assert frozenset(diag) not in cells and frozenset(anti) not in cells


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_cells_random_planar_points_match_angle_sweep(seed):
    X = np.random.default_rng(seed).standard_normal((7, 2))
    cells = cx.halfspace_cells(X)
    assert as_sets(cells) == cells_2d_bruteforce(X)
    assert len(cells) == len(as_sets(cells))  # no duplicates
    assert not cells[0].any()  # the empty cell first


def test_cells_witnesses_realise_the_cells():
    X = np.random.default_rng(3).standard_normal((8, 3))
    masks, wit = cx.class_cells(X, 1.0, 1.0)
    for mk, v in zip(masks, wit, strict=True):
        assert np.array_equal(X @ v[:3] - v[3] > 0, mk)


def test_cells_repeated_points_share_labels_and_max_cells():
    X = np.array([[1.0, 0.0], [1.0, 0.0], [0.0, 1.0]])
    for mk in cx.halfspace_cells(X):
        assert mk[0] == mk[1]
    with pytest.raises(ValueError, match="max_cells"):
        cx.halfspace_cells(np.random.default_rng(0).standard_normal((8, 2)), max_cells=5)


def test_class_cells_degenerate_scales():
    X = np.random.default_rng(4).standard_normal((5, 2))
    masks, _ = cx.class_cells(X, 0.0, 1.0)
    assert as_sets(masks) == {frozenset(), frozenset(range(5))}
    masks, _ = cx.class_cells(X, 0.0, 0.0)
    assert as_sets(masks) == {frozenset()}
    masks, _ = cx.class_cells(X, 1.0, 0.0)
    assert as_sets(masks) == as_sets(cx.halfspace_cells(X, homogeneous=True))


# ---------------------------------------------------------------------------
# per-cell values
# ---------------------------------------------------------------------------


def test_cell_value_hand_computed():
    # x = (2, 1), cell {x=2}: maximise |2w - b| with w - b <= 0, |w| <= 1, |b| <= 1 -> 1
    X = np.array([[2.0], [1.0]])
    cv = cx.cell_value(X, [1.0, -1.0], [True, False], 1.0, 1.0)
    assert cv.lower == pytest.approx(1.0, rel=1e-6) and cv.upper == pytest.approx(1.0, rel=1e-6)
    assert cv.lower <= cv.upper
    # the returned neuron realises the cell
    assert np.array_equal(X @ cv.w - cv.b > 0, [True, False])
    # both points: 3w - 2b with b <= w -> 5 at w = 1, b = -1
    cv = cx.cell_value(X, [1.0, 1.0], [True, True], 1.0, 1.0)
    assert cv.lower == pytest.approx(5.0, rel=1e-6)
    with pytest.raises(ValueError, match="not a cell"):
        cx.cell_value(np.array([[0.0], [1.0], [2.0]]), [1.0, 1.0, 1.0], [True, False, True], 1.0, 1.0)


@pytest.mark.parametrize("n", [1, 2])
def test_cell_values_bracket_and_grid(n):
    rng = np.random.default_rng(10 + n)
    X = rng.standard_normal((6, n))
    W, B = 1.3, 0.7
    masks, wit = cx.class_cells(X, W, B)
    zeta = rng.choice([-1.0, 1.0], size=6)
    system = cx._build_system(X, W, B, masks, wit)
    lo, hi, w, b, _ = cx._solve_cells(X, zeta[None], masks, system, W, B)
    assert np.all(lo <= hi + 1e-12)
    assert np.max(hi - lo) <= 1e-6 * max(1.0, hi.max())
    for c, mk in enumerate(masks):
        if mk.any():
            assert np.array_equal(X @ w[0, c] - b[0, c] > 0, mk)
            assert np.linalg.norm(w[0, c]) <= W and abs(b[0, c]) <= B
    # s = k = 1: the sup is the best cell; a grid of neurons never beats it and gets close
    top = float(hi.max()) / 6
    grid = brute_sup_s1(X, zeta, W, B)
    assert grid <= top + 1e-9
    assert grid >= top - 0.02 * top


# ---------------------------------------------------------------------------
# exact Rademacher complexity
# ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    "X, W, B, expected",
    [
        ([[1.0], [-1.0]], 1.0, 1.0, 1.0),
        ([[1.0], [-1.0]], 1.0, 0.0, 0.5),
        ([[1.0], [-1.0]], 0.0, 1.0, 0.5),
        ([[2.0], [1.0]], 1.0, 0.0, 1.0),
        ([[2.0], [1.0]], 1.0, 1.0, 1.5),
    ],
)
def test_rademacher_exact_hand_computed(X, W, B, expected):
    """s = k = 1, n = 1, m = 2 (worked out in the module's test notes).

    x = (1, -1), W = B = 1: every zeta reaches 2/m = 1 (e.g. zeta = (+,+): w = 0,
    b = -1 on both points; zeta = (+,-): the cell {1} with w = 1, b = -1).
    B = 0: one point at a time, |w| <= 1: 1/2. W = 0: only the full cell,
    B |zeta_1 + zeta_2| / 2 averages to 1/2. x = (2, 1), B = 0: w(2 zeta_1 +
    zeta_2)/2 -> (3 + 1 + 1 + 3)/8 = 1. W = B = 1: zeta = (+,+) gives 3w - 2b = 5,
    zeta = (+,-) gives 1, so (5 + 1 + 1 + 5)/8 = 1.5.
    """
    est = cx.rademacher_exact(np.array(X), 1, 1, W, B)
    assert isinstance(est, MonteCarloEstimate) and est.method == "exact"
    assert est.n_samples == 4 and est.confidence == 1.0
    assert est.estimate == pytest.approx(expected, rel=1e-6)
    assert est.ci_low == est.estimate <= est.ci_high <= est.estimate + 1e-6


@pytest.mark.parametrize("x, W, B", [([1.0], 1.0, 1.0), ([1.0, -1.0], 1.0, 1.0), ([2.0, 0.0, -1.0], 0.5, 0.25)])
def test_rademacher_exact_of_one_point(x, W, B):
    """m = 1 (one sign vector up to the sup's symmetry; the solver's enumeration of sign vectors once failed here):
    the sup of |h(x)| over the class, W ||x|| + B, reached by one neuron along x with bias -B."""
    est = cx.rademacher_exact(np.array([x]), 1, 1, W, B)
    assert est.method == "exact" and est.n_samples == 2
    assert est.estimate == pytest.approx(W * math.hypot(*x) + B, rel=1e-6)


def test_a_batch_of_lower_bounds_is_each_networks_own_objective_bit_for_bit():
    """Each network of a batch lies in the class, is the network the public constructor builds from its arrays, and
    its value is :func:`network_objective`'s, bit for bit, also where the final repair switched a neuron off (the
    fourth sign vector: a point of the cube {-1, 1}^4 on which rounding left two neurons active with k = 1)."""
    rng = np.random.default_rng(1804676052)
    X = np.sign(rng.standard_normal((10, 4)))
    zetas = np.where(rng.random((7, 10)) < 0.5, -1.0, 1.0)
    for s, k in ((2, 1), (3, 3)):
        found = cx.sup_lower_bounds(X, zetas, s, k, 1.0, 0.0, np.random.default_rng(1), restarts=2, iterations=3)
        if (s, k) == (2, 1):
            assert [r.repaired for r in found] == [0, 0, 0, 1, 0, 0, 0]
        for zeta, r in zip(zetas, found, strict=True):
            rebuilt = SparseReLUNetwork(r.network.u, r.network.W, r.network.b)
            assert cx.in_class(rebuilt, X, s, k, 1.0, 0.0)
            assert r.value == cx.network_objective(rebuilt, X, zeta)


def test_sup_exact_matches_grid_for_one_neuron():
    rng = np.random.default_rng(5)
    for n in (1, 2):
        X = rng.standard_normal((5, n))
        for zeta in cx._all_zetas_half(5)[:6]:
            ex = cx.sup_exact(X, zeta, 1, 1, 1.0, 0.6)
            grid = brute_sup_s1(X, zeta, 1.0, 0.6)
            assert grid <= ex.upper + 1e-9
            assert ex.value >= grid - 0.03 * max(grid, 1e-3)


def test_sup_exact_two_disjoint_neurons_on_a_line_bruteforce():
    """s = 2, k = 1, n = 1: pairs of grid neurons with disjoint activations."""
    X = np.array([[-1.5], [-0.4], [0.2], [0.9], [1.7]])
    W, B = 1.0, 1.0
    w = np.linspace(-W, W, 81)
    b = np.linspace(-B, B, 81)
    Wg = np.repeat(w, b.size)
    bg = np.tile(b, w.size)
    pre = np.outer(Wg, X[:, 0]) - bg[:, None]
    act = pre > 0
    rel = np.maximum(pre, 0.0)
    bits = act.astype(np.int64) @ (1 << np.arange(5))
    for zeta in ([1, -1, 1, 1, -1], [1, 1, -1, -1, 1], [1, 1, 1, -1, -1]):
        zeta = np.array(zeta, dtype=float)
        val = np.abs(rel @ zeta)
        # best value per activation pattern, then the best disjoint pair
        best = {}
        for pat, v in zip(bits, val, strict=True):
            best[pat] = max(best.get(pat, 0.0), v)
        pats = list(best)
        grid = max(best[p] + best[q] for p in pats for q in pats if p & q == 0 or p == 0 or q == 0)
        grid = max(grid, max(best.values())) / 5
        ex = cx.sup_exact(X, zeta, 2, 1, W, B)
        assert grid <= ex.upper + 1e-9
        assert ex.value >= grid - 0.02


def test_exact_network_is_in_class_and_attains_value():
    X, _ = cx.sample_distribution("uniform", 7, 3, np.random.default_rng(6))
    masks, _ = cx.class_cells(X, 1.0, 0.5)
    for zeta in cx._all_zetas_half(7)[::9]:
        for s, k in [(2, 1), (3, 2)]:
            ex = cx.sup_exact(X, zeta, s, k, 1.0, 0.5, masks)
            assert cx.in_class(ex.network, X, s, k, 1.0, 0.5)
            assert cx.network_objective(ex.network, X, zeta) == pytest.approx(ex.value, abs=1e-12)
            assert ex.value <= ex.upper <= ex.value + 1e-6


def test_repetition_when_k_equals_s():
    """k = s: nothing binds, the best cell is used s times, so R(s, s) = s R(1, 1)."""
    X = np.random.default_rng(7).standard_normal((6, 2))
    r1 = cx.rademacher_exact(X, 1, 1, 1.0, 1.0).estimate
    r3 = cx.rademacher_exact(X, 3, 3, 1.0, 1.0).estimate
    assert r3 == pytest.approx(3 * r1, rel=1e-6)


def test_monotone_in_s_k_W_B():
    X, _ = cx.sample_distribution("uniform", 7, 3, np.random.default_rng(8))

    def R(s, k, W, B):
        return cx.rademacher_exact(X, s, k, W, B).estimate

    tol = 1e-6
    base = R(2, 1, 1.0, 0.5)
    assert R(1, 1, 1.0, 0.5) <= base + tol <= R(3, 1, 1.0, 0.5) + 2 * tol
    assert base <= R(2, 2, 1.0, 0.5) + tol
    assert R(2, 1, 0.5, 0.5) <= base + tol <= R(2, 1, 2.0, 0.5) + 2 * tol
    assert R(2, 1, 1.0, 0.0) <= base + tol <= R(2, 1, 1.0, 1.5) + 2 * tol
    # linear scaling in (W, B) jointly
    assert R(2, 1, 2.0, 1.0) == pytest.approx(2 * base, rel=1e-6)


def test_rademacher_exact_sampled_zetas():
    X = np.random.default_rng(9).standard_normal((12, 2))
    est = cx.rademacher_exact(X, 2, 1, 1.0, 1.0, n_zeta=6, rng=np.random.default_rng(0))
    assert est.method == "exact sup, Monte Carlo over zeta" and est.n_samples == 6
    assert est.ci_low <= est.estimate <= est.ci_high
    with pytest.raises(ValueError, match="n_zeta"):
        cx.rademacher_exact(X, 2, 1, 1.0, 1.0)


# ---------------------------------------------------------------------------
# best assignment
# ---------------------------------------------------------------------------


def test_best_assignment_bruteforce():
    rng = np.random.default_rng(11)
    masks = rng.random((9, 5)) < 0.4
    masks[0] = False
    values = rng.random(9)
    values[~masks.any(axis=1)] = 0.0  # an empty cell contributes 0 (an inactive neuron)
    for s, k in [(1, 1), (2, 1), (3, 1), (3, 2), (4, 2), (2, 2)]:
        got, chosen = cx.best_assignment(masks, values, s, k)
        best = 0.0
        for t in range(1, s + 1):
            for combo in itertools.combinations_with_replacement(range(9), t):
                if np.all(masks[list(combo)].sum(axis=0) <= k):
                    best = max(best, values[list(combo)].sum())
        assert got == pytest.approx(best)
        assert len(chosen) <= s and np.all(masks[chosen].sum(axis=0) <= k)
        assert values[chosen].sum() == pytest.approx(got)


# ---------------------------------------------------------------------------
# lower bound and proof quantity against the exact values
# ---------------------------------------------------------------------------

INSTANCES = [
    ("uniform", 7, 3, 2, 1, 1.0, 1.0),
    ("uniform", 7, 4, 3, 2, 1.0, 0.5),
    ("gauss", 6, 2, 2, 1, 1.0, 1.0),
    ("gauss", 7, 2, 3, 1, 1.0, 0.0),
]


def make_instance(kind, m, n, seed):
    rng = np.random.default_rng(seed)
    if kind == "gauss":
        return rng.standard_normal((m, n))
    return cx.sample_distribution(kind, m, n, rng)[0]


@pytest.mark.parametrize("inst", INSTANCES, ids=lambda t: "-".join(map(str, t)))
def test_lower_bound_and_proof_quantity_vs_exact(inst):
    kind, m, n, s, k, W, B = inst
    X = make_instance(kind, m, n, 20 + m + n)
    zetas, masks, exact = exact_per_zeta(X, s, k, W, B, every=4)
    rng = np.random.default_rng(1)
    lows, exs, proofs = [], [], []
    for z, ex in zip(zetas, exact, strict=True):
        lb = cx.sup_lower_bound(X, z, s, k, W, B, rng, restarts=2, iterations=4, rounds=1)
        assert cx.in_class(lb.network, X, s, k, W, B)
        assert lb.value <= ex.upper + 1e-9  # a lower bound never beats the exact sup
        pq = cx.proof_intermediate_quantity(X, z, s, k, W, B, masks)
        assert pq >= ex.value - 1e-12  # the proof quantity dominates the sup (value <= sup)
        assert cx.proof_intermediate_quantity(X, z, s, k, W, B, masks, split=True) >= pq - 1e-12
        lows.append(lb.value)
        exs.append(ex.value)
        proofs.append(pq)
    gap = 1 - np.mean(lows) / np.mean(exs)
    assert gap <= 0.08, f"lower bound {np.mean(lows):.4f} vs exact {np.mean(exs):.4f}"


@pytest.mark.parametrize("seed", range(20))
def test_polish_reaches_the_cell_value_from_a_start_at_the_threshold(seed):
    # a neuron as the search leaves it: its threshold a relative 1e-9 above the binding point; the polish
    # (cell held fixed) must reach V(I), the exact per-cell maximum of cell_value, with the same sign
    from sparseact.complexity.barrier_polish import _polish_networks

    rng = np.random.default_rng(seed)
    X = np.unique(np.where(rng.standard_normal((60, 6)) > 0, 1.0, -1.0), axis=0)
    zeta = np.where(rng.standard_normal(X.shape[0]) > 0, 1.0, -1.0)
    W, B = 1.0, 3.0
    w = rng.standard_normal(6)
    w *= W / np.linalg.norm(w)
    threshold = np.unique(X @ w)[-4]
    b = threshold + 1e-9 * abs(threshold)
    cell = X @ w - b > 0
    exact = cx.cell_value(X, zeta, cell, W, B)
    Wm, bm = _polish_networks(X, zeta[None], w[None, None].copy(), np.array([[b]]), np.array([[exact.sign]]), W, B)
    pre = X @ Wm[0, 0] - bm[0, 0]
    assert np.array_equal(pre > 0, cell)
    assert np.linalg.norm(Wm[0, 0]) <= W and abs(bm[0, 0]) <= B
    value = exact.sign * (zeta @ np.maximum(pre, 0.0))
    assert value <= exact.upper + 1e-9
    assert value >= exact.lower * (1 - 1e-5), f"polished {value:.6f}, V(I) = {exact.lower:.6f}"


def test_rademacher_lower_bound_estimate():
    X, _ = cx.sample_distribution("uniform", 40, 6, np.random.default_rng(12))
    est = cx.rademacher_lower_bound(X, 4, 1, 1.0, 1.0, 5, np.random.default_rng(0), restarts=1, iterations=3, rounds=1)
    assert est.method == "lower bound" and est.n_samples == 5
    assert 0 < est.ci_low <= est.estimate <= est.ci_high
    # the dense bound (Anthony et al.) with its constant 1 is far above any sparse network here
    assert est.estimate <= cx.paper_bounds(40, 6, 4, 1, 1.0, 1.0, math.sqrt(6))["dense"]


def test_proof_intermediate_average():
    X = np.random.default_rng(13).standard_normal((6, 2))
    p = cx.proof_intermediate(X, 2, 1, 1.0, 1.0)
    r = cx.rademacher_exact(X, 2, 1, 1.0, 1.0)
    assert p.method == "proof quantity, exact"
    assert p.estimate >= r.ci_high - 1e-9


# ---------------------------------------------------------------------------
# the paper's bounds (Theorem 19 eq. (1), eq. (15), Conjecture 20) with constant 1
# ---------------------------------------------------------------------------


def test_exact_vs_paper_bounds_on_cube_samples_recorded():
    """Record (warn, do not fail) any instance where the exact value exceeds (1)/(15)."""
    rng = np.random.default_rng(14)
    for m, n, s, k, W, B in [(8, 3, 1, 1, 1.0, 1.0), (8, 3, 2, 1, 1.0, 1.0), (7, 4, 2, 2, 1.0, 0.5)]:
        X, R = cx.sample_distribution("uniform", m, n, rng)
        ex = cx.rademacher_exact(X, s, k, W, B)
        pb = cx.paper_bounds(m, n, s, k, W, B, R)
        for key in ("eq1", "eq15"):
            if np.isfinite(pb[key]) and ex.estimate > pb[key]:
                warnings.warn(
                    f"exact R={ex.estimate:.4f} exceeds {key}={pb[key]:.4f} at m={m}, n={n}, s={s}, k={k}", stacklevel=1
                )


def test_eq1_with_constant_one_fails_when_m_R_is_close_to_one():
    """Finding: (1) is not scale invariant. With B = 0, R_H(aS) = a R_H(S), while (1)
    is W R sqrt(s n log(m R))/sqrt(m), which tends to 0 as m R -> 1; so for samples of
    norm R slightly above 1/m the exact complexity exceeds (1) with constant 1 (and,
    letting m R -> 1, with any constant)."""
    X = np.random.default_rng(15).standard_normal((8, 2))
    X = X / np.linalg.norm(X, axis=1).max()
    ratios, unscaled = [], cx.rademacher_exact(X, 1, 1, 1.0, 0.0).estimate
    for R in (1.0, 0.2, 0.14, 0.13):
        ex = cx.rademacher_exact(X * R, 1, 1, 1.0, 0.0)
        eq1 = cx.paper_bounds(8, 2, 1, 1, 1.0, 0.0, R)["eq1"]
        assert ex.estimate / R == pytest.approx(unscaled, rel=1e-5)
        ratios.append(ex.estimate / eq1)
    assert ratios[0] < 1  # at R = 1 the bound holds
    assert ratios[-1] > 1  # at m R = 1.04 it does not
    assert all(a < b for a, b in itertools.pairwise(ratios))


def test_paper_bounds_keys_and_domain():
    pb = cx.paper_bounds(100, 10, 4, 1, 1.0, 1.0, math.sqrt(10))
    assert set(pb) == {"eq1", "eq15", "conj20", "dense", "proof_8_14"}
    assert pb["eq1"] == pytest.approx(pb["eq15"])
    assert math.isnan(cx.paper_bounds(100, 10, 4, 2, 1.0, 1.0, 1.0)["eq1"])  # (1) is for k = 1
    assert math.isnan(cx.paper_bounds(2, 1, 1, 1, 1.0, 0.0, 0.1)["eq1"])  # m(R+B) < 1


# ---------------------------------------------------------------------------
# samples and arguments
# ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    "kind, kw", [("uniform", {}), ("biased", {"p": 0.9}), ("clustered", {"n_centres": 2, "flip": 0.05})]
)
def test_sample_distribution_cube(kind, kw):
    X, R = cx.sample_distribution(kind, 50, 9, np.random.default_rng(16), **kw)
    assert X.shape == (50, 9) and X.dtype == np.float64
    assert np.all(np.abs(X) == 1.0)
    assert R == pytest.approx(3.0)


def test_sample_distribution_biased_and_clustered_statistics():
    X, _ = cx.sample_distribution("biased", 4000, 5, np.random.default_rng(17), p=0.8)
    assert np.mean(X == 1.0) == pytest.approx(0.8, abs=0.02)
    X, _ = cx.sample_distribution("clustered", 400, 30, np.random.default_rng(18), n_centres=2, flip=0.0)
    assert len({tuple(r) for r in X}) <= 2


def test_sample_distribution_lifted_parity():
    X, R = cx.sample_distribution("lifted-parity", 20, 16, np.random.default_rng(19))
    assert X.shape == (20, 16) and np.all(np.abs(X) == 1.0) and R == pytest.approx(4.0)
    M = X.reshape(20, 4, 4)
    y = np.diagonal(M, axis1=1, axis2=2)
    off = ~np.eye(4, dtype=bool)
    assert np.array_equal(M[:, off], (y[:, :, None] * y[:, None, :])[:, off])
    with pytest.raises(ValueError, match="perfect square"):
        cx.sample_distribution("lifted-parity", 5, 10, np.random.default_rng(0))


@pytest.mark.parametrize(
    "call",
    [
        lambda: cx.sample_distribution("gaussian", 5, 3, np.random.default_rng(0)),
        lambda: cx.sample_distribution("biased", 5, 3, np.random.default_rng(0), p=1.5),
        lambda: cx.sample_distribution("uniform", 5, 3, np.random.default_rng(0), p=0.5),
        lambda: cx.sample_distribution("uniform", 0, 3, np.random.default_rng(0)),
        lambda: cx.sample_distribution("uniform", 5, 3, 0),
        lambda: cx.rademacher_exact(np.ones((3, 2)), 1, 2, 1.0, 1.0),
        lambda: cx.rademacher_exact(np.ones((3, 2)), 1, 1, -1.0, 1.0),
        lambda: cx.rademacher_exact(np.ones(3), 1, 1, 1.0, 1.0),
        lambda: cx.sup_exact(np.ones((3, 2)), [1, 0, 1], 1, 1, 1.0, 1.0),
        lambda: cx.sup_lower_bound(np.ones((3, 2)), [1, 1, 1], 1, 1, 1.0, 1.0, "rng"),
        lambda: cx.rademacher_lower_bound(np.ones((3, 2)), 1, 1, 1.0, 1.0, 1, np.random.default_rng(0)),
        lambda: cx.best_assignment(np.ones((2, 3), bool), [1.0, -1.0], 1, 1),
        lambda: cx.halfspace_cells([[np.nan, 1.0]]),
        lambda: cx.rademacher_brackets(np.ones((3, 2)), [], 1.0, 1.0),
        lambda: cx.rademacher_brackets(np.ones((3, 2)), [(1, 2)], 1.0, 1.0),
        lambda: cx.rademacher_brackets(np.ones((cx.EXHAUSTIVE_MAX_M + 1, 1)), [(1, 1)], 1.0, 1.0),
        lambda: cx.rademacher_brackets(np.ones((cx.EXHAUSTIVE_BRACKET_M + 1, 1)), [(1, 1)], 1.0, 1.0, exact=False),
    ],
)
def test_bad_arguments_raise_value_error(call):
    with pytest.raises(ValueError):
        call()


def test_network_helpers():
    X = np.array([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]])
    net = SparseReLUNetwork([1.0, -1.0], [[1.0, 0.0], [0.0, 1.0]], [0.5, 0.5])
    assert cx.network_objective(net, X, [1, 1, -1]) == pytest.approx((0.5 - 0.5 - 0.0) / 3)
    assert cx.in_class(net, X, 2, 2, 1.0, 0.5)
    assert not cx.in_class(net, X, 2, 1, 1.0, 0.5)  # (1, 1) activates both neurons
    assert not cx.in_class(net, X, 2, 2, 0.9, 0.5)


@settings(max_examples=12, deadline=None)
@given(
    seed=st.integers(0, 2**16),
    m=st.integers(2, 6),
    n=st.integers(1, 3),
    B=st.sampled_from([0.0, 0.5, 1.0]),
)
def test_brackets_match_the_exact_and_proof_averages(seed, m, n, B):
    """One cell enumeration for several classes gives what rademacher_exact and proof_intermediate give class by
    class, and exact <= dual bracket, exact <= proof's quantity (an upper bound that drops realisability)."""
    X = np.random.default_rng(seed).standard_normal((m, n))
    classes = [(1, 1), (2, 1), (2, 2)]
    brackets = cx.rademacher_brackets(X, classes, 1.0, B)
    upper_only = cx.rademacher_brackets(X, classes, 1.0, B, exact=False)
    for br, up, (s, k) in zip(brackets, upper_only, classes, strict=True):
        ref = cx.rademacher_exact(X, s, k, 1.0, B)
        proof = cx.proof_intermediate(X, s, k, 1.0, B)
        assert (br.s, br.k) == (s, k)
        assert br.exact == pytest.approx(ref.estimate, rel=1e-12, abs=1e-15)
        assert br.exact_upper == pytest.approx(ref.ci_high, rel=1e-12, abs=1e-15)
        assert br.proof_upper == pytest.approx(proof.estimate, rel=1e-12, abs=1e-15)
        assert up.proof_upper == br.proof_upper and math.isnan(up.exact) and math.isnan(up.exact_upper)
        assert br.exact <= br.exact_upper <= br.exact + 1e-6
        assert br.exact <= br.proof_upper + 1e-9


def test_brackets_reach_m_14_without_the_programmes():
    """The proof's quantity alone runs past EXHAUSTIVE_MAX_M; on m copies of one point (s = k = 1) it is the
    mean of (W ||x|| + B) |sum_i zeta_i| / m, the exact R_H there."""
    m = cx.EXHAUSTIVE_BRACKET_M
    (br,) = cx.rademacher_brackets(np.ones((m, 1)), [(1, 1)], 1.0, 1.0, exact=False)
    counts = np.array([math.comb(m, j) * abs(2 * j - m) for j in range(m + 1)], dtype=float)
    assert br.proof_upper == pytest.approx(2.0 * counts.sum() / 2**m / m, rel=1e-12)


#: A unit-sphere sample (n = 3, m = 8) on which HiGHS's default simplex leaves the programme of the homogeneous cell
#: {3, 4, 6} (1-based) in an unknown state, though the cell is strictly realisable (margin 0.078).
NEAR_DEGENERATE_SAMPLE = [
    [-0.10065328870791398, -0.9051704880303694, -0.41295920267157654],
    [0.09516062614947603, 0.9557730446572976, -0.2782846426545291],
    [0.774850810435889, -0.50596556015155, 0.37895260060774627],
    [-0.9905923010496035, 0.05580214628564159, -0.12495204508597461],
    [0.01248438901835387, -0.9570402036487542, -0.28968636252124413],
    [0.3212318088810648, -0.9449011246398874, -0.0630237226548473],
    [-0.6583517666471739, 0.14939892290872314, -0.7377349884519905],
    [0.30052166624408805, 0.398893111075818, -0.8663550161764703],
]


def test_cell_programmes_survive_a_simplex_failure():
    """A solver's numerical failure falls back to the interior point method; it never drops or refuses a cell."""
    X = np.array(NEAR_DEGENERATE_SAMPLE)
    (one,) = cx.rademacher_brackets(X, [(1, 1)], 1.0, 0.0, exact=True)
    assert one.exact <= one.exact_upper + 1e-7 <= one.proof_upper + 1e-7
    masks, _ = cx.class_cells(X, 1.0, 0.0)
    assert (masks == np.array([0, 0, 1, 1, 0, 1, 0, 0], dtype=bool)).all(axis=1).any()  # the cell {3, 4, 6} is kept
