"""The verifier's pins of the checks of ``scaling``, read by path (:mod:`sparseact.verify.pins`)."""

from __future__ import annotations

import math

import numpy as np

from sparseact import bounds
from sparseact.verify import exact as ex
from sparseact.verify.declarations import read_checks
from sparseact.verify.exact import Real
from sparseact.verify.pins import Pin
from sparseact.verify.recompute import (
    Refused,
    Sides,
    Statement,
    _integer,
    _number,
    _parameter,
)
from sparseact.verify.rigorous import RigorousSides, _nested, _p


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


# ---------------------------------------------------------------------------
# Both sides in exact or interval arithmetic (the proof; shared evaluators: sparseact.verify.rigorous)
# ---------------------------------------------------------------------------


def _theorem17_bound(eps, delta, n, s, k, W, B, R) -> Real:
    return ((W * R + B) ** 2 * k * s * n * ex.log(k * (R + B) / eps) + ex.log(1 / delta)) / eps**2


def _two_point(p: Real, delta: Real) -> Real:
    return ex.log(1 / (2 * delta)) / -ex.log1p(-p)


def _theorem17_scale_rigorous(c: dict) -> RigorousSides:
    delta, eps, lam, p = (_p(c, "lhs", name) for name in ("delta", "eps", "lam", "p"))
    B, C = _p(c, "rhs", "B"), _p(c, "rhs", "C")
    if ex.decide(p * lam**2, 2 * eps) <= 0:
        raise Refused("the two-point argument needs p lam^2 > 2 eps")
    return _two_point(p, delta), C * _theorem17_bound(eps, delta, 1, 1, 1, lam, B, Real(1))


def _lemma18_rigorous(c: dict) -> RigorousSides:
    """The left side with ``E_S R_H(S)`` replaced by its upper bound ``lam sqrt(p/m)`` (``E|zeta_1 + ... + zeta_a| <=
    sqrt(a)`` and Jensen on ``a ~ Bin(m, p)``), so a violation ``lhs < rhs`` proved for it holds for the exact left
    side; the right side is ``eps`` when ``m < (L - log 2)/(-log(1-p))`` and ``p lam^2 > 2 eps`` (decided), else 0."""
    small_c, lam, L, m = (_p(c, "lhs", name) for name in ("c", "lam", "L", "m"))
    p = _nested(c, "lhs", "ER", "p")
    eps = _p(c, "rhs", "eps")
    expected = lam * ex.sqrt(p / m)
    lhs = small_c * (lam * ex.between(0, expected) + ex.sqrt(L / m))
    needed = (L - ex.log(2)) / -ex.log1p(-p)
    rhs = eps if ex.decide(m, needed) < 0 and ex.decide(p * lam**2, 2 * eps) > 0 else Real(0)
    return lhs, rhs


#: The text Theorem 17's two-point certificates share (scaling/covariance, scaling/theorem17-printed).
_THEOREM17_TWO_POINT = {
    "finding": "statement-error",
    "lhs_label": "samples needed to tell h from -h: log(1/(2 delta)) / (-log(1 - p))",
    "rhs_label": "Theorem 17's m(eps, delta) with hidden constant C = 1000",
    "expr": {
        "lhs": "log(1/(2*delta))/(-log(1-p)) if p*lam**2 > 2*eps else 0",
        "rhs": "C*((W*R+B)**2*k*s*n*log(k*(R+B)/eps) + log(1/delta))/eps**2",
    },
}


#: The checks of the claim, read from its checks.yaml as data (their ids key :data:`PINS`).
CHECKS = read_checks("scaling")

#: check id -> its pin (the checks of ``scaling``): the statement it refutes with its float pass, both sides in
#: exact or interval arithmetic, and the text its certificate carries (:class:`~sparseact.verify.pins.Pin`).
PINS: dict[str, Pin] = {
    CHECKS.theorem17_printed.id: Pin(
        Statement(
            "theorem17",
            "<=",
            "m(eps, delta) = C((WR+B)^2 ksn log(k(R+B)/eps) + log(1/delta))/eps^2 samples suffice (Theorem 17)",
            _theorem17_scale,
        ),
        _theorem17_scale_rigorous,
        {
            "statement": "m(eps, delta) = O(((WR+B)^2 ksn log(k(R+B)/eps) + log(1/delta)) / eps^2) samples suffice, at every scale of the class (squared loss)",  # noqa: E501
            "paper_ref": "Theorem 17",
            **_THEOREM17_TWO_POINT,
        },
    ),
    CHECKS.covariance.id: Pin(
        Statement(
            "scaling-covariance",
            "<=",
            "every printed bound transforms like the quantity it bounds; Theorem 17's "
            "C m(eps, delta) samples suffice for h = lam relu(x) at every output scale lam",
            _theorem17_scale,
        ),
        _theorem17_scale_rigorous,
        {
            "statement": "every printed bound transforms like the quantity it bounds (a scale inside a logarithm counted as covariant)",
            "paper_ref": "Sections 2-5 (every bound; the project's meta-claim, not printed)",
            **_THEOREM17_TWO_POINT,
        },
    ),
    CHECKS.lemma18_printed.id: Pin(
        Statement(
            "lemma18",
            ">=",
            "c (C_H E_S R_H(S) + sqrt(log(1/delta)/m)) <= eps => m samples suffice (Lemma 18): below the "
            "samples needed to tell h from -h the condition exceeds eps",
            _lemma18,
        ),
        _lemma18_rigorous,
        {
            "statement": "the smallest m with c (C_H E_S[R_H(S)] + sqrt(log(1/delta)/m)) <= eps samples suffice, for any class H and a large enough constant c",  # noqa: E501
            "paper_ref": "Lemma 18 (Section 5, Shalev-Shwartz and Ben-David 2014)",
            "finding": "statement-error",
            "lhs_label": "Lemma 18's c (C_H E_S[R_H(S)] + sqrt(log(1/delta)/m)) at m = <<m>>, c = <<c>>",
            "rhs_label": "eps (when m is below the samples needed to tell h from -h; else 0)",
            "expr": {
                "lhs": "c*(lam*ER + sqrt(L/m))",
                "lhs.ER": "lam/m*sum(exp(lgamma(m+1)-lgamma(a+1)-lgamma(m-a+1)+a*log(p)+(m-a)*log(1-p)+log(a)+lgamma(a)-lgamma(floor((a-1)/2)+1)-lgamma(a-floor((a-1)/2))-(a-1)*log(2)) for a in range(1, m+1))",  # noqa: E501
                "rhs": "eps if (m < (L - log(2))/(-log(1-p)) and p*lam**2 > 2*eps) else 0",
            },
        },
    ),
}
