"""Figures of the claim ``theorem19`` (Rademacher complexity, eqs. (1), (15), (16))."""

from __future__ import annotations

from sparseact.publish.plotting import (
    FULL_WIDTH,
    SINGLE_WIDTH,
    colours,
    finish,
    legend_handle,
    legend_outside,
    plt,
    reference_curve,
    setup_style,
    value_ticks,
)

CAPTIONS = {
    "rademacher": "Lower-bound estimates of R_H(S) (replicate 0; one colour per input distribution), log-log, with "
    "the bounds in black (line styles in the legend); since the estimates are lower bounds, a point "
    "clearly above a bound would contradict it. Left: against s at the largest m, sparse class (k = 1, "
    "circles, solid) and dense class (k = s, squares, dashed), with eqs. (1) and (16) and the dense "
    "bound. Middle: against m (s in the middle of the grid, k = 1), with eq. (1). Right: Conjecture "
    "20's question, the estimate (95% CI) against n with the points scaled to R = 1, with eqs. (15) and "
    "(16); a rise with n would speak against a bound free of n. The verdicts and the worst values are "
    "in the check cards below.",
    "scale": "Exact R_H(S) of one Gaussian sample rescaled to norm R (B = 0, s = k = 1; circles) against m R, "
    "log-log, with eq. (1) as printed (dotted) and with the log floored at 1 (dashed). A valid bound lies on "
    "or above the circles at every m R; where a bound's line passes below them, the bound is violated. The "
    "verdicts are in the check cards below.",
    "dimension-exact": "Section 6's question, exactly: R_H(S) of samples on the unit sphere (R = W = 1, k = 1) "
    "against the dimension n at the fixed m of the figure's title, one line per class s and bias bound B. Filled "
    "circles: the exact value (all 2^m sign vectors, certified sups); open circles: the proof's quantity, an upper "
    "bound. Each n has its own sample; (1) grows as sqrt(n), Conjecture 20's (16) is flat.",
}

#: Line styles of the bounds, shared by every panel.
BOUNDS = {
    "eq1": ("eq. (1)", ":", "k"),
    "conj20": ("eq. (16) (Conj. 20)", "-.", "k"),
    "dense": ("dense bound", "--", "k"),
    "eq15": ("eq. (15)", "-", "0.55"),
}


def _first_replicate(frame):
    return frame[frame["replicate"] == frame["replicate"].min()] if "replicate" in frame else frame


def figures(tables: dict) -> dict:
    setup_style()
    sweep = _first_replicate(tables["sweep"])
    fig, axes = plt.subplots(1, 3, figsize=(FULL_WIDTH, 3.0), sharey=True)
    distributions = sorted(sweep["distribution"].unique())
    palette = dict(zip(distributions, colours(len(distributions)), strict=True))
    m_max = sweep["m"].max()
    at_m = sweep[sweep["m"] == m_max]
    for dist, group in at_m.groupby("distribution"):
        for cls, style in (("sparse", "o-"), ("dense", "s--")):
            part = group[(group["k"] == 1) if cls == "sparse" else (group["k"] == group["s"])].sort_values("s")
            axes[0].plot(part["s"], part["estimate"], style, color=palette[dist], ms=3)
    bounds = at_m[at_m["k"] == 1].groupby("s")[["eq1", "conj20", "dense"]].max()
    for column in ("eq1", "conj20", "dense"):
        axes[0].plot(bounds.index, bounds[column], color=BOUNDS[column][2], ls=BOUNDS[column][1], lw=1.0)
    axes[0].set_xlabel("s")
    axes[0].set_ylabel("$R_H(S)$ (lower-bound estimate)")
    axes[0].set_title(f"against s (m = {m_max})")
    s_values = sorted(sweep["s"].unique())
    s_mid = s_values[len(s_values) // 2]
    middle = sweep[(sweep["s"] == s_mid) & (sweep["k"] == 1)]
    for dist, group in middle.groupby("distribution"):
        part = group.sort_values("m")
        axes[1].plot(part["m"], part["estimate"], "o-", color=palette[dist], ms=3)
    eq1 = middle.groupby("m")["eq1"].max()
    axes[1].plot(eq1.index, eq1.values, color="k", ls=BOUNDS["eq1"][1], lw=1.0)
    axes[1].set_xlabel("m")
    axes[1].set_title(f"against m (s = {s_mid}, k = 1)")
    dims = _first_replicate(tables["dimension"]).sort_values("n")
    for dist, group in dims.groupby("distribution"):
        yerr = [group["estimate"] - group["ci_low"], group["ci_high"] - group["estimate"]]
        axes[2].errorbar(group["n"], group["estimate"], yerr=yerr, fmt="o-", ms=3, capsize=2, color=palette[dist])
    for column in ("conj20", "eq15"):
        per_n = dims.groupby("n")[column].max()
        axes[2].plot(per_n.index, per_n.values, color=BOUNDS[column][2], ls=BOUNDS[column][1], lw=1.0)
    axes[2].set_xlabel("n")
    axes[2].set_title("Conjecture 20: against n (R = 1)")
    for ax, values in zip(axes, (at_m["s"], middle["m"], dims["n"]), strict=True):
        ax.set_xscale("log")
        ax.set_yscale("log")
        value_ticks(ax, "x", values.unique())
    handles = [legend_handle(color=palette[d], label=d) for d in distributions]
    handles += [
        legend_handle(color="0.3", marker="o", ms=3, label="sparse (k = 1)"),
        legend_handle(color="0.3", marker="s", ms=3, ls="--", label="dense (k = s)"),
    ]
    handles += [legend_handle(color=colour, ls=style, lw=1.0, label=label) for label, style, colour in BOUNDS.values()]
    # a proxy without data: the error bars of the right panel, named once in grey
    handles.append(
        axes[2].errorbar([], [], yerr=[], fmt="o", ms=3, capsize=2, color="0.3", label="estimate, 95% CI (right)")
    )
    legend_outside(fig, handles, where="below", ncol=5)
    fig.tight_layout()

    scale = _first_replicate(tables["scale"]).sort_values("R")
    fig2, ax = plt.subplots(figsize=(SINGLE_WIDTH, 3.2))
    ax.plot(scale["mR"], scale["exact"], "o-", label="exact $R_H(S)$")
    reference_curve(ax, scale["mR"], scale["eq1"], kind="printed", label="eq. (1) as printed")
    reference_curve(ax, scale["mR"], scale["eq1_corrected"], kind="corrected", label="eq. (1), log floored at 1")
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("m R")
    ax.set_ylabel("Rademacher complexity")
    ax.legend(loc="upper left")
    ax.set_title(f"eq. (1) near m R = 1 (m = {int(scale['m'].iloc[0])}, B = 0)")
    fig2.tight_layout()
    return finish({"rademacher": fig, "scale": fig2, "dimension-exact": _dimension_exact(tables["range"])})


def _dimension_exact(ranged):
    """Exact ``R_H`` (and the proof's quantity) against ``n`` at the ``m`` with the most exact dimensions."""
    exact = ranged[ranged["exact"].notna()]
    m = int(exact.groupby("m")["n"].nunique().idxmax())
    part = exact[exact["m"] == m]
    classes = sorted({(int(r.s), float(r.B)) for r in part.itertuples()})
    palette = dict(zip(classes, colours(len(classes)), strict=True))
    fig, ax = plt.subplots(figsize=(SINGLE_WIDTH, 4.2))
    for (s, B), group in part.groupby(["s", "B"]):
        group = group.sort_values("n")
        colour = palette[(int(s), float(B))]
        ax.plot(group["n"], group["exact"], "o-", color=colour, ms=4, label=f"s = {int(s)}, B = {B:g}")
        ax.plot(group["n"], group["proof_upper"], "o:", color=colour, ms=4, mfc="none", lw=0.8)
    ax.set_xlabel("n")
    ax.set_ylabel("$R_H(S)$")
    value_ticks(ax, "x", part["n"].unique())
    ax.set_title(f"exact $R_H(S)$ against n (m = {m}, k = 1, R = 1)")
    handles, _ = ax.get_legend_handles_labels()
    kinds = [
        ax.plot([], [], "o-", color="0.3", ms=4, label="exact $R_H(S)$")[0],
        ax.plot([], [], "o:", color="0.3", ms=4, mfc="none", lw=0.8, label="proof's quantity (upper bound)")[0],
    ]
    ax.legend(handles=handles + kinds, loc="upper center", bbox_to_anchor=(0.5, -0.2), ncol=2, fontsize="small")
    fig.tight_layout()
    return fig
