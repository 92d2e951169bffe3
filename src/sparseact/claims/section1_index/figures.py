"""Figures of the claim ``section1_index`` (Index_b)."""

from __future__ import annotations

from sparseact.publish.plotting import FULL_WIDTH, finish, plt, setup_style

CAPTIONS = {
    "index": "Left: the fraction of inputs on which exactly one neuron fires, one bar per b; the title gives the most "
    "neurons active on any input, which must be at most 1 for the network to be 1-sparse. Right: the "
    "Definition 2 scales W (circles) and B (squares) of the paper's network against b; compare W with "
    "sqrt(b) and B with b. The verdicts are in the check cards below.",
}


def figures(tables: dict) -> dict:
    setup_style()
    table = tables["index"]
    fig, axes = plt.subplots(1, 2, figsize=(FULL_WIDTH, 2.9))
    axes[0].bar(table["b"].astype(str), table["fraction_one_active"], color="C0")
    axes[0].set_xlabel("b")
    axes[0].set_ylabel("inputs with 1 active neuron")
    axes[0].set_ylim(0, 1)
    axes[1].plot(table["b"], table["W"], "o-", label="W")
    axes[1].plot(table["b"], table["B"], "s-", label="B")
    axes[1].set_xlabel("b")
    axes[1].set_ylabel("Definition 2 scale")
    axes[1].set_xticks(sorted(int(b) for b in table["b"]))
    axes[1].legend(loc="upper left")
    fig.suptitle(f"Index$_b$: max active = {int(table['max_active'].max())} over all inputs")
    fig.tight_layout()
    return finish({"index": fig})
