"""The verifier's pins of the checks of ``theorem13``, read by path (:mod:`sparseact.verify.pins`)."""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np

from sparseact.verify import exact as ex
from sparseact.verify.declarations import read_checks
from sparseact.verify.exact import Real, real
from sparseact.verify.pins import Pin
from sparseact.verify.recompute import (
    MAX_NEURONS,
    Refused,
    Sides,
    Statement,
    _dimension,
    _flip,
    _integer,
    _network,
    _network_sizes,
    _number,
    _parameter,
    _same,
    _signs,
    _spec,
    _table,
    evaluate_quantity,
)
from sparseact.verify.rigorous import RigorousSides, _count_vs_one, _p, _quantity_side, _sizes, _value_at


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


def _junta_corner(c: dict) -> Sides:
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


# ---------------------------------------------------------------------------
# Both sides in exact or interval arithmetic (the proof; shared evaluators: sparseact.verify.rigorous)
# ---------------------------------------------------------------------------


def _theorem13_junta_corner_rigorous(c: dict) -> RigorousSides:
    p, n = _p(c, "rhs", "p"), _p(c, "rhs", "n")
    return _quantity_side(c, "lhs", "value"), ex.sqrt(p) * ex.sqrt(n) + p


def _junta_computes_rigorous(c: dict) -> RigorousSides:
    network = {key: _parameter(c, "lhs", key) for key in ("u", "W", "b")}
    x, V = _junta_instance(c, "rhs")
    T = _parameter(c, "rhs", "T")
    return Real(_value_at({"network": network}, x)), real(T[sum(((1 - x[v]) // 2) << t for t, v in enumerate(V))], "T")


def _junta_indicator_rigorous(c: dict) -> RigorousSides:
    x, V = _junta_instance(c, "rhs")
    w, threshold = _parameter(c, "lhs", "w"), _p(c, "lhs", "c")
    value = ex.maximum(
        sum((ex.rational(wi, "w") * xi for wi, xi in zip(w, x, strict=True)), Fraction(0)) - threshold, 0
    )
    return value, Real(1 if all(x[i] == w[i] for i in V) else 0)


def _junta_scale_rigorous(c: dict) -> RigorousSides:
    """The comparison the recorded sides name, among W <= sqrt(p), B <= p, W <= sqrt(log2 s), B <= log2 s."""
    network = {key: _parameter(c, "lhs", key) for key in ("u", "W", "b")}
    p, s = _p(c, "rhs", "p"), _p(c, "rhs", "s")
    _, _, _, W, B = _sizes(network)
    log2s = ex.log(s) / ex.log(2)
    recorded = (ex.rational(c["lhs_value"], "lhs_value"), ex.rational(c["rhs_value"], "rhs_value"))
    for value, limit in ((W, ex.sqrt(p)), (B, p), (W, ex.sqrt(log2s)), (B, log2s)):
        if all(
            abs(r - Real(v).bounds()[0]) <= 1e-9 * max(1, abs(r)) for r, v in zip(recorded, (value, limit), strict=True)
        ):
            return value, limit
    raise Refused("the recorded sides are none of W <= sqrt(p), B <= p, W <= sqrt(log2 s), B <= log2 s")


#: The checks of the claim, read from its checks.yaml as data (their ids key :data:`PINS`).
CHECKS = read_checks("theorem13")

#: check id -> its pin (the checks of ``theorem13``): the statement it refutes with its float pass, both sides in
#: exact or interval arithmetic, and the text its certificate carries (:class:`~sparseact.verify.pins.Pin`).
PINS: dict[str, Pin] = {
    CHECKS.junta_computes.id: Pin(
        Statement(
            "theorem13-proof", "==", "the proof's network h equals the p-junta f (proof of Theorem 13)", _junta_computes
        ),
        _junta_computes_rigorous,
    ),
    CHECKS.junta_indicator.id: Pin(
        Statement(
            "theorem13-proof",
            "==",
            "sigma(<w_j, x> - b_j) = 1{x_i = w_ji for all i in V} (proof of Theorem 13)",
            _junta_indicator,
        ),
        _junta_indicator_rigorous,
    ),
    CHECKS.junta_sparsity.id: Pin(
        Statement(
            "theorem13-proof",
            "<=",
            "at most one neuron of the proof's network is active (proof of Theorem 13)",
            _junta_sparsity,
        ),
        _count_vs_one(),
    ),
    CHECKS.junta_corner.id: Pin(
        Statement(
            "theorem13-proof",
            "<=",
            "J_{n,p} in H_{n,s,1}^{sqrt(p),p} for p <= floor(log2 s) (proof of Theorem 13), through |h(x)| <= "
            "k(W sqrt(n) + B) for every h of the class (theorem8-proof-CH)",
            _junta_corner,
        ),
        _theorem13_junta_corner_rigorous,
        {
            "statement": "J_{n,p} in H_{n,s,1}^{sqrt(p), p} for every p <= floor(log2 s), at p = 0",
            "paper_ref": "Theorem 13 (proof)",
            "finding": "out-of-range",
            "lhs_label": "f(x) for the 0-junta f = 1 (a constant)",
            "rhs_label": "k (W sqrt(n) + B) at k = 1, W = sqrt(p), B = p: the largest |h(x)| over H_{n,s,1}^{sqrt(p),p} (theorem8-proof-CH)",  # noqa: E501
            "expr": {
                "rhs": "sqrt(p)*sqrt(n) + p",
            },
        },
    ),
    CHECKS.junta_scale.id: Pin(
        Statement(
            "theorem13-proof",
            "<=",
            "the proof's network lies in H_{n,s,1}^{sqrt(p),p} (proof of Theorem 13)",
            _junta_scale,
        ),
        _junta_scale_rigorous,
    ),
}
