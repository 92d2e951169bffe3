"""Figures of the claim ``theorem8`` (the low-degree learner, Lemma 7 and the proof of Theorem 8)."""

from __future__ import annotations

import numpy as np
import pandas as pd

from sparseact.claims.theorem8.verdicts import ROUNDING_EXCESS
from sparseact.families import FAMILY_NAMES
from sparseact.publish.plotting import (
    FULL_WIDTH,
    SINGLE_WIDTH,
    finish,
    floor_handles,
    integer_ticks,
    legend_handle,
    legend_outside,
    mark_floor,
    plt,
    reference_line,
    setup_style,
    value_ticks,
)

CAPTIONS = {
    "error-vs-degree": "Exact test error (loss (yhat - y)^2/2 over the whole cube, worst inner seed, first verdict "
    "seed) against the degree d at the largest sample size, log scale, one panel per family of "
    "targets and one colour per target (solid with dots); dotted in the same colour: the "
    "Fourier-tail floor (1/2) sum_{|T|>d} fhat(T)^2 of Lemma 7, the least error of any degree-d "
    "polynomial; dashed: eps. The first d at which a solid line reaches the dashed one is the "
    "degree the data needed; the degree-vs-k figure and the check cards below set it against "
    "Theorem 8's degree (constant 1). An error or floor below the axis floor (its lowest tick) is drawn at it: a hollow circle "
    "when exactly 0, a hollow downward triangle when positive but below it (rounding of an exact transform).",
    "lemma7-rate": "Lemma 7: the excess error over the floor divided by the variance term N_d C_H^2 / m, against m, "
    "log-log, one dot per (target, degree, inner seed), coloured by degree, all replicates (fits "
    "whose excess is at rounding level are left out). A dot above the dashed line would exceed Lemma 7 "
    "with constant 1; if the ratio grew with m, the dots would rise to the right. The verdict and the "
    "worst value are in the check cards below.",
    "degree-vs-k": "Left: the degree each target's Fourier-tail floor needs to reach relative_eps x the trivial loss, "
    "for certified-sparse targets against their certified k, and for the parity and dense baselines. "
    "Right: per target, the degree the data needed to reach eps (left bar; a degree of 0 is drawn as a "
    "short bar) beside Theorem 8's prescribed degree (constant 1, right bar), log scale; a right bar "
    "below its left one would mean the prescribed degree is too small. The verdicts and the worst "
    "values are in the check cards below.",
    "proof-rho": "Proof of Theorem 8, choice of rho: Lemma 10's bound divided by eps/3 against log(1/eps) "
    "(k = 1, W = 1, B = 1), log scale, at the printed 1 - rho for c = 1 (circles) and for a tiny c "
    "(squares; value in the legend), and at the corrected 1 - rho* (triangles). The proof needs "
    "NS_rho <= eps/3, i.e. points on or below the dashed line at 1; a line that crosses above it as eps "
    "shrinks (to the right) shows that choice of rho falling short. The verdicts are in the check cards below.",
    "proof-tail": "Proof of Theorem 8, tail step: for d = ceil(1/(1-rho)) the chain needs 1 <= d(1-rho) <= "
    "3(1-rho^d). Both sides against 1 - rho (log scale), each line named in the legend, with the dotted "
    "line at 1; the chain is satisfied where the d(1 - rho) line is on or above the dotted one and on "
    "or below the 3(1 - rho^d) line. Markers: the proof's own printed (circles) "
    "and corrected (triangles) 1 - rho, on both lines. The verdicts are in the check cards below.",
}

#: Test errors below this (0 included) are drawn at it and marked (:func:`mark_floor`; a log axis cannot show 0).
ERROR_FLOOR = 1e-16


def _first_seed(frame: pd.DataFrame) -> pd.DataFrame:
    return frame[frame["replicate"] == frame["replicate"].min()] if "replicate" in frame else frame


#: Each panel's title, in the paper's words: the family of its targets.
FAMILY_TITLES = {**FAMILY_NAMES, "baselines": "baselines: dense and parity"}


def _family(target: str) -> str:
    return target.split()[0] if target.split()[0] in ("bucket", "gaussian") else "baselines"


def error_vs_degree(tables: dict):
    curves = _first_seed(tables["theorem8-curves"])
    eps = float(_first_seed(tables["theorem8-targets"])["eps"].iloc[0])
    m_max = curves["m"].max()
    at_m = curves[curves["m"] == m_max]
    present = {_family(t) for t in at_m["target"]}
    families = [f for f in ("bucket", "gaussian", "baselines") if f in present]
    fig, axes = plt.subplots(1, len(families), figsize=(FULL_WIDTH, 3.0), sharex=True, sharey=True, squeeze=False)
    for ax, family in zip(axes[0], families, strict=True):
        part = at_m[[_family(t) == family for t in at_m["target"]]]
        for i, (label, group) in enumerate(part.groupby("target", sort=False)):
            worst = group.groupby("degree")[["test_error", "floor"]].max()
            shown = label.removeprefix(f"{family} ")
            ax.plot(worst.index, worst["test_error"].clip(lower=ERROR_FLOOR), "o-", color=f"C{i}", ms=3, label=shown)
            ax.plot(worst.index, worst["floor"].clip(lower=ERROR_FLOOR), ":", color=f"C{i}", lw=1.6)
            for column in ("test_error", "floor"):
                mark_floor(ax, worst.index, worst[column], ERROR_FLOOR, color=f"C{i}")
        ax.legend(loc="best")
        reference_line(ax, y=eps, kind="corrected")
        ax.set_yscale("log")
        integer_ticks(ax, "x")
        ax.set_xlabel("degree d")
        ax.set_title(FAMILY_TITLES[family])
    axes[0][0].set_ylabel("exact test error")
    handles = [
        legend_handle(color="0.3", marker="o", ms=3, label="test error (worst inner seed)"),
        legend_handle("printed", color="0.3", lw=1.6, label="Fourier-tail floor (Lemma 7)"),
        legend_handle("corrected", label=f"eps = {eps:g}"),
        *floor_handles(axes[0]),
    ]
    legend_outside(fig, handles, where="below", ncol=3)
    fig.suptitle(f"Theorem 8: low-degree learner at m = {m_max}")
    fig.tight_layout()
    return fig


def lemma7_rate(tables: dict):
    curves = tables["theorem8-curves"]
    part = curves[(curves["excess"] > ROUNDING_EXCESS) & (curves["degree"] >= 1)]
    C2 = (part["k"] * (part["W"] * np.sqrt(part["n"]) + part["B"])) ** 2
    ratio = part["excess"] / (part["variance_term"] * C2)
    fig, ax = plt.subplots(figsize=(SINGLE_WIDTH * 1.25, 3.2))
    for i, d in enumerate(sorted(part["degree"].unique())):
        sel = part["degree"] == d
        jitter = 1.0 + 0.04 * (i - 1.5)
        ax.plot(part.loc[sel, "m"] * jitter, ratio[sel], "o", ms=3, alpha=0.6, mew=0, color=f"C{i}", label=f"d = {d}")
    reference_line(ax, y=1.0, kind="corrected", label="Lemma 7,\nconstant 1")
    ax.set_xscale("log")
    ax.set_yscale("log")
    value_ticks(ax, "x", part["m"].unique())
    ax.set_xlabel("sample size m (dots spread around it by degree)")
    ax.set_ylabel("excess / ($N_d C_H^2 / m$)")
    ax.set_title("Lemma 7: excess error over the floor / variance term")
    legend_outside(ax)
    fig.tight_layout()
    return fig


def degree_vs_k(tables: dict):
    needs = _first_seed(tables["theorem8-needs"])
    fig, axes = plt.subplots(1, 2, figsize=(FULL_WIDTH, 3.2), gridspec_kw={"width_ratios": [1, 1.4]})
    for (kind, group), marker in zip(needs.groupby("kind"), "osD^v", strict=False):  # a marker per kind
        axes[0].plot(group["k"], group["degree_needed_relative"], marker, ms=5, alpha=0.8, label=kind)
    axes[0].set_xscale("log", base=2)
    axes[0].margins(x=0.1)
    value_ticks(axes[0], "x", needs["k"].unique())
    axes[0].set_xlabel("certified k (dense: k = max active)")
    axes[0].set_ylabel("degree needed (exact)")
    integer_ticks(axes[0], "y")
    axes[0].set_title("degree the target's floor needs")
    axes[0].legend()
    reached = needs[needs["degree_reached"] >= 0]
    x = np.arange(len(reached))
    axes[1].bar(x - 0.2, reached["degree_reached"].clip(lower=0.5), 0.4, label="needed by the data (0 drawn at 0.5)")
    axes[1].bar(x + 0.2, reached["degree_prescribed"], 0.4, label="Theorem 8, constant 1")
    axes[1].set_yscale("log")
    axes[1].set_xticks(x, reached["target"], rotation=40, ha="right")
    axes[1].set_ylabel(f"degree for error eps = {float(needs['eps'].iloc[0]):g}")
    axes[1].set_title("degree reached against Theorem 8's degree")
    axes[1].set_ylim(top=float(reached["degree_prescribed"].max()) * 1e5)  # room for the legend
    axes[1].legend(loc="upper left")
    fig.tight_layout()
    return fig


def proof_rho(tables: dict):
    rho = _first_seed(tables["theorem8-rho-choice"])
    part = rho[(rho["k"] == rho["k"].min()) & (rho["B"] == 1.0)].sort_values("ell")
    fig, ax = plt.subplots(figsize=(SINGLE_WIDTH * 1.2, 3.2))
    ax.semilogy(part["ell"], part["ratio_printed"], "o-", label="printed 1 - rho, c = 1")
    ax.semilogy(part["ell"], part["ratio_printed_tiny_c"], "s-", label="printed 1 - rho, c = 1e-12")
    ax.semilogy(part["ell"], part["ratio_corrected"], "^-", label="corrected 1 - rho*")
    reference_line(ax, y=1.0, kind="corrected", label="required: NS$_\\rho$ = eps/3")
    ax.set_xscale("symlog", linthresh=1.0)
    ax.set_xlim(0.0, float(part["ell"].max()) * 1.1)
    ax.set_xlabel("log(1/eps) (symmetric log scale)")
    ax.set_ylabel("Lemma 10's bound / (eps/3)")
    ax.set_title("Proof of Theorem 8: the choice of $\\rho$ (k = 1, W = B = 1)")
    legend_outside(ax)
    fig.tight_layout()
    return fig


def proof_tail(tables: dict):
    tail = _first_seed(tables["theorem8-tail-step"]).sort_values("one_minus_rho")
    grid, own = tail[tail["source"] == "grid"], tail[tail["source"] != "grid"]
    printed = own["source"].str.startswith("printed")
    fig, ax = plt.subplots(figsize=(SINGLE_WIDTH * 1.25, 3.2))
    ax.plot(grid["one_minus_rho"], grid["d_one_minus_rho"], "-", color="C0", lw=0.8, label="d (1 - $\\rho$)")
    ax.plot(grid["one_minus_rho"], grid["three_one_minus_rho_d"], "-", color="C1", lw=0.8, label="3 (1 - $\\rho^d$)")
    for sel, marker, label in (
        (printed, "o", "proof's printed 1 - $\\rho$"),
        (~printed, "^", "proof's corrected 1 - $\\rho^*$"),
    ):
        ax.plot(
            own.loc[sel, "one_minus_rho"],
            own.loc[sel, "d_one_minus_rho"],
            marker,
            ms=3.5,
            color="C0",
            mfc="none",
            label=label,
        )
        ax.plot(
            own.loc[sel, "one_minus_rho"], own.loc[sel, "three_one_minus_rho_d"], marker, ms=3.5, color="C1", mfc="none"
        )
    reference_line(ax, y=1.0, kind="printed", label="1 (the chain's left end)")
    ax.set_xscale("log")
    ax.set_xlabel("1 - $\\rho$ (d = ceil(1/(1 - $\\rho$)))")
    ax.set_ylabel("value")
    ax.set_title("Proof of Theorem 8: 1 <= d(1 - $\\rho$) <= 3(1 - $\\rho^d$)")
    legend_outside(ax)
    fig.tight_layout()
    return fig


def figures(tables: dict) -> dict:
    setup_style()
    return finish(
        {
            "error-vs-degree": error_vs_degree(tables),
            "lemma7-rate": lemma7_rate(tables),
            "degree-vs-k": degree_vs_k(tables),
            "proof-rho": proof_rho(tables),
            "proof-tail": proof_tail(tables),
        }
    )
