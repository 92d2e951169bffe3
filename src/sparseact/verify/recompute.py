"""The verifier's own reading of a certificate and its independent evaluators (``sparseact verify-certificate``).

A certificate file (:mod:`sparseact.verify.certificates`) names a check and gives an explicit instance that
violates the statement the check tests. This module reads such a file safely (:func:`read_certificate`), holds
the shape of a pin (:class:`Statement`, :class:`Sides`, :class:`Refused`) and the evaluators the pins of several
claims share, written directly from the definitions in plain numpy and sharing no code with the checks that
produced the certificate: the cube is enumerated here, Fourier coefficients come from this module's own
Walsh-Hadamard transform, noise sensitivity from applying the noise operator coordinate by coordinate, and class
membership of the networks in a Rademacher lower bound is checked here (over all ``2^m`` sign vectors). The pins
themselves are per claim (:mod:`sparseact.verify.pins`); :mod:`sparseact.verify.checker` confirms a certificate.
Instances beyond the limits below (cube dimension, network size, file size, sums of Section 4) are refused with a
message before anything large is allocated.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from sparseact._validation import MAX_JSON_DEPTH, json_depth, read_regular_file
from sparseact.verify import exact
from sparseact.verify.certificates import REPRODUCE_ATOL, REPRODUCE_RTOL

#: Largest dimension whose cube the evaluators enumerate (refused before anything is allocated).
MAX_ENUMERATION_DIM = 20
#: Largest 2^n * (n + neurons) of an enumerated cube with a network on it (about 0.5 GB of floats).
MAX_CUBE_CELLS = 2**26
#: Largest network (neurons) and input dimension of an instance.
MAX_NEURONS = 4096
MAX_INPUT_DIM = 4096
#: Largest certificate file read (bytes): the committed ones are at most about 100 kB.
MAX_FILE_BYTES = 8 * 2**20
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
        return _integer(function.get("n"), "n", 0, MAX_ENUMERATION_DIM)
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
    s, k, W_max, B_max = *_sizes_sk(spec), float(spec["W"]), float(spec["B"])
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
    return X, zetas, networks, *_sizes_sk(spec), float(spec["W"]), float(spec["B"])


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
    k = _integer(spec.get("k"), "k", 1, MAX_NEURONS)
    if not (np.count_nonzero(pre > 0, axis=1) <= k).all():
        raise ValueError(f"cell_sizes_sum: the network is not {k}-sparsely activated on the sample")
    return float(np.count_nonzero(pre >= 0))


def _orthogonal_residual(spec: dict) -> float:
    Z, t = (np.asarray(spec[key], dtype=float) for key in ("Z", "t"))
    r = np.asarray([float(exact.rational(v, "r")) if isinstance(v, str) else v for v in spec["r"]], dtype=float)
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
        return float(
            np.sum(coefficients[degrees > _integer(spec.get("degree"), "degree", 0, MAX_ENUMERATION_DIM)] ** 2)
        )
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
# A statement's pin: what :mod:`sparseact.verify.pins` declares per check
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


def _sizes_sk(spec: dict) -> tuple[int, int]:
    """The class's ``s`` and ``k`` of a Rademacher spec: integers, ``1 <= k <= s <=`` :data:`MAX_NEURONS`."""
    s = _integer(spec.get("s"), "s", 1, MAX_NEURONS)
    return s, _integer(spec.get("k"), "k", 1, s)


def _signs(value, name: str) -> list[int]:
    if not isinstance(value, list) or not value or not all(v in (-1, 1) for v in value):
        raise Refused(f"parameter {name} must be a non-empty vector in {{-1,1}}^m")
    return [int(v) for v in value]


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


def _lift(y: list[int]) -> np.ndarray:
    """``x(y)`` of Section 4, row-major ``m x m``: ``x_ii = y_i``, ``x_ij = y_i y_j``."""
    outer = np.outer(y, y).astype(float)
    np.fill_diagonal(outer, y)
    return outer.ravel()


def _same_network(spec: dict, expected: dict) -> bool:
    return all(
        np.shape(spec[key]) == np.shape(expected[key]) and np.allclose(spec[key], expected[key], rtol=0, atol=1e-12)
        for key in ("u", "W", "b")
    )


def _reproduces(recomputed: float, recorded: float, atol: float = REPRODUCE_ATOL) -> bool:
    try:
        recorded = float(recorded)  # an integer beyond float range reproduces nothing
    except OverflowError:
        return False
    return abs(recomputed - recorded) <= atol + REPRODUCE_RTOL * max(abs(recomputed), abs(recorded))


def _same(recorded, recomputed, atol: float = REPRODUCE_ATOL) -> bool:
    if isinstance(recomputed, list):
        return (
            isinstance(recorded, list)
            and np.shape(recorded) == np.shape(recomputed)
            and np.allclose(
                np.asarray(recorded, dtype=float),
                np.asarray(recomputed, dtype=float),
                rtol=REPRODUCE_RTOL,
                atol=atol,
            )
        )
    return (
        isinstance(recorded, int | float) and not isinstance(recorded, bool) and _reproduces(recomputed, recorded, atol)
    )


def _check_recorded_variables(spec, variables: dict, where: str) -> None:
    """Every variable a formula side of the file records must be the statement's, with the recomputed value up to
    the relative tolerance alone: the absolute one, which lets a side's value near 0 reproduce, would make every two
    values below it one (``delta = 1e-300`` on one side, ``1e-12`` on the other)."""
    if not isinstance(spec, dict) or spec.get("quantity") != "formula":
        return
    for name, recorded in (spec.get("vars") or {}).items():
        if name not in variables:
            raise Refused(f"{where}: {name!r} is not a variable of the statement")
        if isinstance(recorded, dict) and recorded.get("quantity") == "formula":
            _check_recorded_variables(recorded, variables, f"{where}.{name}")
            continue
        value = evaluate_quantity(recorded) if isinstance(recorded, dict) else recorded
        if not _same(value, variables[name], atol=0.0):
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
    for side in ("lhs", "rhs"):
        _numbers_only(certificate[side], f"certificate.{side}")
    return document["check_id"], document["statement_id"], certificate


#: The keys of a side's objects whose values are text: what a side computes and its formula; and ``r``, whose rationals
#: may be written ``"p/q"``. Every other value of a side is a number, a list or an object of them.
TEXT_KEYS = frozenset({"quantity", "expr", "r"})


def _numbers_only(value, where: str, key: str = "") -> None:
    """Refuse (:class:`Refused`) a side of a certificate holding a value that is not a number where a number is read:
    ``true`` for 1, ``"1"`` for 1 or ``null`` would otherwise reach numpy, which reads the first two as numbers."""
    if isinstance(value, dict):
        for name, item in dict.items(value):  # not a read of the key (ReadKeys)
            _numbers_only(item, f"{where}.{name}", str(name))
    elif isinstance(value, list):
        for i, item in enumerate(value):
            _numbers_only(item, f"{where}[{i}]", key)
    elif isinstance(value, str):
        if key not in TEXT_KEYS:
            raise Refused(f"{where} is the string {value[:40]!r}: the checker reads a number there")
    elif isinstance(value, bool) or not isinstance(value, int | float):
        raise Refused(f"{where} is {value!r}: the checker reads a number there")


class ReadKeys(dict):
    """A JSON object that records which of its keys the checker read, so that a key it never reads is refused
    (:func:`unread_keys`) rather than shown beside a confirmed certificate as if it had been checked."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.read: set = set()

    def __getitem__(self, key):
        self.read.add(key)
        return super().__getitem__(key)

    def get(self, key, default=None):
        self.read.add(key)
        return super().get(key, default)

    def items(self):
        self.read.update(self.keys())
        return super().items()

    def values(self):
        self.read.update(self.keys())
        return super().values()


def tracked(value):
    """``value`` (parsed JSON) with every object a :class:`ReadKeys`."""
    if isinstance(value, dict):
        return ReadKeys({key: tracked(item) for key, item in dict.items(value)})
    if isinstance(value, list):
        return [tracked(item) for item in value]
    return value


def unread_keys(value, where: str) -> list[str]:
    """The paths of the keys of ``value``'s :class:`ReadKeys` objects that were never read."""
    found = []
    if isinstance(value, ReadKeys):
        found += [f"{where}.{key}" for key in dict.keys(value) if key not in value.read]
        for key, item in dict.items(value):
            found += unread_keys(item, f"{where}.{key}")
    elif isinstance(value, list):
        for i, item in enumerate(value):
            found += unread_keys(item, f"{where}[{i}]")
    return found


def _formula_exprs(spec, path: str, out: dict) -> dict:
    """``path -> expr`` of every formula side and formula variable of ``spec``."""
    if isinstance(spec, dict) and spec.get("quantity") == "formula":
        out[path] = spec.get("expr")
        for name, value in (spec.get("vars") or {}).items() if isinstance(spec.get("vars"), dict) else ():
            _formula_exprs(value, f"{path}.{name}", out)
    return out


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
    max_depth = json_depth(text)
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
