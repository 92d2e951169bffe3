"""Theorem 5 (the informal Theorem 17) on the cube at fixed W, B: ``scaling/theorem5-cube-rate``, evaluated at
assembly."""

from __future__ import annotations

import math

from sparseact import bounds
from sparseact.claims._checks import declared_checks
from sparseact.verify.assembly import Assembly
from sparseact.verify.verdicts import verdict_all, verdict_at_most

#: The claim's checks, declared once (checks.yaml).
CHECKS = declared_checks("scaling")

#: Theorem 5 (informal Theorem 17) on {1, -1}^n: R = sqrt(n), W = B = 1, k = s = 1, eps, delta fixed.
THEOREM5_EPS, THEOREM5_DELTA = 0.1, 0.05
#: Dimensions at which Theorem 17's expression is evaluated on the cube.
THEOREM5_N = (10, 10**3, 10**6, 10**9, 10**12)
#: The constant of the ksn log^2(ksn/(eps delta))/eps^2 reading of an O~(ksn/eps^2), only for the measured ratio.
THEOREM5_CONSTANT = 1000.0
#: Theorem 17's printed expression at R = sqrt(n) (constant 1).
THEOREM5_T17_EXPR = "((W*sqrt(n)+B)**2*k*s*n*log(k*(sqrt(n)+B)/eps) + log(1/delta))/eps**2"
#: The rate Theorem 17 gives on the cube at fixed W, B: O~(k s n^2 / eps^2) at W = B = 1 ((sqrt(n) + 1)^2 <= 4 n).
THEOREM5_CUBE_EXPR = "(4*k*s*n**2*log(k*(sqrt(n)+B)/eps) + log(1/delta))/eps**2"


def theorem5_records() -> list:
    """Theorem 17's printed sample complexity on the cube at fixed W, B: O~(ksn^2/eps^2), the n/log n that a reading
    of Theorem 5's "suppressing dependence on W, B" at fixed W, B would miss (the remark on Theorem 5)."""

    def value(expr, n):
        return float(
            eval(
                expr,
                {"sqrt": math.sqrt, "log": math.log},
                dict(n=n, k=1, s=1, W=1.0, B=1.0, eps=THEOREM5_EPS, delta=THEOREM5_DELTA),
            )
        )

    rows = [
        dict(
            n=n,
            t17=value(THEOREM5_T17_EXPR, n),
            ksn=bounds.theorem5_rate(THEOREM5_EPS, THEOREM5_DELTA, n, 1, 1, THEOREM5_CONSTANT),
            cube=value(THEOREM5_CUBE_EXPR, n),
        )
        for n in THEOREM5_N
    ]
    return [
        Assembly("scaling").record(
            CHECKS.theorem5_cube_rate,
            "fixed W, B",
            max(r["t17"] / r["cube"] for r in rows),
            "max Theorem 17 / the cube rate at fixed W, B",
            verdict_all([verdict_at_most(r["t17"], r["cube"]) for r in rows]),
            len(rows),
            "Theorem 17's expression over "
            f"{THEOREM5_CONSTANT:g} ksn log^2(ksn/(eps delta))/eps^2: "
            + ", ".join(f"n = {r['n']:g}: {r['t17'] / r['ksn']:.3g}" for r in rows)
            + " (grows like n / log n: at fixed W, B no constant makes it O~(ksn/eps^2))",
            covered=f"n in {{{', '.join(f'{n:g}' for n in THEOREM5_N)}}}, k = s = 1, W = B = 1, eps = "
            f"{THEOREM5_EPS:g}, delta = {THEOREM5_DELTA:g}",
        )
    ]
