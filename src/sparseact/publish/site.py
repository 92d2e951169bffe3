"""The rendered pages as committed files, ``docs/site``: read after a clone, served as they are by a static host.

A code host shows an HTML file as its source, and the run's pages link figures and tables that are not committed.
:func:`write_site` copies the report (as the site's ``index.html``), the argument graph, the certificate pages, the
claim pages and the data tables (CSV) they summarise into one folder, as the workflow copies the README's figures to
``docs/figures``. A link to another of these files (a graph node's link to its claim page too) leads to its copy; a
link to a committed result (the erratum
note, a certificate's JSON, the tables at the results folder's root) or to a Markdown file of the docs leads to that
file in the repository; a link to a run file that is not committed (figures, tables, result files, timings) is left as
its text, and an image of one is dropped (the claim pages embed every figure); an element of class :data:`RUN_ONLY`
that holds such a link (the timings page's entry in the report's navigation, its section) is dropped whole. A
``<style>`` block that several pages share is written once, as ``style/<digest>.css``. The bytes depend on the pages
alone, so a rerun writes the same files. docs/workflow.md says why the site is committed.
"""

from __future__ import annotations

import hashlib
import html
import os
import posixpath
import re
from collections import Counter
from collections.abc import Iterable, Mapping
from pathlib import Path

from sparseact.publish.codehost import committed_result
from sparseact.publish.graph import PAGE_ATTRIBUTE
from sparseact.runtime.outputs import MANIFEST_NAME, SNAKEMAKE_FILES, manifest_names, write_manifest
from sparseact.runtime.provenance import atomic_write_text

#: Where the site is committed, relative to the repository root, and its entry page (README links it).
SITE_FOLDER = "docs/site"
SITE_ENTRY = f"{SITE_FOLDER}/index.html"
#: Where the docs say how the site is read and served, and why it is committed (README links it).
SITE_SERVING = "docs/workflow.md#reading-the-rendered-pages-without-running-anything"

_ANCHOR = re.compile(r"<a\b([^>]*)>(.*?)</a>", re.S)
_IMAGE = re.compile(r"<img\b[^>]*>")
#: An attribute that holds a link: ``href``, ``src`` and a graph node's row on its claim page (its script builds that
#: link when the node is selected).
_TARGET = re.compile(rf'(?<![\w-])(?:href|src|{PAGE_ATTRIBUTE})="([^"]*)"')
_STYLE = re.compile(r"<style\b([^>]*)>(.*?)</style>", re.S)
#: The class of an element (a ``<span>`` or ``<div>`` with no element of its own kind inside) that only points at a
#: run file: the site drops it whole when that file is not committed, so that no entry is left without its link.
RUN_ONLY = "run-only"
_RUN_ONLY = re.compile(rf'<(span|div) class="{RUN_ONLY}">(.*?)</\1>', re.S)
_SCHEME = re.compile(r"[A-Za-z][A-Za-z0-9+.-]*:")
#: A git revision (a run's provenance): a committed page cannot name the commit that holds it, so the site says so.
_REVISION = re.compile(r"\b[0-9a-f]{40}(?:-dirty)?\b")
SITE_REVISION = "the commit that holds this copy"
#: The AVX-512 features the run switched off (``sparseact.runtime.provenance.portable_cpu_environment``): the list is
#: the machine's, the code path (x86-64-v3) every machine's, so the committed copy names the path, not the list.
_CPU_FEATURES = re.compile(r"NPY_DISABLE_CPU_FEATURES=[A-Z0-9_ ]+")
SITE_CPU_FEATURES = "NPY_DISABLE_CPU_FEATURES=(the AVX-512 features of the machine)"


def site_pages(results_dir: str | Path) -> dict[str, str]:
    """Each page of the run (relative to ``results_dir``) -> its place in the site. ``FileNotFoundError`` naming the
    report or the graph when it is missing, ``ValueError`` naming a page that is not a regular file."""
    results = Path(results_dir)
    pages = {"report/index.html": "index.html", "report/graph.html": "graph.html"}
    for name in pages:
        if not (results / name).exists():
            raise FileNotFoundError(f"{results / name}: no such page (the workflow's report job writes it)")
    certificates = results / "report" / "certificates"
    for path in sorted(certificates.rglob("*.html")):
        pages[path.relative_to(results).as_posix()] = "certificates/" + path.relative_to(certificates).as_posix()
    for path in sorted((results / "pages").glob("*.html")):
        pages[f"pages/{path.name}"] = f"pages/{path.name}"
    for name in pages:
        if not (results / name).is_file():  # a FIFO or a device would block or never end
            raise ValueError(f"{results / name}: not a regular file")
    return pages


def site_tables(results_dir: str | Path) -> dict[str, str]:
    """Each data table of the run (``tables/<claim>/<name>.csv``, relative to ``results_dir``) -> its place in the
    site, where the claim pages' links to it lead: the full table one link away from its printed summary."""
    tables = Path(results_dir) / "tables"
    return {
        f"tables/{path.relative_to(tables).as_posix()}": f"tables/{path.relative_to(tables).as_posix()}"
        for path in sorted(tables.glob("*/*.csv"))
        if path.is_file()
    }


def site_link(target: str, source: str, pages: Mapping[str, str], results_from_site: str) -> str | None:
    """The escaped ``href`` value ``target`` of the run's page ``source`` becomes in the site, or ``None`` where it
    leads to a run file that is not committed. ``results_from_site``: the results folder, relative to the site."""
    location, mark, fragment = target.partition("#")
    if not location or _SCHEME.match(location):
        return target
    path = posixpath.normpath(posixpath.join(posixpath.dirname(source), html.unescape(location)))
    if path in pages:
        new = pages[path]
    elif committed_result(path) or _repository_document(path):
        new = posixpath.normpath(posixpath.join(results_from_site, path))
    else:
        return None
    return html.escape(posixpath.relpath(new, posixpath.dirname(pages[source]) or ".")) + mark + fragment


def _repository_document(path: str) -> bool:
    """``path`` (normalised, relative to the results folder) is a Markdown file of the repository's docs (the corner
    rule's section, :data:`sparseact.publish.links.CORNER_RULE`), beside the results folder and committed."""
    return path.startswith("../docs/") and path.endswith(".md") and "/../" not in path


def site_page(text: str, source: str, pages: Mapping[str, str], results_from_site: str) -> str:
    """The run's page ``source`` (its HTML ``text``) with every link and image relocated by :func:`site_link`, and
    every git revision replaced by :data:`SITE_REVISION` and the machine's AVX-512 features by
    :data:`SITE_CPU_FEATURES`, so that a rerun of the committed results gives the same bytes at any commit and on any
    x86-64-v3 machine; a :data:`RUN_ONLY` element with a link to a file that is not committed is dropped."""

    def kept(match: re.Match) -> str:
        targets = (found.group(1) for found in _TARGET.finditer(match.group(2)))
        return "" if any(site_link(t, source, pages, results_from_site) is None for t in targets) else match.group(0)

    def relocate(tag: str, drop: str) -> str:
        parts, end = [], 0
        for found in _TARGET.finditer(tag):
            new = site_link(found.group(1), source, pages, results_from_site)
            if new is None:
                return drop
            parts.append(tag[end : found.start(1)] + new)
            end = found.end(1)
        return "".join(parts) + tag[end:]

    def anchor(match: re.Match) -> str:
        opening = relocate(f"<a{match.group(1)}>", "")
        return f"{opening}{match.group(2)}</a>" if opening else match.group(2)

    text = _IMAGE.sub(lambda match: relocate(match.group(0), ""), _ANCHOR.sub(anchor, _RUN_ONLY.sub(kept, text)))
    return _CPU_FEATURES.sub(SITE_CPU_FEATURES, _REVISION.sub(SITE_REVISION, text))


def shared_styles(texts: Iterable[str]) -> dict[str, str]:
    """Each ``<style>`` block's content found in more than one of ``texts`` -> its file in the site."""
    counts = Counter(content for text in texts for content in {m.group(2) for m in _STYLE.finditer(text)})
    return {
        content: f"style/{hashlib.sha256(content.encode()).hexdigest()[:16]}.css"
        for content, count in counts.items()
        if count > 1
    }


def write_site(results_dir: str | Path, out: str | Path) -> list[str]:
    """Write the site of the run in ``results_dir`` into ``out`` (what an earlier call wrote there is replaced, as its
    manifest lists it; a folder holding other files is refused with ``ValueError``); return the files written."""
    results, folder = Path(results_dir), Path(out)
    pages, tables = site_pages(results), site_tables(results)
    texts = {source: (results / source).read_text(encoding="utf-8") for source in pages}
    styles = shared_styles(texts.values())
    back = Path(os.path.relpath(results, folder)).as_posix()
    files = {css: content for content, css in styles.items()}
    files |= {place: (results / table).read_text(encoding="utf-8") for table, place in tables.items()}
    for source, text in texts.items():
        here = posixpath.dirname(pages[source]) or "."

        def linked(match: re.Match, here: str = here) -> str:
            if match.group(2) not in styles:
                return match.group(0)
            return f'<link rel="stylesheet" href="{posixpath.relpath(styles[match.group(2)], here)}"{match.group(1)}>'

        files[pages[source]] = _STYLE.sub(linked, site_page(text, source, pages | tables, back))
    _clear(folder)
    for name in sorted(files):
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        atomic_write_text(folder / name, files[name])
    write_manifest(folder, sorted(files))
    return sorted(files)


def _clear(folder: Path) -> None:
    """Remove the files an earlier :func:`write_site` wrote in ``folder`` (its manifest), then empty folders; refuse
    a folder that holds anything else."""
    if not folder.exists():
        return
    listed = set(manifest_names(folder))
    others = sorted(
        path
        for path in folder.rglob("*")
        if path.is_file()
        and path.name not in (MANIFEST_NAME, *SNAKEMAKE_FILES)
        and path.relative_to(folder).as_posix() not in listed
    )
    if others:
        raise ValueError(f"{folder}: holds {others[0]}, which no earlier site wrote; give a new or empty folder")
    for name in listed:
        (folder / name).unlink(missing_ok=True)
    for path in sorted((p for p in folder.rglob("*") if p.is_dir()), key=lambda p: -len(p.parts)):
        if not any(path.iterdir()):
            path.rmdir()
