"""Figures of the claim ``theorem17`` (sample complexity of ERM under a biased product distribution)."""

from __future__ import annotations

from sparseact.plots._style import plt, setup_style

CAPTIONS = {
    "learning-curves": "Exact test loss (= excess error; realisable targets) against the sample size m, per target: "
    "median over seeds and replicates with the min-max range, for the sparse ERM (certified in H_{n,2s,k}^{W,B} on "
    "its sample), an unconstrained network of the same size and the low-degree learner. The sparse ERM's points at "
    "the right sit at m = Theorem 17's expression (hidden constant 1; dashed line); the dotted line is the m from "
    "which a sample covers the cube with probability 1 - delta (exact ERM then has loss 0). Grey: eps; "
    "light grey: the loss of the best constant.",
}

#: Losses are drawn clipped below at this value (a log axis cannot show 0).
FLOOR = 1e-10


def figures(tables: dict) -> dict:
    setup_style()
    curves = tables["curves"]
    coverage = tables["theorem17-coverage"]
    targets = list(dict.fromkeys(curves["target"]))
    fig, axes = plt.subplots(1, len(targets), figsize=(3.0 * len(targets), 3.2), squeeze=False, sharey=True)
    for ax, target in zip(axes[0], targets):
        part = curves[curves["target"] == target]
        for i, (learner, group) in enumerate(part.groupby("learner", sort=False)):
            stats = group.groupby("m")["test_loss"].agg(["median", "min", "max"]).clip(lower=FLOOR)
            grid = stats.loc[sorted(group.loc[group["kind"] == "grid", "m"].unique())]
            ax.plot(grid.index, grid["median"], "o-", color=f"C{i}", ms=3, label=learner)
            ax.fill_between(grid.index, grid["min"], grid["max"], color=f"C{i}", alpha=0.15, lw=0)
            bound = stats.drop(index=grid.index)
            if len(bound):
                ax.errorbar(bound.index, bound["median"], yerr=[bound["median"] - bound["min"],
                                                                bound["max"] - bound["median"]],
                            fmt="s", color=f"C{i}", ms=4, capsize=2)
        cov = coverage[coverage["target"] == target].iloc[0]
        ax.axvline(cov["expression"], color="k", ls="--", lw=0.8)
        ax.axvline(cov["coverage_m"], color="k", ls=":", lw=0.8)
        ax.axhline(part["trivial"].iloc[0], color="0.7", lw=0.8)
        ax.axhline(cov["eps"], color="0.4", lw=0.8)
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.set_title(target, fontsize=8)
        ax.set_xlabel("m")
    axes[0][0].set_ylabel("exact test loss (biased product)")
    axes[0][0].legend(fontsize=6, loc="lower left")
    fig.tight_layout()
    return {"learning-curves": fig}
