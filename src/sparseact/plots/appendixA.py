"""Figures of the claim ``appendixA`` (the Appendix A network with dense weights)."""

from __future__ import annotations

from sparseact.plots._style import plt, setup_style

CAPTIONS = {
    "sqrt_q": "Left: with Gamma = sqrt(q), the largest number of active neurons over all inputs against "
    "max_alpha ||w_alpha||_1 / (2 Gamma), one marker per network (all draws and seeds). Every network left of the "
    "dotted line (the sufficient condition ||w_alpha||_1 <= 2 Gamma, which unit-norm rows satisfy) is 1-sparse; "
    "the all-ones rows of the printed statement (no norm condition) fire 1 + b neurons. Right: the exact fraction "
    "of inputs with more than one active neuron against Gamma (unit-norm Gaussian rows, worst draw); it is 0 "
    "before Gamma reaches sqrt(q) (dashed).",
    "whp": "The exact fraction of inputs with more than one active neuron at Gamma = c sqrt(ln s) against s "
    "(unit-norm rows, worst draw and seed; zero values omitted), with the explicit Hoeffding bound (A.2) "
    "sum_d C(b,d) exp(-2 Gamma^2 d^2) dotted in the same colour: the fraction decays like a power of s, "
    "faster for larger c.",
}


def figures(tables: dict) -> dict:
    import numpy as np

    from sparseact.claims.appendixA import hoeffding_bound

    setup_style()
    sq, sweep, whp = tables["sqrt_q"], tables["gamma_sweep"], tables["whp"]
    fig, axes = plt.subplots(1, 2, figsize=(9, 3.4))
    markers = {"unit-gaussian": "o", "unit-sign": "s", "gaussian": "^", "all-ones": "D"}
    for i, (family, group) in enumerate(sq.groupby("family", sort=False)):
        axes[0].scatter(group["max_w_norm1"] / (2 * group["gamma"]), group["max_active"],
                        marker=markers.get(family, "o"), color=f"C{i}", s=18, alpha=0.7, label=family)
    axes[0].axvline(1.0, ls=":", color="grey", lw=0.8)
    axes[0].axhline(1.0, ls="--", color="k", lw=0.6)
    axes[0].set_xlabel(r"$\max_\alpha \|w_\alpha\|_1 / (2\Gamma)$")
    axes[0].set_ylabel("max active neurons (all inputs)")
    axes[0].set_title(rf"$\Gamma=\sqrt{{q}}$, q = {int(sq['q'].iloc[0])}", fontsize=9)
    axes[0].legend(fontsize=7)
    q = int(sweep["q"].iloc[0])
    for b, group in sweep.groupby("b"):
        worst = group.groupby("gamma")["excess_fraction"].max()
        axes[1].plot(worst.index, worst.values, "o-", ms=3, label=f"s = {2**b}")
    axes[1].axvline(np.sqrt(q), ls="--", color="k", lw=0.8)
    axes[1].annotate(r"$\Gamma=\sqrt{q}$", (np.sqrt(q), 0.9), xycoords=("data", "axes fraction"), fontsize=8,
                     ha="right")
    axes[1].set_xlabel(r"$\Gamma$")
    axes[1].set_ylabel("Pr[> 1 active] (exact, worst draw)")
    axes[1].set_title(f"unit-norm Gaussian rows, q = {q}", fontsize=9)
    axes[1].legend(fontsize=7)
    fig.suptitle("Appendix A: 1-sparsity at $\\Gamma = \\sqrt{q}$ needs a norm bound on $w_\\alpha$")
    fig.tight_layout()

    fig2, ax = plt.subplots(figsize=(5.5, 3.6))
    for i, (c, group) in enumerate(whp.groupby("c")):
        worst = group.groupby("s")["excess_fraction"].max()
        positive = worst[worst > 0]
        ax.loglog(positive.index, positive.values, "o-", color=f"C{i}", label=f"c = {c:g}")
        s = np.array(sorted(worst.index))
        bound = [hoeffding_bound(int(np.log2(v)), c * np.sqrt(np.log(v))) for v in s]
        ax.loglog(s, bound, ":", color=f"C{i}", lw=1)
    ax.set_xscale("log", base=2)
    ax.set_xlabel("s")
    ax.set_ylabel(r"Pr[> 1 active] at $\Gamma = c\sqrt{\ln s}$")
    ax.set_title(f"q = {int(whp['q'].iloc[0])}; dotted: bound (A.2)", fontsize=9)
    ax.legend(fontsize=7)
    fig2.suptitle("Appendix A: 1-sparse with probability $1 - 1/\\mathrm{poly}(s)$", fontsize=10)
    fig2.tight_layout()
    return {"sqrt_q": fig, "whp": fig2}
