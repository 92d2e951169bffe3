"""Anchors of the argument graph's ids on the pages, and links from every id a page prints to them.

The verification report (``report/index.html``) gives every statement row, cited fact, erratum and check an
anchor (:func:`anchor`): ``statement-<id>``, ``fact-<name>``, ``erratum-<id>``, ``check-<claim>/<name>``.
:func:`report_targets` maps each id to its anchor on the report, seen from a page; :func:`link_ids` turns
every such id in a rendered HTML fragment (outside tags, links and typeset math) into a link, and
:func:`link_corner_rule` every mention of the corner rule on a page into a link to its section of the docs.
"""

from __future__ import annotations

import functools
import html
import os
import re
from collections.abc import Iterable, Mapping
from pathlib import Path

from sparseact.paper import FACT_PREFIX, premise_kind

#: The paper as published in the proceedings (PMLR 247:406-425), the version whose numbering the project uses.
PAPER_PDF = "https://proceedings.mlr.press/v247/awasthi24a/awasthi24a.pdf"
#: Its version on arXiv (the first and, when the project was written, only one).
PAPER_ARXIV = "https://arxiv.org/abs/2406.17989v1"
#: How a link to :data:`PAPER_PDF` names it.
PAPER_VERSION = "PMLR 247:406-425, COLT 2024"
#: The paper's authors, as its first page names them.
PAPER_AUTHORS = "Pranjal Awasthi, Nishanth Dikkala, Pritish Kamath and Raghu Meka"

#: An HTML fragment's pieces that are never rewritten: a link, typeset math, a tag.
_UNTOUCHED = re.compile(r"(<a\b.*?</a>|<math\b.*?</math>|<[^>]*>)", re.DOTALL)


def anchor(identifier: str, erratum: bool = False) -> str:
    """The ``id`` attribute of ``identifier``'s row: a statement, a fact (``fact:...``), a check (``claim/name``),
    or with ``erratum=True`` an erratum root cause."""
    if erratum:
        return f"erratum-{identifier}"
    kind = premise_kind(identifier)
    if kind == "fact":
        return "fact-" + identifier[len(FACT_PREFIX) :]
    return f"{kind}-{identifier}"


def report_targets(
    statement_ids: Iterable[str], fact_ids: Iterable[str], check_ids: Iterable[str], page: str = ""
) -> dict[str, str]:
    """Each id -> ``page#anchor`` (``page`` empty: an anchor on the report itself)."""
    return {identifier: f"{page}#{anchor(identifier)}" for identifier in [*statement_ids, *fact_ids, *check_ids]}


def link_ids(fragment: str, targets: Mapping[str, str]) -> str:
    """``fragment`` (rendered HTML) with every id of ``targets`` in its text made a link to its target.

    An id counts only whole (``lemma9`` is not found inside ``lemma9-sharp``); text inside a link, a ``<math>``
    element or a tag is left as it is.
    """
    if not targets:
        return fragment
    pattern, unescaped = _id_pattern(frozenset(targets))

    def link(match: re.Match) -> str:
        return f'<a href="{html.escape(targets[unescaped[match.group(1)]])}">{match.group(1)}</a>'

    pieces = _UNTOUCHED.split(fragment)
    return "".join(piece if i % 2 else pattern.sub(link, piece) for i, piece in enumerate(pieces))


@functools.lru_cache(maxsize=16)
def _id_pattern(identifiers: frozenset[str]) -> tuple[re.Pattern, dict[str, str]]:
    """The pattern :func:`link_ids` finds ``identifiers`` with (longest first, HTML-escaped, whole ids only), and each
    escaped id's id: made once per set of ids (a page links every fragment to the same set: a claim header has about
    70 fragments and the report's targets about 300 ids)."""
    names = "|".join(re.escape(html.escape(k)) for k in sorted(identifiers, key=lambda k: (-len(k), k)))
    return re.compile(rf"(?<![\w:/.-])({names})(?![\w/]|-\w)"), {html.escape(k): k for k in identifiers}


#: The section of the developers' docs that states the one rule for degenerate corners: its file, relative to the
#: repository's root (the workflow's working folder), and its anchor.
CORNER_RULE = "docs/statements-graph.md"
CORNER_RULE_SECTION = "degenerate-corners-one-rule-for-every-statement"
#: A mention of the rule in a statement's or a check's words, the file named in brackets or not.
_CORNER_RULE = re.compile(r"\b(the (?:degenerate-)?corner rule)(?: \(docs/statements-graph\.md\))?")
#: A page's pieces a mention is never linked in: a link, typeset math, code, a picture, a script or style, a tag.
_NO_RULE_LINK = re.compile(
    r"(<a\b.*?</a>|<math\b.*?</math>|<code\b.*?</code>|<svg\b.*?</svg>|<script\b.*?</script>|<style\b.*?</style>"
    r"|<[^>]*>)",
    re.DOTALL,
)


def link_corner_rule(page: str, path: str | Path) -> str:
    """The HTML ``page``, to be written to ``path``, with every mention of the corner rule (outside links, math,
    code, pictures and tags) a relative link to its section of :data:`CORNER_RULE`; unchanged where that file is
    not in the working folder (a run outside the repository), so that no link leads nowhere."""
    rule = Path(CORNER_RULE)
    if not rule.is_file():
        return page
    href = html.escape(f"{Path(os.path.relpath(rule, Path(path).parent)).as_posix()}#{CORNER_RULE_SECTION}")
    pieces = _NO_RULE_LINK.split(page)
    return "".join(
        piece if i % 2 else _CORNER_RULE.sub(lambda m: f'<a href="{href}">{m.group(1)}</a>', piece)
        for i, piece in enumerate(pieces)
    )
