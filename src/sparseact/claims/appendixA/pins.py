"""The verifier's pins of the checks of ``appendixA``, read by path (:mod:`sparseact.verify.pins`)."""

from __future__ import annotations

import math
from collections.abc import Callable
from fractions import Fraction

import numpy as np

from sparseact.verify import exact as ex
from sparseact.verify.declarations import read_checks
from sparseact.verify.exact import Real
from sparseact.verify.pins import Pin
from sparseact.verify.recompute import (
    MEMBERSHIP_TOL,
    Refused,
    Sides,
    Statement,
    _network,
    _signs,
    _spec,
    evaluate_quantity,
)
from sparseact.verify.rigorous import RigorousSides, _count_vs_one, _quantity_side, quantity


def _appendix_a_sparsity(c: dict) -> Sides:
    return Sides(evaluate_quantity(_spec(c, "lhs", "active_count")), 1.0, {})


def _appendix_a_computes(c: dict) -> Sides:
    """F(x, y) = sigma(<w_x, y>): the row w_x of the neuron that x (the first b = log2 s coordinates) selects."""
    lhs = _spec(c, "lhs", "value")
    u, W, _ = _network(lhs["function"]["network"])
    b = u.size.bit_length() - 1
    x = _signs(lhs["x"], "x")
    if u.size != 1 << b or len(x) != W.shape[1] or len(x) <= b:
        raise Refused("the network is not Appendix A's F: 2^b neurons on b + q coordinates")
    w = W[sum(((1 - v) // 2) << i for i, v in enumerate(x[:b])), b:]
    y = x[b:]
    return Sides(
        evaluate_quantity(lhs), max(float(w @ np.asarray(y, dtype=float)), 0.0), {"w": w.tolist(), "y": y, "q": len(y)}
    )


def _appendix_a_network(network: dict, read_gamma: bool = False) -> tuple[int, int, float, np.ndarray]:
    """``b, q, Gamma`` and the rows ``w_alpha`` of Appendix A's F: neuron alpha (bit i of its index is coordinate i of
    alpha, 1 -> -1) has weights ``(Gamma alpha, w_alpha)``, bias ``Gamma b`` and output weight 1
    (``sigma(<w_alpha, y> + Gamma(<x, alpha> - b))``), with ``Gamma = sqrt(q)``, or read from the weights with
    ``read_gamma`` (``Gamma > 0``); refused when the network is not of that form."""
    u, W, bias = _network(network)
    b = u.size.bit_length() - 1
    q = W.shape[1] - b
    if u.size != 1 << b or q < 1 or b < 1:
        raise Refused("the network is not Appendix A's F: 2^b neurons on b + q coordinates")
    gamma = float(abs(W[0, 0])) if read_gamma else math.sqrt(q)
    alphas = 1.0 - 2.0 * ((np.arange(u.size)[:, None] >> np.arange(b)[None, :]) & 1)
    if not (
        gamma > 0
        and np.allclose(u, 1.0, rtol=0, atol=0)
        and np.allclose(W[:, :b], gamma * alphas, rtol=0, atol=1e-9)
        and np.allclose(bias, gamma * b, rtol=0, atol=1e-9)
    ):
        raise Refused(
            f"the network is not Appendix A's F with Gamma = {gamma:.6g} (x-weights Gamma alpha, bias "
            "Gamma b, output weights 1)"
        )
    return b, q, gamma, W[:, b:]


def _appendix_a_whp(c: dict) -> Sides:
    """F with Gamma = Theta(sqrt(log s)) and rows as printed (no condition) is 1-sparse with probability 1 - 1/poly(s),
    read at P(s) = s: ``Pr[F is 1-sparse] >= 1 - 1/s`` (a certificate with ``Pr = 0`` refutes every P with P(s) > 1)."""
    lhs = _spec(c, "lhs", "sparse_probability")
    if lhs.get("k") != 1:
        raise Refused("the statement is about 1-sparsity: k must be 1")
    b, q, gamma, _ = _appendix_a_network(lhs["network"], read_gamma=True)
    s = 1 << b
    return Sides(
        evaluate_quantity(lhs),
        1.0 - 1.0 / s,
        {"s": s, "b": b, "q": q, "Gamma": gamma, "c": gamma / math.sqrt(math.log(s))},
    )


def _appendix_a_sparsity_l2(c: dict) -> Sides:
    """With Gamma = sqrt(q) and ||w_alpha||_2 <= 1 (checked on the network), F is 1-sparse on all inputs."""
    lhs = _spec(c, "lhs", "active_count")
    _, _, _, rows = _appendix_a_network(lhs["network"])
    if np.linalg.norm(rows, axis=1).max() > 1 + MEMBERSHIP_TOL:
        raise Refused("the instance breaks the hypothesis ||w_alpha||_2 <= 1")
    return Sides(evaluate_quantity(lhs), 1.0, {})


def _appendix_a_sparsity_l1(c: dict) -> Sides:
    """With Gamma = sqrt(q) and ||w_alpha||_1 <= 2 Gamma (checked on the network), F is 1-sparse on all inputs."""
    lhs = _spec(c, "lhs", "active_count")
    _, _, gamma, rows = _appendix_a_network(lhs["network"])
    if np.abs(rows).sum(axis=1).max() > 2 * gamma * (1 + MEMBERSHIP_TOL):
        raise Refused("the instance breaks the hypothesis ||w_alpha||_1 <= 2 Gamma")
    return Sides(evaluate_quantity(lhs), 1.0, {})


# ---------------------------------------------------------------------------
# Both sides in exact or interval arithmetic (the proof; shared evaluators: sparseact.verify.rigorous)
# ---------------------------------------------------------------------------


def _appendix_a_computes_rigorous(c: dict) -> RigorousSides:
    lhs = _spec(c, "lhs", "value")
    network = lhs["function"]["network"]
    b = len(network["u"]).bit_length() - 1
    x = lhs["x"]
    alpha = sum(((1 - int(v)) // 2) << i for i, v in enumerate(x[:b]))
    w = [ex.rational(v, "w") for v in network["W"][alpha][b:]]
    return Real(quantity(lhs)), Real(
        max(sum((wi * int(yi) for wi, yi in zip(w, x[b:], strict=True)), Fraction(0)), Fraction(0))
    )


def _appendix_a_whp_rigorous(c: dict) -> RigorousSides:
    s = len(_spec(c, "lhs", "sparse_probability")["network"]["u"])
    return _quantity_side(c, "lhs", "sparse_probability"), Real(1 - Fraction(1, s))


def _appendix_a_hypothesis_rigorous(norm: Callable[[list[Fraction], int], bool]) -> Callable[[dict], RigorousSides]:
    def sides(c: dict) -> RigorousSides:
        network = _spec(c, "lhs", "active_count")["network"]
        b = len(network["u"]).bit_length() - 1
        q = len(network["W"][0]) - b
        if not all(norm([ex.rational(v, "w") for v in row[b:]], q) for row in network["W"]):
            raise Refused("the instance breaks the statement's hypothesis on ||w_alpha||")
        return _quantity_side(c, "lhs", "active_count"), Real(1)

    return sides


#: The checks of the claim, read from its checks.yaml as data (their ids key :data:`PINS`).
CHECKS = read_checks("appendixA")

#: check id -> its pin (the checks of ``appendixA``): the statement it refutes with its float pass, both sides in
#: exact or interval arithmetic, and the text its certificate carries (:class:`~sparseact.verify.pins.Pin`).
PINS: dict[str, Pin] = {
    CHECKS.sparse_sqrt_q_printed.id: Pin(
        Statement(
            "appendixA-sqrt-q",
            "<=",
            "with Gamma = sqrt(q), F is 1-sparsely activated for all inputs",
            _appendix_a_sparsity,
        ),
        _count_vs_one(),
        {
            "statement": "with Gamma = sqrt(q), F is 1-sparsely activated for all inputs (w_alpha arbitrary)",
            "paper_ref": "Appendix A",
            "finding": "typo",
            "lhs_label": "#{alpha : <w_alpha, y> + Gamma(<x, alpha> - b) > 0}",
            "rhs_label": "1 (1-sparse for all inputs)",
            "expr": {
                "rhs": "1",
            },
        },
    ),
    CHECKS.sparse_sqrt_q_corrected.id: Pin(
        Statement(
            "appendixA-sqrt-q",
            "<=",
            "with Gamma = sqrt(q) and ||w_alpha||_2 <= 1, F is 1-sparse on all inputs",
            _appendix_a_sparsity_l2,
        ),
        _appendix_a_hypothesis_rigorous(lambda w, q: sum(v * v for v in w) <= 1),
    ),
    CHECKS.sparse_sqrt_q_l1.id: Pin(
        Statement(
            "appendixA-sqrt-q",
            "<=",
            "with Gamma = sqrt(q) and ||w_alpha||_1 <= 2 Gamma, F is 1-sparse on all inputs",
            _appendix_a_sparsity_l1,
        ),
        _appendix_a_hypothesis_rigorous(lambda w, q: sum(abs(v) for v in w) ** 2 <= 4 * q),
    ),
    CHECKS.whp_printed_split.id: Pin(
        Statement(
            "appendixA-whp",
            ">=",
            "with Gamma = Theta(sqrt(log s)) and w_alpha arbitrary, Pr[F is 1-sparse] >= 1 - 1/P(s) "
            "for a polynomial P (read at P(s) = s)",
            _appendix_a_whp,
        ),
        _appendix_a_whp_rigorous,
        {
            "statement": "with Gamma = Theta(sqrt(log s)) and w_alpha arbitrary (as printed), F is 1-sparse with probability 1 - 1/poly(s)",
            "paper_ref": "Appendix A (with Remark 11)",
            "finding": "typo",
            "lhs_label": "Pr_(x,y)[F is 1-sparse]",
            "rhs_label": "1 - 1/P(s) with P(s) = s",
            "expr": {
                "rhs": "1 - 1/s",
            },
        },
    ),
    CHECKS.computes.id: Pin(
        Statement("appendixA-computes", "==", "F(x, y) = sigma(<w_x, y>) (Appendix A)", _appendix_a_computes),
        _appendix_a_computes_rigorous,
    ),
    CHECKS.computes_printed.id: Pin(
        Statement(
            "appendixA-computes",
            "==",
            "F(x, y) = sigma(<w_x, y>) (Appendix A, w_alpha as printed)",
            _appendix_a_computes,
        ),
        _appendix_a_computes_rigorous,
        {
            "statement": "F(x, y) = sigma(<w_x, y>) on all inputs (Gamma = sqrt(q), w_x arbitrary, as printed)",
            "paper_ref": "Appendix A",
            "finding": "typo",
            "lhs_label": "F(x, y)",
            "rhs_label": "sigma(<w_x, y>)",
            "expr": {
                "rhs": "relu(sum(w[i] * y[i] for i in range(q)))",
            },
        },
    ),
}
