"""Figures of the claim ``section4_lwr`` (LWR functions as 1-sparse networks, Section 4)."""

from __future__ import annotations

from sparseact.publish.plotting import FULL_WIDTH, finish, integer_ticks, legend_outside, plt, setup_style, value_ticks

CAPTIONS = {
    "identity": "The ReLU identity for lambda(t) = (t mod q) mod p on every integer t in [0, q^2 m), for the smallest "
    "instance of the grid (symmetric log axis): the sum as printed (squares; square outside the ReLU, "
    "every a >= t contributes), the sum with the square inside (circles) and lambda(t) itself (black "
    "dots). A version of the identity is exact at t where its marker covers the black dot; its vertical "
    "distance from the dot is its error. The verdicts are in the check cards below.",
    "scale": "The Definition 2 scales W (circles) and B (squares) of the corrected networks F_w (largest over the "
    "secrets) against q^2 m, the number of neurons, log-log, with their explicit polynomial bounds 3(p-1) "
    "q^4 m^(3/2) and (8/3)(p-1) q^4 m^2 as bars of the same colour. A point above its bar would break its "
    "bound; points on or below the bars are polynomial in the size of the network, as the section needs. The "
    "verdict is in the check cards below.",
}


def identity(tables: dict):
    """lambda(t), the printed sum and the corrected sum against t, one instance."""
    curve = tables["lwr_identity_curve"]
    if "replicate" in curve:
        curve = curve[curve["replicate"] == curve["replicate"].min()]
    q, m, p = min(zip(curve["q"] ** curve["m"], curve["q"], curve["m"], curve["p"], strict=True))[1:]
    part = curve[(curve["q"] == q) & (curve["m"] == m) & (curve["p"] == p)].sort_values("t")
    fig, ax = plt.subplots(figsize=(FULL_WIDTH * 0.8, 3.0))
    ax.plot(part["t"], part["printed"], "s-", ms=3, lw=0.8, label="as printed: sigma(1/2 - (t - a))$^2$")
    ax.plot(part["t"], part["corrected"], "o", ms=5, label="corrected: sigma(1/2 - (t - a)$^2$)")
    ax.plot(part["t"], part["lam"], "k.", ms=4, label="lambda(t)")
    ax.set_yscale("symlog", linthresh=1.0)
    ax.set_xlabel("t")
    ax.set_ylabel("value of the sum at t")
    integer_ticks(ax, "x")
    ax.set_title(f"Section 4 LWR identity, q = {q}, m = {m}, p = {p}")
    legend_outside(ax)
    fig.tight_layout()
    return fig


def scale(tables: dict):
    """W and B (max over secrets) against q^2 m, with the explicit polynomial bounds."""
    table = tables["lwr_secrets"]
    per = table.groupby(["q", "m", "p"], as_index=False)[["W", "B", "W_polynomial", "B_polynomial"]].max()
    per["size"] = per["q"] ** 2 * per["m"]
    per = per.sort_values("size")
    fig, ax = plt.subplots(figsize=(FULL_WIDTH * 0.8, 3.0))
    ax.loglog(per["size"], per["W"], "o", color="C0", label="W (max over secrets)")
    ax.loglog(per["size"], per["W_polynomial"], "_", ms=12, color="C0", label="3(p-1) q$^4$ m$^{1.5}$")
    ax.loglog(per["size"], per["B"], "s", color="C1", label="B (max over secrets)")
    ax.loglog(per["size"], per["B_polynomial"], "_", ms=12, color="C1", label="(8/3)(p-1) q$^4$ m$^2$")
    value_ticks(ax, "x", per["size"].unique(), fmt="{:.0f}")
    ax.set_xlabel("$q^2 m$ (number of neurons)")
    ax.set_ylabel("Definition 2 scale")
    legend_outside(ax)
    ax.set_title("Section 4 LWR network (corrected): Definition 2 scales")
    fig.tight_layout()
    return fig


def figures(tables: dict) -> dict:
    setup_style()
    return finish({"identity": identity(tables), "scale": scale(tables)})
