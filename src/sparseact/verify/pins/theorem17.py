"""Pins of the checks of ``sparseact.claims.theorem17`` (see :mod:`sparseact.verify.pins`)."""

from __future__ import annotations

import math

from sparseact import bounds
from sparseact.verify.recompute import (
    Refused,
    Sides,
    Statement,
    _integer,
    _number,
    _parameter,
)


def _dense_lower_bound(c: dict) -> Sides:
    """The Introduction's Omega(s^2/eps^2) for H_{n,s,s}^{W,B} at the constant ``c`` against the samples after which
    the memoriser learns the class (realizable PAC, Section 2): a learner needing at least ``c s^2/eps^2`` samples
    cannot exist when ``ceil(C^2 2^n/(2 e eps delta))`` suffice and are fewer (``C = s(W sqrt(n) + B)``)."""
    n = _integer(_parameter(c, "lhs", "n"), "n", 1, 64)
    s = _integer(_parameter(c, "lhs", "s"), "s", 1, 2**20)
    W = _number(_parameter(c, "lhs", "W"), "W", 0.0, 1e100)
    B = _number(_parameter(c, "lhs", "B"), "B", 0.0, 1e100)
    eps = _number(_parameter(c, "lhs", "eps"), "eps", 1e-300, 1e300)
    delta = _number(_parameter(c, "lhs", "delta"), "delta", 1e-300, 1.0 - 1e-16)
    constant = _number(_parameter(c, "rhs", "c"), "c", 1e-300, 1e300)
    if _parameter(c, "rhs", "s") != s or _parameter(c, "rhs", "eps") != eps:
        raise Refused("the two sides must be at the same s and eps")
    C = float(bounds.class_sup_bound(n, s, W, B))
    lhs = math.ceil(bounds.memoriser_sample_complexity(n, C, eps, delta))
    return Sides(
        float(lhs),
        constant * s**2 / eps**2,
        {"n": n, "s": s, "W": W, "B": B, "eps": eps, "delta": delta, "c": constant, "C": C},
    )


#: check id -> the statement it refutes (the checks of ``theorem17``).
STATEMENTS: dict[str, Statement] = {
    "theorem17/dense-lower-bound-printed": Statement(
        "intro-dense-lower-bound",
        ">=",
        "H_{n,s,s}^{W,B} requires c s^2/eps^2 samples (Omega(s^2/eps^2), realizable "
        "PAC learning of Section 2), read at the certificate's constant c",
        _dense_lower_bound,
    ),
}
