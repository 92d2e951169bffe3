"""Deterministic tables and result files, and the display helpers of the claim notebooks.

Tables are written as CSV and as LaTeX ``tabular`` with booktabs rules; figures
are written by :mod:`sparseact.publish.plotting`.

The page of a claim (``results/pages/<claim>.html``) reads as a short
paper section: the notebook's markdown says what the paper states and what we
compute; :func:`show_figures` shows the figures with numbered captions and
:func:`show_results` the verdict of every check as a coloured badge with its
one-line reason (for a FAIL: the finding class, the counterexample and the
corrected statement), a compact summary table and the data tables (short ones
inline, long ones linked as CSV). Everything is plain HTML built here, without
random ids, so the rendered pages are byte-identical across runs; the styles are
in :data:`PAGE_CSS`, which :func:`sparseact.publish.notebook_page.notebook_html` inlines.
"""

from __future__ import annotations

import base64
import functools
import html
import json
import os
import re
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import pandas as pd

from sparseact.publish.asciimath import GREEK, render_prose
from sparseact.publish.cells import MISSING, format_value, number_html
from sparseact.publish.ledger import records_to_frame
from sparseact.publish.mathtext import MATH_CSS
from sparseact.publish.palette import VERDICT_STATUS, verdict_colours
from sparseact.publish.site import RUN_ONLY
from sparseact.runtime.provenance import atomic_write_json, atomic_write_text, provenance

#: Card prose: math typeset, a long formula broken after its relations so it wraps inside its card.
_card_text = functools.partial(render_prose, breakable=True)


def _latex_escape(text: str) -> str:
    replacements = {
        "\\": r"\textbackslash{}",
        "&": r"\&",
        "%": r"\%",
        "$": r"\$",
        "#": r"\#",
        "_": r"\_",
        "{": r"\{",
        "}": r"\}",
        "~": r"\textasciitilde{}",
        "^": r"\^{}",
    }
    return "".join(replacements.get(ch, ch) for ch in str(text))


def _format_cell(value, float_format: str) -> str:
    if isinstance(value, (bool, np.bool_)):
        return "yes" if value else "no"
    if isinstance(value, (float, np.floating)):
        return "nan" if np.isnan(value) else format(float(value), float_format)
    return _latex_escape(value)


def latex_table(frame: pd.DataFrame, caption: str | None = None, float_format: str = ".4g") -> str:
    """``frame`` as a LaTeX ``tabular`` with booktabs rules (``\\toprule`` etc.)."""
    align = "".join("r" if pd.api.types.is_numeric_dtype(frame[c]) else "l" for c in frame.columns)
    lines = []
    if caption:
        lines.append(f"% {caption}")
    lines += [
        rf"\begin{{tabular}}{{{align}}}",
        r"\toprule",
        " & ".join(_latex_escape(c) for c in frame.columns) + r" \\",
        r"\midrule",
    ]
    for row in frame.itertuples(index=False):
        lines.append(" & ".join(_format_cell(v, float_format) for v in row) + r" \\")
    lines += [r"\bottomrule", r"\end{tabular}"]
    return "\n".join(lines) + "\n"


def save_table(frame: pd.DataFrame, stem: str | Path, caption: str | None = None) -> list[str]:
    """Write ``frame`` as ``stem.csv`` and ``stem.tex`` (booktabs); return the paths."""
    csv_path, tex_path = Path(f"{stem}.csv"), Path(f"{stem}.tex")
    atomic_write_text(csv_path, frame.to_csv(index=False, lineterminator="\n"))
    atomic_write_text(tex_path, latex_table(frame, caption))
    return [str(csv_path), str(tex_path)]


def publish(
    report,
    *,
    claim: str,
    parameters: dict,
    seed: int,
    result_path: str,
    table_dir: str,
    figure_paths: Sequence[str],
    page_path: str,
) -> pd.DataFrame:
    """Write a claim's tables (CSV + LaTeX) and its result file; return its ledger rows.

    Each ledger row's evidence lists ``figure_paths``, the written tables and
    ``page_path``. The result file holds the rows and the provenance block
    (:func:`sparseact.runtime.provenance.provenance`).

    Parameters
    ----------
    report : ClaimReport
        Records and tables of one claim.
    claim : str
        The claim id (e.g. ``"theorem13"``, ``"lemma9"``), stored in the result file.
    parameters, seed
        The config block and seed the claim ran with.
    result_path, table_dir, page_path : str
        Output locations (relative to the repository root).
    figure_paths : sequence of str
        Figures already saved for this claim.
    """
    table_paths = []
    for table_name, frame in report.tables.items():
        table_paths += save_table(frame, f"{table_dir}/{table_name}", caption=f"{claim}: {table_name}")
    records = [r.with_evidence(list(figure_paths) + table_paths + [page_path]) for r in report.records]
    atomic_write_json(
        result_path,
        {"claim": claim, "checks": [r.to_dict() for r in records], "provenance": provenance(parameters, seed)},
    )
    # the certificates the rows name live in the run's results directory (the parent of claims/)
    return records_to_frame(records, Path(result_path).parent.parent)


#: Styles of the claim pages (inlined in every page by :func:`sparseact.publish.notebook_page.notebook_html`).
PAGE_CSS = (
    """
main { max-width: 1400px; margin: 0 auto; }
.jp-RenderedHTMLCommon .sa-badge { display: inline-block; padding: 0.1em 0.6em; border-radius: 0.8em;
  font-weight: 700; font-size: 0.85em; letter-spacing: 0.03em; white-space: nowrap; }
.sa-check { border-left: 5px solid #8c959f; padding: 0.3em 0.8em; margin: 0.6em 0; background: #f6f8fa; }
"""
    + "".join(
        f".sa-badge.sa-{v} {{ background: {fill}; color: #111; border: 1px solid {border}; }}\n"
        f".sa-check.sa-{v} {{ border-left-color: {border}; }}\n"
        for v, (fill, border) in ((v, verdict_colours(v)) for v in VERDICT_STATUS)
    )
    + """.sa-check p { margin: 0.25em 0; }
.sa-check .sa-id { font-family: var(--jp-code-font-family, monospace); font-size: 0.95em; }
.sa-check .sa-notes { color: #57606a; font-size: 0.9em; }
.jp-RenderedHTMLCommon table.sa-table { table-layout: auto; max-width: 100%; margin: 0.4em 0 1em 0;
  border-collapse: collapse; font-size: 0.9em; }
.jp-RenderedHTMLCommon table.sa-table th, .jp-RenderedHTMLCommon table.sa-table td {
  border: 1px solid #d0d7de; padding: 0.25em 0.5em; vertical-align: top; text-align: left;
  overflow-wrap: break-word; max-width: 32em; }
.jp-RenderedHTMLCommon table.sa-table th { background: #f0f3f6; overflow-wrap: normal; white-space: nowrap; }
.jp-RenderedHTMLCommon table.sa-table td.sa-num { text-align: right; white-space: nowrap;
  font-variant-numeric: tabular-nums; }
.sa-figure { margin: 1em 0 1.5em 0; }
.sa-figure img { max-width: 100%; height: auto; display: block; }
.sa-figure figcaption { font-size: 0.92em; color: #333; max-width: 60em; margin-top: 0.3em; }
.sa-muted { color: #57606a; font-size: 0.9em; }
"""
    + MATH_CSS
    + """
@media print {  /* on paper nothing scrolls: tables become cards (sparseact.publish.cards) */
  .jp-RenderedHTMLCommon, .jp-OutputArea-output { overflow: visible !important; }
  .jp-RenderedHTMLCommon table.sa-table { font-size: 8pt; width: 100%; }
  .sa-check, .sa-figure { break-inside: avoid; }
}
"""
)

#: Rows up to which a data table is shown inline; longer ones are linked as CSV.
INLINE_ROWS = 20
#: Columns up to which a data table is shown inline; wider ones are linked as CSV.
INLINE_COLUMNS = 10
#: Characters beyond which a text column is left out of an inline table (it stays in the CSV).
LONG_TEXT = 160
MISSING_NOTE = f"{MISSING} marks a value that does not apply to the row (empty in the CSV)."


def _display_html(markup: str) -> None:
    # deferred: IPython loads only in a notebook's kernel, which displays the HTML (not in the ledger job)
    from IPython.display import HTML, display

    display(HTML(markup))


def _is_numeric(series: pd.Series) -> bool:
    return pd.api.types.is_numeric_dtype(series) and not pd.api.types.is_bool_dtype(series)


def html_table(frame: pd.DataFrame, badges: Sequence[str] = (), math: Sequence[str] = ()) -> str:
    """``frame`` as a compact HTML table: header row, no index column, numbers right-aligned.

    Text cells are left-aligned and wrap; numbers get :func:`number_html`; the
    columns named in ``badges`` hold verdicts and are shown as coloured badges, those named in ``math`` hold prose
    with formulas, typeset (:func:`sparseact.publish.asciimath.render_prose`).
    A note under the table explains :data:`MISSING` when the table has one.
    """
    numeric = {c: _is_numeric(frame[c]) for c in frame.columns}
    head = "".join(f"<th>{_header_html(str(c))}</th>" for c in frame.columns)
    rows, missing = [], False
    for row in frame.itertuples(index=False):
        cells = []
        for column, value in zip(frame.columns, row, strict=True):
            text = format_value(value)
            missing |= text == MISSING
            if column in badges and text != MISSING:
                cells.append(f"<td>{badge(text)}</td>")
            elif numeric[column]:
                cells.append(f'<td class="sa-num">{number_html(value)}</td>')
            elif column in math and not _is_json(text):
                cells.append(f"<td>{_card_text(text)}</td>")
            else:
                cells.append(f"<td>{html.escape(text)}</td>")
        rows.append("<tr>" + "".join(cells) + "</tr>")
    note = f'<p class="sa-muted">{html.escape(MISSING_NOTE)}</p>' if missing else ""
    return f'<table class="sa-table"><thead><tr>{head}</tr></thead><tbody>{"".join(rows)}</tbody></table>{note}'


def _is_json(text: str) -> bool:
    """Whether a cell holds a JSON object or array (a record, shown as written)."""
    if not text.startswith(("{", "[")):
        return False
    try:
        json.loads(text)
    except ValueError:
        return False
    return True


def _header_html(name: str) -> str:
    """A column's name: a symbol (``eps``, ``N_p``) typeset, any other name (``log_inv_delta``) as written."""
    return _card_text(name) if name in GREEK or re.fullmatch(r"[A-Za-z]_[A-Za-z0-9]", name) else html.escape(name)


def badge(verdict: str) -> str:
    """A verdict as a coloured badge: PASS green, FAIL red, INCONCLUSIVE amber."""
    verdict = html.escape(str(verdict))
    return f'<span class="sa-badge sa-{verdict}">{verdict}</span>'


def _short_id(check_id: str) -> str:
    return check_id.split("/", 1)[-1]


def _reason(row: pd.Series) -> str:
    """The one-line reason of a verdict: the counterexample of a FAIL, otherwise the worst measured value."""
    if row["verdict"] == "FAIL" and row["counterexample"]:
        return str(row["counterexample"])
    label = str(row["worst_value_label"]) or "worst value"
    # "decoded wrongly at loss <= 1/48 = 0.1633" would read as 1/48 = 0.1633: a label with a relation takes a colon
    sep = ": " if re.search("[<>=]", label) else " = "
    return f"{label}{sep}{format_value(row['worst_value'])} over {int(row['instances'])} instances ({row['method']})"


def _correction(row: pd.Series, ledger_rows: pd.DataFrame) -> str:
    """The corrected statements checked beside a FAIL (same statement id, variant ``corrected``), with verdicts."""
    twins = ledger_rows[
        (ledger_rows["statement_id"] == row["statement_id"])
        & (ledger_rows["variant"] == "corrected")
        & (ledger_rows["check_id"] != row["check_id"])
    ]
    return "; ".join(
        f"{_card_text(str(t['statement']))} ({badge(t['verdict'])} "
        f'<span class="sa-id">{html.escape(_short_id(t["check_id"]))}</span>)'
        for _, t in twins.iterrows()
    )


def check_html(row: pd.Series, ledger_rows: pd.DataFrame, page_path: str | None = None) -> str:
    """One check as a card: badge, id and variant, the statement with its paper reference, the reason,
    for a FAIL its finding class, the proposed correction and (with ``page_path``, where the page goes) a link
    to its certificate, then the notes (any ``$...$`` math typeset)."""
    verdict = str(row["verdict"])
    variant = f' <span class="sa-muted">({_card_text(str(row["variant"]))})</span>' if row["variant"] else ""
    replicates = (
        f' <span class="sa-muted">replicates agreeing: {html.escape(str(row["replicates"]))}</span>'
        if row["replicates"]
        else ""
    )
    check = html.escape(_short_id(row["check_id"]))
    parts = [
        f'<p>{badge(verdict)} <span class="sa-id">{check}</span>{variant}{replicates}</p>',
        f"<p><b>{html.escape(str(row['paper_ref']))}.</b> {_card_text(str(row['statement']))}</p>",
    ]
    label = "Counterexample" if verdict == "FAIL" and row["counterexample"] else "Measured"
    parts.append(f"<p><b>{label}:</b> {_card_text(_reason(row))}</p>")
    if verdict == "FAIL":
        correction = _correction(row, ledger_rows)
        certificate = ""
        if page_path and row["certificate"]:
            target = os.path.relpath(str(row["certificate"]), os.path.dirname(page_path))
            certificate = f' <a href="{html.escape(target)}">Certificate</a>.'
        parts.append(
            f"<p><b>Finding:</b> {html.escape(str(row['finding']))}. <b>Correction:</b> "
            f"{correction or 'none proposed (see the notes)'}{certificate}</p>"
        )
    if row["notes"]:
        parts.append(f'<p class="sa-notes">{_card_text(str(row["notes"]))}</p>')
    return f'<div class="sa-check sa-{html.escape(verdict)}">{"".join(parts)}</div>'


def _fill_text(frame: pd.DataFrame) -> pd.DataFrame:
    """``frame`` with missing values of its text columns replaced by ``""`` (numbers keep NaN)."""
    text = [c for c in frame.columns if not pd.api.types.is_numeric_dtype(frame[c])]
    return frame.assign(**{c: frame[c].fillna("") for c in text})


def summary_table(ledger_rows: pd.DataFrame) -> pd.DataFrame:
    """The compact verdict table of a claim: one row per check, named columns, no notes.

    The ``paper`` column (where the statement is printed) is left out when it is the same for every check.
    """
    rows = _fill_text(ledger_rows)
    frame = pd.DataFrame(
        {
            "check": rows["check_id"].map(_short_id),
            "paper": rows["paper_ref"],
            "variant": rows["variant"].replace("", MISSING),
            "method": rows["method"],
            "instances": rows["instances"].astype(int),
            "measured quantity": rows["worst_value_label"],
            "worst value": rows["worst_value"].astype(float),
            "verdict": rows["verdict"],
            "finding": rows["finding"].replace("", MISSING),
            "replicates": rows["replicates"],
        }
    )
    # one paper reference for every check is already in each card: no column repeating it
    return frame.drop(columns="paper") if frame["paper"].nunique() <= 1 else frame


def tables_html(
    tables: dict[str, pd.DataFrame],
    table_dir: str | None = None,
    page_path: str | None = None,
    max_rows: int = INLINE_ROWS,
    max_columns: int = INLINE_COLUMNS,
) -> str:
    """The data tables: short ones inline (:func:`html_table`), long or wide ones as links to their CSV and LaTeX.

    Every table is linked; inline tables leave out text columns longer than
    :data:`LONG_TEXT` characters (certificates, JSON), which the CSV holds.

    Links are relative to the directory of ``page_path`` (``results/pages``) and
    point to the files :func:`publish` wrote to ``table_dir``.
    """
    base = os.path.dirname(page_path) if page_path else "."
    parts = []
    for name, frame in tables.items():
        shape = f"{len(frame)} rows \u00d7 {len(frame.columns)} columns"
        links = ""
        if table_dir:
            stem = os.path.relpath(f"{table_dir}/{name}", base)
            links = (
                f' \u2014 <a href="{html.escape(stem)}.csv">CSV</a><span class="{RUN_ONLY}"> \u00b7 '
                f'<a href="{html.escape(stem)}.tex">LaTeX</a></span>'
            )
        title = f'<p><b>{html.escape(name)}</b> <span class="sa-muted">({shape})</span>{links}</p>'
        long_text = [
            c
            for c in frame.columns
            if not _is_numeric(frame[c]) and max(map(len, map(format_value, frame[c])), default=0) > LONG_TEXT
        ]
        if len(frame) <= max_rows and len(frame.columns) - len(long_text) <= max_columns:
            note = ""
            if long_text:
                names = ", ".join(html.escape(str(c)) for c in long_text)
                note = f'<p class="sa-muted">Left out here (long text, in the CSV): {names}.</p>'
            shown = frame.drop(columns=long_text)
            # the text cells state quantities ("E||sum zeta_i x_i||"); a point's name is an id
            prose = [c for c in shown.columns if c != "point" and not _is_numeric(shown[c])]
            parts.append(title + html_table(shown, math=prose) + note)
        else:
            columns = ", ".join(html.escape(str(c)) for c in frame.columns)
            parts.append(title + f'<p class="sa-muted">Too long to show here; columns: {columns}.</p>')
    return "".join(parts)


def show_results(
    ledger_rows: pd.DataFrame,
    tables: dict[str, pd.DataFrame],
    table_dir: str | None = None,
    page_path: str | None = None,
) -> None:
    """In a notebook: every check's verdict card, the summary table, then the data tables.

    Parameters
    ----------
    ledger_rows : DataFrame
        The claim's ledger rows (:func:`publish`).
    tables : dict of DataFrame
        The claim's data tables (``report.tables``).
    table_dir, page_path : str, optional
        Where :func:`publish` wrote the tables and where the HTML report goes, so
        that long tables are linked as CSV relative to the report.
    """
    rows = _fill_text(ledger_rows)
    counts = rows["verdict"].value_counts()
    tally = ", ".join(f"{badge(v)} {int(counts[v])}" for v in ("PASS", "FAIL", "INCONCLUSIVE") if v in counts)
    cards = "".join(check_html(row, rows, page_path) for _, row in rows.iterrows())
    _display_html(
        f"<p>{len(rows)} checks: {tally}</p>{cards}<h3>Summary</h3>"
        + html_table(summary_table(rows), badges=("verdict",), math=("paper", "variant", "measured quantity"))
    )
    if tables:
        _display_html("<h3>Data tables</h3>" + tables_html(tables, table_dir, page_path))


def show_figures(figure_paths: Sequence[str], captions: dict[str, str], page_path: str | None = None) -> None:
    """In a notebook: each PNG of ``figure_paths`` as a numbered figure with its caption (looked up by file stem).

    The PNG is embedded in the page; with ``page_path`` the caption links the
    vector (PDF) version relative to the report.
    """
    base = os.path.dirname(page_path) if page_path else None
    pngs = [p for p in figure_paths if str(p).endswith(".png")]
    for number, path in enumerate(pngs, start=1):
        stem = Path(path).stem
        data = base64.b64encode(Path(path).read_bytes()).decode("ascii")
        caption = render_prose(captions.get(stem, ""))
        pdf = Path(path).with_suffix(".pdf")
        link = ""
        if base is not None and str(pdf) in map(str, figure_paths):
            link = f' <a href="{html.escape(os.path.relpath(pdf, base))}">PDF</a>'
        _display_html(
            f'<figure class="sa-figure"><img alt="{html.escape(stem)}" src="data:image/png;base64,{data}">'
            f"<figcaption><b>Figure {number}.</b> {caption}{link}</figcaption></figure>"
        )
