"""The compiled cube scans see exactly the materialised preactivations."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sparseact.cube import hypercube
from sparseact.cube_scan import edge_counts, max_active_count, max_kth_largest
from sparseact.networks import SparseReLUNetwork


def network(seed: int, n: int, s: int, integer: bool) -> SparseReLUNetwork:
    rng = np.random.default_rng(seed)
    if integer:  # integer weights and biases: many preactivations exactly 0 and many ties
        return SparseReLUNetwork(
            np.ones(s), rng.integers(-1, 2, (s, n)).astype(float), rng.integers(-1, 2, s).astype(float)
        )
    return SparseReLUNetwork(np.ones(s), rng.standard_normal((s, n)), rng.standard_normal(s))


def materialised(net: SparseReLUNetwork) -> np.ndarray:
    return np.concatenate(list(net.cube_preactivations(1 << 10)))


@settings(max_examples=30, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    n=st.integers(1, 14),
    s=st.integers(1, 7),
    integer=st.booleans(),
    k=st.integers(0, 7),
)
def test_scans_match_the_materialised_preactivations(seed, n, s, integer, k):
    net = network(seed, n, s, integer)
    pre = materialised(net)
    assert max_active_count(*net.cube_halves()) == int(np.count_nonzero(pre > 0.0, axis=1).max())
    expected = float(np.partition(pre, s - k - 1, axis=1)[:, s - k - 1].max()) if k < s else -np.inf
    assert max_kth_largest(*net.cube_halves(), k) == expected  # exactly: the same sums


def test_halves_reassemble_the_cube_order():
    net = network(3, 14, 4, integer=False)
    low, high = net.cube_halves()
    pre = materialised(net)
    assert low.shape == (1 << 12, 4) and high.shape == (1 << 2, 4)
    np.testing.assert_array_equal(pre[(1 << 12) + 7], low[7] + high[1])


@pytest.mark.parametrize("s", [0, 1])
def test_degenerate_sizes(s):
    net = SparseReLUNetwork(np.ones(s), np.ones((s, 3)), np.zeros(s))
    assert max_active_count(*net.cube_halves()) == s
    assert max_kth_largest(*net.cube_halves(), 1) == -np.inf


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), n=st.integers(0, 12), density=st.floats(0.0, 1.0))
def test_edge_counts_are_the_definitions_counts(seed, n, density):
    """sum_x x_i g(x) and #{x : g(x) != g(x^(+)i)} for every i, as the definitions count them on the enumerated cube
    (eight entries a word, tables shorter than a word padded)."""
    g = np.random.default_rng(seed).random(1 << n) < density
    X = hypercube(n)
    flipped = [np.flatnonzero(X[:, i] > 0) for i in range(n)]  # rows with x_i = +1; row j | 2**i is x^(+)i
    sums, flips = edge_counts(g)
    assert sums.dtype == flips.dtype == np.float64
    assert sums.tolist() == [float(X[:, i] @ g) for i in range(n)]
    assert flips.tolist() == [2.0 * np.count_nonzero(g[r] != g[r | (1 << i)]) for i, r in enumerate(flipped)]
