"""The verification report: one HTML page that says what the paper claims, what we measured, and whether it holds.

:func:`build_report` writes ``index.html``. Its first screen (1400 x 900) holds the
answer in one paragraph, a line of links to the sections, the errata counted by severity
and the start of the statements table (which of the paper's results hold, fail as stated
or are not settled, each with a figure thumbnail linking its claim's notebook report).
Then come the errata, one table per severity (:func:`sparseact.statements.errata_table`),
a Tightness section (observed constants, fitted exponents, slack), the checks per claim
(one collapsed ``<details>`` each), Provenance (versions, git revision, config hashes) and
a link to ``timings.html``, which links back. Wall times live on that separate page because
they change from run to run while ``index.html`` is byte-identical.
"""

from __future__ import annotations

import html
import json
import os
from collections.abc import Sequence
from pathlib import Path

import pandas as pd

from sparseact.provenance import atomic_write_text

_CSS = """
body { font-family: system-ui, sans-serif; margin: 1em auto; max-width: 1200px; padding: 0 1em; color: #222; }
h1 { font-size: 1.5em; margin: 0.3em 0; }
h2 { font-size: 1.25em; margin: 1em 0 0.4em; }
h3 { font-size: 1.05em; margin: 0.8em 0 0.3em; }
p { margin: 0.4em 0; }
nav { font-size: 0.9em; margin: 0.4em 0; }
table { border-collapse: collapse; width: 100%; font-size: 0.85em; margin-bottom: 1.5em; }
th, td { border: 1px solid #ccc; padding: 4px 6px; vertical-align: top; text-align: left; }
td a, td code { overflow-wrap: anywhere; }
th { background: #f0f0f0; }
.PASS, .holds { background: #e3f5e1; font-weight: bold; }
.FAIL, .fails-as-stated { background: #fbe0e0; font-weight: bold; }
.INCONCLUSIVE, .not-settled { background: #fff4d6; font-weight: bold; }
img.thumb { width: 120px; display: block; }
table.statements td:first-child { width: 120px; }
#errata-summary { background: #f7f7f7; border-left: 4px solid #c33; padding: 4px 8px; }
details { margin-bottom: 0.5em; }
code { font-size: 0.95em; }
math { font-size: 1.12em; }
"""


def _link(path: str, base: Path, label: str | None = None) -> str:
    target = os.path.relpath(path, base)
    return f'<a href="{html.escape(target)}">{html.escape(label or Path(path).name)}</a>'


def _evidence_html(evidence: str, base: Path) -> str:
    paths = [p.strip() for p in str(evidence).split(";") if p.strip()]
    return " ".join(_link(p, base, "report" if p.endswith(".html") else Path(p).name) for p in paths)


def _cell(value) -> str:
    if isinstance(value, float):
        return "" if pd.isna(value) else f"{value:.4g}"
    return html.escape(str(value))


def _table(frame: pd.DataFrame, base: Path) -> str:
    head = "".join(f"<th>{html.escape(c)}</th>" for c in frame.columns)
    rows = []
    for _, row in frame.iterrows():
        cells = []
        for column in frame.columns:
            value = row[column]
            if column == "evidence":
                cells.append(f"<td>{_evidence_html(value, base)}</td>")
            elif column == "certificate" and value:
                cells.append(f"<td>{_link(str(value), base)}</td>")
            elif column == "verdict":
                cells.append(f'<td class="{html.escape(str(value))}">{html.escape(str(value))}</td>')
            else:
                cells.append(f"<td>{_cell(value)}</td>")
        rows.append("<tr>" + "".join(cells) + "</tr>")
    return f"<table><thead><tr>{head}</tr></thead><tbody>{''.join(rows)}</tbody></table>"


def tightness(ledger: pd.DataFrame) -> pd.DataFrame:
    """Bounds measured as ratios: observed constant (worst ratio) and, in the notes, fitted exponents and slack."""
    ledger = ledger.fillna("")
    mask = ledger["worst_value_label"].str.contains("ratio", regex=False)
    rows = ledger[mask]
    return pd.DataFrame(dict(check=rows["check_id"], paper_ref=rows["paper_ref"], statement=rows["statement"],
                             method=rows["method"], observed=rows["worst_value"], measure=rows["worst_value_label"],
                             verdict=rows["verdict"], exponents_and_slack=rows["notes"]))


def provenance_table(result_paths: Sequence[str | Path]) -> tuple[pd.DataFrame, dict]:
    """Seed, config hash, git revision and CPU dispatch of every result file; the package versions of the first."""
    rows, packages = [], {}
    for path in result_paths:
        data = json.loads(Path(path).read_text())
        prov = data["provenance"]
        packages = packages or prov["packages"]
        dispatch = "; ".join(f"{name}={value}" for name, value in prov["cpu_dispatch"].items()) or "by the CPU"
        rows.append(dict(result=str(path), seed=prov["seed"], config_hash=prov["config_hash"],
                         git_revision=prov["git_revision"], python=prov["python"], cpu_dispatch=dispatch))
    return pd.DataFrame(rows), packages


def timings_table(benchmark_paths: Sequence[str | Path]) -> pd.DataFrame:
    """Per-job wall time and peak memory from Snakemake's ``benchmark:`` files."""
    rows = []
    for path in benchmark_paths:
        frame = pd.read_csv(path, sep="\t")
        rows.append(dict(job=Path(path).stem, seconds=float(frame["s"].iloc[0]), max_rss_mib=float(frame["max_rss"].iloc[0])))
    return pd.DataFrame(rows, columns=["job", "seconds", "max_rss_mib"])


def _page(title: str, body: str) -> str:
    return (f"<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>{html.escape(title)}</title>"
            f"<style>{_CSS}</style></head><body>{body}</body></html>\n")


def _figure_of(checks: pd.DataFrame) -> tuple[str, str]:
    """The first PNG figure and the notebook report among the evidence of ``checks``."""
    paths = [p.strip() for e in checks["evidence"] for p in str(e).split(";") if p.strip()]
    png = next((p for p in paths if p.endswith(".png")), "")
    page = next((p for p in paths if p.endswith(".html")), "")
    return png, page


def _statements_html(statements: pd.DataFrame, ledger: pd.DataFrame, base: Path) -> str:
    from sparseact.mathtext import render_text  # statement and reason: escaped, with any $...$ math as MathML

    rows = []
    for _, row in statements.iterrows():
        png, page = _figure_of(ledger[ledger["statement_id"] == row["statement_id"]])
        if not (png and page):  # e.g. a statement with no checks of its own: its claim's figure and report
            claim_png, claim_page = _figure_of(ledger[ledger["claim_id"] == row["claim_id"]])
            png, page = png or claim_png, page or claim_page
        thumb = (f'<a href="{html.escape(os.path.relpath(page or png, base))}"><img class="thumb" alt="figure" '
                 f'src="{html.escape(os.path.relpath(png, base))}"></a>') if png else ""
        link = _link(page, base, row["claim_id"]) if page else html.escape(row["claim_id"])
        rows.append(f'<tr><td>{thumb}</td><td>{html.escape(row["paper_ref"])}<br><small>{link}</small></td>'
                    f'<td>{render_text(row["statement"], breakable=True)}</td><td class="{html.escape(row["status"])}">'
                    f'{html.escape(row["status"])}{"<br><small>" + html.escape(row["class"]) + "</small>" if row["class"] else ""}'
                    f'</td><td>{html.escape(row["range"])}</td>'
                    f'<td>{render_text(row["reason"], breakable=True)}</td></tr>')
    head = "".join(f"<th>{c}</th>" for c in ("", "where", "statement (as printed)", "status", "range", "reason"))
    return f'<table class="statements"><thead><tr>{head}</tr></thead><tbody>{"".join(rows)}</tbody></table>'


def _errata_summary_html(errata: pd.DataFrame) -> str:
    """One line for the first screen: how many errata of each severity, each linking its section."""
    counts = errata["class"].value_counts(sort=False)
    items = [f'<a href="#errata-{html.escape(severity)}">{html.escape(severity)}</a> {int(counts[severity])}'
             for severity in dict.fromkeys(errata["class"])]
    listed = ", ".join(items) if items else "none"
    return (f'<p id="errata-summary"><b>Errata by severity</b> ({len(errata)} failed checks, most severe first): '
            f'{listed}. <a href="#errata">Full list</a> with counterexamples and proposed corrections.</p>')


def _errata_html(errata: pd.DataFrame, base: Path) -> str:
    """The errata, one table per severity (most severe first), each under an anchor ``errata-<severity>``."""
    parts = []
    for severity in dict.fromkeys(errata["class"]):
        rows = errata[errata["class"] == severity].drop(columns=["class"])
        parts.append(f'<h3 id="errata-{html.escape(severity)}">{html.escape(severity)} ({len(rows)})</h3>'
                     f"{_table(rows, base)}")
    return "".join(parts) or "<p>No check failed.</p>"


def _checks_html(ledger: pd.DataFrame, base: Path) -> str:
    columns = ["check_id", "statement_id", "variant", "method", "instances", "worst_value", "worst_value_label",
               "verdict", "finding", "seeds", "counterexample", "evidence"]
    parts = []
    for claim_id, checks in ledger.groupby("claim_id", sort=True):
        counts = checks["verdict"].value_counts()
        summary = ", ".join(f"{v} {int(counts.get(v, 0))}" for v in ("PASS", "FAIL", "INCONCLUSIVE") if counts.get(v))
        parts.append(f"<details><summary><b>{html.escape(claim_id)}</b>: {len(checks)} checks ({summary})</summary>"
                     f"{_table(checks[columns], base)}</details>")
    return "".join(parts)


def build_report(ledger_csv: str | Path, statements_csv: str | Path, result_paths: Sequence[str | Path],
                 benchmark_paths: Sequence[str | Path], index_html: str | Path, timings_html: str | Path) -> None:
    """Write the verification report (``index_html``) and the wall-time page (``timings_html``).

    The report leads with the answer: the counts, the errata by severity (one line,
    linking each severity's table) and the statements table (which results of the
    paper hold, fail as stated, or are not settled), then the errata, tightness, the
    checks per claim (collapsed), provenance and the link to the timings page. Paths
    inside the pages are relative to the page, so the report can be opened from disk.
    """
    from sparseact.statements import status_counts

    base = Path(index_html).parent
    ledger = pd.read_csv(ledger_csv, keep_default_na=False)
    statements = pd.read_csv(statements_csv, keep_default_na=False)
    counts = status_counts(statements)
    verdicts = ledger["verdict"].value_counts()
    prov, packages = provenance_table(result_paths)
    errata = pd.read_csv(Path(statements_csv).with_name("errata.csv"), keep_default_na=False)
    timings_link = _link(str(timings_html), base, "per-job timings")
    nav = " · ".join(f'<a href="#{anchor}">{label}</a>' for anchor, label in (
        ("statements", "Statements"), ("errata", "Errata"), ("tightness", "Tightness"),
        ("checks", "Checks by claim"), ("provenance", "Provenance"))) + f" · {timings_link}"
    body = [
        "<h1>Verification of “Learning Neural Networks with Sparse Activations” (COLT 2024)</h1>",
        f"<p class=\"answer\">Of {len(statements)} quantitative statements: "
        + ", ".join(f'<span class="{status}">{count} {status}</span>' for status, count in counts.items())
        + f". They rest on {len(ledger)} checks "
        f"(PASS {int(verdicts.get('PASS', 0))}, FAIL {int(verdicts.get('FAIL', 0))}, INCONCLUSIVE "
        f"{int(verdicts.get('INCONCLUSIVE', 0))}), every verdict computed from data; every FAIL has a certificate "
        "that <code>sparseact verify-certificate</code> recomputes independently.</p>",
        f"<nav>{nav}</nav>",
        _errata_summary_html(errata),
        "<h2 id=\"statements\">Statements</h2><p>Most severe first; a figure opens its claim's notebook report.</p>",
        _statements_html(statements, ledger, base),
        "<h2 id=\"errata\">Errata, most severe first</h2><p>Addressed to the authors: location, printed text, "
        "counterexample, proposed correction and whether the correction is verified.</p>",
        _errata_html(errata, base),
        "<h2 id=\"tightness\">Tightness</h2><p>Bounds checked as ratios: the observed constant (worst ratio over "
        "every instance), with fitted exponents and slack in the last column.</p>",
        _table(tightness(ledger), base),
        "<h2 id=\"checks\">Checks by claim</h2><p>Click a claim to list its checks.</p>",
        _checks_html(ledger, base),
        "<h2 id=\"provenance\">Provenance</h2>",
        _table(prov, base),
        _table(pd.DataFrame(sorted(packages.items()), columns=["package", "version"]), base),
        f"<h2 id=\"timings\">Timings</h2><p>Wall time and peak memory of every job: {timings_link} (a separate "
        "page, so that this one is byte-identical from run to run).</p>",
    ]
    atomic_write_text(index_html, _page("sparseact verification report", "".join(body)))
    timings = timings_table(benchmark_paths)
    back = _link(str(index_html), Path(timings_html).parent, "back to the verification report")
    atomic_write_text(timings_html, _page("sparseact timings", f"<p>{back}</p><h1>Per-job wall time</h1>"
                                          f"<p>Total {timings['seconds'].sum():.1f} s of job time.</p>"
                                          + _table(timings, Path(timings_html).parent)))
