"""Pins of the checks of ``sparseact.claims.theorem19`` (see :mod:`sparseact.verify.pins`)."""

from __future__ import annotations

import numpy as np

from sparseact import bounds
from sparseact.verify.recompute import (
    MAX_NEURONS,
    Refused,
    Sides,
    Statement,
    _integer,
    _number,
    _parameter,
    _spec,
    cube,
    evaluate_quantity,
)


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
    """Eq. (1) at the instance, whose class must be ``H_{n,s,1}^{W,B}`` (a lower bound on ``R_H`` of a class with
    ``k > 1`` bounds nothing of (1)'s class); the variables as for eq. (15)."""
    lhs, (m, n, s, k, W, B, R) = _rademacher_instance(c)
    if k != 1:
        raise Refused(f"eq. (1) is stated for the class H_{{n,s,1}}^{{W,B}}: the instance's class has k = {k}")
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


#: The three printed bounds on ``R_H(S)``, each refuted by an exact (or lower) ``R_H(S)`` of a sample: eq. (1),
#: eq. (15) and Conjecture 20's eq. (16).
EQ1 = Statement(
    "theorem19", "<=", "R_H(S) <= (WR+B) sqrt(s n log(m(R+B)))/sqrt(m), R = max ||x_i|| (eq. (1))", _theorem19_eq1
)
EQ15 = Statement(
    "eq15", "<=", "R_H(S) <= (WR+B) sqrt(snk log(km(R+B)))/sqrt(m), R = max ||x_i|| (eq. (15))", _theorem19_eq15
)
EQ16 = Statement(
    "conj20", "<=", "R_H(S) <= (WR+B) sqrt(sk)/sqrt(m), R = max ||x_i|| (Conjecture 20, eq. (16))", _conjecture20
)

#: check id -> the statement it refutes (the checks of ``theorem19``).
STATEMENTS: dict[str, Statement] = {
    "theorem19/scale": EQ1,
    "theorem19/bound": EQ1,
    "theorem19/conj20-exact-lower": EQ16,
    "theorem19/conj20-bound": EQ16,
    "theorem19/eq15-scale": EQ15,
    "theorem19/eq15-bound": EQ15,
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
    "theorem19/scale-corrected": Statement(
        "theorem19",
        "<=",
        "R_H(S) <= (WR+B) sqrt(s n max(1, log(m(R+B))))/sqrt(m), R = max ||x_i|| (eq. (1) with the log floored at 1)",
        _theorem19_eq1_corrected,
    ),
}
