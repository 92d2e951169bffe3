"""Figures of the claim ``lemma10`` (noise sensitivity, Claim 2.1, Appendix B's eq. (17))."""

from __future__ import annotations

import numpy as np
import pandas as pd

from sparseact.plots._style import plt, setup_style

CAPTIONS = {
    "ns-vs-rho": "Left: exact NS_rho(h) against 1 - rho for every network (all seeds), with slope-1 and slope-1/2 "
                 "guides; near rho = 1 NS falls like (1 - rho), faster than Lemma 10's sqrt(1 - rho). Right: NS / "
                 "Lemma 10's expression (constant 1): the observed constant stays far below 1 and shrinks as rho -> 1.",
    "claim21-tail": "Claim 2.1: the Fourier tail beyond d against 2 NS_rho / (1 - rho^d), one dot per (function, rho, "
                    "d). For rho in [0, 1) (blue) every dot lies on or below the diagonal; for rho < 0 (orange, "
                    "outside the range the paper uses) dots above it violate the printed inequality.",
    "level-weights": "Fourier level weights W^t / ||h||^2 of the networks at the largest n (first seed): the mass "
                     "sits on low levels, which is what Claim 2.1 turns into low-degree concentration "
                     "(levels of weight 0 are drawn at 1e-18).",
    "eq17": "Appendix B, eq. (17): every member divided by NS_rho(h), one marker per network (random and the "
            "dictator x_1) and rho. As printed all would be 1. The members without the 1/4 sit at 4 (first) and at "
            "4 NS_{1-2/r}/NS_rho (middle); the right side (1/r) E[AS(H_z)] coincides with NS at 1 - 2/r (the "
            "corrected identity), which equals NS_rho only where 2/(1 - rho) is an integer.",
}


def _first_seed(frame: pd.DataFrame) -> pd.DataFrame:
    return frame[frame["replicate"] == frame["replicate"].min()] if "replicate" in frame else frame


def _series(frame: pd.DataFrame):
    keys = ["replicate", "instance"] if "replicate" in frame else ["instance"]
    return frame.groupby(keys, sort=False)


def ns_vs_rho(tables: dict):
    """NS_rho against 1 - rho (log-log) per network, and the ratio to Lemma 10's expression."""
    table = tables["lemma10-noise"]
    fig, axes = plt.subplots(1, 2, figsize=(9, 3.6))
    colours = {k: f"C{i}" for i, k in enumerate(sorted(table["k"].unique()))}
    constant = 0
    for _, group in _series(table):
        group = group.sort_values("one_minus_rho")
        if not (group["NS"] > 0).any():
            constant += 1  # a constant network (e.g. a bucket block whose two output weights agree): NS = 0
            continue
        colour = colours[group["k"].iloc[0]]
        axes[0].loglog(group["one_minus_rho"], group["NS"], "-", color=colour, lw=0.6, alpha=0.6)
        axes[1].loglog(group["one_minus_rho"], group["ratio"], "-", color=colour, lw=0.6, alpha=0.6)
    x = np.sort(table["one_minus_rho"].unique())
    top = float(table.groupby("one_minus_rho")["NS"].max().loc[x].iloc[-1])
    axes[0].loglog(x, top * x / x[-1], "k--", lw=0.8, label="slope 1")
    axes[0].loglog(x, top * np.sqrt(x / x[-1]), "k:", lw=0.8, label="slope 1/2 (Lemma 10)")
    for k, colour in colours.items():
        axes[1].plot([], [], color=colour, label=f"certified k = {k}")
    axes[0].set_xlabel("1 - rho")
    axes[0].set_ylabel("NS_rho(h) (exact)")
    axes[0].legend(fontsize=7)
    axes[1].set_xlabel("1 - rho")
    axes[1].set_ylabel("NS_rho / Lemma 10 expression")
    axes[1].legend(fontsize=7)
    fig.suptitle("Lemma 10: noise sensitivity of certified-sparse networks"
                 + (f" ({constant} constant networks, NS = 0, not drawn)" if constant else ""), fontsize=10)
    fig.tight_layout()
    return fig


def claim21_tail(tables: dict):
    """Fourier tail beyond d against the Claim 2.1 bound, inside and outside rho in [0, 1)."""
    tail = pd.concat([tables["lemma10-tail"], tables["lemma10-parity"].drop(columns=["order"])], ignore_index=True)
    tail = tail[(tail["tail"] > 0) & (tail["bound"] > 0)]
    fig, ax = plt.subplots(figsize=(5, 4))
    for in_range, colour, label in ((True, "C0", "rho in [0, 1)"), (False, "C1", "rho < 0 (out of range)")):
        part = tail[tail["in_range"] == in_range]
        ax.loglog(part["bound"], part["tail"], ".", ms=2.5, alpha=0.5, color=colour, label=label)
    if len(tail):
        lo = float(min(tail["tail"].min(), tail["bound"].min()))
        hi = float(max(tail["tail"].max(), tail["bound"].max()))
        ax.loglog([lo, hi], [lo, hi], "k--", lw=0.8, label="tail = bound")
    ax.set_xlabel("2 NS_rho / (1 - rho^d)")
    ax.set_ylabel("sum_{|T| > d} fhat(T)^2")
    ax.set_title("Claim 2.1 tail inequality, every function, d and rho", fontsize=9)
    ax.legend(fontsize=7)
    fig.tight_layout()
    return fig


def level_weights(tables: dict):
    """Level weights of the networks at the largest n (first seed)."""
    weights = _first_seed(tables["lemma10-level-weights"])
    weights = weights[weights["n"] == weights["n"].max()]
    fig, ax = plt.subplots(figsize=(5.5, 3.6))
    for label, group in weights.groupby("instance", sort=False):
        ax.semilogy(group["level"], group["weight_fraction"].clip(lower=1e-18), "o-", ms=3, lw=0.8, label=label)
    ax.set_xlabel("level t = |T|")
    ax.set_ylabel("W^t / ||h||^2")
    ax.set_title(f"Fourier level weights at n = {int(weights['n'].max())}", fontsize=9)
    ax.legend(fontsize=6, ncol=2)
    fig.tight_layout()
    return fig


def eq17(tables: dict):
    """Each member of (17) divided by NS_rho(h), per network and rho (all seeds)."""
    table = tables["lemma10-eq17"]
    table = table[table["NS_rho"] > 0]
    fig, ax = plt.subplots(figsize=(5.8, 3.8))
    members = (("printed_left", "s", "C1", "printed E[(h(x)-h(y))^2]"),
               ("middle", "D", "C2", "printed (1/r) E sum_b E_v(...)^2"),
               ("right", "^", "C0", "(1/r) E[AS(H_z)] (enumerated)"),
               ("NS_rho_effective", "x", "k", "NS at 1 - 2/r"))
    offsets = np.linspace(-0.012, 0.012, len(members))
    for (column, marker, colour, label), dx in zip(members, offsets):
        ax.plot(table["rho"] + dx, table[column] / table["NS_rho"], marker, color=colour, ms=4, mfc="none",
                ls="none", label=label)
    ax.axhline(1.0, color="grey", lw=0.8, ls=":")
    ax.axhline(4.0, color="grey", lw=0.8, ls=":")
    ax.set_yscale("log")
    ax.set_xlabel("rho")
    ax.set_ylabel("member / NS_rho(h)  (printed: all = 1)")
    ax.set_title("Appendix B, eq. (17): each member relative to NS_rho(h)", fontsize=9)
    ax.legend(fontsize=7)
    fig.tight_layout()
    return fig


def figures(tables: dict) -> dict:
    setup_style()
    return {"ns-vs-rho": ns_vs_rho(tables), "claim21-tail": claim21_tail(tables),
            "level-weights": level_weights(tables), "eq17": eq17(tables)}
