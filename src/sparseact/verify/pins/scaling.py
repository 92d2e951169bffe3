"""Pins of the checks of ``sparseact.claims.scaling`` (see :mod:`sparseact.verify.pins`)."""

from __future__ import annotations

import math

import numpy as np

from sparseact import bounds
from sparseact.verify.recompute import (
    Refused,
    Sides,
    Statement,
    _integer,
    _number,
    _parameter,
)


def _theorem17_scale(c: dict) -> Sides:
    """h(x) = lam relu(x) on n = 1 (so s = k = 1, R = 1, W = lam, bias 0 <= B): telling h from -h needs
    log(1/(2 delta)) / -log(1 - p) samples when p lam^2 > 2 eps; Theorem 17 prints C times its m(eps, delta)."""
    delta = _number(_parameter(c, "lhs", "delta"), "delta", 1e-300, 0.5)
    eps = _number(_parameter(c, "lhs", "eps"), "eps", 1e-300)
    lam = _number(_parameter(c, "lhs", "lam"), "lam", 1e-300, 1e300)
    p = _number(_parameter(c, "lhs", "p"), "p", 1e-300, 1.0)
    B = _number(_parameter(c, "rhs", "B"), "B", 0.0, 1e300)
    C = _number(_parameter(c, "rhs", "C"), "C", 1.0, 1e300)
    if not p * lam**2 > 2 * eps:
        raise Refused("the two-point argument needs p lam^2 > 2 eps")
    variables = {
        "delta": delta,
        "eps": eps,
        "lam": lam,
        "p": p,
        "B": B,
        "C": C,
        "W": lam,
        "R": 1.0,
        "n": 1,
        "s": 1,
        "k": 1,
    }
    rhs = C * float(bounds.theorem17_sample_complexity(eps, delta, 1, 1, 1, lam, B, 1.0))
    return Sides(float(bounds.sign_ambiguity_lower_bound(p, delta)), rhs, variables)


def _lemma18_expected_rademacher(lam: float, m: int, p: float) -> float:
    """E_S R_H(S) of H = {h, -h} on m i.i.d. points with |h| = lam w.p. p, else 0: (lam/m) E|zeta_1 + ... + zeta_a|,
    a ~ Bin(m, p), E|S_a| = a binom(a-1, floor((a-1)/2)) / 2^(a-1) (log-gamma form)."""
    a = np.arange(1, m + 1, dtype=float)
    half = np.floor((a - 1) / 2)
    lgamma = np.vectorize(math.lgamma)
    log_pmf = lgamma(m + 1.0) - lgamma(a + 1) - lgamma(m - a + 1) + a * math.log(p) + (m - a) * math.log1p(-p)
    log_walk = np.log(a) + lgamma(a) - lgamma(half + 1) - lgamma(a - half) - (a - 1) * math.log(2.0)
    return lam / m * float(np.sum(np.exp(log_pmf + log_walk)))


def _lemma18(c: dict) -> Sides:
    """Lemma 18 (printed): c (C_H E_S R_H(S) + sqrt(log(1/delta)/m)) <= eps implies m samples suffice. Instance: H =
    {h, -h}, h = lam relu(x), x = 1 w.p. p else -1 (C_H = lam), delta = e^-L. When p lam^2 > 2 eps, any learner needs
    m >= log(1/(2 delta))/(-log(1-p)) samples (two-point argument); below that the condition must exceed eps."""
    small_c = _number(_parameter(c, "lhs", "c"), "c", 1e-300, 1e300)
    lam = _number(_parameter(c, "lhs", "lam"), "lam", 1e-300, 1e300)
    L = _number(_parameter(c, "lhs", "L"), "L", math.log(2.0), 1e300)
    m = _integer(_parameter(c, "lhs", "m"), "m", 1, 10**7)
    er = _parameter(c, "lhs", "ER")
    if not isinstance(er, dict) or not isinstance(er.get("vars"), dict):
        raise Refused("the instance has no parameter 'p' (in lhs.ER)")
    p = _number(er["vars"].get("p"), "p", 1e-300, 1.0 - 1e-16)
    eps = _number(_parameter(c, "rhs", "eps"), "eps", 1e-300, 1e300)
    ER = _lemma18_expected_rademacher(lam, m, p)
    lhs = small_c * (lam * ER + math.sqrt(L / m))
    needed = (L - math.log(2.0)) / -math.log1p(-p)  # bounds.sign_ambiguity_lower_bound at delta = e^-L, in logs
    rhs = eps if (m < needed and p * lam**2 > 2 * eps) else 0.0
    return Sides(lhs, rhs, {"c": small_c, "lam": lam, "L": L, "m": m, "p": p, "eps": eps, "ER": ER})


#: check id -> the statement it refutes (the checks of ``scaling``).
STATEMENTS: dict[str, Statement] = {
    "scaling/theorem17-printed": Statement(
        "theorem17",
        "<=",
        "m(eps, delta) = C((WR+B)^2 ksn log(k(R+B)/eps) + log(1/delta))/eps^2 samples suffice (Theorem 17)",
        _theorem17_scale,
    ),
    "scaling/covariance": Statement(
        "scaling-covariance",
        "<=",
        "every printed bound transforms like the quantity it bounds; Theorem 17's "
        "C m(eps, delta) samples suffice for h = lam relu(x) at every output scale lam",
        _theorem17_scale,
    ),
    "scaling/lemma18-printed": Statement(
        "lemma18",
        ">=",
        "c (C_H E_S R_H(S) + sqrt(log(1/delta)/m)) <= eps => m samples suffice (Lemma 18): below the "
        "samples needed to tell h from -h the condition exceeds eps",
        _lemma18,
    ),
}
