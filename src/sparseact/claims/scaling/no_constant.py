"""The families of the proofs that no constant saves Lemma 18 and Theorem 17 (at ``eps = 1/2``), evaluated at
assembly in :data:`NO_CONSTANT_DIGITS`-digit arithmetic: ``scaling/lemma18-no-constant`` and
``scaling/theorem17-no-constant``.
"""

from __future__ import annotations

import mpmath
import pandas as pd

from sparseact.claims._checks import declared_checks
from sparseact.verify.assembly import Assembly
from sparseact.verify.verdicts import verdict_all, verdict_at_most

#: The claim's checks, declared once (checks.yaml).
CHECKS = declared_checks("scaling")

#: The constants (c of Lemma 18, C of Theorem 17) at which the no-constant families are evaluated; the proofs
#: (lemma18-no-constant, theorem17-no-constant) cover every constant, the checks evaluate their inequalities.
NO_CONSTANT_GRID = (1.0, 10.0, 1.0e2, 1.0e3, 1.0e4, 1.0e6)
#: Decimal digits of the arithmetic of the no-constant families (closed forms; the margins are far from zero).
NO_CONSTANT_DIGITS = 60


def lemma18_family(c: float) -> dict:
    """lemma18-no-constant at the constant ``c``: ``eps = 1/2``, ``lambda = 12c``, ``p = 2/lambda^2``,
    ``L = log(1/delta) = 256c^2`` and ``m* = ceil((L - log 2)/(-log(1 - p))) - 1``, the largest sample size at
    which every learner fails with probability above ``delta`` on ``h`` or ``-h``; the printed condition at ``m*``
    with ``C_H E_S R_H(S) <= lambda^2 sqrt(p/m*)`` (Cauchy-Schwarz)."""
    with mpmath.workdps(NO_CONSTANT_DIGITS):
        c = mpmath.mpf(c)
        lam, eps, L = 12 * c, mpmath.mpf(1) / 2, 256 * c**2
        p = 2 / lam**2
        needed = (L - mpmath.log(2)) / -mpmath.log1p(-p)
        m = mpmath.ceil(needed) - 1
        printed = c * (lam**2 * mpmath.sqrt(p / m) + mpmath.sqrt(L / m))
        return dict(
            c=float(c), lam=float(lam), log_inv_delta=float(L), m_star=float(m), printed_over_eps=float(printed / eps)
        )


def theorem17_family(C: float) -> dict:
    """theorem17-no-constant at the constant ``C``: ``n = s = k = 1``, ``R = 1``, ``B = 0``, ``W = lambda`` with
    ``lambda^2 = 45C + 4``, ``eps = 1/2``, ``p = 2/lambda^2``, ``log(1/delta) = lambda^2``: ``C`` times the printed
    bound, its logarithm ``log 2`` floored at 1 (the corner rule), over the samples every learner needs (sign
    ambiguity)."""
    with mpmath.workdps(NO_CONSTANT_DIGITS):
        C = mpmath.mpf(C)
        lam2, eps = 45 * C + 4, mpmath.mpf(1) / 2
        p, L = 2 / lam2, lam2
        printed = (lam2 * max(mpmath.log(1 / eps), 1) + L) / eps**2
        needed = (L - mpmath.log(2)) / -mpmath.log1p(-p)
        return dict(
            C=float(C),
            lam=float(mpmath.sqrt(lam2)),
            log_inv_delta=float(L),
            printed_times_C_over_needed=float(C * printed / needed),
        )


def no_constant_records() -> list:
    """``scaling/lemma18-no-constant`` and ``scaling/theorem17-no-constant``: the families of the two proofs that no
    constant saves Lemma 18 and Theorem 17 (at ``eps = 1/2``), evaluated at assembly."""
    lemma = pd.DataFrame([lemma18_family(c) for c in NO_CONSTANT_GRID])
    theorem = pd.DataFrame([theorem17_family(C) for C in NO_CONSTANT_GRID])
    constants = ", ".join(f"{c:g}" for c in NO_CONSTANT_GRID)
    return [
        _below_one(
            CHECKS.lemma18_no_constant,
            lemma["printed_over_eps"],
            "max printed condition (Cauchy-Schwarz bound) / eps at m*",
            "m* = " + ", ".join(f"{m:.4g}" for m in lemma["m_star"]) + f" at c = {constants}",
            f"c in {{{constants}}}",
        ),
        _below_one(
            CHECKS.theorem17_no_constant,
            theorem["printed_times_C_over_needed"],
            "max C x printed bound / samples needed",
            "ratios " + ", ".join(f"{r:.4g}" for r in theorem["printed_times_C_over_needed"]),
            f"C in {{{constants}}}",
        ),
    ]


def _below_one(declaration, values, label: str, notes: str, covered: str):
    """The row of a no-constant family whose ``values`` (one per constant of :data:`NO_CONSTANT_GRID`) must all be
    at most 1 with no tolerance (closed forms in :data:`NO_CONSTANT_DIGITS`-digit arithmetic)."""
    return Assembly("scaling", {"digits": NO_CONSTANT_DIGITS}).record(
        declaration,
        "",
        float(values.max()),
        label,
        verdict_all(verdict_at_most(v, 1.0, atol=0.0, rtol=0.0) for v in values),
        len(values),
        notes,
        covered=covered,
    )
