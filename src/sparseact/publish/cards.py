"""Tables that keep every column on a narrow screen and on paper: each row a card, each cell under its column's name.

A table as wide as the report's (eight columns of sentences) cannot fit 800 px or a printed page without
cutting its columns to a letter's width or scrolling some of them out of sight. Below :data:`CARD_WIDTH` and in
print, :data:`CARDS_CSS` lays every table that :func:`label_cells` prepared out as a stack of cards: one card
per row, one line per cell, the cell's column name before it (from its ``data-label``). Wider screens keep the
table. :data:`PRINT_OPEN_CSS` opens every folded section (``<details>``) on paper.
"""

from __future__ import annotations

import html
import re

__all__ = ["CARDS_CSS", "CARD_WIDTH", "PRINT_OPEN_CSS", "label_cells"]

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
