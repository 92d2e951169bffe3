"""The status palette stays apart under colour blindness, and every page takes its status colours from it."""

import re

import numpy as np
import pytest
from colour_vision import DEUTERANOPIA, MIN_DELTA_E, PROTANOPIA, ciede2000, distance, distance2000, least_distance
from matplotlib.colors import to_rgb

from sparseact.publish.palette import STATUS_COLOURS, VERDICT_STATUS, status_fill_css, verdict_colours

VISIONS = pytest.mark.parametrize(
    "vision", [DEUTERANOPIA, PROTANOPIA, np.eye(3)], ids=["deuteranopia", "protanopia", "normal"]
)


@VISIONS
@pytest.mark.parametrize("metric", [distance, distance2000], ids=["CIE76", "CIEDE2000"])
def test_no_two_status_fills_merge_under_colour_blindness(vision, metric):
    fills = [fill for fill, _ in STATUS_COLOURS.values()]  # every fill, the erratum's and the cited fact's too
    least, pair = least_distance(fills, vision, metric)
    assert least >= MIN_DELTA_E, (pair, least)
    borders = [STATUS_COLOURS[s][1] for s in ("proved", "holds-on-range", "fails-as-stated", "open")]
    least, pair = least_distance(borders, vision)
    assert least > 10, (pair, least)  # the borders of the four statement statuses


@VISIONS
def test_no_two_verdict_colours_merge_under_colour_blindness(vision):
    assert least_distance([verdict_colours(v)[0] for v in VERDICT_STATUS], vision)[0] >= MIN_DELTA_E
    assert least_distance([verdict_colours(v)[1] for v in VERDICT_STATUS], vision)[0] >= MIN_DELTA_E


def test_black_text_reads_on_every_fill():
    def luminance(colour) -> float:
        rgb = np.asarray(to_rgb(colour))
        return float(
            np.array([0.2126, 0.7152, 0.0722]) @ np.where(rgb <= 0.04045, rgb / 12.92, ((rgb + 0.055) / 1.055) ** 2.4)
        )

    for status, (fill, _) in STATUS_COLOURS.items():
        assert (luminance(fill) + 0.05) / 0.05 >= 4.5, status  # WCAG's contrast for normal text, AA


def test_the_palette_check_has_teeth():
    # issue 62's fills: the graph's "holds on a range" and "erratum", the report's PASS and FAIL cells
    assert distance("#b5e6d5", "#f0cfe2") < MIN_DELTA_E
    assert distance("#e3f5e1", "#fbe0e0") < MIN_DELTA_E
    assert distance("#1a7f37", "#cf222e") < MIN_DELTA_E  # the claim pages' PASS and FAIL badges
    assert distance("#e3f5e1", "#fbe0e0", PROTANOPIA) < MIN_DELTA_E
    assert distance("#64a77a", "#dd7e33") >= MIN_DELTA_E > distance2000("#64a77a", "#dd7e33")  # the palette before
    # Sharma, Wu and Dalal's test pairs 1 and 2
    assert abs(ciede2000((50, 2.6772, -79.7751), (50, 0, -82.7485)) - 2.0425) < 1e-4
    assert abs(ciede2000((50, -1.3802, -84.2814), (50, 0, -82.7485)) - 1.0) < 1e-4


def test_an_unknown_verdict_is_refused():
    with pytest.raises(ValueError, match="verdict must be one of"):
        verdict_colours("MAYBE")


def _fills(css: str) -> dict:
    """``{class: background}`` of the rules of ``css`` that set a background (a claim page's ``sa-`` prefix dropped)."""
    return {k.removeprefix("sa-"): v for k, v in re.findall(r"\.([\w-]+) \{ background: (#[0-9A-Fa-f]{6})", css)}


def test_every_page_colours_a_status_and_a_verdict_from_the_palette():
    from sparseact.publish.display import PAGE_CSS
    from sparseact.publish.report import _CSS, CLAIM_HEADER_CSS

    css = status_fill_css(".x ")
    for status in ("proved", "holds-on-range", "fails-as-stated", "open"):
        assert f".x .{status} {{ background: {STATUS_COLOURS[status][0]};" in css
    palette = {c.lower() for pair in STATUS_COLOURS.values() for c in pair}
    for page in (_CSS, CLAIM_HEADER_CSS, PAGE_CSS):
        coloured = {k: v for k, v in _fills(page).items() if k in (*STATUS_COLOURS, *VERDICT_STATUS)}
        assert coloured and {v.lower() for v in coloured.values()} <= palette, coloured
    for verdict in VERDICT_STATUS:
        fill, border = verdict_colours(verdict)
        assert f".sa-badge.sa-{verdict} {{ background: {fill};" in PAGE_CSS
        assert f".sa-check.sa-{verdict} {{ border-left-color: {border};" in PAGE_CSS
