"""Figures of the claim ``lemma6`` (average sensitivity of a halfspace, Kane 2014)."""

from __future__ import annotations

import numpy as np

from sparseact.plots._style import plt, setup_style

CAPTIONS = {
    "ratio-vs-p": "AS(g) / (p sqrt(n log(1/p))) against the mean p of the halfspace, per kind and n: the observed "
                  "constant of Lemma 6 stays below 1 and does not grow as p shrinks or n grows.",
    "identity": "The identity in the proof of Lemma 6 on every halfspace with w > 0: AS(g) against "
                "E[g(x) sum_i x_i]. The points lie on the corrected line AS = -(1/2) E[g sum x_i], not on the "
                "printed AS = (1/4) E[g sum x_i].",
}


def ratio_vs_p(tables: dict):
    """Measured constant AS / (p sqrt(n log 1/p)) against p."""
    table = tables["lemma6"]
    table = table[np.isfinite(table["ratio"])]
    fig, ax = plt.subplots(figsize=(5.6, 3.6))
    markers = {"majority-like": "o", "random-gaussian": "s", "random-positive": "^"}
    for i, (n, by_n) in enumerate(table.groupby("n")):
        for kind, group in by_n.groupby("kind"):
            ax.semilogx(group["p"], group["ratio"], markers.get(kind, "."), color=f"C{i}", ms=3, alpha=0.7,
                        label=f"{kind}, n={n}")
    ax.set_xlabel("p = E[g]")
    ax.set_ylabel("AS(g) / (p sqrt(n log(1/p)))")
    ax.set_title("Lemma 6 (Kane): observed constant", fontsize=9)
    ax.legend(fontsize=5, ncol=2)
    fig.tight_layout()
    return fig


def identity(tables: dict):
    """AS(g) against E[g sum x_i] for w > 0, with the printed and corrected lines."""
    table = tables["lemma6"]
    table = table[table["positive"] & (table["p"] > 0) & (table["p"] < 1)]
    fig, ax = plt.subplots(figsize=(5, 3.6))
    for i, (kind, group) in enumerate(table.groupby("kind")):
        ax.plot(group["correlation_with_sum"], group["AS"], ".", color=f"C{i}", ms=4, label=kind)
    c = np.linspace(min(table["correlation_with_sum"].min(), 0.0), 0.0, 10)
    ax.plot(c, -0.5 * c, "k--", lw=0.8, label="corrected: AS = -(1/2) E[g sum x_i]")
    ax.plot(c, 0.25 * c, "r-", lw=0.8, label="printed: AS = (1/4) E[g sum x_i]")
    ax.set_xlabel("E[g(x) sum_i x_i]")
    ax.set_ylabel("AS(g)")
    ax.set_title("Lemma 6, proof: the identity for w > 0", fontsize=9)
    ax.legend(fontsize=6)
    fig.tight_layout()
    return fig


def figures(tables: dict) -> dict:
    setup_style()
    return {"ratio-vs-p": ratio_vs_p(tables), "identity": identity(tables)}
