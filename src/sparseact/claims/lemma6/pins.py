"""The verifier's pins of the checks of ``lemma6``, read by path (:mod:`sparseact.verify.pins`)."""

from __future__ import annotations

import numpy as np

from sparseact.verify.declarations import read_checks
from sparseact.verify.exact import Real
from sparseact.verify.pins import Pin
from sparseact.verify.recompute import (
    Refused,
    Sides,
    Statement,
    _dimension,
    _evaluate,
    _reproduces,
    _spec,
    cube,
    evaluate_quantity,
)
from sparseact.verify.rigorous import RigorousSides, quantity


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


# ---------------------------------------------------------------------------
# Both sides in exact or interval arithmetic (the proof; shared evaluators: sparseact.verify.rigorous)
# ---------------------------------------------------------------------------


def _lemma6_identity_rigorous(c: dict) -> RigorousSides:
    lhs = _spec(c, "lhs", "average_sensitivity")
    correlation = quantity({"quantity": "correlation_with_sum", "function": lhs["function"]})
    if quantity(_spec(c, "rhs", "correlation_with_sum")) != correlation / 4:
        raise Refused("rhs is not (1/4) E_x[g(x) sum_i x_i] of lhs's g, exactly")
    return Real(quantity(lhs)), Real(correlation / 4)


def _lemma6_corrected_rigorous(c: dict) -> RigorousSides:
    lhs = _spec(c, "lhs", "average_sensitivity")
    correlation = quantity({"quantity": "correlation_with_sum", "function": lhs["function"]})
    return Real(quantity(lhs)), Real(correlation / 2)


#: The checks of the claim, read from its checks.yaml as data (their ids key :data:`PINS`).
CHECKS = read_checks("lemma6")

#: check id -> its pin (the checks of ``lemma6``): the statement it refutes with its float pass, both sides in
#: exact or interval arithmetic, and the text its certificate carries (:class:`~sparseact.verify.pins.Pin`).
PINS: dict[str, Pin] = {
    CHECKS.identity_printed.id: Pin(
        Statement(
            "lemma6-proof-identity", "==", "AS(g) = (1/4) E_x[g(x) sum_i x_i] (proof of Lemma 6)", _lemma6_identity
        ),
        _lemma6_identity_rigorous,
        {
            "statement": "AS(g) = (1/4) E_x[g(x) sum_i x_i] for w > 0",
            "paper_ref": "Lemma 6 (proof)",
            "finding": "proof-slip",
            "lhs_label": "AS(g)",
            "rhs_label": "(1/4) E_x[g(x) sum_i x_i]",
            "expr": {},
        },
    ),
    CHECKS.identity_corrected.id: Pin(
        Statement(
            "lemma6-proof-identity",
            "==",
            "AS(g) = -(1/2) E_x[g(x) sum_i x_i] for g = 1{<w, x> <= b}, w >= 0 (corrected)",
            _lemma6_corrected,
        ),
        _lemma6_corrected_rigorous,
    ),
}
