"""Hostile API arguments raise ValueError before anything large is allocated: strings and complex numbers are not
coerced to numbers, bools are not numbers, sizes are checked before arrays are built (networks, Section 4's parity
network, the monomial count, a point archive whose headers describe huge arrays)."""

import io
import time
import zipfile

import numpy as np
import pytest

from sparseact._validation import as_float_array, as_real_array, check_rho
from sparseact.combinatorics import monomial_count
from sparseact.constructions import parity_network
from sparseact.networks import SparseReLUNetwork
from sparseact.runtime.datafiles import load_arrays, save_arrays


@pytest.mark.parametrize(
    "value",
    [
        ["1.0"],
        np.array(["1.0"], dtype=object),
        np.array([1.0, "2"], dtype=object),
        [b"1"],
        np.array([b"1"]),
        [1 + 2j],
        np.array([1j]),
        np.array([1.0, 1j], dtype=object),
        [None],
        np.array([None, 1.0], dtype=object),
        np.array([{}], dtype=object),
        "1.0",
        np.array(["nan"]),
    ],
)
def test_strings_complex_and_objects_are_not_coerced(value):
    with pytest.raises(ValueError, match="real numeric array"):
        as_real_array(value, "u")
    with pytest.raises(ValueError):
        SparseReLUNetwork(value, [[1.0]], [0.0])


@pytest.mark.parametrize(
    "mask", [[True, False], [False, True], [True, True], np.array([[True, False]]).ravel(), [1, 0]], ids=str
)
def test_a_masked_array_is_refused_not_unmasked(mask):
    """The values behind a mask are not the caller's numbers: a masked entry is refused, not silently used."""
    value = np.ma.array([1.0, 2.0], mask=mask)
    with pytest.raises(ValueError, match="masked array"):
        as_real_array(value, "u")
    with pytest.raises(ValueError, match="masked array"):
        SparseReLUNetwork(value, [[1.0], [1.0]], [0.0, 0.0])


@pytest.mark.filterwarnings("ignore:the matrix subclass:PendingDeprecationWarning")
def test_array_subclasses_are_read_as_plain_arrays():
    """A masked array with nothing masked and a numpy.matrix (whose * is a matrix product) are their plain arrays."""
    W, b, x = np.array([[1.0, -1.0], [0.5, 2.0]]), np.array([0.0, -1.0]), np.array([[1.0, 1.0], [-1.0, 1.0]])
    plain = SparseReLUNetwork(np.array([1.0, -2.0]), W, b)
    for u, weights in ((np.ma.array([1.0, -2.0]), W), (np.array([1.0, -2.0]), np.asmatrix(W))):
        network = SparseReLUNetwork(u, weights, b)
        assert type(network.W) is np.ndarray and type(network.u) is np.ndarray
        np.testing.assert_array_equal(network(x), plain(x))


def test_object_arrays_of_real_numbers_are_numbers():
    assert as_float_array(np.array([1, 2.5, np.float32(3)], dtype=object), "u").tolist() == [1, 2.5, 3]


@pytest.mark.parametrize(
    ("u", "W", "b"),
    [
        ([True, False], [[1, 0], [0, 1]], [0, 0.5]),
        ([1.0, 1.0], np.eye(2, dtype=bool), [0, 0.5]),
        ([1.0, 1.0], [[1.0, 0.0], [0.0, True]], [0, 0.5]),
        ([1.0, 1.0], [[1.0, 0.0], [0.0, 1.0]], np.array([0, True], dtype=object)),
        ([1.0, 1.0], [np.array([1.0, 0.0]), [0.0, np.bool_(True)]], [0, 0.5]),
    ],
)
def test_bool_weights_are_refused(u, W, b):
    """SparseReLUNetwork(u=[True, False], ...) read the bools as 1 and 0 (issue 60, probe 5, case 13)."""
    with pytest.raises(TypeError, match="not bools"):
        SparseReLUNetwork(u, W, b)


@pytest.mark.parametrize("rho", [True, False, np.bool_(True), np.array([True, False]), [True]])
def test_bool_rho_is_refused(rho):
    with pytest.raises(ValueError, match="bool"):
        check_rho(rho)
    with pytest.raises(ValueError):
        check_rho(rho, scalar=True)


@pytest.mark.parametrize(("n", "d"), [(10**6, 10**5), (10**9, 10**9), (2**62, 2**40), (10**4, 10**4)])
def test_monomial_count_beyond_any_computation_is_refused_at_once(n, d):
    start = time.monotonic()
    with pytest.raises(ValueError, match="MAX_MONOMIAL_COUNT"):
        monomial_count(n, d)
    assert time.monotonic() - start < 1


@pytest.mark.parametrize(
    "value", [True, np.True_, 3.0, np.float64(3.0), np.array(3.0), "3", 3 + 0j, None, [3], -1, np.int64(-2)]
)
def test_monomial_count_refuses_what_is_not_a_count(value):
    """A bool, a float (a 0-d float array too: it has ``__index__`` but is not an integer), a string, complex or a
    negative number is refused for either argument, never truncated."""
    for args in ((value, 2), (5, value)):
        with pytest.raises(ValueError, match="must be"):
            monomial_count(*args)
    assert monomial_count(np.int64(5), np.array(2)) == 16


def test_monomial_count_is_exact_below_the_limit():
    from math import comb

    for n, d in [(0, 0), (5, 2), (20, 3), (200, 200), (256, 255), (100, 30)]:
        assert monomial_count(n, d) == sum(comb(n, t) for t in range(min(n, d) + 1))


@pytest.mark.parametrize("m", [2000, 5000, 10**5, 2**30])
def test_parity_network_size_is_checked_first(m):
    start = time.monotonic()
    with pytest.raises(ValueError, match="memory limit"):
        parity_network(m, [0, 1])
    assert time.monotonic() - start < 5


@pytest.mark.parametrize("shape", [(2**16, 2**15), (2**31, 1), (1, 2**31), (2**20, 2**20)])
@pytest.mark.parametrize("dtype", [np.int8, np.bool_, np.uint8, np.float16])
def test_a_huge_weight_matrix_is_refused_before_conversion(shape, dtype):
    W = np.lib.stride_tricks.as_strided(np.zeros(1, dtype=dtype), shape=shape, strides=(0, 0))
    column = np.lib.stride_tricks.as_strided(np.zeros(1), shape=shape[:1], strides=(0,))
    with pytest.raises(ValueError, match="memory limit"):
        SparseReLUNetwork(column, W, column)


def _bomb(path, shapes, dtype="<f8"):
    """An .npz whose headers describe arrays of ``shapes`` but whose payload is a few zero bytes."""
    with zipfile.ZipFile(path, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        for i, shape in enumerate(shapes):
            header = io.BytesIO()
            np.lib.format.write_array_header_1_0(header, {"descr": dtype, "fortran_order": False, "shape": shape})
            with archive.open(f"a{i}.npy", "w", force_zip64=True) as member:
                member.write(header.getvalue() + bytes(2**20))
        meta = io.BytesIO()
        np.lib.format.write_array(meta, np.asarray("{}"))
        archive.writestr("__meta__.npy", meta.getvalue())


@pytest.mark.parametrize("shapes", [[(2**31,)], [(2**16, 2**16)], [(2**28,)] * 3, [(10**12,)], [(2**40, 2**20)]])
def test_a_zip_bomb_is_refused_from_its_headers(tmp_path, shapes):
    path = tmp_path / "bomb.npz"
    _bomb(path, shapes)
    start = time.monotonic()
    with pytest.raises(ValueError, match="memory limit"):
        load_arrays(path)
    assert time.monotonic() - start < 5


def test_a_point_archive_round_trips(tmp_path):
    save_arrays(tmp_path / "ok.npz", {"a": np.arange(5.0)}, {"seed": 1})
    arrays, meta = load_arrays(tmp_path / "ok.npz")
    assert arrays["a"].tolist() == [0, 1, 2, 3, 4] and meta == {"seed": 1}


@pytest.mark.parametrize("value", [True, False, np.bool_(True), "3", b"3", 3j, np.array([2.0, 1j]), None])
@pytest.mark.parametrize("name", ["lemma9_average_sensitivity", "lemma9_transition_probability", "class_sup_bound"])
def test_bounds_refuse_bools_strings_and_complex_for_n(name, value):
    from sparseact import bounds

    arguments = {
        "lemma9_average_sensitivity": (4, 1, 1.0, 1.0),
        "lemma9_transition_probability": (4, 1),
        "class_sup_bound": (1, 1.0, 1.0),
    }[name]
    with pytest.raises(ValueError):
        getattr(bounds, name)(value, *arguments)
