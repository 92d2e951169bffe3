"""Figures of the claim ``lemma10`` (noise sensitivity, Claim 2.1, Appendix B's eq. (17))."""

from __future__ import annotations

import numpy as np
import pandas as pd
from matplotlib.ticker import MaxNLocator

from sparseact.families import FAMILY_NAMES
from sparseact.publish.plotting import (
    FULL_WIDTH,
    SINGLE_WIDTH,
    colours,
    finish,
    floor_handles,
    legend_handle,
    legend_outside,
    mark_floor,
    plt,
    reference_curve,
    reference_line,
    setup_style,
    value_ticks,
)

CAPTIONS = {
    "ns-vs-rho": "Lemma 10's comparison, log-log against 1 - rho. Left, on one network (the one whose NS_rho comes "
    "closest to our bound, named in the panel's title): its exact NS_rho (dots), Lemma 10's expression with "
    "constant 1 for its n, s, k, W, B (dotted), our bound NS_rho <= 2 k^2 W^2 (1 - rho) (dashed) and that "
    "bound's first step (1/2)(1 - rho) AS(h) (dash-dotted). A valid bound lies on or above the dots; the printed "
    "one falls only like sqrt(1 - rho), ours like 1 - rho, as NS_rho does. Right, every certified network: the "
    "range of NS_rho divided by each bound (shaded); a band reaching the line at 1 would be the bound attained. "
    "The verdicts and the worst values are in the check cards below.",
    "claim21-tail": "Claim 2.1: the Fourier tail beyond d against the bound 2 NS_rho / (1 - rho^d), one dot per "
    "(function, rho, d), log-log, with the diagonal tail = bound (dotted). A dot above the diagonal "
    "violates the inequality; each panel's title counts them. Left: rho in [0, 1), the range the "
    "paper uses; right: rho < 0, outside it. The verdicts are in the check cards below.",
    "level-weights": "Fourier level weights W^t / ||h||^2 against the level t = |T| (log scale) for two networks per "
    "family at the largest n (first seed), one panel per certified k. Claim 2.1 turns weight on low "
    "levels into low-degree concentration; weight on high levels would show as points high up on the "
    "right. A level of weight 0 is drawn at the axis floor as a hollow circle (the floor's tick reads 0); one of "
    "positive weight below the floor (rounding of the exact transform) as a hollow downward triangle.",
    "eq17": "Appendix B, eq. (17): each member divided by NS_rho(h) against rho (log scale), one marker per member "
    "(legend), for every network (random ones and the dictator x_1). As printed every member would equal "
    "NS_rho, i.e. lie on the dotted line at 1; the dashed line at 4 marks the factor of the missing 1/4. "
    "Crosses are NS at 1 - 2/r: triangles on the crosses match the corrected identity (1/r) E[AS(H_z)] = "
    "NS_{1-2/r}, which is NS_rho only where 2/(1 - rho) is an integer. The verdicts are in the check cards "
    "below.",
}


def _first_seed(frame: pd.DataFrame) -> pd.DataFrame:
    return frame[frame["replicate"] == frame["replicate"].min()] if "replicate" in frame else frame


def _series(frame: pd.DataFrame):
    keys = ["replicate", "instance"] if "replicate" in frame else ["instance"]
    return frame.groupby(keys, sort=False)


def ns_vs_rho(tables: dict):
    """Lemma 10's comparison on one network, then on all. Left: the measured NS_rho of the network that comes closest
    to our bound, against Lemma 10 as printed (constant 1), our sharper bound 2 k^2 W^2 (1 - rho) and its first step
    (1/2)(1 - rho) AS, all for that network's own n, s, k, W, B. Right: for every network (constant ones, NS = 0,
    left out), the range of NS_rho divided by each of the two bounds."""
    table = tables["lemma10-noise"]
    table = table[table["NS"] > 0]
    keys = ["replicate", "instance"] if "replicate" in table else ["instance"]
    constant = _series(tables["lemma10-noise"]).ngroups - _series(table).ngroups
    closest = table.loc[table["ratio_sharp"].idxmax()]
    one = table[(table[keys] == closest[keys]).all(axis=1)].sort_values("one_minus_rho")
    fig, axes = plt.subplots(1, 2, figsize=(FULL_WIDTH, 3.4), sharex=True, layout="constrained")
    ax = axes[0]
    x = one["one_minus_rho"]
    reference_curve(ax, x, one["expression"], kind="printed", label="Lemma 10 as printed (constant 1)")
    reference_curve(ax, x, one["sharp"], kind="corrected", label="our bound $2k^2W^2(1 - \\rho)$")
    reference_curve(ax, x, 0.5 * x * one["AS"], kind="guide", label="its first step $\\frac{1}{2}(1 - \\rho)$ AS")
    ax.plot(x, one["NS"], "o-", color="C0", ms=3.5, lw=1.3, label="measured NS$_\\rho$ (exact)")
    ax.set_yscale("log")
    ax.set_ylabel("noise sensitivity")
    ax.set_title(
        f"{FAMILY_NAMES.get(closest['family'], closest['family'])}, n = {int(closest['n'])}, s = {int(closest['s'])}, certified k = "
        f"{int(closest['k'])},\nW = {closest['W']:.3g}, B = {closest['B']:.3g} (the closest to our bound)"
    )
    ax = axes[1]
    # the printed bound's range filled, ours hatched, so that where they overlap both still read
    for column, bound, style in (
        ("ratio", "Lemma 10 as printed", dict(color="C1", alpha=0.35, lw=0)),
        ("ratio_sharp", "our bound", dict(facecolor="none", edgecolor="C0", hatch="////", lw=0.8)),
    ):
        spread = table.groupby("one_minus_rho")[column].agg(["min", "max"])
        ax.fill_between(spread.index, spread["min"], spread["max"], label=f"NS$_\\rho$ / {bound}", **style)
    reference_line(ax, y=1.0, kind="level", color="0.3", label="1: the bound attained")
    ax.set_yscale("log")
    ax.set_ylabel("NS$_\\rho$ / bound")
    ax.set_title(f"all {_series(table).ngroups} networks: the range of NS$_\\rho$ / bound")
    for ax in axes:
        ax.set_xscale("log")
        ax.set_xlabel("1 - $\\rho$")
    legend_outside(fig, where="below", ncol=3)
    fig.suptitle(
        "Lemma 10: measured noise sensitivity against the printed bound and ours"
        + (f" ({constant} constant networks, NS = 0, left out)" if constant else "")
    )
    return fig


def claim21_tail(tables: dict):
    """Fourier tail beyond d against the Claim 2.1 bound, inside and outside rho in [0, 1)."""
    tail = pd.concat([tables["lemma10-tail"], tables["lemma10-parity"].drop(columns=["order"])], ignore_index=True)
    tail = tail[(tail["tail"] > 0) & (tail["bound"] > 0)]
    fig, axes = plt.subplots(1, 2, figsize=(FULL_WIDTH, 3.4), sharex=True, sharey=True)
    for ax, in_range, colour, title in (
        (axes[0], True, "C0", "$\\rho \\in [0, 1)$ (the paper's range)"),
        (axes[1], False, "C1", "$\\rho < 0$ (outside it)"),
    ):
        part = tail[tail["in_range"] == in_range]
        above = int((part["tail"] > part["bound"] * (1 + 1e-9)).sum())
        ax.plot(part["bound"], part["tail"], ".", ms=2.5, alpha=0.4, color=colour, mew=0)
        ax.set_title(f"{title}: {above} of {len(part)} above")
        ax.set_xlabel("bound $2\\,\\mathrm{NS}_\\rho / (1 - \\rho^d)$")
    if len(tail):
        lo = float(min(tail["tail"].min(), tail["bound"].min()))
        hi = float(max(tail["tail"].max(), tail["bound"].max()))
        for ax in axes:
            reference_curve(ax, [lo, hi], [lo, hi], kind="printed", label="Claim 2.1: tail = bound")
    for ax in axes:
        ax.set_xscale("log")
        ax.set_yscale("log")
    axes[0].set_ylabel("tail $\\sum_{|T| > d} \\hat f(T)^2$")
    axes[0].legend(loc="upper left")
    fig.tight_layout()
    return fig


#: Panels a row of the level-weights figure (one per certified k).
LEVEL_PANELS_PER_ROW = 3


def level_weights(tables: dict):
    """Level weights of the networks at the largest n (first seed), one panel per certified k."""
    weights = _first_seed(tables["lemma10-level-weights"])
    weights = weights[weights["n"] == weights["n"].max()]
    ks = sorted(weights["k"].unique())
    positive = weights.loc[weights["weight_fraction"] > 0, "weight_fraction"]
    # below 1e-16 a weight is rounding noise of the exact transform: draw it with the zeros
    floor = max(10.0 ** (np.floor(np.log10(positive.min())) - 1), 1e-16) if len(positive) else 1e-16
    families = list(dict.fromkeys(weights["family"]))
    palette = dict(zip(families, colours(len(families)), strict=True))
    # at most LEVEL_PANELS_PER_ROW panels a row: narrower ones would run their tick labels together
    columns = min(len(ks), LEVEL_PANELS_PER_ROW)
    rows = -(-len(ks) // columns)
    fig, grid = plt.subplots(
        rows, columns, figsize=(FULL_WIDTH, 0.6 + 2.4 * rows), sharex=True, sharey=True, squeeze=False
    )
    axes = grid.flat[: len(ks)]
    for ax in grid.flat[len(ks) :]:
        ax.remove()
    for ax, k in zip(axes, ks, strict=True):
        part = weights[weights["k"] == k]
        for j, (_, group) in enumerate(part.groupby("instance", sort=False)):
            family = group["family"].iloc[0]
            ax.plot(
                group["level"],
                group["weight_fraction"].clip(lower=floor),
                "o-" if j % 2 == 0 else "s--",
                ms=2.5,
                lw=0.8,
                color=palette[family],
                alpha=0.8,
            )
            mark_floor(ax, group["level"], group["weight_fraction"], floor, color=palette[family], ms=4)
        ax.set_yscale("log")
        ax.set_title(f"certified k = {k}")
        ax.set_xlabel("level t = |T|")
        ax.xaxis.set_major_locator(MaxNLocator(nbins=5, integer=True))
        ax.tick_params(axis="x", labelbottom=True)
    for row in grid:
        row[0].set_ylabel("$W^t / \\|h\\|^2$")
    handles = [legend_handle(color=palette[f], marker="o", ms=3, label=FAMILY_NAMES.get(f, f)) for f in families]
    handles += [
        legend_handle(color="0.3", marker="o", ms=3, label="a family's first network"),
        legend_handle(color="0.3", marker="s", ms=3, ls="--", label="its second network"),
    ]
    handles += floor_handles(axes)
    legend_outside(fig, handles, where="below", ncol=3)
    fig.suptitle(f"Fourier level weights at n = {int(weights['n'].max())} (two networks per family)")
    fig.tight_layout(w_pad=1.5)
    return fig


def eq17(tables: dict):
    """Each member of (17) divided by NS_rho(h), per network and rho (all seeds)."""
    table = tables["lemma10-eq17"]
    table = table[table["NS_rho"] > 0]
    fig, ax = plt.subplots(figsize=(SINGLE_WIDTH * 1.2, 3.4))
    members = (
        ("printed_left", "s", "C1", "printed left: E[(h(x) - h(y))$^2$]"),
        ("middle", "D", "C2", "printed middle: (1/r) E $\\sum_b$ E$_v$(...)$^2$"),
        ("right", "^", "C0", "right: (1/r) E[AS($H_z$)] (enumerated)"),
        ("NS_rho_effective", "x", "k", "NS at $\\rho$ = 1 - 2/r"),
    )
    offsets = np.linspace(-0.012, 0.012, len(members))
    for (column, marker, colour, label), dx in zip(members, offsets, strict=True):
        ax.plot(
            table["rho"] + dx,
            table[column] / table["NS_rho"],
            marker,
            color=colour,
            ms=4,
            mfc="none",
            ls="none",
            label=label,
        )
    reference_line(ax, y=1.0, kind="printed", color="0.4", label="as printed: all members = NS$_\\rho$")
    reference_line(ax, y=4.0, kind="corrected", color="0.4", label="factor 4 (the missing 1/4)")
    ax.set_yscale("log")
    lo, hi = ax.get_ylim()
    value_ticks(ax, "y", [v for v in (0.5, 1, 2, 3, 4, 5, 6, 8, 10, 20) if lo <= v <= hi], min_gap=0.03)
    ax.set_xlabel("$\\rho$")
    ax.set_ylabel("member / NS$_\\rho(h)$")
    ax.set_title("Appendix B, eq. (17): each member relative to NS$_\\rho(h)$")
    legend_outside(ax, where="right")
    fig.tight_layout()
    return fig


def figures(tables: dict) -> dict:
    setup_style()
    return finish(
        {
            "ns-vs-rho": ns_vs_rho(tables),
            "claim21-tail": claim21_tail(tables),
            "level-weights": level_weights(tables),
            "eq17": eq17(tables),
        }
    )
