"""Figures of the claim ``theorem17`` (sample complexity of ERM under a biased product distribution)."""

from __future__ import annotations

from sparseact.publish.plotting import (
    FULL_WIDTH,
    colours,
    finish,
    floor_handles,
    legend_outside,
    mark_floor,
    plt,
    reference_line,
    setup_style,
)

CAPTIONS = {
    "learning-curves": "Exact test loss (= excess error; realisable targets) against the sample size m, log-log, one "
    "panel per target: median over seeds and replicates (line) and min-max range (shaded) of the "
    "sparse ERM (certified in H_{n,2s,k}^{W,B} on its sample), an unconstrained network of the "
    "same size and the low-degree learner. Squares: the sparse ERM at Theorem 17's m (hidden "
    "constant 1, dashed), which the theorem asks to be at or below eps (dark grey) with "
    "probability 1 - delta; from the dotted m on, a sample covers the cube with probability 1 - "
    "delta and exact ERM has loss 0. Light grey: the loss of the best constant. A log axis cannot "
    "show a loss of 0 or one below its floor (the lowest tick): a median there is drawn at the floor, as a hollow circle when it is "
    "exactly 0 and as a hollow downward triangle when it is positive but below the floor (the legend says which "
    "occur); a range reaching below the floor is cut at it. The verdicts and the worst values are in the check cards "
    "below.",
}

#: The floor of the loss axis: a loss below it (0 included) is drawn at it, marked by :func:`mark_floor`.
FLOOR = 1e-10


def panel_title(target: str) -> str:
    """A panel's title in the paper's words: ``Index_b`` is Section 1's index function, ``parity p=.., n=..`` the
    parity of the first p of n bits (Theorem 13's parity junta)."""
    if target.startswith("Index_"):
        return rf"Section 1's $\mathrm{{Index}}_{{{target.removeprefix('Index_')}}}$"
    fields = dict(part.split("=") for part in target.removeprefix("parity ").split(", "))
    return f"parity of the first ${fields['p']}$ of $n = {fields['n']}$ bits (Theorem 13)"


def figures(tables: dict) -> dict:
    setup_style()
    curves = tables["curves"]
    coverage = tables["theorem17-coverage"]
    targets = list(dict.fromkeys(curves["target"]))
    ncols = 2 if len(targets) > 1 else 1
    nrows = -(-len(targets) // ncols)
    fig, axes = plt.subplots(
        nrows, ncols, figsize=(FULL_WIDTH, 2.3 * nrows + 0.4), squeeze=False, sharex=True, sharey=True
    )
    learners = list(dict.fromkeys(curves["learner"]))
    palette = dict(zip(learners, colours(len(learners)), strict=True))
    for ax, target in zip(axes.flat, targets, strict=False):  # an odd count leaves the last panel empty
        part = curves[curves["target"] == target]
        for learner, group in part.groupby("learner", sort=False):
            colour = palette[learner]
            measured = group.groupby("m")["test_loss"].agg(["median", "min", "max"])
            stats = measured.clip(lower=FLOOR)
            grid = stats.loc[sorted(group.loc[group["kind"] == "grid", "m"].unique())]
            ax.plot(grid.index, grid["median"], "o-", color=colour, ms=3, label=learner)
            mark_floor(ax, measured.index, measured["median"], FLOOR, color=colour)
            ax.fill_between(
                grid.index, grid["min"], grid["max"], color=colour, alpha=0.15, lw=0, label=f"{learner}: min-max range"
            )
            bound = stats.drop(index=grid.index)
            if len(bound):
                ax.errorbar(
                    bound.index,
                    bound["median"],
                    yerr=[bound["median"] - bound["min"], bound["max"] - bound["median"]],
                    fmt="s",
                    color=colour,
                    ms=4,
                    capsize=2,
                    label=f"{learner} at Theorem 17's m",
                )
        cov = coverage[coverage["target"] == target].iloc[0]
        reference_line(ax, x=cov["expression"], kind="corrected", label="Theorem 17's m (constant 1)")
        reference_line(ax, x=cov["coverage_m"], kind="printed", label=r"m covering the cube (prob. $1 - \delta$)")
        reference_line(
            ax, y=part["trivial"].iloc[0], kind="level", color="0.75", lw=1.2, label="loss of the best constant"
        )
        reference_line(ax, y=cov["eps"], kind="level", color="0.35", label=r"$\varepsilon$")
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.set_ylim(FLOOR / 3, None)
        ax.set_title(panel_title(target))
    for ax in axes[-1]:
        ax.set_xlabel("sample size m")
    for row in axes:
        row[0].set_ylabel("exact test loss")
    for ax in axes.flat[len(targets) :]:
        ax.set_visible(False)
        above = axes.flat[list(axes.flat).index(ax) - ncols]
        above.xaxis.set_tick_params(labelbottom=True)
        above.set_xlabel("sample size m")
    shown = list(axes.flat[: len(targets)])
    legend_outside(fig, axes=shown, extra=floor_handles(shown), where="below", ncol=3)
    fig.suptitle("Theorem 17: learning curves under a biased product distribution")
    fig.tight_layout()
    return finish({"learning-curves": fig})
