"""Figures of the claim ``lemma9`` (average sensitivity of sparsely activated networks)."""

from __future__ import annotations

import numpy as np
import pandas as pd
import seaborn as sns
from matplotlib.colors import LogNorm

from sparseact.publish.plotting import (
    FULL_WIDTH,
    MIN_FONT,
    SINGLE_WIDTH,
    category_styles,
    colours,
    finish,
    legend_handle,
    legend_outside,
    plt,
    reference_curve,
    reference_line,
    setup_style,
    value_ticks,
)

CAPTIONS = {
    "as-vs-n": "The worst exact AS/W^2 over the networks of each certified k (solid with dots, one colour per k) "
    "against n, log-log, with Lemma 9's expression/W^2 at constant 1 (dotted) and the bound 4k^2 we prove "
    "(dashed), in the same colour; black squares: Monte Carlo estimates with 95% intervals beyond "
    "enumeration. A solid line above its dotted line would exceed Lemma 9 with constant 1, one above its "
    "dashed line our bound, and a solid line rising to the right would mean AS/W^2 grows with n. The "
    "verdicts and the worst values are in the check cards below.",
    "ratio-heatmap": "The worst AS / Lemma 9's expression (constant 1) over the exact and adversarial networks, one "
    "cell per certified k (rows) and s (columns), its value written in the cell (log colour scale; "
    "'none certified': no network of that s is certified at that k). A cell above 1 would exceed the lemma's constant 1; "
    "read along a row or a column to see how the observed constant moves with s or with k. The "
    "verdict and the worst value are in the check cards below.",
    "proof-steps": "The proof's two printed steps, one dot per network (colour and marker: family), log-log. Left: "
    "term (U) against the printed bound k^2W^2/4; right: Pr[R_x != R_x^i] against the printed (1/n) "
    "sum_j AS(g_j). In each panel a dot above the dotted line y = x breaks the printed step, and a dot "
    "above the dashed line y = 4x would break the corrected one. The verdicts and the counts are in "
    "the check cards below.",
}


def _grid(tables: dict) -> pd.DataFrame:
    return pd.concat([tables["lemma9-exact"], tables["lemma9-adversarial"]], ignore_index=True)


def as_vs_n(tables: dict):
    """AS/W^2 against n (log-log) per certified k: worst network, Lemma 9's expression and 4 k^2."""
    exact, mc = _grid(tables), tables["lemma9-monte-carlo"]
    fig, ax = plt.subplots(figsize=(FULL_WIDTH * 0.85, 3.6))
    ks = sorted(exact["k"].unique())
    palette = dict(zip(ks, colours(len(ks)), strict=True))
    for k in ks:
        group = exact[exact["k"] == k]
        scaled = group.assign(as_w2=group["AS"] / group["W"] ** 2, expr_w2=group["expression"] / group["W"] ** 2)
        worst = scaled.groupby("n")[["as_w2", "expr_w2"]].max()
        ax.plot(worst.index, worst["as_w2"], "o-", color=palette[k], ms=3)
        reference_curve(ax, worst.index, worst["expr_w2"], kind="printed", color=palette[k])
        reference_line(ax, y=4 * k * k, kind="corrected", color=palette[k])
    ns = sorted(exact["n"].unique())
    if len(mc):
        scale = mc["W"] ** 2
        ax.errorbar(
            mc["n"],
            mc["AS"] / scale,
            yerr=[(mc["AS"] - mc["AS_ci_low"]) / scale, (mc["AS_ci_high"] - mc["AS"]) / scale],
            fmt="s",
            color="k",
            ms=3,
            capsize=2,
        )
        ns += sorted(mc["n"].unique())
    ax.set_xscale("log")
    ax.set_yscale("log")
    value_ticks(ax, "x", ns)
    ax.set_xlabel("n")
    ax.set_ylabel("$\\mathrm{AS} / W^2$")
    ax.set_title("Lemma 9: average sensitivity against n")
    handles = [legend_handle(color=palette[k], marker="o", ms=3, label=f"k = {k}") for k in ks]
    handles += [
        legend_handle(color="0.3", marker="o", ms=3, label="worst AS/$W^2$ (exact)"),
        legend_handle("printed", color="0.3", label="Lemma 9 expr./$W^2$\n(constant 1)"),
        legend_handle("corrected", color="0.3", label="our bound $4k^2$"),
    ]
    if len(mc):
        handles.append(
            legend_handle(
                color="k",
                marker="s",
                ls="none",
                ms=3,
                label=f"Monte Carlo, 95% CI\n(s = {int(mc['s'].iloc[0])}, k = {int(mc['k'].iloc[0])})",
            )
        )
    legend_outside(ax, handles)
    fig.tight_layout()
    return fig


def ratio_heatmap(tables: dict):
    """Worst AS / expression over (k, s)."""
    grid = _grid(tables).pivot_table(index="k", columns="s", values="ratio", aggfunc="max")
    fig, ax = plt.subplots(figsize=(SINGLE_WIDTH, 3.2))
    sns.heatmap(
        grid,
        annot=True,
        fmt=".2g",
        cmap="viridis",
        ax=ax,
        norm=LogNorm(),
        cbar_kws={"label": "max AS / expression (log scale)"},
        annot_kws={"fontsize": MIN_FONT},
    )
    # a cell without a value says so in the figure itself (no network of that s has that certified k)
    for row, column in zip(*np.nonzero(grid.isna().to_numpy()), strict=True):
        ax.text(column + 0.5, row + 0.5, "none\ncertified", ha="center", va="center", fontsize=MIN_FONT, color="0.4")
    ax.set_xlabel("s")
    ax.set_ylabel("certified k")
    ax.tick_params(axis="y", rotation=0)
    ax.set_title("Lemma 9: worst observed constant over (k, s)")
    fig.tight_layout()
    return fig


def proof_steps(tables: dict):
    """(U) against k^2W^2/4 and the transition probability against (1/n) sum_j AS(g_j), with the factor-4 lines."""
    every = pd.concat([_grid(tables), tables["lemma9-neuron"]], ignore_index=True)
    fig, axes = plt.subplots(1, 2, figsize=(FULL_WIDTH, 3.2))
    panels = [
        (axes[0], "U_bound", "U", "printed bound $k^2 W^2 / 4$", "term (U)"),
        (
            axes[1],
            "transition_bound_sum",
            "transition",
            "printed bound $\\frac{1}{n}\\sum_j \\mathrm{AS}(g_j)$",
            "$\\Pr[R_x \\neq R_{x^{\\oplus i}}]$",
        ),
    ]
    families = sorted(every["family"].unique())
    styles = dict(zip(families, category_styles(len(families)), strict=True))
    for ax, x, y, xlabel, ylabel in panels:
        data = every[(every[x] > 0) & (every[y] > 0)]
        for family in families:
            group = data[data["family"] == family]
            ax.plot(group[x], group[y], ls="none", **styles[family], ms=3, alpha=0.7, mew=0, label=family)
        line = np.geomspace(data[x].min(), data[x].max(), 10)
        reference_curve(ax, line, line, kind="printed", label="printed step: y = x")
        reference_curve(ax, line, 4 * line, kind="corrected", label="corrected: y = 4x")
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.set_xlabel(xlabel)
        ax.set_ylabel(ylabel)
    axes[0].set_title("term (U)")
    axes[1].set_title("union bound on the transition probability")
    legend_outside(fig, axes=[axes[0]], where="below", ncol=5)
    fig.tight_layout()
    return fig


def figures(tables: dict) -> dict:
    setup_style()
    return finish(
        {"as-vs-n": as_vs_n(tables), "ratio-heatmap": ratio_heatmap(tables), "proof-steps": proof_steps(tables)}
    )
