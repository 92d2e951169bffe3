import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sparseact.cube import hypercube
from sparseact.networks import SparseReLUNetwork, max_active_on


def random_network(rng, n, s):
    return SparseReLUNetwork(rng.standard_normal(s), rng.standard_normal((s, n)), rng.standard_normal(s) + 1.0)


def test_output_matches_definition(rng):
    net = random_network(rng, 5, 7)
    X = hypercube(5)
    expected = np.array([sum(net.u[j] * max(net.W[j] @ x - net.b[j], 0.0) for j in range(7)) for x in X])
    np.testing.assert_allclose(net(X), expected, rtol=1e-12, atol=1e-12)
    values, counts = net.evaluate(X)
    np.testing.assert_array_equal(values, net(X))
    np.testing.assert_array_equal(counts, net.active_counts(X))


def test_active_is_strict():
    # <w, x> - b = 0 is not active (Definition 1)
    net = SparseReLUNetwork([1.0], [[1.0, 0.0]], [1.0])
    np.testing.assert_array_equal(net.active_counts([[1.0, 1.0], [-1.0, 1.0]]), [0, 0])


def test_scales_follow_definition_2():
    net = SparseReLUNetwork([2.0, -3.0], [[3.0, 4.0], [1.0, 0.0]], [0.5, -2.0])
    assert net.scale_W() == pytest.approx(3.0 * 5.0)
    assert net.scale_B() == pytest.approx(3.0 * 2.0)


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), n=st.integers(1, 8), s=st.integers(1, 6), chunk=st.integers(1, 300))
def test_chunked_max_active_equals_direct(seed, n, s, chunk):
    net = random_network(np.random.default_rng(seed), n, s)
    assert net.max_active() == int(net.active_counts(hypercube(n)).max())
    np.testing.assert_array_equal(net.truth_table(chunk=chunk), net(hypercube(n)))


def test_max_active_on_batches(rng):
    net = random_network(rng, 4, 3)
    X = hypercube(4)
    assert max_active_on(net, [X[:5], X[5:]]) == int(net.active_counts(X).max())


def test_bad_arguments_raise_value_error():
    with pytest.raises(ValueError, match="same number of neurons"):
        SparseReLUNetwork([1.0, 2.0], [[1.0]], [0.0])
    with pytest.raises(ValueError, match="2-dimensional"):
        SparseReLUNetwork([1.0], [1.0], [0.0])
    with pytest.raises(ValueError, match="finite"):
        SparseReLUNetwork([np.nan], [[1.0]], [0.0])
    net = SparseReLUNetwork([1.0], [[1.0, 1.0]], [0.0])
    with pytest.raises(ValueError, match=r"shape \(m, 2\)"):
        net(np.ones((3, 3)))
    with pytest.raises(ValueError, match="does not match"):
        net.max_active(3)
