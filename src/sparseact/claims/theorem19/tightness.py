"""Theorem 19's tightness table: (1), (15), (16) and the classical bound, printed against proved against the best
family (the exact ``R_H(S)`` of the largest enumerated sample, or the sample where (1) is attained)."""

from __future__ import annotations

import pandas as pd

from sparseact.claims.theorem19.bounds import exact_range
from sparseact.claims.theorem19.compute import BOUND_EXPRS
from sparseact.fitting import exponent_text
from sparseact.verify import corners

#: theorem19-uniform (compute.UNIFORM_EXPR) in TeX, for the tightness table.
UNIFORM_TEX = r"$(1+\sqrt{2})\,\frac{(WR+B)\sqrt{snk\log(em)}}{\sqrt{m}}$"
#: The ``bound`` column of the tightness table, per bound key.
TIGHTNESS_LABELS = {
    "eq1": "Theorem 19: R_H(S) (eq. (1))",
    "eq15": "R_H(S), k-sparse (eq. (15))",
    "conj20": "Conjecture 20: R_H(S) (eq. (16))",
    "dense": "R_H(S) of the dense class (classical bound)",
}
#: Bound key -> its reference, printed and proved forms, the fit of its class, and its exponents printed and proved.
SPECS = {
    "eq1": (
        "Theorem 19, eq. (1)",
        r"$\frac{(WR+B)\sqrt{sn\log(m(R+B))}}{\sqrt{m}}$",
        UNIFORM_TEX,
        "sparse",
        "s^0.5 n^0.5 m^-0.5 (up to log m)",
        "s^0.5 n^0.5 m^-0.5 (up to log m)",
    ),
    "eq15": (
        "Section 5, eq. (15)",
        r"$\frac{(WR+B)\sqrt{snk\log(km(R+B))}}{\sqrt{m}}$",
        UNIFORM_TEX,
        "sparse",
        "s^0.5 n^0.5 k^0.5 m^-0.5 (up to log m)",
        "s^0.5 n^0.5 k^0.5 m^-0.5 (up to log m)",
    ),
    "conj20": (
        "Conjecture 20, eq. (16)",
        r"$\frac{(WR+B)\sqrt{sk}}{\sqrt{m}}$",
        "theorem19-uniform: " + UNIFORM_TEX,
        "sparse",
        "s^0.5 k^0.5 n^0 m^-0.5",
        "not proved",
    ),
    "dense": (
        "Section 5 (classical bound)",
        r"$\frac{(WR+B)s}{\sqrt{m}}$",
        r"$2\frac{(WR+B)s}{\sqrt{m}}$",
        "dense",
        "s^1 m^-0.5",
        "s^1 m^-0.5",
    ),
}


def dense_exact_lower(low: pd.DataFrame) -> pd.DataFrame:
    """The rows of the Conjecture 20 table (exact lower bounds on ``R_H(S)``: all ``2^m`` sign vectors, one explicit
    network each) of a dense class (``k = s``), with ``ratio`` the lower bound over the classical bound
    ``(WR+B)s/sqrt(m)``. ``R_{H_{n,s,s}} = s R_{H_{n,1,1}}`` (the sup decouples over neurons) and the bound has the
    factor ``s`` too, so a ratio at ``s = k = 1`` is the dense class's ratio for every ``s``."""
    dense = low[low["k"] == low["s"]]
    return dense.assign(ratio=dense["lower"] / dense["dense"])


def _monte_carlo_gap(mc: pd.DataFrame, key: str) -> str:
    """The sweep's largest lower-bound estimate over the printed bound ``key``, with its 95% interval: a statistic."""
    if not len(mc):
        return "no sweep point"
    ratio = mc["estimate"] / mc[key]
    top = mc.loc[ratio.idxmax()]
    return (
        f"the sweep's largest Monte Carlo lower-bound estimate is {ratio.max():.3g} x the printed bound "
        f"(m = {int(top['m'])}, 95% interval {top['ci_low'] / top[key]:.3g} to {top['ci_high'] / top[key]:.3g}; "
        f"m <= {int(mc['m'].max())}), a statistic that decides nothing"
    )


def _frames(key: str, exact, sweep) -> tuple:
    """The exact points and the sweep points of the class of ``key``."""
    sparse = sweep[sweep["cls"] == "sparse"]
    return {
        "eq1": (exact[exact["k"] == 1], sparse[sparse["k"] == 1]),
        "eq15": (exact, sparse),
        "conj20": (exact, sparse),
        "dense": (exact[exact["k"] == exact["s"]], sweep[sweep["k"] == sweep["s"]]),
    }[key]


def _gap(key: str, top, ex, mc, lower) -> str:
    """What is known between the printed bound ``key`` and ``R_H(S)``: exact values, exact lower bounds, estimates."""
    if key == "dense" and len(lower):
        return (
            f"exact R_H(S) is {'at most' if (ex['exact'] <= ex[key]).all() else 'above'} it on the enumerated "
            f"samples ({exact_range(ex)}); exact lower bounds (all 2^m sign vectors, one network each; "
            f"{exact_range(lower)}, the ratio the same for every s) reach at most "
            f"{lower['ratio'].max():.3g} x it"
            + (", so beyond that range no exact computation decides it; " if lower["ratio"].max() <= 1 else "; ")
            + _monte_carlo_gap(mc, key)
            + "; no lower bound of the same order is proved"
        )
    return (
        ("attained at m(R+B) = e, so the constant 1 is best possible; " if not top["distribution"] else "")
        + _monte_carlo_gap(mc, key)
        + (
            "; no proof of (16): theorem19-uniform has n^0.5 and log m"
            if key == "conj20"
            else "; no lower bound of the same order in m and n is proved"
        )
    )


def tightness(exact, sweep, fits, dim_fit, low, tight) -> pd.DataFrame:
    """Theorem 19 (1), eq. (15), Conjecture 20 (16) and the classical bound: printed vs proved vs the best family.

    The proved bound of (1), (15) and (16) is theorem19-uniform, :data:`UNIFORM_TEX` (every parameter). The family
    of (1) and (15) is the sample ``tight`` where (1) is attained (theorem19-constant-sharp, ``m = 1``); the gap of
    the classical bound states what is exact (:func:`dense_exact_lower` on the Conjecture 20 table ``low``)."""
    rows = []
    lower = dense_exact_lower(low)
    attained = tight[tight["m"] == 1].assign(eq15=tight["eq1"], distribution="")
    for key, (ref, printed, proved, fit_name, exp_printed, exp_proved) in SPECS.items():
        ex, mc = _frames(key, exact, sweep)
        if not len(ex):
            continue
        top = ex.sort_values(["m", "s", "k", "exact"]).iloc[-1]  # the largest enumerated point, its largest value
        if key in ("eq1", "eq15") and len(attained):
            top = attained.iloc[0]
        printed_value = float(top[key])
        variables = dict(W=top["W"], R=top["R"], B=top["B"], s=top["s"], n=top["n"], m=top["m"], k=top["k"])
        proved_value = (
            2.0 * float(top["dense"]) if key == "dense" else corners.evaluate(BOUND_EXPRS["uniform"], variables)
        )
        fit = fits.get(fit_name)
        measured = f"{exponent_text(fit, 's')}, {exponent_text(fit, 'm')} (lower-bound estimates, 95% CI)"
        if key == "conj20" and dim_fit is not None:
            measured += f"; {exponent_text(dim_fit, 'n')} at R = 1"
        rows.append(
            dict(
                bound=TIGHTNESS_LABELS[key],
                paper_ref=ref,
                printed=printed,
                proved=proved,
                family=(
                    f"exact R_H(S) of {top['distribution']} cube samples, m = {int(top['m'])}, n = {int(top['n'])}, "
                    f"s = {int(top['s'])}, k = {int(top['k'])}"
                    if top["distribution"]
                    else "exact R_H(S) = WR + B of x_1 = R, m = n = s = k = 1, R + B = e "
                    f"(R = W = 1; theorem19-constant-sharp): (1) / R_H(S) = {printed_value / float(top['exact']):.6f}"
                ),
                family_value=float(top["exact"]),
                printed_over_proved=printed_value / proved_value,
                proved_over_family=proved_value / float(top["exact"]),
                exponents_printed=exp_printed,
                exponents_proved=exp_proved,
                exponents_measured=measured,
                gap=_gap(key, top, ex, mc, lower),
                method="exact",
            )
        )
    return pd.DataFrame(rows)
