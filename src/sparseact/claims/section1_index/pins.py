"""The verifier's pins of the checks of ``section1_index``, read by path (:mod:`sparseact.verify.pins`)."""

from __future__ import annotations

from fractions import Fraction

from sparseact.verify.declarations import read_checks
from sparseact.verify.exact import Real
from sparseact.verify.pins import Pin
from sparseact.verify.recompute import (
    MAX_NEURONS,
    Refused,
    Sides,
    Statement,
    _integer,
    _parameter,
    _signs,
    _spec,
    evaluate_quantity,
)
from sparseact.verify.rigorous import RigorousSides, _quantity_side, quantity


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


# ---------------------------------------------------------------------------
# Both sides in exact or interval arithmetic (the proof; shared evaluators: sparseact.verify.rigorous)
# ---------------------------------------------------------------------------


def _section1_index_computes_rigorous(c: dict) -> RigorousSides:
    lhs = _spec(c, "lhs", "value")
    _, index = index_b([int(v) for v in lhs["x"]])
    return Real(quantity(lhs)), Real(Fraction(index))


def _section1_index_sparsity_rigorous(c: dict) -> RigorousSides:
    if isinstance(c["lhs"], dict) and c["lhs"].get("quantity") == "active_count":
        return _quantity_side(c, "lhs", "active_count"), Real(1)
    return Real(len(_parameter(c, "lhs", "u"))), Real(2 ** int(_parameter(c, "rhs", "b")))


#: The checks of the claim, read from its checks.yaml as data (their ids key :data:`PINS`).
CHECKS = read_checks("section1_index")

#: check id -> its pin (the checks of ``section1_index``): the statement it refutes with its float pass, both sides in
#: exact or interval arithmetic, and the text its certificate carries (:class:`~sparseact.verify.pins.Pin`).
PINS: dict[str, Pin] = {
    CHECKS.computes.id: Pin(
        Statement(
            "section1-index",
            "==",
            "Index_b(z) = sum_alpha sigma(<w_alpha, z> - b + 1/2) (Section 1)",
            _section1_index_computes,
        ),
        _section1_index_computes_rigorous,
    ),
    CHECKS.sparsity.id: Pin(
        Statement(
            "section1-index", "<=", "Index_b's network is in H_{b+2^b, 2^b, 1} (Section 1)", _section1_index_sparsity
        ),
        _section1_index_sparsity_rigorous,
    ),
}
