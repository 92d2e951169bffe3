"""The families of the proofs that no hidden constant saves four steps of the uniform-distribution chain.

Five printed steps of Section 3 and eq. (8) carry a hidden constant (an ``O()`` or a ``Theta()``), and each FAIL certificate
refutes its step at one constant only. The derived statements of the graph prove the failure for every constant,
each on an explicit family whose parameters are functions of the constants:

* ``theorem8-final-line-no-constant``: the last line's count ``C n^d log(1/delta)/eps``, at every degree up to the
  printed one with Theta-constant ``c``, is below 1, while the targets ``+-lam relu(x_1)`` need 3 samples
  (``n, s >= 3``, ``k = 1``, ``W = B = lam``, ``eps = lam^2/5``, ``delta = 1/10``, ``lam^2 = 20 C n^D``);
* ``theorem8-rho-no-constant``: Lemma 10's bound (constant ``C``) at the printed ``1 - rho`` (constant ``c``)
  exceeds ``eps/3`` (``n = s = 3``, ``k = W = B = 1``, ``eps = exp(-L/2)/sqrt(c)``);
* ``theorem8-tail-no-constant``: ``d(1 - rho) > 3(1 - rho^d)`` at the printed ``1 - rho`` and every degree
  ``d >= c_d (k^8 W^4 log^4(ns) + k^6 B^4 log s)/eps^2`` (``n = s = 3``, ``k = W = 1``, ``B = beta``,
  ``eps = exp(-L)``);
* ``lemma9-V-no-constant``: the middle expression of the bound on (V) exceeds ``C`` times the last one
  (``k = 1``, ``s = 4``, ``B = 1``, ``n = floor(4 C^2) + 1``, ``W`` at both ends of ``[0, n^(-1/4) log^(-1/2)(4n)]``);
* ``eq8-no-constant``: with the printed cells, Theorem 19's second term exceeds (8) at every ``c`` (``n = 1``,
  ``m = 4``, ``x_i = 1``, ``B = 1``, ``s = floor((16/3)^2 c log 4) + 1`` neurons tied at 0);
* ``lemma9-tail-no-constant``: the left side of the Hoeffding step exceeds its middle expression at networks of
  ``s = n^2`` silent neurons (``k = W = 1``, ``B = sqrt(n)``), averaged over their sign vectors.

The checks evaluate each family's inequalities at a grid of constants in :data:`DIGITS`-digit arithmetic (closed
forms; the margins are far from zero); the proofs cover every constant.
"""

from __future__ import annotations

import itertools

import mpmath
import numpy as np
import pandas as pd

from sparseact.claims._checks import declared_checks
from sparseact.verify.assembly import Assembly
from sparseact.verify.verdicts import Verdict

#: The claim's checks (the four below are among them).
CHECKS = declared_checks("scaling")
#: The values each hidden constant takes; every pair of two constants is evaluated.
CONSTANTS = (1.0e-6, 1.0e-3, 1.0, 1.0e3, 1.0e6)
#: The dimensions (n, s) at which the last line's family is evaluated (its proof covers every n, s >= 3).
FINAL_LINE_DIMENSIONS = ((3, 3), (3, 10), (10, 3), (10, 10))
#: The pairs (c, n) at which the Hoeffding step's family is evaluated (its proof covers every c, for all large n).
TAIL_POINTS = ((1, 100), (3, 10**4), (10, 10**6), (30, 10**8))
#: Decimal digits of the arithmetic.
DIGITS = 60
#: Relative rounding slack of a comparison that the proof makes with equality (the middle expression of (V) equals
#: its lower bound sqrt(n log 4) at W = 0).
ROUNDING = 1.0e-50


def printed_degree(c, eps, n, s, k, W, B):
    """Theorem 8's degree with Theta-constant ``c``, ``ceil(c (k^8 W^4 log^4(ns) + k^6 B^4 log s)/eps^2)``
    (:func:`sparseact.bounds.theorem8_degree`, rounded up, in mpmath: the families leave float64's range)."""
    return mpmath.ceil(c * (k**8 * W**4 * mpmath.log(n * s) ** 4 + k**6 * B**4 * mpmath.log(s)) / eps**2)


def printed_one_minus_rho(c, eps, n, s, k, W, B):
    """The proof's ``1 - rho = c eps^2 min{log(knsW^2/eps)/(k^8 W^4 log^4(ns)), 1/(k^6 B^4 log s)}``
    (:func:`sparseact.bounds.theorem8_one_minus_rho`, in mpmath; ``W, B > 0``, ``ns > 1``)."""
    return (
        c
        * eps**2
        * min(
            mpmath.log(k * n * s * W**2 / eps) / (k**8 * W**4 * mpmath.log(n * s) ** 4),
            1 / (k**6 * B**4 * mpmath.log(s)),
        )
    )


def lemma10_bound(C, one_minus_rho, n, s, k, W, B):
    """Lemma 10 with the constant ``C``: ``C sqrt(1-rho) (k^4 W^2 log^2(ns/(1-rho)) + k^3 B^2 sqrt(log s))``
    (:func:`sparseact.bounds.lemma10_noise_sensitivity`, in mpmath)."""
    inner = k**4 * W**2 * mpmath.log(n * s / one_minus_rho) ** 2 + k**3 * B**2 * mpmath.sqrt(mpmath.log(s))
    return C * mpmath.sqrt(one_minus_rho) * inner


def lemma9_v_sides(c, C, n, s, k, W, B):
    """The middle expression of the bound on (V) (:func:`sparseact.bounds.lemma9_proof_V_middle`) and ``C`` times
    the last one (:func:`sparseact.bounds.lemma9_terms`), in mpmath."""
    q = 1 / (n * s) ** 4
    middle = n * (
        (k * mpmath.sqrt(mpmath.log(s / k)) / mpmath.sqrt(n) - q)
        * (c * k**1.5 * W * mpmath.sqrt(mpmath.log(n * s)) + k * B) ** 2
        + q * (k * W * mpmath.sqrt(n) + k * B) ** 2
    )
    last = C * (k**4 * W**2 * mpmath.sqrt(n) * mpmath.log(n * s) + k**3 * B**2 * mpmath.sqrt(mpmath.log(s)))
    return middle, last


def final_line_family(c: float, C: float, n: int, s: int) -> dict:
    """theorem8-final-line-no-constant at ``(c, C)``: the printed degree (Theta-constant ``c``) computed from the
    family's ``W = B = lam``, ``eps = lam^2/5``, and ``C n^d log(1/delta)/eps`` at that degree (the largest the
    statement allows), against the samples the targets ``+-lam relu(x_1)`` need: a learner reading ``m`` samples sees
    only ``x_1 = -1`` (labels 0 under both) with probability ``2^-m``, and fails on one target with probability at
    least ``2^-(m+1)`` once their losses sum above ``2 eps``, so it needs ``ceil(log2(1/delta)) - 1`` samples."""
    with mpmath.workdps(DIGITS):
        c, C, n, s = mpmath.mpf(c), mpmath.mpf(C), mpmath.mpf(n), mpmath.mpf(s)
        k, delta = 1, mpmath.mpf(1) / 10
        D = mpmath.ceil(25 * c * (mpmath.log(n * s) ** 4 + mpmath.log(s)))
        lam2 = 20 * C * n**D
        eps = lam2 / 5
        d = printed_degree(c, eps, n, s, k, mpmath.sqrt(lam2), mpmath.sqrt(lam2))
        separation = lam2 / 2  # L_+(g) + L_-(g) >= lam^2 E[relu(x_1)^2]
        needed = int(mpmath.ceil(mpmath.log(1 / delta, 2))) - 1 if separation > 2 * eps else 0
        count = C * n**d * mpmath.log(1 / delta) / eps
        return dict(
            c=float(c),
            C=float(C),
            n=int(n),
            s=int(s),
            D=int(D),
            d=int(d),
            log_lam2=float(mpmath.log(lam2)),
            needed=needed,
            count=float(count),
            holds=bool(d == D and needed == 3 and count < 1),
        )


def rho_family(c: float, C: float) -> dict:
    """theorem8-rho-no-constant at ``(c, C)``: Lemma 10's bound at the printed ``1 - rho`` over ``eps/3``."""
    with mpmath.workdps(DIGITS):
        c, C = mpmath.mpf(c), mpmath.mpf(C)
        n = s = mpmath.mpf(3)
        k = W = B = mpmath.mpf(1)
        L = 1 + abs(mpmath.log(c)) + 2 / mpmath.sqrt(C * mpmath.sqrt(c))
        eps = mpmath.exp(-L / 2) / mpmath.sqrt(c)
        omr = printed_one_minus_rho(c, eps, n, s, k, W, B)
        ratio = lemma10_bound(C, omr, n, s, k, W, B) / (eps / 3)
        return dict(
            c=float(c),
            C=float(C),
            L=float(L),
            ratio=float(ratio),
            holds=bool(eps < 1 and 0 < omr < 1 and ratio > 2),
        )


def tail_family(c: float, c_d: float) -> dict:
    """theorem8-tail-no-constant at ``(c, c_d)``: ``d(1 - rho)`` against ``3(1 - rho^d)`` at the printed ``1 - rho``
    and the smallest degree ``d = ceil(c_d X/eps^2)`` the statement allows."""
    with mpmath.workdps(DIGITS):
        c, c_d = mpmath.mpf(c), mpmath.mpf(c_d)
        n = s = mpmath.mpf(3)
        k = W = mpmath.mpf(1)
        K = 3 / (c * c_d)
        B = (mpmath.log(9) ** 4 / ((K + 1) * mpmath.log(3))) ** (mpmath.mpf(1) / 4)
        L = K + 1 + abs(mpmath.log(c))
        eps = mpmath.exp(-L)
        omr = printed_one_minus_rho(c, eps, n, s, k, W, B)
        d = printed_degree(c_d, eps, n, s, k, W, B)
        lhs = d * omr
        rhs = 3 * (1 - mpmath.exp(d * mpmath.log1p(-omr)))
        return dict(
            c=float(c),
            c_d=float(c_d),
            L=float(L),
            excess=float(lhs - 3),
            ratio=float(lhs / rhs),
            holds=bool(eps < 1 and 0 < omr < 1 and lhs > 3 and lhs > rhs),  # rhs < 3 as rho^d > 0 (may round to 3)
        )


def lemma9_v_family(c: float, C: float) -> list[dict]:
    """lemma9-V-no-constant at ``(c, C)``: the middle expression of the bound on (V) against ``C`` times the last
    one, at ``W = 0`` and at the largest ``W`` of the family."""
    rows = []
    with mpmath.workdps(DIGITS):
        c, C = mpmath.mpf(c), mpmath.mpf(C)
        k, s, B = mpmath.mpf(1), mpmath.mpf(4), mpmath.mpf(1)
        n = mpmath.floor(4 * C**2) + 1
        floor = mpmath.sqrt(n * mpmath.log(4)) * (1 - mpmath.mpf(ROUNDING))
        for W in (mpmath.mpf(0), n ** (-mpmath.mpf(1) / 4) / mpmath.sqrt(mpmath.log(4 * n))):
            middle, last = lemma9_v_sides(c, C, n, s, k, W, B)
            rows.append(
                dict(
                    c=float(c),
                    C=float(C),
                    n=int(n),
                    W=float(W),
                    ratio=float(middle / last),
                    holds=bool(middle >= floor and middle > last),
                )
            )
    return rows


def lemma9_tail_family(c: int, n: int) -> dict:
    """lemma9-tail-no-constant at ``(c, n)``, ``s = n^2``: the average over the sign vectors of the left side,
    ``1 - (1 - q)^s`` with ``q >= binom(n, r) 2^-n``, against the middle expression ``M = 2n (ns)^(-c^2/2)``; and
    fact:binomial-entropy at ``(n, r)``."""
    with mpmath.workdps(DIGITS):
        n = mpmath.mpf(n)
        s = n**2
        T = c * mpmath.sqrt(n * mpmath.log(n * s))
        r = mpmath.ceil((n - T) / 2) - 1
        q = mpmath.binomial(n, r) / 2**n
        average = -mpmath.expm1(s * mpmath.log1p(-q))
        middle = 2 * n * (n * s) ** (-(mpmath.mpf(c) ** 2) / 2)
        p = r / n
        entropy = -p * mpmath.log(p) - (1 - p) * mpmath.log(1 - p)
        entropy_bound = mpmath.exp(n * entropy) / mpmath.sqrt(8 * r * (n - r) / n)
        return dict(
            c=c,
            n=int(n),
            ratio=float(average / middle),
            holds=bool(0 < r < n and 2 * r - n < -T and average > middle and mpmath.binomial(n, r) >= entropy_bound),
        )


def eq8_family(c: float) -> dict:
    """eq8-no-constant at ``c``: ``s`` neurons tied at 0 on ``m = 4`` points ``x_i = 1`` (``B = 1``), so the second
    term is ``(s/4) E|zeta_1 + ... + zeta_4|`` (the 16 sign vectors enumerated), against (8), ``2 sqrt(s c log 4)``."""
    m = 4
    mean_abs = mpmath.mpf(sum(abs(sum(z)) for z in itertools.product((-1, 1), repeat=m))) / 2**m
    with mpmath.workdps(DIGITS):
        c = mpmath.mpf(c)
        s = mpmath.floor((mpmath.mpf(16) / 3) ** 2 * c * mpmath.log(4)) + 1
        term = s / m * mean_abs
        bound = 4 * mpmath.sqrt(s * c * mpmath.log(m)) / mpmath.sqrt(m)
        return dict(c=float(c), s=int(s), ratio=float(term / bound), holds=bool(term > bound))


def lemma9_tail_explicit() -> dict:
    """lemma9-tail-no-constant's explicit network at ``c = 1``: all ``s = 64`` sign vectors of ``n = 6``, where every
    ``x`` has a ``v_j = -x`` with ``<v_j, x> = -6 < -sqrt(6 log 384)``, so the left side is 1."""
    n, s = 6, 64
    signs = np.array(list(itertools.product((-1, 1), repeat=n)))
    with mpmath.workdps(DIGITS):
        T = mpmath.sqrt(n * mpmath.log(n * s))
        lowest = (signs @ signs.T).min(axis=1)  # min_j <v_j, x> for each x, an integer
        left = mpmath.mpf(sum(1 for value in lowest if value < -T)) / 2**n
        middle = 2 * n * mpmath.mpf(n * s) ** (-mpmath.mpf(1) / 2)
        return dict(c=1, n=n, ratio=float(left / middle), holds=bool(left > middle))


def _record(check_id: str, table: pd.DataFrame, worst: float, label: str, range_: str, notes: str):
    return Assembly("scaling", {"digits": DIGITS}).record(
        CHECKS[check_id],
        "",
        worst,
        label,
        Verdict.PASS if table["holds"].all() else Verdict.INCONCLUSIVE,
        len(table),
        notes,
        covered=range_,
    )


def uniform_no_constant_records() -> list:
    """The ledger rows of the six families, evaluated at assembly."""
    pairs = list(itertools.product(CONSTANTS, CONSTANTS))
    constants = "{" + ", ".join(f"{c:g}" for c in CONSTANTS) + "}"
    final = pd.DataFrame([final_line_family(c, C, n, s) for c, C in pairs for n, s in FINAL_LINE_DIMENSIONS])
    rho = pd.DataFrame([rho_family(c, C) for c, C in pairs])
    tail = pd.DataFrame([tail_family(c, c_d) for c, c_d in pairs])
    v = pd.DataFrame([row for c, C in pairs for row in lemma9_v_family(c, C)])
    eq8 = pd.DataFrame([eq8_family(c) for c in CONSTANTS])
    hoeffding = pd.DataFrame([lemma9_tail_explicit(), *(lemma9_tail_family(c, n) for c, n in TAIL_POINTS)])
    dimensions = ", ".join(f"({n}, {s})" for n, s in FINAL_LINE_DIMENSIONS)
    return [
        _record(
            CHECKS.theorem8_final_line_no_constant.id,
            final,
            float(final["count"].max()),
            "max C n^d log(1/delta)/eps at the printed degree (3 samples needed)",
            f"c, C in {constants}; (n, s) in {{{dimensions}}}",
            f"printed degrees D from {final['D'].min()} to {final['D'].max()}; lam^2 = 20 C n^D up to "
            f"exp({final['log_lam2'].max():.4g})",
        ),
        _record(
            CHECKS.theorem8_rho_no_constant.id,
            rho,
            float(rho["ratio"].min()),
            "min Lemma 10's bound / (eps/3) at the printed 1 - rho",
            f"c, C in {constants}",
            f"eps = exp(-L/2)/sqrt(c) with L from {rho['L'].min():.4g} to {rho['L'].max():.4g}",
        ),
        _record(
            CHECKS.theorem8_tail_no_constant.id,
            tail,
            float(tail["ratio"].min()),
            "min d(1 - rho) / (3(1 - rho^d)) at the printed 1 - rho, d = ceil(c_d X/eps^2)",
            f"c, c_d in {constants}",
            f"eps = exp(-L) with L from {tail['L'].min():.4g} to {tail['L'].max():.4g}; d(1 - rho) - 3 from "
            f"{tail['excess'].min():.3g} to {tail['excess'].max():.3g}",
        ),
        _record(
            CHECKS.lemma9_V_no_constant.id,
            v,
            float(v["ratio"].min()),
            "min middle expression / (C x last expression)",
            f"c, C in {constants}; W = 0 and W = n^(-1/4) log^(-1/2)(4n)",
            f"n = floor(4C^2) + 1 from {v['n'].min()} to {v['n'].max()}",
        ),
        _record(
            CHECKS.eq8_no_constant.id,
            eq8,
            float(eq8["ratio"].min()),
            "min second term / (8) with the printed cells",
            f"c in {constants}; s = floor((16/3)^2 c log 4) + 1",
            f"s from {eq8['s'].min()} to {eq8['s'].max()}",
        ),
        _record(
            CHECKS.lemma9_tail_no_constant.id,
            hoeffding,
            float(hoeffding["ratio"].min()),
            "min left side (averaged over the sign vectors) / middle expression",
            "(c, n) in {" + ", ".join(f"({c}, {n:g})" for c, n in TAIL_POINTS) + "} with s = n^2; c = 1, n = 6, s = 64",
            f"ratios from {hoeffding['ratio'].min():.4g} to {hoeffding['ratio'].max():.4g}",
        ),
    ]
