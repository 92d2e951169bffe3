"""Tables that keep every column on a narrow screen and on paper: each row a card, each cell under its column's name.

A table as wide as the report's (eight columns of sentences) cannot fit 800 px or a printed page without
cutting its columns to a letter's width or scrolling some of them out of sight. Below :data:`CARD_WIDTH` and in
print, :data:`CARDS_CSS` lays every table that :func:`label_cells` prepared out as a stack of cards: one card
per row, one line per cell, the cell's column name before it (from its ``data-label``). Wider screens keep the
table. :data:`PRINT_OPEN_CSS` opens every folded section (``<details>``) on paper.

On paper a page is summarised (:func:`summarise_for_print`, :data:`PRINT_SUMMARY_CSS`), so that the report and a
claim page print in a few pages: a table marked ``sa-lines`` prints one line per row (its cells marked
``sa-no-print`` left out), any other long table its first :data:`PRINT_ROWS` rows (cards side by side), a check
card its first line; a note under each says where the whole is (the table on screen, or its CSV).
"""

from __future__ import annotations

import html
import re

__all__ = [
    "CARDS_CSS",
    "CARD_WIDTH",
    "PRINT_FIGURE_CM",
    "PRINT_OPEN_CSS",
    "PRINT_ROWS",
    "PRINT_SUMMARY_CSS",
    "label_cells",
    "summarise_for_print",
]

#: Screen width (CSS pixels) below which tables become cards.
CARD_WIDTH = 1100


def _card_rules(table: str) -> str:
    """The rules that lay ``table`` (a selector) out as cards."""
    cells = f"{table} > tbody > tr > td, {table} > tbody > tr > th"
    return f"""
  {table}, {table} > tbody, {table} > tbody > tr, {cells} {{
    display: block !important; width: auto !important; max-width: none !important; min-width: 0 !important; }}
  {table} {{ table-layout: auto !important; border: none !important; }}
  {table} > thead {{ display: none !important; }}
  {table} > tbody > tr {{ border: 1px solid #bbb; margin: 0 0 0.6em; break-inside: avoid; }}
  {cells} {{ border: none !important; border-bottom: 1px solid #e4e4e4 !important; text-align: left !important;
    white-space: normal !important; overflow-wrap: break-word !important; word-break: normal !important; }}
  {table} > tbody > tr > [data-label]:not([data-label=""])::before {{
    content: attr(data-label) ": "; font-weight: bold; color: #444; }}
  .scroll:has(> {table}) {{ overflow: visible !important; }}
"""


#: Tables marked ``sa-cards`` as cards below :data:`CARD_WIDTH` and in print; those marked ``sa-cards-always`` too
#: (a table whose columns cannot all fit any screen, such as the report's tightness table) as cards everywhere.
CARDS_CSS = f"@media print, (max-width: {CARD_WIDTH - 0.02}px) {{{_card_rules('table.sa-cards')}}}" + _card_rules(
    "table.sa-cards.sa-cards-always"
)

#: Folded sections open on paper (Chromium's ``::details-content``), and their "click to open" hints go.
PRINT_OPEN_CSS = """
@media print {
  details::details-content { content-visibility: visible !important; display: block !important; }
  details > summary { list-style: none; }
  .screen-only { display: none !important; }
}
"""

#: Rows of a long table that print (:func:`summarise_for_print`); the rest are one link away.
PRINT_ROWS = 3

#: Height (cm) a claim page's figure (``.sa-figure``) prints at most: a tall one keeps its shape, narrower.
PRINT_FIGURE_CM = 10

_LINES = "table.sa-cards.sa-lines > tbody > tr"

#: On paper: ``sa-lines`` tables one line per row (cells side by side, no column names, ``sa-no-print`` cells and
#: line breaks left out), ``sa-cut`` tables their first :data:`PRINT_ROWS` rows (cards side by side), check cards
#: (``.sa-check``) their first line, figures at most :data:`PRINT_FIGURE_CM` tall; ``sa-print-only`` notes (where
#: the whole is) show on paper alone.
PRINT_SUMMARY_CSS = f"""
@media print {{
  {_LINES} {{ border: none !important; margin: 0 0 0.15em !important; }}
  {_LINES} > td, {_LINES} > th {{ display: inline !important; border: none !important; padding: 0 0.6em 0 0 !important; }}
  {_LINES} > [data-label]::before {{ content: none !important; }}
  {_LINES} > .sa-no-print, {_LINES} > td > br, {_LINES} small.gloss {{ display: none !important; }}
  {_LINES} > td > br + small {{ margin-left: 0.4em; }}
  table.sa-cards.sa-cut > tbody > tr {{ display: inline-block !important; vertical-align: top;
    box-sizing: border-box; width: calc({100 / PRINT_ROWS:.2f}% - 0.4em) !important; margin-right: 0.3em; }}
  table.sa-cut > tbody > tr:nth-child(n+{PRINT_ROWS + 1}),
  table.sa-cards.sa-cut > tbody > tr:nth-child(n+{PRINT_ROWS + 1}) {{ display: none !important; }}
  .sa-check > :not(:first-child) {{ display: none !important; }}
  .sa-check {{ margin: 0.1em 0 !important; padding: 0 0.5em !important; }}
  .sa-figure img {{ max-height: {PRINT_FIGURE_CM}cm; width: auto !important; }}
}}
@media not print {{ .sa-print-only {{ display: none !important; }} }}
"""

_TABLE = re.compile(r"<table\b([^>]*)>(.*?)</table>", re.DOTALL | re.IGNORECASE)
_THEAD = re.compile(r"<thead\b[^>]*>(.*?)</thead>", re.DOTALL | re.IGNORECASE)
_ROW = re.compile(r"<tr\b[^>]*>(.*?)</tr>", re.DOTALL | re.IGNORECASE)
_HEADER_CELL = re.compile(r"<th\b([^>]*)>(.*?)</th>", re.DOTALL | re.IGNORECASE)
_CELL_START = re.compile(r"<(td|th)\b(?![^>]*\bdata-label=)", re.IGNORECASE)
_TAG = re.compile(r"<[^>]*>")


def label_cells(page: str) -> str:
    """``page`` with every simple table (one header row, no spans, no table inside) marked ``sa-cards`` and each of
    its body cells given its column's name as ``data-label``; other tables are left as they are.

    Parameters
    ----------
    page : str
        An HTML page or fragment.

    Returns
    -------
    str
        The page, to be shown with :data:`CARDS_CSS`.
    """
    return _TABLE.sub(_label_table, page)


def _label_table(match: re.Match) -> str:
    attributes, content = match.group(1), match.group(2)
    head = _THEAD.search(content)
    if head is None or "<table" in content.lower():
        return match.group(0)
    rows = _ROW.findall(head.group(1))
    if len(rows) != 1 or re.search(r"\b(colspan|rowspan)=", content, re.IGNORECASE):
        return match.group(0)
    names = [" ".join(html.unescape(_TAG.sub(" ", cell)).split()) for _, cell in _HEADER_CELL.findall(rows[0])]
    body = content[head.end() :]

    def label_row(row: re.Match) -> str:
        cells = iter(names)
        return _CELL_START.sub(lambda c: f'<{c.group(1)} data-label="{html.escape(next(cells, ""))}"', row.group(0))

    body = _ROW.sub(label_row, body)
    if re.search(r'\bclass="', attributes):
        attributes = re.sub(r'\bclass="', 'class="sa-cards ', attributes, count=1)
    else:
        attributes += ' class="sa-cards"'
    return f"<table{attributes}>{content[: head.end()]}{body}</table>"


_CLASS = re.compile(r'\bclass="([^"]*)"', re.IGNORECASE)
_ID = re.compile(r'\bid="([^"]*)"', re.IGNORECASE)
_CSV_TITLE = re.compile(r'<p>(?:(?!</?p\b).)*?href="([^"]+\.csv)"(?:(?!</?p\b).)*</p>\s*$', re.DOTALL | re.IGNORECASE)
#: How far before a table its title paragraph (with its CSV link) may start.
_TITLE_CHARS = 2000
_FIRST_CARD = re.compile(r'<div class="sa-check\b', re.IGNORECASE)


def summarise_for_print(page: str, name: str) -> str:
    """``page`` (an HTML page or fragment, written to the file ``name``) with its long parts marked for print
    (:data:`PRINT_SUMMARY_CSS`) and a note under each, printed only, linking the whole: a table marked ``sa-lines``
    (one line per row), any other table of more than :data:`PRINT_ROWS` body rows not marked ``sa-print-whole``
    (cut to its first rows; its whole is its CSV when the paragraph just before the table links one, else the
    table on screen), and the check cards (``.sa-check``: their first lines).

    Parameters
    ----------
    page : str
        The page, its tables as :func:`label_cells` leaves them.
    name : str
        The page's file name: the notes link ``name#<table id>`` (a table without an id gets ``sa-table-<n>``).
    """
    count = 0

    def mark(match: re.Match) -> str:
        nonlocal count
        attributes, content = match.group(1), match.group(2)
        found = _CLASS.search(attributes)
        classes = found.group(1).split() if found else []
        rows = len(_ROW.findall(content)) - (1 if _THEAD.search(content) else 0)
        lines = "sa-lines" in classes
        if "sa-print-whole" in classes or (not lines and rows <= PRINT_ROWS):
            return match.group(0)
        count += 1
        known = _ID.search(attributes)
        table_id = known.group(1) if known else f"sa-table-{count}"
        if not known:
            attributes += f' id="{table_id}"'
        whole = f'<a href="{html.escape(name)}#{html.escape(table_id)}">on screen</a>'
        if lines:
            note = f"Printed one line per row; the whole table: {whole}."
        else:
            attributes = _set_classes(attributes, [*classes, "sa-cut"])
            csv = _CSV_TITLE.search(page, max(0, match.start() - _TITLE_CHARS), match.start())
            if csv:
                whole = f'<a href="{csv.group(1)}">its CSV</a>'
            note = f"Printed: the first {PRINT_ROWS} of {rows} rows; the whole table: {whole}."
        return f'<table{attributes}>{content}</table><p class="sa-print-only sa-muted">{note}</p>'

    page = _TABLE.sub(mark, page)
    card = _FIRST_CARD.search(page)
    if card:
        note = (
            '<p class="sa-print-only sa-muted">Printed one line per check; each check\'s statement, measurement and '
            f'notes: <a href="{html.escape(name)}#sa-checks">on screen</a>.</p>'
        )
        page = page[: card.start()] + note + '<div id="sa-checks" class="sa-check' + page[card.end() :]
    return page


def _set_classes(attributes: str, classes: list[str]) -> str:
    """A tag's ``attributes`` with its class attribute set to ``classes``."""
    value = f'class="{" ".join(classes)}"'
    return _CLASS.sub(value, attributes, count=1) if _CLASS.search(attributes) else f"{attributes} {value}"
