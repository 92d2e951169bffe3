"""Every link in a committed document leads to a committed file: no dead link on a code host or in the committed site
(:mod:`sparseact.publish.frontdoor` says what a code host renders)."""

from pathlib import Path

import pytest

from sparseact.publish.frontdoor import committed_files as files_of
from sparseact.publish.frontdoor import dead_links as dead_links_of
from sparseact.publish.frontdoor import documents, html_anchors
from sparseact.publish.site import SITE_FOLDER

ROOT = Path(__file__).resolve().parents[1]


def committed_files() -> set[str]:
    """What a fresh clone of this checkout would hold."""
    return files_of(ROOT)


def dead_links(path: Path, files: set[str]) -> list[str]:
    """:func:`sparseact.publish.frontdoor.dead_links` in this checkout."""
    return dead_links_of(path, files, ROOT)


def test_the_link_checker_finds_what_is_dead(tmp_path, monkeypatch):
    files = committed_files()
    page = ROOT / "results" / "findings.md"
    text = (
        "## Headline results\n[a](ledger.md) [b](nowhere.md) [c](report/index.html) "
        "[d](findings.md#no-such-anchor) [e](#headline-results)"
    )
    monkeypatch.setattr(Path, "read_text", lambda self, **_: text if self == page else Path.read_bytes(self).decode())
    assert dead_links(page, files | {"results/report/index.html"}) == [
        "nowhere.md (not committed)",
        "report/index.html (a code host does not render .html)",
        "findings.md#no-such-anchor (no anchor #no-such-anchor)",
    ]


def test_a_page_of_the_site_links_only_committed_files_and_anchors(monkeypatch):
    files = committed_files()
    page, other = ROOT / SITE_FOLDER / "made-up.html", ROOT / SITE_FOLDER / "pages" / "made-up.html"
    texts = {
        page: '<a id="top" href="#top">a</a> <a href="pages/made-up.html#row">b</a> '
        '<a href="pages/made-up.html#none">c</a> <img src="../../figures/x/y.png"> '
        '<a href="../../results/findings.md#headline-results">d</a> '
        '<a class="node" href="#top" data-page="../pages/made-up.html#row">e</a>',
        other: '<tr id="row">',
        ROOT / "README.md": f"[the report]({SITE_FOLDER}/made-up.html) [the run's](results/report/index.html)",
    }
    monkeypatch.setattr(Path, "read_text", lambda self, **_: texts.get(self) or Path.read_bytes(self).decode())
    site = {f"{SITE_FOLDER}/made-up.html", f"{SITE_FOLDER}/pages/made-up.html", "results/report/index.html"}
    try:
        assert dead_links(page, files | site) == [
            "pages/made-up.html#none (no anchor #none)",
            "../../figures/x/y.png (not committed)",
            "../pages/made-up.html#row (not committed)",
        ]
        assert dead_links(ROOT / "README.md", files | site) == [
            "results/report/index.html (a code host does not render .html)"
        ]
    finally:
        html_anchors.cache_clear()


@pytest.mark.parametrize("document", documents(committed_files()))
def test_every_link_is_alive_on_a_code_host(document):
    files = committed_files()
    assert document in files, f"{document} is not committed"
    dead = dead_links(ROOT / document, files)
    assert not dead, f"{document}: {len(dead)} dead link(s): {dead[:5]}"


@pytest.mark.browser
def test_check_pages_measures_the_front_door_of_this_checkout(tmp_path):
    """``sparseact check-pages docs/site`` also measures what a reader meets first, in this checkout: the README as a
    code host renders it, the committed links and the clicks from the report to the answers; none is a problem."""
    from sparseact.publish.browser import Browser, find_chromium
    from sparseact.publish.frontdoor import check_front_door, checkout_of

    if find_chromium() is None:
        pytest.skip("no Chromium installed: the browser checks need one (Debian: apt-get install chromium)")
    assert checkout_of(ROOT / SITE_FOLDER) == ROOT and checkout_of(tmp_path) is None
    with Browser() as browser:
        lines, problems = check_front_door(browser, ROOT / SITE_FOLDER / "index.html", ROOT, tmp_path)
    assert not problems, problems
    assert [line.split(":")[0] for line in lines] == ["README as a code host renders it", "links", "reader"], lines
