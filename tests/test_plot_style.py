"""sparseact.publish.plotting catches what readers of the figures tripped over: unlabelled log axes, shades alone."""

import numpy as np

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
    assert all(len(formula_label(name)) <= LABEL_WIDTH for name in ("theorem17_sample_complexity", "eq15_rademacher"))
    assert [_power_of_ten(v) for v in (1e-6, 1000.0, 2.5)] == ["$10^{-6}$", "$10^{3}$", "2.5"]
