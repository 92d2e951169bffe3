"""The proof behind a confirmation: what the pins share to compute both sides in exact or interval arithmetic.

Each pin (:class:`sparseact.verify.pins.Pin`) carries a function ``certificate -> (lhs, rhs)``
(:data:`RigorousSides`) returning :class:`~sparseact.verify.exact.Real` values: exact rationals where the side is
rational in the instance (every float of a file is the dyadic rational it denotes, so networks on the cube, Fourier
coefficients, sensitivities at rational ``rho``, finite sums and counts are exact), rigorous enclosures where
``sqrt``, ``log`` or ``exp`` enter. The function reads the same instance as the pin's float pass (its
:class:`~sparseact.verify.recompute.Statement`, which has already checked the instance's shape, ranges and recorded
variables) and recomputes from it, in :mod:`sparseact.verify.exact`, the statement's two sides; hypotheses of the
statement that are comparisons (class membership, a tail below ``eps``) are decided there too. The functions are
declared with their pins, by claim (:mod:`sparseact.verify.pins`); this module holds what several claims share: the
exact value of every quantity of a certificate (:func:`quantity`), the sizes and parameters of an instance (exact,
or enclosed), and generic pins (:func:`_quantity_vs`, :func:`_count_vs_one`). A pin with no such function has no
rigorous evaluation, and its certificates are not confirmed.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from fractions import Fraction

import numpy as np

from sparseact.verify import exact as ex
from sparseact.verify.exact import Real, real
from sparseact.verify.recompute import (
    MAX_ENUMERATION_DIM,
    MAX_NEURONS,
    MAX_RADEMACHER_M,
    Refused,
    _integer,
    _network,
    _network_cube,
    _parameter,
    _sizes_sk,
    _spec,
)

#: Both sides of a pinned statement, ``(lhs, rhs)``, each exact or a rigorous enclosure.
RigorousSides = tuple[Real, Real]

#: What the checker decides exactly for a side of these quantity kinds, beyond the arithmetic of the margin: said on
#: every certificate view (:func:`sparseact.publish.ledger.certificate_fields`), since the stored numbers are doubles
#: that a reader checking them by hand may find a rounding error off the class's bounds.
_SIGNED_SAMPLE_DECISIONS = (
    "every stored double is read as the rational it denotes; from them, exactly: each preactivation "
    "<w_j, x_i> - b_j (so which neurons are active: at most k on every sample point), at most s neurons per network, "
    "all 2^m distinct sign vectors, and the radius R = max_i ||x_i|| of the sample (the R shown is its rounding); a "
    "network whose ||u||_inf max_j ||w_j|| or ||u||_inf max_j |b_j| exceeds W or B by a rounding error counts with u "
    "multiplied by the largest factor f <= 1 that puts it in the class (enclosed in interval arithmetic): every term "
    "is then the value of a network of the class, so their mean is a lower bound"
)
EXACT_DECISIONS: dict[str, str] = {
    kind: _SIGNED_SAMPLE_DECISIONS
    for kind in ("rademacher_lower_bound", "first_term_lower_bound", "second_term_lower_bound")
}


# ---------------------------------------------------------------------------
# Quantities, exact
# ---------------------------------------------------------------------------


def _network_on_cube(network: dict) -> tuple[np.ndarray, np.ndarray, np.ndarray, int]:
    """``X`` (integers), the active sets, ``D h`` on the cube (Python integers) and ``D``."""
    _network_cube(network)  # the size limits
    X = ex.cube_int(_network(network)[1].shape[1])
    active, values, D = ex.network_values(network, X)
    return X, active, values, D


def _scaled_table(function: dict) -> tuple[np.ndarray, int]:
    """``D f`` on the cube (Python integers, hypercube order) and ``D``."""
    if "network" in function:
        _, _, values, D = _network_on_cube(function["network"])
        return values, D
    if "truth_table" in function:
        ints, D = ex.scaled(function["truth_table"], "truth_table")
        n = len(ints).bit_length() - 1
        if len(ints) != 1 << n or n > MAX_ENUMERATION_DIM:
            raise Refused("a truth table has 2^n entries, n <= MAX_ENUMERATION_DIM")
        return np.array(ints, dtype=object), D
    if "halfspace" in function:
        w = function["halfspace"]["w"]
        if not isinstance(w, list) or len(w) > MAX_ENUMERATION_DIM:
            raise Refused(f"a halfspace on at most {MAX_ENUMERATION_DIM} coordinates")
        pre, _ = ex.preactivations([w], [function["halfspace"]["b"]], ex.cube_int(len(w)))
        return (pre[:, 0] > 0).astype(np.int64).astype(object), 1
    if "monomial" in function:
        n = _integer(function.get("n"), "n", 0, MAX_ENUMERATION_DIM)
        X = ex.cube_int(n)
        return np.prod(X[:, list(function["monomial"])], axis=1).astype(object), 1
    raise Refused(f"unknown function spec {sorted(function)}")


def _point(x) -> list[Fraction]:
    if not isinstance(x, list):
        raise Refused("a point is a list of numbers")
    return [ex.rational(v, "x") for v in x]


def _value_at(function: dict, x: list) -> Fraction:
    """``f(x)`` at one point, exact."""
    point = _point(x)
    if "network" in function:
        u, W, b = (function["network"][key] for key in ("u", "W", "b"))
        _network(function["network"])
        if len(point) != len(W[0]) if W else 0:
            raise Refused("the point's dimension is not the network's")
        total = Fraction(0)
        for uj, wj, bj in zip(u, W, b, strict=True):
            pre = sum((ex.rational(w, "W") * xi for w, xi in zip(wj, point, strict=True)), Fraction(0)) - ex.rational(
                bj, "b"
            )
            total += ex.rational(uj, "u") * max(pre, Fraction(0))
        return total
    table, D = _scaled_table(function)
    index = sum(1 << i for i, v in enumerate(point) if v == -1)
    if not all(v in (1, -1) for v in point):
        raise Refused("a function on the cube is evaluated at a point of {-1,1}^n")
    return Fraction(table[index], D)


def _active_count(network: dict, x: list) -> int:
    point = _point(x)
    _network(network)
    denominator = math.lcm(*(q.denominator for q in point)) if point else 1
    X = np.array([[int(v * denominator) for v in point]], dtype=object)
    pre, _ = ex.preactivations(network["W"], [ex.rational(v, "b") * denominator for v in network["b"]], X)
    return int(np.count_nonzero(pre > 0))


def quantity(spec: dict) -> Fraction | Real:
    """The exact value (a lower bound's: proved, see :func:`_membership`) of a quantity of a certificate.

    The quantities are those of :mod:`sparseact.verify.certificates`.
    """
    kind = spec.get("quantity")
    if kind == "value":
        return _value_at(spec["function"], spec["x"])
    if kind == "active_count":
        return Fraction(_active_count(spec["network"], spec["x"]))
    if kind in ("max_active", "sparse_probability"):
        _, active, _, _ = _network_on_cube(spec["network"])
        counts = active.sum(axis=1)
        if kind == "max_active":
            return Fraction(int(counts.max()))
        k = _integer(spec.get("k"), "k", 0, MAX_NEURONS)
        return Fraction(int(np.count_nonzero(counts <= k)), counts.size)
    if kind == "average_sensitivity":
        return ex.average_sensitivity(*_scaled_table(spec["function"]))
    if kind == "noise_sensitivity":
        return ex.noise_sensitivity(*_scaled_table(spec["function"]), ex.rational(spec["rho"], "rho"))
    if kind == "fourier_tail":
        table, D = _scaled_table(spec["function"])
        coefficients = ex.walsh_integers(table)
        degree = _integer(spec.get("degree"), "degree", 0, MAX_ENUMERATION_DIM)
        total = sum(int(v) ** 2 for t, v in enumerate(coefficients) if bin(t).count("1") > degree)
        return Fraction(total, (table.size * D) ** 2)
    if kind == "correlation_with_sum":
        table, D = _scaled_table(spec["function"])
        n = table.size.bit_length() - 1
        sums = ex.cube_int(n).sum(axis=1).astype(object)
        return Fraction(int(np.sum(table * sums)), table.size * D)
    if kind in ("transition_probability", "lemma9_U"):
        X, active, values, D = _network_on_cube(spec["network"])
        n, rows = X.shape[1], np.arange(len(X))
        total = Fraction(0)
        for i in range(n):
            same = (active == active[rows ^ (1 << i)]).all(axis=1)
            if kind == "transition_probability":
                total += Fraction(int(np.count_nonzero(~same)), len(X) * n)
            else:
                diff = (values - ex.flip(values, i))[same]
                total += Fraction(int(np.sum(diff * diff)), 4 * len(X) * D * D)
        return total
    if kind == "concave_activation_sum":
        _, active, _, _ = _network_on_cube(spec["network"])
        n = len(spec["network"]["W"][0])
        total = Real(0)
        for j in range(active.shape[1]):
            p = Fraction(int(active[:, j].sum()), active.shape[0])
            if p > 0:
                total = total + p * ex.sqrt(n * ex.log(1 / p))
        return total / n
    if kind == "lemma9_wR":
        X, active, _, _ = _network_on_cube(spec["network"])
        u = [ex.rational(v, "u") for v in spec["network"]["u"]]
        W = [[ex.rational(v, "W") for v in row] for row in spec["network"]["W"]]
        total = Fraction(0)
        for row in active:
            vector = [sum((u[j] * W[j][i] for j in np.flatnonzero(row)), Fraction(0)) for i in range(X.shape[1])]
            total += sum(v * v for v in vector)
        return total / len(X)
    if kind == "rademacher_lower_bound":
        return _signed_mean(spec, _rademacher_term)
    if kind == "first_term_lower_bound":
        return _signed_mean(spec, _first_term)
    if kind == "second_term_lower_bound":
        return _signed_mean(spec, _second_term)
    if kind == "cell_sizes_sum":
        X = [_point(x) for x in spec["X"]]
        pre = _sample_preactivations(spec["network"], X)
        k = _integer(spec.get("k"), "k", 1, MAX_NEURONS)
        if any(sum(1 for v in row if v > 0) > k for row in pre):
            raise Refused(f"cell_sizes_sum: the network is not {k}-sparsely activated on the sample")
        return Fraction(sum(1 for row in pre for v in row if v >= 0))
    if kind == "orthogonal_residual":
        Z = [[ex.rational(v, "Z") for v in row] for row in spec["Z"]]
        t, r = (_point(spec[key]) for key in ("t", "r"))
        if any(sum((row[j] * ri for row, ri in zip(Z, r, strict=True)), Fraction(0)) != 0 for j in range(len(Z[0]))):
            raise Refused("orthogonal_residual: Z^T r is not exactly 0 (r must be recorded exactly)")
        return sum((a * b for a, b in zip(r, t, strict=True)), Fraction(0))
    raise Refused(f"unknown quantity {kind!r}")


def _over_common_denominator(values: list[Fraction]) -> tuple[list[int], int]:
    """``values`` as integers over one denominator, ``(numerators, denominator)``: sums of products of them are
    integer sums, where :class:`~fractions.Fraction` arithmetic would reduce at every step."""
    denominator = math.lcm(*(v.denominator for v in values))
    return [v.numerator * (denominator // v.denominator) for v in values], denominator


def _sample_preactivations(network: dict, X: list[list[Fraction]]) -> list[list[Fraction]]:
    """``<w_j, x_i> - b_j`` for every point ``x_i`` of ``X`` (rows) and neuron ``j`` (columns), exactly."""
    _network(network)
    W = [_over_common_denominator([ex.rational(v, "W") for v in row]) for row in network["W"]]
    b = [ex.rational(v, "b") for v in network["b"]]
    pre = []
    for x, dx in map(_over_common_denominator, X):
        row = []
        for (w, dw), bj in zip(W, b, strict=True):
            dot = sum(wk * xk for wk, xk in zip(w, x, strict=True))
            row.append(Fraction(dot * bj.denominator - bj.numerator * dw * dx, dw * dx * bj.denominator))
        pre.append(row)
    return pre


def _membership(
    network: dict, X: list[list[Fraction]], s: int, k: int, W: Fraction, B: Fraction, t: int
) -> tuple[list[list[Fraction]], Real]:
    """The preactivations on the sample and the factor ``f`` that puts the network in ``H_{n,s,k}^{W,B}`` there.

    ``s`` and ``k`` are decided exactly; the scales are met by multiplying ``u`` by ``f = min(1, W/(||u||_inf
    max_j ||w_j||_2), B/(||u||_inf max_j |b_j|))`` (the active sets do not change, the network's values scale by
    ``f``), so a network that exceeds ``W`` or ``B`` by a rounding error counts with ``f`` slightly below 1. Whether a
    factor is below 1 is decided in rationals (``W < 0`` or ``W^2 < ||u||_inf^2 max_j ||w_j||_2^2``; ``B <
    ||u||_inf max_j |b_j|``), and only such a factor is enclosed.
    """
    pre = _sample_preactivations(network, X)
    scale = max((abs(ex.rational(v, "u")) for v in network["u"]), default=Fraction(0))
    weights = max((sum(ex.rational(v, "W") ** 2 for v in row) for row in network["W"]), default=Fraction(0))
    biases = max((abs(ex.rational(v, "b")) for v in network["b"]), default=Fraction(0))
    broken = [
        name
        for name, ok in (
            (f"at most s={s} neurons", len(network["u"]) <= s),
            (f"at most k={k} active on every sample point", all(sum(1 for v in row if v > 0) <= k for row in pre)),
        )
        if not ok
    ]
    if broken:
        raise Refused(f"network {t} is not in the class ({'; '.join(broken)})")
    below = []
    if scale * scale * weights > 0 and (W < 0 or W * W < scale * scale * weights):
        below.append(Real(W) / ex.sqrt(scale * scale * weights))
    if scale * biases > 0 and B < scale * biases:
        below.append(Real(B) / (scale * biases))
    return pre, ex.minimum(*below) if below else Real(1)


def _rademacher_term(network: dict, pre: list[list[Fraction]], zeta: list[int], X: list) -> Fraction:
    u = [ex.rational(v, "u") for v in network["u"]]
    return sum(
        (
            z * sum((uj * max(p, Fraction(0)) for uj, p in zip(u, row, strict=True)), Fraction(0))
            for z, row in zip(zeta, pre, strict=True)
        ),
        Fraction(0),
    ) / len(X)


def _first_term(network: dict, pre: list[list[Fraction]], zeta: list[int], X: list) -> Fraction:
    u = [ex.rational(v, "u") for v in network["u"]]
    b = [ex.rational(v, "b") for v in network["b"]]
    total = Fraction(0)
    for j, (uj, bj) in enumerate(zip(u, b, strict=True)):
        for z, row in zip(zeta, pre, strict=True):
            if row[j] >= 0:
                total += z * uj * (row[j] + bj)  # <w_j, x_i> = (<w_j, x_i> - b_j) + b_j
    return total / len(X)


def _second_term(network: dict, pre: list[list[Fraction]], zeta: list[int], X: list) -> Fraction:
    u = [ex.rational(v, "u") for v in network["u"]]
    b = [ex.rational(v, "b") for v in network["b"]]
    return sum(
        (
            z * uj * bj
            for j, (uj, bj) in enumerate(zip(u, b, strict=True))
            for z, row in zip(zeta, pre, strict=True)
            if row[j] >= 0
        ),
        Fraction(0),
    ) / len(X)


def _signed_mean(spec: dict, term: Callable) -> Real:
    """Mean over the listed sign vectors of ``term`` for one network of the class each (membership decided here)."""
    X = [_point(x) for x in spec["X"]]
    if not 1 <= len(X) <= MAX_RADEMACHER_M:
        raise Refused(f"refused: a signed sample of m <= {MAX_RADEMACHER_M} points")
    s, k = _sizes_sk(spec)
    W, B = ex.rational(spec["W"], "W"), ex.rational(spec["B"], "B")
    zetas, networks = spec["zetas"], spec["networks"]
    if len(zetas) != len(networks) or not zetas:
        raise Refused("one network per sign vector")
    total = Real(0)
    for t, (zeta, network) in enumerate(zip(zetas, networks, strict=True)):
        if len(zeta) != len(X) or not all(z in (1, -1) for z in zeta):
            raise Refused("sign vectors must be in {-1,1}^m")
        pre, factor = _membership(network, X, s, k, W, B, t)
        total = total + factor * term(network, pre, [int(z) for z in zeta], X)
    return total / len(zetas)


# ---------------------------------------------------------------------------
# Network sizes and parameters, exact or enclosed
# ---------------------------------------------------------------------------


def _sizes(network: dict) -> tuple[int, int, int, Real, Real]:
    """``n, s, k, W, B`` of Definition 2: ``W = ||u||_inf max_j ||w_j||_2`` enclosed (``W^2`` is rational)."""
    _, active, _, _ = _network_on_cube(network)
    u = [abs(ex.rational(v, "u")) for v in network["u"]]
    scale = max(u, default=Fraction(0))
    weights = max((sum(ex.rational(v, "W") ** 2 for v in row) for row in network["W"]), default=Fraction(0))
    biases = max((abs(ex.rational(v, "b")) for v in network["b"]), default=Fraction(0))
    k = max(1, int(active.sum(axis=1).max()))
    return len(network["W"][0]), len(u), k, ex.sqrt(scale * scale * weights), Real(scale * biases)


def _p(c: dict, side: str, name: str) -> Real:
    """A free parameter of the statement, exactly as the file gives it."""
    return real(_parameter(c, side, name), name)


def _nested(c: dict, side: str, formula: str, name: str) -> Real:
    spec = _parameter(c, side, formula)
    return real(spec["vars"][name], name)


def _quantity_side(c: dict, side: str, kind: str) -> Real:
    return Real(quantity(_spec(c, side, kind)))


# ---------------------------------------------------------------------------
# Generic pins: a quantity against a bound
# ---------------------------------------------------------------------------


def _quantity_vs(kind: str, rhs: Callable[[dict], Real]) -> Callable[[dict], RigorousSides]:
    """A pin whose left side is the quantity ``kind`` and whose right side ``rhs(certificate)``."""
    return lambda c: (_quantity_side(c, "lhs", kind), rhs(c))


def _constant(value) -> Callable[[dict], Real]:
    """A right side that is the number ``value``, exactly, whatever the certificate."""
    return lambda c: Real(Fraction(value))


def _count_vs_one(kind: str = "active_count") -> Callable[[dict], RigorousSides]:
    """A pin whose left side is the count ``kind`` (active neurons, by default) and whose right side is 1."""
    return _quantity_vs(kind, _constant(1))
