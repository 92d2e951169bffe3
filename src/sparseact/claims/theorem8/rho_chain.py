"""The proof's choice of ``rho`` against Lemma 10 (printed and corrected) and the tail chain
``1 <= d(1-rho) <= 3(1-rho^d)`` it needs, with their certificates."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd

from sparseact.claims.theorem8.compute import (
    CERT_C,
    CERT_EPS_MAX,
    LAMBDA_MIN,
    LEMMA10_C,
    WIDE_B,
    WIDE_K,
    WIDE_N,
    WIDE_S,
    WIDE_W,
    corrected_log_one_minus_rho,
    lemma10_ratio,
    printed_log_one_minus_rho,
)
from sparseact.claims.theorem8.rows import CHECKS
from sparseact.claims.theorem8.rows import rows as _rows
from sparseact.verify import certificates as cert
from sparseact.verify.verdicts import Verdict, verdict_all, verdict_at_most

#: The certificate's instance is the largest eps of the fine grid at which the bound exceeds eps/3 this many times.
CERT_MARGIN = 2.0

#: Lemma 10's expression at ``1 - rho = exp(lomr)`` over ``eps/3``, ``eps = exp(-ell)``, in the certificates' formula
#: language (:func:`lemma10_ratio`).
LEMMA10_RATIO_EXPR = "3*C*exp(lomr/2 + ell)*(k**4*W**2*(log(n*s) - lomr)**2 + k**3*B**2*sqrt(log(s)))"
#: ``log(1 - rho*)`` of :func:`corrected_log_one_minus_rho` in the certificates' formula language.
CORRECTED_LOMR_EXPR = (
    "min([-4.0] + ([-2*ell - log(36) - log(k**8*W**4) - 4*log(max(lam_min, 2*log(n*s) "
    "+ 4*(log(6*k**4*W**2) + ell)))] if k*W > 0 else []) + ([-2*ell - log(36) - "
    "log(k**6*B**4*log(s))] if B > 0 and s > 1 else []))"
)

#: The wide grid of the rho checks, as their check texts name it.
WIDE_GRID = {"n": list(WIDE_N), "s": list(WIDE_S), "k": list(WIDE_K), "W": list(WIDE_W), "B": list(WIDE_B)}


def rho_records(block, rho, first, wide):
    """``theorem8/rho-choice`` (the printed ``1 - rho`` against Lemma 10) and its repair ``rho-choice-corrected``."""
    failure = _printed_rho_failure(int(block["n"]), int(block["s"]))
    at_eps = rho[np.isclose(rho["eps"], float(block["eps"]))]
    first_note = "; ".join(
        f"c={r['c']:g}: fails from eps = exp(-{r['ell_first_fail']:.2f})"
        f" (ratio at eps={block['eps']}: {r['ratio_at_eps']:.3g})"
        for _, r in first.iterrows()
    )
    grid_note = ", ".join(
        f"eps={e:.2g}: {v:.3g}"
        for e, v in rho[(rho["k"] == rho["k"].min()) & (rho["B"] == 1.0)][["eps", "ratio_printed"]].to_numpy()
        if 1e-4 <= e < 1
    )
    records = [
        _rows(c=f"{CERT_C:g}").record(
            CHECKS.rho_choice,
            "as printed",
            rho["ratio_printed"].max(),
            "max (Lemma 10 bound)/(eps/3) at c = 1 on the eps grid",
            Verdict.FAIL,
            len(rho) + len(first),
            f"c = 1 on the grid (k=1, B=1): {grid_note}; at eps = {block['eps']}: max ratio "
            f"{float(at_eps['ratio_printed'].max()):.3g}. {first_note}. The log(knsW^2/eps) sits in the numerator "
            "where Lemma 10 needs log^4(ns/(1-rho)) in the denominator: the step does not follow from Lemma 10. "
            "Its conclusion NS_rho(h) <= eps/3 holds nevertheless, by NS_rho <= 2k^2W^2(1-rho) "
            f"({CHECKS.rho_choice_sharp.id}, c <= log^4(2)/72); a repair through Lemma 10 itself is "
            f"{CHECKS.rho_choice_corrected.id} (log(ns) replaced by Theta(log(nskW/eps))).",
            build=lambda: failure,
        )
    ]
    worst = wide.loc[wide["ratio"].idxmax()]
    corrected_max = float(max(wide["ratio"].max(), rho["ratio_corrected"].max()))
    # A FAIL refutes the proposed 1 - rho*, so the printed choice's failure (theorem8/rho-choice, a proof-slip:
    # the step does not follow from Lemma 10) stays unrepaired: the class of the statement it repairs.
    candidates = pd.concat(
        [
            wide[["n", "s", "k", "W", "B", "ell", "ratio"]],
            rho[["n", "s", "k", "W", "B", "ell", "ratio_corrected"]].rename(columns={"ratio_corrected": "ratio"}),
        ],
        ignore_index=True,
    )
    records.append(
        _rows(**WIDE_GRID).record(
            CHECKS.rho_choice_corrected,
            "corrected",
            corrected_max,
            "max (Lemma 10 bound)/(eps/3)",
            verdict_at_most(corrected_max, 1.0),
            len(rho) + len(wide),
            f"worst at n={worst['n']}, s={worst['s']}, k={worst['k']}, W={worst['W']:g}, "
            f"B={worst['B']:g}, eps=exp(-{worst['ell']:g}). Proof "
            "(corrected_log_one_minus_rho): the bias term is <= eps/6 by construction; sqrt(x) "
            "log^2(ns/x) increases on (0, ns e^-4], and log(ns/x_w) <= Lambda, so the weight "
            "term is <= eps/6. With Lemma 10's constant C, replace eps by eps/C. Then d = "
            "ceil(1/(1-rho*)) = Theta((k^8 W^4 Lambda^4 + k^6 B^4 log s)/eps^2) and the tail "
            "chain holds (theorem8/tail-step-*).",
            build=lambda: _corrected_rho_failure(candidates.loc[candidates["ratio"].idxmax()]),
        )
    )
    return records


def _printed_rho_failure(n: int, s: int):
    """Certificate and counterexample: Lemma 10's bound at the printed ``1 - rho`` (``c = CERT_C``, ``k = W = B = 1``)
    exceeds ``eps/3`` at the largest ``eps <= CERT_EPS_MAX`` of a fine grid where it is above ``CERT_MARGIN``; ``None``
    when there is no such ``eps``."""
    k, W, B = 1, 1.0, 1.0
    fine = np.linspace(0.0, 700.0, 70001)
    ratios = lemma10_ratio(printed_log_one_minus_rho(fine, n, s, k, W, B, c=CERT_C), fine, n, s, k, W, B)
    bad = np.flatnonzero((ratios > CERT_MARGIN) & (fine >= -math.log(CERT_EPS_MAX)))
    if not bad.size:
        return None
    ell = float(np.round(fine[bad[0]], 2))  # the largest eps = exp(-ell) <= CERT_EPS_MAX with bound > 2 eps/3
    log_omr = float(printed_log_one_minus_rho(ell, n, s, k, W, B, c=CERT_C))
    value = float(lemma10_ratio(log_omr, ell, n, s, k, W, B))
    variables = dict(c=CERT_C, ell=ell, n=n, s=s, k=k, W=W, B=B)
    lomr = cert.formula(
        "log(c) - 2*ell + log(min((log(k*n*s*W**2) + ell)/(k**8*W**4*log(n*s)**4), 1/(k**6*B**4*log(s))))",
        **variables,
    )
    lhs = cert.formula(LEMMA10_RATIO_EXPR, C=LEMMA10_C, lomr=lomr, ell=ell, n=n, s=s, k=k, W=W, B=B)
    certificate = cert.certificate(
        "<=",
        lhs,
        cert.formula("1"),
        value,
        1.0,
        "Lemma 10's bound C sqrt(1-rho)(k^4 W^2 log^2(ns/(1-rho)) + k^3 B^2 sqrt(log s)) / (eps/3) at the "
        "printed 1-rho, eps = exp(-ell)",
        "1 (the step's NS_rho <= eps/3)",
        f"n={n}, s={s}, k={k}, W={W:g}, B={B:g}, c={CERT_C:g}, C=1, eps=exp(-{ell:g}). For every c, C > 0: once "
        "the bias term binds the min, 1-rho = c eps^2/(k^6 B^4 log s) and the ratio equals 3C sqrt(c)(1 + "
        "k W^2 log^2(ns k^6 B^4 log(s)/(c eps^2))/(B^2 sqrt(log s))), which grows like log^2(1/eps) without bound "
        "(with B = 0 it is >= 3C sqrt(c) sqrt(log(knsW^2/eps))): no constant c makes it <= 1 for all eps",
    )
    return certificate, (
        f"n={n}, s={s}, k=1, W=B=1, c={CERT_C:g}: at eps = exp(-{ell:g}) Lemma 10's bound is {value:.4g} x eps/3 (> 1)"
    )


def _corrected_rho_failure(row):
    """Certificate and counterexample: Lemma 10's bound at ``1 - rho*`` exceeds ``eps/3`` at ``row``'s parameters.

    Parameters
    ----------
    row : mapping
        ``n, s, k, W, B`` and ``ell`` (``eps = exp(-ell)``) of the worst instance.

    Returns
    -------
    tuple of (dict, str) or None
        See :func:`sparseact.verify.certificates.fail_fields`.
    """
    n, s, k, W, B, ell = (
        int(row["n"]),
        int(row["s"]),
        int(row["k"]),
        float(row["W"]),
        float(row["B"]),
        float(row["ell"]),
    )
    value = float(lemma10_ratio(corrected_log_one_minus_rho(ell, n, s, k, W, B), ell, n, s, k, W, B))
    lomr = cert.formula(CORRECTED_LOMR_EXPR, lam_min=LAMBDA_MIN, ell=ell, n=n, s=s, k=k, W=W, B=B)
    certificate = cert.certificate_if_violated(
        "<=",
        cert.formula(LEMMA10_RATIO_EXPR, C=LEMMA10_C, lomr=lomr, ell=ell, n=n, s=s, k=k, W=W, B=B),
        cert.formula("1"),
        value,
        1.0,
        "Lemma 10's bound C sqrt(1-rho*)(k^4 W^2 log^2(ns/(1-rho*)) + k^3 B^2 sqrt(log s)) / (eps/3), eps = exp(-ell)",
        "1 (NS_rho* <= eps/3)",
        f"n={n}, s={s}, k={k}, W={W:g}, B={B:g}, C={LEMMA10_C:g}, eps=exp(-{ell:g}); 1 - rho* = min{{eps^2/(36 k^8 "
        "W^4 Lambda^4), eps^2/(36 k^6 B^4 log s), e^-4}}, Lambda = max(27, 2 log(ns) + 4 log(6k^4W^2/eps))",
    )
    if certificate is None:
        return None
    return certificate, (
        f"n={n}, s={s}, k={k}, W={W:g}, B={B:g}, eps=exp(-{ell:g}): Lemma 10's bound at 1 - rho* "
        f"is {value:.4g} x eps/3 (> 1)"
    )


def _tail_failure(
    row,
    relation: str,
    lhs_expr: str,
    rhs_expr: str,
    lhs_label: str,
    rhs_label: str,
    sides,
    instance: dict | None = None,
):
    """Certificate and counterexample: ``lhs REL rhs`` fails for the tail row ``row`` (``omr = 1 - rho`` and ``d``).

    Both sides are formulas in ``omr`` and ``d`` (``rho^d = (1 - omr)**d``); ``sides(omr, d)`` computes
    them with that plain arithmetic (the table's ``1 - rho^d`` comes from ``expm1``/``log1p``, which the
    formula language lacks, so at tiny ``1 - rho`` the two may differ and the row stays uncertified).

    Parameters
    ----------
    row : mapping
        A row of the tail table (``one_minus_rho``, ``d``, ``source``).
    relation : {"<=", ">="}
        What the chain asserts.
    lhs_expr, rhs_expr : str
        The two sides as formulas of ``omr`` and ``d``.
    lhs_label, rhs_label : str
        The two sides in the paper's notation.
    sides : callable
        ``sides(omr, d) -> (lhs, rhs)``, the two formulas in Python.
    instance : dict, optional
        The parameters from which ``omr`` and ``d`` come (the proof's own d and rho: ``eps, n, s, k, W, B, c``),
        recorded as variables of the left side so that the verifier recomputes ``omr`` and ``d`` from them.

    Returns
    -------
    tuple of (dict, str) or None
        See :func:`sparseact.verify.certificates.fail_fields`.
    """
    omr, d = float(row["one_minus_rho"]), int(row["d"])
    lhs, rhs = (float(v) for v in sides(omr, d))
    if instance is None:
        meaning = f"the check's d = ceil(1/(1-rho)); row: {row['source']}"
    else:
        meaning = (
            f"the proof's own d, the printed degree rounded up, with the Theta constant 1 and c = 1, against "
            f"ceil(1/(1-rho)) = {math.ceil(1 / omr)}; row: {row['source']}. One member of a family: with B = 0, "
            "d(1-rho) = c c_d log(k n s W^2/eps) for the constants c of rho and c_d of d, which exceeds 3 > "
            "3(1-rho^d) once eps < k n s W^2 exp(-3/(c c_d)), so every pair of constants fails for small eps"
        )
    certificate = cert.certificate_if_violated(
        relation,
        cert.formula(lhs_expr, omr=omr, d=d, **(instance or {})),
        cert.formula(rhs_expr, omr=omr, d=d),
        lhs,
        rhs,
        lhs_label,
        rhs_label,
        f"1 - rho = {omr:.17g}, d = {d} ({meaning})",
    )
    if certificate is None:
        return None
    return certificate, f"1 - rho = {omr:.6g}, d = {d}: {lhs_label} = {lhs:.6g}, {rhs_label} = {rhs:.6g}"


#: The proof of Theorem 8 works with eps in (0, 1) (the quantifiers of its steps): the tail step is decided there.
EPS_OPEN_UNIT = (0.0, 1.0)


def tail_records(tail, own, n: int | None = None, s: int | None = None):
    if "eps" in own:
        own = own[(own["eps"] > EPS_OPEN_UNIT[0]) & (own["eps"] < EPS_OPEN_UNIT[1])]
    # The window of x = d(1-rho) in which the chain can hold as rho -> 1: 1 <= x <= 3(1 - e^-x).
    x = 2.8
    for _ in range(200):
        x = 3.0 * (1.0 - np.exp(-x))
    upper = float((own["d_one_minus_rho"] - own["three_one_minus_rho_d"]).max()) if len(own) else float("nan")
    lower = float((1.0 - own["d_one_minus_rho"]).max()) if len(own) else float("nan")
    violation = np.maximum(own["d_one_minus_rho"] - own["three_one_minus_rho_d"], 1.0 - own["d_one_minus_rho"])

    def tail_step_failure():
        # the most moderate violated instance: the largest 1 - rho (largest eps) among the violations
        bad = own[violation > 0]
        row = bad.loc[bad["one_minus_rho"].idxmax()] if len(bad) else own.loc[violation.idxmax()]
        # the proof's own d and rho come from these (Theta constant 1, c = 1, W = 1)
        instance = (
            dict(eps=float(row["eps"]), n=n, s=s, k=int(row["k"]), W=1.0, B=float(row["B"]), c=1.0)
            if n is not None and s is not None and {"eps", "k", "B"} <= set(row.index)
            else None
        )
        if row["d_one_minus_rho"] - row["three_one_minus_rho_d"] >= 1.0 - row["d_one_minus_rho"]:
            return _tail_failure(
                row,
                "<=",
                "d*omr",
                "3*(1 - (1 - omr)**d)",
                "d(1-rho)",
                "3(1-rho^d)",
                lambda omr, d: (d * omr, 3 * (1 - (1 - omr) ** d)),
                instance,
            )
        return _tail_failure(row, ">=", "d*omr", "1", "d(1-rho)", "1", lambda omr, d: (d * omr, 1.0), instance)

    verdict = (
        verdict_all([verdict_at_most(upper, 0.0), verdict_at_most(lower, 0.0)]) if len(own) else Verdict.INCONCLUSIVE
    )
    # The chain is a step of Theorem 8's proof: a FAIL means that step is wrong (proof-slip).
    records = [
        _rows().record(
            CHECKS.tail_step,
            "as printed, the proof's d and rho",
            max(upper, lower),
            "max violation of 1 <= d(1-rho) <= 3(1-rho^d)",
            verdict,
            len(own),
            (
                f"at the proof's own d (the printed degree rounded up) and 1 - rho (c = 1; {len(own)} (k, B, eps) rows): max d(1-rho) - "
                f"3(1-rho^d) = {upper:.4g}, max 1 - d(1-rho) = {lower:.4g}. The chain needs 1 <= d(1-rho) <= {x:.4f} as rho -> "
                "1 (root of x = 3(1-e^-x)); with B = 0 the proof's d(1-rho) = c log(knsW^2/eps) grows without bound as eps -> "
                "0 for every pair of constants, so the middle inequality fails. The conclusion survives: with "
                f"d = ceil(1/(1-rho)) Claim 2.1 gives 2 NS_rho/(1-rho^d) <= 1.05 eps ({CHECKS.tail_step_corrected.id}), and "
                "our route gives tail <= AS/(d+1) <= eps at d >= 4k^2W^2/eps (theorem8-sharp)."
            ),
            build=tail_step_failure,
        )
    ]
    worst = float(tail["one_minus_rho_d"].min())
    # A FAIL refutes the corrected chain, so the printed step's slip (theorem8/tail-step) stays unrepaired:
    # the class of the statement it repairs, proof-slip.
    corrected = _rows().record(
        CHECKS.tail_step_corrected,
        "corrected",
        worst,
        "min 1 - rho^d",
        verdict_at_most(1.0 - np.exp(-1.0), worst),
        len(tail),
        f"min 1 - rho^d = {worst:.6g} >= 1 - 1/e = {1 - np.exp(-1):.6g} (exactly: log rho <= -(1-rho), so "
        "rho^d <= rho^{1/(1-rho)} <= 1/e); hence the tail is <= 2 eps/(3(1-1/e)) = "
        f"{2 / (3 * (1 - np.exp(-1))):.4f} eps = O(eps), which Lemma 7's (O(eps), delta) guarantee absorbs.",
        build=lambda: _tail_failure(
            tail.loc[tail["one_minus_rho_d"].idxmin()],
            ">=",
            "1 - (1 - omr)**d",
            "1 - exp(-1)",
            "1 - rho^d",
            "1 - 1/e",
            lambda omr, d: (1 - (1 - omr) ** d, 1 - np.exp(-1.0)),
        ),
    )
    return [*records, corrected]
