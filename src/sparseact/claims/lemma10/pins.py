"""The verifier's pins of the checks of ``lemma10``, read by path (:mod:`sparseact.verify.pins`)."""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np

from sparseact import bounds
from sparseact.verify import exact as ex
from sparseact.verify.declarations import read_checks
from sparseact.verify.exact import Real, real
from sparseact.verify.pins import Pin
from sparseact.verify.recompute import (
    MAX_ENUMERATION_DIM,
    Refused,
    Sides,
    Statement,
    _integer,
    _network_sizes,
    _noise_sensitivity,
    _number,
    _parameter,
    _reproduces,
    _spec,
    _table,
    cube,
    evaluate_quantity,
)
from sparseact.verify.rigorous import RigorousSides, _p, _quantity_side, _quantity_vs, _scaled_table, _sizes, quantity


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


# ---------------------------------------------------------------------------
# Both sides in exact or interval arithmetic (the proof; shared evaluators: sparseact.verify.rigorous)
# ---------------------------------------------------------------------------


def _claim21_rhs_rigorous(c: dict) -> Real:
    d = int(_spec(c, "lhs", "fourier_tail")["degree"])
    rho = _p(c, "rhs", "rho")
    ns = Real(ex.noise_sensitivity(*_scaled_table(_spec(c, "lhs", "fourier_tail")["function"]), rho.exact))
    return 2 * ns / (1 - rho**d)


def _eq17_coupling_rigorous(c: dict) -> RigorousSides:
    rho = ex.rational(_spec(c, "lhs", "noise_sensitivity")["rho"], "rho")
    return _quantity_side(c, "lhs", "noise_sensitivity"), Real(Fraction(1, math.floor(2 / (1 - rho))))


def _eq17_printed_rigorous(c: dict) -> RigorousSides:
    ns = _quantity_side(c, "lhs", "noise_sensitivity")
    return ns, 4 * ns


def _lemma10_bound_rigorous(c: dict) -> RigorousSides:
    lhs = _spec(c, "lhs", "noise_sensitivity")
    rho, C = real(lhs["rho"], "rho"), _p(c, "rhs", "C")
    n, s, k, W, B = _sizes(lhs["function"]["network"])
    bound = ex.sqrt(1 - rho) * (k**4 * W**2 * ex.log(n * s / (1 - rho)) ** 2 + k**3 * B**2 * ex.sqrt(ex.log(s)))
    return Real(quantity(lhs)), C * bound


def _eq17_corrected_rigorous(c: dict) -> RigorousSides:
    if c["relation"] == ">=":
        rho, tol = _p(c, "lhs", "rho"), _p(c, "lhs", "tol")
        r = ex.floor(2 / (1 - rho) + tol)
        return r * (1 - rho), Real(1)
    lhs = _spec(c, "lhs", "noise_sensitivity")
    rho = ex.rational(lhs["rho"], "rho")
    table, D = _scaled_table(lhs["function"])
    return Real(ex.noise_sensitivity(table, D, rho)), Real(
        ex.noise_sensitivity(table, D, 1 - Fraction(2, math.floor(2 / (1 - rho))))
    )


#: The checks of the claim, read from its checks.yaml as data (their ids key :data:`PINS`).
CHECKS = read_checks("lemma10")

#: check id -> its pin (the checks of ``lemma10``): the statement it refutes with its float pass, both sides in
#: exact or interval arithmetic, and the text its certificate carries (:class:`~sparseact.verify.pins.Pin`).
PINS: dict[str, Pin] = {
    CHECKS.claim21_tail_negative_rho.id: Pin(
        Statement(
            "claim2.1-tail",
            "<=",
            "sum_{|T|>d} fhat(T)^2 <= 2 NS_rho(f) / (1 - rho^d) (Claim 2.1, no range of rho)",
            _claim21_tail,
        ),
        _quantity_vs("fourier_tail", _claim21_rhs_rigorous),
        {
            "statement": "sum_{|T|>d} fhat(T)^2 <= 2 NS_rho(f) / (1 - rho^d) for all f (no range of rho printed)",
            "paper_ref": "Claim 2.1 (second bullet)",
            "finding": "typo",
            "lhs_label": "sum_{|T|>d} fhat(T)^2",
            "rhs_label": "2 NS_rho(f) / (1 - rho^d)",
            "expr": {
                "rhs": "2 * ns / (1 - rho**d)",
            },
        },
    ),
    CHECKS.claim21_tail.id: Pin(
        Statement(
            "claim2.1-tail-corrected",
            "<=",
            "sum_{|T|>d} fhat(T)^2 <= 2 NS_rho(f) / (1 - rho^d), rho in [0, 1), d >= 1 (Claim 2.1)",
            _claim21_tail_in_range,
        ),
        _quantity_vs("fourier_tail", _claim21_rhs_rigorous),
    ),
    CHECKS.eq17_printed.id: Pin(
        Statement("eq17", "==", "NS_rho(h) = E[(h(x) - h(y))^2], y ~ N_rho(x) (eq. (17))", _eq17_printed),
        _eq17_printed_rigorous,
        {
            "statement": "NS_rho(h) = E[(h(x)-h(y))^2] = (1/r) E (sum_b E_v (H_z(v) - H_z(v^b))^2) = (1/r) E[AS(H_z)]",
            "paper_ref": "Appendix B, eq. (17)",
            "finding": "typo",
            "lhs_label": "NS_rho(h)",
            "rhs_label": "E[(h(x) - h(y))^2], y ~ N_rho(x)",
            "expr": {
                "rhs": "4 * (1 - rho) / 2",
            },
        },
    ),
    CHECKS.eq17_coupling.id: Pin(
        Statement(
            "lemma10-proof-coupling",
            "==",
            "the bucket coupling (r = floor(2/(1-rho))) has E[(1/4)(h(x) - h(y))^2] = NS_rho(h)",
            _eq17_coupling,
        ),
        _eq17_coupling_rigorous,
        {
            "statement": "(x, y) of the bucket coupling are distributed exactly as (x, N_rho(x)), r = floor(2/(1-rho))",
            "paper_ref": "Appendix B (proof of Lemma 10)",
            "finding": "proof-slip",
            "lhs_label": "NS_rho(h) = Pr_{y ~ N_rho(x)}[y_1 != x_1]",
            "rhs_label": "the coupling's E[(1/4)(h(x) - h(y))^2] = 1/r",
            "expr": {
                "rhs": "1 / floor(2 / (1 - rho))",
            },
        },
    ),
    CHECKS.bound_degenerate.id: Pin(
        Statement(
            "lemma10",
            "<=",
            "NS_rho(h) <= C sqrt(1-rho)(k^4 W^2 log^2(ns/(1-rho)) + k^3 B^2 sqrt(log s)) (Lemma 10)",
            _lemma10_bound,
        ),
        _lemma10_bound_rigorous,
        {
            "statement": "NS_rho(h) = sqrt(1-rho) O(k^4 W^2 log^2(ns/(1-rho)) + k^3 B^2 sqrt(log s)) at ns = 1 - rho",
            "paper_ref": "Lemma 10",
            "finding": "out-of-range",
            "lhs_label": "NS_0(relu(x_1))",
            "rhs_label": "C sqrt(1-rho)(k^4 W^2 log^2(ns/(1-rho)) + k^3 B^2 sqrt(log s))",
            "expr": {
                "rhs": "C * sqrt(1 - rho) * (k**4 * W**2 * log(n * s / (1 - rho))**2 + k**3 * B**2 * sqrt(log(s)))",
            },
        },
    ),
    CHECKS.eq17_corrected.id: Pin(
        Statement(
            "eq17",
            "<=",
            "NS_rho(h) <= NS_{1-2/r}(h) and r (1 - rho) >= 1, r = floor(2/(1-rho)), rho in [0, 1) (corrected (17))",
            _eq17_corrected,
            links=(">=",),
        ),
        _eq17_corrected_rigorous,
    ),
}
