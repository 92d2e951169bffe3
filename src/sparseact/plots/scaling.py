"""Figures of the claim ``scaling`` (dimensional analysis of the bound formulas)."""

from __future__ import annotations

from sparseact.plots._style import plt, setup_style

CAPTIONS = {
    "exponents": "Local exponent of each formula minus the exponent of the quantity it bounds, under u -> lambda u "
                 "(left) and x -> mu x (right), at scales 1e-6 to 1e6 (white: undefined there). Zero is covariant; "
                 "small values come from a scale inside a logarithm; Theorem 17's printed sample complexity is off "
                 "by lambda^-2 to lambda^-4.",
    "theorem17-sign-ambiguity": "Samples needed to tell h from -h (an exact lower bound for every PAC learner) "
                                "against Theorem 17's printed bound (constant 1) and our covariant correction, as "
                                "eps / lambda^2 shrinks: the printed bound stays flat while the need grows like "
                                "1/eps0.",
}


def figures(tables: dict) -> dict:
    import seaborn as sns

    setup_style()
    exponents = tables["exponents"].copy()
    exponents["deviation"] = (exponents["exponent"] - exponents["expected"]).round(3) + 0.0
    worst = exponents.groupby(["formula", "transform", "scale"], as_index=False)["deviation"].max()
    fig, axes = plt.subplots(1, 2, figsize=(11, 6.5), gridspec_kw={"width_ratios": [1.4, 1]})
    for ax, transform, label in zip(axes, ("output", "input"), ("u -> lambda u", "x -> mu x")):
        grid = worst[worst["transform"] == transform].pivot(index="formula", columns="scale", values="deviation")
        sns.heatmap(grid, ax=ax, cmap="RdBu_r", center=0, vmin=-4, vmax=4, annot=True, fmt=".2g",
                    cbar=ax is axes[1], cbar_kws={"label": "exponent - expected"}, annot_kws={"fontsize": 7})
        ax.set_title(label)
        ax.set_xlabel("scale t (exponent measured over [t, 10 t])")
        ax.set_xticklabels([f"{float(t.get_text()):g}" for t in ax.get_xticklabels()])
        ax.set_ylabel("")
    fig.tight_layout()
    sign = tables["sign_ambiguity"]
    fig2, ax = plt.subplots(figsize=(6, 4))
    ax.loglog(sign["eps0"], sign["lower_bound"], "o-", label="needed: log(1/(2 delta)) / (-log(1-p))")
    ax.loglog(sign["eps0"], sign["printed"], "s--", label="Theorem 17 as printed (C = 1)")
    ax.loglog(sign["eps0"], sign["corrected"], "^:", label="covariant correction (C = 1)")
    ax.set_xlabel("eps / lambda^2")
    ax.set_ylabel("samples")
    ax.invert_xaxis()
    ax.legend(loc="upper left", bbox_to_anchor=(1.02, 1), frameon=False)
    ax.grid(True, which="major", alpha=0.3)
    return {"exponents": fig, "theorem17-sign-ambiguity": fig2}
