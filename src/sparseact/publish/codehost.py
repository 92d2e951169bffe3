"""A claim's notebook as a code host shows it: ``results/notebooks/<claim>.ipynb``, committed.

A code host renders a notebook with its outputs, but only the results committed beside it are there
(``.gitignore``): the result files at the results folder's root and the folders :data:`CODE_HOST_FOLDERS`. The
executed notebook's links, made for the claim's HTML page (``pages/<claim>.html``, at the same depth), also reach the
run's tables and figures; :func:`code_host_notebook` keeps a link only where it leads to a committed file (a
certificate's JSON through its rendered view, ``.md``) and leaves the others' text unlinked. Its first cell is the
statuses of the claim's statements (:func:`sparseact.publish.report.claim_status_markdown`), so that the notebook
opens on them.
"""

from __future__ import annotations

import copy
import html
import posixpath
import re

#: The folders of the results folder that are committed (``.gitignore``); every file at its root is too.
CODE_HOST_FOLDERS = ("certificates", "erratum", "notebooks")
#: Where a committed notebook lies, relative to the results folder.
NOTEBOOK_FOLDER = "notebooks"

_HTML_LINK = re.compile(r'<a href="([^"]*)"\s*>(.*?)</a>', re.S)
_MARKDOWN_LINK = re.compile(r"(?<!!)\[([^\[\]]*)\]\(([^)\s]+)\)")


def committed_result(path: str) -> bool:
    """``path`` (normalised, relative to the results folder) is among the results committed beside the notebooks: a
    file at the folder's root or under one of :data:`CODE_HOST_FOLDERS`."""
    parts = path.split("/")
    return parts[0] != ".." and (len(parts) == 1 or parts[0] in CODE_HOST_FOLDERS)


def code_host_link(target: str) -> str | None:
    """``target`` (relative to :data:`NOTEBOOK_FOLDER`) where it leads to a committed file, a certificate's JSON
    replaced by its view; ``None`` where it leads to one of the run's other files."""
    location, _, fragment = target.partition("#")
    if re.match(r"[a-z]+:", location) or not location:
        return target
    path = posixpath.normpath(posixpath.join(NOTEBOOK_FOLDER, location))
    if not committed_result(path):
        return None
    if path.startswith("certificates/") and path.endswith(".json"):
        location = location.removesuffix(".json") + ".md"
    return location + (f"#{fragment}" if fragment else "")


def _unlink_html(text: str) -> str:
    def keep(match: re.Match) -> str:
        kept = code_host_link(html.unescape(match.group(1)))
        return match.group(2) if kept is None else f'<a href="{html.escape(kept)}">{match.group(2)}</a>'

    return _HTML_LINK.sub(keep, text)


def _unlink_markdown(text: str) -> str:
    def keep(match: re.Match) -> str:
        kept = code_host_link(match.group(2))
        return match.group(1) if kept is None else f"[{match.group(1)}]({kept})"

    return _MARKDOWN_LINK.sub(keep, text)


def code_host_notebook(nb, status_markdown: str):
    """A copy of the executed notebook ``nb`` that opens on ``status_markdown`` and links only committed files."""
    out = copy.deepcopy(nb)
    for cell in out.cells:
        if cell.cell_type == "markdown":
            cell.source = _unlink_markdown(cell.source)
        for output in cell.get("outputs", []):
            data = output.get("data", {})
            if "text/html" in data:
                data["text/html"] = _unlink_html("".join(data["text/html"]))
            if "text/markdown" in data:
                data["text/markdown"] = _unlink_markdown("".join(data["text/markdown"]))
    first = next((c for c in out.cells if c.cell_type == "markdown"), None)
    if first is None or not first.source.startswith("# "):
        raise ValueError("the notebook does not open on a level-1 title to put the statuses under")
    title, _, rest = first.source.partition("\n")
    first.source = f"{title}\n\n{status_markdown.strip()}\n\n{rest.lstrip()}"
    return out
