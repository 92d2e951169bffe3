"""The status palette: one fill and border per statement status and per check verdict, on every page.

A statement's node in the argument graph, its status cell on the report and the claim pages, a check's verdict cell
and a claim page's verdict badge all take their colours from :data:`STATUS_COLOURS`: a verdict is shown in the colour
of the status it stands closest to (:data:`VERDICT_STATUS`), so no page adds a colour that the colour-blindness test
(``tests/test_palette.py``) has not measured.
"""

from __future__ import annotations

#: Node fill and border per status: tints near Okabe and Ito's palette (blue, green, vermillion, yellow with a dark
#: border for open, purple for an erratum; white for a cited fact), chosen so that any two fills stay at least 20 units
#: apart in both CIE76 and CIEDE2000, under deuteranopia and protanopia as in normal vision (``tests/test_palette.py``
#: simulates both), and black text on each keeps WCAG's contrast of 4.5:1; a fact and an erratum have dashed borders,
#: and every node says its status in words.
STATUS_COLOURS = {
    "proved": ("#adc4fc", "#0072B2"),
    "holds-on-range": ("#75a08d", "#005c43"),
    "fails-as-stated": ("#e95200", "#8a3d00"),
    "open": ("#f0e442", "#333333"),
    "cited": ("#ffffff", "#777777"),
    "erratum": ("#9c62fe", "#5a2d9e"),
}

#: The status whose colours a check's verdict takes: a PASS is a statement checked (proved's blue), a FAIL a statement
#: refuted (fails-as-stated's vermillion), an INCONCLUSIVE one left undecided (open's yellow). Green and red, which
#: merge under deuteranopia, are not used.
VERDICT_STATUS = {"PASS": "proved", "FAIL": "fails-as-stated", "INCONCLUSIVE": "open"}


def verdict_colours(verdict: str) -> tuple[str, str]:
    """The ``(fill, border)`` of a check's ``verdict`` ("PASS", "FAIL" or "INCONCLUSIVE")."""
    if verdict not in VERDICT_STATUS:
        raise ValueError(f"verdict must be one of {sorted(VERDICT_STATUS)}, got {verdict!r}")
    return STATUS_COLOURS[VERDICT_STATUS[verdict]]


def status_fill_css(scope: str = "") -> str:
    """CSS giving each statement status's table cell, and each check verdict's, its graph fill, so a status reads the
    same on every page."""
    classes = [(s, STATUS_COLOURS[s][0]) for s in ("proved", "holds-on-range", "fails-as-stated", "open")]
    classes += [(v, verdict_colours(v)[0]) for v in VERDICT_STATUS]
    return "".join(f"{scope}.{name} {{ background: {fill}; font-weight: bold; }}\n" for name, fill in classes)
