"""The one plotting style of every figure, and deterministic figure files."""

from __future__ import annotations

import functools
import io
import weakref
from collections.abc import Sequence
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import math

import matplotlib.colors as mcolors
import matplotlib.pyplot as plt
import numpy as np
import seaborn as sns
from cycler import cycler
from matplotlib.colors import to_rgb
from matplotlib.figure import Figure
from matplotlib.lines import Line2D
from matplotlib.mathtext import MathTextParser
from matplotlib.text import Text
from matplotlib.ticker import (
    FixedFormatter,
    FixedLocator,
    LogFormatterSciNotation,
    LogLocator,
    MaxNLocator,
    NullFormatter,
    NullLocator,
)

from sparseact._validation import check_int
from sparseact.runtime.provenance import atomic_write_bytes

_METADATA = {
    "pdf": {"Creator": None, "Producer": None, "CreationDate": None},
    "png": {"Software": None},
}


#: Smallest font size (points, at the saved size) of any text in a figure.
MIN_FONT = 8

#: Widths (inches) of the saved figures: one column of a printed page, and the full text width.
SINGLE_WIDTH = 4.8
FULL_WIDTH = 7.2

#: Line styles of reference lines, by what they are: a statement as printed, a corrected or proven bound,
#: and any other guide (slopes, targets, thresholds).
REFERENCE_STYLES = {
    "printed": {"ls": ":", "lw": 1.2},
    "corrected": {"ls": "--", "lw": 1.0},
    "guide": {"ls": "-.", "lw": 0.9},
    "level": {"ls": "-", "lw": 0.8},
}


#: The categorical colours of every figure, in the order of matplotlib's "C0", "C1", ...: Okabe and Ito's blue and
#: orange, and Tol's "bright" green, purple and cyan. No two of them merge under deuteranopia (the most common
#: colour-vision deficiency): tests/test_plot_style.py measures every pair in CIELAB after Machado et al.'s (2009)
#: simulation. Okabe-Ito's vermillion and seaborn's "colorblind" red are left out: under deuteranopia they are the
#: orange.
PALETTE = ("#0072B2", "#E69F00", "#228833", "#AA3377", "#66CCEE")


#: Parsed math strings kept by :func:`_share_math_layouts` (tick labels, axis labels and legends of every figure).
MATH_LAYOUTS_KEPT = 4096

#: matplotlib's own ``MathTextParser._parse_cached``: a cache of 50 layouts per parser (the tests compare the two).
_PARSE_PER_PARSER = MathTextParser._parse_cached


def _share_math_layouts() -> bool:
    """Let every renderer reuse a math string's layout: the same figure files, a tenth less time to save them.

    matplotlib keeps the last 50 parsed math strings (``$\\mathdefault{10^{-2}}$``, ``$n^{-k/2}$``) keyed on the
    parser too, and each renderer has its own parser: saving a figure makes three renderers per format (layout,
    tight bounding box, drawing), so each label was parsed again by each. A layout depends only on the key's other
    fields (string, dpi, font, antialiasing, glyph flags) and on the parser's one attribute, its output type;
    matplotlib's cache already hands one parse to every caller with the same key, so sharing it across renderers
    draws the same pixels and glyphs (tests/test_plot_style.py compares the bytes). Over the full run's 12
    assemblies 958 parses become 321.

    Returns whether it was installed: not when ``MathTextParser._parse_cached``, which is private, has another
    signature (figures are then saved as before, only slower).
    """
    parse = getattr(_PARSE_PER_PARSER, "__wrapped__", None)
    if parse is None or parse.__code__.co_varnames[: parse.__code__.co_argcount] != (
        "self",
        "s",
        "dpi",
        "prop",
        "antialiased",
        "load_glyph_flags",
    ):
        return False
    parsers = {}

    @functools.lru_cache(MATH_LAYOUTS_KEPT)
    def shared(output_type, s, dpi, prop, antialiased, load_glyph_flags):
        return parse(parsers[output_type], s, dpi, prop, antialiased, load_glyph_flags)

    def _parse_cached(self, s, dpi, prop, antialiased, load_glyph_flags):
        parsers.setdefault(self._output_type, self)
        return shared(self._output_type, s, dpi, prop, antialiased, load_glyph_flags)

    MathTextParser._parse_cached = _parse_cached
    return True


#: Whether :func:`_share_math_layouts` was installed (at import: every figure of the process shares the layouts).
MATH_LAYOUTS_SHARED = _share_math_layouts()


def setup_style() -> None:
    """The project's plotting style: seaborn ticks, the colour-blind-safe :data:`PALETTE`, fonts >= MIN_FONT pt,
    fixed hash salt."""
    sns.set_theme(style="ticks", palette=list(PALETTE), context="paper")
    plt.rcParams.update(
        {
            "axes.prop_cycle": cycler(color=list(PALETTE)),
            "svg.hashsalt": "sparseact",
            "figure.dpi": 100,
            "savefig.dpi": 150,
            "font.size": 9,
            "axes.titlesize": 9,
            "axes.labelsize": 9,
            "xtick.labelsize": MIN_FONT,
            "ytick.labelsize": MIN_FONT,
            "legend.fontsize": MIN_FONT,
            "legend.title_fontsize": MIN_FONT,
            "figure.titlesize": 10,
            "legend.frameon": True,
            "legend.framealpha": 0.85,
            "legend.edgecolor": "none",
            "lines.markersize": 4,
            "axes.titlepad": 4,
        }
    )


def colours(n: int) -> list:
    """The first ``n`` colours of :data:`PALETTE`, one per category.

    Raises
    ------
    ValueError
        When ``n`` exceeds the palette: more categories than colours need a sequential scale
        (:func:`sequential`) or a second channel (markers, line styles), not a repeated colour.
    """
    if check_int(n, "n", minimum=0) > len(PALETTE):
        raise ValueError(f"n must be <= {len(PALETTE)} (the palette's colours), got {n}")
    return list(PALETTE[:n])


#: Markers, one per category, the second channel where categories outnumber :data:`PALETTE`.
MARKERS = ("o", "s", "^", "D", "v", "<", ">", "P", "X", "*")


def category_styles(n: int) -> list[dict]:
    """``{"color", "marker"}`` for each of ``n`` categories: :data:`PALETTE`'s colours, repeated once the categories
    outnumber them, and a distinct marker each, so that two categories that share a colour differ in marker.

    Raises
    ------
    ValueError
        When ``n`` exceeds the distinct :data:`MARKERS`.
    """
    if check_int(n, "n", minimum=0) > len(MARKERS):
        raise ValueError(f"n must be <= {len(MARKERS)} (the distinct markers), got {n}")
    return [{"color": PALETTE[i % len(PALETTE)], "marker": MARKERS[i]} for i in range(n)]


def sequential(values, cmap: str = "viridis"):
    """A colour for each of the sorted distinct ``values``, along a colour-blind-safe sequential map.

    Returns ``{value: colour}``; the map stops short of its lightest end so every colour shows on white.
    """
    cmap = plt.get_cmap(cmap)
    values = sorted(set(values))
    if len(values) == 1:
        return {values[0]: cmap(0.0)}
    return {v: cmap(0.85 * i / (len(values) - 1)) for i, v in enumerate(values)}


def colour_bar(fig, axes, values, label: str, cmap: str = "viridis", log: bool = False):
    """A colour bar next to ``axes`` for a colour scale over ``values`` (as from :func:`sequential` with ``log``).

    Returns ``(norm, cmap)`` so that lines can be coloured by ``cmap(norm(value))``.
    """
    values = np.asarray(sorted(set(values)), dtype=float)
    lo, hi = float(values.min()), float(values.max())
    if hi == lo:
        hi = lo * 1.1 if lo else 1.0
    norm = mcolors.LogNorm(lo, hi) if log else mcolors.Normalize(lo, hi)
    base = plt.get_cmap(cmap)
    truncated = mcolors.ListedColormap(base(np.linspace(0.0, 0.85, 256)))
    mappable = plt.cm.ScalarMappable(norm=norm, cmap=truncated)
    bar = fig.colorbar(mappable, ax=axes, label=label, pad=0.02, fraction=0.05)
    if len(values) <= 8:
        bar.set_ticks(values)
        bar.set_ticklabels([f"{v:g}" for v in values])
        bar.minorticks_off()
    return norm, truncated


def reference_line(ax, *, x=None, y=None, kind: str = "guide", label: str | None = None, color="k", **kwargs):
    """A horizontal (``y``) or vertical (``x``) reference line in the style of its ``kind``, named in the legend."""
    style = {**REFERENCE_STYLES[kind], "color": color, **kwargs}
    if (x is None) == (y is None):
        raise ValueError("give exactly one of x and y")
    return ax.axvline(x, label=label, **style) if x is not None else ax.axhline(y, label=label, **style)


def reference_curve(ax, x, y, *, kind: str = "guide", label: str | None = None, color="k", **kwargs):
    """A reference curve (a bound or a guide) in the style of its ``kind``, named in the legend."""
    return ax.plot(x, y, label=label, color=color, **{**REFERENCE_STYLES[kind], **kwargs})[0]


def legend_handle(kind: str | None = None, *, color="k", marker=None, ls=None, **kwargs):
    """A legend proxy: a reference line of ``kind``, or a line/marker of the given style."""
    style = dict(REFERENCE_STYLES[kind]) if kind else {"ls": "-", "lw": 1.2}
    if ls is not None:
        style["ls"] = ls
    return Line2D([], [], color=color, marker=marker, **{**style, **kwargs})


def legend_outside(
    fig_or_ax,
    handles=None,
    labels=None,
    *,
    where: str = "right",
    ncol: int | None = None,
    title: str | None = None,
    axes=None,
    extra=(),
):
    """A legend outside the data: right of the axes (``where="right"``) or below the figure (``"below"``).

    ``fig_or_ax`` is an Axes (legend beside that panel) or a Figure (one legend for all panels; handles
    default to the first panel's, deduplicated by label, or of ``axes``, followed by the ``extra`` handles).
    """
    if handles is None:
        sources = axes if axes is not None else (fig_or_ax.axes if isinstance(fig_or_ax, Figure) else [fig_or_ax])
        seen = {}
        for ax in sources:
            for handle, label in zip(*ax.get_legend_handles_labels(), strict=True):
                if not label.startswith("_"):
                    seen.setdefault(label, handle)
        handles, labels = [*seen.values(), *extra], [*seen, *(h.get_label() for h in extra)]
    elif labels is None:
        labels = [h.get_label() for h in handles]
    if where == "right":
        kwargs = {"loc": "upper left", "bbox_to_anchor": (1.01, 1.0), "ncol": ncol or 1, "borderaxespad": 0.0}
    elif where == "below":
        kwargs = {"loc": "upper center", "bbox_to_anchor": (0.5, 0.0), "ncol": ncol or min(len(labels), 3)}
    else:
        raise ValueError(f"where must be 'right' or 'below', got {where!r}")
    kwargs["markerscale"] = 1.5
    if isinstance(fig_or_ax, Figure):
        if where == "right":
            kwargs.update(loc="center left", bbox_to_anchor=(1.0, 0.5))
        return fig_or_ax.legend(handles, labels, title=title, **kwargs)
    if where == "below":
        kwargs["bbox_to_anchor"] = (0.5, -0.18)
    return fig_or_ax.legend(handles, labels, title=title, **kwargs)


#: Hollow markers of the values a log axis cannot show at their height, drawn at the axis floor
#: (:func:`mark_floor`): a circle for exactly 0, a downward triangle for a positive value below the floor.
FLOOR_MARKERS = {"zero": "o", "below": "v"}

#: The y floor of each axes that has one (:func:`mark_floor`), and whether all values drawn at it are exactly 0.
_FLOORS: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def mark_floor(ax, x, y, floor: float, *, color, ms: float = 5.0) -> None:
    """Draw the points of ``(x, y)`` below ``floor`` on a log y axis as hollow :data:`FLOOR_MARKERS` at ``floor``:
    a circle where ``y`` is exactly 0, a downward triangle where it is positive but below ``floor``.

    :func:`finish` then labels the floor's tick "0" (only zeros drawn at it) or "<= 10^k", and
    :func:`floor_handles` names the markers in the legend; call it for every series clipped at ``floor``.
    """
    x, y = np.asarray(x, dtype=float), np.asarray(y, dtype=float)
    if not floor > 0:
        raise ValueError(f"floor must be > 0, got {floor!r}")
    zeros, below = y == 0, (y > 0) & (y < floor)
    for kind, where in (("zero", zeros), ("below", below)):
        if where.any():
            ax.plot(
                x[where],
                np.full(int(where.sum()), floor),
                ls="none",
                marker=FLOOR_MARKERS[kind],
                ms=ms,
                mfc="white",
                mec=color,
                mew=1.0,
                zorder=3,
            )
    drawn = (
        _FLOORS.get(ax, (floor, set()))[1]
        | ({"zero"} if zeros.any() else set())
        | ({"below"} if below.any() else set())
    )
    _FLOORS[ax] = (floor, drawn)


def floor_handles(axes, color="0.3") -> list:
    """Legend entries of the :func:`mark_floor` markers drawn on any of ``axes``: "0 (exact)" and "below 10^k"."""
    floors = [_FLOORS[ax] for ax in axes if ax in _FLOORS]
    if not floors:
        return []
    kinds = set().union(*(d for _, d in floors))
    floor = min(f for f, _ in floors)
    words = {"zero": "0 (exact), drawn at the axis floor", "below": f"below {_power(floor)}, drawn at the axis floor"}
    return [
        legend_handle(color=color, marker=FLOOR_MARKERS[k], ls="none", mfc="white", ms=5, label=words[k])
        for k in ("zero", "below")
        if k in kinds
    ]


def _power(value: float) -> str:
    """``value`` as mathtext ``10^{k}`` when a power of ten, else ``:g``."""
    exponent = round(math.log10(value))
    return f"$10^{{{exponent}}}$" if math.isclose(value, 10.0**exponent) else f"{value:g}"


def _floor_ticks(ax) -> None:
    """The y ticks of an axes with a floor (and of the panels sharing its y axis): the floor labelled "0" when only
    exact zeros are drawn at it, else "<= 10^k", then decade ticks above it that keep clear of it."""
    siblings = [a for a in ax.get_shared_y_axes().get_siblings(ax) if a in _FLOORS]
    floor = min(_FLOORS[a][0] for a in siblings)
    drawn = set().union(*(_FLOORS[a][1] for a in siblings))
    lo, hi = sorted(ax.get_ylim())
    span = math.log10(hi / lo)
    locator = LogLocator(base=10, numticks=4 if ax.get_position().width < 0.3 else 6)
    above = [t for t in locator.tick_values(lo, hi) if lo <= t <= hi and math.log10(t / floor) >= 0.08 * span]
    labels = ["0" if drawn == {"zero"} else "$\\leq$ " + _power(floor)] + [_power(t) for t in above]
    ax.yaxis.set_major_locator(FixedLocator([floor, *above]))
    ax.yaxis.set_major_formatter(FixedFormatter(labels))


def _thin(values, lo: float, hi: float, log: bool, min_gap: float) -> list:
    """The ``values`` inside [lo, hi], dropping any closer than ``min_gap`` (fraction of the axis) to the last kept."""
    transform = math.log10 if log else float
    span = transform(hi) - transform(lo) or 1.0
    kept = []
    for v in sorted(set(values)):
        if not lo <= v <= hi:
            continue
        if kept and (transform(v) - transform(kept[-1])) / span < min_gap:
            continue
        kept.append(v)
    return kept


def value_ticks(ax, axis: str, values, *, min_gap: float = 0.07, fmt: str = "{:g}") -> None:
    """Label ``axis`` ("x" or "y") at the data's own grid ``values`` (plain numbers), thinned so labels never
    overlap, with no minor labels. Call after the axis scale and limits are final."""
    axis_obj = ax.xaxis if axis == "x" else ax.yaxis
    lo, hi = sorted(ax.get_xlim() if axis == "x" else ax.get_ylim())
    log = (ax.get_xscale() if axis == "x" else ax.get_yscale()) == "log"
    kept = _thin([float(v) for v in values], lo, hi, log, min_gap)
    axis_obj.set_major_locator(FixedLocator(kept))
    axis_obj.set_major_formatter(FixedFormatter([fmt.format(v) for v in kept]))
    axis_obj.set_minor_locator(NullLocator())
    axis_obj.set_minor_formatter(NullFormatter())


def _format_log_axis(ax, name: str, numticks: int = 6) -> None:
    """Decade labels (10^k, at most ``numticks``) and unlabelled minor ticks on a log axis; plain labels at
    1, 2, 5 x 10^k where it spans under two decades (matplotlib would label crowded minor ticks)."""

    axis_obj = ax.xaxis if name == "x" else ax.yaxis
    lo, hi = sorted(ax.get_xlim() if name == "x" else ax.get_ylim())
    if lo <= 0 or math.log10(hi / lo) < 2.0:
        if lo > 0:
            _short_log_axis(ax, name)
        return
    axis_obj.set_major_locator(LogLocator(base=10, numticks=numticks))
    axis_obj.set_major_formatter(LogFormatterSciNotation(base=10))
    if math.log10(hi / lo) > 6:
        axis_obj.set_minor_locator(NullLocator())  # minor ticks of many decades merge into a bar
    else:
        axis_obj.set_minor_locator(LogLocator(base=10, subs=tuple(range(2, 10)), numticks=12))
    axis_obj.set_minor_formatter(NullFormatter())


#: Fewest labelled ticks a log axis shows (fewer leave the reader guessing the scale).
MIN_LOG_LABELS = 3
#: Line styles given, in this order, to lines that would otherwise differ only in their shade of grey.
_DISTINCT_STYLES = ("-", "--", "-.", ":", (0, (5, 1, 1, 1, 1, 1)))


def _labelled_ticks(ax, name: str) -> int:
    """How many major ticks of ``ax``'s ``name`` axis are inside its limits and carry a label."""
    axis_obj = ax.xaxis if name == "x" else ax.yaxis
    lo, hi = sorted(ax.get_xlim() if name == "x" else ax.get_ylim())
    ticks = [t for t in axis_obj.get_major_locator()() if lo * (1 - 1e-9) <= t <= hi * (1 + 1e-9)]
    formatter = axis_obj.get_major_formatter()
    formatter.set_locs(ticks)
    shown = (
        ax.xaxis._major_tick_kw.get("label1On", True) if name == "x" else ax.yaxis._major_tick_kw.get("label1On", True)
    )
    return int(shown) * int(np.sum([bool(formatter(t, i)) for i, t in enumerate(ticks)]))


def _grey(colour) -> float | None:
    """The grey level of ``colour`` (0 black .. 1 white), or None when it has a hue."""
    r, g, b = to_rgb(colour)
    return r if abs(r - g) < 1e-6 and abs(g - b) < 1e-6 else None


def _distinct_greys(ax) -> dict:
    """Lines of ``ax`` that share a line style and marker and differ only in their shade of grey get distinct
    line styles (a shade alone does not survive printing or a reader's eyes); return label -> new style."""
    groups: dict = {}
    for line in ax.get_lines():
        if _grey(line.get_color()) is not None and line.get_label() and not line.get_label().startswith("_"):
            groups.setdefault((line.get_linestyle(), line.get_marker()), []).append(line)
    used = {line.get_linestyle() for line in ax.get_lines()}
    changed = {}
    for lines in groups.values():
        shades = {_grey(line.get_color()) for line in lines}
        if len(shades) < 2:
            continue
        spare = [s for s in _DISTINCT_STYLES if s not in used]
        for line in lines[1:]:
            if spare:
                line.set_linestyle(spare.pop(0))
                used.add(line.get_linestyle())
                changed[line.get_label()] = line.get_linestyle()
    return changed


def _restyle_legends(fig, changed: dict) -> None:
    """Legend entries of lines restyled by :func:`_distinct_greys` take the new style (legends hold copies)."""
    legends = list(fig.legends) + [ax.get_legend() for ax in fig.axes if ax.get_legend()]
    for legend in legends:
        for handle, text in zip(legend.legend_handles, legend.texts, strict=False):
            if text.get_text() in changed and hasattr(handle, "set_linestyle"):
                handle.set_linestyle(changed[text.get_text()])


def finish(figures: dict) -> dict:
    """Make every figure of ``{stem: figure}`` follow the style; return it.

    Log axes not given explicit ticks (:func:`value_ticks`) get non-overlapping labels, at least
    :data:`MIN_LOG_LABELS` of them, on every panel (also panels sharing an axis); lines that differ
    only in a shade of grey get distinct line styles; no text is smaller than ``MIN_FONT``.
    """
    for fig in figures.values():
        changed, relabelled_x, relabelled_y = {}, False, False
        for ax in fig.axes:
            for name in ("x", "y"):
                axis_obj = ax.xaxis if name == "x" else ax.yaxis
                scale = ax.get_xscale() if name == "x" else ax.get_yscale()
                if scale == "log" and not isinstance(axis_obj.get_major_locator(), FixedLocator):
                    _format_log_axis(ax, name, numticks=4 if ax.get_position().width < 0.3 else 6)
                shared = (ax.get_shared_x_axes() if name == "x" else ax.get_shared_y_axes()).get_siblings(ax)
                labels = axis_obj._major_tick_kw
                if scale == "log" and len(shared) > 1 and not labels.get("label2On", False):
                    # a panel sharing this axis with its neighbours shows the labels they hide
                    hidden = not labels.get("label1On", True)
                    relabelled_y |= name == "y" and hidden
                    relabelled_x |= name == "x" and hidden
                    ax.tick_params(axis=name, **{"labelbottom" if name == "x" else "labelleft": True})
                    if _labelled_ticks(ax, name) < MIN_LOG_LABELS:
                        _short_log_axis(ax, name)
            if ax in _FLOORS and ax.get_yscale() == "log":
                _floor_ticks(ax)
            changed.update(_distinct_greys(ax))
            ax.tick_params(labelsize=MIN_FONT)
        _restyle_legends(fig, changed)
        engine = fig.get_layout_engine()
        if (relabelled_x or relabelled_y) and (engine is None or engine.adjust_compatible):  # room for the labels
            fig.subplots_adjust(
                wspace=fig.subplotpars.wspace + 0.25 * relabelled_y, hspace=fig.subplotpars.hspace + 0.25 * relabelled_x
            )
        for text in fig.findobj(Text):
            if text.get_fontsize() < MIN_FONT:
                text.set_fontsize(MIN_FONT)
    return figures


def _short_log_axis(ax, axis: str) -> None:
    """Plain labels at 1, 2, 5 x 10^k on a log ``axis`` that spans too little for decade labels."""

    axis_obj = ax.xaxis if axis == "x" else ax.yaxis
    lo, hi = sorted(ax.get_xlim() if axis == "x" else ax.get_ylim())
    candidates = [
        m * 10.0**e for e in range(math.floor(math.log10(lo)) - 1, math.ceil(math.log10(hi)) + 1) for m in (1, 2, 5)
    ]
    kept = [v for v in candidates if lo <= v <= hi]
    if len(kept) < 2:
        candidates = [
            m * 10.0**e
            for e in range(math.floor(math.log10(lo)) - 1, math.ceil(math.log10(hi)) + 1)
            for m in range(1, 10)
        ]
        kept = _thin([v for v in candidates if lo <= v <= hi], lo, hi, True, 0.08)
    axis_obj.set_major_locator(FixedLocator(kept))
    axis_obj.set_major_formatter(FixedFormatter([f"{v:g}" for v in kept]))
    axis_obj.set_minor_formatter(NullFormatter())


def integer_ticks(ax, axis: str = "x") -> None:
    """Only integer ticks on ``axis`` (degrees, counts, sizes)."""
    (ax.xaxis if axis == "x" else ax.yaxis).set_major_locator(MaxNLocator(integer=True))


def save_figure(fig, stem: str | Path, formats: Sequence[str] = ("pdf", "png")) -> list[str]:
    """Save ``fig`` as ``stem.<fmt>`` for each format, deterministically and atomically; return the paths."""
    paths = []
    for fmt in formats:
        if fmt not in _METADATA:
            raise ValueError(f"format must be one of {sorted(_METADATA)}, got {fmt!r}")
        buffer = io.BytesIO()
        fig.savefig(buffer, format=fmt, metadata=_METADATA[fmt], bbox_inches="tight")
        path = Path(f"{stem}.{fmt}")
        atomic_write_bytes(path, buffer.getvalue())
        paths.append(str(path))
    return paths


def save_figures(figures: dict, directory: str | Path) -> list[str]:
    """Save each ``{stem: figure}`` as ``directory/stem.pdf`` and ``.png``; close them; return the paths."""
    paths = []
    for stem, fig in figures.items():
        paths += save_figure(fig, Path(directory) / stem)
        plt.close(fig)
    return paths
