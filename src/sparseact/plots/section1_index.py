"""Figures of the claim ``section1_index`` (Index_b)."""

from __future__ import annotations

from sparseact.plots._style import plt, setup_style

CAPTIONS = {
    "index": "Left: the fraction of inputs on which exactly one neuron fires (the rest fire none), per b. "
    "Right: the Definition 2 scales W and B of the paper's network grow slowly with b.",
}


def figures(tables: dict) -> dict:
    setup_style()
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
    return {"index": fig}
