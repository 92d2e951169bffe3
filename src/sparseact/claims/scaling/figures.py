"""Figures of the claim ``scaling`` (dimensional analysis of the bound formulas)."""

from __future__ import annotations

import math
import re
import textwrap

import seaborn as sns
from matplotlib.patches import Patch, Rectangle

from sparseact import bounds
from sparseact.publish.plotting import FULL_WIDTH, MIN_FONT, SINGLE_WIDTH, finish, legend_outside, plt, setup_style

CAPTIONS = {
    "exponents": "Local exponent of each formula (rows) minus the exponent of the quantity it bounds, at each scale t "
    "(columns; measured over [t, 10 t]), under u -> lambda u (top) and x -> mu x (bottom, the formulas "
    "that depend on the input scale). A hatched cell has no exponent: the formula is not a positive real number "
    "on [t, 10 t] (the cell says whether it is <= 0 or not real, e.g. the square root of a negative logarithm). "
    "A cell at zero (light) means the formula "
    "scales like what it bounds (covariant); a scale inside a logarithm gives small values that change "
    "with t, while a row far from zero at every scale (dark red or dark blue) is off by a power of the "
    "scale. The verdicts are in the check cards below.",
    "theorem17-sign-ambiguity": "Samples needed to tell h from -h (an exact lower bound for every PAC learner; "
    "circles, solid) against Theorem 17's printed bound (constant 1; squares, dashed) and "
    "our covariant correction (triangles, dotted), log-log, as eps / lambda^2 shrinks (to "
    "the right). A valid sample bound lies on or above the circles; wherever a bound's "
    "line passes below them, it promises fewer samples than any learner needs. The "
    "verdicts are in the check cards below.",
}


#: How a cell without an exponent (the formula not a positive real number at that scale) is drawn.
UNDEFINED_STYLE = {"facecolor": "white", "edgecolor": "0.6", "hatch": "///", "lw": 0.0}

#: Width (characters) at which a row label of the exponents heatmap wraps onto a second line.
LABEL_WIDTH = 60

#: Words of the docstrings' inline formulas and their mathtext.
_MATH_WORDS = {
    "eps": r"\varepsilon",
    "delta": r"\delta",
    "rho": r"\rho",
    "lambda": r"\lambda",
    "mu": r"\mu",
    "log": r"\log",
    "sqrt": r"\sqrt",
    "<=": r"\leq",
    ">=": r"\geq",
    "||": r"\|",
}


def _mathtext(formula: str) -> str:
    """An inline formula of a docstring (``H_{n,s,k}^{W,B}``, ``1 - rho``, ``{-1, 1}^n``) as mathtext: braces after
    ``_`` or ``^`` group, other braces are printed, and the words of :data:`_MATH_WORDS` become symbols."""
    out, stack = [], []
    for i, char in enumerate(formula):
        if char == "{":
            grouping = i > 0 and formula[i - 1] in "_^"
            stack.append(grouping)
            out.append("{" if grouping else r"\{")
        elif char == "}":
            out.append("}" if stack and stack.pop() else r"\}")
        else:
            out.append(char)
    pattern = "|".join(re.escape(w) if not w.isalpha() else rf"\b{w}\b" for w in _MATH_WORDS)
    return "$" + re.sub(pattern, lambda m: _MATH_WORDS[m.group(0)] + " " * m.group(0).isalpha(), "".join(out)) + "$"


def formula_label(name: str) -> str:
    """What a formula of :mod:`sparseact.bounds` is, as a reader names it: the first paragraph of its docstring
    (e.g. "Proof of Lemma 9: the bound on term (U)"), not the function's name, in full, wrapped at
    :data:`LABEL_WIDTH` characters, its inline formulas in mathtext."""

    doc = getattr(getattr(bounds, name, None), "__doc__", None)
    if not doc:
        return name
    sentence = " ".join(doc.strip().split("\n\n")[0].split()).rstrip(".")
    pieces = sentence.split("``")  # odd pieces are inline formulas: never broken across lines
    protected = "".join(p if i % 2 == 0 else "\0" + p.replace(" ", "\1") + "\0" for i, p in enumerate(pieces))
    lines = textwrap.wrap(protected, LABEL_WIDTH, break_long_words=False, break_on_hyphens=False)
    return "\n".join(re.sub("\0([^\0]*)\0", lambda m: _mathtext(m.group(1).replace("\1", " ")), line) for line in lines)


def _power_of_ten(value: float) -> str:
    """``10^k`` as mathtext when ``value`` is a power of ten, else ``value`` with ``:g``."""
    exponent = round(math.log10(value)) if value > 0 else None
    return f"$10^{{{exponent}}}$" if exponent is not None and math.isclose(value, 10.0**exponent) else f"{value:g}"


def figures(tables: dict) -> dict:
    setup_style()
    exponents = tables["exponents"].copy()
    exponents["deviation"] = (exponents["exponent"] - exponents["expected"]).round(3) + 0.0
    worst = exponents.groupby(["formula", "transform", "scale"], as_index=False)["deviation"].max()
    undefined = exponents[~exponents["defined"].astype(bool)]
    reasons = {
        (r.transform, r.formula, r.scale): "not real" if "not real" in str(r.note) else "$\\leq 0$"
        for r in undefined.itertuples()
    }
    grids = {
        t: worst[worst["transform"] == t].pivot(index="formula", columns="scale", values="deviation")
        for t in ("output", "input")
    }
    grids = {t: g for t, g in grids.items() if len(g)}
    fig, axes = plt.subplots(
        len(grids),
        1,
        figsize=(FULL_WIDTH * 0.8, 0.38 * sum(len(g) for g in grids.values()) + 2),
        sharex=True,
        squeeze=False,
        gridspec_kw={"height_ratios": [len(g) for g in grids.values()]},
    )
    labels = {"output": "output scale $u \\to \\lambda u$", "input": "input scale $x \\to \\mu x$"}
    for ax, (transform, grid) in zip(axes[:, 0], grids.items(), strict=True):
        sns.heatmap(
            grid,
            ax=ax,
            cmap="RdBu_r",
            center=0,
            vmin=-4,
            vmax=4,
            annot=True,
            fmt=".2g",
            cbar=False,
            annot_kws={"fontsize": MIN_FONT},
            linewidths=0.5,
            linecolor="white",
        )
        for row, formula in enumerate(grid.index):
            for col, scale in enumerate(grid.columns):
                if math.isnan(grid.loc[formula, scale]):
                    ax.add_patch(Rectangle((col, row), 1, 1, **UNDEFINED_STYLE))
                    reason = reasons.get((transform, formula, scale), "undefined")
                    ax.text(
                        *(col + 0.5, row + 0.5, reason),
                        ha="center",
                        va="center",
                        fontsize=MIN_FONT,
                        color="0.2",
                        bbox={"facecolor": "white", "edgecolor": "none", "pad": 1.0},
                    )
        ax.set_title(labels[transform])
        ax.set_xlabel("")
        ax.set_ylabel("")
        ax.tick_params(axis="y", rotation=0)
        ax.set_yticklabels([formula_label(t.get_text()) for t in ax.get_yticklabels()])
    axes[-1, 0].set_xlabel("scale t (exponent measured over [t, 10 t])")
    axes[-1, 0].set_xticklabels([_power_of_ten(float(t.get_text())) for t in axes[-1, 0].get_xticklabels()])
    fig.colorbar(axes[0, 0].collections[0], ax=axes[:, 0], label="exponent - expected", fraction=0.05, pad=0.02)
    if reasons:
        no_exponent = Patch(**UNDEFINED_STYLE, label="no exponent: the formula is $\\leq 0$ or not real there")
        axes[-1, 0].legend(handles=[no_exponent], loc="upper center", bbox_to_anchor=(0.5, -0.22))
    sign = tables["sign_ambiguity"]
    fig2, ax = plt.subplots(figsize=(SINGLE_WIDTH, 3.2))
    ax.loglog(
        sign["eps0"],
        sign["lower_bound"],
        "o-",
        label="needed by every learner:\n$\\log(1/(2\\delta)) \\,/\\, (-\\log(1-p))$",
    )
    ax.loglog(sign["eps0"], sign["printed"], "s--", label="Theorem 17 as printed (C = 1)")
    ax.loglog(sign["eps0"], sign["corrected"], "^:", label="covariant correction (C = 1)")
    ax.set_xlabel("$\\varepsilon / \\lambda^2$ (smaller to the right)")
    ax.set_ylabel("samples")
    ax.invert_xaxis()
    ax.grid(True, which="major", alpha=0.3)
    below = int((sign["printed"] < sign["lower_bound"]).sum())
    ax.set_title(
        f"Theorem 17 as printed against the samples needed to tell $h$ from $-h$:\n"
        f"below them at {below} of {len(sign)} scales"
    )
    legend_outside(ax)
    return finish({"exponents": fig, "theorem17-sign-ambiguity": fig2})
