"""Pins of the checks of ``sparseact.claims.appendixA`` (see :mod:`sparseact.verify.pins`)."""

from __future__ import annotations

import math

import numpy as np

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


#: check id -> the statement it refutes (the checks of ``appendixA``).
STATEMENTS: dict[str, Statement] = {
    "appendixA/sparse-sqrt-q-printed": Statement(
        "appendixA-sqrt-q", "<=", "with Gamma = sqrt(q), F is 1-sparsely activated for all inputs", _appendix_a_sparsity
    ),
    "appendixA/sparse-sqrt-q-corrected": Statement(
        "appendixA-sqrt-q",
        "<=",
        "with Gamma = sqrt(q) and ||w_alpha||_2 <= 1, F is 1-sparse on all inputs",
        _appendix_a_sparsity_l2,
    ),
    "appendixA/sparse-sqrt-q-l1": Statement(
        "appendixA-sqrt-q",
        "<=",
        "with Gamma = sqrt(q) and ||w_alpha||_1 <= 2 Gamma, F is 1-sparse on all inputs",
        _appendix_a_sparsity_l1,
    ),
    "appendixA/whp-printed-split": Statement(
        "appendixA-whp",
        ">=",
        "with Gamma = Theta(sqrt(log s)) and w_alpha arbitrary, Pr[F is 1-sparse] >= 1 - 1/P(s) "
        "for a polynomial P (read at P(s) = s)",
        _appendix_a_whp,
    ),
    "appendixA/computes": Statement(
        "appendixA-computes", "==", "F(x, y) = sigma(<w_x, y>) (Appendix A)", _appendix_a_computes
    ),
    "appendixA/computes-printed": Statement(
        "appendixA-computes", "==", "F(x, y) = sigma(<w_x, y>) (Appendix A, w_alpha as printed)", _appendix_a_computes
    ),
}
