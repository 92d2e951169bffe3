"""Figures for the construction checks (one figure per construction)."""

from __future__ import annotations

import numpy as np
import pandas as pd

from sparseact.plots._style import plt, setup_style


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


def plot_lemma9_as_vs_n(tables: dict[str, pd.DataFrame]):
    """AS against n (log-log) per k: the worst measured network, Lemma 9's expression and 4 k^2 W^2."""
    exact = pd.concat([tables["lemma9-exact"], tables["lemma9-adversarial"]], ignore_index=True)
    mc = tables["lemma9-monte-carlo"]
    fig, ax = plt.subplots(figsize=(6, 4))
    for i, (k, group) in enumerate(exact.groupby("k")):
        normalised = group.assign(as_w2=group["AS"] / group["W"] ** 2, bound_w2=group["bound"] / group["W"] ** 2)
        worst = normalised.groupby("n")[["as_w2", "bound_w2"]].max()
        ax.loglog(worst.index, worst["as_w2"], "o-", color=f"C{i}", label=f"max AS/W^2, k={k}")
        ax.loglog(worst.index, worst["bound_w2"], ":", color=f"C{i}", label=f"Lemma 9 expression/W^2, k={k}")
        ax.axhline(4 * k * k, color=f"C{i}", lw=0.7, ls="--")
    if len(mc):
        ax.errorbar(mc["n"], mc["AS"] / mc["W"] ** 2, yerr=[(mc["AS"] - mc["AS_ci_low"]) / mc["W"] ** 2,
                    (mc["AS_ci_high"] - mc["AS"]) / mc["W"] ** 2], fmt="s", color="k", ms=3,
                    label=f"Monte Carlo AS/W^2 (95% CI), k={int(mc['k'].iloc[0])}")
    ax.set_xlabel("n")
    ax.set_ylabel("AS / W^2")
    ax.set_title("Lemma 9: average sensitivity vs n (dashed: 4k^2)", fontsize=9)
    ax.legend(fontsize=6, ncol=2)
    fig.tight_layout()
    return fig


def plot_lemma9_ratio_heatmap(tables: dict[str, pd.DataFrame]):
    """Worst AS / Lemma 9 expression over (k, s), exact instances."""
    import seaborn as sns

    exact = pd.concat([tables["lemma9-exact"], tables["lemma9-adversarial"]], ignore_index=True)
    grid = exact.pivot_table(index="k", columns="s", values="ratio", aggfunc="max")
    fig, ax = plt.subplots(figsize=(5, 3.5))
    sns.heatmap(grid, annot=True, fmt=".2g", cmap="viridis", ax=ax, cbar_kws={"label": "max AS / expression"})
    ax.set_title("Lemma 9: worst ratio over (k, s)", fontsize=9)
    fig.tight_layout()
    return fig


def plot_level_weights(tables: dict[str, pd.DataFrame], key: str):
    """Fourier level weights W^t / ||h||^2 of representative networks."""
    weights = tables[key]
    fig, ax = plt.subplots(figsize=(5, 3.5))
    for label, group in weights.groupby("network"):
        ax.semilogy(group["level"], group["weight_fraction"].clip(lower=1e-18), "o-", ms=3, label=label)
    ax.set_xlabel("level t = |T|")
    ax.set_ylabel("W^t / ||h||^2")
    ax.set_title("Fourier level weights of representative networks", fontsize=9)
    ax.legend(fontsize=6)
    fig.tight_layout()
    return fig


def plot_lemma6(tables: dict[str, pd.DataFrame]):
    """AS(g) / (p sqrt(n log 1/p)) against p for halfspace indicators."""
    table = tables["lemma6"]
    fig, ax = plt.subplots(figsize=(5, 3.5))
    for (kind, n), group in table.groupby(["kind", "n"]):
        ax.semilogx(group["p"], group["ratio"], ".", label=f"{kind}, n={n}")
    ax.set_xlabel("p = E[g]")
    ax.set_ylabel("AS(g) / (p sqrt(n log(1/p)))")
    ax.set_title("Lemma 6 (Kane): measured constant", fontsize=9)
    ax.legend(fontsize=5, ncol=2)
    fig.tight_layout()
    return fig


def plot_lemma10_ns(tables: dict[str, pd.DataFrame]):
    """NS_rho against 1 - rho (log-log) for each instance, with the Lemma 10 expression."""
    table = tables["lemma10"]
    fig, axes = plt.subplots(1, 2, figsize=(9, 3.5))
    for i, (key, group) in enumerate(table.groupby("instance")):
        axes[0].loglog(group["one_minus_rho"], group["NS"], "-", color=f"C{i % 10}", lw=0.8)
        axes[1].loglog(group["one_minus_rho"], group["ratio"], "-", color=f"C{i % 10}", lw=0.8)
    x = np.sort(table["one_minus_rho"].unique())
    ref = table.groupby("one_minus_rho")["NS"].max().loc[x]
    axes[0].loglog(x, ref.iloc[-1] * x, "k--", lw=0.8, label="slope 1")
    axes[0].loglog(x, ref.iloc[-1] * np.sqrt(x), "k:", lw=0.8, label="slope 1/2 (Lemma 10)")
    axes[0].set_xlabel("1 - rho")
    axes[0].set_ylabel("NS_rho(h) (exact)")
    axes[0].legend(fontsize=7)
    axes[1].set_xlabel("1 - rho")
    axes[1].set_ylabel("NS_rho / Lemma 10 expression")
    fig.suptitle("Lemma 10: noise sensitivity of certified-sparse networks", fontsize=10)
    fig.tight_layout()
    return fig


def plot_claim21_tail(tables: dict[str, pd.DataFrame]):
    """Fourier tail beyond d against the Claim 2.1 bound 2 NS_rho / (1 - rho^d)."""
    tail = tables["claim2.1-tail"]
    fig, ax = plt.subplots(figsize=(5, 3.5))
    ax.loglog(tail["bound"], tail["tail"], ".", ms=2, alpha=0.5)
    lo, hi = tail["tail"][tail["tail"] > 0].min(), tail["bound"].max()
    ax.loglog([lo, hi], [lo, hi], "k--", lw=0.8, label="tail = bound")
    ax.set_xlabel("2 NS_rho / (1 - rho^d)")
    ax.set_ylabel("sum_{|T| > d} hhat(T)^2")
    ax.set_title("Claim 2.1 tail inequality, every instance, d and rho", fontsize=9)
    ax.legend(fontsize=7)
    fig.tight_layout()
    return fig


def plot_theorem8_error_vs_degree(tables: dict[str, pd.DataFrame]):
    """Exact test error against degree d (largest m, worst seed), with the approximation floor."""
    curves = tables["theorem8-curves"]
    m_max = curves["m"].max()
    fig, ax = plt.subplots(figsize=(6, 4))
    for i, (label, group) in enumerate(curves[curves["m"] == m_max].groupby("target")):
        worst = group.groupby("degree")[["test_error", "floor"]].max()
        ax.semilogy(worst.index, worst["test_error"].clip(lower=1e-16), "o-", color=f"C{i % 10}", label=label)
        ax.semilogy(worst.index, worst["floor"].clip(lower=1e-16), ":", color=f"C{i % 10}")
    ax.set_xlabel("degree d")
    ax.set_ylabel("exact test error (loss (yhat-y)^2/2)")
    ax.set_title(f"Theorem 8: error vs degree at m = {m_max} (dotted: Fourier-tail floor)", fontsize=9)
    ax.legend(fontsize=6, ncol=2)
    fig.tight_layout()
    return fig


def plot_theorem8_error_vs_m(tables: dict[str, pd.DataFrame]):
    """Excess error over the floor against m for each degree, with the N_d / m variance term."""
    curves = tables["theorem8-curves"]
    fig, ax = plt.subplots(figsize=(6, 4))
    for i, (d, group) in enumerate(curves[curves["degree"] >= 1].groupby("degree")):
        worst = group.groupby("m")[["excess", "variance_term"]].max()
        ax.loglog(worst.index, worst["excess"].clip(lower=1e-16), "o-", color=f"C{i}", label=f"excess error, d={d}")
        ax.loglog(worst.index, worst["variance_term"] * worst["excess"].iloc[0] / worst["variance_term"].iloc[0],
                  ":", color=f"C{i}")
    ax.set_xlabel("sample size m")
    ax.set_ylabel("test error - floor (worst target and seed)")
    ax.set_title("Lemma 7: excess error vs m (dotted: N_d / m, scaled)", fontsize=9)
    ax.legend(fontsize=6)
    fig.tight_layout()
    return fig


def plot_theorem8_degree_vs_k(tables: dict[str, pd.DataFrame]):
    """Exact degree needed for eps/2 floor against k (sparse targets) and the dense baseline."""
    needs = tables["theorem8-needs"]
    fig, ax = plt.subplots(figsize=(5, 3.5))
    for kind, group in needs.groupby("kind"):
        ax.plot(group["k"], group["degree_needed_relative"], "o", label=kind)
    ax.set_xscale("log", base=2)
    ax.set_xlabel("certified k (dense: k = max active)")
    ax.set_ylabel("degree needed (exact)")
    ax.set_title("degree whose Fourier-tail floor is <= relative_eps x trivial loss", fontsize=9)
    ax.legend(fontsize=7)
    fig.tight_layout()
    return fig


def plot_junta_cliff(tables: dict[str, pd.DataFrame]):
    """Theorem 13 hardness: error / trivial error against d for p-juntas, and feature count at d = p vs n."""
    cliff = tables["thm13-hardness"]
    fig, axes = plt.subplots(1, 2, figsize=(9, 3.5))
    n_max = cliff["n"].max()
    for i, ((p, target), group) in enumerate(cliff[cliff["n"] == n_max].groupby(["p", "target"])):
        style = "-" if target == "parity" else "--"
        axes[0].plot(group["degree"], group["test_error"] / group["trivial"], style, marker="o", ms=3,
                     color=f"C{p}", label=f"{target}, p={p}")
    axes[0].set_xlabel("degree d")
    axes[0].set_ylabel("test error / trivial error")
    axes[0].set_title(f"junta cliff at d = p (n = {n_max})", fontsize=9)
    axes[0].legend(fontsize=6)
    at_p = cliff[(cliff["degree"] == cliff["p"]) & (cliff["target"] == "parity")]
    for p, group in at_p.groupby("p"):
        axes[1].loglog(group["n"], group["features"], "o-", color=f"C{p}", label=f"N_p, p={p}")
    axes[1].set_xlabel("n")
    axes[1].set_ylabel("features at d = p (cost per sample)")
    axes[1].legend(fontsize=7)
    fig.tight_layout()
    return fig


def plot_theorem19(tables: dict[str, pd.DataFrame]):
    """Lower-bound estimates of R_H(S) with the bounds, against s and m (log-log), sparse and dense."""
    sweep = tables["theorem19-sweep"]
    fig, axes = plt.subplots(1, 3, figsize=(12, 3.6))
    m_max = sweep["m"].max()
    at_m = sweep[sweep["m"] == m_max]
    for i, (dist, group) in enumerate(at_m.groupby("distribution")):
        for cls, style in (("sparse", "o-"), ("dense", "s--")):
            part = group[(group["cls"] == cls) & ((group["k"] == 1) | (cls == "dense"))].sort_values("s")
            axes[0].loglog(part["s"], part["estimate"], style, color=f"C{i}", label=f"{dist}, {cls}")
    part = at_m[(at_m["cls"] == "sparse") & (at_m["k"] == 1)].groupby("s")[["eq1", "conj20", "dense"]].max()
    for column, style in (("eq1", "k:"), ("conj20", "k-."), ("dense", "k--")):
        axes[0].loglog(part.index, part[column], style, lw=0.8, label=f"bound {column}")
    axes[0].set_xlabel("s")
    axes[0].set_ylabel("R_H(S) lower-bound estimate")
    axes[0].set_title(f"vs s (m = {m_max})", fontsize=9)
    axes[0].legend(fontsize=5, ncol=2)
    s_mid = sorted(sweep["s"].unique())[len(sweep["s"].unique()) // 2]
    for i, (dist, group) in enumerate(sweep[(sweep["s"] == s_mid) & (sweep["k"] == 1)].groupby("distribution")):
        part = group.sort_values("m")
        axes[1].loglog(part["m"], part["estimate"], "o-", color=f"C{i}", label=dist)
        axes[1].loglog(part["m"], part["eq1"], ":", color=f"C{i}", lw=0.8)
    axes[1].set_xlabel("m")
    axes[1].set_title(f"vs m (s = {s_mid}, k = 1; dotted: eq. (1))", fontsize=9)
    axes[1].legend(fontsize=6)
    dims = tables["theorem19-dimension"]
    axes[2].errorbar(dims["n"], dims["estimate"], yerr=[dims["estimate"] - dims["ci_low"], dims["ci_high"] - dims["estimate"]],
                     fmt="o-", label="estimate (R = 1)")
    axes[2].plot(dims["n"], dims["conj20"], "k-.", lw=0.8, label="eq. (16)")
    axes[2].plot(dims["n"], dims["eq15"], "k:", lw=0.8, label="eq. (15)")
    axes[2].set_xscale("log")
    axes[2].set_yscale("log")
    axes[2].set_xlabel("n")
    axes[2].set_title("Conjecture 20: vs n at R = 1", fontsize=9)
    axes[2].legend(fontsize=6)
    fig.tight_layout()
    return fig


def plot_theorem17(tables: dict[str, pd.DataFrame]):
    """Exact test loss against m for each target and learner (median over seeds)."""
    curves = tables["theorem17-curves"]
    targets = list(curves["target"].unique())
    fig, axes = plt.subplots(1, len(targets), figsize=(3.2 * len(targets), 3.2), squeeze=False)
    for ax, target in zip(axes[0], targets):
        part = curves[curves["target"] == target]
        for i, (learner, group) in enumerate(part.groupby("learner")):
            med = group.groupby("m")["test_loss"].median()
            ax.loglog(med.index, med.clip(lower=1e-8), "o-", color=f"C{i}", label=learner)
        ax.axhline(part["trivial"].iloc[0], color="grey", ls=":", lw=0.8)
        ax.set_title(target, fontsize=8)
        ax.set_xlabel("m")
    axes[0][0].set_ylabel("exact test loss (biased product)")
    axes[0][0].legend(fontsize=6)
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
