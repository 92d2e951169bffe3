"""Figures of the claim ``theorem13`` (p-juntas as 1-sparse networks; the low-degree cliff at d = p)."""

from __future__ import annotations

import numpy as np
from matplotlib.patches import Patch

from sparseact.publish.plotting import (
    FULL_WIDTH,
    MIN_FONT,
    colours,
    finish,
    integer_ticks,
    legend_handle,
    legend_outside,
    plt,
    reference_line,
    setup_style,
    value_ticks,
)

CAPTIONS = {
    "junta-scale": "Definition 2 scales W (left) and B (right) of the proof's junta networks (largest over all n, s, "
    "instances and seeds; dots) against the junta size p, with the proof's levels sqrt(p) and p "
    "(solid) and the theorem's levels sqrt(log2 s) and log2 s (dotted, one per s, labelled on the "
    "right). A dot above the solid line would exceed the proof's scale; the theorem's levels cover the "
    "proof's only for p <= log2 s. The title gives the most neurons active on any cube. The verdicts "
    "are in the check cards below.",
    "hardness-cliff": "Left: exact test error of the low-degree learner relative to the trivial error, against the "
    "degree d, at the largest n (mean over seeds; one colour per p; parities solid, random juntas "
    "dashed; a constant random table, whose trivial error is 0, is left out), with d = p dotted in "
    "each colour. No polynomial of degree below p correlates with a parity of p bits, so a parity "
    "line cannot fall below 1 (the trivial error) left of its dotted line; a random junta's line "
    "may drop earlier. Right: the number of features N_p(n) the learner needs at d = p (points) "
    "against n, log-log, with the bounds (n/p)^p and (e n/p)^p (shaded).",
}


def _junta_scale(table):
    fig, axes = plt.subplots(1, 2, figsize=(FULL_WIDTH, 3.0))
    p = np.arange(1, int(table["p"].max()) + 1)
    for ax, col, proof, theorem, label in (
        (axes[0], "W", np.sqrt(p), "W_theorem", "W"),
        (axes[1], "B", p.astype(float), "B_theorem", "B"),
    ):
        worst = table.groupby("p")[col].max()
        ax.plot(worst.index, worst.values, "o", label=f"measured {label} (max)", zorder=3)
        ax.plot(p, proof, "-", color="C1", label="proof: $\\sqrt{p}$" if col == "W" else "proof: p")
        levels = table.groupby("s")[theorem].first()
        for i, (s, level) in enumerate(levels.items()):
            reference_line(
                ax,
                y=level,
                kind="printed",
                color="0.5",
                lw=0.9,
                label=("theorem: $\\sqrt{\\log_2 s}$" if col == "W" else "theorem: $\\log_2 s$") if i == 0 else None,
            )
            ax.annotate(
                f"s = {s}",
                (1.01, level),
                xycoords=("axes fraction", "data"),
                va="center",
                ha="left",
                fontsize=MIN_FONT,
                color="0.4",
            )
        ax.set_xlabel("junta size p")
        ax.set_ylabel(label)
        integer_ticks(ax, "x")
        ax.legend(loc="upper left")
    fig.suptitle(
        "Theorem 13: junta networks in $H_{n,s,1}^{\\sqrt{p},p}$ "
        f"(max active = {int(table['max_active'].max())} on every cube)"
    )
    fig.tight_layout()
    return fig


def _hardness_cliff(hard, cost):
    fig, axes = plt.subplots(1, 2, figsize=(FULL_WIDTH, 3.2))
    n_max = int(hard["n"].max())
    at_n = hard[(hard["n"] == n_max) & (hard["trivial"] > 0)].assign(relative=lambda t: t["test_error"] / t["trivial"])
    mean = at_n.groupby(["p", "target", "degree"], as_index=False)["relative"].mean()
    ps = sorted(int(p) for p in set(hard["p"]) | set(cost["p"]))
    palette = dict(zip(ps, colours(len(ps)), strict=True))
    for (p, target), group in mean.groupby(["p", "target"]):
        axes[0].plot(
            group["degree"],
            group["relative"],
            "-" if target == "parity" else "--",
            marker="o",
            ms=3,
            color=palette[int(p)],
        )
        if target == "parity":
            reference_line(axes[0], x=p, kind="printed", color=palette[int(p)], lw=0.9)
    axes[0].set_xticks(sorted(int(d) for d in hard["degree"].unique()))
    axes[0].set_xlabel("degree d")
    axes[0].set_ylabel("test error / trivial error")
    axes[0].set_title(f"low-degree learner, n = {n_max}")
    for p, group in cost.groupby("p"):
        group = group.drop_duplicates("n").sort_values("n")
        colour = palette[int(p)]
        axes[1].fill_between(group["n"], group["lower"], group["upper"], color=colour, alpha=0.15, lw=0)
        axes[1].plot(group["n"], group["N_p"], "o-", color=colour, ms=4)
    axes[1].set_xscale("log")
    axes[1].set_yscale("log")
    value_ticks(axes[1], "x", cost["n"].unique())
    axes[1].set_xlabel("n")
    axes[1].set_ylabel("features $N_p(n)$ at d = p")
    axes[1].set_title("cost of the learner at d = p")
    handles = [legend_handle(color=palette[p], marker="o", ms=3, label=f"p = {p}") for p in ps]
    handles += [
        legend_handle(color="0.3", label="parity"),
        legend_handle(color="0.3", ls="--", label="random junta"),
        legend_handle("printed", color="0.3", label="d = p"),
        Patch(color="0.3", alpha=0.2, label="$(n/p)^p$ .. $(en/p)^p$"),
    ]
    legend_outside(fig, handles, where="below", ncol=4)
    fig.tight_layout()
    return fig


def figures(tables: dict) -> dict:
    setup_style()
    return finish(
        {
            "junta-scale": _junta_scale(tables["theorem13-junta"]),
            "hardness-cliff": _hardness_cliff(tables["theorem13-hardness"], tables["theorem13-cost"]),
        }
    )
