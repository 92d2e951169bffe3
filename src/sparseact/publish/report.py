"""The verification report: one HTML page that answers which of the paper's results survive, and how badly the rest fail.

:func:`build_report` writes ``index.html`` from the run's result tables
(:func:`sparseact.publish.findings.load_results`). Its first screen (1400 x 900) is the
bottom line, the counts of the paper's printed statements (the project's own apart) and the
headline table: the paper's main results, each with its status, what it costs the authors
(each correction in the paper's notation), its errata and its claim page; then the results
sharper than printed and the open results, one line each. Then come the errata by root cause
(typeset, with the classes legend), tightness, every statement, the checks per
claim (one collapsed ``<details>`` each, with the claim's figure and evidence
once), provenance (the revision it is written at and what all result files share, each file's own revision in a
fold) and a link to
``timings.html`` (per job: claim, stage, shard), which links back. Wall times live
on that separate page because they change from run to run while ``index.html``
is byte-identical.

Beside it, :func:`graph_page` writes ``graph.html``, the argument graph as a picture
(:mod:`sparseact.publish.graph`): what each main result rests on as a tree of its own, then the
whole graph by the paper's sections, each node a link to its row on the report. Every statement
row, cited fact, erratum and check of the report has an anchor, and every id printed in a
reason, a cost or an erratum is a link to it (:mod:`sparseact.publish.links`).

:func:`claim_page` writes a claim's page (``results/pages/<claim>.html``): its
executed notebook under a header that leads with the claim (its title and a one-line
verdict of its main result), then the status of each of the claim's statements (the
main result first, the rest in the paper's reading order), the verdicts of the checks
bearing on them (folded; each FAIL linking its certificate), the chain behind each main
result (folded, as ``sparseact explain`` prints it) and the subgraph of its statements,
with navigation back to the report, to the previous and next claim in paper order and to
the paper on arXiv, in one line.

Both pages are readable at any width (wide tables scroll inside their own box,
the status column first) and print without clipping (:data:`PRINT_CSS`).
"""

from __future__ import annotations

import html
import json
import os
import posixpath
import re
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path

import pandas as pd

from sparseact.paper import facts as paper_facts
from sparseact.paper import name as statement_name
from sparseact.paper import paper_position, premise_kind
from sparseact.paper import statements as paper_statements
from sparseact.publish.asciimath import render_prose
from sparseact.publish.cards import CARDS_CSS, PRINT_OPEN_CSS, PRINT_SUMMARY_CSS, label_cells, summarise_for_print
from sparseact.publish.findings import (
    FINDING_WORDS,
    STATUS_DEFINITIONS,
    TIGHTNESS_HEADER,
    Results,
    bottom_line,
    brief_ref,
    counts_line,
    ids,
    load_results,
    open_items,
    readable,
    repair_words,
    sharper_items,
    status_clause,
    status_text,
    tightness_rows,
    what_changes,
)
from sparseact.publish.graph import (
    ERRATUM_PREFIX,
    GRAPH_CSS,
    GRAPH_FIT,
    GRAPH_SCRIPT,
    PANEL_HINT,
    STATUS_WORDS,
    by_section,
    graph_edges,
    graph_figure,
    graph_nodes,
    graph_svg,
    legend_svg,
    node_anchor,
    premises,
    sections_svg,
    subgraph,
    view_svg,
)
from sparseact.publish.ledger import certificate_fields, certificate_path, certificate_view, refuted_where
from sparseact.publish.links import (
    PAPER_ARXIV,
    PAPER_AUTHORS,
    PAPER_PDF,
    PAPER_VERSION,
    anchor,
    link_corner_rule,
    link_ids,
    report_targets,
)
from sparseact.publish.mathtext import EMPHASIS, MATH_CSS, markdown_math
from sparseact.publish.notepdf import current_pdf, pdf_source_digest
from sparseact.publish.palette import status_fill_css
from sparseact.publish.site import RUN_ONLY
from sparseact.publish.statements import explain_chain, first_sentence
from sparseact.runtime.costs import job_resources
from sparseact.runtime.outputs import write_manifest
from sparseact.runtime.provenance import atomic_write_text, git_revision, write_text_if_changed
from sparseact.verify.verdicts import FINDING_DEFINITIONS

#: Claims in the order the paper treats them (Section 1, 2.1, 3, 4, 5, Appendix A; the dimensional analysis last).
PAPER_ORDER = (
    "section1_index",
    "lemma6",
    "theorem8",
    "lemma9",
    "lemma10",
    "theorem13",
    "section4_parity",
    "section4_lwr",
    "theorem17",
    "theorem19",
    "appendixA",
    "scaling",
)

#: Print media: nothing scrolls or is cut off; tables use the page's width and wrap.
PRINT_CSS = """
@media print {
  body { max-width: none; margin: 0; padding: 0; font-size: 10pt; }
  .scroll { overflow: visible !important; }
  table { width: 100% !important; font-size: 7.5pt; }
  math { font-size: 1em; }
  nav, .no-print { display: none; }
  tr, .erratum { break-inside: avoid; }
  img { max-width: 100% !important; }
}
"""

_CSS = (
    """
body { font-family: system-ui, sans-serif; margin: 1em auto; max-width: 1200px; padding: 0 1em; color: #222; }
h1 { font-size: 1.45em; margin: 0.3em 0; }
h2 { font-size: 1.2em; margin: 1em 0 0.4em; }
h3 { font-size: 1.05em; margin: 0.8em 0 0.3em; }
p { margin: 0.4em 0; }
nav { font-size: 0.9em; margin: 0.4em 0; }
.scroll { overflow-x: auto; max-width: 100%; margin-bottom: 1.2em; content-visibility: auto;
  contain-intrinsic-size: auto 30em; }
table { border-collapse: collapse; width: 100%; font-size: 0.85em; }
th, td { border: 1px solid #ccc; padding: 4px 6px; vertical-align: top; text-align: left; overflow-wrap: break-word; }
td a, code { overflow-wrap: anywhere; }
th { background: #f0f0f0; }
"""
    + status_fill_css()
    + """td.status { min-width: 7em; }
small.gloss { font-weight: normal; }
table.headline td:first-child { min-width: 16em; }
.legend { font-size: 0.85em; color: #444; }
.erratum { border-left: 4px solid #c33; background: #fafafa; --sa-paper: #fafafa; padding: 4px 10px; margin: 0.6em 0; }
.erratum dt { font-weight: bold; }
.erratum dd { margin: 0 0 0.3em 1em; }
img.thumb { width: 160px; float: right; margin: 0 0 0.5em 1em; }
details { margin-bottom: 0.5em; }
code { font-size: 0.95em; }
"""
    + MATH_CSS
    + PRINT_CSS
    + CARDS_CSS
    + PRINT_OPEN_CSS
    + PRINT_SUMMARY_CSS
)


#: :data:`~sparseact.publish.mathtext.EMPHASIS`'s replacement: the paper's italics, in italics.
_ITALIC = r"<em>\1</em>"


def paper_order(claims) -> list[str]:
    """``claims`` in :data:`PAPER_ORDER` (any claim not in it last, by name)."""
    rank = {claim: i for i, claim in enumerate(PAPER_ORDER)}
    return sorted(set(claims), key=lambda claim: (rank.get(claim, len(rank)), claim))


def _math(text: str) -> str:
    """Text with its ``$...$`` math and its ASCII formulas as MathML, broken after relations so long formulas wrap."""
    return render_prose(str(text), breakable=True)


def _href(path: str | Path, base: Path) -> str:
    return html.escape(os.path.relpath(path, base))


def _link(path: str | Path, base: Path, label: str) -> str:
    return f'<a href="{_href(path, base)}">{html.escape(label)}</a>'


def _table(
    header: Sequence[str],
    rows: Sequence[Sequence[str]],
    css: str = "",
    row_ids: Sequence[str] = (),
    printed: Sequence[int] = (),
) -> str:
    """A table of already-rendered HTML cells, in a box that scrolls sideways on its own when too wide; ``row_ids``
    (when given) are the rows' anchors; ``printed`` (when given), the columns that print, one line per row
    (:func:`sparseact.publish.cards.summarise_for_print`)."""
    head = "".join(f"<th>{html.escape(h)}</th>" for h in header)
    anchors = list(row_ids) or [""] * len(rows)

    def cell(column: int, content: str) -> str:
        if content.startswith("<td"):
            return content
        return f'<td class="sa-no-print">{content}</td>' if printed and column not in printed else f"<td>{content}</td>"

    body = "".join(
        (f'<tr id="{html.escape(row_id)}">' if row_id else "<tr>")
        + "".join(cell(column, c) for column, c in enumerate(row))
        + "</tr>"
        for row_id, row in zip(anchors, rows, strict=True)
    )
    classes = " ".join(c for c in (css, "sa-lines" if printed else "") if c)
    table_class = f' class="{classes}"' if classes else ""
    return f'<div class="scroll"><table{table_class}><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table></div>'


#: What a status means in a theorist's words, under the status where there is room (statement tables, claim pages).
STATUS_GLOSS = {"proved": "written argument; each premise proved here, checked exactly or cited"}


#: The link under a main result's status in the headline table, to the reasons for it (its row on its claim page).
WHY = {
    "proved": "why it is proved",
    "holds-on-range": "why it holds on this range",
    "fails-as-stated": "why it fails",
    "open": "why it is open",
}


def _status_cell(status: str, finding_class: str = "", on_range: str = "", gloss: bool = False, why: str = "") -> str:
    """A status cell; ``why``, the address of the reasons for the status, adds a link to them (:data:`WHY`)."""
    words = _math(status_text(status, finding_class, on_range))
    if gloss and status in STATUS_GLOSS:
        words += f'<br><small class="gloss">({html.escape(STATUS_GLOSS[status])})</small>'
    if why:
        words += f'<br><small class="why"><a href="{html.escape(why)}">{html.escape(WHY[status])}</a></small>'
    return f'<td class="status {html.escape(status)}">{words}</td>'


def _claim_page_path(results_dir: Path, claim_id: str) -> Path:
    return results_dir / "pages" / f"{claim_id}.html"


def _statement_row(results: Results, statement_id: str) -> pd.Series:
    return results.statements.set_index("statement_id").loc[statement_id]


#: A headline cost longer than this (characters) folds under the words before its first colon, or, for a result that
#: fails as stated, under what survives of it (:func:`~sparseact.publish.findings.repair_words`), so that the table of
#: the main results fits the first screen.
FOLDED_COST_CHARS = 160


def headline_html(results: Results, results_dir: Path, base: Path) -> str:
    """The headline table: the paper's main results (each name a link to its claim page) with status and a link to
    the reasons for it (:data:`WHY`), and what it costs the authors; a long correction, and the corrections its
    printed proof needs, with their errata, fold under the cost (so that the table fits the first screen)."""
    concerns = {
        e: ids(cell) for e, cell in zip(results.errata["erratum_id"], results.errata["statements"], strict=True)
    }
    ids_here = targets(results)

    def links(errata: list[str]) -> str:
        return ", ".join(f'<a href="#erratum-{html.escape(e)}">{html.escape(e)}</a>' for e in errata)

    rows = []
    for _, row in results.headline.iterrows():
        statement = _statement_row(results, row["statement_id"])
        own = [e for e in ids(row["errata"]) if row["statement_id"] in concerns[e]]
        slips = [e for e in ids(row["errata"]) if row["statement_id"] not in concerns[e]]
        # the result's name links its claim page (a line of its own would push the table below the first screen)
        page = _link(_claim_page_path(results_dir, row["claim_id"]), base, row["paper_ref"])
        # the statement's row on its claim page (its status, the argument with every premise a link, its checks): the
        # page's top when it is the first row, under the page's title and the verdict
        why = _href(_claim_page_path(results_dir, statement["claim_id"]), base)
        if claim_statements(results, statement["claim_id"])["statement_id"].iloc[0] != row["statement_id"]:
            why += f"#{anchor(row['statement_id'])}"
        cost = link_ids(_math(row["cost"]), ids_here) + (f" <small>(erratum {links(own)})</small>" if own else "")
        head, colon, _ = str(row["cost"]).partition(": ")
        if row["status"] == "fails-as-stated":  # the fold says what survives, not "Replace by"
            head = repair_words(statement["survives"]).capitalize()
        if colon and len(str(row["cost"])) > FOLDED_COST_CHARS:  # a long correction folds under its first words
            cost = f"<details><summary>{html.escape(head)} …</summary>{cost}</details>"
        if row["proof"]:
            cost += (
                f"<details><summary>its printed proof needs {len(slips)} correction{'s' if len(slips) != 1 else ''}"
                f"</summary>{link_ids(_math(row['proof']), ids_here)} <small>(errata {links(slips)})</small>"
                "</details>"
            )
        rows.append(
            [
                f"<b>{page}</b>",
                _status_cell(row["status"], statement["class"], statement["range"], why=why),
                cost,
            ]
        )
    return _table(["result", "status", "what it costs the authors"], rows, "headline sa-print-whole")


def counts_html(results: Results) -> str:
    """The counts of the paper's statements by status (the project's own apart), under the headline table."""
    return (
        f"<p>{_math(counts_line(results))} Every status is computed from the checks; every erratum has a "
        "certificate that <code>sparseact verify-certificate</code> recomputes.</p>"
    )


def sharper_and_open_html(results: Results) -> str:
    """The results sharper than printed and the open results, one line each."""
    sharper = (
        "".join(
            f"<li><b>{html.escape(where)}</b>, sharper: {_math(text)} "
            f"<small>(<code>sparseact explain {html.escape(sid)}</code>)</small></li>"
            for where, text, sid in sharper_items(results)
        )
        or "<li>None.</li>"
    )
    ids_here = targets(results)
    opened = (
        "".join(
            f"<li><b>{html.escape(where)}</b>: {link_ids(_math(why), ids_here)}</li>"
            for where, why in open_items(results)
        )
        or "<li>None.</li>"
    )
    return (
        f'<h3 id="sharper">Sharper than printed (the project\'s own results)</h3><ul>{sharper}</ul>'
        f'<h3 id="open">Open, and why</h3><ul>{opened}</ul>'
    )


def legend_html() -> str:
    statuses = "; ".join(f"<i>{html.escape(s)}</i>: {html.escape(d)}" for s, d in STATUS_DEFINITIONS.items())
    classes = "; ".join(f"<i>{html.escape(c)}</i>: {html.escape(d)}" for c, d in FINDING_DEFINITIONS.items())
    return (
        f'<p class="legend"><b>Statuses.</b> {statuses}.</p>'
        f'<p class="legend" id="classes"><b>Classes of errata.</b> {classes}.</p>'
    )


def errata_html(results: Results, results_dir: Path, base: Path) -> str:
    """The errata by root cause, one section per class (most severe first), each erratum with its certificate."""
    parts, ids_here = [], targets(results)
    for finding_class, definition in FINDING_DEFINITIONS.items():
        group = results.errata[results.errata["class"] == finding_class]
        if not len(group):
            continue
        parts.append(
            f'<h3 id="errata-{finding_class}">{finding_class} ({len(group)})</h3>'
            f'<p class="legend">{html.escape(definition)}.</p>'
        )
        for _, row in group.iterrows():
            certificates = ", ".join(
                _link(
                    certificate_page_path(results_dir, c.removeprefix("certificates/").removesuffix(".json")), base, c
                )
                for c in ids(row["certificates"])
            )
            correction = link_ids(_math(row["correction"]), ids_here) if row["correction"] else "none proposed"
            if row["verified_by"]:
                correction += (
                    f' <span class="{html.escape(row["verified"])}">{html.escape(row["verified"])}</span>'
                    f" (checked by <code>{html.escape(row['verified_by'])}</code>)"
                )
            statements = ", ".join(
                f'<a href="#{anchor(s)}"><code>{html.escape(s)}</code></a>' for s in ids(row["statements"])
            )
            refutation = row.get("refuted_by", "")
            proof = f'<a href="#{anchor(refutation)}"><code>{html.escape(refutation)}</code></a>' if refutation else ""
            why = (
                f"<dt>Refutation (proved: {proof})</dt><dd>{link_ids(_math(row['counterexample']), ids_here)}</dd>"
                f"<dt>Proof</dt><dd>{link_ids(_math(row['explanation']), ids_here)}</dd>"
                if refutation
                else f"<dt>Why it fails</dt><dd>{link_ids(_math(row['explanation']), ids_here)}</dd>"
                f"<dt>Counterexample (from the certificate)</dt><dd>{_math(row['counterexample'])}</dd>"
            )
            certificate = (
                f"the proof of {proof} (an asymptotic statement: no finite certificate refutes it)"
                if refutation
                else certificates or "none"
            )
            parts.append(
                f'<div class="erratum" id="erratum-{html.escape(row["erratum_id"])}">'
                f"<p><b>{_math(row['location'])}</b> — {html.escape(finding_class)} "
                f"<small>(<code>{html.escape(row['erratum_id'])}</code>; statements {statements})</small></p><dl>"
                f"<dt>Printed</dt><dd>{EMPHASIS.sub(_ITALIC, _math(row['printed']))}</dd>{why}"
                f"<dt>Correction</dt><dd>{correction}</dd><dt>Certificate</dt><dd>{certificate}</dd></dl></div>"
            )
    return "".join(parts) or "<p>No erratum.</p>"


def targets(results: Results, page: str = "") -> dict[str, str]:
    """Every statement, fact and check id -> its anchor on the report (``page`` the report's path from the page that
    links, empty on the report itself)."""
    return report_targets(
        results.statements["statement_id"], [f["id"] for f in paper_facts()], results.ledger["check_id"], page
    )


#: The certificates' pages: ``<folder>/<check id>.html`` beside the report's ``index.html``.
CERTIFICATE_PAGES = "certificates"


def certificate_page_path(results_dir: str | Path, check_id: str) -> Path:
    """Where the page of the certificate of FAIL check ``check_id`` goes (:func:`certificate_page`)."""
    return Path(results_dir) / "report" / CERTIFICATE_PAGES / f"{check_id}.html"


def certificate_links(results: Results, results_dir: Path, base: Path) -> dict[str, str]:
    """Each FAIL check with a certificate -> the address of the certificate's page from a page in ``base``."""
    failed = results.ledger[results.ledger["certificate"] != ""]
    return {check: _href(certificate_page_path(results_dir, check), base) for check in failed["check_id"]}


def certificate_page(document: dict, results: Results, results_dir: Path) -> str:
    """The page of a FAIL's certificate (:func:`certificate_page_path`): what it refutes, typeset, and its finding,
    counterexample, why it fails, the violation and the margin the checker proved
    (:func:`sparseact.publish.ledger.certificate_fields`); links back to the report, to the refuted statement's row
    on its claim page and to the certificate's files."""
    check_id, statement_id = document["check_id"], document["statement_id"]
    base = certificate_page_path(results_dir, check_id).parent
    index = results_dir / "report" / "index.html"
    certificate = Path(certificate_path(check_id, results_dir))
    where = refuted_where(document)
    known = results.statements["statement_id"] == statement_id
    refuted = f"<b>{html.escape(where)}</b>"
    links = [_link(index, base, "← verification report")]
    if known.any():
        claim = results.statements.loc[known, "claim_id"].iloc[0]
        row = f"{_href(_claim_page_path(results_dir, claim), base)}#{anchor(statement_id)}"
        refuted = f'<b><a href="{html.escape(row)}">{html.escape(where)}</a></b>'
        links.append(f'<a href="{html.escape(row)}">{html.escape(where)} on its claim page</a>')
    links += [
        f'<a href="{_href(index, base)}#{anchor(check_id)}">the check in the report</a>',
        _link(certificate, base, "the certificate file (JSON)"),
        _link(certificate_view(certificate), base, "as Markdown"),
    ]
    fields = "".join(
        f"<dt>{html.escape(label)}</dt><dd>{_math(text)}</dd>" for label, text in certificate_fields(document)
    )
    carried = _carried_by(results, check_id, results_dir, base)
    body = (
        f"<nav>{' · '.join(links)}</nav><h1>Certificate <code>{html.escape(check_id)}</code>: "
        f"{html.escape(where)} fails as printed</h1>"
        f'<div class="erratum"><dl><dt>Refutes</dt><dd>{refuted}: {_math(document["statement"])}</dd><dt>Finding</dt>'
        f"<dd>{html.escape(FINDING_WORDS.get(document['finding'], document['finding']))}</dd>{fields}</dl>"
        f"</div>{carried}<p>Recompute it independently (exact or interval arithmetic): <code>sparseact verify-certificate "
        f"{html.escape(results.ledger.set_index('check_id').loc[check_id, 'certificate'])}"
        "</code></p>"
    )
    return _page(f"Certificate {check_id}", body, f"{check_id.rsplit('/', 1)[-1]}.html")


def _carried_by(results: Results, check_id: str, results_dir: Path, base: Path) -> str:
    """The paragraph that names the proofs carrying a certificate of an asymptotic statement (one finite instance,
    at one choice of its constants) to the whole family (its erratum's ``carried_by``), each a link to its row."""
    errata = results.errata
    if "carried_by" not in errata:
        return ""
    mine = errata[errata["certificates"].map(lambda cell: f"certificates/{check_id}.json" in ids(cell))]
    proofs = [p for cell in mine["carried_by"] for p in ids(cell)]
    if not proofs:
        return ""
    claims = dict(zip(results.statements["statement_id"], results.statements["claim_id"], strict=True))
    links = ", ".join(
        f'<a href="{html.escape(_href(_claim_page_path(results_dir, claims[p]), base))}#{anchor(p)}">'
        f"<code>{html.escape(p)}</code></a>"
        if p in claims
        else f"<code>{html.escape(p)}</code>"
        for p in proofs
    )
    return (
        "<p>This certificate is one finite instance of an asymptotic statement's failure, at one choice of its "
        f"hidden constants; the failure for every choice is proved by {links}.</p>"
    )


def reason_html(
    row: pd.Series, links: dict[str, str], verdicts: dict[str, str], certificates: Mapping[str, str]
) -> str:
    """A statement's reason (its argument, or why it fails or is open) with every id a link, then its premises and
    its own checks (each a link to its row), with their verdicts and, for a FAIL, a link to its certificate
    (``certificates``: :func:`certificate_links`)."""
    premises = ", ".join(link_ids(html.escape(p), links) for p in ids(row["uses"]))

    def verdict(check: str) -> str:
        certificate = f', <a href="{certificates[check]}">certificate</a>' if check in certificates else ""
        return f"{link_ids(html.escape(check), links)} ({html.escape(verdicts.get(check, ''))}{certificate})"

    checks = ", ".join(verdict(c) for c in ids(row["checks"]))
    return (
        link_ids(_math(row["reason"]), links)
        + (f"<br><small>Premises: {premises}.</small>" if premises else "")
        + (f"<br><small>Its checks: {checks}.</small>" if checks else "")
    )


def statement_rows(
    results: Results, statements: pd.DataFrame, links: dict[str, str], where, certificates: Mapping[str, str]
) -> tuple[list, list[str]]:
    """The rows of a statements table (where, status, statement as printed, reason) and their anchors; ``where``
    renders a row's first cell, ``certificates`` are :func:`certificate_links`."""
    verdicts = dict(zip(results.ledger["check_id"], results.ledger["verdict"], strict=True))
    rows = [
        [
            where(row),
            _status_cell(row["status"], row["class"], row["range"], gloss=True),
            _math(row["statement"]),
            reason_html(row, links, verdicts, certificates),
        ]
        for _, row in statements.iterrows()
    ]
    return rows, [anchor(sid) for sid in statements["statement_id"]]


def statements_html(results: Results, results_dir: Path, base: Path) -> str:
    """Every statement: where (linking its claim page), status, the statement as printed, the reason (every id in
    it a link to that id's row, every FAIL check's certificate a link)."""

    def where(row: pd.Series) -> str:
        page = _link(_claim_page_path(results_dir, row["claim_id"]), base, row["claim_id"])
        return f"{html.escape(row['paper_ref'])}<br><small>{page}</small>"

    rows, anchors = statement_rows(
        results, results.statements, targets(results), where, certificate_links(results, results_dir, base)
    )
    return _table(["where", "status", "statement (as printed)", "reason"], rows, "statements", anchors, printed=(0, 1))


def facts_html(results: Results) -> str:
    """The cited textbook facts: each with its statement, its citation and the checks that test it on instances."""
    links = targets(results)
    verdicts = dict(zip(results.ledger["check_id"], results.ledger["verdict"], strict=True))
    rows, anchors = [], []
    for fact in paper_facts():
        checks = ", ".join(
            f"{link_ids(html.escape(c), links)} ({html.escape(verdicts.get(c, 'not in the ledger'))})"
            for c in fact.get("checks", ())
        )
        rows.append(
            [
                f"<b>{html.escape(fact['name'])}</b><br><small><code>{html.escape(fact['id'])}</code></small>",
                _math(fact["statement"]),
                link_ids(_math(fact["citation"]), links),
                checks or "none",
            ]
        )
        anchors.append(anchor(fact["id"]))
    return _table(["fact", "statement", "citation", "instance checks"], rows, "facts", anchors, printed=(0, 3))


def _evidence(ledger_rows: pd.DataFrame) -> list[str]:
    """The claim's evidence paths, each once, in order."""
    return list(dict.fromkeys(p for cell in ledger_rows["evidence"] for p in ids(cell)))


def checks_html(results: Results, results_dir: Path, root: Path, base: Path) -> str:
    """The checks, one collapsed section per claim: its figure and evidence once, then one row per check, a FAIL's
    linking its certificate's page.

    Evidence paths in the ledger are relative to the repository ``root``.
    """
    parts = []
    for claim_id in paper_order(results.ledger["claim_id"]):
        checks = results.ledger[results.ledger["claim_id"] == claim_id]
        evidence = [root / p for p in _evidence(checks)]
        figure = next((p for p in evidence if p.suffix == ".png"), "")
        thumb = (
            f'<img class="thumb" alt="{html.escape(claim_id)} figure" src="{_href(figure, base)}">' if figure else ""
        )
        links = " · ".join(_link(p, base, "claim page" if p.suffix == ".html" else p.name) for p in evidence)
        counts = checks["verdict"].value_counts()
        summary = ", ".join(f"{v} {int(counts[v])}" for v in ("PASS", "FAIL", "INCONCLUSIVE") if v in counts)
        rows = [
            [
                f"<code>{html.escape(r['check_id'].split('/', 1)[-1])}</code>",
                f'<td class="{html.escape(r["verdict"])}">{html.escape(r["verdict"])}</td>',
                f'<a href="#{anchor(r["statement_id"])}">{html.escape(r["statement_id"])}</a>'
                if r["statement_id"]
                else "",
                _math(r["variant"]),
                html.escape(r["method"]),
                html.escape(r["instances"]),
                _math(readable(r["worst_value"])),
                _math(r["worst_value_label"]),
                html.escape(r["replicates"]),
                _link(certificate_page_path(results_dir, r["check_id"]), base, "certificate")
                if r["certificate"]
                else "",
            ]
            for _, r in checks.iterrows()
        ]
        parts.append(
            f"<details><summary><b>{html.escape(claim_id)}</b>: {len(checks)} checks ({summary})</summary>"
            f"{thumb}<p><small>Evidence: {links}</small></p>"
            + _table(
                [
                    "check",
                    "verdict",
                    "statement",
                    "variant",
                    "method",
                    "instances",
                    "worst value",
                    "measured quantity",
                    "replicates agreeing",
                    "certificate",
                ],
                rows,
                row_ids=[anchor(c) for c in checks["check_id"]],
                printed=(0, 1, 2, 9),
            )
            + "</details>"
        )
    return "".join(parts)


def provenance_table(result_paths: Sequence[str | Path]) -> tuple[dict, pd.DataFrame, dict]:
    """What every result file shares (seed, python, ...), what differs per file (always its git revision, so that the
    layout does not depend on the revisions the claims were assembled at), and the package versions."""
    rows, packages = [], {}
    for path in result_paths:
        prov = json.loads(Path(path).read_text())["provenance"]
        packages = packages or prov["packages"]
        dispatch = "; ".join(f"{name}={value}" for name, value in prov["cpu_dispatch"].items()) or "by the CPU"
        rows.append(
            dict(
                result=str(path),
                seed=str(prov["seed"]),
                config_hash=prov["config_hash"],
                git_revision=prov["git_revision"],
                python=prov["python"],
                cpu_dispatch=dispatch,
            )
        )
    frame = pd.DataFrame(rows, columns=["result", "seed", "config_hash", "git_revision", "python", "cpu_dispatch"])
    shared = {
        c: frame[c].iloc[0] for c in frame.columns[1:] if c != "git_revision" and len(frame) and frame[c].nunique() == 1
    }
    return shared, frame.drop(columns=list(shared)), packages


def provenance_html(result_paths: Sequence[str | Path], base: Path, revision: str) -> str:
    """One line: the git ``revision`` the report is written at and what all result files share; each file's own
    revision and digests in a fold, one row per file whether or not they agree (the committed site replaces every
    revision by its placeholder, so two runs from one commit give the same bytes)."""
    shared, differing, packages = provenance_table(result_paths)
    common = "; ".join(f"{k.replace('_', ' ')} <code>{html.escape(v)}</code>" for k, v in shared.items())
    per_file = _table(
        [c.replace("_", " ") for c in differing.columns],
        [
            [
                _link(v, base, Path(v).name) if c == "result" else f"<code>{html.escape(v)}</code>"
                for c, v in row.items()
            ]
            for _, row in differing.iterrows()
        ],
        printed=range(len(differing.columns)),
    )
    versions = ", ".join(f"{html.escape(k)} {html.escape(str(v))}" for k, v in sorted(packages.items()))
    return (
        f"<p>Written at git revision <code>{html.escape(revision)}</code>. Shared by all {len(differing)} result "
        f"files: {common or 'nothing'}.</p><details><summary>Each result file's git revision and digests"
        f"</summary>{per_file}</details><p><small>Packages: {versions}.</small></p>"
    )


def timings_table(benchmark_paths: Sequence[str | Path], logs: str | Path | None = None) -> pd.DataFrame:
    """Per-job claim, stage, shard, wall time and peak memory from Snakemake's ``benchmark:`` files.

    The path says the job: ``benchmarks/<stage>/<claim>/<shard>.tsv``, ``benchmarks/assemble/<claim>.tsv``,
    ``benchmarks/kernels/<group>.tsv`` (a job of no claim, the group as its shard) or ``benchmarks/<stage>.tsv``
    for another job of no claim. With the jobs' ``logs`` folder, a job the job server ran
    counts its forked child's memory (:func:`sparseact.runtime.costs.job_resources`).
    """
    rows = []
    for path in benchmark_paths:
        parts = Path(path).with_suffix("").parts
        tail = parts[parts.index("benchmarks") + 1 :] if "benchmarks" in parts else parts[-1:]
        stage, claim, shard = [*tail, "", ""][:3]
        if stage == "kernels":
            claim, shard = "", claim
        resources = job_resources(path, logs)
        rows.append(
            dict(
                claim=claim,
                stage=stage,
                shard=shard,
                seconds=resources["wall_s"],
                max_rss_mib=resources["max_rss_mb"],
            )
        )
    return pd.DataFrame(rows, columns=["claim", "stage", "shard", "seconds", "max_rss_mib"])


def erratum_link(results_dir: Path, base: Path) -> str:
    """A link to the note for the authors: its PDF when compiled from the note now there, else its LaTeX source."""
    tex = results_dir / "erratum" / "erratum.tex"
    if current_pdf(tex):
        return _link(tex.with_suffix(".pdf"), base, "the erratum note (PDF)")
    return _link(tex, base, "the erratum note (LaTeX)")


def _page(title: str, body: str, name: str = "") -> str:
    """An HTML page of ``body``, to be written to the file ``name`` (the printed notes link the whole tables there;
    empty: on the page itself), its tables cards on narrow screens and summarised in print
    (:mod:`sparseact.publish.cards`)."""
    return (
        f'<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
        f'<meta name="viewport" content="width=device-width, initial-scale=1"><title>{html.escape(title)}</title>'
        f"<style>{_CSS}</style></head><body>{summarise_for_print(label_cells(body), name)}</body></html>\n"
    )


#: The argument graph's page, beside the report's ``index.html``.
GRAPH_PAGE = "graph.html"


def _claim_rank(claim_id: str) -> int:
    return PAPER_ORDER.index(claim_id) if claim_id in PAPER_ORDER else len(PAPER_ORDER)


def graph_page(results: Results, index_html: str | Path, page: str | Path, results_dir: str | Path) -> str:
    """The argument graph's page: for each main result, what it rests on as a layered tree (a printed page each);
    then every statement, cited fact and erratum root grouped by the paper's sections; each node a link to its row
    on the report (:mod:`sparseact.publish.graph`)."""
    base = Path(page).parent
    report = _href(index_html, base)
    nodes, edges = graph_nodes(results.statements, results.errata), graph_edges(results.statements, results.errata)

    def href(node) -> str:
        return f"{report}#{node_anchor(node.key)}"

    def claim_row(node) -> str:
        if not node.claim:
            return ""
        return f"{_href(_claim_page_path(Path(results_dir), node.claim), base)}#{anchor(node.key)}"

    known = {n.key: n for n in nodes}
    main = [row for row in results.headline.to_dict("records") if row["statement_id"] in known]
    contents, views = [], []
    for row in main:
        key = row["statement_id"]
        status = STATUS_WORDS[known[key].status]
        below = premises(key, edges)
        contents.append(f'<li><a href="#view-{html.escape(key)}">{html.escape(row["paper_ref"])}</a>: {status}</li>')
        views.append(
            f'<section class="graph-view" id="view-{html.escape(key)}"><h2>What {html.escape(row["paper_ref"])} '
            f"rests on ({status})</h2><p>{len(below)} node(s) below it: every statement, proof step and cited "
            "fact its argument uses, down to the facts, and the errata that make any of them fail. "
            f'<a class="screen-only" href="#contents">All main results</a></p>'
            + graph_figure(view_svg(nodes, edges, key, href, _claim_rank, claim_row), "graph-box view-box")
            + "</section>"
        )
    contents.append('<li><a href="#sections">The whole graph, by the paper\'s sections</a></li>')
    body = (
        f'<nav><a href="{report}">← verification report</a></nav>'
        "<h1>The argument graph</h1>"
        f"<p>{len(nodes)} nodes: every statement the project tracks (coloured by its status), every cited "
        "textbook fact and every root cause of an erratum; an arrow from a statement to what its argument uses, "
        "to a step of its printed proof, and from an erratum to what it makes fail. Higher statements rest on "
        "lower ones. First each main result with what it rests on, then the whole graph by the paper's sections. "
        f"{html.escape(PANEL_HINT)}</p>"
        + legend_svg()
        + f'<h2 id="contents">The main results</h2><ul class="graph-contents">{"".join(contents)}</ul>'
        + "".join(views)
        + '<section class="graph-sections" id="sections"><h2>The whole graph, by the paper\'s sections</h2>'
        "<p>A frame per section of the paper, in its order (an erratum in the section of the statement it makes "
        "fail, the cited facts last); an arrow between two sections is drawn faint until one of its ends is "
        "selected. Printed, each section is a picture of its own, kept on one page, without the arrows between "
        "sections.</p>"
        + GRAPH_FIT
        + graph_figure(sections_svg(nodes, edges, href, _claim_rank, claim_row))
        # printed: a picture per section, each kept on one page, instead of one picture sliced across pages
        + '<div class="print-only">'
        + "".join(
            '<div class="section-print">' + sections_svg(group, edges, href, _claim_rank, claim_row) + "</div>"
            for group in by_section(nodes)
        )
        + "</div></section>"
        + GRAPH_SCRIPT
    )
    # the graph's own rules in a block of their own, after the report's: the report's block stays the one the committed
    # site writes once (sparseact.publish.site.shared_styles); the graph uses the window's width
    page_css = f"<style>{GRAPH_CSS}body {{ max-width: none; }}</style>"
    return _page("sparseact argument graph", body, Path(page).name).replace("</style>", "</style>" + page_css, 1)


def build_report(
    results_dir: str | Path,
    result_paths: Sequence[str | Path],
    benchmark_paths: Sequence[str | Path],
    index_html: str | Path,
    timings_html: str | Path,
    root: str | Path = ".",
    logs: str | Path | None = None,
) -> None:
    """Write the verification report (``index_html``) and the wall-time page (``timings_html``).

    ``results_dir`` holds the result tables (:func:`sparseact.publish.findings.load_results`) and the
    claim pages (``pages/<claim>.html``). The ledger's evidence and certificate paths are
    relative to ``root``, the repository root (the workflow's working directory). Paths inside
    the pages are relative to the page, so the report can be opened from disk.
    """
    results_dir, base = Path(results_dir), Path(index_html).parent
    results = load_results(results_dir)
    timings_link = _link(timings_html, base, "per-job timings")
    graph_html = base / GRAPH_PAGE
    nav = (
        " · ".join(
            f'<a href="#{section}">{label}</a>'
            for section, label in (
                ("headline", "Headline results"),
                ("errata", "Errata"),
                ("open", "Open"),
                ("tightness", "Tightness"),
                ("statements", "All statements"),
                ("facts", "Cited facts"),
                ("checks", "Checks by claim"),
                ("provenance", "Provenance"),
            )
        )
        + f" · {_link(graph_html, base, 'the argument graph (picture)')}"
        + f'<span class="{RUN_ONLY}"> · {timings_link}</span> · {erratum_link(results_dir, base)}'
        + f' · <a href="{PAPER_PDF}">the paper ({PAPER_VERSION})</a>'
    )
    body = [
        "<h1>Does “Learning Neural Networks with Sparse Activations” (COLT 2024) hold up?</h1>",
        f'<p class="byline">A machine-checked verification of {html.escape(PAPER_AUTHORS)}, '
        f"“Learning Neural Networks with Sparse Activations”, {html.escape(PAPER_VERSION)} "
        f'(<a href="{PAPER_PDF}">PDF</a>, <a href="{PAPER_ARXIV}">arXiv</a>).</p>',
        f"<nav>{nav}</nav>",
        '<h2 id="headline">Headline results</h2>',
        headline_html(results, results_dir, base),
        f'<p class="bottom-line"><b>Bottom line.</b> {_math(bottom_line(results))}</p>',
        counts_html(results),
        sharper_and_open_html(results),
        legend_html(),
        '<h2 id="errata">Errata by root cause</h2><p>Addressed to the authors: location, printed text, why it '
        "fails, the certificate's counterexample and the proposed correction.</p>",
        errata_html(results, results_dir, base),
        '<h2 id="tightness">Tightness</h2><p>Each bound as printed, as proved here and as measured on the '
        "family that comes closest, with the ratios between them and the exponents.</p>",
        _table(
            TIGHTNESS_HEADER,
            [
                [f"<b>{html.escape(where)}</b><br>{_math(bound)}", *map(_math, cells)]
                for where, bound, cells in tightness_rows(results)
            ],
            css="sa-cards-always",  # nine columns of formulas fit no screen: cards at every width
            printed=(0, 1, 2, 4),
        ),
        '<h2 id="statements">All statements</h2>',
        statements_html(results, results_dir, base),
        '<h2 id="facts">Cited facts</h2><p>Textbook facts the arguments cite (not proved here), each tested on '
        "instances by the checks named.</p>",
        facts_html(results),
        '<h2 id="checks">Checks by claim</h2><p class="screen-only">Click a claim to list its checks.</p>',
        checks_html(results, results_dir, Path(root), base),
        '<h2 id="provenance">Provenance</h2>',
        provenance_html(result_paths, base, git_revision(Path(__file__).resolve().parent)),
        f'<div class="{RUN_ONLY}"><h2 id="timings">Timings</h2><p>Wall time and peak memory of every job: '
        f"{timings_link} (a separate page, so that this one is byte-identical from run to run).</p></div>",
    ]
    page = _page("sparseact verification report", "".join(body), Path(index_html).name)
    atomic_write_text(index_html, link_corner_rule(page, index_html))
    atomic_write_text(graph_html, graph_page(results, index_html, graph_html, results_dir))
    for check_id in results.ledger.loc[results.ledger["certificate"] != "", "check_id"]:
        document = json.loads(Path(certificate_path(check_id, results_dir)).read_text(encoding="utf-8"))
        page = certificate_page_path(results_dir, check_id)
        page.parent.mkdir(parents=True, exist_ok=True)
        atomic_write_text(page, link_corner_rule(certificate_page(document, results, results_dir), page))
    # the folder's manifest: a page deleted later makes the workflow plan this job again (runtime.outputs)
    pages = Path(results_dir) / "report" / CERTIFICATE_PAGES
    pages.mkdir(parents=True, exist_ok=True)
    write_manifest(pages)
    timings = timings_table(benchmark_paths, logs).sort_values(["claim", "stage", "shard"], kind="stable")
    timings_base = Path(timings_html).parent
    back = _link(index_html, timings_base, "back to the verification report")
    rows = [
        [
            html.escape(r["claim"]) or "(all claims)",
            html.escape(r["stage"]),
            html.escape(r["shard"]),
            f"{r['seconds']:.1f}",
            f"{r['max_rss_mib']:.0f}",
        ]
        for _, r in timings.iterrows()
    ]
    atomic_write_text(
        timings_html,
        _page(
            "sparseact timings",
            f"<p>{back}</p><h1>Per-job wall time</h1>"
            f"<p>Total {timings['seconds'].sum():.1f} s of job time.</p>"
            + _table(["claim", "stage", "shard", "seconds", "peak memory (MiB)"], rows, printed=range(5)),
            Path(timings_html).name,
        ),
    )


def claim_header_html(claim_id: str, results_dir: str | Path, page: str | Path, results: Results | None = None) -> str:
    """The first screen of a claim page: navigation, the status of its statements, the verdicts bearing on them
    (each FAIL linking its certificate's page); ``results``, the tables of ``results_dir`` when already loaded."""
    results_dir, base = Path(results_dir), Path(page).parent
    results = load_results(results_dir) if results is None else results
    order = paper_order([*results.statements["claim_id"], *results.ledger["claim_id"], claim_id])
    position = order.index(claim_id)
    previous = order[position - 1] if position > 0 else ""
    following = order[position + 1] if position + 1 < len(order) else ""
    links = [_link(results_dir / "report" / "index.html", base, "← verification report")]
    links += [
        _link(_claim_page_path(results_dir, c), base, f"{label} {_claim_name(results, c)}")
        for label, c in (("previous:", previous), ("next:", following))
        if c
    ]
    statements, lead = leading_statements(results, claim_id)
    places = len(dict.fromkeys(statements["paper_ref"])) - len(lead)
    links.append(
        f'<a href="{PAPER_PDF}">the paper ({PAPER_VERSION})</a> ({html.escape(" and ".join(lead["paper_ref"]))}'
        + (f"; {places} more places in the table below" if places > 0 else "")
        + ")"
    )
    checks = results.ledger[results.ledger["statement_id"].isin(set(statements["statement_id"]))]
    counts = checks["verdict"].value_counts()
    tally = ", ".join(
        f'<span class="{v}">{v}</span> {int(counts[v])}' for v in ("PASS", "FAIL", "INCONCLUSIVE") if v in counts
    )
    failed = checks[checks["verdict"] == "FAIL"]
    fails = "; ".join(
        f"<code>{html.escape(r['check_id'])}</code> ({html.escape(FINDING_WORDS.get(r['finding'], r['finding']))}, "
        + _link(certificate_page_path(results_dir, r["check_id"]), base, "certificate")
        + ")"
        for _, r in failed.iterrows()
    )
    report = _href(results_dir / "report" / "index.html", base)
    own = set(statements["statement_id"])
    on_report = targets(results, report)
    here = {**on_report, **{sid: f"#{anchor(sid)}" for sid in own}}
    rows, anchors = statement_rows(
        results,
        statements,
        here,
        lambda row: html.escape(row["paper_ref"]),
        certificate_links(results, results_dir, base),
    )
    title = " and ".join(lead["paper_ref"]) or claim_id
    reasons = (
        verdict_html(results, lead, here)
        + argument_html(results, lead, here, certificate_links(results, results_dir, base))
        + chains_html(results, statements, here)
        + _table(["where", "status", "statement (as printed)", "reason"], rows, "statements", anchors, printed=(0, 1))
        + f"<details><summary><b>Verdicts of the {len(checks)} checks bearing on these statements</b> (from "
        f"every claim): {tally or 'none'}</summary><p>{'FAIL: ' + fails + '.' if fails else 'No FAIL.'}</p>"
        "</details>"
    )
    return (
        f'<header class="sa-header"><nav>{" · ".join(links)}</nav>'
        f"<h1>{html.escape(title)} <small>(claim <code>{html.escape(claim_id)}</code>)</small></h1>"
        + named_links(link_ids(reasons, here), set(results.statements["statement_id"]))
        + claim_graph_html(results, own, here, report)
        + "</header>"
    )


def named_links(fragment: str, statement_ids: set[str]) -> str:
    """``fragment`` with every link that reads as a statement's id reading as the statement's name instead
    (:func:`sparseact.paper.name`: where it is printed and what it is), so that a reader meets words, not ids."""

    def named(match: re.Match) -> str:
        identifier = html.unescape(match.group(2))
        if identifier not in statement_ids:
            return match.group(0)
        try:
            text = statement_name(identifier)
        except KeyError:  # a statement of the run that the paper's data no longer has
            return match.group(0)
        return f"<a{match.group(1)}>{_math(text)}</a>"

    return _ID_LINK.sub(named, fragment)


def _claim_name(results: Results, claim_id: str) -> str:
    """A claim as a reader knows it: the places of the statements its page leads with (:func:`brief_ref`), else its
    id."""
    lead = leading_statements(results, claim_id)[1]
    return " and ".join(dict.fromkeys(map(brief_ref, lead["paper_ref"]))) or claim_id


#: A link whose text is one id (in ``<code>`` or not): group 1 its attributes, group 2 the id.
_ID_LINK = re.compile(r"<a(\s[^>]*)>(?:<code>)?([\w.:/-]+)(?:</code>)?</a>")


def claim_status_markdown(results: Results, claim_id: str) -> str:
    """The statuses a claim's committed notebook opens on (:mod:`sparseact.publish.codehost`), in Markdown with links
    relative to ``results/notebooks/``: each leading statement's status and what it means for the authors (a main
    result's README line, :func:`sparseact.publish.findings.what_changes`), and where the reasons are."""
    statements, lead = leading_statements(results, claim_id)
    lines = []
    for _, row in lead.iterrows():
        headline = results.headline[results.headline["statement_id"] == row["statement_id"]]
        said = (
            what_changes(results, headline.iloc[0], "../findings.md#erratum-{id}")
            if len(headline)
            else first_sentence(row["reason"])
        )
        lines.append(f"* **{row['paper_ref']}: {status_text(row['status'], row['class'], row['range'])}.** {said}")
    others = len(statements) - len(lead)
    lines += [
        "",
        f"Statuses from the run's argument graph (generated). Why: `sparseact explain {lead['statement_id'].iloc[0]}` "
        "prints the chain down to checks and cited facts; "
        + (f"this claim's {others} other statements and every reason are" if others else "every reason is")
        + " in [the statements table](../statements.md), the errata in [findings](../findings.md).",
    ]
    return "\n".join(markdown_math(line, in_table=False) for line in lines)


def leading_statements(results: Results, claim_id: str) -> tuple[pd.DataFrame, pd.DataFrame]:
    """The claim's statements (:func:`claim_statements`) and those its page leads with: its main results, or its
    first statement when it has none."""
    statements = claim_statements(results, claim_id)
    main = statements[statements["main"]]
    return statements, main if len(main) else statements[:1]


def claim_statements(results: Results, claim_id: str) -> pd.DataFrame:
    """The claim's statements with a ``main`` column, main results first (the claim's namesake leading them), then in
    the paper's reading order."""
    main = {e["id"] for e in paper_statements() if e.get("main")}
    own = results.statements[results.statements["claim_id"] == claim_id]
    own = own.assign(main=own["statement_id"].isin(main))
    order = sorted(
        range(len(own)),
        key=lambda i: (
            not own["main"].iloc[i],
            own["statement_id"].iloc[i] != claim_id,  # the claim's namesake leads its page
            paper_position(own["paper_ref"].iloc[i]),
            own["statement_id"].iloc[i],
        ),
    )
    return own.iloc[order]


def verdict_html(results: Results, lead: pd.DataFrame, links: dict[str, str]) -> str:
    """One line per leading statement (the claim's main results): its status in words and, for a main result, what
    it costs the authors (``headline.csv``), every id in it a link."""
    costs = (
        dict(zip(results.headline["statement_id"], results.headline["cost"], strict=True))
        if len(results.headline)
        else {}
    )
    lines = []
    for _, row in lead.iterrows():
        gloss = f" ({STATUS_GLOSS[row['status']]})" if row["status"] in STATUS_GLOSS else ""
        cost = costs.get(row["statement_id"], "")
        lines.append(
            f'<p class="verdict"><b>{html.escape(row["paper_ref"])}: '
            f'<span class="{html.escape(row["status"])}">'
            f"{_math(status_text(row['status'], row['class'], row['range']))}</span></b>{html.escape(gloss)}."
            + (f" {link_ids(_math(cost), links)}" if cost else "")
            + "</p>"
        )
    return "".join(lines)


def argument_html(results: Results, lead: pd.DataFrame, links: dict[str, str], certificates: Mapping[str, str]) -> str:
    """The argument first, one line per leading statement. A statement that fails as stated names what refutes it:
    the proved refutations of the graph (``refuted_by``), each a link, its certificates then finite instances; else
    its certificates (each a link, in words). Any other names the premises its status rests on (each a link) and
    its own checks; a premise that is the statement with its printed logarithms floored (``floored_by``) gives way to
    that variant's own premises, the proof, and the floor follows in one line. The reasons in full, corners
    included, follow in the chain and the table."""
    entries = {e["id"]: e for e in paper_statements()}
    status = dict(zip(results.statements["statement_id"], results.statements["status"], strict=True))
    uses = dict(zip(results.statements["statement_id"], results.statements["uses"], strict=True))
    fact_names = {f["id"]: f["name"] for f in paper_facts()}
    lines = []
    for _, row in lead.iterrows():
        sid, entry = row["statement_id"], entries.get(row["statement_id"], {})
        if row["status"] == "fails-as-stated":
            refuting = results.ledger[(results.ledger["statement_id"] == sid) & (results.ledger["verdict"] == "FAIL")]
            shown = [c for c in refuting["check_id"] if c in certificates]
            words = ["its certificate"] if len(shown) == 1 else [f"certificate {i}" for i in range(1, len(shown) + 1)]
            linked = ", ".join(
                f'<a href="{html.escape(certificates[c])}">{w}</a>' for c, w in zip(shown, words, strict=True)
            )
            proofs = [p for p in entry.get("refuted_by", ()) if status.get(p) == "proved"]
            if proofs:
                instances = f" ({linked}: {'a finite instance' if len(shown) == 1 else 'finite instances'})"
                proof = (
                    "Refuted by "
                    + ", ".join(link_ids(html.escape(p), links) for p in proofs)
                    + ", proved"
                    + (instances if shown else "")
                )
            else:
                proof = "Refuted by " + (linked or "its premises' refutations (the chain below)")
        else:
            floored = entry.get("floored_by", "")
            premises = [q for p in ids(row["uses"]) for q in (ids(uses.get(p, "")) if p == floored else [p])]
            named = [p for p in premises if premise_kind(p) != "check"]
            own, checks = len(ids(row["checks"])), len(ids(row["checks"])) + len(premises) - len(named)
            counted = f"{checks} check{'' if checks == 1 else 's'}" + (
                f" ({own} of its own)" if own and own < checks else " of its own" if own else ""
            )
            proof = (
                "Rests on "
                + (", ".join(_premise_link(p, links, fact_names) for p in named) or "no premise")
                + (f" and {counted}" if checks else "")
            )
            if floored in ids(row["uses"]):
                proof += (
                    f". Where a printed logarithm is below 1, it is floored at 1 under the corner rule "
                    f"({link_ids(html.escape(floored), links)})"
                )
        lines.append(f'<p class="argument"><b>The argument for {html.escape(row["paper_ref"])}.</b> {proof}.</p>')
    return "".join(lines)


def _premise_link(premise: str, links: dict[str, str], fact_names: Mapping[str, str]) -> str:
    """A premise as a link: a cited fact by its name, a statement by its id (which :func:`named_links` names)."""
    if premise in fact_names and premise in links:
        return f'<a href="{html.escape(links[premise])}">{html.escape(fact_names[premise])}</a>'
    return link_ids(html.escape(premise), links)


def chains_html(results: Results, statements: pd.DataFrame, links: dict[str, str]) -> str:
    """The chain behind the claim's own result (the statement named as the claim), else behind each of its main results
    (else its first statement), as ``sparseact explain`` prints it, in one collapsed block each: typeset, every id a
    link, a statement's line its id (which :func:`named_links` names) and its status in words, every statement, check
    and fact expanded once (met again, it links back to where it was expanded). An
    informal version of the claim's result (Theorem 4 on Theorem 8's page) has its own row, not a second chain."""
    entries = {e["id"]: e for e in paper_statements()}
    known = [sid for sid in statements["statement_id"] if sid in entries]
    main = [sid for sid in known if entries[sid].get("main")]
    chosen = [sid for sid in main if sid in set(statements["claim_id"])] or main or known[:1]
    ledger = results.ledger.assign(instances=results.ledger["instances"].map(lambda v: v or "0"))
    shown = results.statements.set_index("statement_id")
    parts = []
    for number, sid in enumerate(chosen):
        row = _statement_row(results, sid)
        items = explain_chain(sid, ledger)
        body, depth = [], -1
        for item in items:
            if item.depth > depth:  # one level down: a list inside the open item
                body.append("<ul>")
            else:  # the same level or up: close the open item and every list below this level
                body += ["</li></ul>"] * (depth - item.depth) + ["</li>"]
            depth = item.depth
            own = f"chain{number}-{item.identifier}"
            if item.kind == "statement" and item.identifier in shown.index:  # its name (named_links) and status
                state = shown.loc[item.identifier]
                head = f"{link_ids(html.escape(item.identifier), links)}: " + _math(
                    status_text(state["status"], state["class"], state["range"])
                )
            else:
                head = link_ids(_math(item.head.replace(" (see above)", "")), links)
            head += f' <a href="#{html.escape(own)}">(see above)</a>' if item.again else ""
            why = f'<div class="why">{link_ids(_math(item.why), links)}</div>' if item.why else ""
            corrected = f'<div class="why">Corrected: {_math(item.corrected)}</div>' if item.corrected else ""
            body.append(("<li>" if item.again else f'<li id="{html.escape(own)}">') + head + why + corrected)
        body += ["</li></ul>"] * (depth + 1)
        parts.append(
            f'<details class="chain"><summary><b>Why {html.escape(row["paper_ref"])} '
            f"{html.escape(status_clause(row['status'], row['class'], row['range']))}</b>: the chain down to "
            f"checks and cited facts ({len(items)} lines, each statement, check and fact expanded once; "
            f"<code>sparseact explain {html.escape(sid)}</code> prints it)</summary>{''.join(body)}</details>"
        )
    return "".join(parts)


def claim_graph_html(results: Results, own: set[str], here: dict[str, str], report: str) -> str:
    """The subgraph of a claim's statements (``own``) and everything one edge away, each node a link: to its row on
    this page (``here``) or on the report (``report``)."""
    nodes, edges = subgraph(
        graph_nodes(results.statements, results.errata), graph_edges(results.statements, results.errata), own
    )

    def href(node) -> str:
        if node.key.startswith(ERRATUM_PREFIX) or node.key not in here:
            return f"{report}#{node_anchor(node.key)}"
        return here[node.key]

    svg = graph_svg(nodes, edges, href, _claim_rank, "the argument graph of this claim's statements")
    return (
        '<details class="claim-graph" open><summary><b>The argument graph of these '
        f"statements</b> ({len(own)} statements, with what they use and what uses them; the whole graph: "
        f'<a href="{html.escape(posixpath.join(posixpath.dirname(report), GRAPH_PAGE))}">{GRAPH_PAGE}</a>)'
        "</summary>" + legend_svg() + f'<div class="graph-box">{svg}</div></details>'
    )


#: Styles of the claim page's header (added to the notebook page's own).
CLAIM_HEADER_CSS = (
    """
.sa-header { border-bottom: 2px solid #8c959f; margin-bottom: 1em; padding-bottom: 0.5em; font-size: 0.95em;
  font-family: system-ui, sans-serif; }
.sa-header .scroll { overflow-x: auto; max-width: 100%; }
.sa-header table { border-collapse: collapse; width: 100%; }
.sa-header th, .sa-header td { border: 1px solid #d0d7de; padding: 0.25em 0.5em; vertical-align: top; text-align: left; }
"""
    + status_fill_css(".sa-header ")
    + """.sa-header td.status { min-width: 7em; }
.sa-header small.gloss { font-weight: normal; }
.sa-header h1 { font-size: 1.5em; margin: 0.3em 0 0.2em; }
.sa-header p.verdict { font-size: 1.1em; margin: 0.2em 0 0.6em; }
.sa-header a { color: #0b57a4; }
.sa-header details.chain ul { padding-left: 1.3em; margin: 0.2em 0; }
.sa-header details.chain .why { font-size: 0.92em; color: #333; margin: 0.1em 0 0.3em; }
@media print {  /* the report's size on paper, not the screen's 14 px; an output (all the check cards) may break */
  .jp-RenderedHTMLCommon { font-size: 9pt; }
  .jp-OutputArea-child { break-inside: auto; }
}
"""
    + GRAPH_CSS
    + PRINT_CSS
    + CARDS_CSS
    + PRINT_OPEN_CSS
    + PRINT_SUMMARY_CSS
)


#: The folder, beside ``pages/``, of what each job after the ledger reads of the ledger's outputs (:func:`write_slices`):
#: each claim page's slice, and the digest of the erratum note's PDF sources (:data:`ERRATUM_PDF_SLICE`).
SLICES = "slices"

#: The erratum note's PDF's slice: :func:`sparseact.publish.notepdf.pdf_source_digest` of the note and its certificates.
ERRATUM_PDF_SLICE = "erratum-pdf.sha256"


def claim_slice_path(results_dir: str | Path, claim_id: str) -> Path:
    """Where the slice of ``claim_id``'s page goes: ``slices/<claim>.json`` in ``results_dir``."""
    return Path(results_dir) / SLICES / f"{claim_id}.json"


def write_slices(
    results_dir: str | Path, claim_ids: Sequence[str], certificates_written: Callable[[], None] = lambda: None
) -> list[Path]:
    """Write the slices of ``results_dir``'s ledger outputs that the jobs after the ledger read, and the folder's
    manifest; return the slices written.

    The slices: each claim's, what its page shows of the result tables (its header, :func:`claim_header_html`, for
    the page ``pages/<claim>.html``); and the erratum PDF's, the digest of the note and the certificates it
    attaches (:data:`ERRATUM_PDF_SLICE`), read once ``certificates_written()`` returns (the ledger job writes the
    certificates meanwhile, in a child: :func:`sparseact.runtime.forked.beside`). A slice whose content is unchanged
    is left alone, time stamp included: the workflow renders a claim page again only when its slice or its notebook
    changed, and compiles the PDF again only when the note or a certificate changed, not whenever the ledger rewrote
    its outputs."""
    results_dir = Path(results_dir)
    results = load_results(results_dir)
    written = []
    for claim_id in claim_ids:
        page = _claim_page_path(results_dir, claim_id)
        document = {
            "claim_id": claim_id,
            "page": page.as_posix(),
            "header": claim_header_html(claim_id, results_dir, page, results),
            "notebook_status": claim_status_markdown(results, claim_id),
        }
        path = claim_slice_path(results_dir, claim_id)
        if write_text_if_changed(path, json.dumps(document, ensure_ascii=False, indent=1, sort_keys=True) + "\n"):
            written.append(path)
    names = [f"{claim_id}.json" for claim_id in claim_ids]
    certificates_written()
    note = results_dir / "erratum" / "erratum.tex"
    if note.is_file():  # the ledger writes the note first; a folder of result tables alone has none
        names.append(ERRATUM_PDF_SLICE)
        if write_text_if_changed(results_dir / SLICES / ERRATUM_PDF_SLICE, pdf_source_digest(note)):
            written.append(results_dir / SLICES / ERRATUM_PDF_SLICE)
    # the folder's manifest: a slice deleted later makes the workflow plan the ledger again (runtime.outputs)
    write_manifest(results_dir / SLICES, names)
    return written


def read_claim_slice(claim_slice: str | Path, page: str | Path) -> tuple[str, str]:
    """The page header and the notebook's statuses a claim's slice holds, for ``page``: ``ValueError`` when the slice
    was written for another page (its links are relative to the page's folder) or is not a slice."""
    try:
        document = json.loads(Path(claim_slice).read_text(encoding="utf-8"))
        header, status, written_for = document["header"], document["notebook_status"], document["page"]
    except (ValueError, UnicodeError, KeyError, TypeError) as exc:
        raise ValueError(f"{claim_slice}: not a claim page's slice ({type(exc).__name__}: {exc})") from None
    if Path(os.path.abspath(written_for)) != Path(os.path.abspath(page)):
        raise ValueError(f"{claim_slice}: written for the page {written_for}, not {page}")
    return header, status


def claim_page(notebook: str | Path, claim_slice: str | Path, page: str | Path, committed: str | Path) -> None:
    """Write ``page``: the executed ``notebook`` (inputs hidden) under the header its slice holds
    (:func:`write_slices`); and ``committed``, the notebook as a code host shows it, opening on the statuses
    (:func:`sparseact.publish.codehost.code_host_notebook`)."""
    # deferred: nbformat, nbconvert and jinja2 load only in a claim page's job, not in the report's
    import nbformat

    from sparseact.publish.codehost import code_host_notebook
    from sparseact.publish.notebook_page import notebook_html

    header, status = read_claim_slice(claim_slice, page)
    executed = nbformat.read(notebook, as_version=4)
    atomic_write_text(committed, nbformat.writes(code_host_notebook(executed, status)) + "\n")
    body = notebook_html(executed)
    if "<main>" not in body or "</head>" not in body:
        raise ValueError(f"{notebook}: the rendered page has no <main> to put the header in")
    body = body.replace("</head>", f"<style>{CLAIM_HEADER_CSS}</style></head>", 1).replace(
        "<main>", "<main>" + header, 1
    )
    atomic_write_text(page, link_corner_rule(summarise_for_print(label_cells(body), Path(page).name), page))
