"""Bad arguments to the public API raise ValueError with a message, never a numpy error."""

import numpy as np
import pytest

from sparseact import analysis, bounds, constructions, cube, families, fitting, networks, sensitivity

NET = networks.SparseReLUNetwork([1.0, -1.0], [[1.0, 0.0, 1.0], [0.0, 1.0, 1.0]], [0.5, 0.5])
RNG = np.random.default_rng(0)

CASES = {
    "hypercube negative n": lambda: cube.hypercube(-2),
    "iter_hypercube zero chunk": lambda: next(cube.iter_hypercube(3, 0)),
    "network mismatched sizes": lambda: networks.SparseReLUNetwork([1.0], [[1.0, 2.0], [3.0, 4.0]], [0.0]),
    "network wrong input width": lambda: NET(np.ones((4, 5))),
    "network non-numeric": lambda: networks.SparseReLUNetwork(["a"], [[1.0]], [0.0]),
    "max_active wrong n": lambda: NET.max_active(4),
    "walsh non power of two": lambda: analysis.walsh_coefficients(np.ones(6)),
    "walsh 2-d table": lambda: analysis.walsh_coefficients(np.ones((4, 4))),
    "walsh overflow": lambda: analysis.walsh_coefficients(np.full(4, 1e308)),
    "noise sensitivity negative level weights": lambda: analysis.noise_sensitivity_from_level_weights([0.5, -0.1], 0.5),
    "network NaN input": lambda: NET(np.array([[np.nan, 1.0, 1.0]])),
    "active counts NaN input": lambda: NET.active_counts(np.array([[1.0, np.inf, 1.0]])),
    "level weights nan": lambda: analysis.level_weights(np.array([1.0, np.nan])),
    "fourier tail negative d": lambda: analysis.fourier_tail(np.ones(8), -1),
    "noise sensitivity rho > 1": lambda: analysis.noise_sensitivity(np.ones(8), 1.5),
    "AS Monte Carlo bad samples": lambda: analysis.average_sensitivity_mc(NET, 3, 0, RNG),
    "junta bad table length": lambda: constructions.junta_network([1.0, -1.0, 1.0], [0, 1], 4),
    "index b = 0": lambda: constructions.index_network(0),
    "parity bad variant": lambda: constructions.parity_network(3, (0,), "other"),
    "lwr q = 1": lambda: constructions.lwr_bits(1),
    "appendix A negative gamma": lambda: constructions.appendix_a_network(np.ones((4, 3)), -1.0),
    "random sparse k > s": lambda: families.random_sparse_network(6, 3, 4, RNG),
    "bucket s < 2k": lambda: families.bucket_network(6, 3, 2, RNG),
    "rescale negative W": lambda: families.rescale(NET, W=-1.0),
    "lemma9 bound k > s": lambda: bounds.lemma9_average_sensitivity(10, 2, 3, 1.0, 1.0),
    "lemma10 rho = 1": lambda: bounds.lemma10_noise_sensitivity(1.0, 10, 4, 1, 1.0, 1.0),
    "fit non-positive response": lambda: fitting.fit_exponents({"n": [1.0, 2.0, 3.0]}, [1.0, -1.0, 2.0]),
    "halfspace wrong kind": lambda: sensitivity.halfspace_family(4, RNG, "nonsense"),
}


@pytest.mark.parametrize("name", list(CASES))
def test_bad_arguments_raise_value_error(name):
    with pytest.raises(ValueError) as info:
        CASES[name]()
    message = str(info.value)
    assert len(message) > 10
    assert "broadcast" not in message and "operands could not" not in message


def test_empty_network_has_defined_results():
    empty = networks.SparseReLUNetwork(np.zeros(0), np.zeros((0, 3)), np.zeros(0))
    assert empty.max_active() == 0
    np.testing.assert_array_equal(empty.truth_table(), np.zeros(8))
    np.testing.assert_array_equal(empty(np.ones((2, 3))), np.zeros(2))
    assert empty.scale_W() == 0.0 and empty.scale_B() == 0.0
    assert families.certify_sparsity(empty).max_active == 0
