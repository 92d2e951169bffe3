"""The third probe's cases: coordinates are refused, never wrapped or truncated; inputs of the wrong width, a junta
network beyond the memory limit and Monte Carlo estimates that overflow float64 raise a one-line error up front."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sparseact import analysis, constructions
from sparseact._validation import FloatOverflowError

#: The builders taking coordinates, each called on ``n = 3`` inputs with the coordinate ``v``.
BUILDERS = {
    "junta_function": lambda v: constructions.junta_function([1.0, -1.0], [v]),
    "junta_network": lambda v: constructions.junta_network([1.0, -1.0], [v], 3),
    "dense_parity_network": lambda v: constructions.dense_parity_network(3, [v]),
    "dense_parity01_network": lambda v: constructions.dense_parity01_network(3, [v]),
}
BOUNDED = [name for name in BUILDERS if name != "junta_function"]


def _one_line(error: pytest.ExceptionInfo, *words: str) -> None:
    message = str(error.value)
    assert "\n" not in message
    assert all(word in message for word in words), message


@settings(max_examples=20, deadline=None)
@given(v=st.integers(-(2**62), -1))
@pytest.mark.parametrize("name", list(BUILDERS))
def test_negative_coordinates_are_refused_not_wrapped(name, v):
    with pytest.raises(ValueError) as info:
        BUILDERS[name](v)
    _one_line(info, "negative index", str(v))


@settings(max_examples=20, deadline=None)
@given(v=st.integers(3, 2**62))
@pytest.mark.parametrize("name", BOUNDED)
def test_coordinates_beyond_n_are_refused_naming_the_argument(name, v):
    with pytest.raises(ValueError, match=r"^(variables|S) must be coordinates in \[0, 3\)") as info:
        BUILDERS[name](v)
    _one_line(info, str(v))


@settings(max_examples=20, deadline=None)
@given(v=st.one_of(st.floats(allow_nan=True), st.booleans(), st.text(max_size=3), st.none()))
@pytest.mark.parametrize("name", list(BUILDERS))
def test_non_integer_coordinates_are_refused_up_front(name, v):
    with pytest.raises(TypeError, match=r"^(variables|S) must be integer coordinates") as info:
        BUILDERS[name](v)
    _one_line(info)


def test_numpy_integer_coordinates_are_accepted():
    X = np.array([[1.0, 1.0, -1.0], [1.0, 1.0, 1.0]])
    np.testing.assert_array_equal(constructions.junta_function([1.0, -1.0], [np.int64(2)])(X), [-1.0, 1.0])
    np.testing.assert_array_equal(constructions.dense_parity_network(3, [np.int32(2)])(X), [-1.0, 1.0])


@pytest.mark.parametrize("width", [1, 3, 5, 7])
def test_index_function_refuses_inputs_of_the_wrong_width(width):
    with pytest.raises(ValueError, match=r"^Z must have shape \(points, b \+ 2\*\*b\) = \(points, 6\)") as info:
        constructions.index_function(2)(np.ones((2, width)))
    _one_line(info)


def test_junta_function_refuses_inputs_narrower_than_its_variables():
    with pytest.raises(ValueError, match=r"^X must have shape") as info:
        constructions.junta_function([1.0, -1.0], [4])(np.ones((2, 3)))
    _one_line(info, "n >= 5")


@pytest.mark.parametrize(
    "build",
    [
        lambda: constructions.junta_network([1.0, -1.0], [0], 2**40),
        lambda: constructions.junta_network([1.0, -1.0], [0], 3, s=2**40),
        lambda: constructions.dense_parity_network(2**40, [0]),
        lambda: constructions.dense_parity01_network(2**40, [0]),
    ],
)
def test_networks_beyond_the_memory_limit_are_refused_before_allocating(build):
    with pytest.raises(ValueError, match="GiB, above the memory limit") as info:
        build()
    _one_line(info, "MEMORY_LIMIT_BYTES")


ESTIMATORS = {
    "average_sensitivity_mc all_coordinates": lambda f: analysis.average_sensitivity_mc(
        f, 3, 10, np.random.default_rng(0)
    ),
    "average_sensitivity_mc random_coordinate": lambda f: analysis.average_sensitivity_mc(
        f, 3, 10, np.random.default_rng(0), method="random_coordinate"
    ),
    "noise_sensitivity_mc": lambda f: analysis.noise_sensitivity_mc(f, 3, 0.0, 10, np.random.default_rng(0)),
}


@settings(max_examples=10, deadline=None)
@given(scale=st.floats(1e160, 1.7e308))
@pytest.mark.parametrize("name", list(ESTIMATORS))
def test_monte_carlo_estimates_beyond_float64_are_refused(name, scale):
    """Finite values ``+-scale`` of ``f`` whose squared gaps (or their variance) overflow: a one-line error."""
    with pytest.raises(FloatOverflowError, match="exceeds float64") as info:
        ESTIMATORS[name](lambda X: scale * X[:, 0])
    _one_line(info, name.split()[0], "max |f|")


@pytest.mark.parametrize("name", list(ESTIMATORS))
def test_monte_carlo_estimates_of_large_finite_values_are_returned(name):
    estimate = ESTIMATORS[name](lambda X: 1e50 * X[:, 0])
    assert np.isfinite([estimate.estimate, estimate.ci_low, estimate.ci_high]).all()
