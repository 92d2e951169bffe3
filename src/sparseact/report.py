"""The verification report: one HTML page that says what the paper claims, what we measured, and whether it holds.

:func:`build_report` writes ``index.html`` with the ledger (every row linking its
evidence), an Errata section (claims that fail as printed, their counterexamples
and the verified corrections), a Tightness section (O(.) bounds: observed
constants, fitted exponents, slack factors) and Provenance (versions, git
revision, config hashes). Wall times go to a separate ``timings.html`` because
they change from run to run while everything else is byte-identical.
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
body { font-family: system-ui, sans-serif; margin: 2em auto; max-width: 1200px; color: #222; }
table { border-collapse: collapse; width: 100%; font-size: 0.85em; margin-bottom: 2em; }
th, td { border: 1px solid #ccc; padding: 4px 6px; vertical-align: top; text-align: left; }
th { background: #f0f0f0; }
.PASS { background: #e3f5e1; font-weight: bold; }
.FAIL { background: #fbe0e0; font-weight: bold; }
.INCONCLUSIVE { background: #fff4d6; font-weight: bold; }
code { font-size: 0.95em; }
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
            elif column == "verdict":
                cells.append(f'<td class="{html.escape(str(value))}">{html.escape(str(value))}</td>')
            else:
                cells.append(f"<td>{_cell(value)}</td>")
        rows.append("<tr>" + "".join(cells) + "</tr>")
    return f"<table><thead><tr>{head}</tr></thead><tbody>{''.join(rows)}</tbody></table>"


def errata(ledger: pd.DataFrame) -> pd.DataFrame:
    """Rows that FAIL as printed, each with its verified correction.

    The correction of ``x/y-printed`` is ``x/y-corrected``; that of ``x/y-extra``
    is ``x/y`` (a check on the restricted statement). A failure with no such row
    says "(none verified)".
    """
    ledger = ledger.fillna("")
    failed = ledger[(ledger["variant"] == "as printed") & (ledger["verdict"] == "FAIL")]
    rows = []
    for _, row in failed.iterrows():
        stem = row["check_id"].removesuffix("-printed")
        twins = ledger[(ledger["check_id"] == f"{stem}-corrected")
                       | ledger["check_id"].map(lambda c, stem=stem: c != row["check_id"] and stem.startswith(c + "-"))]
        correction = "; ".join(f"{t['statement']} [{t['check_id']}: {t['verdict']}]" for _, t in twins.iterrows())
        rows.append(dict(claim=row["claim_id"], paper_ref=row["paper_ref"], printed=row["statement"],
                         counterexample=row["counterexample"], correction=correction or "(none verified)",
                         evidence=row["evidence"]))
    return pd.DataFrame(rows, columns=["claim", "paper_ref", "printed", "counterexample", "correction", "evidence"])


def tightness(ledger: pd.DataFrame) -> pd.DataFrame:
    """O(.) bounds and explicit inequalities measured as ratios: observed constant and fitted exponents."""
    ledger = ledger.fillna("")
    mask = ledger["statement"].str.contains(r"O\(|<=", regex=True) & ledger["worst_value_label"].str.contains(
        "ratio|expression|/", regex=True)
    rows = ledger[mask]
    return pd.DataFrame(dict(check=rows["check_id"], paper_ref=rows["paper_ref"], statement=rows["statement"],
                             method=rows["method"], observed=rows["worst_value"], measure=rows["worst_value_label"],
                             verdict=rows["verdict"], exponents_and_slack=rows["notes"]))


def provenance_table(result_paths: Sequence[str | Path]) -> tuple[pd.DataFrame, dict]:
    """Seed, config hash and git revision of every result file; the package versions of the first."""
    rows, packages = [], {}
    for path in result_paths:
        data = json.loads(Path(path).read_text())
        prov = data["provenance"]
        packages = packages or prov["packages"]
        rows.append(dict(result=str(path), seed=prov["seed"], config_hash=prov["config_hash"],
                         git_revision=prov["git_revision"], python=prov["python"]))
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


def build_report(ledger_csv: str | Path, result_paths: Sequence[str | Path], benchmark_paths: Sequence[str | Path],
                 index_html: str | Path, timings_html: str | Path) -> None:
    """Write the verification report (``index_html``) and the wall-time page (``timings_html``).

    Paths inside the pages are relative to the page, so the report can be opened
    from disk or served from the repository root.
    """
    base = Path(index_html).parent
    ledger = pd.read_csv(ledger_csv, keep_default_na=False)
    counts = ledger["verdict"].value_counts()
    summary = ", ".join(f"{v}: {int(counts.get(v, 0))}" for v in ("PASS", "FAIL", "INCONCLUSIVE"))
    prov, packages = provenance_table(result_paths)
    columns = ["claim_id", "check_id", "paper_ref", "statement", "variant", "method", "instances", "worst_value",
               "worst_value_label", "verdict", "evidence"]
    body = [
        "<h1>Verification of “Learning Neural Networks with Sparse Activations” (COLT 2024)</h1>",
        f"<p>{len(ledger)} checks: {summary}. Every verdict is computed from data; method says whether a number "
        "is exact (enumeration), monte-carlo (95% intervals) or an estimate. "
        f"Per-job wall times: {_link(str(timings_html), base, 'timings')}.</p>",
        "<h2>Errata</h2><p>Claims that fail as printed, with a counterexample and the verified correction.</p>",
        _table(errata(ledger), base),
        "<h2>Tightness</h2><p>Bounds checked as ratios: the observed constant (worst ratio over every instance, "
        "random and adversarial), ratio slopes and fitted exponents, and which factors the data show to be slack.</p>",
        _table(tightness(ledger), base),
        "<h2>Ledger</h2>",
        _table(ledger[columns], base),
        "<h2>Provenance</h2>",
        _table(prov, base),
        _table(pd.DataFrame(sorted(packages.items()), columns=["package", "version"]), base),
    ]
    atomic_write_text(index_html, _page("sparseact verification report", "".join(body)))
    timings = timings_table(benchmark_paths)
    atomic_write_text(timings_html, _page("sparseact timings", "<h1>Per-job wall time</h1>"
                                          f"<p>Total {timings['seconds'].sum():.1f} s of job time.</p>"
                                          + _table(timings, Path(timings_html).parent)))
