"""Figures of the claim ``theorem19`` (Rademacher complexity, eqs. (1), (15), (16))."""

from __future__ import annotations

from sparseact.plots._style import plt, setup_style

CAPTIONS = {
    "rademacher": "Left: lower-bound estimates of R_H(S) against s at the largest m, sparse (k = 1, circles) and "
    "dense (k = s, squares), with eqs. (1), (16) and the dense bound (black). Middle: against m (s in the middle "
    "of the grid, k = 1; dotted: eq. (1)). Right: Conjecture 20's question, the estimate (95% CI) against n "
    "with the points scaled to R = 1, and eqs. (15), (16). Replicate 0.",
    "scale": "Exact R_H(S) of one Gaussian sample rescaled to norm R (B = 0, s = k = 1) against eq. (1) as printed "
    "and with the log floored at 1: R_H is linear in R, while (1) vanishes as m R -> 1.",
}


def _first_replicate(frame):
    return frame[frame["replicate"] == frame["replicate"].min()] if "replicate" in frame else frame


def figures(tables: dict) -> dict:
    setup_style()
    sweep = _first_replicate(tables["sweep"])
    fig, axes = plt.subplots(1, 3, figsize=(12, 3.6))
    m_max = sweep["m"].max()
    at_m = sweep[sweep["m"] == m_max]
    for i, (dist, group) in enumerate(at_m.groupby("distribution")):
        for cls, style in (("sparse", "o-"), ("dense", "s--")):
            part = group[(group["k"] == 1) if cls == "sparse" else (group["k"] == group["s"])].sort_values("s")
            axes[0].loglog(part["s"], part["estimate"], style, color=f"C{i}", label=f"{dist}, {cls}")
    bounds = at_m[at_m["k"] == 1].groupby("s")[["eq1", "conj20", "dense"]].max()
    for column, style in (("eq1", "k:"), ("conj20", "k-."), ("dense", "k--")):
        axes[0].loglog(bounds.index, bounds[column], style, lw=0.8, label=f"bound {column}")
    axes[0].set_xlabel("s")
    axes[0].set_ylabel("R_H(S) lower-bound estimate")
    axes[0].set_title(f"vs s (m = {m_max})", fontsize=9)
    axes[0].legend(fontsize=5, ncol=2)
    s_values = sorted(sweep["s"].unique())
    s_mid = s_values[len(s_values) // 2]
    for i, (dist, group) in enumerate(sweep[(sweep["s"] == s_mid) & (sweep["k"] == 1)].groupby("distribution")):
        part = group.sort_values("m")
        axes[1].loglog(part["m"], part["estimate"], "o-", color=f"C{i}", label=dist)
        axes[1].loglog(part["m"], part["eq1"], ":", color=f"C{i}", lw=0.8)
    axes[1].set_xlabel("m")
    axes[1].set_title(f"vs m (s = {s_mid}, k = 1; dotted: eq. (1))", fontsize=9)
    axes[1].legend(fontsize=6)
    dims = _first_replicate(tables["dimension"]).sort_values("n")
    yerr = [dims["estimate"] - dims["ci_low"], dims["ci_high"] - dims["estimate"]]
    axes[2].errorbar(dims["n"], dims["estimate"], yerr=yerr, fmt="o-", label="estimate (R = 1)")
    axes[2].plot(dims["n"], dims["conj20"], "k-.", lw=0.8, label="eq. (16)")
    axes[2].plot(dims["n"], dims["eq15"], "k:", lw=0.8, label="eq. (15)")
    axes[2].set_xscale("log")
    axes[2].set_yscale("log")
    axes[2].set_xlabel("n")
    axes[2].set_title("Conjecture 20: vs n at R = 1", fontsize=9)
    axes[2].legend(fontsize=6)
    fig.tight_layout()

    scale = _first_replicate(tables["scale"]).sort_values("R")
    fig2, ax = plt.subplots(figsize=(4.4, 3.2))
    ax.plot(scale["mR"], scale["exact"], "o-", label="exact R_H(S)")
    ax.plot(scale["mR"], scale["eq1"], "k:", label="eq. (1) as printed")
    ax.plot(scale["mR"], scale["eq1_corrected"], "k--", lw=0.8, label="log floored at 1")
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("m R")
    ax.legend(fontsize=7)
    ax.set_title(f"eq. (1) near m R = 1 (m = {int(scale['m'].iloc[0])}, B = 0)", fontsize=9)
    fig2.tight_layout()
    return {"rademacher": fig, "scale": fig2}
