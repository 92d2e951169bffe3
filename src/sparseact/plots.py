"""Figures for the construction checks (one figure per construction)."""

from __future__ import annotations

import numpy as np
import pandas as pd

from sparseact.reporting import plt, setup_style


def plot_thm13(tables: dict[str, pd.DataFrame]):
    """Measured scales W, B of the junta networks against sqrt(p), p and the theorem's levels."""
    table = tables["thm13"]
    fig, axes = plt.subplots(1, 2, figsize=(8, 3.2))
    p = np.arange(1, table["p"].max() + 1)
    for ax, col, proof, thm, label in (
        (axes[0], "W", np.sqrt(p), "W_claim_thm", "W"),
        (axes[1], "B", p.astype(float), "B_claim_thm", "B"),
    ):
        worst = table.groupby("p")[col].max()
        ax.plot(worst.index, worst.values, "o", label=f"measured {label} (max over instances)")
        ax.plot(p, proof, "-", label="proof: sqrt(p)" if col == "W" else "proof: p")
        for s, level in table.groupby("s")[thm].first().items():
            ax.axhline(level, ls=":", lw=0.8, color="grey")
            ax.annotate(f"s={s}", (p[-1], level), fontsize=7, va="bottom", ha="right", color="grey")
        ax.set_xlabel("junta size p")
        ax.set_ylabel(label)
        ax.legend(fontsize=7, loc="upper left")
    fig.suptitle("Theorem 13: junta networks in $H_{n,s,1}^{\\sqrt{p},p}$ (dotted: theorem's level per s)")
    fig.tight_layout()
    return fig


def plot_index(tables: dict[str, pd.DataFrame]):
    """Fraction of inputs with exactly one active neuron, and the scales, against b."""
    table = tables["index"]
    fig, axes = plt.subplots(1, 2, figsize=(8, 3.2))
    axes[0].bar(table["b"].astype(str), table["fraction_one_active"], color="C0")
    axes[0].set_xlabel("b")
    axes[0].set_ylabel("fraction of inputs with 1 active neuron")
    axes[0].set_ylim(0, 1)
    axes[1].plot(table["b"], table["W"], "o-", label="W")
    axes[1].plot(table["b"], table["B"], "s-", label="B")
    axes[1].set_xlabel("b")
    axes[1].legend()
    fig.suptitle("Index$_b$: max active = %d over all inputs" % int(table["max_active"].max()))
    fig.tight_layout()
    return fig


def plot_sec4_parity(tables: dict[str, pd.DataFrame]):
    """Weight and bias norms of the lifted parity network against m, log-log."""
    scale = tables["sec4-parity-scale"]
    fig, axes = plt.subplots(1, 2, figsize=(8, 3.2))
    m = scale["m"].to_numpy(dtype=float)
    axes[0].loglog(m, scale["max_w_norm"], "o", label="max$_a$ ||w$_{S,a}$||, S=[m]")
    axes[0].loglog(m, scale["w_norm_over_m1.5"].iloc[-1] * m**1.5, "-", label="c m$^{1.5}$")
    axes[1].loglog(m, scale["max_abs_b"], "o", label="max$_a$ |b$_{S,a}$|")
    axes[1].loglog(m, scale["b_over_m2"].iloc[-1] * m**2, "-", label="c m$^2$")
    for ax in axes:
        ax.set_xlabel("m")
        ax.legend(fontsize=7)
    fig.suptitle("Section 4 parity lift: scales (corrected weights)")
    fig.tight_layout()
    return fig


def plot_sec4_lwr(tables: dict[str, pd.DataFrame]):
    """Definition 2 scales of the LWR networks against q^2 m."""
    table = tables["sec4-lwr"]
    per = table.groupby(["q", "m", "p"], as_index=False)[["W", "B"]].max()
    size = per["q"] ** 2 * per["m"]
    fig, ax = plt.subplots(figsize=(5, 3.2))
    ax.loglog(size, per["W"], "o", label="W (max over secrets)")
    ax.loglog(size, per["B"], "s", label="B (max over secrets)")
    ax.set_xlabel("$q^2 m$ (number of neurons)")
    ax.legend(fontsize=7)
    ax.set_title("Section 4 LWR network (corrected): scales")
    fig.tight_layout()
    return fig


def plot_appA(tables: dict[str, pd.DataFrame]):
    """Exact fraction of inputs with more than one active neuron against Gamma, and its decay in s."""
    sweep, whp = tables["appA-gamma-sweep"], tables["appA-whp"]
    fig, axes = plt.subplots(1, 2, figsize=(9, 3.4))
    for b, group in sweep.groupby("b"):
        worst = group.groupby("gamma")["excess_fraction"].max()
        axes[0].plot(worst.index, worst.values, "o-", ms=3, label=f"s = {2**b}")
        axes[0].axvline(np.sqrt(np.log(2**b)), ls=":", lw=0.8, color="grey")
    q = int(sweep["q"].iloc[0])
    axes[0].axvline(np.sqrt(q), ls="--", color="k", lw=0.8)
    axes[0].annotate("$\\Gamma=\\sqrt{q}$", (np.sqrt(q), 0.9), xycoords=("data", "axes fraction"), fontsize=8, ha="right")
    axes[0].set_xlabel("$\\Gamma$")
    axes[0].set_ylabel("Pr[> 1 neuron active] (exact, worst draw)")
    axes[0].set_title(f"q = {q}; dotted: $\\sqrt{{\\ln s}}$", fontsize=9)
    axes[0].legend(fontsize=7)
    for c, group in whp.groupby("c"):
        worst = group.groupby("s")["excess_fraction"].max()
        positive = worst[worst > 0]
        axes[1].loglog(positive.index, positive.values, "o-", label=f"c = {c:g}")
    axes[1].set_xscale("log", base=2)
    axes[1].set_xlabel("s")
    axes[1].set_ylabel("Pr[> 1 active] at $\\Gamma = c\\sqrt{\\ln s}$")
    axes[1].set_title(f"q = {int(whp['q'].iloc[0])} (zero values omitted)", fontsize=9)
    axes[1].legend(fontsize=7)
    fig.suptitle("Appendix A: sparsity with high probability (unit-norm $w_\\alpha$)")
    fig.tight_layout()
    return fig


PLOTS = {
    "thm13": plot_thm13,
    "index": plot_index,
    "sec4-parity": plot_sec4_parity,
    "sec4-lwr": plot_sec4_lwr,
    "appA": plot_appA,
}


def plot_construction(name: str, tables: dict[str, pd.DataFrame]):
    """The figure of construction ``name`` from its check tables."""
    if name not in PLOTS:
        raise ValueError(f"unknown construction {name!r}; expected one of {sorted(PLOTS)}")
    setup_style()
    return PLOTS[name](tables)
