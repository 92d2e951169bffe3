"""Deterministic tables and result files.

Tables are written as CSV and as LaTeX ``tabular`` with booktabs rules; figures
are written by :mod:`sparseact.plots._style`.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import numpy as np
import pandas as pd

from sparseact.provenance import atomic_write_text


def _latex_escape(text: str) -> str:
    replacements = {"\\": r"\textbackslash{}", "&": r"\&", "%": r"\%", "$": r"\$", "#": r"\#",
                    "_": r"\_", "{": r"\{", "}": r"\}", "~": r"\textasciitilde{}", "^": r"\^{}"}
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


def publish(report, *, name: str, parameters: dict, seed: int, result_path: str, table_dir: str,
            figure_paths: Sequence[str], report_path: str) -> pd.DataFrame:
    """Write a check's tables (CSV + LaTeX) and its result file; return its ledger rows.

    Each ledger row's evidence lists ``figure_paths``, the written tables and
    ``report_path``. The result file holds the rows and the provenance block
    (:func:`sparseact.provenance.provenance`).

    Parameters
    ----------
    report : CheckReport
        Records and tables of one check.
    name : str
        Name of the check (e.g. ``"thm13"``, ``"lemma9"``), stored in the result file.
    parameters, seed
        The config block and seed the check ran with.
    result_path, table_dir, report_path : str
        Output locations (relative to the repository root).
    figure_paths : sequence of str
        Figures already saved for this check.
    """
    from sparseact.ledger import records_to_frame
    from sparseact.provenance import atomic_write_json, provenance

    table_paths = []
    for table_name, frame in report.tables.items():
        table_paths += save_table(frame, f"{table_dir}/{table_name}", caption=f"{name}: {table_name}")
    records = [r.with_evidence(list(figure_paths) + table_paths + [report_path]) for r in report.records]
    atomic_write_json(result_path, {"check": name, "claims": [r.to_dict() for r in records],
                                    "provenance": provenance(parameters, seed)})
    return records_to_frame(records)


def show_results(ledger_rows: pd.DataFrame, tables: dict[str, pd.DataFrame], max_rows: int = 20) -> None:
    """In a notebook: the verdicts, each check's notes and counterexample, and the first rows of every table."""
    from IPython.display import Markdown, display

    display(ledger_rows[["check_id", "variant", "method", "instances", "worst_value", "worst_value_label", "verdict"]])
    for _, row in ledger_rows.iterrows():
        parts = [row["notes"]] + ([f"Counterexample: {row['counterexample']}"] if row["counterexample"] else [])
        text = " ".join(p for p in parts if p)
        if text:
            display(Markdown(f"- **{row['check_id']}** ({row['verdict']}): {text}"))
    for name, frame in tables.items():
        display(Markdown(f"**{name}** ({len(frame)} rows; first {min(max_rows, len(frame))} shown)"))
        display(frame.head(max_rows))


def show_figures(figure_paths: Sequence[str], captions: dict[str, str]) -> None:
    """In a notebook: each PNG of ``figure_paths`` with its caption (looked up by file stem)."""
    from IPython.display import Image, Markdown, display

    for path in figure_paths:
        if not str(path).endswith(".png"):
            continue
        display(Image(filename=path))
        caption = captions.get(Path(path).stem)
        if caption:
            display(Markdown(f"*{caption}*"))
