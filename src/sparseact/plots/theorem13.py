"""Figures of the claim ``theorem13`` (p-juntas as 1-sparse networks; the low-degree cliff at d = p)."""

from __future__ import annotations

import math

import numpy as np
from matplotlib.ticker import FixedFormatter, FixedLocator, NullLocator

from sparseact.plots._style import plt, setup_style

CAPTIONS = {
    "junta-scale": "Definition 2 scales of the proof's junta networks (largest over all n, s, instances and seeds) "
    "against the proof's levels sqrt(p) and p (solid) and the theorem's levels sqrt(log2 s), log2 s (dotted, one "
    "per s). W = sqrt(p) exactly; B = p - 1, the bias, below p.",
    "hardness-cliff": "Left: exact test error of the low-degree learner relative to the trivial error, against the "
    "degree d, at the largest n (mean over seeds; parities solid, random juntas dashed; a constant random table, "
    "whose trivial error is 0, is left out): parities stay at the "
    "trivial error until d = p and drop to 0 there. Right: the number of features N_p(n) the learner needs at d = p "
    "(points) between the exact bounds (n/p)^p and (e n/p)^p (band), log-log.",
}


def _junta_scale(table):
    fig, axes = plt.subplots(1, 2, figsize=(8, 3.2))
    p = np.arange(1, int(table["p"].max()) + 1)
    for ax, col, proof, theorem, label in (
        (axes[0], "W", np.sqrt(p), "W_theorem", "W"),
        (axes[1], "B", p.astype(float), "B_theorem", "B"),
    ):
        worst = table.groupby("p")[col].max()
        ax.plot(worst.index, worst.values, "o", label=f"measured {label} (max)")
        ax.plot(p, proof, "-", label="proof: sqrt(p)" if col == "W" else "proof: p")
        for s, level in table.groupby("s")[theorem].first().items():
            ax.axhline(level, ls=":", lw=0.8, color="grey")
            ax.annotate(f"s={s}", (p[-1], level), fontsize=7, va="bottom", ha="right", color="grey")
        ax.set_xlabel("junta size p")
        ax.set_ylabel(label)
        ax.legend(fontsize=7, loc="upper left")
    fig.suptitle("Theorem 13: junta networks in $H_{n,s,1}^{\\sqrt{p},p}$ (max active = %d on every cube)"
                 % int(table["max_active"].max()))
    fig.tight_layout()
    return fig


def _hardness_cliff(hard, cost):
    fig, axes = plt.subplots(1, 2, figsize=(9, 3.5))
    n_max = int(hard["n"].max())
    at_n = hard[(hard["n"] == n_max) & (hard["trivial"] > 0)].assign(relative=lambda t: t["test_error"] / t["trivial"])
    mean = at_n.groupby(["p", "target", "degree"], as_index=False)["relative"].mean()
    for (p, target), group in mean.groupby(["p", "target"]):
        style = "-" if target == "parity" else "--"
        axes[0].plot(group["degree"], group["relative"], style, marker="o", ms=3, color=f"C{int(p)}",
                     label=f"{target}, p={int(p)}")
        if target == "parity":
            axes[0].axvline(p, color=f"C{int(p)}", lw=0.6, ls=":")
    axes[0].set_xticks(sorted(int(d) for d in hard["degree"].unique()))
    axes[0].set_xlabel("degree d")
    axes[0].set_ylabel("test error / trivial error")
    axes[0].set_title(f"low-degree learner, n = {n_max}", fontsize=9)
    axes[0].legend(fontsize=6)
    for p, group in cost.groupby("p"):
        group = group.drop_duplicates("n").sort_values("n")
        color = f"C{int(p)}"
        axes[1].fill_between(group["n"], group["lower"], group["upper"], color=color, alpha=0.15, lw=0)
        axes[1].loglog(group["n"], group["N_p"], "o-", color=color, ms=4,
                       label=f"$N_{{{int(p)}}}(n)$ (~ $n^{{{int(p)}}}/{math.factorial(int(p))}$)")
    ns = sorted(int(n) for n in cost["n"].unique())
    axes[1].xaxis.set_major_locator(FixedLocator(ns))
    axes[1].xaxis.set_minor_locator(NullLocator())
    axes[1].xaxis.set_major_formatter(FixedFormatter([str(n) for n in ns]))
    axes[1].set_xlabel("n")
    axes[1].set_ylabel("features at d = p")
    axes[1].legend(fontsize=7)
    fig.tight_layout()
    return fig


def figures(tables: dict) -> dict:
    setup_style()
    return {"junta-scale": _junta_scale(tables["theorem13-junta"]),
            "hardness-cliff": _hardness_cliff(tables["theorem13-hardness"], tables["theorem13-cost"])}
