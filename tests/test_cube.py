import numpy as np
import pytest

from sparseact.cube import hypercube, indices_from_points, iter_hypercube, points_from_indices


def test_row_order_matches_bits():
    X = hypercube(3)
    assert X.shape == (8, 3)
    for j in range(8):
        for i in range(3):
            assert X[j, i] == (-1) ** ((j >> i) & 1)


def test_chunks_reassemble_the_cube():
    chunks = list(iter_hypercube(7, chunk=10))
    assert [len(c) for c in chunks] == [10] * 12 + [8]
    np.testing.assert_array_equal(np.concatenate(chunks), hypercube(7))


def test_indices_round_trip():
    idx = np.array([0, 5, 17, 31])
    np.testing.assert_array_equal(indices_from_points(points_from_indices(idx, 5)), idx)


def test_character_is_popcount_sign():
    # chi_T(x_j) = (-1)^popcount(T & j): the Walsh-Hadamard order
    X = hypercube(4)
    T = 0b1011
    chi = np.prod(X[:, [0, 1, 3]], axis=1)
    expected = np.array([(-1) ** bin(T & j).count("1") for j in range(16)])
    np.testing.assert_array_equal(chi, expected)


@pytest.mark.parametrize("bad", [-1, 29, 2.5, "3", True])
def test_bad_dimension_is_a_value_error(bad):
    with pytest.raises(ValueError, match="n must be"):
        hypercube(bad)


def test_bad_chunk_and_points():
    with pytest.raises(ValueError, match="chunk"):
        next(iter_hypercube(3, chunk=0))
    with pytest.raises(ValueError, match="entries in"):
        indices_from_points(np.array([[1.0, 0.0]]))
    with pytest.raises(ValueError, match="indices must lie"):
        points_from_indices(np.array([8]), 3)
