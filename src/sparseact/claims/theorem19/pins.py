"""The verifier's pins of the checks of ``theorem19``, read by path (:mod:`sparseact.verify.pins`)."""

from __future__ import annotations

import itertools
from collections.abc import Callable
from fractions import Fraction

import numpy as np

from sparseact import bounds
from sparseact.verify import exact as ex
from sparseact.verify.declarations import read_checks
from sparseact.verify.exact import Real, real
from sparseact.verify.pins import Pin
from sparseact.verify.recompute import (
    MAX_NEURONS,
    Refused,
    Sides,
    Statement,
    _integer,
    _number,
    _parameter,
    _sizes_sk,
    _spec,
    cube,
    evaluate_quantity,
)
from sparseact.verify.rigorous import RigorousSides, _p, _point, _quantity_side


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


# ---------------------------------------------------------------------------
# Both sides in exact or interval arithmetic (the proof; shared evaluators: sparseact.verify.rigorous)
# ---------------------------------------------------------------------------


def _sample_radius(c: dict) -> tuple[int, int, int, int, Real, Real, Real]:
    lhs = _spec(c, "lhs", "rademacher_lower_bound")
    X = [_point(x) for x in lhs["X"]]
    R = ex.sqrt(max(sum(v * v for v in x) for x in X))
    return len(X), len(X[0]), *_sizes_sk(lhs), real(lhs["W"], "W"), real(lhs["B"], "B"), R


def _theorem19_rhs_rigorous(kind: str) -> Callable[[dict], RigorousSides]:
    def sides(c: dict) -> RigorousSides:
        m, n, s, k, W, B, R = _sample_radius(c)
        if kind in ("eq1", "eq1-corrected") and k != 1:
            raise Refused(f"eq. (1) is stated for the class H_{{n,s,1}}^{{W,B}}: the instance's class has k = {k}")
        if kind == "eq1":
            rhs = (W * R + B) * ex.sqrt(s * n * ex.log(m * (R + B))) / ex.sqrt(m)
        elif kind == "eq1-corrected":
            rhs = (W * R + B) * ex.sqrt(s * n * ex.maximum(1, ex.log(m * (R + B)))) / ex.sqrt(m)
        elif kind == "eq15":
            rhs = (W * R + B) * ex.sqrt(s * n * k * ex.log(k * m * (R + B))) / ex.sqrt(m)
        else:
            rhs = (W * R + B) * ex.sqrt(s * k) / ex.sqrt(m)
        return _quantity_side(c, "lhs", "rademacher_lower_bound"), rhs

    return sides


def _theorem19_eq12_rigorous(c: dict) -> RigorousSides:
    lhs = _spec(c, "lhs", "first_term_lower_bound")
    X = [_point(x) for x in lhs["X"]]
    m = len(X)
    if m > 6:
        raise Refused("refused: (12)'s right side is enclosed over all 2^m subsets and sign vectors, m <= 6")
    signs = list(itertools.product((1, -1), repeat=m))
    best = Real(0)
    for mask in range(1, 2**m):
        rows = [i for i in range(m) if (mask >> i) & 1]
        total = Real(0)
        for zeta in signs:
            vector = [sum((zeta[i] * X[i][j] for i in rows), Fraction(0)) for j in range(len(X[0]))]
            total = total + ex.sqrt(sum(v * v for v in vector))
        best = ex.maximum(best, total / len(signs)) if mask > 1 else total / len(signs)
    return _quantity_side(c, "lhs", "first_term_lower_bound"), _integer(lhs.get("s"), "s", 1, MAX_NEURONS) * real(
        lhs["W"], "W"
    ) / m * best


def _theorem19_printed_cells_rigorous(c: dict) -> RigorousSides:
    """(14) (first term) or (8) (second term, c = 2) with the printed cells, at the sample's m, n, R = max ||x_i||
    (enclosed: R is the square root of a rational) and the class's s, W, B."""
    kind = c["lhs"].get("quantity") if isinstance(c["lhs"], dict) else None
    if kind not in ("first_term_lower_bound", "second_term_lower_bound"):
        raise Refused(f"lhs must be a first_term_lower_bound or second_term_lower_bound quantity, got {kind!r}")
    lhs = _spec(c, "lhs", kind)
    X = [_point(x) for x in lhs["X"]]
    m, n, s = len(X), len(X[0]), _integer(lhs.get("s"), "s", 1, MAX_NEURONS)
    sqrt, log = ex.sqrt, ex.log
    if kind == "first_term_lower_bound":
        W = real(lhs["W"], "W")
        R = sqrt(max(sum(v * v for v in x) for x in X))
        return _quantity_side(c, "lhs", kind), 4 * W * R * sqrt(n * s * log(m * R)) / sqrt(m)
    B = real(lhs["B"], "B")
    return _quantity_side(c, "lhs", kind), 4 * B * sqrt(s * n * 2 * log(m * B)) / sqrt(m)


def _theorem19_cells_rigorous(c: dict) -> RigorousSides:
    lhs = _spec(c, "lhs", "cell_sizes_sum")
    m, k = len(lhs["X"]), _integer(lhs.get("k"), "k", 1, MAX_NEURONS)
    return _quantity_side(c, "lhs", "cell_sizes_sum"), Real(m if c["relation"] == "==" else k * m)


def _theorem19_combine_rigorous(c: dict) -> RigorousSides:
    m, n, s, W, B, R, small_c = (_p(c, "lhs", name) for name in ("m", "n", "s", "W", "B", "R", "c"))
    sqrt, log = ex.sqrt, ex.log
    bias = 4 * B * sqrt(s * n * small_c * log(m * B)) / sqrt(m)
    weight = 4 * W * R * sqrt(n * s * log(m * R)) / sqrt(m)
    return bias + weight, (W * R + B) * sqrt(s * n * log(m * (R + B))) / sqrt(m)


#: The finding of a check whose FAIL is classed by the degenerate-corner rule (``[<class>, out-of-range]`` in its
#: ``checks.yaml``): the checker expects ``out-of-range`` when the certificate's violation is in a log corner
#: (:func:`sparseact.verify.corners.certificate_in_corner`), the class otherwise.
_CORNER_RULE = ("statement-error", "out-of-range")


#: The checks of the claim, read from its checks.yaml as data (their ids key :data:`PINS`).
CHECKS = read_checks("theorem19")

#: check id -> its pin (the checks of ``theorem19``): the statement it refutes with its float pass, both sides in
#: exact or interval arithmetic, and the text its certificate carries (:class:`~sparseact.verify.pins.Pin`).
PINS: dict[str, Pin] = {
    CHECKS.scale.id: Pin(
        EQ1,
        _theorem19_rhs_rigorous("eq1"),
        {
            "statement": "R_H(S) <= (WR+B) sqrt(s n log(m(R+B)))/sqrt(m) for every sample with ||x|| <= R (eq. (1))",
            "paper_ref": "Section 5: Theorem 19 (eq. (1)), eq. (15), Conjecture 20 (eq. (16))",
            "finding": "out-of-range",
            "lhs_label": "R_H(S)",
            "rhs_label": "eq. (1)",
            "expr": {
                "rhs": "(W*R+B)*sqrt(s*n*log(m*(R+B)))/sqrt(m)",
            },
        },
    ),
    CHECKS.bound.id: Pin(
        EQ1,
        _theorem19_rhs_rigorous("eq1"),
        {
            "statement": "R_{H_{n,s,1}^{W,B}}(S) <= (WR+B) sqrt(s n log(m(R+B))) / sqrt(m) (1), for samples with ||x|| <= R",
            "paper_ref": "Section 5: Theorem 19 (eq. (1)), eq. (15), Conjecture 20 (eq. (16))",
            "finding": _CORNER_RULE,
            "lhs_label": "R_H(S)",
            "rhs_label": "eq. (1)",
            "expr": {
                "rhs": "(W*R+B)*sqrt(s*n*log(m*(R+B)))/sqrt(m)",
            },
        },
    ),
    CHECKS.conj20_exact_lower.id: Pin(
        EQ16,
        _theorem19_rhs_rigorous("conj20"),
        {
            "statement": "R_{H_{n,s,k}^{W,B}}(S) <= (WR+B) sqrt(s k) / sqrt(m): no explicit dependence on n",
            "paper_ref": "Section 5: Theorem 19 (eq. (1)), eq. (15), Conjecture 20 (eq. (16))",
            "finding": "constant-factor",
            "lhs_label": "lower bound on R_H(S)",
            "rhs_label": "(16)",
            "expr": {
                "rhs": "(W*R+B)*sqrt(s*k)/sqrt(m)",
            },
        },
    ),
    CHECKS.conj20_bound.id: Pin(
        EQ16,
        _theorem19_rhs_rigorous("conj20"),
        {
            "statement": "R_{H_{n,s,k}^{W,B}}(S) <= (WR+B) sqrt(s k) / sqrt(m): no explicit dependence on n",
            "paper_ref": "Section 5: Theorem 19 (eq. (1)), eq. (15), Conjecture 20 (eq. (16))",
            "finding": "constant-factor",
            "lhs_label": "R_H(S)",
            "rhs_label": "(16)",
            "expr": {
                "rhs": "(W*R+B)*sqrt(s*k)/sqrt(m)",
            },
        },
    ),
    CHECKS.eq15_scale.id: Pin(
        EQ15,
        _theorem19_rhs_rigorous("eq15"),
        {
            "statement": "R_H(S) <= (WR+B) sqrt(snk log(km(R+B)))/sqrt(m) for every sample with ||x|| <= R (eq. (15))",
            "paper_ref": "Section 5: Theorem 19 (eq. (1)), eq. (15), Conjecture 20 (eq. (16))",
            "finding": "out-of-range",
            "lhs_label": "R_H(S)",
            "rhs_label": "eq. (15), k = <<k>>",
            "expr": {
                "rhs": "(W*R+B)*sqrt(s*n*k*log(k*m*(R+B)))/sqrt(m)",
            },
        },
    ),
    CHECKS.eq15_bound.id: Pin(
        EQ15,
        _theorem19_rhs_rigorous("eq15"),
        {
            "statement": "R_{H_{n,s,k}^{W,B}}(S) <= (WR+B) sqrt(s n k log(k m(R+B))) / sqrt(m)",
            "paper_ref": "Section 5: Theorem 19 (eq. (1)), eq. (15), Conjecture 20 (eq. (16))",
            "finding": _CORNER_RULE,
            "lhs_label": "R_H(S)",
            "rhs_label": "eq. (15), k = <<k>>",
            "expr": {
                "rhs": "(W*R+B)*sqrt(s*n*k*log(k*m*(R+B)))/sqrt(m)",
            },
        },
    ),
    CHECKS.eq12_printed.id: Pin(
        Statement(
            "eq12",
            "<=",
            "E_zeta max_h (1/m) sum_j sum_{i in I_j} zeta_i u_j <w_j, x_i> <= (1/m) max_h sum_j |u_j| ||w_j|| "
            "E_zeta ||sum_{i in I_j} zeta_i x_i|| ((12) as printed)",
            _theorem19_eq12,
        ),
        _theorem19_eq12_rigorous,
        {
            "statement": "E_zeta max_h (first term) <= max_h (1/m) sum_j |u_j| ||w_j|| E_zeta ||sum_{I_j} zeta_i x_i|| ((12) as printed)",
            "paper_ref": "Section 5: Theorem 19 (eq. (1)), eq. (15), Conjecture 20 (eq. (16))",
            "finding": "proof-slip",
            "lhs_label": "E_zeta max_h (1/m) sum_j sum_{i in I_j} zeta_i u_j <w_j, x_i> (first term of (4), explicit networks)",
            "rhs_label": "(1/m) max_h sum_j |u_j| ||w_j|| E_zeta ||sum_{i in I_j} zeta_i x_i|| (right side of (12), bounded above by W/m max over all subsets I)",  # noqa: E501
            "expr": {
                "rhs": "W/m*max(sum(abs(sum((1-2*((z>>i)&1))*x[i] for i in range(m) if (I>>i)&1)) for z in range(2**m))/2**m for I in range(2**m))",  # noqa: E501
            },
        },
    ),
    CHECKS.eq7_printed.id: Pin(
        Statement(
            "eq7",
            "==",
            "activations 1-sparse => sum_j |I_j| = m, I_j = {i : <w_j, x_i> - b_j >= 0} (eq. (7) as printed)",
            _theorem19_cells,
        ),
        _theorem19_cells_rigorous,
        {
            "statement": "activations 1-sparse => sum_j |I_j| = m, I_j = {i : <w_j, x_i> - b_j >= 0} (as printed)",
            "paper_ref": "Section 5: Theorem 19 (eq. (1)), eq. (15), Conjecture 20 (eq. (16))",
            "finding": "proof-slip",
            "lhs_label": "sum_j |I_j| with I_j = {i : <w_j, x_i> - b_j >= 0} (printed)",
            "rhs_label": "m",
            "expr": {
                "rhs": "m",
            },
        },
    ),
    CHECKS.km_printed.id: Pin(
        Statement(
            "theorem19-k-sparse-cells",
            "<=",
            "activations k-sparse => sum_j |I_j| <= k m, I_j = {i : <w_j, x_i> - b_j >= 0} (as printed)",
            _theorem19_cells,
        ),
        _theorem19_cells_rigorous,
        {
            "statement": "activations k-sparse => sum_j |I_j| <= k m, I_j = {i : <w_j, x_i> - b_j >= 0} (as printed)",
            "paper_ref": "Section 5: Theorem 19 (eq. (1)), eq. (15), Conjecture 20 (eq. (16))",
            "finding": "proof-slip",
            "lhs_label": "sum_j |I_j| with I_j = {i : <w_j, x_i> - b_j >= 0} (printed)",
            "rhs_label": "k m (k = <<k>>)",
            "expr": {
                "rhs": "k*m",
            },
        },
    ),
    CHECKS.eq8_printed_cells.id: Pin(
        Statement(
            "eq8",
            "<=",
            "second term of (4) <= 4B sqrt(snc log(mB))/sqrt(m), c = 2, with I_j = {i : <w_j, x_i> - b_j >= 0} "
            "(eq. (8) with the printed cells)",
            _theorem19_printed_cells,
        ),
        _theorem19_printed_cells_rigorous,
        {
            "statement": "second term of (4) <= 4 B sqrt(s n c log(mB))/sqrt(m) with I_j = {i : <w_j, x_i> - b_j >= 0} (as printed)",
            "paper_ref": "Section 5: Theorem 19 (eq. (1)), eq. (15), Conjecture 20 (eq. (16))",
            "finding": "proof-slip",
            "lhs_label": "E_zeta max_h (1/m) sum_j sum_{i in I_j} zeta_i u_j b_j (second term of (4), printed I_j)",
            "rhs_label": "4 B sqrt(s n c log(mB))/sqrt(m) (8), c = 2",
            "expr": {
                "rhs": "4*B*sqrt(s*n*c*log(m*B))/sqrt(m)",
            },
        },
    ),
    CHECKS.eq14_printed_cells.id: Pin(
        Statement(
            "eq14",
            "<=",
            "first term of (4) <= 4WR sqrt(ns log(mR))/sqrt(m), with I_j = {i : <w_j, x_i> - b_j >= 0} "
            "(eq. (14) with the printed cells)",
            _theorem19_printed_cells,
        ),
        _theorem19_printed_cells_rigorous,
        {
            "statement": "first term of (4) <= 4 W R sqrt(n s log(mR))/sqrt(m) with I_j = {i : <w_j, x_i> - b_j >= 0} (as printed)",
            "paper_ref": "Section 5: Theorem 19 (eq. (1)), eq. (15), Conjecture 20 (eq. (16))",
            "finding": "proof-slip",
            "lhs_label": "E_zeta max_h (1/m) sum_j sum_{i in I_j} zeta_i u_j <w_j, x_i> (first term of (4), printed I_j)",
            "rhs_label": "4 W R sqrt(n s log(mR))/sqrt(m) (14)",
            "expr": {
                "rhs": "4*W*R*sqrt(n*s*log(m*R))/sqrt(m)",
            },
        },
    ),
    CHECKS.combine_printed.id: Pin(
        Statement(
            "theorem19-proof-combine",
            "<=",
            "(8) + (14) <= (1): 4B sqrt(snc log(mB))/sqrt(m) + 4WR sqrt(ns log(mR))/sqrt(m) "
            "<= (WR+B) sqrt(sn log(m(R+B)))/sqrt(m), Hoeffding's c >= 2 (last line of Theorem 19's proof)",
            _theorem19_combine,
        ),
        _theorem19_combine_rigorous,
        {
            "statement": "(8) + (14) give (1) (constant 1)",
            "paper_ref": "Section 5: Theorem 19 (eq. (1)), eq. (15), Conjecture 20 (eq. (16))",
            "finding": "constant-factor",
            "lhs_label": "(8) + (14): 4 (sqrt(c) B sqrt(log(mB)) + W R sqrt(log(mR))) sqrt(sn/m), c = 2",
            "rhs_label": "(1) with its printed constant 1",
            "expr": {
                "lhs": "4*(sqrt(c)*B*sqrt(log(m*B)) + W*R*sqrt(log(m*R)))*sqrt(s*n/m)",
                "rhs": "(W*R+B)*sqrt(s*n*log(m*(R+B)))/sqrt(m)",
            },
        },
    ),
    CHECKS.scale_corrected.id: Pin(
        Statement(
            "theorem19",
            "<=",
            "R_H(S) <= (WR+B) sqrt(s n max(1, log(m(R+B))))/sqrt(m), R = max ||x_i|| (eq. (1) with the log floored at 1)",
            _theorem19_eq1_corrected,
        ),
        _theorem19_rhs_rigorous("eq1-corrected"),
    ),
}
