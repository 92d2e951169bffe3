"""Independent re-evaluation of FAIL certificates (``sparseact verify-certificate``).

A certificate file (:mod:`sparseact.verify.certificates`) names a check and gives an
explicit instance that violates the paper's statement the check tests. The
statement is this module's, not the file's: :data:`STATEMENTS` pins, per check,
the statement id, the relation, and a function that recomputes both sides and
every variable of the bound (``n``, ``s``, ``k``, ``W``, ``B``, ``R``, ...) from the
instance alone (bounds printed in :mod:`sparseact.bounds` come from there). No
expression of the file is evaluated; a variable the file records must equal the
recomputed one. The sides are computed with small evaluators written directly from the
definitions in plain numpy, sharing no code with the checks that produced the
certificate: the cube is enumerated here, Fourier coefficients come from this
module's own Walsh-Hadamard transform, noise sensitivity from applying the noise
operator coordinate by coordinate, and class membership of the networks in a
Rademacher lower bound is checked here (over all ``2^m`` sign vectors). A certificate
is confirmed when its check is pinned, it names the check's statement and relation,
its recorded variables are the instance's, both recomputed sides reproduce the
recorded values (:data:`~sparseact.verify.certificates.REPRODUCE_RTOL`) and they violate
the pinned relation. Instances beyond the limits below (cube dimension, network
size, file size, sums of Section 4) are refused with a message before anything large
is allocated. A check with no pinned statement is not confirmed.
"""

from __future__ import annotations

import hashlib
import itertools
import json
import math
import re
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path

import numpy as np

from sparseact import bounds
from sparseact._validation import MANIFEST_NAME, read_regular_file
from sparseact.verify.certificates import REPRODUCE_ATOL, REPRODUCE_RTOL, violated

#: Largest dimension whose cube the evaluators enumerate (refused before anything is allocated).
MAX_ENUMERATION_DIM = 20
#: Largest 2^n * (n + neurons) of an enumerated cube with a network on it (about 0.5 GB of floats).
MAX_CUBE_CELLS = 2**26
#: Largest network (neurons) and input dimension of an instance.
MAX_NEURONS = 4096
MAX_INPUT_DIM = 4096
#: Largest certificate file read (bytes): the committed ones are at most about 100 kB.
MAX_FILE_BYTES = 8 * 2**20
#: Deepest nesting of JSON arrays and objects read (the committed certificates nest at most about 8 levels).
MAX_JSON_DEPTH = 64
#: Largest sample of a Rademacher lower bound whose 2^m sign vectors are all checked.
MAX_RADEMACHER_M = 16
#: Largest number of terms of a finite sum of Section 4 (q^2 m, or 2^(mL) sign vectors).
MAX_SECTION4_TERMS = 2**20
#: Slack of the class-membership checks of a Rademacher lower bound (float rounding of the norms).
MEMBERSHIP_TOL = 1e-9
#: Largest |Z^T r| entry accepted as zero in an ``orthogonal_residual`` quantity.
ORTHOGONALITY_TOL = 1e-8


@dataclass(frozen=True)
class Verification:
    """Outcome of re-evaluating one certificate."""

    confirmed: bool
    lhs: float
    rhs: float
    message: str
    #: For a confirmed certificate, the proved margin ``lhs - rhs`` and its method (a certificate file records it).
    margin: str = ""


# ---------------------------------------------------------------------------
# The cube and functions on it
# ---------------------------------------------------------------------------


def cube(n: int) -> np.ndarray:
    """All of ``{-1,1}^n``, row ``j`` with ``x_i = (-1)^(bit i of j)``."""
    if not 0 <= n <= MAX_ENUMERATION_DIM:
        raise ValueError(
            f"refused: the cube of dimension {n} is beyond the verifier's limit "
            f"n <= {MAX_ENUMERATION_DIM} (sparseact.verify.recompute.MAX_ENUMERATION_DIM)"
        )
    bits = (np.arange(2**n)[:, None] >> np.arange(n)[None, :]) & 1
    return 1.0 - 2.0 * bits


def _network(spec: dict) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    if len(spec["u"]) > MAX_NEURONS or (len(spec["W"]) and len(spec["W"][0]) > MAX_INPUT_DIM):
        raise ValueError(f"refused: networks are limited to {MAX_NEURONS} neurons of dimension {MAX_INPUT_DIM}")
    u = np.asarray(spec["u"], dtype=float).ravel()
    W = np.asarray(spec["W"], dtype=float).reshape(len(u), -1)
    b = np.asarray(spec["b"], dtype=float).ravel()
    if W.shape[0] != u.size or b.size != u.size:
        raise ValueError("network: u, W and b must have one entry (row) per neuron")
    return u, W, b


def _preactivations(spec: dict, X: np.ndarray) -> np.ndarray:
    _, W, b = _network(spec)
    return X @ W.T - b


def _evaluate(function: dict, X: np.ndarray) -> np.ndarray:
    """Values of a function spec ``F`` on the rows of ``X``."""
    if "network" in function:
        u, _, _ = _network(function["network"])
        return np.maximum(_preactivations(function["network"], X), 0.0) @ u
    if "truth_table" in function:
        table = np.asarray(function["truth_table"], dtype=float)
        index = (((1.0 - X) / 2).astype(np.int64) << np.arange(X.shape[1])).sum(axis=1)
        return table[index]
    if "halfspace" in function:
        w = np.asarray(function["halfspace"]["w"], dtype=float)
        return (X @ w > float(function["halfspace"]["b"])).astype(float)
    if "monomial" in function:
        return np.prod(X[:, list(function["monomial"])], axis=1) if function["monomial"] else np.ones(len(X))
    raise ValueError(f"unknown function spec {sorted(function)}")


def _dimension(function: dict) -> int:
    if "network" in function:
        return _network(function["network"])[1].shape[1]
    if "truth_table" in function:
        size = len(function["truth_table"])
        n = size.bit_length() - 1
        if size != 1 << n:
            raise ValueError(f"a truth table has 2^n entries, got {size}")
        return n
    if "halfspace" in function:
        return len(function["halfspace"]["w"])
    if "monomial" in function:
        return int(function["n"])
    raise ValueError(f"unknown function spec {sorted(function)}")


def _table(function: dict) -> np.ndarray:
    if "network" in function:
        return _evaluate(function, _network_cube(function["network"]))
    return _evaluate(function, cube(_dimension(function)))


def _flip(table: np.ndarray, i: int) -> np.ndarray:
    """``f(x^{(+)i})`` for every ``x``, as a table."""
    return table[np.arange(table.size) ^ (1 << i)]


def walsh_coefficients(table: np.ndarray) -> np.ndarray:
    """``fhat(T) = E_x f(x) chi_T(x)`` for every ``T`` (index = bitmask of ``T``)."""
    coefficients = np.asarray(table, dtype=float).copy()
    size, h = coefficients.size, 1
    while h < size:
        view = coefficients.reshape(-1, 2, h)
        view[:] = np.stack([view[:, 0] + view[:, 1], view[:, 0] - view[:, 1]], axis=1)
        h *= 2
    return coefficients / size


def _average_sensitivity(table: np.ndarray) -> float:
    n = table.size.bit_length() - 1
    return float(sum(np.mean((table - _flip(table, i)) ** 2) / 4 for i in range(n)))


def _noise_sensitivity(table: np.ndarray, rho: float) -> float:
    """``NS_rho = E (1/4)(f(x) - f(y))^2 = (1/2)(E f^2 - E f T_rho f)``, ``T_rho`` applied coordinate by coordinate."""
    n = table.size.bit_length() - 1
    smoothed = table.copy()
    for i in range(n):
        smoothed = (1 + rho) / 2 * smoothed + (1 - rho) / 2 * _flip(smoothed, i)
    return float((np.mean(table**2) - np.mean(table * smoothed)) / 2)


def _network_cube(network: dict) -> np.ndarray:
    """The cube of the network's dimension, refused when the cube with the network on it is too large."""
    u, W, _ = _network(network)
    n = W.shape[1]
    if n > MAX_ENUMERATION_DIM or 2**n * (n + u.size) > MAX_CUBE_CELLS:
        raise ValueError(
            f"refused: {u.size} neurons on the cube of dimension {n} exceed the verifier's limits "
            f"(n <= {MAX_ENUMERATION_DIM}, 2^n (n + neurons) <= 2^{MAX_CUBE_CELLS.bit_length() - 1})"
        )
    return cube(n)


def _active_sets(network: dict) -> np.ndarray:
    return _preactivations(network, _network_cube(network)) > 0


# ---------------------------------------------------------------------------
# Quantities
# ---------------------------------------------------------------------------


def _rademacher_lower_bound(spec: dict) -> float:
    X = np.asarray(spec["X"], dtype=float)
    zetas = np.asarray(spec["zetas"], dtype=float)
    networks = spec["networks"]
    s, k, W_max, B_max = int(spec["s"]), int(spec["k"]), float(spec["W"]), float(spec["B"])
    if len(networks) != len(zetas):
        raise ValueError("rademacher_lower_bound: one network per sign vector")
    if not 1 <= len(X) <= MAX_RADEMACHER_M:
        raise ValueError(f"refused: rademacher_lower_bound needs all 2^m sign vectors, m <= {MAX_RADEMACHER_M}")
    if zetas.ndim != 2 or zetas.shape[1] != len(X) or not np.all(np.abs(zetas) == 1):
        raise ValueError("rademacher_lower_bound: sign vectors must be in {-1,1}^m, m = number of sample points")
    if len({tuple(zeta) for zeta in zetas}) != 2 ** len(X) or len(zetas) != 2 ** len(X):
        raise ValueError(
            "rademacher_lower_bound: the mean is a lower bound on R_H(S) only over all 2^m distinct sign vectors"
        )
    correlations = []
    for t, (zeta, network) in enumerate(zip(zetas, networks, strict=True)):
        u, W, b = _check_membership("rademacher_lower_bound", t, network, X, s, k, W_max, B_max)
        correlations.append(float(np.mean(zeta * (np.maximum(X @ W.T - b, 0.0) @ u))))
    return float(np.mean(correlations))


def _signed_sample(spec: dict, kind: str) -> tuple[np.ndarray, np.ndarray, list, int, int, float, float]:
    X = np.asarray(spec["X"], dtype=float)
    zetas = np.asarray(spec["zetas"], dtype=float)
    networks = spec["networks"]
    if len(networks) != len(zetas):
        raise ValueError(f"{kind}: one network per sign vector")
    if not np.all(np.abs(zetas) == 1) or zetas.shape[1] != len(X):
        raise ValueError(f"{kind}: sign vectors must be in {{-1,1}}^m, m = number of sample points")
    return X, zetas, networks, int(spec["s"]), int(spec["k"]), float(spec["W"]), float(spec["B"])


def _check_membership(
    kind: str, t: int, network: dict, X: np.ndarray, s: int, k: int, W_max: float, B_max: float
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``(u, W, b)`` of ``network`` after checking that it lies in ``H_{n,s,k}^{W,B}`` on the sample ``X``."""
    u, W, b = _network(network)
    scale = np.max(np.abs(u), initial=0.0)
    checks = {
        f"at most s={s} neurons": u.size <= s,
        f"at most k={k} active on every sample point": (np.count_nonzero(X @ W.T - b > 0, axis=1) <= k).all(),
        f"||u||_inf max_j ||w_j||_2 <= W={W_max}": scale * np.max(np.linalg.norm(W, axis=1), initial=0.0)
        <= W_max * (1 + MEMBERSHIP_TOL),
        f"||u||_inf max_j |b_j| <= B={B_max}": scale * np.max(np.abs(b), initial=0.0) <= B_max * (1 + MEMBERSHIP_TOL),
    }
    broken = [name for name, ok in checks.items() if not ok]
    if broken:
        raise ValueError(f"{kind}: network {t} is not in the class ({'; '.join(broken)})")
    return u, W, b


def _first_term_lower_bound(spec: dict) -> float:
    """Mean over the listed sign vectors of Theorem 19's first term ``(1/m) sum_j sum_{i in I_j} zeta_i u_j <w_j, x_i>``
    for one network of the class each, with ``I_j = {i : <w_j, x_i> - b_j >= 0}`` as printed."""
    X, zetas, networks, s, k, W_max, B_max = _signed_sample(spec, "first_term_lower_bound")
    values = []
    for t, (zeta, network) in enumerate(zip(zetas, networks, strict=True)):
        u, W, b = _check_membership("first_term_lower_bound", t, network, X, s, k, W_max, B_max)
        total = 0.0
        for j in range(u.size):
            cell = X @ W[j] - b[j] >= 0
            total += u[j] * float(W[j] @ (zeta[cell] @ X[cell]))
        values.append(total / len(X))
    return float(np.mean(values))


def _second_term_lower_bound(spec: dict) -> float:
    """Mean over the listed sign vectors of Theorem 19's second term ``(1/m) sum_j sum_{i in I_j} zeta_i u_j b_j`` for
    one network of the class each, with ``I_j = {i : <w_j, x_i> - b_j >= 0}`` as printed."""
    X, zetas, networks, s, k, W_max, B_max = _signed_sample(spec, "second_term_lower_bound")
    values = []
    for t, (zeta, network) in enumerate(zip(zetas, networks, strict=True)):
        u, W, b = _check_membership("second_term_lower_bound", t, network, X, s, k, W_max, B_max)
        cells = X @ W.T - b >= 0  # (m, s)
        values.append(float(sum(u[j] * b[j] * zeta[cells[:, j]].sum() for j in range(u.size))) / len(X))
    return float(np.mean(values))


def _cell_sizes_sum(spec: dict) -> float:
    """``sum_j |I_j|``, ``I_j = {i : <w_j, x_i> - b_j >= 0}`` as printed, for a network that is ``k``-sparsely
    activated on the sample (at most ``k`` positive activations per point; checked here)."""
    X = np.asarray(spec["X"], dtype=float)
    _, W, b = _network(spec["network"])
    pre = X @ W.T - b
    if not (np.count_nonzero(pre > 0, axis=1) <= int(spec["k"])).all():
        raise ValueError(f"cell_sizes_sum: the network is not {int(spec['k'])}-sparsely activated on the sample")
    return float(np.count_nonzero(pre >= 0))


def _orthogonal_residual(spec: dict) -> float:
    Z, t = (np.asarray(spec[key], dtype=float) for key in ("Z", "t"))
    r = np.asarray([float(Fraction(v)) if isinstance(v, str) else v for v in spec["r"]], dtype=float)
    if np.max(np.abs(Z.T @ r), initial=0.0) > ORTHOGONALITY_TOL * max(1.0, np.abs(r).sum()):
        raise ValueError("orthogonal_residual: r is not orthogonal to the columns of Z")
    return float(r @ t)


def evaluate_quantity(spec: dict) -> float:
    """The value of one quantity of a certificate (see :mod:`sparseact.verify.certificates`)."""
    kind = spec.get("quantity")
    if kind == "value":
        return float(_evaluate(spec["function"], np.asarray([spec["x"]], dtype=float))[0])
    if kind == "active_count":
        return float(np.count_nonzero(_preactivations(spec["network"], np.asarray([spec["x"]], dtype=float)) > 0))
    if kind == "max_active":
        return float(_active_sets(spec["network"]).sum(axis=1).max())
    if kind == "sparse_probability":
        k = _integer(spec.get("k"), "k", 1, 2**20)
        return float(np.mean(_active_sets(spec["network"]).sum(axis=1) <= k))
    if kind == "average_sensitivity":
        return _average_sensitivity(_table(spec["function"]))
    if kind == "noise_sensitivity":
        return _noise_sensitivity(_table(spec["function"]), float(spec["rho"]))
    if kind == "fourier_tail":
        coefficients = walsh_coefficients(_table(spec["function"]))
        degrees = np.array([bin(t).count("1") for t in range(coefficients.size)])
        return float(np.sum(coefficients[degrees > int(spec["degree"])] ** 2))
    if kind == "correlation_with_sum":
        function = spec["function"]
        X = _network_cube(function["network"]) if "network" in function else cube(_dimension(function))
        return float(np.mean(_evaluate(function, X) * X.sum(axis=1)))
    if kind in ("transition_probability", "lemma9_U"):
        active = _active_sets(spec["network"])
        n = _network(spec["network"])[1].shape[1]
        table = _table({"network": spec["network"]})
        rows = np.arange(table.size)
        total = 0.0
        for i in range(n):
            same = (active == active[rows ^ (1 << i)]).all(axis=1)
            if kind == "transition_probability":
                total += np.mean(~same) / n
            else:
                total += np.mean(same * (table - _flip(table, i)) ** 2) / 4
        return float(total)
    if kind == "rademacher_lower_bound":
        return _rademacher_lower_bound(spec)
    if kind == "orthogonal_residual":
        return _orthogonal_residual(spec)
    if kind == "first_term_lower_bound":
        return _first_term_lower_bound(spec)
    if kind == "second_term_lower_bound":
        return _second_term_lower_bound(spec)
    if kind == "cell_sizes_sum":
        return _cell_sizes_sum(spec)
    if kind == "concave_activation_sum":
        p = _active_sets(spec["network"]).mean(axis=0)  # p_j = Pr_x[neuron j active]
        n = _network(spec["network"])[1].shape[1]
        live = p[p > 0]
        return float(np.sum(live * np.sqrt(n * np.log(1.0 / live)))) / n
    if kind == "lemma9_wR":
        u, W, _ = _network(spec["network"])
        weights = (_active_sets(spec["network"]) * u) @ W  # row x: w^{R_x} = sum_{j in R_x} u_j w_j
        return float(np.mean(np.sum(weights**2, axis=1)))
    raise ValueError(f"unknown quantity {kind!r}")


# ---------------------------------------------------------------------------
# The statements: pinned per check, never read from the certificate
# ---------------------------------------------------------------------------


class Refused(ValueError):
    """A certificate that does not instantiate its check's pinned statement (one line, for the report)."""


@dataclass(frozen=True)
class Sides:
    """Both sides of a pinned statement, recomputed from an instance, and the statement's variables."""

    lhs: float
    rhs: float
    variables: dict


@dataclass(frozen=True)
class Statement:
    """What one check refutes: the paper's statement ``lhs relation rhs``, fixed in the library.

    ``sides(certificate)`` reads only the *instance* from the certificate (a network, a function,
    a point, the statement's free parameters such as ``rho`` or ``eps``) and recomputes both sides
    and every variable of the statement's formula (``n``, ``s``, ``k``, ``W``, ``B``, ``R``, ...)
    from it; no expression of the file is evaluated.
    """

    statement_id: str
    relation: str
    text: str
    sides: Callable[[dict], Sides]
    #: Other relations the statement asserts when it is a chain (``1 <= x <= y``): a certificate refutes one link,
    #: ``sides`` picks the link from the certificate's relation.
    links: tuple[str, ...] = ()


def _spec(certificate: dict, side: str, kind: str) -> dict:
    spec = certificate[side]
    if not isinstance(spec, dict) or spec.get("quantity") != kind:
        got = spec.get("quantity") if isinstance(spec, dict) else type(spec).__name__
        raise Refused(f"{side} must be the statement's {kind!r} quantity, got {got!r}")
    return spec


def _parameter(certificate: dict, side: str, name: str):
    """A free parameter of the statement, as the instance in the file gives it (the formula's variable ``name``)."""
    spec = _spec(certificate, side, "formula")
    variables = spec.get("vars")
    if not isinstance(variables, dict) or name not in variables:
        raise Refused(f"the instance has no parameter {name!r} (in {side})")
    return variables[name]


def _number(value, name: str, low: float = -math.inf, high: float = math.inf) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float) or not low <= value <= high:
        raise Refused(f"parameter {name} = {value!r} is not a number in [{low}, {high}]")
    return float(value)


def _integer(value, name: str, low: int, high: int) -> int:
    """An integer parameter, written as a JSON integer (``1.0`` is a float: the statement's integers are read
    strictly, as the config's are)."""
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise Refused(f"parameter {name} = {value!r} is not an integer in [{low}, {high}]")
    return int(value)


def _signs(value, name: str) -> list[int]:
    if not isinstance(value, list) or not value or not all(v in (-1, 1) for v in value):
        raise Refused(f"parameter {name} must be a non-empty vector in {{-1,1}}^m")
    return [int(v) for v in value]


def _subset(value, m: int) -> list[int]:
    if (
        not isinstance(value, list)
        or not value
        or len(set(value)) != len(value)
        or not all(isinstance(i, int) and 0 <= i < m for i in value)
    ):
        raise Refused(f"parameter S must be a non-empty set of distinct coordinates in [0, {m})")
    return list(value)


def _network_sizes(network: dict) -> tuple[int, int, int, float, float]:
    """``n, s, k, W, B`` of a network: dimension, neurons, most active neurons on the cube (at least 1), and the
    scales ``||u||_inf max_j ||w_j||_2`` and ``||u||_inf max_j |b_j|`` of Definition 2."""
    u, W, b = _network(network)
    k = max(1, int(_active_sets(network).sum(axis=1).max()))
    scale = float(np.max(np.abs(u), initial=0.0))
    return (
        W.shape[1],
        u.size,
        k,
        scale * float(np.max(np.linalg.norm(W, axis=1), initial=0.0)),
        scale * float(np.max(np.abs(b), initial=0.0)),
    )


def _parity(S: list[int], y: list[int]) -> float:
    """The parity on ``S`` as a 0/1 function of ``y`` in {-1,1}^m: ``(1 + prod_{i in S} y_i) / 2``."""
    return (1 + math.prod(y[i] for i in S)) / 2


def _even_shifts(m: int) -> list[int]:
    """The shifts ``a`` of Section 4's parity construction as printed: the even integers in ``[-m, m]``."""
    return list(range(-m + m % 2, m + 1, 2))


def _lift(y: list[int]) -> np.ndarray:
    """``x(y)`` of Section 4, row-major ``m x m``: ``x_ii = y_i``, ``x_ij = y_i y_j``."""
    outer = np.outer(y, y).astype(float)
    np.fill_diagonal(outer, y)
    return outer.ravel()


def _printed_parity_weights(m: int, size: int, a: int) -> tuple[np.ndarray, float]:
    """``w_{S,a}`` and ``b_{S,a}`` as printed: ``w[i,j] = -1`` for ``i != j``, ``w[i,i] = 2a``, ``b = |S| + a^2 - 1/2``."""
    w = -np.ones((m, m))
    np.fill_diagonal(w, 2.0 * a)
    return w.ravel(), size + a * a - 0.5


def _printed_parity_network(m: int, size: int) -> dict:
    """Section 4's printed network ``h(x) = sum_{a even in [-m, m]} 2 relu(<w_{S,a}, x> - b_{S,a})``."""
    rows = [_printed_parity_weights(m, size, a) for a in _even_shifts(m)]
    return {"u": [2.0] * len(rows), "W": [w.tolist() for w, _ in rows], "b": [b for _, b in rows]}


def _same_network(spec: dict, expected: dict) -> bool:
    return all(
        np.shape(spec[key]) == np.shape(expected[key]) and np.allclose(spec[key], expected[key], rtol=0, atol=1e-12)
        for key in ("u", "W", "b")
    )


def _appendix_a_sparsity(c: dict) -> Sides:
    return Sides(evaluate_quantity(_spec(c, "lhs", "active_count")), 1.0, {})


def _claim21_tail(c: dict) -> Sides:
    lhs = _spec(c, "lhs", "fourier_tail")
    d = _integer(lhs["degree"], "d", 1, MAX_ENUMERATION_DIM)
    rho = _number(_parameter(c, "rhs", "rho"), "rho", -1.0, 1.0 - 1e-12)
    ns = _noise_sensitivity(_table(lhs["function"]), rho)
    # the printed bound, taken at every rho (bounds.claim21_tail_bound keeps to rho >= 0, where it holds)
    return Sides(evaluate_quantity(lhs), 2 * ns / (1 - rho**d), {"d": d, "rho": rho, "ns": ns})


def _claim21_tail_in_range(c: dict) -> Sides:
    sides = _claim21_tail(c)
    if not 0 <= sides.variables["rho"] < 1:
        raise Refused(f"rho = {sides.variables['rho']!r} is outside the statement's range [0, 1)")
    variables = sides.variables
    return Sides(
        sides.lhs, float(bounds.claim21_tail_bound(variables["ns"], variables["rho"], variables["d"])), variables
    )


def _appendix_a_computes(c: dict) -> Sides:
    """F(x, y) = sigma(<w_x, y>): the row w_x of the neuron that x (the first b = log2 s coordinates) selects."""
    lhs = _spec(c, "lhs", "value")
    u, W, _ = _network(lhs["function"]["network"])
    b = u.size.bit_length() - 1
    x = _signs(lhs["x"], "x")
    if u.size != 1 << b or len(x) != W.shape[1] or len(x) <= b:
        raise Refused("the network is not Appendix A's F: 2^b neurons on b + q coordinates")
    w = W[sum(((1 - v) // 2) << i for i, v in enumerate(x[:b])), b:]
    y = x[b:]
    return Sides(
        evaluate_quantity(lhs), max(float(w @ np.asarray(y, dtype=float)), 0.0), {"w": w.tolist(), "y": y, "q": len(y)}
    )


def index_b(z: list[int]) -> tuple[int, float]:
    """``b`` with ``len(z) = b + 2^b`` and ``Index_b(z)`` as a 0/1 value: the address bits pick a data bit."""
    b = next((b for b in range(1, 21) if b + 2**b == len(z)), None)
    if b is None:
        raise Refused(f"the input has {len(z)} coordinates, not b + 2^b for any b <= 20")
    return b, (z[b + sum(2**i for i in range(b) if z[i] < 0)] + 1) / 2


def _section1_index_computes(c: dict) -> Sides:
    lhs = _spec(c, "lhs", "value")
    z = _signs(lhs["x"], "z")
    b, index = index_b(z)
    return Sides(evaluate_quantity(lhs), index, {"z": z, "b": b})


def _section1_index_sparsity(c: dict) -> Sides:
    """Index_b's network in H_{b+2^b, 2^b, 1}: at most one active neuron at z, and at most 2^b neurons."""
    if isinstance(c["lhs"], dict) and c["lhs"].get("quantity") == "active_count":
        return Sides(evaluate_quantity(c["lhs"]), 1.0, {"k": 1})
    u = _parameter(c, "lhs", "u")
    b = _integer(_parameter(c, "rhs", "b"), "b", 1, 20)
    if not isinstance(u, list) or len(u) > MAX_NEURONS:
        raise Refused(f"parameter u must be the output weights of at most {MAX_NEURONS} neurons")
    return Sides(float(len(u)), float(2**b), {"u": u, "b": b})


def _lwr_instance(c: dict, side: str, q_max: int = 2**10) -> tuple[int, int, list[int], list[int]]:
    """``q, p, w, y`` of an LWR instance (Definition 15) from a formula side: ``2 <= p <= q``, ``w, y in Z_q^m``."""
    q = _integer(_parameter(c, side, "q"), "q", 2, q_max)
    p = _integer(_parameter(c, side, "p"), "p", 2, q)
    w, y = _parameter(c, side, "w"), _parameter(c, side, "y")
    if not (
        isinstance(w, list)
        and isinstance(y, list)
        and w
        and len(w) == len(y)
        and all(isinstance(v, int) and 0 <= v < q for v in w + y)
    ):
        raise Refused("parameters w and y must be vectors of the same length m in Z_q^m")
    return q, p, w, y


def _lwr_network(c: dict) -> Sides:
    lhs = _spec(c, "lhs", "value")
    q, p, w, y = _lwr_instance(c, "rhs")
    value = float((sum(wi * yi for wi, yi in zip(w, y, strict=True)) % q) % p)
    return Sides(evaluate_quantity(lhs), value, {"w": w, "y": y, "m": len(w), "q": q, "p": p})


def _parity_corrected_network(c: dict) -> Sides:
    S, y = _parity_instance(c, "rhs")
    lhs = _spec(c, "lhs", "value")
    if not np.array_equal(np.asarray(lhs["x"], dtype=float), _lift(y)):
        raise Refused("lhs's point is not x(y)")
    return Sides(evaluate_quantity(lhs), _parity(S, y), {"S": S, "y": y})


def _formula_network(c: dict, side: str) -> dict:
    """The network ``u, W, b`` a formula side gives as its variables (Theorem 13's certificates spell h out)."""
    network = {key: _parameter(c, side, key) for key in ("u", "W", "b")}
    _network(network)
    return network


def _junta_value(T: list, V: list[int], x: list[int]) -> float:
    """``f(x) = T[j]`` with ``j = sum_t 2^t (1 - x_{V_t}) / 2``: the junta with truth table ``T`` on variables ``V``."""
    return float(T[sum(((1 - x[v]) // 2) << t for t, v in enumerate(V))])


def _junta_instance(c: dict, side: str) -> tuple[list[int], list[int]]:
    x = _signs(_parameter(c, side, "x"), "x")
    V = _parameter(c, side, "V")
    if (
        not isinstance(V, list)
        or len(set(V)) != len(V)
        or len(V) > 20
        or not all(isinstance(v, int) and 0 <= v < len(x) for v in V)
    ):
        raise Refused("parameter V must be distinct coordinates of x (at most 20)")
    return x, V


def _junta_computes(c: dict) -> Sides:
    network = _formula_network(c, "lhs")
    x, V = _junta_instance(c, "rhs")
    T = _parameter(c, "rhs", "T")
    if not isinstance(T, list) or len(T) != 2 ** len(V):
        raise Refused("parameter T must be the junta's truth table, 2^p entries")
    u, W, b = _network(network)
    h = float(np.maximum(W @ np.asarray(x, dtype=float) - b, 0.0) @ u)
    variables = {**network, "x": x, "n": len(x), "len_u": u.size, "T": T, "V": V, "p": len(V)}
    return Sides(h, _junta_value(T, V, x), variables)


def _junta_indicator(c: dict) -> Sides:
    x, V = _junta_instance(c, "rhs")
    w, threshold = _parameter(c, "lhs", "w"), _number(_parameter(c, "lhs", "c"), "c")
    if not isinstance(w, list) or len(w) != len(x):
        raise Refused("parameter w must be a neuron's weights, one per coordinate of x")
    value = max(float(np.dot(w, x)) - threshold, 0.0)
    indicator = float(all(x[i] == w[i] for i in V))
    return Sides(value, indicator, {"w": w, "x": x, "c": threshold, "n": len(x), "V": V})


def _junta_sparsity(c: dict) -> Sides:
    return Sides(evaluate_quantity(_spec(c, "lhs", "active_count")), 1.0, {})


def _junta_scale(c: dict) -> Sides:
    """W and B of Definition 2 of the network against the levels of H_{n,s,1}^{sqrt(p),p} and of the theorem's
    sqrt(log2 s), log2 s: the recorded sides name which of the four comparisons the certificate makes."""
    network = _formula_network(c, "lhs")
    p = _integer(_parameter(c, "rhs", "p"), "p", 1, 20)
    s = _integer(_parameter(c, "rhs", "s"), "s", 1, MAX_NEURONS)
    _, _, _, W, B = _network_sizes(network)
    levels = [(W, math.sqrt(p)), (B, float(p)), (W, math.sqrt(math.log2(s))), (B, math.log2(s))]
    recorded = (c["lhs_value"], c["rhs_value"])
    for value, limit in levels:
        if _same(recorded[0], value) and _same(recorded[1], limit):
            return Sides(value, limit, {**network, "p": p, "s": s})
    raise Refused("the recorded sides are none of W <= sqrt(p), B <= p, W <= sqrt(log2 s), B <= log2 s of the network")


def _eq17_printed(c: dict) -> Sides:
    lhs = _spec(c, "lhs", "noise_sensitivity")
    rho = _number(lhs["rho"], "rho", -1.0, 1.0 - 1e-12)
    ns = evaluate_quantity(lhs)
    return Sides(ns, 4 * ns, {"rho": rho})  # E[(h(x) - h(y))^2] = 4 NS_rho(h) by Section 2.1's definition


def _eq17_coupling(c: dict) -> Sides:
    lhs = _spec(c, "lhs", "noise_sensitivity")
    rho = _number(lhs["rho"], "rho", -1.0, 1.0 - 1e-12)
    table = _table(lhs["function"])
    n = table.size.bit_length() - 1
    if n < 1 or not np.array_equal(table, cube(n)[:, 0]):
        raise Refused("the coupling's value 1/r is the statement's for h(x) = x_1 only, and h is not x_1")
    return Sides(evaluate_quantity(lhs), 1 / math.floor(2 / (1 - rho)), {"rho": rho})


def _lemma6_identity(c: dict) -> Sides:
    lhs = _spec(c, "lhs", "average_sensitivity")
    if "halfspace" not in lhs["function"]:
        raise Refused("lhs: the statement is about a halfspace g")
    X = cube(_dimension(lhs["function"]))
    quarter_correlation = float(np.mean(_evaluate(lhs["function"], X) * X.sum(axis=1))) / 4
    written = evaluate_quantity(_spec(c, "rhs", "correlation_with_sum"))
    if not _reproduces(written, quarter_correlation):
        raise Refused(f"rhs is not (1/4) E_x[g(x) sum_i x_i] of lhs's g ({written:.12g} != {quarter_correlation:.12g})")
    return Sides(evaluate_quantity(lhs), quarter_correlation, {})


def _lemma9_term_u(c: dict) -> Sides:
    lhs = _spec(c, "lhs", "lemma9_U")
    _, _, k, W, _ = _network_sizes(lhs["network"])
    return Sides(evaluate_quantity(lhs), float(bounds.lemma9_term_U(k, W)), {"k": k, "W": W})


def _lemma9_transition(c: dict) -> Sides:
    lhs = _spec(c, "lhs", "transition_probability")
    n, s, k, _, _ = _network_sizes(lhs["network"])
    return Sides(evaluate_quantity(lhs), float(bounds.lemma9_transition_probability(n, s, k)), {"n": n, "s": s, "k": k})


def _lemma9_union(c: dict) -> Sides:
    lhs = _spec(c, "lhs", "transition_probability")
    union = sum(_halfspace_sensitivities(lhs["network"])) / _network(lhs["network"])[1].shape[1]
    written = evaluate_quantity(_spec(c, "rhs", "average_sensitivity"))
    if not _reproduces(written, union):
        raise Refused(f"rhs is not (1/n) sum_j AS(g_j) of lhs's network ({written:.12g} != {union:.12g})")
    return Sides(evaluate_quantity(lhs), union, {})


def _theorem17_scale(c: dict) -> Sides:
    """h(x) = lam relu(x) on n = 1 (so s = k = 1, R = 1, W = lam, bias 0 <= B): telling h from -h needs
    log(1/(2 delta)) / -log(1 - p) samples when p lam^2 > 2 eps; Theorem 17 prints C times its m(eps, delta)."""
    delta = _number(_parameter(c, "lhs", "delta"), "delta", 1e-300, 0.5)
    eps = _number(_parameter(c, "lhs", "eps"), "eps", 1e-300)
    lam = _number(_parameter(c, "lhs", "lam"), "lam", 1e-300, 1e300)
    p = _number(_parameter(c, "lhs", "p"), "p", 1e-300, 1.0)
    B = _number(_parameter(c, "rhs", "B"), "B", 0.0, 1e300)
    C = _number(_parameter(c, "rhs", "C"), "C", 1.0, 1e300)
    if not p * lam**2 > 2 * eps:
        raise Refused("the two-point argument needs p lam^2 > 2 eps")
    variables = {
        "delta": delta,
        "eps": eps,
        "lam": lam,
        "p": p,
        "B": B,
        "C": C,
        "W": lam,
        "R": 1.0,
        "n": 1,
        "s": 1,
        "k": 1,
    }
    rhs = C * float(bounds.theorem17_sample_complexity(eps, delta, 1, 1, 1, lam, B, 1.0))
    return Sides(float(bounds.sign_ambiguity_lower_bound(p, delta)), rhs, variables)


def _dense_lower_bound(c: dict) -> Sides:
    """The Introduction's Omega(s^2/eps^2) for H_{n,s,s}^{W,B} at the constant ``c`` against the samples after which
    the memoriser learns the class (realizable PAC, Section 2): a learner needing at least ``c s^2/eps^2`` samples
    cannot exist when ``ceil(C^2 2^n/(2 e eps delta))`` suffice and are fewer (``C = s(W sqrt(n) + B)``)."""
    n = _integer(_parameter(c, "lhs", "n"), "n", 1, 64)
    s = _integer(_parameter(c, "lhs", "s"), "s", 1, 2**20)
    W = _number(_parameter(c, "lhs", "W"), "W", 0.0, 1e100)
    B = _number(_parameter(c, "lhs", "B"), "B", 0.0, 1e100)
    eps = _number(_parameter(c, "lhs", "eps"), "eps", 1e-300, 1e300)
    delta = _number(_parameter(c, "lhs", "delta"), "delta", 1e-300, 1.0 - 1e-16)
    constant = _number(_parameter(c, "rhs", "c"), "c", 1e-300, 1e300)
    if _parameter(c, "rhs", "s") != s or _parameter(c, "rhs", "eps") != eps:
        raise Refused("the two sides must be at the same s and eps")
    C = float(bounds.class_sup_bound(n, s, W, B))
    lhs = math.ceil(bounds.memoriser_sample_complexity(n, C, eps, delta))
    return Sides(
        float(lhs),
        constant * s**2 / eps**2,
        {"n": n, "s": s, "W": W, "B": B, "eps": eps, "delta": delta, "c": constant, "C": C},
    )


def _lwr_identity(c: dict) -> Sides:
    q = _integer(_parameter(c, "lhs", "q"), "q", 2, 2**10)
    m = _integer(_parameter(c, "lhs", "m"), "m", 1, 2**10)
    p = _integer(_parameter(c, "lhs", "p"), "p", 2, q)
    t = _integer(_parameter(c, "lhs", "t"), "t", 0, q * q * m)
    if q * q * m > MAX_SECTION4_TERMS:
        raise Refused(f"refused: q^2 m = {q * q * m} terms exceed the verifier's limit {MAX_SECTION4_TERMS}")
    total = sum(2 * ((a % q) % p) * max(0.5 - (t - a), 0.0) ** 2 for a in range(q * q * m))
    return Sides(float(total), float((t % q) % p), {"q": q, "m": m, "p": p, "t": t})


def _lwr_lifted_weights(c: dict) -> Sides:
    """|W[k,k]| forced by 1/2 - (<w, y> - a)^2 = <W, x(y)> - b (a Fourier coefficient of the bit encoding z of y),
    against the printed claim that W is in {1,-1}^n."""
    L = _integer(_parameter(c, "lhs", "L"), "L", 1, 20)
    m = _integer(_parameter(c, "lhs", "m"), "m", 1, 20)
    a = _integer(_parameter(c, "lhs", "a"), "a", -(2**20), 2**20)
    k = _integer(_parameter(c, "lhs", "k"), "k", 0, m * L - 1)
    w = _parameter(c, "lhs", "w")
    if not isinstance(w, list) or len(w) != m or not all(isinstance(v, int) and 0 <= v < 2**L for v in w):
        raise Refused(f"parameter w must be m = {m} integers in Z_q, q = 2^L")
    if 2 ** (m * L) > MAX_SECTION4_TERMS:
        raise Refused(f"refused: 2^(mL) = {2 ** (m * L)} terms exceed the verifier's limit {MAX_SECTION4_TERMS}")
    total = 0.0
    for j in range(2 ** (m * L)):
        y = [sum(((j >> (i * L + bit)) & 1) << bit for bit in range(L)) for i in range(m)]
        total += (0.5 - (sum(wi * yi for wi, yi in zip(w, y, strict=True)) - a) ** 2) * (1 - 2 * ((j >> k) & 1))
    return Sides(abs(total) / 2 ** (m * L), 1.0, {"L": L, "m": m, "a": a, "k": k, "w": w})


def _lwr_linear_encoding(c: dict) -> Sides:
    return Sides(evaluate_quantity(_spec(c, "lhs", "orthogonal_residual")), 0.0, {})


def _parity_instance(c: dict, side: str) -> tuple[list[int], list[int]]:
    y = _signs(_parameter(c, side, "y"), "y")
    return _subset(_parameter(c, side, "S"), len(y)), y


def _parity_chi(c: dict) -> Sides:
    S, y = _parity_instance(c, "lhs")
    printed = 1.0 if sum(y[i] for i in S) % 2 == 0 else 0.0
    return Sides(printed, _parity(S, y), {"S": S, "y": y})


def _parity_identity(c: dict) -> Sides:
    S, y = _parity_instance(c, "lhs")
    A = _even_shifts(len(y))
    total = sum(2 * max(0.5 - (sum(y[i] for i in S) - a) ** 2, 0.0) for a in A)
    return Sides(float(total), _parity(S, y), {"S": S, "y": y, "A": A})


def _parity_lift(c: dict) -> Sides:
    S, y = _parity_instance(c, "lhs")
    m = len(y)
    a = _integer(_parameter(c, "lhs", "a"), "a", -m, m)
    w, b = _printed_parity_weights(m, len(S), a)
    lhs = 0.5 - (sum(y[i] for i in S) - a) ** 2
    return Sides(float(lhs), float(w @ _lift(y) - b), {"S": S, "y": y, "a": a, "m": m, "w": w.tolist(), "b": b})


def _parity_network(c: dict) -> Sides:
    S, y = _parity_instance(c, "rhs")
    lhs = _spec(c, "lhs", "value")
    if not _same_network(
        lhs["function"].get("network", {"u": [], "W": [], "b": []}), _printed_parity_network(len(y), len(S))
    ):
        raise Refused("lhs's network is not Section 4's printed network for this m and |S|")
    if not np.array_equal(np.asarray(lhs["x"], dtype=float), _lift(y)):
        raise Refused("lhs's point is not x(y)")
    return Sides(evaluate_quantity(lhs), _parity(S, y), {"S": S, "y": y})


def _parity_sparsity(c: dict) -> Sides:
    lhs = _spec(c, "lhs", "active_count")
    x = np.asarray(lhs["x"], dtype=float)
    m = math.isqrt(x.size)
    y = [int(v) for v in x.reshape(m, m).diagonal()] if m * m == x.size else []
    if not y or not np.array_equal(x, _lift(_signs(y, "y"))):
        raise Refused("lhs's point is not x(y) for any y in {-1,1}^m")
    if not any(_same_network(lhs["network"], _printed_parity_network(m, size)) for size in range(1, m + 1)):
        raise Refused("lhs's network is not Section 4's printed network for this m and any |S|")
    return Sides(evaluate_quantity(lhs), 1.0, {})


def _rademacher_instance(c: dict) -> tuple[dict, tuple]:
    """The lhs sample of a Rademacher certificate and its variables: m, n from its shape, s, k, W, B of its class,
    R = max ||x_i||."""
    lhs = _spec(c, "lhs", "rademacher_lower_bound")
    X = np.asarray(lhs["X"], dtype=float)
    m, n = X.shape
    s, k = _integer(lhs["s"], "s", 1, MAX_NEURONS), _integer(lhs["k"], "k", 1, MAX_NEURONS)
    W, B = _number(lhs["W"], "W", 0.0), _number(lhs["B"], "B", 0.0)
    return lhs, (m, n, s, k, W, B, float(np.max(np.linalg.norm(X, axis=1))))


def _theorem19_eq1(c: dict) -> Sides:
    lhs, (m, n, s, k, W, B, R) = _rademacher_instance(c)
    rhs = float(bounds.theorem19_rademacher(m, n, s, W, B, R))
    return Sides(evaluate_quantity(lhs), rhs, {"m": m, "n": n, "s": s, "k": k, "W": W, "B": B, "R": R})


def _theorem19_eq15(c: dict) -> Sides:
    """Eq. (15) at the instance: R = max ||x_i|| of the lhs sample, n, m from its shape, s, k, W, B of its class."""
    lhs, (m, n, s, k, W, B, R) = _rademacher_instance(c)
    rhs = float(bounds.eq15_rademacher(m, n, s, k, W, B, R))
    return Sides(evaluate_quantity(lhs), rhs, {"m": m, "n": n, "s": s, "k": k, "W": W, "B": B, "R": R})


def _theorem19_eq1_corrected(c: dict) -> Sides:
    """Eq. (1) with the log floored at 1 (bounds.theorem19_rademacher_corrected), the variables as for eq. (1)."""
    sides = _theorem19_eq1(c)
    v = sides.variables
    rhs = float(bounds.theorem19_rademacher_corrected(v["m"], v["n"], v["s"], v["W"], v["B"], v["R"]))
    return Sides(sides.lhs, rhs, v)


def _conjecture20(c: dict) -> Sides:
    """Eq. (16) at the instance: R = max ||x_i|| of the lhs sample, m from its shape, s, k, W, B of its class."""
    lhs, (m, n, s, k, W, B, R) = _rademacher_instance(c)
    rhs = float(bounds.conjecture20_rademacher(m, s, k, W, B, R))
    return Sides(evaluate_quantity(lhs), rhs, {"m": m, "n": n, "s": s, "k": k, "W": W, "B": B, "R": R})


def _theorem8_rho(c: dict) -> Sides:
    """Lemma 10's bound C sqrt(1-rho)(k^4 W^2 log^2(ns/(1-rho)) + k^3 B^2 sqrt(log s)) over eps/3, at the proof's
    1 - rho = c eps^2 min{log(knsW^2/eps)/(k^8 W^4 log^4(ns)), 1/(k^6 B^4 log s)}, eps = exp(-ell), in logarithms
    (eps underflows)."""
    names = {"n": (2, 2**20), "s": (2, 2**20), "k": (1, 2**20)}
    n, s, k = (_integer(_parameter(c, "lhs", name), name, *names[name]) for name in ("n", "s", "k"))
    W, B = _number(_parameter(c, "lhs", "W"), "W", 1e-6, 1e6), _number(_parameter(c, "lhs", "B"), "B", 1e-6, 1e6)
    C = _number(_parameter(c, "lhs", "C"), "C", 1e-6, 1e6)
    ell = _number(_parameter(c, "lhs", "ell"), "ell", 0.0, 1e6)
    lomr_spec = _parameter(c, "lhs", "lomr")
    if not isinstance(lomr_spec, dict) or not isinstance(lomr_spec.get("vars"), dict):
        raise Refused("the instance has no parameter 'c' (in lhs.lomr)")
    small_c = _number(lomr_spec["vars"].get("c"), "c", 1e-300, 1.0)
    lomr = (
        math.log(small_c)
        - 2 * ell
        + math.log(
            min(
                (math.log(k * n * s * W**2) + ell) / (k**8 * W**4 * math.log(n * s) ** 4),
                1 / (k**6 * B**4 * math.log(s)),
            )
        )
    )
    ratio = (
        3
        * C
        * math.exp(lomr / 2 + ell)
        * (k**4 * W**2 * (math.log(n * s) - lomr) ** 2 + k**3 * B**2 * math.sqrt(math.log(s)))
    )
    variables = {"n": n, "s": s, "k": k, "W": W, "B": B, "C": C, "ell": ell, "c": small_c, "lomr": lomr}
    return Sides(ratio, 1.0, variables)


def _lemma7_sup_sign(c: dict) -> Sides:
    """n = 1, H = {h_+, h_-}, h_{+-}(x) = -(M/2)(1 +- x_1): C_H = sup h (as printed) is 0 and the tail above d = 1 is 0,
    so Lemma 7's count C n^d C_H^2 log(1/delta)/eps is 0; a learner with no sample outputs the same f for both, their
    losses (1/2)E(f - h)^2 sum to >= (1/4)E(h_+ - h_-)^2, so accuracy K eps with delta < 1/2 needs a sample."""
    M = _number(_parameter(c, "lhs", "M"), "M", 1e-300, 1e300)
    K = _number(_parameter(c, "lhs", "K"), "K", 1.0, 1e300)
    eps = _number(_parameter(c, "lhs", "eps"), "eps", 1e-300)
    delta = _number(_parameter(c, "lhs", "delta"), "delta", 1e-300, 1.0)
    C = _number(_parameter(c, "rhs", "C"), "C", 1e-300, 1e300)
    d = _integer(_parameter(c, "rhs", "d"), "d", 1, 1)
    X = cube(1)
    plus, minus = -(M / 2) * (1 + X[:, 0]), -(M / 2) * (1 - X[:, 0])
    if any(
        float(np.sum(walsh_coefficients(t)[np.asarray([bin(j).count("1") > d for j in range(2)])] ** 2)) > 0
        for t in (plus, minus)
    ):
        raise Refused("the two functions must have Fourier tail 0 above d")
    C_H = float(max(plus.max(), minus.max()))
    separation = float(np.mean((plus - minus) ** 2)) / 4
    lhs = 1.0 if separation > 2 * K * eps and delta < 0.5 else 0.0
    rhs = C * float(bounds.lemma7_sample_complexity(1, d, C_H, eps, delta))
    return Sides(lhs, rhs, {"M": M, "K": K, "eps": eps, "delta": delta, "C": C, "n": 1, "d": d, "C_H": C_H})


def _theorem8_final_line(c: dict) -> Sides:
    """h = lam relu(<0, x> + 1) = lam and -lam on n = 2 (s = k = 1, W = B = lam: |u| ||w|| = 0, |u||b| = lam); no
    sample tells them apart and their losses sum to >= lam^2 > 2 eps; the printed count C n^d log(1/delta)/eps with
    d = c (k^8 W^4 log^4(ns) + k^6 B^4 log s)/eps^2."""
    lam = _number(_parameter(c, "lhs", "lam"), "lam", 1e-300, 1e300)
    eps = _number(_parameter(c, "lhs", "eps"), "eps", 1e-300)
    delta = _number(_parameter(c, "lhs", "delta"), "delta", 1e-300, 1.0)
    C = _number(_parameter(c, "rhs", "C"), "C", 1e-300, 1e300)
    n = _integer(_parameter(c, "rhs", "n"), "n", 2, 2)
    X = cube(n)
    plus, minus = lam * np.maximum(X @ np.zeros(n) + 1.0, 0.0), -lam * np.maximum(X @ np.zeros(n) + 1.0, 0.0)
    separation = float(np.mean((plus - minus) ** 2)) / 4
    lhs = 1.0 if separation > 2 * eps and delta < 0.5 else 0.0
    small_c = _number(_parameter(c, "rhs", "c"), "c", 1e-300, 1e300)
    d = small_c * float(bounds.theorem8_degree(eps, n, 1, 1, lam, lam))
    rhs = C * float(bounds.lemma7_sample_complexity(n, d, 1.0, eps, delta))
    return Sides(lhs, rhs, {"lam": lam, "eps": eps, "delta": delta, "C": C, "n": n, "d": d, "c": small_c})


def _lemma9_tail_hence(c: dict) -> Sides:
    """h = relu(<0, x> + B) on the cube of dimension n (s = k = 1, W = 0, bias B): the printed non-strict event
    |l_{R_x}(x)| >= c k^{1.5} W sqrt(log(ns)) + kB, against 1/(ns)^4."""
    n = _integer(_parameter(c, "lhs", "n"), "n", 2, MAX_ENUMERATION_DIM)
    B = _number(_parameter(c, "lhs", "B"), "B", 1e-300, 1e300)
    small_c = _number(_parameter(c, "lhs", "c"), "c", 0.0, 1e300)
    X = cube(n)
    network = {"u": [1.0], "W": [[0.0] * n], "b": [-B]}
    h = _evaluate({"network": network}, X)
    k, s, W = 1, 1, 0.0
    threshold = small_c * k**1.5 * W * math.sqrt(math.log(n * s)) + k * B
    lhs = float(np.mean(np.abs(h) >= threshold))
    return Sides(lhs, 1.0 / (n * s) ** 4, {"n": n, "B": B, "c": small_c, "W": W, "k": k, "s": s})


# --- pins of the checks added with the redesign's second round -------------------------------------------------


def _all_signs_listed(zetas: np.ndarray, m: int, kind: str) -> None:
    if zetas.ndim != 2 or zetas.shape != (2**m, m) or len({tuple(z) for z in zetas}) != 2**m:
        raise Refused(f"{kind}: E_zeta needs all 2^m distinct sign vectors, m = {m} sample points")


def _theorem19_eq12(c: dict) -> Sides:
    """(12) as printed: E_zeta max_h (first term of (4)) <= (1/m) max_h sum_j |u_j| ||w_j|| E_zeta ||sum_{I_j} zeta_i
    x_i||. The right side is at most (s W / m) max_{I subset [m]} E_zeta ||sum_{i in I} zeta_i x_i|| (every cell is a
    subset, |u_j| ||w_j|| <= W, at most s neurons), computed here over all subsets; the left side is at least the
    mean, over all 2^m sign vectors, of the first term of one network of the class each."""
    lhs = _spec(c, "lhs", "first_term_lower_bound")
    X = np.asarray(lhs["X"], dtype=float)
    if X.ndim != 2 or not 1 <= len(X) <= 10:
        raise Refused("refused: (12)'s right side is enumerated over all 2^m subsets and sign vectors, m <= 10")
    m, n = X.shape
    _all_signs_listed(np.asarray(lhs["zetas"], dtype=float), m, "first_term_lower_bound")
    s = _integer(lhs["s"], "s", 1, MAX_NEURONS)
    W = _number(lhs["W"], "W", 0.0)
    Z = cube(m)
    best = 0.0
    for mask in range(1, 2**m):
        rows = [i for i in range(m) if (mask >> i) & 1]
        best = max(best, float(np.mean(np.linalg.norm(Z[:, rows] @ X[rows], axis=1))))
    x = X[:, 0].tolist() if n == 1 else X.tolist()
    return Sides(evaluate_quantity(lhs), s * W / m * best, {"W": W, "m": m, "s": s, "x": x})


def _theorem19_cells(c: dict) -> Sides:
    """sum_j |I_j| (printed cells, >= 0) against m (eq. (7)) or k m (the k-sparse extension), by the relation."""
    lhs = _spec(c, "lhs", "cell_sizes_sum")
    m = len(lhs["X"])
    k = _integer(lhs["k"], "k", 1, MAX_NEURONS)
    if c["relation"] == "==":
        return Sides(evaluate_quantity(lhs), float(m), {"m": m})
    return Sides(evaluate_quantity(lhs), float(k * m), {"k": k, "m": m})


def _theorem19_printed_cells(c: dict) -> Sides:
    """(14) (first term, ``first_term_lower_bound``) or (8) (second term, ``second_term_lower_bound``) with the printed
    cells: the term, at least the mean over all 2^m sign vectors of one network of the class each, against the bound
    of bounds.theorem19_proof_terms at the sample's m, n, R = max ||x_i|| and the class's s, W, B, with Hoeffding's
    c = 2 in (8)."""
    kind = c["lhs"].get("quantity") if isinstance(c["lhs"], dict) else None
    if kind not in ("first_term_lower_bound", "second_term_lower_bound"):
        raise Refused(f"lhs must be a first_term_lower_bound or second_term_lower_bound quantity, got {kind!r}")
    lhs = _spec(c, "lhs", kind)
    X = np.asarray(lhs["X"], dtype=float)
    if X.ndim != 2 or not 1 <= len(X) <= 16:
        raise Refused("refused: the term is checked over all 2^m sign vectors, m <= 16")
    m, n = X.shape
    _all_signs_listed(np.asarray(lhs["zetas"], dtype=float), m, kind)
    s = _integer(lhs["s"], "s", 1, MAX_NEURONS)
    W, B = _number(lhs["W"], "W", 0.0), _number(lhs["B"], "B", 0.0)
    R = float(np.linalg.norm(X, axis=1).max())
    eq8, eq14 = bounds.theorem19_proof_terms(m, n, s, W, B, R, 2.0)
    if kind == "first_term_lower_bound":
        return Sides(evaluate_quantity(lhs), float(eq14), {"W": W, "R": R, "m": m, "n": n, "s": s})
    return Sides(evaluate_quantity(lhs), float(eq8), {"B": B, "c": 2.0, "m": m, "n": n, "s": s})


def _theorem19_combine(c: dict) -> Sides:
    """(8) + (14) (bounds.theorem19_proof_terms, the proof's sub-Gaussian constant c >= 2 of Hoeffding) against (1)
    (bounds.theorem19_rademacher) at the instance's m, n, s, W, B, R."""
    m = _integer(_parameter(c, "lhs", "m"), "m", 1, 2**40)
    n = _integer(_parameter(c, "lhs", "n"), "n", 1, 2**40)
    s = _integer(_parameter(c, "lhs", "s"), "s", 1, 2**40)
    W, B, R = (_number(_parameter(c, "lhs", name), name, 0.0, 1e300) for name in ("W", "B", "R"))
    small_c = _number(_parameter(c, "lhs", "c"), "c", 2.0, 1e300)  # Hoeffding: P(|sum| > t||a||) <= 2e^{-t^2/c}
    bias, weight = bounds.theorem19_proof_terms(m, n, s, W, B, R, small_c)
    rhs = float(bounds.theorem19_rademacher(m, n, s, W, B, R))
    return Sides(float(bias) + float(weight), rhs, {"m": m, "n": n, "s": s, "W": W, "B": B, "R": R, "c": small_c})


def _lemma18_expected_rademacher(lam: float, m: int, p: float) -> float:
    """E_S R_H(S) of H = {h, -h} on m i.i.d. points with |h| = lam w.p. p, else 0: (lam/m) E|zeta_1 + ... + zeta_a|,
    a ~ Bin(m, p), E|S_a| = a binom(a-1, floor((a-1)/2)) / 2^(a-1) (log-gamma form)."""
    a = np.arange(1, m + 1, dtype=float)
    half = np.floor((a - 1) / 2)
    lgamma = np.vectorize(math.lgamma)
    log_pmf = lgamma(m + 1.0) - lgamma(a + 1) - lgamma(m - a + 1) + a * math.log(p) + (m - a) * math.log1p(-p)
    log_walk = np.log(a) + lgamma(a) - lgamma(half + 1) - lgamma(a - half) - (a - 1) * math.log(2.0)
    return lam / m * float(np.sum(np.exp(log_pmf + log_walk)))


def _lemma18(c: dict) -> Sides:
    """Lemma 18 (printed): c (C_H E_S R_H(S) + sqrt(log(1/delta)/m)) <= eps implies m samples suffice. Instance: H =
    {h, -h}, h = lam relu(x), x = 1 w.p. p else -1 (C_H = lam), delta = e^-L. When p lam^2 > 2 eps, any learner needs
    m >= log(1/(2 delta))/(-log(1-p)) samples (two-point argument); below that the condition must exceed eps."""
    small_c = _number(_parameter(c, "lhs", "c"), "c", 1e-300, 1e300)
    lam = _number(_parameter(c, "lhs", "lam"), "lam", 1e-300, 1e300)
    L = _number(_parameter(c, "lhs", "L"), "L", math.log(2.0), 1e300)
    m = _integer(_parameter(c, "lhs", "m"), "m", 1, 10**7)
    er = _parameter(c, "lhs", "ER")
    if not isinstance(er, dict) or not isinstance(er.get("vars"), dict):
        raise Refused("the instance has no parameter 'p' (in lhs.ER)")
    p = _number(er["vars"].get("p"), "p", 1e-300, 1.0 - 1e-16)
    eps = _number(_parameter(c, "rhs", "eps"), "eps", 1e-300, 1e300)
    ER = _lemma18_expected_rademacher(lam, m, p)
    lhs = small_c * (lam * ER + math.sqrt(L / m))
    needed = (L - math.log(2.0)) / -math.log1p(-p)  # bounds.sign_ambiguity_lower_bound at delta = e^-L, in logs
    rhs = eps if (m < needed and p * lam**2 > 2 * eps) else 0.0
    return Sides(lhs, rhs, {"c": small_c, "lam": lam, "L": L, "m": m, "p": p, "eps": eps, "ER": ER})


def _theorem5_rate(c: dict) -> Sides:
    """Theorem 17's m(eps, delta) on the cube (R = sqrt(n), constant 1; bounds.theorem17_sample_complexity) against
    Theorem 5's O~(ksn/eps^2) read as C ksn log^2(ksn/(eps delta))/eps^2 (bounds.theorem5_rate)."""
    n = _integer(_parameter(c, "lhs", "n"), "n", 1, 2**60)
    k = _integer(_parameter(c, "lhs", "k"), "k", 1, 2**20)
    s = _integer(_parameter(c, "lhs", "s"), "s", k, 2**20)
    W, B = (_number(_parameter(c, "lhs", name), name, 0.0, 1e300) for name in ("W", "B"))
    eps = _number(_parameter(c, "lhs", "eps"), "eps", 1e-300, 1.0)
    delta = _number(_parameter(c, "lhs", "delta"), "delta", 1e-300, 1.0 - 1e-16)
    C = _number(_parameter(c, "rhs", "C"), "C", 1e-300, 1e300)
    lhs = float(bounds.theorem17_sample_complexity(eps, delta, n, s, k, W, B, math.sqrt(n)))
    rhs = float(bounds.theorem5_rate(eps, delta, n, s, k, C))
    return Sides(lhs, rhs, {"n": n, "k": k, "s": s, "W": W, "B": B, "eps": eps, "delta": delta, "C": C})


def _lemma9_proof_v(c: dict) -> Sides:
    """The last step of (V): the middle expression (bounds.lemma9_proof_V_middle) against C times Lemma 9's
    expression (bounds.lemma9_average_sensitivity), at the instance's n, s, k, W, B, c and the constant C."""
    n = _integer(_parameter(c, "lhs", "n"), "n", 2, 2**60)
    s = _integer(_parameter(c, "lhs", "s"), "s", 2, 2**40)
    k = _integer(_parameter(c, "lhs", "k"), "k", 1, s)
    W, B = (_number(_parameter(c, "lhs", name), name, 0.0, 1e300) for name in ("W", "B"))
    small_c = _number(_parameter(c, "lhs", "c"), "c", 1e-300, 1e300)
    C = _number(_parameter(c, "rhs", "C"), "C", 1e-300, 1e300)
    middle = float(bounds.lemma9_proof_V_middle(n, s, k, W, B, small_c))
    rhs = C * float(bounds.lemma9_average_sensitivity(n, s, k, W, B))
    return Sides(middle, rhs, {"n": n, "s": s, "k": k, "W": W, "B": B, "c": small_c, "C": C})


def _theorem8_tail_step(c: dict) -> Sides:
    """The chain 1 <= d(1-rho) <= 3(1-rho^d) of Theorem 8's proof at the proof's own d = ceil(bounds.theorem8_degree)
    (Theta constant 1) and 1 - rho = bounds.theorem8_one_minus_rho (constant c), both recomputed from the instance
    (eps, n, s, k, W, B, c); the certificate's relation names the link it refutes ("<=": the right one, ">=": the
    left one)."""
    eps = _number(_parameter(c, "lhs", "eps"), "eps", 1e-300, 1.0)
    n, s = (_integer(_parameter(c, "lhs", name), name, 1, 2**40) for name in ("n", "s"))
    k = _integer(_parameter(c, "lhs", "k"), "k", 1, s)
    W, B = (_number(_parameter(c, "lhs", name), name, 0.0, 1e300) for name in ("W", "B"))
    small_c = _number(_parameter(c, "lhs", "c"), "c", 1e-300, 1e300)
    omr = small_c * float(bounds.theorem8_one_minus_rho(eps, n, s, k, W, B))
    d = math.ceil(float(bounds.theorem8_degree(eps, n, s, k, W, B)))
    if not 0 < omr <= 1 or not 1 <= d < 2**53:
        raise Refused(f"the proof's 1 - rho = {omr!r} and d = {d!r} are outside (0, 1] and [1, 2^53)")
    one_minus_rho_d = -math.expm1(d * math.log1p(-omr)) if omr < 1 else 1.0
    variables = {"eps": eps, "n": n, "s": s, "k": k, "W": W, "B": B, "c": small_c, "omr": omr, "d": d}
    if c["relation"] == "<=":
        return Sides(d * omr, 3 * one_minus_rho_d, variables)
    return Sides(d * omr, 1.0, variables)


def _lemma7_projection(c: dict) -> Sides:
    """After Lemma 7: under the hypothesis sum_{|T|>d} hhat(T)^2 <= eps (checked), ||g - h||^2 = that tail <= eps/2."""
    lhs = _spec(c, "lhs", "fourier_tail")
    eps = _number(_parameter(c, "rhs", "eps"), "eps", 1e-300, 1e300)
    tail = evaluate_quantity(lhs)
    if tail > eps * (1 + REPRODUCE_RTOL) + REPRODUCE_ATOL:
        raise Refused(f"the instance breaks Lemma 7's hypothesis: tail {tail:.12g} > eps = {eps:.12g}")
    return Sides(tail, eps / 2, {"eps": eps})


def _theorem8_degree_tail(c: dict) -> Sides:
    """The proof's degree d = bounds.theorem8_degree(eps, n, s, k, W, B) of the network (n, s, k, W, B recomputed;
    any Theta constant at n = s = 1, where it is 0) makes the tail above it <= eps: a tail above a degree
    >= ceil(d) bounds the tail above ceil(d) from below."""
    lhs = _spec(c, "lhs", "fourier_tail")
    if "network" not in lhs["function"]:
        raise Refused("lhs: the statement is about a network of the class")
    eps = _number(_parameter(c, "rhs", "eps"), "eps", 1e-300, 1.0)
    n, s, k, W, B = _network_sizes(lhs["function"]["network"])
    d = math.ceil(float(bounds.theorem8_degree(eps, n, s, k, W, B)))
    degree = _integer(lhs["degree"], "d", 0, MAX_ENUMERATION_DIM)
    if degree < d:
        raise Refused(f"the tail is taken above degree {degree}, below the proof's d = {d}")
    return Sides(evaluate_quantity(lhs), eps, {"eps": eps})


def _lemma9_concavity_printed(c: dict) -> Sides:
    """The second inequality of the transition step of Lemma 9's proof, (1/n) sum_j p_j sqrt(n log(1/p_j)) <=
    C k sqrt(log(s/k))/sqrt(n), with n, s, k of the network and any constant C."""
    lhs = _spec(c, "lhs", "concave_activation_sum")
    C = _number(_parameter(c, "rhs", "C"), "C", 1e-300, 1e300)
    n, s, k, _, _ = _network_sizes(lhs["network"])
    return Sides(
        evaluate_quantity(lhs), C * k * math.sqrt(math.log(s / k)) / math.sqrt(n), {"C": C, "n": n, "s": s, "k": k}
    )


def _lemma9_transition_printed(c: dict) -> Sides:
    """The first inequality of the transition step of Lemma 9's proof as printed (constant 1):
    Pr_{x,i}[R_x != R_{x xor i}] <= (1/n) sum_j p_j sqrt(n log(1/p_j)), both sides of one network."""
    lhs = _spec(c, "lhs", "transition_probability")
    rhs = _spec(c, "rhs", "concave_activation_sum")
    if lhs["network"] != rhs["network"]:
        raise Refused("the two sides must be read on one network")
    n, s, k, _, _ = _network_sizes(lhs["network"])
    return Sides(evaluate_quantity(lhs), evaluate_quantity(rhs), {"n": n, "s": s, "k": k})


def _lemma9_bound(c: dict) -> Sides:
    """Lemma 9 (printed): AS(h) <= C (k^4 W^2 sqrt(n) log(ns) + k^3 B^2 sqrt(log s)) (bounds.lemma9_average_sensitivity)
    with n, s, k, W, B of the network and any constant C."""
    lhs = _spec(c, "lhs", "average_sensitivity")
    if "network" not in lhs["function"]:
        raise Refused("lhs: the statement is about a network of the class")
    C = _number(_parameter(c, "rhs", "C"), "C", 1e-300, 1e300)
    n, s, k, W, B = _network_sizes(lhs["function"]["network"])
    rhs = C * float(bounds.lemma9_average_sensitivity(n, s, k, W, B))
    return Sides(evaluate_quantity(lhs), rhs, {"C": C, "n": n, "s": s, "k": k, "W": W, "B": B})


def _theorem13_junta_corner(c: dict) -> Sides:
    """The proof of Theorem 13 (printed): J_{n,p} in H_{n,s,1}^{sqrt(p),p} for p <= floor(log2 s). Every h of the class
    has |h(x)| <= k(W sqrt(n) + B) = sqrt(p n) + p (theorem8-proof-CH), so a p-junta with a larger value at some x is
    not in it. The instance: a truth table with values +-1 depending on at most p coordinates, a point, p and n."""
    lhs = _spec(c, "lhs", "value")
    table, n = _table(lhs["function"]), _dimension(lhs["function"])
    if not np.isin(table, (-1.0, 1.0)).all():
        raise Refused("lhs: a junta of J_{n,p} takes the values -1 and 1")
    p = _integer(_parameter(c, "rhs", "p"), "p", 0, n)
    if sum(bool(np.any(table != _flip(table, i))) for i in range(n)) > p:
        raise Refused(f"lhs: the function depends on more than p = {p} coordinates")
    if _integer(_parameter(c, "rhs", "n"), "n", 1, 2**20) != n:
        raise Refused("rhs: n is the dimension of the function")
    return Sides(evaluate_quantity(lhs), math.sqrt(p) * math.sqrt(n) + p, {"p": p, "n": n})


def _lemma10_bound(c: dict) -> Sides:
    """Lemma 10 (printed): NS_rho(h) <= C sqrt(1-rho)(k^4 W^2 log^2(ns/(1-rho)) + k^3 B^2 sqrt(log s))
    (bounds.lemma10_noise_sensitivity) with n, s, k, W, B of the network and any constant C."""
    lhs = _spec(c, "lhs", "noise_sensitivity")
    if "network" not in lhs["function"]:
        raise Refused("lhs: the statement is about a network of the class")
    rho = _number(lhs["rho"], "rho", -1.0, 1.0 - 1e-12)
    C = _number(_parameter(c, "rhs", "C"), "C", 1e-300, 1e300)
    n, s, k, W, B = _network_sizes(lhs["function"]["network"])
    rhs = C * float(bounds.lemma10_noise_sensitivity(rho, n, s, k, W, B))
    return Sides(evaluate_quantity(lhs), rhs, {"C": C, "rho": rho, "n": n, "s": s, "k": k, "W": W, "B": B})


def _def15_rounding(c: dict) -> Sides:
    """Definition 15's f_w(y) = (<w, y> mod q) mod p against the learning-with-rounding map it cites (Banerjee et al.
    2012), round((p/q)(<w, y> mod q)) mod p with ties up, in integers."""
    q, p, w, y = _lwr_instance(c, "lhs", 2**20)
    t = sum(a * b for a, b in zip(w, y, strict=True)) % q
    return Sides(float(t % p), float((2 * p * t + q) // (2 * q) % p), {"w": w, "y": y, "m": len(w), "q": q, "p": p})


# --- pins of corrected statements (a FAIL refutes our correction; the tests force one with a tampered constant) -----


def _network_lists(network: dict) -> dict:
    u, W, _ = _network(network)
    return {"u": u.tolist(), "Wm": W.tolist()}


def _lemma9_tighter(c: dict) -> Sides:
    """Ours: AS(h) <= 4 k^2 W^2, k = max(1, most active neurons on the cube), W = ||u||_inf max_j ||w_j||_2."""
    lhs = _spec(c, "lhs", "average_sensitivity")
    network = lhs["function"].get("network")
    if network is None:
        raise Refused("lhs: the statement is about a network")
    _, _, k, W, _ = _network_sizes(network)
    return Sides(evaluate_quantity(lhs), 4.0 * k * k * W * W, {"c": 4, "k": k, **_network_lists(network)})


def _lemma9_term_u_corrected(c: dict) -> Sides:
    """The corrected steps of (U): (U) <= E_x ||w^{R_x}||^2 (written (c/4) E||w^R||^2, c = 4), then
    E_x ||w^{R_x}||^2 <= k^2 W^2; the left side's quantity names the step."""
    lhs = c["lhs"]
    kind = lhs.get("quantity") if isinstance(lhs, dict) else None
    if kind == "lemma9_U":
        network = lhs["network"]
        wr = evaluate_quantity({"quantity": "lemma9_wR", "network": network})
        return Sides(evaluate_quantity(lhs), wr, {"c": 4, "v": wr})
    lhs = _spec(c, "lhs", "lemma9_wR")
    _, _, k, W, _ = _network_sizes(lhs["network"])
    return Sides(evaluate_quantity(lhs), float(k * k * W * W), {"k": k, **_network_lists(lhs["network"])})


def _halfspace_sensitivities(network: dict) -> list[float]:
    _, W, b = _network(network)
    X = _network_cube(network)
    return [_average_sensitivity((X @ w > t).astype(float)) for w, t in zip(W, b, strict=True)]


def _lemma9_union_corrected(c: dict) -> Sides:
    """Pr_{x,i}[R_x != R_{x xor i}] <= (4/n) sum_j AS(g_j), g_j = 1{<w_j, x> > b_j} (the union bound, factor 4)."""
    lhs = _spec(c, "lhs", "transition_probability")
    n = _network(lhs["network"])[1].shape[1]
    sensitivities = _halfspace_sensitivities(lhs["network"])
    variables = {"c": 4, "n": n, **{f"a{j}": value for j, value in enumerate(sensitivities)}}
    return Sides(evaluate_quantity(lhs), 4.0 / n * sum(sensitivities), variables)


def _lemma9_concavity(c: dict) -> Sides:
    """sum_j p_j sqrt(log(1/p_j)) <= Phi(s, k), p_j = Pr_x[<w_j, x> > b_j] of the network, sum_j p_j <= k: Phi is
    k sqrt(log(s/k)) when k/s <= e^-1/2 (equal p_j = k/s, concavity) and s/sqrt(2e) beyond (p_j = e^-1/2)."""
    spec = _spec(c, "rhs", "formula")
    k_spec = (spec.get("vars") or {}).get("k")
    if not isinstance(k_spec, dict) or k_spec.get("quantity") != "max_active":
        raise Refused("rhs: k must be the network's max_active quantity")
    network = k_spec["network"]
    _, W, b = _network(network)
    X = _network_cube(network)
    probabilities = [float(np.mean(X @ w > t)) for w, t in zip(W, b, strict=True)]
    s = W.shape[0]
    k = max(1, int(_active_sets(network).sum(axis=1).max()))
    edge = math.exp(-0.5)
    lhs = sum(q * math.sqrt(math.log(1 / q)) for q in probabilities if 0 < q < 1)
    rhs = k * math.sqrt(math.log(s / k)) if k / s <= edge else s / math.sqrt(2 * math.e)
    variables = {"k": float(k), "s": s, "edge": edge, **{f"p{j}": q for j, q in enumerate(probabilities)}}
    if _spec(c, "lhs", "formula") and set(c["lhs"].get("vars") or {}) != {f"p{j}" for j in range(s)}:
        raise Refused("lhs: one p_j per neuron of the network")
    return Sides(lhs, rhs, variables)


def _lemma6_corrected(c: dict) -> Sides:
    """AS(g) = -(1/2) E_x[g(x) sum_i x_i] for g = 1{<w, x> <= b} with w >= 0, given as h = 1 - g = 1{<w, x> > b}:
    AS(g) = AS(h), E[g sum x] = -E[h sum x] (written f (-c), f = -1/2, c = E[h sum x])."""
    lhs = _spec(c, "lhs", "average_sensitivity")
    function = lhs["function"]
    if "halfspace" not in function or min(function["halfspace"]["w"]) < 0:
        raise Refused("lhs: the statement is about a halfspace with w >= 0")
    X = cube(_dimension(function))
    correlation = float(np.mean(_evaluate(function, X) * X.sum(axis=1)))
    return Sides(evaluate_quantity(lhs), -0.5 * -correlation, {"f": -0.5, "c": correlation})


def _eq17_corrected(c: dict) -> Sides:
    """For rho in [0, 1) and r = floor(2/(1-rho)): NS_rho(h) <= NS_{1-2/r}(h) ("<=") and r (1 - rho) >= 1 (">=")."""
    if c["relation"] == ">=":
        rho = _number(_parameter(c, "lhs", "rho"), "rho", 0.0, 1.0 - 1e-12)
        tol = _number(_parameter(c, "lhs", "tol"), "tol", 0.0, 1e-6)  # the floor's slack against rounding
        r = math.floor(2 / (1 - rho) + tol)
        return Sides(r * (1 - rho), 1.0, {"rho": rho, "tol": tol})
    lhs, rhs = _spec(c, "lhs", "noise_sensitivity"), _spec(c, "rhs", "noise_sensitivity")
    rho = _number(lhs["rho"], "rho", -1.0, 1.0 - 1e-12)
    if not 0 <= rho < 1:
        raise Refused(f"rho = {rho!r} is outside the statement's range [0, 1)")
    if rhs["function"] != lhs["function"]:
        raise Refused("rhs is not the noise sensitivity of lhs's function")
    effective = 1 - 2 / math.floor(2 / (1 - rho))
    if not _reproduces(float(rhs["rho"]), effective):
        raise Refused(f"rhs's rho is {rhs['rho']!r}, not 1 - 2/r = {effective!r}")
    table = _table(lhs["function"])
    return Sides(_noise_sensitivity(table, rho), _noise_sensitivity(table, effective), {})


def _tail_step_corrected(c: dict) -> Sides:
    """With d = ceil(1/(1-rho)), 1 - rho^d >= 1 - 1/e for rho in [0, 1) (d recomputed from 1 - rho)."""
    omr = _number(_parameter(c, "lhs", "omr"), "omr", 1e-300, 1.0)
    d = math.ceil(1 / omr)
    lhs = -math.expm1(d * math.log1p(-omr)) if omr < 1 else 1.0
    return Sides(lhs, 1 - math.exp(-1), {"omr": omr, "d": d})


def _rho_choice_corrected(c: dict) -> Sides:
    """Lemma 10's bound (constant C = 1) at 1 - rho* = min{eps^2/(36 k^8 W^4 Lambda^4), eps^2/(36 k^6 B^4 log s),
    e^-4}, Lambda = max(27, 2 log(ns) + 4 log(6k^4W^2/eps)), over eps/3, eps = exp(-ell), in logarithms."""
    names = {"n": (1, 2**40), "s": (1, 2**40), "k": (1, 2**20)}
    n, s, k = (_integer(_parameter(c, "lhs", name), name, *names[name]) for name in ("n", "s", "k"))
    W, B = (_number(_parameter(c, "lhs", name), name, 0.0, 1e6) for name in ("W", "B"))
    ell = _number(_parameter(c, "lhs", "ell"), "ell", -1e6, 1e6)
    C = 1.0
    lam_min = 27.0
    terms = [-4.0]
    if k * W > 0:
        terms.append(
            -2 * ell
            - math.log(36)
            - math.log(k**8 * W**4)
            - 4 * math.log(max(lam_min, 2 * math.log(n * s) + 4 * (math.log(6 * k**4 * W**2) + ell)))
        )
    if B > 0 and s > 1:
        terms.append(-2 * ell - math.log(36) - math.log(k**6 * B**4 * math.log(s)))
    lomr = min(terms)
    ratio = (
        3
        * C
        * math.exp(lomr / 2 + ell)
        * (k**4 * W**2 * (math.log(n * s) - lomr) ** 2 + k**3 * B**2 * math.sqrt(math.log(s)))
    )
    variables = {"C": C, "lam_min": lam_min, "ell": ell, "n": n, "s": s, "k": k, "W": W, "B": B, "lomr": lomr}
    return Sides(ratio, 1.0, variables)


def _theorem8_ch(c: dict) -> Sides:
    """C_H = k (W sqrt(n) + B) bounds |h(x)| on H_{n,s,k}^{W,B} (k = max(1, most active), W, B of Definition 2)."""
    v = _parameter(c, "lhs", "v")
    if not isinstance(v, dict) or v.get("quantity") != "value" or "network" not in v.get("function", {}):
        raise Refused("lhs: v must be the value of a network at a point")
    network = v["function"]["network"]
    n, _, k, W, B = _network_sizes(network)
    u, Wm, b = _network(network)
    value = evaluate_quantity(v)
    active = float(_active_sets(network).sum(axis=1).max())
    variables = {
        "v": value,
        "n": n,
        "k": k,
        "W": W,
        "B": B,
        "a": active,
        "u": u.tolist(),
        "M": Wm.tolist(),
        "b": b.tolist(),
    }
    return Sides(abs(value), k * (W * math.sqrt(n) + B), variables)


def _corrected_shifts(m: int, size: int) -> list[int]:
    """The corrected shift set of Section 4's parity: the integers a in [-m, m] with a = |S| (mod 4)."""
    return [a for a in range(-m, m + 1) if (a - size) % 4 == 0]


def _identity_sum(S: list[int], y: list[int], A: list[int]) -> float:
    return float(sum(2 * max(0.5 - (sum(y[i] for i in S) - a) ** 2, 0.0) for a in A))


def _parity_chi_corrected(c: dict) -> Sides:
    """chi_S(y) = 1 iff sum_{i in S} y_i = |S| (mod 4) is the parity on S."""
    S, y = _parity_instance(c, "lhs")
    return Sides(1.0 if (sum(y[i] for i in S) - len(S)) % 4 == 0 else 0.0, _parity(S, y), {"S": S, "y": y})


def _parity_identity_vs_chi(c: dict) -> Sides:
    """The printed identity (even shifts) computes the printed chi_S (1 iff sum_{i in S} y_i is even)."""
    S, y = _parity_instance(c, "lhs")
    A = _even_shifts(len(y))
    printed_chi = 1.0 if sum(y[i] for i in S) % 2 == 0 else 0.0
    return Sides(_identity_sum(S, y, A), printed_chi, {"S": S, "y": y, "A": A})


def _parity_identity_corrected(c: dict) -> Sides:
    """sum_{a in A} 2 sigma(1/2 - (sum_S y_i - a)^2) with A = {a in [-m, m] : a = |S| (mod 4)} is the parity on S."""
    S, y = _parity_instance(c, "lhs")
    A = _corrected_shifts(len(y), len(S))
    return Sides(_identity_sum(S, y, A), _parity(S, y), {"S": S, "y": y, "A": A})


def _parity_identity_one_active(c: dict) -> Sides:
    """At most one ReLU of the identity is active, over the printed or the corrected shift set (the file names which;
    it must be one of the two for this m and |S|)."""
    S, y = _parity_instance(c, "lhs")
    A = _parameter(c, "lhs", "A")
    if A not in (_even_shifts(len(y)), _corrected_shifts(len(y), len(S))):
        raise Refused("parameter A is neither the printed nor the corrected shift set for this m and |S|")
    count = sum(1 for a in A if 0.5 - (sum(y[i] for i in S) - a) ** 2 > 0)
    return Sides(float(count), 1.0, {"S": S, "y": y, "A": A})


def _parity_lift_corrected(c: dict) -> Sides:
    """1/2 - (sum_{i in S} y_i - a)^2 = <w, x(y)> - b with w[i,j] = -1 for i != j in S, w[i,i] = 2a for i in S, 0
    elsewhere, b = |S| + a^2 - 1/2 (expanding the square with y_i^2 = 1)."""
    S, y = _parity_instance(c, "lhs")
    m = len(y)
    a = _integer(_parameter(c, "lhs", "a"), "a", -m, m)
    w = np.zeros((m, m))
    for i in S:
        for j in S:
            w[i, j] = 2.0 * a if i == j else -1.0
    b = len(S) + a * a - 0.5
    lhs = 0.5 - (sum(y[i] for i in S) - a) ** 2
    return Sides(
        float(lhs), float(w.ravel() @ _lift(y) - b), {"S": S, "y": y, "a": a, "m": m, "w": w.ravel().tolist(), "b": b}
    )


def _appendix_a_network(network: dict, read_gamma: bool = False) -> tuple[int, int, float, np.ndarray]:
    """``b, q, Gamma`` and the rows ``w_alpha`` of Appendix A's F: neuron alpha (bit i of its index is coordinate i of
    alpha, 1 -> -1) has weights ``(Gamma alpha, w_alpha)``, bias ``Gamma b`` and output weight 1
    (``sigma(<w_alpha, y> + Gamma(<x, alpha> - b))``), with ``Gamma = sqrt(q)``, or read from the weights with
    ``read_gamma`` (``Gamma > 0``); refused when the network is not of that form."""
    u, W, bias = _network(network)
    b = u.size.bit_length() - 1
    q = W.shape[1] - b
    if u.size != 1 << b or q < 1 or b < 1:
        raise Refused("the network is not Appendix A's F: 2^b neurons on b + q coordinates")
    gamma = float(abs(W[0, 0])) if read_gamma else math.sqrt(q)
    alphas = 1.0 - 2.0 * ((np.arange(u.size)[:, None] >> np.arange(b)[None, :]) & 1)
    if not (
        gamma > 0
        and np.allclose(u, 1.0, rtol=0, atol=0)
        and np.allclose(W[:, :b], gamma * alphas, rtol=0, atol=1e-9)
        and np.allclose(bias, gamma * b, rtol=0, atol=1e-9)
    ):
        raise Refused(
            f"the network is not Appendix A's F with Gamma = {gamma:.6g} (x-weights Gamma alpha, bias "
            "Gamma b, output weights 1)"
        )
    return b, q, gamma, W[:, b:]


def _appendix_a_whp(c: dict) -> Sides:
    """F with Gamma = Theta(sqrt(log s)) and rows as printed (no condition) is 1-sparse with probability 1 - 1/poly(s),
    read at P(s) = s: ``Pr[F is 1-sparse] >= 1 - 1/s`` (a certificate with ``Pr = 0`` refutes every P with P(s) > 1)."""
    lhs = _spec(c, "lhs", "sparse_probability")
    if lhs.get("k") != 1:
        raise Refused("the statement is about 1-sparsity: k must be 1")
    b, q, gamma, _ = _appendix_a_network(lhs["network"], read_gamma=True)
    s = 1 << b
    return Sides(
        evaluate_quantity(lhs),
        1.0 - 1.0 / s,
        {"s": s, "b": b, "q": q, "Gamma": gamma, "c": gamma / math.sqrt(math.log(s))},
    )


def _appendix_a_sparsity_l2(c: dict) -> Sides:
    """With Gamma = sqrt(q) and ||w_alpha||_2 <= 1 (checked on the network), F is 1-sparse on all inputs."""
    lhs = _spec(c, "lhs", "active_count")
    _, _, _, rows = _appendix_a_network(lhs["network"])
    if np.linalg.norm(rows, axis=1).max() > 1 + MEMBERSHIP_TOL:
        raise Refused("the instance breaks the hypothesis ||w_alpha||_2 <= 1")
    return Sides(evaluate_quantity(lhs), 1.0, {})


def _appendix_a_sparsity_l1(c: dict) -> Sides:
    """With Gamma = sqrt(q) and ||w_alpha||_1 <= 2 Gamma (checked on the network), F is 1-sparse on all inputs."""
    lhs = _spec(c, "lhs", "active_count")
    _, _, gamma, rows = _appendix_a_network(lhs["network"])
    if np.abs(rows).sum(axis=1).max() > 2 * gamma * (1 + MEMBERSHIP_TOL):
        raise Refused("the instance breaks the hypothesis ||w_alpha||_1 <= 2 Gamma")
    return Sides(evaluate_quantity(lhs), 1.0, {})


def _lwr_identity_corrected(c: dict) -> Sides:
    """With the square inside the ReLU: lambda(t) = sum_{a in [q^2 m]} 2 lambda(a) sigma(1/2 - (t - a)^2) ("==") with at
    most one ReLU active ("<=": #{a : 1/2 - (t - a)^2 > 0} <= 1), lambda(t) = (t mod q) mod p."""
    q = _integer(_parameter(c, "lhs", "q"), "q", 2, 2**10)
    m = _integer(_parameter(c, "lhs", "m"), "m", 1, 2**10)
    t = _integer(_parameter(c, "lhs", "t"), "t", 0, q * q * m)
    if q * q * m > MAX_SECTION4_TERMS:
        raise Refused(f"refused: q^2 m = {q * q * m} terms exceed the verifier's limit {MAX_SECTION4_TERMS}")
    if c["relation"] == "<=":
        return Sides(float(sum(1 for a in range(q * q * m) if 0.5 - (t - a) ** 2 > 0)), 1.0, {"q": q, "m": m, "t": t})
    p = _integer(_parameter(c, "lhs", "p"), "p", 2, q)
    total = sum(2 * ((a % q) % p) * max(0.5 - (t - a) ** 2, 0.0) for a in range(q * q * m))
    return Sides(float(total), float((t % q) % p), {"q": q, "m": m, "p": p, "t": t})


def _lwr_affine_encoding(c: dict) -> Sides:
    """<w, y> = c + <v, z(y)> with z(y) the +-1 bits of y (bit l of y_i at coordinate i L + l, bit beta -> 1 - 2 beta,
    L bits per coordinate), v_il = -w_i 2^(l-1), c = sum_i w_i (2^L - 1)/2 (y_i = sum_l 2^l (1 - z_il)/2)."""
    w, y = _parameter(c, "rhs", "w"), _parameter(c, "rhs", "y")
    if not (
        isinstance(w, list)
        and isinstance(y, list)
        and w
        and len(w) == len(y)
        and all(isinstance(v, int) and v >= 0 for v in w + y)
    ):
        raise Refused("parameters w and y must be vectors of the same length m of non-negative integers")
    m = len(w)
    length = _integer(_parameter(c, "lhs", "len_z"), "len_z", m, 64 * m)
    if length % m:
        raise Refused(f"len_z = {length} is not m L for m = {m}")
    L = length // m
    if max(y) >= 2**L:
        raise Refused(f"y has an entry beyond L = {L} bits")
    z = [1 - 2 * ((yi >> bit) & 1) for yi in y for bit in range(L)]
    v = [-wi * 2.0 ** (bit - 1) for wi in w for bit in range(L)]
    offset = sum(w) * ((1 << L) - 1) / 2.0
    lhs = offset + sum(vi * zi for vi, zi in zip(v, z, strict=True))
    return Sides(
        float(lhs),
        float(sum(a * b for a, b in zip(w, y, strict=True))),
        {"c": offset, "v": v, "z": z, "len_z": length, "w": w, "y": y, "m": m},
    )


def _corrected_parity_network(m: int, S: list[int]) -> dict:
    """Section 4's corrected network for the parity on S: 2 relu(<w_{S,a}, x> - b_{S,a}) over a = |S| (mod 4) in
    [-m, m], weights restricted to S (:func:`_parity_lift_corrected`), b_{S,a} = |S| + a^2 - 1/2."""
    rows, biases = [], []
    for a in _corrected_shifts(m, len(S)):
        w = np.zeros((m, m))
        for i in S:
            for j in S:
                w[i, j] = 2.0 * a if i == j else -1.0
        rows.append(w.ravel().tolist())
        biases.append(len(S) + a * a - 0.5)
    return {"u": [2.0] * len(rows), "W": rows, "b": biases}


def _parity_sparsity_corrected(c: dict) -> Sides:
    """The corrected network is in H_{m^2, 2m, 1} on the support: at most one active neuron at every x(y)
    ("active_count" side), and at most 2m neurons (the side lists the network's biases, which must be the corrected
    network's for some |S|)."""
    lhs = c["lhs"]
    if isinstance(lhs, dict) and lhs.get("quantity") == "active_count":
        x = np.asarray(lhs["x"], dtype=float)
        m = math.isqrt(x.size)
        y = [int(v) for v in x.reshape(m, m).diagonal()] if m * m == x.size else []
        if not y or not np.array_equal(x, _lift(_signs(y, "y"))):
            raise Refused("lhs's point is not x(y) for any y in {-1,1}^m")
        if m > 12 or not any(
            _same_network(lhs["network"], _corrected_parity_network(m, list(S)))
            for size in range(1, m + 1)
            for S in itertools.combinations(range(m), size)
        ):
            raise Refused("lhs's network is not Section 4's corrected network for this m and any S")
        return Sides(evaluate_quantity(lhs), 1.0, {})
    b = _parameter(c, "lhs", "b")
    m = _integer(_parameter(c, "rhs", "m"), "m", 1, 2**10)
    if not isinstance(b, list) or not any(
        np.allclose(b, [size + a * a - 0.5 for a in _corrected_shifts(m, size)])
        for size in range(1, m + 1)
        if len(b) == len(_corrected_shifts(m, size))
    ):
        raise Refused("parameter b is not the biases of Section 4's corrected network for this m and any |S|")
    return Sides(float(len(b)), 2.0 * m, {"b": b, "m": m})


def _lwr_lifted_row(w: list[int], L: int, a: int) -> tuple[np.ndarray, float]:
    """``W_{w,a}`` (r x r, r = m L) and ``b_{w,a}`` of F_w's neuron a (see :func:`_lwr_lift_corrected`)."""
    v = np.array([-wi * 2.0 ** (bit - 1) for wi in w for bit in range(L)])
    shift = a - sum(w) * ((1 << L) - 1) / 2.0
    W = -np.outer(v, v)
    np.fill_diagonal(W, 2.0 * shift * v)
    return W, float(v @ v + shift * shift - 0.5)


def _lwr_network_rounding(c: dict) -> Sides:
    """Theorem 3's LWR part with the rounding map: F_w with output weights 2 round((p/q)(a mod q)) mod p (neuron a in
    [q^2 m], weights of :func:`_lwr_lifted_row`) computes round((p/q)(<w, y> mod q)) mod p at x(z(y))."""
    lhs = _spec(c, "lhs", "value")
    q, p, w, y = _lwr_instance(c, "rhs")
    m, L = len(w), max(1, (q - 1).bit_length())
    if q * q * m > MAX_NEURONS or (m * L) ** 2 > MAX_INPUT_DIM:
        raise Refused(f"refused: F_w has q^2 m = {q * q * m} neurons on (mL)^2 = {(m * L) ** 2} inputs")
    rows = [_lwr_lifted_row(w, L, a) for a in range(q * q * m)]
    expected = {
        "u": [2.0 * (((2 * p * (a % q) + q) // (2 * q)) % p) for a in range(q * q * m)],
        "W": [row.ravel().tolist() for row, _ in rows],
        "b": [beta for _, beta in rows],
    }
    if not _same_network(lhs["function"].get("network", {"u": [], "W": [], "b": []}), expected):
        raise Refused("lhs's network is not F_w with the rounding map's output weights")
    z = [1 - 2 * ((yi >> bit) & 1) for yi in y for bit in range(L)]
    if not np.array_equal(np.asarray(lhs["x"], dtype=float), _lift(z)):
        raise Refused("lhs's point is not x(z(y))")
    t = sum(a * b for a, b in zip(w, y, strict=True)) % q
    return Sides(
        evaluate_quantity(lhs), float((2 * p * t + q) // (2 * q) % p), {"w": w, "y": y, "m": m, "q": q, "p": p}
    )


def _lwr_lift_corrected(c: dict) -> Sides:
    """1/2 - (<w, y> - a)^2 = <W_{w,a}, x(z(y))> - b_{w,a} for F_w's neuron a: with <w, y> = c + <v, z(y)>
    (:func:`_lwr_affine_encoding`), W = -v v^T off the diagonal, W_kk = 2 (a - c) v_k, b = ||v||^2 + (a - c)^2 - 1/2."""
    w, y = _parameter(c, "lhs", "w"), _parameter(c, "lhs", "y")
    if not (
        isinstance(w, list)
        and isinstance(y, list)
        and w
        and len(w) == len(y)
        and all(isinstance(v, int) and v >= 0 for v in w + y)
    ):
        raise Refused("parameters w and y must be vectors of the same length m of non-negative integers")
    m = len(w)
    a = _integer(_parameter(c, "lhs", "a"), "a", 0, 2**30)
    r = _integer(_parameter(c, "rhs", "r"), "r", m, 64 * m)
    if r % m or max(y) >= 2 ** (r // m) or r > 64:
        raise Refused(f"r = {r} is not m L (L bits per coordinate of y, r <= 64)")
    L = r // m
    z = np.array([1 - 2 * ((yi >> bit) & 1) for yi in y for bit in range(L)], dtype=float)
    W, b = _lwr_lifted_row(w, L, a)
    lhs = 0.5 - (sum(p * q for p, q in zip(w, y, strict=True)) - a) ** 2
    rhs = float(W.ravel() @ _lift([int(t) for t in z]) - b)
    return Sides(
        float(lhs), rhs, {"w": w, "y": y, "m": m, "a": a, "W": W.ravel().tolist(), "z": z.tolist(), "r": r, "b": b}
    )


#: check id -> the statement it refutes. A certificate of any other check is not confirmed.
STATEMENTS: dict[str, Statement] = {
    "appendixA/sparse-sqrt-q-printed": Statement(
        "appendixA-sqrt-q", "<=", "with Gamma = sqrt(q), F is 1-sparsely activated for all inputs", _appendix_a_sparsity
    ),
    "lemma10/claim21-tail-negative-rho": Statement(
        "claim2.1-tail",
        "<=",
        "sum_{|T|>d} fhat(T)^2 <= 2 NS_rho(f) / (1 - rho^d) (Claim 2.1, no range of rho)",
        _claim21_tail,
    ),
    "appendixA/sparse-sqrt-q-corrected": Statement(
        "appendixA-sqrt-q",
        "<=",
        "with Gamma = sqrt(q) and ||w_alpha||_2 <= 1, F is 1-sparse on all inputs",
        _appendix_a_sparsity_l2,
    ),
    "appendixA/sparse-sqrt-q-l1": Statement(
        "appendixA-sqrt-q",
        "<=",
        "with Gamma = sqrt(q) and ||w_alpha||_1 <= 2 Gamma, F is 1-sparse on all inputs",
        _appendix_a_sparsity_l1,
    ),
    "theorem17/dense-lower-bound-printed": Statement(
        "intro-dense-lower-bound",
        ">=",
        "H_{n,s,s}^{W,B} requires c s^2/eps^2 samples (Omega(s^2/eps^2), realizable "
        "PAC learning of Section 2), read at the certificate's constant c",
        _dense_lower_bound,
    ),
    "appendixA/whp-printed-split": Statement(
        "appendixA-whp",
        ">=",
        "with Gamma = Theta(sqrt(log s)) and w_alpha arbitrary, Pr[F is 1-sparse] >= 1 - 1/P(s) "
        "for a polynomial P (read at P(s) = s)",
        _appendix_a_whp,
    ),
    "appendixA/computes": Statement(
        "appendixA-computes", "==", "F(x, y) = sigma(<w_x, y>) (Appendix A)", _appendix_a_computes
    ),
    "lemma10/claim21-tail": Statement(
        "claim2.1-tail",
        "<=",
        "sum_{|T|>d} fhat(T)^2 <= 2 NS_rho(f) / (1 - rho^d), rho in [0, 1), d >= 1 (Claim 2.1)",
        _claim21_tail_in_range,
    ),
    "section1_index/computes": Statement(
        "section1-index",
        "==",
        "Index_b(z) = sum_alpha sigma(<w_alpha, z> - b + 1/2) (Section 1)",
        _section1_index_computes,
    ),
    "section1_index/sparsity": Statement(
        "section1-index", "<=", "Index_b's network is in H_{b+2^b, 2^b, 1} (Section 1)", _section1_index_sparsity
    ),
    "section4_lwr/network": Statement(
        "section4-lwr-class", "==", "f_w(y) = F_w(x(y)), f_w(y) = (<w, y> mod q) mod p (Section 4)", _lwr_network
    ),
    "section4_parity/network-corrected": Statement(
        "section4-parity-network",
        "==",
        "the parity on S is h(x(y)) for the corrected network h (Section 4)",
        _parity_corrected_network,
    ),
    "theorem13/junta-computes": Statement(
        "theorem13-proof", "==", "the proof's network h equals the p-junta f (proof of Theorem 13)", _junta_computes
    ),
    "theorem13/junta-indicator": Statement(
        "theorem13-proof",
        "==",
        "sigma(<w_j, x> - b_j) = 1{x_i = w_ji for all i in V} (proof of Theorem 13)",
        _junta_indicator,
    ),
    "theorem13/junta-sparsity": Statement(
        "theorem13-proof",
        "<=",
        "at most one neuron of the proof's network is active (proof of Theorem 13)",
        _junta_sparsity,
    ),
    "theorem13/junta-scale": Statement(
        "theorem13-proof", "<=", "the proof's network lies in H_{n,s,1}^{sqrt(p),p} (proof of Theorem 13)", _junta_scale
    ),
    "lemma10/eq17-printed": Statement(
        "eq17", "==", "NS_rho(h) = E[(h(x) - h(y))^2], y ~ N_rho(x) (eq. (17))", _eq17_printed
    ),
    "lemma10/eq17-coupling": Statement(
        "lemma10-proof-coupling",
        "==",
        "the bucket coupling (r = floor(2/(1-rho))) has E[(1/4)(h(x) - h(y))^2] = NS_rho(h)",
        _eq17_coupling,
    ),
    "lemma6/identity-printed": Statement(
        "lemma6-proof-identity", "==", "AS(g) = (1/4) E_x[g(x) sum_i x_i] (proof of Lemma 6)", _lemma6_identity
    ),
    "lemma9/term-U-printed": Statement(
        "lemma9-proof-U", "<=", "(U) <= k^2 W^2 / 4 (proof of Lemma 9; k, W of the network)", _lemma9_term_u
    ),
    "lemma9/transition-union-printed": Statement(
        "lemma9-proof-union",
        "<=",
        "Pr_{x,i}[R_x != R_{x xor i}] <= (1/n) sum_j AS(g_j) (proof of Lemma 9)",
        _lemma9_union,
    ),
    "lemma9/transition": Statement(
        "lemma9-proof-transition",
        "<=",
        "Pr_{x,i}[R_x != R_{x xor i}] <= k sqrt(log(s/k)) / sqrt(n) (proof of Lemma 9; n, s, k of the network)",
        _lemma9_transition,
    ),
    "scaling/theorem17-printed": Statement(
        "theorem17",
        "<=",
        "m(eps, delta) = C((WR+B)^2 ksn log(k(R+B)/eps) + log(1/delta))/eps^2 samples suffice (Theorem 17)",
        _theorem17_scale,
    ),
    "section4_lwr/identity-printed": Statement(
        "section4-lwr-identity",
        "==",
        "lambda(t) = sum_{a in [q^2 m]} 2 lambda(a) sigma(1/2 - (t - a))^2 (Section 4)",
        _lwr_identity,
    ),
    "section4_lwr/lifted-weights-pm1": Statement(
        "section4-lwr-lift", "==", "the lifted weight vector W_{w,a} is in {1,-1}^n (Section 4)", _lwr_lifted_weights
    ),
    "section4_lwr/linear-encoding": Statement(
        "section4-lwr-encoding",
        "==",
        "there is v(w) with <v(w), z(y)> = <w, y> for all y (Section 4)",
        _lwr_linear_encoding,
    ),
    "section4_parity/chi-printed": Statement(
        "section4-parity-chi",
        "==",
        "chi_S(y) = 1 iff sum_{i in S} y_i is even is the parity on S (Section 4)",
        _parity_chi,
    ),
    "section4_parity/identity-printed": Statement(
        "section4-parity-network",
        "==",
        "sum_{a even in [-m, m]} 2 sigma(1/2 - (sum_S y_i - a)^2) is the parity on S (Section 4)",
        _parity_identity,
    ),
    "section4_parity/lift-printed": Statement(
        "section4-parity-lift",
        "==",
        "1/2 - (sum_{i in S} y_i - a)^2 = <w_{S,a}, x(y)> - b_{S,a} (Section 4)",
        _parity_lift,
    ),
    "section4_parity/network-printed": Statement(
        "section4-parity-network",
        "==",
        "the parity on S is h(x(y)) for the printed network h (Section 4)",
        _parity_network,
    ),
    "section4_parity/sparsity-printed": Statement(
        "section4-parity-network",
        "<=",
        "the printed network h has at most one active neuron on every x(y) (Section 4)",
        _parity_sparsity,
    ),
    "theorem19/scale": Statement(
        "theorem19", "<=", "R_H(S) <= (WR+B) sqrt(s n log(m(R+B)))/sqrt(m), R = max ||x_i|| (eq. (1))", _theorem19_eq1
    ),
    "theorem19/conj20-exact-lower": Statement(
        "conj20", "<=", "R_H(S) <= (WR+B) sqrt(sk)/sqrt(m), R = max ||x_i|| (Conjecture 20, eq. (16))", _conjecture20
    ),
    "theorem19/eq15-scale": Statement(
        "eq15", "<=", "R_H(S) <= (WR+B) sqrt(snk log(km(R+B)))/sqrt(m), R = max ||x_i|| (eq. (15))", _theorem19_eq15
    ),
    "lemma9/proof-tail-hence-W0": Statement(
        "lemma9-proof-tail",
        "<=",
        "Pr_x[|l_{R_x}(x)| >= c k^{1.5} W sqrt(log(ns)) + kB] <= 1/(ns)^4 (proof of Lemma 9)",
        _lemma9_tail_hence,
    ),
    "theorem8/lemma7-CH-sign": Statement(
        "lemma7",
        "<=",
        "O(n^d C_H^2 log(1/delta)/eps) samples, C_H = sup_{h,x} h(x), suffice for (O(eps), delta)-PAC "
        "learning a class with tail <= eps above d (Lemma 7)",
        _lemma7_sup_sign,
    ),
    "theorem8/final-line-scale": Statement(
        "theorem8-proof-final",
        "<=",
        "run time and sample complexity O(n^d log(1/delta)/eps), d = Theta((k^8 W^4 "
        "log^4(ns) + k^6 B^4 log s)/eps^2) (proof of Theorem 8, last line)",
        _theorem8_final_line,
    ),
    "theorem8/rho-choice": Statement(
        "theorem8-proof-rho",
        "<=",
        "the proof's 1 - rho makes Lemma 10's bound <= eps/3 (proof of Theorem 8)",
        _theorem8_rho,
    ),
    "theorem19/eq12-printed": Statement(
        "eq12",
        "<=",
        "E_zeta max_h (1/m) sum_j sum_{i in I_j} zeta_i u_j <w_j, x_i> <= (1/m) max_h sum_j |u_j| ||w_j|| "
        "E_zeta ||sum_{i in I_j} zeta_i x_i|| ((12) as printed)",
        _theorem19_eq12,
    ),
    "theorem19/eq7-printed": Statement(
        "eq7",
        "==",
        "activations 1-sparse => sum_j |I_j| = m, I_j = {i : <w_j, x_i> - b_j >= 0} (eq. (7) as printed)",
        _theorem19_cells,
    ),
    "theorem19/km-printed": Statement(
        "theorem19-k-sparse-cells",
        "<=",
        "activations k-sparse => sum_j |I_j| <= k m, I_j = {i : <w_j, x_i> - b_j >= 0} (as printed)",
        _theorem19_cells,
    ),
    "theorem19/eq8-printed-cells": Statement(
        "eq8",
        "<=",
        "second term of (4) <= 4B sqrt(snc log(mB))/sqrt(m), c = 2, with I_j = {i : <w_j, x_i> - b_j >= 0} "
        "(eq. (8) with the printed cells)",
        _theorem19_printed_cells,
    ),
    "theorem19/eq14-printed-cells": Statement(
        "eq14",
        "<=",
        "first term of (4) <= 4WR sqrt(ns log(mR))/sqrt(m), with I_j = {i : <w_j, x_i> - b_j >= 0} "
        "(eq. (14) with the printed cells)",
        _theorem19_printed_cells,
    ),
    "theorem19/combine-printed": Statement(
        "theorem19-proof-combine",
        "<=",
        "(8) + (14) <= (1): 4B sqrt(snc log(mB))/sqrt(m) + 4WR sqrt(ns log(mR))/sqrt(m) "
        "<= (WR+B) sqrt(sn log(m(R+B)))/sqrt(m), Hoeffding's c >= 2 (last line of Theorem 19's proof)",
        _theorem19_combine,
    ),
    "scaling/covariance": Statement(
        "scaling-covariance",
        "<=",
        "every printed bound transforms like the quantity it bounds; Theorem 17's "
        "C m(eps, delta) samples suffice for h = lam relu(x) at every output scale lam",
        _theorem17_scale,
    ),
    "scaling/lemma18-printed": Statement(
        "lemma18",
        ">=",
        "c (C_H E_S R_H(S) + sqrt(log(1/delta)/m)) <= eps => m samples suffice (Lemma 18): below the "
        "samples needed to tell h from -h the condition exceeds eps",
        _lemma18,
    ),
    "scaling/theorem5-rate": Statement(
        "theorem5-via-theorem17",
        "<=",
        "on {1,-1}^n (R = sqrt(n)) Theorem 17's m(eps, delta) is "
        "O~(ksn/eps^2) = C ksn log^2(ksn/(eps delta))/eps^2 (Theorem 5)",
        _theorem5_rate,
    ),
    "lemma9/proof-V-printed": Statement(
        "lemma9-proof-V",
        "<=",
        "n[(k sqrt(log(s/k))/sqrt(n) - (ns)^-4)(c k^1.5 W sqrt(log ns) + kB)^2 + (ns)^-4 "
        "(kW sqrt(n) + kB)^2] <= C (k^4 W^2 sqrt(n) log(ns) + k^3 B^2 sqrt(log s)) (proof of Lemma 9, (V))",
        _lemma9_proof_v,
    ),
    "theorem8/tail-step": Statement(
        "theorem8-proof-tail",
        "<=",
        "1 <= d(1-rho) <= 3(1-rho^d) at the proof's d and rho (so eps/(3(1-rho^d)) <= "
        "eps/(d(1-rho)) <= eps; proof of Theorem 8)",
        _theorem8_tail_step,
        links=(">=",),
    ),
    "theorem8/lemma7-projection-printed": Statement(
        "lemma7-proof-projection",
        "<=",
        "sum_{|T|>d} hhat(T)^2 <= eps => ||g - h||_2^2 = sum_{|T|>d} hhat(T)^2 <= eps/2 (after Lemma 7)",
        _lemma7_projection,
    ),
    "theorem8/degree-degenerate": Statement(
        "theorem8-proof-tail",
        "<=",
        "the tail of h above the proof's d = Theta((k^8 W^4 log^4(ns) + k^6 B^4 log s)/"
        "eps^2) is <= eps (proof of Theorem 8)",
        _theorem8_degree_tail,
    ),
    "lemma9/transition-printed": Statement(
        "lemma9-proof-transition",
        "<=",
        "Pr_{x,i}[R_x != R_{x xor i}] <= (1/n) sum_j p_j sqrt(n log(1/p_j)), p_j = Pr_x[neuron j active] (the first "
        "inequality of term (V) of Lemma 9's proof, constant 1 as printed)",
        _lemma9_transition_printed,
    ),
    "lemma9/transition-concavity-printed": Statement(
        "lemma9-proof-transition",
        "<=",
        "(1/n) sum_j p_j sqrt(n log(1/p_j)) <= C k sqrt(log(s/k))/sqrt(n), p_j = "
        "Pr_x[neuron j active] (the concavity step of Lemma 9's proof, term (V), read up to a constant C)",
        _lemma9_concavity_printed,
    ),
    "theorem13/junta-corner": Statement(
        "theorem13-proof",
        "<=",
        "J_{n,p} in H_{n,s,1}^{sqrt(p),p} for p <= floor(log2 s) (proof of Theorem 13), through |h(x)| <= "
        "k(W sqrt(n) + B) for every h of the class (theorem8-proof-CH)",
        _theorem13_junta_corner,
    ),
    "lemma9/bound-degenerate": Statement(
        "lemma9", "<=", "AS(h) <= C (k^4 W^2 sqrt(n) log(ns) + k^3 B^2 sqrt(log s)) (Lemma 9)", _lemma9_bound
    ),
    "lemma10/bound-degenerate": Statement(
        "lemma10",
        "<=",
        "NS_rho(h) <= C sqrt(1-rho)(k^4 W^2 log^2(ns/(1-rho)) + k^3 B^2 sqrt(log s)) (Lemma 10)",
        _lemma10_bound,
    ),
    "section4_lwr/def15-rounding": Statement(
        "def15",
        "==",
        "Definition 15's f_w(y) = (<w, y> mod q) mod p is the learning-with-rounding map "
        "round((p/q)(<w, y> mod q)) mod p it cites",
        _def15_rounding,
    ),
    "appendixA/computes-printed": Statement(
        "appendixA-computes", "==", "F(x, y) = sigma(<w_x, y>) (Appendix A, w_alpha as printed)", _appendix_a_computes
    ),
    "lemma9/tighter-4k2W2": Statement(
        "lemma9", "<=", "AS(h) <= 4 k^2 W^2 (ours; k = max(1, most active neurons), W of Definition 2)", _lemma9_tighter
    ),
    "lemma9/term-U-corrected": Statement(
        "lemma9-proof-U",
        "<=",
        "(U) <= E_x ||w^{R_x}||^2 <= k^2 W^2 (the corrected steps of (U))",
        _lemma9_term_u_corrected,
    ),
    "lemma9/transition-union-corrected": Statement(
        "lemma9-proof-union",
        "<=",
        "Pr_{x,i}[R_x != R_{x xor i}] <= (4/n) sum_j AS(g_j) (the union bound, corrected)",
        _lemma9_union_corrected,
    ),
    "lemma9/transition-corrected": Statement(
        "lemma9-proof-transition",
        "<=",
        "sum_j p_j sqrt(log(1/p_j)) <= Phi(s, k) under sum_j p_j <= k (concavity)",
        _lemma9_concavity,
    ),
    "lemma6/identity-corrected": Statement(
        "lemma6-proof-identity",
        "==",
        "AS(g) = -(1/2) E_x[g(x) sum_i x_i] for g = 1{<w, x> <= b}, w >= 0 (corrected)",
        _lemma6_corrected,
    ),
    "lemma10/eq17-corrected": Statement(
        "eq17",
        "<=",
        "NS_rho(h) <= NS_{1-2/r}(h) and r (1 - rho) >= 1, r = floor(2/(1-rho)), rho in [0, 1) (corrected (17))",
        _eq17_corrected,
        links=(">=",),
    ),
    "theorem19/scale-corrected": Statement(
        "theorem19",
        "<=",
        "R_H(S) <= (WR+B) sqrt(s n max(1, log(m(R+B))))/sqrt(m), R = max ||x_i|| (eq. (1) with the log floored at 1)",
        _theorem19_eq1_corrected,
    ),
    "section4_parity/chi-corrected": Statement(
        "section4-parity-chi",
        "==",
        "chi_S(y) = 1 iff sum_{i in S} y_i = |S| (mod 4) is the parity on S (corrected)",
        _parity_chi_corrected,
    ),
    "section4_parity/identity-vs-printed-chi": Statement(
        "section4-parity-identity",
        "==",
        "sum_{a even in [-m, m]} 2 sigma(1/2 - (sum_S y_i - a)^2) = the printed chi_S(y) (1 iff sum_S y_i even)",
        _parity_identity_vs_chi,
    ),
    "section4_parity/identity-corrected": Statement(
        "section4-parity-identity",
        "==",
        "sum_{a in [-m, m], a = |S| mod 4} 2 sigma(1/2 - (sum_S y_i - a)^2) is the parity on S (corrected)",
        _parity_identity_corrected,
    ),
    "section4_parity/identity-one-active": Statement(
        "section4-parity-identity",
        "<=",
        "for any y in {1,-1}^m at most one ReLU of the identity is active",
        _parity_identity_one_active,
    ),
    "section4_parity/lift-corrected": Statement(
        "section4-parity-lift",
        "==",
        "1/2 - (sum_{i in S} y_i - a)^2 = <w_{S,a}, x(y)> - b_{S,a}, weights restricted to S (corrected)",
        _parity_lift_corrected,
    ),
    "section4_lwr/identity-corrected": Statement(
        "section4-lwr-identity",
        "==",
        "lambda(t) = sum_{a in [q^2 m]} 2 lambda(a) sigma(1/2 - (t - a)^2), one ReLU active (corrected)",
        _lwr_identity_corrected,
        links=("<=",),
    ),
    "section4_lwr/affine-encoding": Statement(
        "section4-lwr-encoding",
        "==",
        "<w, y> = c(w) + <v(w), z(y)> (offset absorbed into the shifts; corrected)",
        _lwr_affine_encoding,
    ),
    "section4_parity/sparsity-corrected": Statement(
        "section4-parity-network",
        "<=",
        "the corrected network has at most one active neuron on every x(y) and at "
        "most 2m neurons (Section 4, corrected)",
        _parity_sparsity_corrected,
    ),
    "section4_lwr/lift-corrected": Statement(
        "section4-lwr-lift",
        "==",
        "1/2 - (<w, y> - a)^2 = <W_{w,a}, x(z(y))> - b_{w,a} with the affine encoding's v, c (corrected)",
        _lwr_lift_corrected,
    ),
    "section4_lwr/network-rounding": Statement(
        "theorem3-lwr",
        "==",
        "with the rounding map, F_w (output weights 2 round((p/q) a)) computes "
        "round((p/q)(<w, y> mod q)) mod p at x(z(y)) (Theorem 3, LWR part)",
        _lwr_network_rounding,
    ),
    "theorem8/tail-step-corrected": Statement(
        "theorem8-proof-tail", ">=", "1 - rho^d >= 1 - 1/e for d = ceil(1/(1-rho)), rho in [0, 1)", _tail_step_corrected
    ),
    "theorem8/rho-choice-corrected": Statement(
        "theorem8-proof-rho",
        "<=",
        "Lemma 10's bound (C = 1) at the corrected 1 - rho* is <= eps/3",
        _rho_choice_corrected,
    ),
    "theorem8/C_H": Statement(
        "theorem8-proof-CH",
        "<=",
        "sup_x |h(x)| <= C_H = k (W sqrt(n) + B) on H_{n,s,k}^{W,B} (proof of Theorem 8)",
        _theorem8_ch,
    ),
}


def _reproduces(recomputed: float, recorded: float) -> bool:
    try:
        recorded = float(recorded)  # an integer beyond float range reproduces nothing
    except OverflowError:
        return False
    return abs(recomputed - recorded) <= REPRODUCE_ATOL + REPRODUCE_RTOL * max(abs(recomputed), abs(recorded))


def _same(recorded, recomputed) -> bool:
    if isinstance(recomputed, list):
        return (
            isinstance(recorded, list)
            and np.shape(recorded) == np.shape(recomputed)
            and np.allclose(
                np.asarray(recorded, dtype=float),
                np.asarray(recomputed, dtype=float),
                rtol=REPRODUCE_RTOL,
                atol=REPRODUCE_ATOL,
            )
        )
    return isinstance(recorded, int | float) and not isinstance(recorded, bool) and _reproduces(recomputed, recorded)


def _check_recorded_variables(spec, variables: dict, where: str) -> None:
    """Every variable a formula side of the file records must be the statement's, with the recomputed value."""
    if not isinstance(spec, dict) or spec.get("quantity") != "formula":
        return
    for name, recorded in (spec.get("vars") or {}).items():
        if name not in variables:
            raise Refused(f"{where}: {name!r} is not a variable of the statement")
        if isinstance(recorded, dict) and recorded.get("quantity") == "formula":
            _check_recorded_variables(recorded, variables, f"{where}.{name}")
            continue
        value = evaluate_quantity(recorded) if isinstance(recorded, dict) else recorded
        if not _same(value, variables[name]):
            raise Refused(
                f"{where}: {name} = {value!r} in the file, but the instance gives {name} = {variables[name]!r}"
            )


#: The keys of a certificate file and of its ``certificate`` object (sparseact.publish.ledger.certificate_document,
#: sparseact.verify.certificates.certificate): a file with any other key is refused.
DOCUMENT_KEYS = (
    "check_id",
    "statement_id",
    "paper_ref",
    "statement",
    "finding",
    "counterexample",
    "certificate",
    "margin",
)
CERTIFICATE_KEYS = ("relation", "lhs", "rhs", "lhs_value", "rhs_value", "lhs_label", "rhs_label", "explanation")


def _fields(document: dict) -> tuple[str, str, dict]:
    if not isinstance(document, dict):
        raise Refused(f"a certificate file holds a JSON object, got {type(document).__name__}")
    missing = [key for key in ("check_id", "statement_id", "certificate") if key not in document]
    if missing:
        raise Refused(f"missing key(s) {missing}")
    unknown = sorted(set(document) - set(DOCUMENT_KEYS))
    if unknown:
        raise Refused(f"unknown key(s) {unknown}: a certificate file has the keys {list(DOCUMENT_KEYS)}")
    certificate = document["certificate"]
    if not isinstance(certificate, dict):
        raise Refused("'certificate' must be a JSON object")
    missing = [key for key in ("relation", "lhs", "rhs", "lhs_value", "rhs_value") if key not in certificate]
    if missing:
        raise Refused(f"missing key(s) {missing} in 'certificate'")
    unknown = sorted(set(certificate) - set(CERTIFICATE_KEYS))
    if unknown:
        raise Refused(f"unknown key(s) {unknown} in 'certificate'")
    if not isinstance(document["check_id"], str) or not isinstance(document["statement_id"], str):
        raise Refused("check_id and statement_id must be strings")
    return document["check_id"], document["statement_id"], certificate


def _formula_exprs(spec, path: str, out: dict) -> dict:
    """``path -> expr`` of every formula side and formula variable of ``spec``."""
    if isinstance(spec, dict) and spec.get("quantity") == "formula":
        out[path] = spec.get("expr")
        for name, value in (spec.get("vars") or {}).items() if isinstance(spec.get("vars"), dict) else ():
            _formula_exprs(value, f"{path}.{name}", out)
    return out


def _fill_pinned(text: str, certificate: dict) -> str:
    """A pinned text with each ``<<name>>`` replaced by the integer variable ``name`` of the certificate's formula
    sides (a label that names the instance, such as ``k=<<k>>``, is pinned exactly for every instance)."""

    def value(match) -> str:
        name = match.group(1)
        for side in ("lhs", "rhs"):
            variables = certificate[side].get("vars") if isinstance(certificate[side], dict) else None
            if (
                isinstance(variables, dict)
                and isinstance(variables.get(name), int)
                and not isinstance(variables.get(name), bool)
            ):
                return str(variables[name])
        raise Refused(f"the pinned text names <<{name}>>, which is no integer variable of the certificate")

    return re.sub(r"<<([A-Za-z_][A-Za-z_0-9]*)>>", value, text)


def _check_pinned_text(check_id: str, document: dict, certificate: dict) -> None:
    """Refuse, naming the field, a file whose text differs from the check's pin (:data:`PINNED_TEXT`)."""
    from sparseact.verify.pinned_text import PINNED_TEXT

    pin = PINNED_TEXT.get(check_id)
    if pin is None:
        return
    for field in ("statement", "paper_ref", "finding"):
        if document.get(field) != pin[field]:
            raise Refused(f"field {field!r} is {document.get(field)!r}, its pin says {pin[field]!r}")
    for field in ("lhs_label", "rhs_label"):
        expected = _fill_pinned(pin[field], certificate)
        if certificate.get(field) != expected:
            raise Refused(f"field certificate.{field} is {certificate.get(field)!r}, its pin says {expected!r}")
    recorded = _formula_exprs(certificate["rhs"], "rhs", _formula_exprs(certificate["lhs"], "lhs", {}))
    for path in sorted(set(recorded) | set(pin["expr"])):
        if recorded.get(path) != pin["expr"].get(path):
            raise Refused(
                f"field certificate.{path}.expr is {recorded.get(path)!r}, its pin says {pin['expr'].get(path)!r}"
            )


def verify_certificate(document: dict) -> Verification:
    """Check a certificate file's content against the statement its check refutes (:data:`STATEMENTS`).

    Confirmed when the check is one of :data:`STATEMENTS`, the file names that check's statement and
    relation, every variable the file records is the one the instance gives, both sides recomputed
    from the instance reproduce the recorded values, and they violate the pinned relation.
    """
    try:
        check_id, statement_id, certificate = _fields(document)
        statement = STATEMENTS.get(check_id)
        if statement is None:
            raise Refused(
                f"check {check_id!r} refutes no statement the verifier knows (sparseact.verify.recompute.STATEMENTS)"
            )
        if statement_id != statement.statement_id:
            raise Refused(f"check {check_id} refutes statement {statement.statement_id}, not {statement_id}")
        relation = certificate["relation"]
        if relation not in (statement.relation, *statement.links):
            raise Refused(
                f"{statement.statement_id} asserts lhs {statement.relation} rhs, the file says "
                f"{certificate['relation']!r}"
            )
        sides = statement.sides(certificate)
        for side in ("lhs", "rhs"):
            _check_recorded_variables(certificate[side], sides.variables, side)
    except Refused as exc:
        return Verification(False, math.nan, math.nan, f"NOT confirmed: {exc}")
    except (
        ValueError,
        KeyError,
        IndexError,
        TypeError,
        AttributeError,
        ZeroDivisionError,
        OverflowError,
        RecursionError,
    ) as exc:
        return Verification(
            False, math.nan, math.nan, f"NOT confirmed: cannot evaluate the instance ({type(exc).__name__}: {exc})"
        )
    lhs, rhs = sides.lhs, sides.rhs
    problems = []
    for side, value in (("lhs", lhs), ("rhs", rhs)):
        recorded = certificate[f"{side}_value"]
        if not math.isfinite(value):
            problems.append(f"{side} recomputes to {value}")
        elif not _same(recorded, value):
            shown = f"{recorded:.12g}" if isinstance(recorded, float) else repr(recorded)[:40]
            problems.append(f"{side} recomputes to {value:.12g}, recorded {shown}")
    if not problems and not violated(relation, lhs, rhs):
        problems.append(f"{lhs:.12g} {relation} {rhs:.12g} holds")
    refutes = f"{statement.statement_id} ({statement.text})"
    if problems:
        return Verification(False, lhs, rhs, f"NOT confirmed against {refutes}: {'; '.join(problems)}")
    try:
        _check_pinned_text(check_id, document, certificate)
    except Refused as exc:
        return Verification(False, lhs, rhs, f"NOT confirmed against {refutes}: {exc}")
    try:
        margin = _rigorous_margin(check_id, certificate)
    except (
        ValueError,
        KeyError,
        IndexError,
        TypeError,
        AttributeError,
        ZeroDivisionError,
        OverflowError,
        RecursionError,
    ) as exc:
        return Verification(
            False,
            lhs,
            rhs,
            f"NOT confirmed against {refutes}: the violation is not established in "
            f"exact or interval arithmetic ({exc})",
        )
    if "margin" in document and document["margin"] != margin:
        return Verification(
            False,
            lhs,
            rhs,
            f"NOT confirmed against {refutes}: field 'margin' is "
            f"{str(document['margin'])[:200]!r}, the checker proves {margin!r}",
        )
    return Verification(
        True, lhs, rhs, f"confirmed: refutes {refutes}: lhs = {lhs:.6g}, rhs = {rhs:.6g}; {margin}", margin
    )


def _rigorous_margin(check_id: str, certificate: dict) -> str:
    """The proof of the violation (:mod:`sparseact.verify.rigorous`): both sides recomputed in exact or interval
    arithmetic must enclose the recorded values (:data:`~sparseact.verify.certificates.REPRODUCE_RTOL`) and lie
    strictly on the violating side; returns the margin ``lhs - rhs`` and its method, or raises :class:`Refused`."""
    from sparseact.verify import exact
    from sparseact.verify.rigorous import RIGOROUS

    sides = RIGOROUS.get(check_id)
    if sides is None:
        raise Refused("no exact or interval evaluation is pinned for this check (sparseact.verify.rigorous.RIGOROUS)")
    values = sides(certificate)
    for side, value in zip(("lhs", "rhs"), values, strict=True):
        recorded = exact.rational(certificate[f"{side}_value"], f"{side}_value")
        lo, hi = value.bounds()
        slack = Fraction(REPRODUCE_ATOL) + Fraction(REPRODUCE_RTOL) * abs(recorded)
        if not lo - slack <= recorded <= hi + slack:
            raise Refused(
                f"{side} is {value.describe(12)} in exact or interval arithmetic, recorded {float(recorded)!r}"
            )
    established, margin = exact.violation(certificate["relation"], *values)
    if not established:
        raise Refused(margin)
    return margin


def _no_duplicate_keys(pairs: list) -> dict:
    keys = [key for key, _ in pairs]
    duplicated = sorted({key for key in keys if keys.count(key) > 1})
    if duplicated:
        raise Refused(f"duplicate JSON key(s) {duplicated}: a certificate names each field once")
    return dict(pairs)


def _finite_constant(name: str):
    raise Refused(f"non-finite number {name} in the file: a certificate's numbers are finite")


def _canonical_float(text: str) -> float:
    """A JSON float literal, which must be the shortest form of the double it reads as (Python's ``repr``, as the
    ledger step writes it): ``473.640000000000000000000001`` or ``4.7364e2`` would be checked as the double 473.64,
    not the number the file shows, and ``1e400`` as infinity."""
    value = float(text)
    if not math.isfinite(value):
        raise Refused(f"number {text} in the file reads as {value}: a certificate's numbers are finite")
    if repr(value) != text:
        raise Refused(
            f"number {text} in the file is not the double it reads as, {value!r}, written in full: a certificate "
            "writes each float as the shortest decimal of its double, so that the value checked is the value shown"
        )
    return value


def read_certificate(path: str | Path) -> dict:
    """The JSON object of a certificate file, read safely: a regular file (not a symlink, FIFO or device) of at most
    :data:`MAX_FILE_BYTES` bytes (never more is read), UTF-8, with no duplicate key, no ``NaN``/``Infinity`` and at
    most :data:`MAX_JSON_DEPTH` levels of nesting; :class:`Refused` otherwise."""
    try:
        data = read_regular_file(path, MAX_FILE_BYTES, "certificate")
    except ValueError as exc:
        raise Refused(f"refused: {str(exc).removeprefix(f'{path}: ')}") from None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise Refused(f"unreadable certificate (not UTF-8: {exc.reason})") from None
    depth = max_depth = 0
    for character in text:  # nesting is bounded before the parser recurses
        if character in "[{":
            depth += 1
            max_depth = max(max_depth, depth)
        elif character in "]}":
            depth -= 1
    if max_depth > MAX_JSON_DEPTH:
        raise Refused(f"refused: JSON nested {max_depth} levels deep, beyond the verifier's limit {MAX_JSON_DEPTH}")
    try:
        return json.loads(
            text, object_pairs_hook=_no_duplicate_keys, parse_constant=_finite_constant, parse_float=_canonical_float
        )
    except (ValueError, RecursionError) as exc:
        if isinstance(exc, Refused):
            raise
        raise Refused(
            f"unreadable certificate ({str(exc).splitlines()[0] if str(exc) else type(exc).__name__})"
        ) from None


def _listed_digest(path: Path) -> tuple[Path, str | None] | None:
    """The manifest of the nearest enclosing folder that has one, and the digest it lists for ``path`` (``None``
    when it does not list it); ``None`` when no enclosing folder has a manifest (a file outside a run's results)."""
    for folder in path.absolute().parents:
        manifest = folder / MANIFEST_NAME
        if manifest.is_file():
            text = read_regular_file(manifest, MAX_FILE_BYTES, "manifest").decode("utf-8", "replace")
            name = path.absolute().relative_to(folder).as_posix()
            listed = dict(reversed(line.split("  ", 1)) for line in text.splitlines() if "  " in line)
            return manifest, listed.get(name)
    return None


def verify_file(path: str | Path) -> Verification:
    """:func:`verify_certificate` on a certificate JSON file; a file that cannot be read or parsed is not confirmed.

    A file under a folder with a :data:`~sparseact._validation.MANIFEST_NAME` (the digests the ledger step writes
    beside the certificates, one ``<sha256>  <claim>/<check>.json`` line each) must also be the file the ledger step
    wrote: a confirmed file whose digest differs from its line, or that has no line, is refused, so an
    edit of any field (a label, the statement's text, an instance entry that keeps the violation) is refused too.
    """
    try:
        document = read_certificate(path)
    except Refused as exc:
        return Verification(False, math.nan, math.nan, f"NOT confirmed: {exc}")
    result = verify_certificate(document)
    try:
        listed = _listed_digest(Path(path))
    except ValueError as exc:
        return Verification(False, result.lhs, result.rhs, f"NOT confirmed: refused: {exc}")
    if result.confirmed and listed is not None:
        manifest, digest = listed
        actual = hashlib.sha256(read_regular_file(path, MAX_FILE_BYTES, "certificate")).hexdigest()
        if digest is None:
            return Verification(
                False,
                result.lhs,
                result.rhs,
                f"NOT confirmed: refused: not listed in {manifest} (not a certificate the run wrote)",
            )
        if digest != actual:
            return Verification(
                False,
                result.lhs,
                result.rhs,
                f"NOT confirmed: refused: edited since the run wrote it (its sha256 differs from "
                f"{manifest}); every field of a certificate is the run's",
            )
    return result
