"""What a reader meets first, checked as they meet it: every committed link alive on a code host.

A code host (GitHub, GitLab) renders Markdown, notebooks, images, CSV and PDF, shows source files as text, but shows
an HTML page as its source: every committed Markdown file (README.md, docs, the results' findings, statements,
ledger and certificates' views), the claims' notebooks and the erratum note must link only to committed files it
renders or to the committed rendered site (:data:`sparseact.publish.site.SITE_FOLDER`), whose pages, read in a
browser, link only committed files; every ``#anchor`` must exist in its Markdown or HTML target
(:func:`dead_links`). ``sparseact check-pages`` counts them; tests/test_code_host_links.py holds every document to
none.
"""

from __future__ import annotations

import functools
import html
import json
import re
import subprocess
from pathlib import Path
from urllib.parse import unquote, urlsplit

from sparseact.publish.browser import SCREEN, WIDTHS, BrowserError
from sparseact.publish.graph import PAGE_ATTRIBUTE
from sparseact.publish.site import SITE_FOLDER

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


def committed_files(root: str | Path) -> set[str]:
    """Files of the checkout ``root`` tracked by git, or about to be (untracked and not ignored): what a fresh clone
    would hold."""
    listed = subprocess.run(
        ["git", "ls-files", "--cached", "--others", "--exclude-standard", "-z"],
        cwd=root,
        capture_output=True,
        check=True,
    ).stdout
    return {name for name in listed.decode().split("\0") if name and (Path(root) / name).exists()}


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


def dead_links(path: Path, files: set[str], root: str | Path) -> list[str]:
    """The links of ``path`` (a document of the checkout ``root``, whose committed ``files`` are given) a code-host
    visitor (or, from a page of the site, a browser) cannot follow, each with why."""
    directories = {str(Path(f).parent) for f in files} | {str(parent) for f in files for parent in Path(f).parents}
    dead = []
    for link in links_of(path):
        parts = urlsplit(link)
        if parts.scheme or parts.netloc:
            continue
        target = (path.parent / unquote(parts.path)).resolve() if parts.path else path
        try:
            relative = target.relative_to(Path(root).resolve()).as_posix()
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


#: A code host's Markdown box, as GitHub draws a README: at most 894 px wide, 16 px text, its table style.
CODE_HOST_CSS = """
body{margin:0}
article{box-sizing:border-box;max-width:894px;margin:0 auto;padding:16px 0;font:16px/1.5 "Noto Sans",Helvetica,Arial,sans-serif}
@media (max-width:926px){article{margin:0 16px}}
h1,h2{border-bottom:1px solid #d1d9e0;padding-bottom:.3em} h1{font-size:2em} h2{font-size:1.5em;margin-top:24px}
table{display:block;width:max-content;max-width:100%;overflow:auto;border-collapse:collapse;margin:0 0 16px}
td,th{padding:6px 13px;border:1px solid #d1d9e0} img{max-width:100%} pre{overflow:auto}
"""
#: Most words the README's headline table may hold (its body: what a reader reads, link targets aside).
README_TABLE_WORDS = 250
_README_TABLE = """(t => ({bottom: t.getBoundingClientRect().bottom, overflow: t.scrollWidth - t.clientWidth,
  width: t.scrollWidth, box: t.parentElement.clientWidth,
  words: t.tBodies[0].innerText.split(/\\s+/).filter(Boolean).length,
  sideways: document.documentElement.scrollWidth - window.innerWidth}))(document.querySelector('table'))"""


def measure_readme(browser, readme: str | Path, page: str | Path) -> tuple[dict, list[str]]:
    """The README ``readme`` as a code host renders it (math left as source; written to the HTML file ``page``), in
    ``browser`` (:class:`sparseact.publish.browser.Browser`) at every width of
    :data:`sparseact.publish.browser.WIDTHS`: its headline table's words, its bottom on the first 1400 x 900 screen,
    and what scrolls sideways (the table inside its box, the page), with the problems a reader would meet."""
    from markdown_it import MarkdownIt  # read only by the checks of the front door

    body = MarkdownIt("gfm-like", {"linkify": False}).render(Path(readme).read_text(encoding="utf-8"))
    Path(page).write_text(
        f"<!DOCTYPE html><meta charset='utf-8'><style>{CODE_HOST_CSS}</style><article>{body}</article>"
    )
    measured, problems = {}, []
    for width in WIDTHS:
        browser.set_screen(width)
        browser.load(page)
        table = browser.evaluate(_README_TABLE)
        measured[width] = table
        if table["overflow"] > 0 or table["sideways"] > 0:
            problems.append(
                f"README at {width} px scrolls sideways (table {table['overflow']} px, page {table['sideways']} px)"
            )
    if measured[SCREEN[0]]["bottom"] > SCREEN[1]:
        problems.append(
            f"README's headline table ends at {measured[SCREEN[0]]['bottom']:.0f} px, below the first screen"
        )
    if measured[SCREEN[0]]["words"] > README_TABLE_WORDS:
        problems.append(
            f"README's headline table holds {measured[SCREEN[0]]['words']} words (at most {README_TABLE_WORDS})"
        )
    return measured, problems


#: The element a click led to: the row its fragment names (or a claim page's first statement), where it sits, its
#: text, its premises' link texts and every link text.
_TARGET = """(() => {
  const e = location.hash ? document.getElementById(decodeURIComponent(location.hash.slice(1)))
                          : document.querySelector('table.statements tbody tr');
  if (!e) return null;
  const premises = Array.from(e.querySelectorAll('small')).find(s => s.innerText.startsWith('Premises:'));
  return {top: e.getBoundingClientRect().top, text: e.innerText, selector: e.id ? `[id="${e.id}"]` : 'table.statements tbody tr',
          premises: premises ? Array.from(premises.querySelectorAll('a'), a => a.innerText) : [],
          links: Array.from(e.querySelectorAll('a'), a => a.innerText)};
})()"""
#: The bottom of the link reading ``text`` in the headline row whose first cell starts with ``row`` (null: none).
_LINK_BOTTOM = """(([row, text]) => {
  const tr = Array.from(document.querySelectorAll('table.headline tr'))
    .find(r => r.cells.length && r.cells[0].innerText.trim().startsWith(row));
  const a = tr && Array.from(tr.querySelectorAll('a')).find(a => a.innerText.trim() === text);
  return a ? a.getBoundingClientRect().bottom : null;
})(%s)"""
#: What a certificate's page says, in this order of headings.
_CERTIFICATE_SAYS = (
    "Theorem 17 fails as printed",
    "Refutes\nTheorem 17",
    "The violation\n",
    "Margin the checker proved\n",
)


def reader_path(browser, front: str | Path, shots: str | Path | None = None) -> tuple[dict, list[str]]:
    """A fresh reader at 1400 x 900 opens the report's ``front`` page and clicks links by their visible text: Theorem
    8's headline row "why it is proved" leads to its row, proved, with its argument and premises, and its first premise
    to that premise's argument; Theorem 17's "why it fails" leads to its row, fails as stated, and its certificate
    link to the page that names it with the violation and the margin; the navigation's "Open" leads to the open
    statements. Each target must be in view, near the top.
    Returns the clicks each answer took, and the problems met; with ``shots``, a screenshot of every step there."""
    problems: list[str] = []

    def shot(name: str) -> None:
        if shots is not None:
            browser.screenshot(Path(shots) / name)

    def target(name: str) -> dict:
        shot(name)
        found = browser.evaluate(_TARGET)
        # an anchor scrolled to the top sits there up to the layout's fractional pixels
        if found is None or not -1 < found["top"] < SCREEN[1] / 2:
            raise BrowserError(f"{name}: the click led to no row in view ({browser.evaluate('location.href')})")
        return found

    browser.set_screen(*SCREEN)
    clicks = {}
    try:
        for row, why in (("Theorem 8", "why it is proved"), ("Theorem 17", "why it fails")):
            browser.load(front)
            bottom = browser.evaluate(_LINK_BOTTOM % json.dumps([row, why]))
            if bottom is None or bottom > SCREEN[1]:
                problems.append(f"{row}'s {why!r} is not on the front page's first screen")
        shot("0-front.png")
        browser.click("why it is proved", "table.headline", row="Theorem 8")
        theorem8 = target("a1-theorem8.png")
        if not (theorem8["text"].startswith("Theorem 8") and "proved" in theorem8["text"] and theorem8["premises"]):
            problems.append("Theorem 8's row does not read proved with its premises")
        else:
            browser.click(theorem8["premises"][0], theorem8["selector"])
            premise = target("a2-premise.png")
            if ("proved" in premise["text"] or "cited" in premise["text"]) and len(premise["text"]) > 200:
                clicks["why Theorem 8 is proved"] = 2
            else:
                problems.append("Theorem 8's first premise does not show its own argument")
        browser.load(front)
        browser.click("why it fails", "table.headline", row="Theorem 17")
        theorem17 = target("b1-theorem17.png")
        if not (theorem17["text"].startswith("Theorem 17") and "fails as stated" in theorem17["text"]):
            problems.append("Theorem 17's row does not read fails as stated")
        elif "certificate" not in theorem17["links"]:
            problems.append("Theorem 17's row links no certificate")
        else:
            clicks["why Theorem 17 fails"] = 1
            browser.click("certificate", theorem17["selector"])
            shot("b2-certificate.png")
            text = browser.evaluate("document.body.innerText")
            missing = [said for said in _CERTIFICATE_SAYS if said not in text]
            if missing:
                problems.append(f"Theorem 17's certificate page does not say {missing[0]!r}")
            else:
                clicks["Theorem 17's certificate"] = 2
        browser.load(front)
        browser.click("Open", "nav")
        opened = target("c1-open.png")
        if opened["text"].strip().startswith("Open"):
            clicks["what is open"] = 1
        else:
            problems.append("the navigation's 'Open' does not lead to the open statements")
    except BrowserError as exc:
        problems.append(str(exc))
    return clicks, problems


def checkout_of(folder: str | Path) -> Path | None:
    """The root of the git checkout that holds ``folder``, or ``None`` outside one (or without git)."""
    try:
        found = subprocess.run(
            ["git", "-C", str(folder), "rev-parse", "--show-toplevel"], capture_output=True, text=True, check=True
        )
    except (OSError, subprocess.CalledProcessError):
        return None
    return Path(found.stdout.strip())


def check_front_door(browser, front: str | Path, repository: str | Path, scratch: str | Path) -> tuple[list, list]:
    """What a reader meets first, measured: the README of the checkout ``repository`` as a code host renders it
    (:func:`measure_readme`, its page written in the folder ``scratch``), the dead links of its committed documents
    (:func:`dead_links`; none counted outside a git checkout) and the clicks from the report's ``front`` page to the
    answers (:func:`reader_path`). Returns the lines that say what was measured, and the problems."""
    root, lines, problems = Path(repository).resolve(), [], []
    if (root / "README.md").is_file():
        measured, found = measure_readme(browser, root / "README.md", Path(scratch) / "README.html")
        first = measured[SCREEN[0]]
        lines.append(
            f"README as a code host renders it: headline table {first['words']} words, ending at "
            f"{first['bottom']:.0f} of {SCREEN[1]} px at {SCREEN[0]} px; table width in its box "
            + ", ".join(f"{m['width']}/{m['box']} px" for m in measured.values())
            + "; sideways scroll at "
            + ", ".join(f"{width} px {max(m['overflow'], m['sideways'], 0)}" for width, m in measured.items())
        )
        problems += found
    try:
        files = committed_files(root)
    except (OSError, subprocess.CalledProcessError):
        files = set()
    if files:
        dead = {name: dead_links(root / name, files, root) for name in documents(files)}
        lines.append(f"links: {sum(map(len, dead.values()))} dead in {len(dead)} committed documents")
        problems += [f"{name}: dead link {link}" for name, links in dead.items() for link in links]
    clicks, found = reader_path(browser, front)
    lines.append(
        "reader: " + ", ".join(f"{answer} in {count} click{'s' * (count != 1)}" for answer, count in clicks.items())
    )
    return lines, problems + found
