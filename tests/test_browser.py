"""sparseact.publish.browser on small pages made here: what a reader would trip over is found, screenshots are taken.

The pages of a real run are checked in tests/test_workflow.py (``test_pages_in_a_browser``), on the
end-to-end run's copy. Tests that need Chromium skip, saying so, when none is installed.
"""

import os
import shutil
import struct
import tempfile

import pytest

from sparseact.publish.browser import (
    PRINT_HEIGHT,
    PRINT_WIDTH,
    SCREEN,
    WIDTHS,
    Browser,
    check_page,
    find_chromium,
    inspect_page,
    measure_page,
    page_problems,
    placeholder_png,
    write_screenshots,
)

pytestmark = pytest.mark.browser

needs_chromium = pytest.mark.skipif(
    find_chromium() is None,
    reason="no Chromium installed: the browser checks need one (Debian: apt-get install chromium; "
    "or set SPARSEACT_CHROMIUM to its path)",
)


def png_size(path):
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", path
    return struct.unpack(">II", data[16:24])


def page(tmp_path, body, name="page.html"):
    path = tmp_path / name
    path.write_text(
        f"<!DOCTYPE html><html><head><meta charset='utf-8'><title>t</title></head><body>{body}</body></html>"
    )
    return path


@pytest.fixture(scope="module")
def browser():
    if find_chromium() is None:
        pytest.skip(
            "no Chromium installed: the browser checks need one (Debian: apt-get install chromium; "
            "or set SPARSEACT_CHROMIUM to its path)"
        )
    with Browser() as open_browser:
        yield open_browser


@needs_chromium
def test_a_clean_front_page_has_no_problems(browser, tmp_path):
    placeholder_png(tmp_path / "fig.png", "a figure")
    (tmp_path / "other.html").write_text("<p>other</p>")
    path = page(
        tmp_path,
        "<table class='headline'><tbody><tr><td class='status'>open</td></tr></tbody></table>"
        "<a href='#s'>s</a> <a href='other.html'>o</a>"
        "<a href='https://example.org/'>external, not followed</a>"
        "<table class='statements' id='s'><tbody><tr><td><img src='fig.png' width='100'></td>"
        "<td>costs 5 dollars</td></tr></tbody></table>",
    )
    report = inspect_page(browser, path)
    assert page_problems(report, front_page=True) == [] and check_page(browser, path, front_page=True) == []
    assert report.viewport_width == SCREEN[0] and report.external == ["https://example.org/"]


@needs_chromium
def test_what_a_reader_trips_over_is_found(browser, tmp_path):
    path = page(
        tmp_path,
        "<div style='height: 1200px'>tall</div><div style='width: 2000px'>wide</div>"
        "<p>raw math: $x^2$ and $$\\sum_i y_i$$</p><img src='missing.png' alt='gone'>"
        "<a href='nowhere.html'>dead</a> <a href='#nothing'>dead anchor</a>"
        "<table class='headline'><tbody><tr><td>late</td></tr></tbody></table>",
    )
    report = inspect_page(browser, path)
    problems = " | ".join(page_problems(report, front_page=True) + page_problems(report))
    for expected in (
        "scrolls sideways: 2",
        "1 image(s) do not load",
        "['#nothing']",
        "2 raw $...$ math span(s)",
        "2 local link(s) name no file: ['missing.png', 'nowhere.html']",
        "below the first screen",
        "no first statement (table.statements row)",
    ):
        assert expected in problems, (expected, problems)


@needs_chromium
def test_screenshot_is_the_first_screen(browser, tmp_path):
    browser.load(page(tmp_path, "<h1>hello</h1>"))
    assert png_size(browser.screenshot(tmp_path / "shot.png")) == SCREEN


@needs_chromium
@pytest.mark.parametrize("depth", ["at the limit", "beyond it"])
def test_screenshots_under_a_deep_temporary_directory(tmp_path, monkeypatch, depth):
    """Chromium aborts when its socket path is too long; a deep TMPDIR (a test's, a cluster job's) must not matter."""
    from sparseact.publish import browser as module

    room = module.SOCKET_PATH_MAX - module._PROFILE_IN_PARENT - module._SOCKET_IN_TMPDIR
    base = tempfile.mkdtemp(prefix="d", dir="/tmp")
    length = room if depth == "at the limit" else room + 40
    deep = base + "/" + "x" * (length - len(base) - 1)
    monkeypatch.setenv("TMPDIR", deep)
    monkeypatch.setattr(tempfile, "tempdir", None)
    try:
        os.makedirs(deep)
        assert len(tempfile.gettempdir()) == length
        path = page(tmp_path, "<h1>hello</h1>")
        assert "screenshots of 1 page" in write_screenshots({path: tmp_path / "a.png"})
        assert png_size(tmp_path / "a.png") == SCREEN
    finally:
        shutil.rmtree(base)


def test_without_chromium_the_screenshots_are_placeholders_that_say_why(tmp_path, monkeypatch):
    monkeypatch.setenv("SPARSEACT_CHROMIUM", "")  # empty: "no browser"
    assert find_chromium() is None
    path = page(tmp_path, "<h1>hello</h1>")
    message = write_screenshots({path: tmp_path / "a.png"})
    assert "no Chromium was found" in message
    write_screenshots({path: tmp_path / "b.png"})
    assert (tmp_path / "a.png").read_bytes() == (tmp_path / "b.png").read_bytes()  # deterministic
    png_size(tmp_path / "a.png")
    with pytest.raises(RuntimeError, match="no Chromium found"):
        Browser()


@needs_chromium
def test_the_first_printed_page_is_a_screenshot_in_print_layout(tmp_path):
    path = page(tmp_path, "<style>@media print { h1 { display: none; } }</style><h1>hello</h1><p>printed</p>")
    message = write_screenshots({path: tmp_path / "screen.png"}, {path: tmp_path / "print.png"})
    assert "1 page(s) and 1 printed page(s)" in message
    assert png_size(tmp_path / "print.png") == (PRINT_WIDTH, PRINT_HEIGHT)
    assert png_size(tmp_path / "screen.png") == SCREEN


@needs_chromium
def test_narrow_screens_and_print_are_checked(browser, tmp_path):
    """A table 1000 px wide reads at 1400 px but scrolls sideways at 800 px; a box that scrolls is cut off in print;
    a status cell pushed right of the screen is found."""
    wide = (
        "<table class='headline'><tbody><tr><td style='min-width: 1000px'>wide</td><td class='status'>open</td>"
        "</tr></tbody></table>"
    )
    problems = " | ".join(check_page(browser, page(tmp_path, wide), front_page=True))
    assert "at 1400 px" not in problems and "at 800 px: scrolls sideways" in problems, problems
    assert "at 800 px: 1 status cell(s) right of the screen" in problems and "printed: scrolls sideways" in problems
    boxed = (
        "<table class='headline'><tbody><tr><td class='status'>open</td></tr></tbody></table>"
        "<div style='overflow-x: auto; width: 300px'><div style='width: 600px'>wide</div></div>"
    )
    problems = check_page(browser, page(tmp_path, boxed, "boxed.html"), front_page=True)
    assert problems == ["printed: clipped in print (content wider than its box): ['div']"], problems
    assert inspect_page(browser, page(tmp_path, boxed, "boxed.html")).viewport_width == SCREEN[0]  # screen restored


@needs_chromium
def test_print_to_pdf(browser, tmp_path):
    browser.load(page(tmp_path, "<h1>hello</h1>"))
    assert browser.print_pdf(tmp_path / "page.pdf").read_bytes()[:5] == b"%PDF-"
    assert 700 < PRINT_WIDTH < 750


@needs_chromium
def test_a_link_to_an_anchor_another_page_lacks_is_found(browser, tmp_path):
    (tmp_path / "other.html").write_text("<p id='here'>other</p><svg><a href='page.html#gone'><text>n</text></a></svg>")
    path = page(
        tmp_path,
        "<a href='other.html#here'>fine</a> <a href='other.html#missing'>dead</a>"
        "<svg><a href='other.html#also-missing'><text y='10'>node</text></a></svg>",
    )
    problems = " | ".join(page_problems(inspect_page(browser, path), first_screen=False))
    assert (
        "2 link(s) to another page name an anchor it lacks: ['other.html#missing', 'other.html#also-missing']"
        in problems
    ), problems
    assert "#here" not in problems


@needs_chromium
def test_a_clipped_table_a_column_narrower_than_a_word_and_a_folded_section_are_found(browser, tmp_path):
    """A table wider than its scrolling box is clipped at every width; in print, a column cut to a letter's width
    (words broken anywhere) and a ``<details>`` whose content does not print are found."""
    clipped = (
        "<div style='overflow-x: auto; width: 300px'><table><tr><td style='min-width: 600px'>w</td></tr></table></div>"
    )
    problems = " | ".join(check_page(browser, page(tmp_path, clipped), first_screen=False))
    assert "at 1400 px: 1 table(s) clipped inside their box" in problems, problems
    # the same table far below the first screen, in a box laid out only when scrolled to (the report's .scroll):
    # measured all the same
    offscreen = "<div style='height: 5000px'></div>" + clipped.replace(
        "width: 300px'", "width: 300px; content-visibility: auto; contain-intrinsic-size: auto 50px'"
    )
    problems = " | ".join(check_page(browser, page(tmp_path, offscreen, "offscreen.html"), first_screen=False))
    assert "at 1400 px: 1 table(s) clipped inside their box" in problems, problems
    narrow = (
        "<style>@media print { td { overflow-wrap: anywhere; } }</style><table style='width: 100%'><thead><tr>"
        "<th>where</th><th>reason</th></tr></thead><tbody><tr><td style='width: 1px'>Abstract</td>"
        f"<td>{'words ' * 200}</td></tr></tbody></table><details><summary>more</summary><p>folded</p></details>"
    )
    printed = inspect_page_printed(browser, page(tmp_path, narrow, "narrow.html"))
    assert printed.broken_words == ['"Abstract" in column "where"'], printed.broken_words
    assert printed.folded == ["more"]
    problems = page_problems(printed, first_screen=False, printed=True)
    assert any("narrower than their longest word" in p for p in problems) and any("do not print" in p for p in problems)


@needs_chromium
def test_a_page_laid_out_anew_measures_as_a_page_loaded_at_that_screen(browser, tmp_path):
    """check_page loads a page once and lays it out anew for each width and for print: what it measures is what a
    load at that screen measures, on a page whose layout, first screen and links change with the width and media."""
    placeholder_png(tmp_path / "fig.png", "a figure")
    body = (
        "<style>@media (max-width: 1100px) { .wide { min-width: 1200px; } .gone { display: none; } }"
        "@media print { .statements td { overflow-wrap: anywhere; } .tall { height: 2000px; } }</style>"
        "<table class='headline'><tbody><tr><td class='wide'>wide below 1100 px</td><td class='status'>open</td>"
        "</tr></tbody></table><div class='tall'>tall in print</div><img src='fig.png' width='300'>"
        "<a class='gone' href='#s'>hidden</a> <a href='nowhere.html'>dead</a> <p class='gone'>$x$</p>"
        "<table class='statements' id='s'><tbody><tr><td style='width: 1px'>Abstract</td><td>text</td></tr></tbody>"
        "</table><details><summary>more</summary><p>folded</p></details>"
    )
    path = page(tmp_path, body)
    screens = [((width,), {}) for width in WIDTHS] + [((PRINT_WIDTH,), {"media": "print"})]
    try:
        browser.set_screen(*screens[0][0])
        browser.load(path)
        laid_out = []
        for args, kwargs in screens:
            browser.set_screen(*args, **kwargs)
            laid_out.append(measure_page(browser, path, printed=bool(kwargs)))
        loaded = []
        for args, kwargs in screens:
            browser.set_screen(*args, **kwargs)
            loaded.append(inspect_page(browser, path, printed=bool(kwargs)))
    finally:
        browser.set_screen(*SCREEN)
    assert laid_out == loaded
    assert len({report.scroll_width for report in loaded}) > 1 and loaded[-1].broken_words  # the layouts differ


def inspect_page_printed(browser, path):
    browser.set_screen(PRINT_WIDTH, media="print")
    try:
        return inspect_page(browser, path, printed=True)
    finally:
        browser.set_screen(*SCREEN)


@needs_chromium
def test_the_report_css_makes_cards_and_prints_folded_sections(browser, tmp_path):
    """With :data:`sparseact.publish.cards.CARDS_CSS`, the same wide table keeps every column at 800 px and in
    print (each row a card), and folded sections print."""
    from sparseact.publish.cards import CARDS_CSS, PRINT_OPEN_CSS, label_cells

    wide = label_cells(
        "<div class='scroll' style='overflow-x: auto'><table><thead><tr>"
        + "".join(f"<th>column {i}</th>" for i in range(8))
        + "</tr></thead><tbody><tr>"
        + "".join(f"<td>{'Abstract sentence ' * 12}</td>" for _ in range(8))
        + "</tr></tbody></table></div><details><summary>more</summary><p>folded</p></details>"
    )
    assert 'data-label="column 7"' in wide and 'class="sa-cards"' in wide
    path = page(tmp_path, f"<style>{CARDS_CSS}{PRINT_OPEN_CSS}</style>{wide}")
    problems = check_page(browser, path, first_screen=False)
    assert not [p for p in problems if not p.startswith("at 1400 px") and not p.startswith("at 1024 px")], problems
    assert not inspect_page_printed(browser, path).folded


@needs_chromium
def test_click_follows_a_link_by_its_visible_text_to_another_page_or_an_anchor(browser, tmp_path):
    """A link is found by what it reads (in a table row found by its first cell) and followed as a click would: to an
    anchor of another page, which is scrolled into view, or of the same page; a link that is not there is an error
    that lists the links there are."""
    from sparseact.publish.browser import BrowserError

    filler = "<p style='height: 2000px'>filler</p>"
    (tmp_path / "other.html").write_text(f"<title>o</title>{filler}<p id='far'>the reason</p>{filler}")
    path = page(
        tmp_path,
        "<table><tr><td>Theorem 1</td><td><a href='other.html'>why</a></td></tr>"
        "<tr><td>Theorem 10</td><td><a href='other.html#far'>Why </a></td></tr></table>"
        f"<a href='#below'>down</a>{filler}<p id='below'>below</p>{filler}",
    )
    browser.load(path)
    assert browser.click("why", "table", row="Theorem 10").endswith("other.html#far")
    assert browser.evaluate("document.title") == "o"
    assert 0 <= browser.evaluate("document.getElementById('far').getBoundingClientRect().top") < SCREEN[1]
    browser.load(path)
    assert browser.click("down").endswith("page.html#below")
    assert 0 <= browser.evaluate("document.getElementById('below').getBoundingClientRect().top") < SCREEN[1]
    with pytest.raises(BrowserError, match=r'no link reads "how".*"why"'):
        browser.click("how", "table", row="Theorem 1")
    with pytest.raises(BrowserError, match="no element matches"):
        browser.click("why", "table", row="Lemma 2")


@needs_chromium
def test_the_printed_length_is_counted_in_a4_pages(browser, tmp_path):
    """A page of five paragraphs, each ending its printed page, prints on five A4 pages: over a limit of four that is
    a problem, at five it is not; without a limit no PDF is counted."""
    from sparseact.publish.browser import pdf_pages

    path = page(tmp_path, "".join(f"<p style='break-after: page'>page {i}</p>" for i in range(5)))
    browser.load(path)
    assert browser.printed_pages() == 5 == pdf_pages(browser.print_pdf(tmp_path / "five.pdf").read_bytes())
    too_long = "printed: prints on 5 A4 pages, more than 4"
    assert too_long in check_page(browser, path, first_screen=False, max_printed_pages=4)
    assert check_page(browser, path, first_screen=False, max_printed_pages=5) == []
    assert check_page(browser, path, first_screen=False) == []


@needs_chromium
def test_the_measured_numbers_are_given_on_a_page_that_passes(browser, tmp_path, capsys):
    """check_page fills in the page's width at every screen width, its printed A4 pages and its headline table's
    words; ``sparseact check-pages`` prints them beside "ok"."""
    from sparseact import cli
    from sparseact.publish.browser import measured_text

    headline = "<table class='headline'><tbody><tr><td class='status'>Theorem 1 is proved</td></tr></tbody></table>"
    path = page(tmp_path, headline + "<p style='break-before: page'>second printed page</p>")
    measured = {}
    assert check_page(browser, path, front_page=True, measured=measured) == []
    assert measured == {"widths": {w: w for w in WIDTHS}, "printed_pages": 2, "headline_words": 4, "dead_links": 0}
    screens = f"{'/'.join(map(str, WIDTHS))} px wide on {'/'.join(map(str, WIDTHS))} px screens"
    assert measured_text(measured) == (
        f"{screens} (sideways scroll at 390 px: 0 px); prints on 2 A4 pages; 0 dead local links; headline table 4 words"
    )
    (tmp_path / "report").mkdir()
    path.rename(tmp_path / "report" / "index.html")
    page(tmp_path / "report", "<p>the graph</p>", "graph.html")
    assert cli.main(["check-pages", str(tmp_path)]) == 0
    printed = capsys.readouterr().out.splitlines()
    assert printed == [
        f"report/index.html: ok ({measured_text(measured)})",
        f"report/graph.html: ok ({screens} (sideways scroll at 390 px: 0 px); prints on 1 A4 page; 0 dead local links)",
        "2 pages: the longest prints on 2 A4 pages (report/index.html); widest sideways scroll at 390 px: 0 px; "
        "0 dead local links in all",
    ]


@needs_chromium
def test_the_committed_site_is_checked_and_its_dead_links_counted(browser, tmp_path, capsys):
    """``sparseact check-pages docs/site``: the site's layout (index.html and graph.html at its root, pages/,
    certificates/), and a dead link counted, a graph node's claim-page link (data-page) among them."""
    from sparseact import cli

    page(tmp_path, "<table class='headline'><tbody><tr><td>Theorem 1</td></tr></tbody></table>", "index.html")
    node = '<svg class="argument-graph"><a class="node" href="index.html" data-page="../pages/a.html#s">a</a></svg>'
    page(tmp_path, node + '<a href="nowhere.html">x</a>', "graph.html")
    (tmp_path / "pages").mkdir()
    page(tmp_path / "pages", "<table class='statements'><tbody><tr id='s'><td>a</td></tr></tbody></table>", "a.html")
    (tmp_path / "certificates" / "a").mkdir(parents=True)
    page(tmp_path / "certificates" / "a", '<a href="../../pages/a.html#s">a</a>', "c.html")
    assert cli.main(["check-pages", str(tmp_path)]) == 1
    printed = capsys.readouterr().out
    assert [line.split(":")[0] for line in printed.splitlines() if not line.startswith(" ")][:4] == [
        "index.html",
        "graph.html",
        "pages/a.html",
        "certificates/a/c.html",
    ]
    assert "2 local link(s) name no file: ['../pages/a.html#s', 'nowhere.html']" in printed
    assert printed.splitlines()[-1].endswith("; 2 dead local links in all")


def summarised_page(rows=60, cards=30):
    """A page as the report and the claim pages build it: a data table with its CSV link, a table printed one line
    per row, check cards; cards on narrow screens and summarised in print."""
    from sparseact.publish.cards import label_cells, summarise_for_print

    cells = "".join(f"<th>column {i}</th>" for i in range(6))
    data = "".join("<tr>" + "".join(f"<td>value {r}.{c}</td>" for c in range(6)) + "</tr>" for r in range(rows))
    lines = "".join(
        f'<tr><td>Lemma {r}</td><td class="status">proved</td><td class="sa-no-print">{"A long reason. " * 30}</td></tr>'
        for r in range(rows)
    )
    checks = "".join(
        f'<div class="sa-check sa-PASS"><p>PASS check{i}</p><p>{"The statement checked. " * 20}</p></div>'
        for i in range(cards)
    )
    body = (
        '<p><b>t</b> (60 rows) — <a href="t.csv">CSV</a></p>'
        f"<table><thead><tr>{cells}</tr></thead><tbody>{data}</tbody></table>"
        '<table class="sa-lines"><thead><tr><th>where</th><th>status</th><th>reason</th></tr></thead>'
        f"<tbody>{lines}</tbody></table>{checks}"
        '<table class="sa-print-whole"><thead><tr><th>kept</th></tr></thead><tbody>'
        + "<tr><td>kept row</td></tr>" * 5
        + "</tbody></table>"
    )
    return summarise_for_print(label_cells(body), "page.html")


def test_summarise_for_print_marks_long_tables_and_check_cards_and_links_the_whole():
    from sparseact.publish.cards import PRINT_ROWS

    summarised = summarised_page()
    assert 'class="sa-cards sa-cut" id="sa-table-1"' in summarised
    assert f'Printed: the first {PRINT_ROWS} of 60 rows; the whole table: <a href="t.csv">its CSV</a>.' in summarised
    assert 'class="sa-cards sa-lines" id="sa-table-2"' in summarised
    assert 'the whole table: <a href="page.html#sa-table-2">on screen</a>' in summarised
    assert summarised.count('id="sa-checks"') == 1 and '<a href="page.html#sa-checks">on screen</a>' in summarised
    assert 'class="sa-cards sa-print-whole"' in summarised and summarised.count("sa-print-only") == 3
    # a table of PRINT_ROWS rows or fewer prints whole, without a note
    short = summarised_page(rows=PRINT_ROWS, cards=0)
    assert "sa-cut" not in short and short.count("sa-print-only") == 1  # the sa-lines table's


#: In print: the body rows of each table that show, the height of the sa-lines table's first row over its font
#: size, the lines table's cells that show, and whether the notes and each check card's second line show.
_PRINTED = """(() => {
  const shown = e => e.getClientRects().length > 0;
  const rows = Array.from(document.querySelectorAll('table'), t => Array.from(t.tBodies[0].rows).filter(shown).length);
  const line = document.querySelector('table.sa-lines tbody tr');
  return {rows: rows, line: line.getBoundingClientRect().height / parseFloat(getComputedStyle(line).fontSize),
          cells: Array.from(line.cells).filter(shown).length,
          notes: Array.from(document.querySelectorAll('.sa-print-only')).filter(shown).length,
          second: Array.from(document.querySelectorAll('.sa-check p:nth-child(2)')).filter(shown).length};
})()"""


@needs_chromium
def test_print_summarises_long_tables_and_check_cards(browser, tmp_path):
    """With the report's styles, a page of a 60-row data table, a 60-row table of statements and 30 check cards prints
    on far fewer A4 pages than without the print summary: the data table's first rows, one line per statement (its
    reason left out), one line per card, and the notes linking the whole, which show on paper alone."""
    from sparseact.publish.cards import CARDS_CSS, PRINT_OPEN_CSS, PRINT_ROWS, PRINT_SUMMARY_CSS

    styles = CARDS_CSS + PRINT_OPEN_CSS
    summarised = page(tmp_path, f"<style>{styles}{PRINT_SUMMARY_CSS}</style>{summarised_page()}", "page.html")
    whole = page(tmp_path, f"<style>{styles}</style>{summarised_page()}", "whole.html")
    browser.load(whole)
    before = browser.printed_pages()
    browser.load(summarised)
    after = browser.printed_pages()
    assert 3 * after < before, (after, before)
    on_screen = browser.evaluate(_PRINTED)
    assert on_screen["rows"] == [60, 60, 5] and on_screen["notes"] == 0 and on_screen["second"] == 30
    browser.set_screen(PRINT_WIDTH, media="print")
    try:
        printed = browser.evaluate(_PRINTED)
    finally:
        browser.set_screen(*SCREEN)
    assert printed["rows"] == [PRINT_ROWS, 60, 5] and printed["notes"] == 3 and printed["second"] == 0
    assert printed["cells"] == 2 and printed["line"] < 2, printed
    (tmp_path / "t.csv").write_text("column 0\n")
    assert check_page(browser, summarised, first_screen=False) == []


@needs_chromium
def test_a_formula_that_scrolls_on_a_phone_shades_the_side_with_more(browser, tmp_path):
    """At 390 px a long formula scrolls in its own box: a shade marks the side where more is hidden (the right before
    scrolling, the left at its end), on the page's colour and on an erratum box's; a formula that fits has none."""
    from matplotlib.image import imread

    from sparseact.publish.mathtext import MATH_CSS, tex_to_mathml

    long, short = tex_to_mathml(" + ".join(f"x_{{{i}}}" for i in range(60))), tex_to_mathml("x + y")
    body = (
        f"<style>body {{ margin: 8px; }} p {{ margin: 0 0 30px; }} {MATH_CSS}</style><p>{long}</p><p>{short}</p>"
        f'<div style="background: #fafafa; --sa-paper: #fafafa"><p>{long}</p></div>'
    )
    cued, plain = page(tmp_path, body, "cued.html"), page(tmp_path, body + "<style>math { background: none; }</style>")
    browser.set_screen(390)
    boxes = {}

    def shade(path, end=False):
        browser.load(path)
        boxes[path] = browser.evaluate(
            f"Array.from(document.querySelectorAll('math'), m => {{ if ({str(end).lower()}) m.scrollLeft = 1e6; "
            "const r = m.getBoundingClientRect(); "
            "return [r.left, r.right, r.top, r.bottom, m.scrollWidth > m.clientWidth + 1]; })"
        )
        return imread(browser.screenshot(tmp_path / f"{path.stem}-{end}.png"))[..., :3].mean(axis=2)

    def darker(end):
        """How much darker the cue makes each formula's left and right edge (3 px strips, mean over the box)."""
        with_cue, without = shade(cued, end), shade(plain, end)
        out = []
        for left, right, top, bottom, scrolls in boxes[cued]:
            rows = slice(round(top) + 2, round(bottom) - 2)
            edges = [
                (without[rows, x : x + 3] - with_cue[rows, x : x + 3]).mean() for x in (round(left), round(right) - 3)
            ]
            out.append((round(edges[0], 3), round(edges[1], 3), scrolls))
        return out

    (l1, r1, s1), (l2, r2, s2), (l3, r3, s3) = darker(end=False)
    assert s1 and s3 and not s2
    assert r1 > 0.05 and r3 > 0.05 and abs(l1) < 0.01 and abs(l3) < 0.01 and abs(l2) < 0.01 and abs(r2) < 0.01
    (l1, r1, _), _, (l3, r3, _) = darker(end=True)
    assert l1 > 0.05 and l3 > 0.05 and abs(r1) < 0.01 and abs(r3) < 0.01
