"""Figures of the claim ``lemma9`` (average sensitivity of sparsely activated networks)."""

from __future__ import annotations

import numpy as np
import pandas as pd

from sparseact.plots._style import plt, setup_style

CAPTIONS = {
    "as-vs-n": "Worst exact AS/W^2 per n and certified k (solid), Lemma 9's expression/W^2 with constant 1 (dotted) "
               "and our bound 4k^2 (dashed); black squares: Monte Carlo AS/W^2 with 95% intervals. The measured "
               "sensitivity stays far below both bounds and does not grow with n.",
    "ratio-heatmap": "Worst AS / Lemma 9's expression (constant 1) over the exact and adversarial networks, by "
                     "certified k and s: the observed constant is small everywhere.",
    "proof-steps": "The proof's printed steps against the exact values, one dot per network. Left: term (U) against "
                   "k^2W^2/4 (printed bound, solid line) and k^2W^2 (corrected, dashed); dots above the solid line "
                   "violate the printed step. Right: Pr[R_x != R_x^i] against (1/n) sum_j AS(g_j) (printed, solid) "
                   "and 4x that (union bound, dashed); one-neuron networks sit exactly on the dashed line.",
}


def _grid(tables: dict) -> pd.DataFrame:
    return pd.concat([tables["lemma9-exact"], tables["lemma9-adversarial"]], ignore_index=True)


def as_vs_n(tables: dict):
    """AS/W^2 against n (log-log) per certified k: worst network, Lemma 9's expression and 4 k^2."""
    exact, mc = _grid(tables), tables["lemma9-monte-carlo"]
    fig, ax = plt.subplots(figsize=(6.4, 4.2))
    for i, (k, group) in enumerate(exact.groupby("k")):
        scaled = group.assign(as_w2=group["AS"] / group["W"] ** 2, expr_w2=group["expression"] / group["W"] ** 2)
        worst = scaled.groupby("n")[["as_w2", "expr_w2"]].max()
        ax.loglog(worst.index, worst["as_w2"], "o-", color=f"C{i}", ms=3, label=f"max AS/W^2, k={k}")
        ax.loglog(worst.index, worst["expr_w2"], ":", color=f"C{i}", label=f"expression/W^2, k={k}")
        ax.axhline(4 * k * k, color=f"C{i}", lw=0.7, ls="--")
    if len(mc):
        scale = mc["W"] ** 2
        ax.errorbar(mc["n"], mc["AS"] / scale, yerr=[(mc["AS"] - mc["AS_ci_low"]) / scale,
                                                     (mc["AS_ci_high"] - mc["AS"]) / scale],
                    fmt="s", color="k", ms=3, label=f"Monte Carlo AS/W^2 (95% CI), s={int(mc['s'].iloc[0])}")
    ax.set_xlabel("n")
    ax.set_ylabel("AS / W^2")
    ax.set_title("Lemma 9: average sensitivity against n (dashed: our bound 4k^2)", fontsize=9)
    ax.legend(fontsize=6, ncol=2)
    fig.tight_layout()
    return fig


def ratio_heatmap(tables: dict):
    """Worst AS / expression over (k, s)."""
    import seaborn as sns

    grid = _grid(tables).pivot_table(index="k", columns="s", values="ratio", aggfunc="max")
    fig, ax = plt.subplots(figsize=(5, 3.5))
    sns.heatmap(grid, annot=True, fmt=".2g", cmap="viridis", ax=ax, cbar_kws={"label": "max AS / expression"})
    ax.set_xlabel("s")
    ax.set_ylabel("certified k")
    ax.set_title("Lemma 9: worst observed constant over (k, s)", fontsize=9)
    fig.tight_layout()
    return fig


def proof_steps(tables: dict):
    """(U) against k^2W^2/4 and the transition probability against (1/n) sum_j AS(g_j), with the factor-4 lines."""
    every = pd.concat([_grid(tables), tables["lemma9-neuron"]], ignore_index=True)
    fig, axes = plt.subplots(1, 2, figsize=(8.4, 3.6))
    panels = [(axes[0], "U_bound", "U", "k^2 W^2 / 4 (printed bound)", "(U)"),
              (axes[1], "transition_bound_sum", "transition", "(1/n) sum_j AS(g_j) (printed)",
               "Pr[R_x != R_{x xor i}]")]
    colours = {family: f"C{i}" for i, family in enumerate(sorted(every["family"].unique()))}
    for ax, x, y, xlabel, ylabel in panels:
        data = every[(every[x] > 0) & (every[y] > 0)]
        for family, colour in colours.items():
            group = data[data["family"] == family]
            ax.loglog(group[x], group[y], ".", color=colour, ms=4, label=family)
        lo, hi = data[x].min(), data[x].max()
        line = np.geomspace(lo, hi, 10)
        ax.loglog(line, line, "k-", lw=0.8, label="printed: y = x")
        ax.loglog(line, 4 * line, "k--", lw=0.8, label="corrected: y = 4x")
        ax.set_xlabel(xlabel)
        ax.set_ylabel(ylabel)
    axes[0].set_title("term (U)", fontsize=9)
    axes[1].set_title("union bound on the transition probability", fontsize=9)
    axes[1].legend(fontsize=6)
    fig.tight_layout()
    return fig


def figures(tables: dict) -> dict:
    setup_style()
    return {"as-vs-n": as_vs_n(tables), "ratio-heatmap": ratio_heatmap(tables), "proof-steps": proof_steps(tables)}
