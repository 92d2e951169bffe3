"""The corrected Theorem 17 by its chain, evaluated at assembly (exact): ``scaling/theorem17-solve-for-m`` and
``scaling/theorem17-corrected-chain``.

The solve-for-m step on a grid of ``a, b``, and the corrected count against the chain corrected Lemma 18, (15) and
that step on :data:`CHAIN_GRID`, which includes ``eps > k(R+B)``, where the printed logarithm is negative.
"""

from __future__ import annotations

import itertools
import math

import numpy as np
import pandas as pd

from sparseact import bounds
from sparseact.claims import describe_range
from sparseact.claims._checks import declared_checks
from sparseact.verify.assembly import Assembly
from sparseact.verify.verdicts import verdict_all, verdict_at_most

#: The claim's checks, declared once (checks.yaml).
CHECKS = declared_checks("scaling")

#: Grid of the solve-for-m step: a = 10^i, b = 10^j (ab from 1e-10 to 1e13, both sides of e), and the multiples
#: t of m0 = 2 a max{1, log(ab)} at which m >= a max{1, log(bm)} is checked.
SOLVE_A_EXPONENTS = tuple(range(-3, 9))
SOLVE_B_EXPONENTS = tuple(range(-7, 6))
SOLVE_MULTIPLES = (1.0, 1.5, 2.0, 10.0, 1.0e3, 1.0e6)
#: Grid of the corrected Theorem 17's chain (includes eps > k(R+B), where the printed log is negative, and
#: m(R+B) < e): n, s, k, W, B, R, eps, delta.
CHAIN_GRID = dict(
    n=(1, 4, 64),
    s=(1, 8),
    k=(1, 8),
    W=(1.0e-3, 1.0, 1.0e3),
    B=(0.0, 1.0e-3, 1.0, 1.0e3),
    R=(1.0e-3, 1.0, 8.0),
    eps=(1.0e-4, 1.0e-1, 1.0e3, 1.0e6),
    delta=(1.0e-12, 0.1),
)
#: Lemma 18's constant c at which the chain is evaluated: the c = 8 that lemma18-corrected proves.
CHAIN_C = 8.0
#: The constant of the Rademacher bound the chain uses (theorem19-uniform): R_H <= (1 + sqrt 2)(WR+B) sqrt(ksn log(em)/m).
CHAIN_RADEMACHER_CONSTANT = 1.0 + 2.0**0.5


def _ell(x):
    """``max{1, log x}``."""
    return np.maximum(1.0, np.log(x))


def solve_for_m_rows():
    """The solve-for-m step on the grid: ``m = t * m0``, ``m0 = 2a ell(ab)``, against ``a ell(bm)`` (exact)."""
    a, b, t = np.meshgrid(
        10.0 ** np.array(SOLVE_A_EXPONENTS),
        10.0 ** np.array(SOLVE_B_EXPONENTS),
        np.array(SOLVE_MULTIPLES),
        indexing="ij",
    )
    a, b, t = a.ravel(), b.ravel(), t.ravel()
    m = t * bounds.solve_for_m(a, b)
    need = a * _ell(b * m)
    return pd.DataFrame(dict(a=a, b=b, ab=a * b, multiple=t, m=m, a_ell_bm=need, slack=m / need))


def chain_rows():
    """The corrected Theorem 17 by its chain, on :data:`CHAIN_GRID` (exact).

    ``m* = ceil(max(2 a ell(ae), 4 c^2 C_H^4 log(1/delta) / eps^2))`` with ``a = 4 c^2 C_H^2 A^2 / eps^2``,
    ``A = (1 + sqrt 2)(WR+B) sqrt(ksn)`` (theorem19-uniform); at ``m*`` the corrected Lemma 18 condition
    ``c (C_H A sqrt(log(e m)/m) + C_H^2 sqrt(log(1/delta)/m)) <= eps`` must hold, and ``m*`` must be at most
    ``K`` times :func:`sparseact.bounds.theorem17_covariant_sample_complexity` plus 1, with
    ``K = 2 a_0 (1 + log(e a_0)) + 4 c^2``, ``a_0 = 4 c^2 (1 + sqrt 2)^2`` (``ell(K' x) <= (1 + log K') ell(x)``,
    ``K' >= 1``).
    """
    c = CHAIN_C
    a0 = 4 * c**2 * CHAIN_RADEMACHER_CONSTANT**2
    K = 2 * a0 * (1 + math.log(math.e * a0)) + 4 * c**2
    rows = []
    keys = list(CHAIN_GRID)
    for values in itertools.product(*CHAIN_GRID.values()):
        p = dict(zip(keys, values, strict=True))
        n, s, k, W, B, R, eps, delta = (p[key] for key in keys)
        if k > s or W * R + B <= 0:
            continue
        c_h = k * (W * R + B)
        A2 = CHAIN_RADEMACHER_CONSTANT**2 * (W * R + B) ** 2 * k * s * n
        a = 4 * c**2 * c_h**2 * A2 / eps**2
        m = float(
            math.ceil(max(float(bounds.solve_for_m(a, math.e)), 4 * c**2 * c_h**4 * math.log(1 / delta) / eps**2, 1.0))
        )
        lhs = c * (c_h * math.sqrt(A2 * math.log(math.e * m) / m) + c_h**2 * math.sqrt(math.log(1 / delta) / m))
        expr = float(bounds.theorem17_covariant_sample_complexity(eps, delta, n, s, k, W, B, R))
        printed = float(bounds.theorem17_sample_complexity(eps, delta, n, s, k, W, B, R)) if R + B > 0 else math.nan
        rows.append(
            dict(
                p,
                C_H=c_h,
                m_star=m,
                lemma18_lhs=lhs,
                lemma18_over_eps=lhs / eps,
                corrected=expr,
                K=K,
                m_star_over_K_expr=(m - 1) / (K * expr),
                printed=printed,
                printed_log_negative=bool(eps > k * (R + B)),
            )
        )
    return pd.DataFrame(rows)


def solve_records() -> list:
    """``scaling/theorem17-solve-for-m`` and ``scaling/theorem17-corrected-chain`` (exact, evaluated at assembly)."""
    solve = solve_for_m_rows()
    chain = chain_rows()
    record = Assembly("scaling", {"c": f"{CHAIN_C:g}"}).record
    worst = solve.loc[solve["slack"].idxmin()]
    negative = chain[chain["printed_log_negative"]]
    return [
        record(
            CHECKS.theorem17_solve_for_m,
            "",
            float(solve["slack"].min()),
            "min m / (a max{1, log(bm)})",
            verdict_all(verdict_at_most(r.a_ell_bm, r.m) for r in solve.itertuples()),
            len(solve),
            (
                f"Tightest at a = {worst['a']:g}, b = {worst['b']:g}, t = {worst['multiple']:g}: slack "
                f"{worst['slack']:.4g} (> 1: m / max{{1, log(bm)}} is non-decreasing in m)."
            ),
            covered=describe_range(
                solve.to_dict("records"),
                ["a", "b", "multiple"],
                f"ab from {solve['ab'].min():.3g} to {solve['ab'].max():.3g}",
            ),
        ),
        record(
            CHECKS.theorem17_corrected_chain,
            "corrected",
            float(max(chain["lemma18_over_eps"].max(), chain["m_star_over_K_expr"].max())),
            "max of (Lemma 18 lhs / eps, (m* - 1) / (K expression))",
            verdict_all(
                [verdict_at_most(r.lemma18_lhs, r.eps) for r in chain.itertuples()]
                + [verdict_at_most(r.m_star - 1, r.K * r.corrected) for r in chain.itertuples()]
            ),
            len(chain),
            (
                f"K = {chain['K'].iloc[0]:.4g}. On the {len(negative)} instances with eps > k(R+B) the printed "
                f"expression is negative in {int((negative['printed'] < 0).sum())}; the corrected one is positive "
                f"on all (min {chain['corrected'].min():.3g})."
            ),
            covered=describe_range(
                chain.to_dict("records"),
                ["n", "s", "k", "W", "B", "R", "eps", "delta"],
                f"{len(negative)} instances with eps > k(R+B)",
            ),
        ),
    ]
