"""Independent re-evaluation of FAIL certificates (``sparseact verify-certificate``).

A certificate (:mod:`sparseact.certificates`) says that the paper asserts
``lhs REL rhs`` and that an explicit instance violates it. This module recomputes
both sides from the JSON alone, with small evaluators written directly from the
definitions in plain numpy, sharing no code with the checks that produced the
certificate: the cube is enumerated here, Fourier coefficients come from this
module's own Walsh-Hadamard transform, noise sensitivity from applying the noise
operator coordinate by coordinate, and class membership of the networks in a
Rademacher lower bound is checked here. A certificate is confirmed when both
sides reproduce the recorded values (:data:`~sparseact.certificates.REPRODUCE_RTOL`)
and violate the asserted relation.
"""

from __future__ import annotations

import ast
import itertools
import json
import math
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from sparseact.certificates import REPRODUCE_ATOL, REPRODUCE_RTOL, RELATIONS, violated

#: Largest dimension whose cube the evaluators enumerate.
MAX_ENUMERATION_DIM = 24
#: Slack of the class-membership checks of a Rademacher lower bound (float rounding of the norms).
MEMBERSHIP_TOL = 1e-9
#: Largest |Z^T r| entry accepted as zero in an ``orthogonal_residual`` quantity.
ORTHOGONALITY_TOL = 1e-8

_FUNCTIONS = {
    "sqrt": math.sqrt, "log": math.log, "log2": math.log2, "exp": math.exp, "abs": abs, "min": min, "max": max,
    "sum": sum, "range": range, "relu": lambda t: max(t, 0.0), "floor": math.floor, "ceil": math.ceil,
    "lgamma": math.lgamma, "comb": math.comb,
}
_CONSTANTS = {"pi": math.pi, "e": math.e}
_ALLOWED_NODES = (
    ast.Expression, ast.BinOp, ast.UnaryOp, ast.BoolOp, ast.Compare, ast.IfExp, ast.Call, ast.Name, ast.Load,
    ast.Store, ast.Constant, ast.List, ast.Tuple, ast.ListComp, ast.GeneratorExp, ast.comprehension, ast.Subscript,
    ast.Slice, ast.operator, ast.unaryop, ast.boolop, ast.cmpop,
)


@dataclass(frozen=True)
class Verification:
    """Outcome of re-evaluating one certificate."""

    confirmed: bool
    lhs: float
    rhs: float
    message: str


# ---------------------------------------------------------------------------
# The cube and functions on it
# ---------------------------------------------------------------------------


def cube(n: int) -> np.ndarray:
    """All of ``{-1,1}^n``, row ``j`` with ``x_i = (-1)^(bit i of j)``."""
    if not 0 <= n <= MAX_ENUMERATION_DIM:
        raise ValueError(f"cannot enumerate the cube of dimension {n} (at most {MAX_ENUMERATION_DIM})")
    bits = (np.arange(2**n)[:, None] >> np.arange(n)[None, :]) & 1
    return 1.0 - 2.0 * bits


def _network(spec: dict) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
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


def _active_sets(network: dict) -> np.ndarray:
    _, W, _ = _network(network)
    return _preactivations(network, cube(W.shape[1])) > 0


# ---------------------------------------------------------------------------
# Quantities
# ---------------------------------------------------------------------------


def evaluate_formula(expr: str, variables: dict) -> float:
    """Evaluate a ``formula`` quantity: arithmetic, comprehensions and the whitelisted functions only."""
    tree = ast.parse(expr, mode="eval")
    for node in ast.walk(tree):
        if not isinstance(node, _ALLOWED_NODES):
            raise ValueError(f"formula {expr!r}: {type(node).__name__} is not allowed")
        if isinstance(node, ast.Call) and not (isinstance(node.func, ast.Name) and node.func.id in _FUNCTIONS):
            raise ValueError(f"formula {expr!r}: only {sorted(_FUNCTIONS)} may be called")
    namespace = {"__builtins__": {}, **_FUNCTIONS, **_CONSTANTS, **variables}
    return float(eval(compile(tree, "<formula>", "eval"), namespace))  # noqa: S307


def _check_membership(kind: str, t: int, network: dict, X: np.ndarray, s: int, k: int, W_max: float,
                      B_max: float) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``(u, W, b)`` of ``network`` after checking that it lies in ``H_{n,s,k}^{W,B}`` on the sample ``X``."""
    u, W, b = _network(network)
    scale = np.max(np.abs(u), initial=0.0)
    checks = {
        f"at most s={s} neurons": u.size <= s,
        f"at most k={k} active on every sample point": (np.count_nonzero(X @ W.T - b > 0, axis=1) <= k).all(),
        f"||u||_inf max_j ||w_j||_2 <= W={W_max}":
            scale * np.max(np.linalg.norm(W, axis=1), initial=0.0) <= W_max * (1 + MEMBERSHIP_TOL),
        f"||u||_inf max_j |b_j| <= B={B_max}": scale * np.max(np.abs(b), initial=0.0) <= B_max * (1 + MEMBERSHIP_TOL),
    }
    broken = [name for name, ok in checks.items() if not ok]
    if broken:
        raise ValueError(f"{kind}: network {t} is not in the class ({'; '.join(broken)})")
    return u, W, b


def _signed_sample(spec: dict, kind: str) -> tuple[np.ndarray, np.ndarray, list, int, int, float, float]:
    X = np.asarray(spec["X"], dtype=float)
    zetas = np.asarray(spec["zetas"], dtype=float)
    networks = spec["networks"]
    if len(networks) != len(zetas):
        raise ValueError(f"{kind}: one network per sign vector")
    if not np.all(np.abs(zetas) == 1) or zetas.shape[1] != len(X):
        raise ValueError(f"{kind}: sign vectors must be in {{-1,1}}^m, m = number of sample points")
    return X, zetas, networks, int(spec["s"]), int(spec["k"]), float(spec["W"]), float(spec["B"])


def _rademacher_lower_bound(spec: dict) -> float:
    X, zetas, networks, s, k, W_max, B_max = _signed_sample(spec, "rademacher_lower_bound")
    correlations = []
    for t, (zeta, network) in enumerate(zip(zetas, networks)):
        u, W, b = _check_membership("rademacher_lower_bound", t, network, X, s, k, W_max, B_max)
        correlations.append(float(np.mean(zeta * (np.maximum(X @ W.T - b, 0.0) @ u))))
    return float(np.mean(correlations))


def _first_term_lower_bound(spec: dict) -> float:
    """Mean over the listed sign vectors of Theorem 19's first term ``(1/m) sum_j sum_{i in I_j} zeta_i u_j <w_j, x_i>``
    for one network of the class each, with ``I_j = {i : <w_j, x_i> - b_j >= 0}`` as printed."""
    X, zetas, networks, s, k, W_max, B_max = _signed_sample(spec, "first_term_lower_bound")
    values = []
    for t, (zeta, network) in enumerate(zip(zetas, networks)):
        u, W, b = _check_membership("first_term_lower_bound", t, network, X, s, k, W_max, B_max)
        total = 0.0
        for j in range(u.size):
            cell = X @ W[j] - b[j] >= 0
            total += u[j] * float(W[j] @ (zeta[cell] @ X[cell]))
        values.append(total / len(X))
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
    Z, t, r = (np.asarray(spec[key], dtype=float) for key in ("Z", "t", "r"))
    if np.max(np.abs(Z.T @ r), initial=0.0) > ORTHOGONALITY_TOL * max(1.0, np.abs(r).sum()):
        raise ValueError("orthogonal_residual: r is not orthogonal to the columns of Z")
    return float(r @ t)


def _is_prime(p: int) -> bool:
    return p >= 2 and all(p % d for d in range(2, int(math.isqrt(p)) + 1))


def _solve_mod_prime(rows: list[list[int]], labels: list[int], p: int) -> list[int] | None:
    """Gauss-Jordan elimination over Z_p in Python integers; ``None`` unless the solution is unique."""
    m = len(rows[0])
    augmented = [[v % p for v in row] + [label % p] for row, label in zip(rows, labels)]
    rank = 0
    for col in range(m):
        pivot = next((r for r in range(rank, len(augmented)) if augmented[r][col]), None)
        if pivot is None:
            return None
        augmented[rank], augmented[pivot] = augmented[pivot], augmented[rank]
        inverse = pow(augmented[rank][col], -1, p)
        augmented[rank] = [v * inverse % p for v in augmented[rank]]
        for r in range(len(augmented)):
            if r != rank and augmented[r][col]:
                factor = augmented[r][col]
                augmented[r] = [(v - factor * t) % p for v, t in zip(augmented[r], augmented[rank])]
        rank += 1
    if any(row[m] for row in augmented[m:]):
        return None
    return [augmented[i][m] for i in range(m)]


def _gf_p_solve(spec: dict) -> float:
    """A lower bound on the success probability of Gaussian elimination on ``LWR_{p,q,m}`` (Definition 15's map).

    For every secret ``w`` of ``Z_q^m`` (all of them must be listed) the labels
    ``f_w(y) = (<w, y> mod q) mod p`` of its ``N`` recorded samples are recomputed, the system
    ``<w', y> = f_w(y) (mod p)`` is solved over ``Z_p`` (``p`` prime), and the hypothesis
    ``y -> <w', y> mod p`` is compared with ``f_w`` on all of ``Z_q^m``. Returns the fraction of
    secrets recovered on every input times ``prod_{i<m} (1 - p^(i-N))``, the probability that ``N``
    uniform samples of ``Z_p^m`` have rank ``m`` (then the solution is unique, hence the one recovered).
    """
    p, q, m, N = (int(spec[key]) for key in ("p", "q", "m", "N"))
    if not _is_prime(p):
        raise ValueError(f"gf_p_solve: p = {p} is not prime")
    secrets = [tuple(int(v) for v in w) for w in spec["secrets"]]
    domain = list(itertools.product(range(q), repeat=m))
    if sorted(secrets) != domain:
        raise ValueError("gf_p_solve: the secrets must be all of Z_q^m, each once")
    if len(spec["samples"]) != len(secrets):
        raise ValueError("gf_p_solve: one sample set per secret")
    recovered = 0
    for w, samples in zip(secrets, spec["samples"]):
        samples = [[int(v) for v in y] for y in samples]
        if len(samples) != N or any(len(y) != m or not all(0 <= v < q for v in y) for y in samples):
            raise ValueError(f"gf_p_solve: secret {w}: expected {N} samples of Z_{q}^{m}")
        label = lambda y: sum(a * b for a, b in zip(w, y)) % q % p  # noqa: E731
        solution = _solve_mod_prime(samples, [label(y) for y in samples], p)
        if solution is not None and all(sum(a * b for a, b in zip(solution, y)) % p == label(y) for y in domain):
            recovered += 1
    full_rank = math.prod(1.0 - float(p) ** (i - N) for i in range(m))
    return recovered / len(secrets) * full_rank


def _rank_probability(size: int, dim: int, k: int) -> float:
    """``Pr[k uniform vectors of Z_size^dim span it] = prod_{i<dim} (1 - size^(i-k))`` (0 when ``k < dim``)."""
    return math.prod(1.0 - float(size) ** (i - k) for i in range(dim))


def _lwr_label0_kernel(spec: dict) -> float:
    """A lower bound on the success probability of the label-0 kernel attack on ``LWR_{p,q,m}`` (rounding map).

    The rounding map is ``f_w(y) = round((p/q)(<w, y> mod q)) mod p`` (ties up, ``floor((2p t + q)/(2q))``).
    The attack (``q`` prime): the samples with label 0 give homogeneous equations ``<w', y> = 0 (mod q)``;
    if their kernel is ``Z_q^m`` it outputs the constant 0, if it is a line ``span(k)`` it outputs
    ``f_{ck}`` for a non-zero ``c`` consistent with the samples. It succeeds for a secret ``w`` whenever
    (i) ``f_w^{-1}(0)`` is exactly ``w^perp = {y : <w, y> = 0 (mod q)}`` (recomputed on all of ``Z_q^m``),
    (ii) ``f_{cw} = f_w`` for every ``c in Z_q^*`` (so any consistent multiple is right) and (iii) the
    label-0 samples span ``w^perp``: with ``N`` samples, ``K ~ Bin(N, 1/q)`` of them are uniform on
    ``w^perp ~ Z_q^(m-1)``, so (iii) has probability ``sum_k Bin(N, 1/q)(k) prod_{i<m-1} (1 - q^(i-k))``.
    ``w = 0`` is credited with probability 1 (every label is 0, the kernel is ``Z_q^m``, the output 0).
    Returns the average over all secrets of ``Z_q^m`` (uniform secret) of the credited probabilities.
    """
    p, q, m, N = (int(spec[key]) for key in ("p", "q", "m", "N"))
    if not _is_prime(q):
        raise ValueError(f"lwr_label0_kernel: q = {q} is not prime")
    if not 2 <= p < q:
        raise ValueError(f"lwr_label0_kernel: need 2 <= p < q, got p = {p}, q = {q}")
    domain = list(itertools.product(range(q), repeat=m))
    spans = sum(math.comb(N, k) * (1.0 / q) ** k * (1.0 - 1.0 / q) ** (N - k) * _rank_probability(q, m - 1, k)
                for k in range(N + 1))

    def labels(w):
        return [((2 * p * (sum(a * b for a, b in zip(w, y)) % q) + q) // (2 * q)) % p for y in domain]

    total = 0.0
    for w in domain:
        if not any(w):
            total += 1.0
            continue
        f = labels(w)
        kernel = [sum(a * b for a, b in zip(w, y)) % q == 0 for y in domain]
        if [v == 0 for v in f] != kernel:
            continue
        if all(labels([c * a % q for a in w]) == f for c in range(2, q)):
            total += spans
    return total / len(domain)


def evaluate_quantity(spec: dict) -> float:
    """The value of one quantity of a certificate (see :mod:`sparseact.certificates`)."""
    kind = spec.get("quantity")
    if kind == "formula":
        variables = {name: evaluate_quantity(value) if isinstance(value, dict) else value
                     for name, value in spec.get("vars", {}).items()}
        return evaluate_formula(spec["expr"], variables)
    if kind == "value":
        return float(_evaluate(spec["function"], np.asarray([spec["x"]], dtype=float))[0])
    if kind == "active_count":
        return float(np.count_nonzero(_preactivations(spec["network"], np.asarray([spec["x"]], dtype=float)) > 0))
    if kind == "max_active":
        return float(_active_sets(spec["network"]).sum(axis=1).max())
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
        X = cube(_dimension(function))
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
    if kind == "first_term_lower_bound":
        return _first_term_lower_bound(spec)
    if kind == "cell_sizes_sum":
        return _cell_sizes_sum(spec)
    if kind == "orthogonal_residual":
        return _orthogonal_residual(spec)
    if kind == "gf_p_solve":
        return _gf_p_solve(spec)
    if kind == "lwr_label0_kernel":
        return _lwr_label0_kernel(spec)
    if kind == "lemma9_wR":
        u, W, _ = _network(spec["network"])
        weights = (_active_sets(spec["network"]) * u) @ W  # row x: w^{R_x} = sum_{j in R_x} u_j w_j
        return float(np.mean(np.sum(weights**2, axis=1)))
    raise ValueError(f"unknown quantity {kind!r}")


def _reproduces(recomputed: float, recorded: float) -> bool:
    return abs(recomputed - recorded) <= REPRODUCE_ATOL + REPRODUCE_RTOL * max(abs(recomputed), abs(recorded))


def verify_certificate(certificate: dict) -> Verification:
    """Recompute both sides of ``certificate`` and decide whether it proves the violation.

    Confirmed when each side reproduces the recorded value and the recomputed
    values violate the asserted relation.
    """
    relation = certificate.get("relation")
    if relation not in RELATIONS:
        raise ValueError(f"relation must be one of {RELATIONS}, got {relation!r}")
    try:
        lhs, rhs = evaluate_quantity(certificate["lhs"]), evaluate_quantity(certificate["rhs"])
    except (ValueError, KeyError, TypeError, ZeroDivisionError, OverflowError) as exc:
        return Verification(False, math.nan, math.nan, f"cannot evaluate: {exc}")
    problems = []
    for side, value in (("lhs", lhs), ("rhs", rhs)):
        if not _reproduces(value, float(certificate[f"{side}_value"])):
            problems.append(f"{side} recomputes to {value:.12g}, recorded {certificate[f'{side}_value']:.12g}")
    if not violated(relation, lhs, rhs):
        problems.append(f"{lhs:.12g} {relation} {rhs:.12g} holds")
    summary = f"{certificate.get('lhs_label', 'lhs')} = {lhs:.6g}, {certificate.get('rhs_label', 'rhs')} = {rhs:.6g}"
    if problems:
        return Verification(False, lhs, rhs, f"NOT confirmed ({'; '.join(problems)}): {summary}")
    return Verification(True, lhs, rhs, f"confirmed: the paper asserts lhs {relation} rhs; {summary}")


def verify_file(path: str | Path) -> Verification:
    """:func:`verify_certificate` on a certificate JSON file (a ledger row's ``certificate`` path)."""
    data = json.loads(Path(path).read_text(encoding="utf-8"))
    return verify_certificate(data.get("certificate", data))
