"""sparseact.publish.plotting catches what readers of the figures tripped over: unlabelled log axes, shades alone."""

import numpy as np
import pytest
from colour_vision import MIN_DELTA_E, distance

from sparseact.publish.plotting import MIN_LOG_LABELS, _labelled_ticks, finish, plt, reference_line, setup_style


def test_every_log_axis_of_every_panel_is_labelled():
    setup_style()
    fig, axes = plt.subplots(1, 3, sharey=True)
    for ax in axes:  # 1.5 decades: matplotlib labels only 10^0 and 10^1, the shared panels none
        ax.loglog([1, 2, 4], [0.3, 2.0, 9.0])
    finish({"f": fig})
    fig.canvas.draw()
    assert all(_labelled_ticks(ax, "y") >= MIN_LOG_LABELS for ax in axes)
    assert all(any(t.get_text() for t in ax.get_yticklabels()) for ax in axes)
    plt.close(fig)


def test_a_colour_bar_keeps_its_labels_on_its_own_side():
    setup_style()
    fig, ax = plt.subplots()
    image = ax.imshow(np.array([[0.001, 0.1], [0.01, 1.0]]), norm=plt.matplotlib.colors.LogNorm())
    bar = fig.colorbar(image)
    finish({"f": fig})
    assert not bar.ax.yaxis._major_tick_kw.get("label1On", False)  # no labels drawn over the heatmap
    plt.close(fig)


def test_lines_that_differ_only_in_a_shade_of_grey_get_distinct_styles():
    setup_style()
    fig, ax = plt.subplots()
    ax.plot(np.arange(3), np.arange(3), color="C0", label="data")
    reference_line(ax, y=1.0, kind="level", color="0.75", label="loss of the best constant")
    reference_line(ax, y=0.5, kind="level", color="0.35", label="eps")
    legend = fig.legend()
    finish({"f": fig})
    greys = [line for line in ax.get_lines() if line.get_label() in ("eps", "loss of the best constant")]
    assert greys[0].get_linestyle() != greys[1].get_linestyle()
    shown = {t.get_text(): h.get_linestyle() for h, t in zip(legend.legend_handles, legend.texts, strict=True)}
    assert shown["eps"] == greys[1].get_linestyle()  # the legend shows the new style
    plt.close(fig)


def test_heatmap_rows_are_named_as_a_reader_names_the_formula():
    from sparseact.claims.scaling.figures import LABEL_WIDTH, _power_of_ten, formula_label

    assert formula_label("lemma9_term_U") == "Proof of Lemma 9: the bound on term (U)"
    for name in ("theorem17_sample_complexity", "eq15_rademacher", "theorem17_covariant_sample_complexity"):
        label = formula_label(name)
        assert "..." not in label and "``" not in label  # in full, no raw docstring markup
        assert all(len(line) <= LABEL_WIDTH + 40 for line in label.split("\n"))  # wrapped (mathtext runs long)
    assert formula_label("lemma10_noise_sensitivity") == "Lemma 10: noise sensitivity of $h$ in $H_{n,s,k}^{W,B}$"
    assert formula_label("class_sup_bound").endswith("$\\{-1, 1\\}^n$")  # literal braces, grouping ones kept
    assert formula_label("theorem8_one_minus_rho") == "Proof of Theorem 8: the choice of $1 - \\rho $"
    assert [_power_of_ten(v) for v in (1e-6, 1000.0, 2.5)] == ["$10^{-6}$", "$10^{3}$", "2.5"]


def test_the_simulation_merges_what_deuteranopes_confuse():
    # the check has teeth: seaborn's "colorblind" orange and vermillion, and pure red and green, merge
    assert distance("#DE8F05", "#D55E00") < MIN_DELTA_E
    assert distance("#FF0000", "#00A000") < MIN_DELTA_E
    assert distance("#0072B2", "#E69F00") > MIN_DELTA_E


def test_no_two_palette_colours_merge_under_deuteranopia():
    from itertools import combinations

    from sparseact.publish.plotting import PALETTE, colours

    setup_style()
    assert [plt.matplotlib.colors.to_hex(c) for c in plt.rcParams["axes.prop_cycle"].by_key()["color"]] == [
        c.lower() for c in PALETTE
    ]  # "C0", "C1", ... are the palette
    for a, b in combinations(PALETTE, 2):
        assert distance(a, b) >= MIN_DELTA_E, (a, b)
    assert colours(3) == list(PALETTE[:3])


def test_figures_take_categorical_colours_from_the_palette_only(repo_root):
    """Every categorical colour a figure draws is a palette colour ("C0".."C4" or :func:`colours`), a grey or a
    sequential map: no hex code, named hue or cycle index beyond the palette in any figure module."""
    import re

    from sparseact.publish.plotting import PALETTE

    for path in sorted((repo_root / "src" / "sparseact" / "claims").glob("*/figures.py")):
        source = path.read_text(encoding="utf-8")
        cycle = {int(i) for i in re.findall(r"""["']C(\d+)["']""", source)}
        assert all(i < len(PALETTE) for i in cycle), (path, cycle)
        assert not re.search(r"""["']#[0-9A-Fa-f]{6}["']""", source), path
        named = re.findall(r"""colou?r\s*=\s*["']([a-z]+)["']""", source)
        assert set(named) <= {"k", "black", "grey", "gray", "white", "none"}, (path, named)


def test_colours_refuses_more_categories_than_the_palette():
    import pytest

    from sparseact.publish.plotting import PALETTE, colours

    for bad in (len(PALETTE) + 1, -1):
        with pytest.raises(ValueError, match="n must be"):
            colours(bad)
    with pytest.raises(ValueError, match="n must be an integer"):
        colours(2.0)


def test_categories_beyond_the_palette_differ_in_marker():
    import pytest

    from sparseact.publish.plotting import MARKERS, PALETTE, category_styles

    styles = category_styles(len(PALETTE) + 2)
    assert [s["color"] for s in styles[: len(PALETTE)]] == list(PALETTE)
    for i, a in enumerate(styles):
        for b in styles[i + 1 :]:  # a shared colour is always backed by a distinct marker
            assert a["marker"] != b["marker"]
            assert a["color"] == b["color"] or distance(a["color"], b["color"]) >= MIN_DELTA_E
    with pytest.raises(ValueError, match="n must be <= "):
        category_styles(len(MARKERS) + 1)


def test_a_panel_title_clears_the_tick_labels_finish_shows_above_it():
    """finish() shows the x labels that sharex hides on upper panels, and makes room for them (theorem17's
    learning curves had a title touching them)."""
    setup_style()
    fig, axes = plt.subplots(2, 2, sharex=True, sharey=True, figsize=(7.2, 5.0))
    for ax in axes.flat:
        ax.loglog([10, 1e7], [1e-10, 1.0])
        ax.set_title("a panel title")
    fig.tight_layout()
    finish({"f": fig})
    fig.canvas.draw()
    renderer = fig.canvas.get_renderer()
    for upper, lower in zip(axes[0], axes[1], strict=True):
        labels = [t.get_window_extent(renderer) for t in upper.get_xticklabels() if t.get_text()]
        assert labels  # the upper panel's labels are shown
        title = lower.title.get_window_extent(renderer)
        assert all(title.y1 < label.y0 for label in labels)  # pixel coordinates grow upwards
    plt.close(fig)


def test_math_layouts_shared_across_renderers_save_the_same_bytes(monkeypatch, tmp_path):
    """The shared cache of parsed math strings (plotting._share_math_layouts) changes the time to save, not the
    files: log tick labels, a math axis label and a math legend entry, in both formats, against matplotlib's own
    cache of each parser."""
    from matplotlib.mathtext import MathTextParser

    from sparseact.publish import plotting

    assert plotting.MATH_LAYOUTS_SHARED, "matplotlib's MathTextParser._parse_cached changed: the shared cache is off"

    def saved(stem):
        setup_style()
        fig, axes = plt.subplots(1, 2, figsize=(4.8, 2.4), layout="constrained")
        for ax in axes:
            ax.loglog([1, 10, 100], [1e-3, 1e-1, 10.0], label=r"$n^{-k/2}$ bound")
            ax.set_xlabel(r"$\sqrt{s}\,\log n$")
            ax.legend()
        plotting.save_figures(finish({"f": fig}), stem)
        return {path.suffix: path.read_bytes() for path in stem.iterdir()}

    shared = saved(tmp_path / "shared")
    monkeypatch.setattr(MathTextParser, "_parse_cached", plotting._PARSE_PER_PARSER)
    plotting._PARSE_PER_PARSER.cache_clear()
    own = saved(tmp_path / "own")
    assert set(own) == {".pdf", ".png"} and own == shared


def test_a_value_a_log_axis_cannot_show_is_marked_at_its_floor_and_named():
    from sparseact.publish.plotting import FLOOR_MARKERS, floor_handles, mark_floor

    setup_style()
    fig, (ax, other) = plt.subplots(1, 2)
    ax.semilogy([1, 2, 3], [1e-3, 1e-6, 1e-8])
    mark_floor(ax, [1, 2, 3, 4], [1e-3, 0.0, 0.0, 1e-6], 1e-8, color="C0")
    other.semilogy([1, 2], [1e-3, 1e-2])
    finish({"f": fig})
    assert [h.get_label() for h in floor_handles([ax, other])] == ["0 (exact), drawn at the axis floor"]
    assert ax.yaxis.get_major_formatter()(1e-8, 0) == "0"
    assert [line.get_marker() for line in ax.get_lines()][-1] == FLOOR_MARKERS["zero"]
    assert floor_handles([other]) == []
    with pytest.raises(ValueError, match="floor must be > 0"):
        mark_floor(ax, [1], [0.0], 0.0, color="C0")
    plt.close(fig)
