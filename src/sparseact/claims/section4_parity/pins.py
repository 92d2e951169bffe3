"""The verifier's pins of the checks of ``section4_parity``, read by path (:mod:`sparseact.verify.pins`)."""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable
from fractions import Fraction

import numpy as np

from sparseact.verify.declarations import Declaration, read_checks
from sparseact.verify.exact import Real
from sparseact.verify.pins import Pin
from sparseact.verify.recompute import (
    Refused,
    Sides,
    Statement,
    _integer,
    _lift,
    _parameter,
    _same_network,
    _signs,
    _spec,
    evaluate_quantity,
)
from sparseact.verify.rigorous import RigorousSides, _count_vs_one, _p, _quantity_side


def _subset(value, m: int) -> list[int]:
    if (
        not isinstance(value, list)
        or not value
        or len(set(value)) != len(value)
        or not all(isinstance(i, int) and 0 <= i < m for i in value)
    ):
        raise Refused(f"parameter S must be a non-empty set of distinct coordinates in [0, {m})")
    return list(value)


def _parity(S: list[int], y: list[int]) -> float:
    """The parity on ``S`` as a 0/1 function of ``y`` in {-1,1}^m: ``(1 + prod_{i in S} y_i) / 2``."""
    return (1 + math.prod(y[i] for i in S)) / 2


def _even_shifts(m: int) -> list[int]:
    """The shifts ``a`` of Section 4's parity construction as printed: the even integers in ``[-m, m]``."""
    return list(range(-m + m % 2, m + 1, 2))


def _printed_parity_weights(m: int, size: int, a: int) -> tuple[np.ndarray, float]:
    """``w_{S,a}`` and ``b_{S,a}`` as printed: ``w[i,j] = -1`` for ``i != j``, ``w[i,i] = 2a``, ``b = |S| + a^2 - 1/2``."""
    w = -np.ones((m, m))
    np.fill_diagonal(w, 2.0 * a)
    return w.ravel(), size + a * a - 0.5


def _printed_parity_network(m: int, size: int) -> dict:
    """Section 4's printed network ``h(x) = sum_{a even in [-m, m]} 2 relu(<w_{S,a}, x> - b_{S,a})``."""
    rows = [_printed_parity_weights(m, size, a) for a in _even_shifts(m)]
    return {"u": [2.0] * len(rows), "W": [w.tolist() for w, _ in rows], "b": [b for _, b in rows]}


def _parity_corrected_network(c: dict) -> Sides:
    S, y = _parity_instance(c, "rhs")
    lhs = _spec(c, "lhs", "value")
    if not np.array_equal(np.asarray(lhs["x"], dtype=float), _lift(y)):
        raise Refused("lhs's point is not x(y)")
    return Sides(evaluate_quantity(lhs), _parity(S, y), {"S": S, "y": y})


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


# ---------------------------------------------------------------------------
# Both sides in exact or interval arithmetic (the proof; shared evaluators: sparseact.verify.rigorous)
# ---------------------------------------------------------------------------


def _parity_rigorous(S: list[int], y: list[int]) -> Fraction:
    return Fraction(1 + math.prod(y[i] for i in S), 2)


def _identity(S: list[int], y: list[int], A: list[int]) -> Fraction:
    total = sum(y[i] for i in S)
    return sum((2 * max(Fraction(1, 2) - (total - a) ** 2, Fraction(0)) for a in A), Fraction(0))


def _parity_pin_rigorous(check: Declaration) -> Callable[[dict], RigorousSides]:
    """Both sides of ``check``'s certificate (one of :data:`CHECKS`), in exact or interval arithmetic."""
    check_id = check.id

    def sides(c: dict) -> RigorousSides:
        side = "rhs" if check_id in (CHECKS.network_printed.id, CHECKS.network_corrected.id) else "lhs"
        S, y = _parity_instance(c, side)
        total, m = sum(y[i] for i in S), len(y)
        printed_chi = Fraction(1 if total % 2 == 0 else 0)
        if check_id == CHECKS.chi_printed.id:
            return Real(printed_chi), Real(_parity_rigorous(S, y))
        if check_id == CHECKS.chi_corrected.id:
            return Real(1 if (total - len(S)) % 4 == 0 else 0), Real(_parity_rigorous(S, y))
        if check_id == CHECKS.identity_printed.id:
            return Real(_identity(S, y, _even_shifts(m))), Real(_parity_rigorous(S, y))
        if check_id == CHECKS.identity_vs_printed_chi.id:
            return Real(_identity(S, y, _even_shifts(m))), Real(printed_chi)
        if check_id == CHECKS.identity_corrected.id:
            return Real(_identity(S, y, _corrected_shifts(m, len(S)))), Real(_parity_rigorous(S, y))
        if check_id == CHECKS.identity_one_active.id:
            A = _parameter(c, "lhs", "A")
            return Real(sum(1 for a in A if Fraction(1, 2) - (total - a) ** 2 > 0)), Real(1)
        if check_id in (CHECKS.lift_printed.id, CHECKS.lift_corrected.id):
            a = int(_parameter(c, "lhs", "a"))
            inside = set(S) if check_id == CHECKS.lift_corrected.id else set(range(m))
            lhs = Fraction(1, 2) - (total - a) ** 2
            rhs = sum(
                (Fraction(2 * a) if i == j else Fraction(-1)) * (y[i] if i == j else y[i] * y[j])
                for i in inside
                for j in inside
            )
            return Real(lhs), Real(rhs - (len(S) + a * a - Fraction(1, 2)))
        return _quantity_side(c, "lhs", "value"), Real(_parity_rigorous(S, y))  # network-printed, -corrected

    return sides


def _parity_sparsity_corrected_rigorous(c: dict) -> RigorousSides:
    if isinstance(c["lhs"], dict) and c["lhs"].get("quantity") == "active_count":
        return _quantity_side(c, "lhs", "active_count"), Real(1)
    return Real(len(_parameter(c, "lhs", "b"))), 2 * _p(c, "rhs", "m")


#: The checks of the claim, read from its checks.yaml as data (their ids key :data:`PINS`).
CHECKS = read_checks("section4_parity")

#: check id -> its pin (the checks of ``section4_parity``): the statement it refutes with its float pass, both sides in
#: exact or interval arithmetic, and the text its certificate carries (:class:`~sparseact.verify.pins.Pin`).
PINS: dict[str, Pin] = {
    CHECKS.network_corrected.id: Pin(
        Statement(
            "section4-parity-network",
            "==",
            "the parity on S is h(x(y)) for the corrected network h (Section 4)",
            _parity_corrected_network,
        ),
        _parity_pin_rigorous(CHECKS.network_corrected),
    ),
    CHECKS.chi_printed.id: Pin(
        Statement(
            "section4-parity-chi",
            "==",
            "chi_S(y) = 1 iff sum_{i in S} y_i is even is the parity on S (Section 4)",
            _parity_chi,
        ),
        _parity_pin_rigorous(CHECKS.chi_printed),
        {
            "statement": "chi_S(y) = 1 iff sum_{i in S} y_i is even (the parity on S)",
            "paper_ref": "Section 4 (Hardness under arbitrary distributions)",
            "finding": "proof-slip",
            "lhs_label": "chi_S(y) (as printed)",
            "rhs_label": "parity (1 + prod_{i in S} y_i)/2",
            "expr": {
                "lhs": "1 if sum(y[i] for i in S) % 2 == 0 else 0",
                "rhs": "(1 + (-1) ** sum((1 - y[i]) // 2 for i in S)) / 2",
            },
        },
    ),
    CHECKS.identity_printed.id: Pin(
        Statement(
            "section4-parity-network",
            "==",
            "sum_{a even in [-m, m]} 2 sigma(1/2 - (sum_S y_i - a)^2) is the parity on S (Section 4)",
            _parity_identity,
        ),
        _parity_pin_rigorous(CHECKS.identity_printed),
        {
            "statement": "the network's printed shift set (a even) sums to the parity on S (what the reduction from Theorem 14 needs)",
            "paper_ref": "Section 4 (Hardness under arbitrary distributions)",
            "finding": "proof-slip",
            "lhs_label": "sum_{a in A} 2 sigma(1/2 - (sum_S y_i - a)^2), A = [-2, 0, 2]",
            "rhs_label": "parity (1 + prod_{i in S} y_i)/2",
            "expr": {
                "lhs": "sum(2 * relu(0.5 - (sum(y[i] for i in S) - a) ** 2) for a in A)",
                "rhs": "(1 + (-1) ** sum((1 - y[i]) // 2 for i in S)) / 2",
            },
        },
    ),
    CHECKS.lift_printed.id: Pin(
        Statement(
            "section4-parity-lift",
            "==",
            "1/2 - (sum_{i in S} y_i - a)^2 = <w_{S,a}, x(y)> - b_{S,a} (Section 4)",
            _parity_lift,
        ),
        _parity_pin_rigorous(CHECKS.lift_printed),
        {
            "statement": "1/2 - (sum_{i in S} y_i - a)^2 = <w_{S,a}, x(y)> - b_{S,a}",
            "paper_ref": "Section 4 (Hardness under arbitrary distributions)",
            "finding": "typo",
            "lhs_label": "1/2 - (sum_{i in S} y_i - a)^2",
            "rhs_label": "<w_{S,a}, x(y)> - b_{S,a}",
            "expr": {
                "lhs": "0.5 - (sum(y[i] for i in S) - a) ** 2",
                "rhs": "sum(w[i * m + j] * (y[i] if i == j else y[i] * y[j]) for i in range(m) for j in range(m)) - b",
            },
        },
    ),
    CHECKS.network_printed.id: Pin(
        Statement(
            "section4-parity-network",
            "==",
            "the parity on S is h(x(y)) for the printed network h (Section 4)",
            _parity_network,
        ),
        _parity_pin_rigorous(CHECKS.network_printed),
        {
            "statement": "the parity on S is h(x(y)) with h(x) = sum_a 2 sigma(<w_{S,a}, x> - b_{S,a})",
            "paper_ref": "Section 4 (Hardness under arbitrary distributions)",
            "finding": "proof-slip",
            "lhs_label": "h(x(y)), network as printed",
            "rhs_label": "parity on S",
            "expr": {
                "rhs": "(1 + (-1) ** sum((1 - y[i]) // 2 for i in S)) / 2",
            },
        },
    ),
    CHECKS.sparsity_printed.id: Pin(
        Statement(
            "section4-parity-network",
            "<=",
            "the printed network h has at most one active neuron on every x(y) (Section 4)",
            _parity_sparsity,
        ),
        _count_vs_one(),
        {
            "statement": "at most one neuron active on every x(y) (the support), s <= 2m",
            "paper_ref": "Section 4 (Hardness under arbitrary distributions)",
            "finding": "typo",
            "lhs_label": "active neurons of h at x(y)",
            "rhs_label": "k = 1",
            "expr": {
                "rhs": "1",
            },
        },
    ),
    CHECKS.chi_corrected.id: Pin(
        Statement(
            "section4-parity-chi",
            "==",
            "chi_S(y) = 1 iff sum_{i in S} y_i = |S| (mod 4) is the parity on S (corrected)",
            _parity_chi_corrected,
        ),
        _parity_pin_rigorous(CHECKS.chi_corrected),
    ),
    CHECKS.identity_vs_printed_chi.id: Pin(
        Statement(
            "section4-parity-identity",
            "==",
            "sum_{a even in [-m, m]} 2 sigma(1/2 - (sum_S y_i - a)^2) = the printed chi_S(y) (1 iff sum_S y_i even)",
            _parity_identity_vs_chi,
        ),
        _parity_pin_rigorous(CHECKS.identity_vs_printed_chi),
    ),
    CHECKS.identity_corrected.id: Pin(
        Statement(
            "section4-parity-identity",
            "==",
            "sum_{a in [-m, m], a = |S| mod 4} 2 sigma(1/2 - (sum_S y_i - a)^2) is the parity on S (corrected)",
            _parity_identity_corrected,
        ),
        _parity_pin_rigorous(CHECKS.identity_corrected),
    ),
    CHECKS.identity_one_active.id: Pin(
        Statement(
            "section4-parity-identity",
            "<=",
            "for any y in {1,-1}^m at most one ReLU of the identity is active",
            _parity_identity_one_active,
        ),
        _parity_pin_rigorous(CHECKS.identity_one_active),
    ),
    CHECKS.lift_corrected.id: Pin(
        Statement(
            "section4-parity-lift",
            "==",
            "1/2 - (sum_{i in S} y_i - a)^2 = <w_{S,a}, x(y)> - b_{S,a}, weights restricted to S (corrected)",
            _parity_lift_corrected,
        ),
        _parity_pin_rigorous(CHECKS.lift_corrected),
    ),
    CHECKS.sparsity_corrected.id: Pin(
        Statement(
            "section4-parity-network",
            "<=",
            "the corrected network has at most one active neuron on every x(y) and at "
            "most 2m neurons (Section 4, corrected)",
            _parity_sparsity_corrected,
        ),
        _parity_sparsity_corrected_rigorous,
    ),
}
