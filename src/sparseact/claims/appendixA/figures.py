"""Figures of the claim ``appendixA`` (the Appendix A network with dense weights)."""

from __future__ import annotations

import numpy as np

from sparseact.claims.appendixA.compute import hoeffding_bound
from sparseact.publish.plotting import (
    FULL_WIDTH,
    REFERENCE_STYLES,
    SINGLE_WIDTH,
    finish,
    integer_ticks,
    legend_outside,
    plt,
    reference_curve,
    reference_line,
    setup_style,
    value_ticks,
)

CAPTIONS = {
    "sqrt_q": "Left: with Gamma = sqrt(q), the largest number of active neurons over all inputs against max_alpha "
    "||w_alpha||_1 / (2 Gamma), one marker per network (marker: family of rows; all draws and seeds). Left "
    "of the dotted line the sufficient condition ||w_alpha||_1 <= 2 Gamma is met, so a network there above "
    "the dashed line (one active neuron) would contradict 1-sparsity; right of it, as for the all-ones rows "
    "of the printed statement (no norm condition), more may fire. Right: the exact fraction of inputs with "
    "more than one active neuron against Gamma (unit-norm Gaussian rows, worst draw, one line per s); "
    "1-sparsity at Gamma = sqrt(q) (dashed) means a line at 0 there. The verdicts and the worst values are "
    "in the check cards below.",
    "whp": "The exact fraction of inputs with more than one active neuron at Gamma = c sqrt(ln s) against s, log-log "
    "(unit-norm rows, worst draw and seed; one colour per c; zero values are not drawn), with the explicit "
    "Hoeffding bound (A.2) sum_d C(b,d) exp(-2 Gamma^2 d^2) dotted in the same colour. A solid line above its "
    "dotted bound would contradict (A.2); a fraction falling like a power of s, as 'with probability 1 - "
    "1/poly(s)' asks, is a straight descending line on these axes. The verdicts and the worst values are in "
    "the check cards below.",
}


def figures(tables: dict) -> dict:
    setup_style()
    sq, sweep, whp = tables["sqrt_q"], tables["gamma_sweep"], tables["whp"]
    fig, axes = plt.subplots(1, 2, figsize=(FULL_WIDTH, 3.2))
    markers = {"unit-gaussian": "o", "unit-sign": "s", "gaussian": "^", "all-ones": "D"}
    for i, (family, group) in enumerate(sq.groupby("family", sort=False)):
        axes[0].scatter(
            group["max_w_norm1"] / (2 * group["gamma"]),
            group["max_active"],
            marker=markers.get(family, "o"),
            color=f"C{i}",
            s=18,
            alpha=0.7,
            label=family,
        )
    reference_line(axes[0], x=1.0, kind="printed", label="$\\|w_\\alpha\\|_1 = 2\\Gamma$")
    reference_line(axes[0], y=1.0, kind="corrected", color="0.4", label="1 active (1-sparse)")
    integer_ticks(axes[0], "y")
    axes[0].set_xlabel(r"$\max_\alpha \|w_\alpha\|_1 / (2\Gamma)$")
    axes[0].set_ylabel("max active neurons (all inputs)")
    axes[0].set_title(rf"$\Gamma=\sqrt{{q}}$, q = {int(sq['q'].iloc[0])}")
    axes[0].legend(loc="upper left")  # the networks sit at y = 1 (left) and right of the dotted line
    q = int(sweep["q"].iloc[0])
    for b, group in sweep.groupby("b"):
        worst = group.groupby("gamma")["excess_fraction"].max()
        axes[1].plot(worst.index, worst.values, "o-", ms=3, label=f"s = {2**b}")
    reference_line(axes[1], x=np.sqrt(q), kind="corrected", label=r"$\Gamma=\sqrt{q}$")
    axes[1].set_xlabel(r"$\Gamma$")
    axes[1].set_ylabel("Pr[> 1 active] (exact, worst draw)")
    axes[1].set_title(f"unit-norm Gaussian rows, q = {q}")
    axes[1].legend(loc="center right")
    fig.suptitle("Appendix A: 1-sparsity at $\\Gamma = \\sqrt{q}$ needs a norm bound on $w_\\alpha$")
    fig.tight_layout()

    fig2, ax = plt.subplots(figsize=(SINGLE_WIDTH * 1.25, 3.2))
    for i, (c, group) in enumerate(whp.groupby("c")):
        worst = group.groupby("s")["excess_fraction"].max()
        positive = worst[worst > 0]
        ax.plot(positive.index, positive.values, "o-", color=f"C{i}", label=f"c = {c:g}")
        s = np.array(sorted(worst.index))
        bound = [hoeffding_bound(int(np.log2(v)), c * np.sqrt(np.log(v))) for v in s]
        reference_curve(ax, s, bound, kind="printed", color=f"C{i}")
    ax.plot([], [], label="bound (A.2),\nsame colour", **{**REFERENCE_STYLES["printed"], "color": "0.3"})
    ax.set_yscale("log")
    ax.set_xscale("log", base=2)
    value_ticks(ax, "x", whp["s"].unique(), fmt="{:.0f}")
    ax.set_xlabel("s")
    ax.set_ylabel(r"Pr[> 1 active] at $\Gamma = c\sqrt{\ln s}$")
    ax.set_title(f"Appendix A: 1-sparse w.p. $1 - 1/\\mathrm{{poly}}(s)$ (q = {int(whp['q'].iloc[0])})")
    legend_outside(ax)
    fig2.tight_layout()
    return finish({"sqrt_q": fig, "whp": fig2})
