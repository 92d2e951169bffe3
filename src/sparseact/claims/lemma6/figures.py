"""Figures of the claim ``lemma6`` (average sensitivity of a halfspace, Kane 2014)."""

from __future__ import annotations

import numpy as np

from sparseact.publish.plotting import (
    FULL_WIDTH,
    SINGLE_WIDTH,
    finish,
    legend_outside,
    plt,
    reference_curve,
    reference_line,
    sequential,
    setup_style,
)

CAPTIONS = {
    "ratio-vs-p": "The observed constant of Lemma 6, AS(g) / (p sqrt(n log(1/p))), against the mean p of the "
    "halfspace (log scale), one panel per kind of halfspace, coloured by n. A point above the dashed "
    "line would exceed the constant 1; if the constant grew as p shrinks or n grows, the points would "
    "rise to the left or along the colour scale. The verdict and the worst value are in the check cards "
    "below.",
    "identity": "The identity in the proof of Lemma 6 on every halfspace with w > 0 and 0 < p < 1: AS(g) against "
    "E[g(x) sum_i x_i], one colour per kind of halfspace. A point on the dashed line satisfies the "
    "corrected identity AS = -(1/2) E[g sum x_i], one on the dotted line the printed AS = (1/4) E[g sum "
    "x_i], whose slope has the opposite sign. The verdicts are in the check cards below.",
}


def ratio_vs_p(tables: dict):
    """Measured constant AS / (p sqrt(n log 1/p)) against p, one panel per kind, coloured by n."""
    table = tables["lemma6"]
    table = table[np.isfinite(table["ratio"])]
    kinds = sorted(table["kind"].unique())
    fig, axes = plt.subplots(1, len(kinds), figsize=(FULL_WIDTH, 3.0), sharex=True, sharey=True, squeeze=False)
    palette = sequential(table["n"])
    for ax, kind in zip(axes[0], kinds, strict=True):
        for n, group in table[table["kind"] == kind].groupby("n"):
            ax.plot(group["p"], group["ratio"], "o", color=palette[n], ms=3, alpha=0.7, mew=0, label=f"n = {n}")
        reference_line(ax, y=1.0, kind="corrected", label="constant 1")
        ax.set_xscale("log")
        ax.set_ylim(0, 1.08)
        ax.set_title(kind)
        ax.set_xlabel("p = E[g]")
    axes[0][0].set_ylabel("AS(g) / (p $\\sqrt{n \\log(1/p)}$)")
    legend_outside(fig, where="right")
    fig.suptitle("Lemma 6 (Kane): observed constant")
    fig.tight_layout()
    return fig


def identity(tables: dict):
    """AS(g) against E[g sum x_i] for w > 0, with the printed and corrected lines."""
    table = tables["lemma6"]
    table = table[table["positive"] & (table["p"] > 0) & (table["p"] < 1)]
    fig, ax = plt.subplots(figsize=(SINGLE_WIDTH * 1.2, 3.2))
    for i, (kind, group) in enumerate(table.groupby("kind")):
        ax.plot(group["correlation_with_sum"], group["AS"], ".", color=f"C{i}", ms=5, label=kind)
    c = np.linspace(min(table["correlation_with_sum"].min(), 0.0), 0.0, 10)
    reference_curve(ax, c, -0.5 * c, kind="corrected", label="corrected:\nAS = -(1/2) E[g $\\sum x_i$]")
    reference_curve(ax, c, 0.25 * c, kind="printed", label="printed:\nAS = (1/4) E[g $\\sum x_i$]")
    ax.set_xlabel("E[g(x) $\\sum_i x_i$]")
    ax.set_ylabel("AS(g)")
    ax.set_title("Lemma 6, proof: the identity for w > 0")
    legend_outside(ax)
    fig.tight_layout()
    return fig


def figures(tables: dict) -> dict:
    setup_style()
    return finish({"ratio-vs-p": ratio_vs_p(tables), "identity": identity(tables)})
