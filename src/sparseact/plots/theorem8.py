"""Figures of the claim ``theorem8`` (the low-degree learner, Lemma 7 and the proof of Theorem 8)."""

from __future__ import annotations

import numpy as np
import pandas as pd

from sparseact.plots._style import plt, setup_style

CAPTIONS = {
    "error-vs-degree": "Exact test error (loss (yhat - y)^2/2 over the whole cube, worst inner seed, first verdict "
                       "seed) against the degree d at the largest sample size, per target; dotted: the Fourier-tail "
                       "floor (1/2) sum_{|T|>d} fhat(T)^2 of Lemma 7; dashed: eps. The error follows the floor and "
                       "reaches eps at a small degree, where Theorem 8's degree (constant 1) is 10^6 to 10^13.",
    "lemma7-rate": "Lemma 7: excess error over the floor divided by N_d C_H^2 / m against m, one dot per (target, "
                   "degree, inner seed), all verdict seeds (exact fits, excess < 1e-12, left out). The ratio stays "
                   "below 0.02 and does not grow with m.",
    "degree-vs-k": "Left: the exact degree whose floor is at most relative_eps x the trivial loss, for "
                   "certified-sparse targets against their certified k, and the dense baseline. Right: the degree "
                   "the data needed to reach eps against Theorem 8's prescribed degree (constant 1), per target "
                   "(log scale).",
    "proof-rho": "Proof of Theorem 8, choice of rho: Lemma 10's bound divided by eps/3 against log(1/eps) (k = 1, "
                 "W = 1, B = 1). At the printed 1 - rho it grows without bound for every c (c = 1 and c = 1e-12 "
                 "shown), so no constant c gives NS_rho <= eps/3; at the corrected 1 - rho* it stays below 1.",
    "proof-tail": "Proof of Theorem 8, tail step: for d = ceil(1/(1-rho)) the chain needs 1 <= d(1-rho) <= "
                  "3(1-rho^d). Both sides against 1 - rho; dots: the proof's own printed and corrected 1 - rho.",
}


def _first_seed(frame: pd.DataFrame) -> pd.DataFrame:
    return frame[frame["replicate"] == frame["replicate"].min()] if "replicate" in frame else frame


def error_vs_degree(tables: dict):
    curves = _first_seed(tables["theorem8-curves"])
    eps = float(_first_seed(tables["theorem8-targets"])["eps"].iloc[0])
    m_max = curves["m"].max()
    fig, ax = plt.subplots(figsize=(6.4, 4))
    for i, (label, group) in enumerate(curves[curves["m"] == m_max].groupby("target", sort=False)):
        worst = group.groupby("degree")[["test_error", "floor"]].max()
        ax.semilogy(worst.index, worst["test_error"].clip(lower=1e-16), "o-", color=f"C{i % 10}", label=label)
        ax.semilogy(worst.index, worst["floor"].clip(lower=1e-16), ":", color=f"C{i % 10}")
    ax.axhline(eps, color="k", ls="--", lw=0.8, label=f"eps = {eps:g}")
    ax.set_xlabel("degree d")
    ax.set_ylabel("exact test error")
    ax.set_title(f"m = {m_max}; dotted: Fourier-tail floor (values < 1e-16 drawn at 1e-16)", fontsize=9)
    ax.legend(fontsize=6, ncol=2)
    fig.tight_layout()
    return fig


def lemma7_rate(tables: dict):
    curves = tables["theorem8-curves"]
    from sparseact.claims.theorem8 import ROUNDING_EXCESS

    part = curves[(curves["excess"] > ROUNDING_EXCESS) & (curves["degree"] >= 1)]
    C2 = (part["k"] * (part["W"] * np.sqrt(part["n"]) + part["B"])) ** 2
    ratio = part["excess"] / (part["variance_term"] * C2)
    fig, ax = plt.subplots(figsize=(5.6, 3.8))
    for i, d in enumerate(sorted(part["degree"].unique())):
        sel = part["degree"] == d
        jitter = 1.0 + 0.04 * (i - 1.5)
        ax.loglog(part.loc[sel, "m"] * jitter, ratio[sel], "o", ms=3, alpha=0.6, color=f"C{i}", label=f"d = {d}")
    ax.set_xlabel("sample size m")
    ax.set_ylabel("excess / (N_d C_H^2 / m)")
    ax.set_title("Lemma 7: excess error over the floor, relative to the variance term", fontsize=9)
    ax.legend(fontsize=7)
    fig.tight_layout()
    return fig


def degree_vs_k(tables: dict):
    needs = _first_seed(tables["theorem8-needs"])
    fig, axes = plt.subplots(1, 2, figsize=(9, 3.6))
    for kind, group in needs.groupby("kind"):
        axes[0].plot(group["k"], group["degree_needed_relative"], "o", label=kind)
    axes[0].set_xscale("log", base=2)
    axes[0].set_xlabel("certified k (dense: k = max active)")
    axes[0].set_ylabel("degree needed (exact)")
    axes[0].legend(fontsize=7)
    reached = needs[needs["degree_reached"] >= 0]
    x = np.arange(len(reached))
    axes[1].bar(x - 0.2, reached["degree_reached"].clip(lower=0.5), 0.4, label="needed by the data (0 drawn at 0.5)")
    axes[1].bar(x + 0.2, reached["degree_prescribed"], 0.4, label="Theorem 8, constant 1")
    axes[1].set_yscale("log")
    axes[1].set_xticks(x, reached["target"], rotation=45, ha="right", fontsize=6)
    axes[1].set_ylabel(f"degree for error eps = {float(needs['eps'].iloc[0]):g}")
    axes[1].legend(fontsize=6)
    fig.tight_layout()
    return fig


def proof_rho(tables: dict):
    rho = _first_seed(tables["theorem8-rho-choice"])
    part = rho[(rho["k"] == rho["k"].min()) & (rho["B"] == 1.0)].sort_values("ell")
    fig, ax = plt.subplots(figsize=(5.6, 3.8))
    ax.semilogy(part["ell"], part["ratio_printed"], "o-", label="printed 1 - rho, c = 1")
    ax.semilogy(part["ell"], part["ratio_printed_tiny_c"], "s-", label="printed 1 - rho, c = 1e-12")
    ax.semilogy(part["ell"], part["ratio_corrected"], "^-", label="corrected 1 - rho*")
    ax.axhline(1.0, color="k", ls="--", lw=0.8, label="NS_rho <= eps/3")
    ax.set_xscale("symlog", linthresh=1.0)
    ax.set_xlim(0.0, float(part["ell"].max()) * 1.1)
    ax.set_xlabel("log(1/eps)")
    ax.set_ylabel("Lemma 10's bound / (eps/3)")
    ax.legend(fontsize=7)
    fig.tight_layout()
    return fig


def proof_tail(tables: dict):
    tail = _first_seed(tables["theorem8-tail-step"]).sort_values("one_minus_rho")
    grid, own = tail[tail["source"] == "grid"], tail[tail["source"] != "grid"]
    fig, ax = plt.subplots(figsize=(5.6, 3.8))
    ax.semilogx(grid["one_minus_rho"], grid["d_one_minus_rho"], "-", lw=0.8, label="d (1 - rho)")
    ax.semilogx(grid["one_minus_rho"], grid["three_one_minus_rho_d"], "-", lw=0.8, label="3 (1 - rho^d)")
    ax.semilogx(own["one_minus_rho"], own["d_one_minus_rho"], "o", ms=3, color="C0")
    ax.semilogx(own["one_minus_rho"], own["three_one_minus_rho_d"], "o", ms=3, color="C1")
    ax.axhline(1.0, color="k", ls=":", lw=0.8, label="1")
    ax.set_xlabel("1 - rho (d = ceil(1/(1 - rho)))")
    ax.legend(fontsize=7)
    fig.tight_layout()
    return fig


def figures(tables: dict) -> dict:
    setup_style()
    return {"error-vs-degree": error_vs_degree(tables), "lemma7-rate": lemma7_rate(tables),
            "degree-vs-k": degree_vs_k(tables), "proof-rho": proof_rho(tables), "proof-tail": proof_tail(tables)}
