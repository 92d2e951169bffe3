"""Every link in a committed document leads to a committed file: no dead link on a code host or in the committed site.

A code host (GitHub, GitLab) renders Markdown, notebooks, images, CSV and PDF, shows source files as text, but shows
an HTML page as its source: every committed Markdown file (README.md, docs, the results' findings, statements,
ledger and certificates' views), the claims' notebooks and the erratum note link only to committed files it renders
or to the committed rendered site (:data:`sparseact.publish.site.SITE_FOLDER`), whose pages, read in a browser, link
only committed files. Every ``#anchor`` must exist in its Markdown or HTML target.
"""

import functools
import html
import json
import re
import subprocess
from pathlib import Path
from urllib.parse import unquote, urlsplit

import pytest

from sparseact.publish.graph import PAGE_ATTRIBUTE
from sparseact.publish.site import SITE_FOLDER

ROOT = Path(__file__).resolve().parents[1]

#: What a code host shows rendered, or as readable text (the note's source, the code a document points at); a
#: certificate's JSON only from its rendered view (the view is what the other documents link).
RENDERED = {".md", ".ipynb", ".png", ".svg", ".csv", ".pdf", ".tex", ".cff", ".txt", ".py", ".smk", ".yaml", ""}

_MARKDOWN_LINK = re.compile(r"(?<!!)\[(?:[^\[\]]|\[[^\]]*\])*\]\(([^)\s]+)\)|!\[[^\]]*\]\(([^)\s]+)\)")
_HTML_ANCHOR = re.compile(r"<a\s+(?:id|name)=\"([^\"]+)\"")
_HREF = re.compile(r"\\href\{([^}]*)\}")
_HTML_HREF = re.compile(r'<a\s[^>]*href="([^"]*)"')
#: A link of a page: ``href``, ``src``, and a graph node's row on its claim page, which the graph's script makes a link.
_PAGE_TARGET = re.compile(rf'(?<![\w-])(?:href|src|{PAGE_ATTRIBUTE})="([^"]*)"')
_HTML_ID = re.compile(r'(?<![\w-])(?:id|name)="([^"]*)"')
_CODE = re.compile(r"`[^`]*`")
_MATH = re.compile(r"\$\$.*?\$\$|\$[^$\n]+\$", re.DOTALL)


def committed_files() -> set[str]:
    """Files tracked by git, or about to be (untracked and not ignored): what a fresh clone would hold."""
    listed = subprocess.run(
        ["git", "ls-files", "--cached", "--others", "--exclude-standard", "-z"],
        cwd=ROOT,
        capture_output=True,
        check=True,
    ).stdout
    return {name for name in listed.decode().split("\0") if name and (ROOT / name).exists()}


def github_slug(heading: str) -> str:
    """The anchor a code host gives a Markdown heading (GitHub's rule: lower case, punctuation dropped, spaces to
    hyphens)."""
    text = re.sub(r"[*_`]", "", heading.strip().lower())
    return re.sub(r"[^\w\- ]", "", text).replace(" ", "-")


def markdown_anchors(path: Path) -> set[str]:
    text = path.read_text(encoding="utf-8")
    anchors, seen = set(_HTML_ANCHOR.findall(text)), {}
    for line in text.splitlines():
        if line.startswith("#"):
            slug = github_slug(line.lstrip("#"))
            count = seen.get(slug, 0)
            seen[slug] = count + 1
            anchors.add(slug if count == 0 else f"{slug}-{count}")
    return anchors


@functools.cache
def html_anchors(path: Path) -> set[str]:
    return {html.unescape(name) for name in _HTML_ID.findall(path.read_text(encoding="utf-8"))}


def links_of(path: Path) -> list[str]:
    text = path.read_text(encoding="utf-8")
    if path.suffix == ".html":
        return [html.unescape(link) for link in _PAGE_TARGET.findall(text)]
    if path.suffix == ".tex":
        return _HREF.findall(text)
    if path.suffix == ".ipynb":  # its Markdown cells and outputs, and its HTML outputs
        markdown, pages = [], []
        for cell in json.loads(text)["cells"]:
            if cell["cell_type"] == "markdown":
                markdown.append("".join(cell["source"]))
            for output in cell.get("outputs", []):
                markdown.append("".join(output.get("data", {}).get("text/markdown", "")))
                pages.append("".join(output.get("data", {}).get("text/html", "")))
        text = "\n".join(markdown)
        hrefs = [html.unescape(h) for page in pages for h in _HTML_HREF.findall(page)]
    else:
        hrefs = []
    text = _MATH.sub(" ", _CODE.sub(" ", text))
    return [html.unescape(a or b) for a, b in _MARKDOWN_LINK.findall(text)] + hrefs


def _view_of(path: Path, target: Path) -> bool:
    """``path`` is a certificate's rendered view and ``target`` its JSON file."""
    return path.suffix == ".md" and target.suffix == ".json" and target.with_suffix(".md") == path


def _has_anchor(target: Path, fragment: str) -> bool:
    """``#fragment`` is a heading's or an ``<a id>``'s anchor of the Markdown file ``target``, or an id of the page (as
    written or percent-decoded: a browser tries both)."""
    if target.suffix == ".md":
        return fragment in markdown_anchors(target)
    return bool({fragment, unquote(fragment)} & html_anchors(target))


def dead_links(path: Path, files: set[str]) -> list[str]:
    """The links of ``path`` a code-host visitor (or, from a page of the site, a browser) cannot follow, each with
    why."""
    directories = {str(Path(f).parent) for f in files} | {str(parent) for f in files for parent in Path(f).parents}
    dead = []
    for link in links_of(path):
        parts = urlsplit(link)
        if parts.scheme or parts.netloc:
            continue
        target = (path.parent / unquote(parts.path)).resolve() if parts.path else path
        try:
            relative = target.relative_to(ROOT).as_posix()
        except ValueError:
            dead.append(f"{link} (outside the repository)")
            continue
        if relative not in files and relative not in directories:
            dead.append(f"{link} (not committed)")
        elif (
            path.suffix != ".html"
            and target.suffix not in RENDERED
            and relative in files
            and not _view_of(path, target)
            and not (target.suffix == ".html" and relative.startswith(f"{SITE_FOLDER}/"))
        ):
            dead.append(f"{link} (a code host does not render {target.suffix})")
        elif parts.fragment and target.suffix in (".md", ".html") and not _has_anchor(target, parts.fragment):
            dead.append(f"{link} (no anchor #{parts.fragment})")
    return dead


def documents(files: set[str]) -> list[str]:
    """Every committed Markdown file, notebook and HTML page (the site's), and the erratum note."""
    return sorted(f for f in files if f.endswith((".md", ".ipynb", ".html")) or f == "results/erratum/erratum.tex")


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
