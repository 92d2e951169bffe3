r"""The answer to a reader, in Markdown: ``results/findings.md`` and README's generated block.

Both read the result files of the statements engine (``statements.csv``,
``headline.csv``, ``errata.csv``, ``tightness.csv``) and ``ledger.csv`` from one
results directory, and type nothing themselves:

* :func:`findings_markdown` opens with the headline table (the paper's main
  results, each with its status, what it costs the authors and its errata),
  then the errata by root cause (with the classes legend), tightness, and the
  statements still open;
* :func:`readme_block` is the headline table and one line of counts, for
  README's block between :data:`sparseact.publish.statements.README_START` and ``README_END``.

Math stays ``$...$`` TeX, written so that a code host's Markdown renderer keeps
it intact (:func:`markdown_math`): ``\{``/``\}`` become ``\lbrace``/``\rbrace``
(a renderer that does not know math strips the backslash before a brace) and
``|``/``\|`` become ``\vert``/``\Vert`` (a pipe ends a table cell).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

import pandas as pd

from sparseact.publish.statements import STATUS_DEFINITIONS
from sparseact.verify.verdicts import FINDING_DEFINITIONS

_MATH = re.compile(r"(?<![\\$])\$(?P<tex>[^$]+?)(?<![\\$])\$")
_NUMBER = re.compile(r"^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$")


@dataclass(frozen=True)
class Results:
    """The result tables of one run (every cell a string; empty when not applicable)."""

    statements: pd.DataFrame
    headline: pd.DataFrame
    errata: pd.DataFrame
    tightness: pd.DataFrame
    ledger: pd.DataFrame


def load_results(results_dir: str | Path) -> Results:
    """Read ``statements.csv``, ``headline.csv``, ``errata.csv``, ``tightness.csv`` and ``ledger.csv``."""
    directory = Path(results_dir)

    def read(name: str) -> pd.DataFrame:
        return pd.read_csv(directory / f"{name}.csv", dtype=str, keep_default_na=False)

    return Results(*(read(name) for name in ("statements", "headline", "errata", "tightness", "ledger")))


def ids(cell: str) -> list[str]:
    """The ids of a ``; ``-separated cell."""
    return [item.strip() for item in str(cell).split(";") if item.strip()]


def readable(cell) -> str:
    """A table cell as a reader wants it: 4 significant digits (powers of ten as ``10^k``), yes/no, no Python literals."""
    from sparseact.publish.reporting import format_value

    text = str(cell).strip()
    if text in ("True", "False"):
        return "yes" if text == "True" else "no"
    if text.lower() in ("nan", "none"):
        return ""
    if not _NUMBER.match(text):
        return text
    shown = format_value(float(text))
    mantissa, _, exponent = shown.partition("e")
    if exponent:
        mantissa, power = mantissa.rstrip("0").rstrip(".") if "." in mantissa else mantissa, f"10^{{{int(exponent)}}}"
        return f"${power}$" if mantissa == "1" else f"${mantissa} \\times {power}$"
    return shown


def markdown_math(text: str, in_table: bool = True) -> str:
    r"""``text`` with its ``$...$`` math written to survive a code host's Markdown renderer.

    Inside math, ``\{``/``\}`` become ``\lbrace``/``\rbrace`` and (in a table cell)
    ``\|``/``|`` become ``\Vert``/``\vert``; outside math a table cell's ``|`` is escaped.
    """

    def fix(tex: str) -> str:
        tex = tex.replace(r"\{", r"\lbrace ").replace(r"\}", r"\rbrace ")
        if in_table:
            tex = tex.replace(r"\|", r"\Vert ").replace("|", r"\vert ")
        return f"${tex}$"

    out, position = [], 0
    for match in _MATH.finditer(text):
        plain = text[position:match.start()]
        out += [plain.replace("|", r"\|") if in_table else plain, fix(match.group("tex"))]
        position = match.end()
    plain = text[position:]
    out.append(plain.replace("|", r"\|") if in_table else plain)
    return " ".join("".join(out).split())


def _table(header: list[str], rows: list[list[str]]) -> list[str]:
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(markdown_math(cell) for cell in row) + " |" for row in rows]
    return lines


def status_text(status: str, finding_class: str = "", on_range: str = "") -> str:
    """A status as read: ``fails as stated (proof-slip)``, ``holds on range ($n \\le 20$)``."""
    words = status.replace("-", " ")
    detail = finding_class or on_range
    return f"{words} ({detail})" if detail else words


def _statement(results: Results, statement_id: str) -> pd.Series:
    rows = results.statements[results.statements["statement_id"] == statement_id]
    if not len(rows):
        raise ValueError(f"statement {statement_id!r} is not in statements.csv")
    return rows.iloc[0]


def headline_markdown(results: Results, errata_link: str, claim_link: str) -> list[str]:
    """The headline table: one row per main result (``headline.csv``, paper order).

    ``errata_link`` and ``claim_link`` are format strings with ``{id}`` (the erratum id or claim id).
    """
    rows = []
    for _, row in results.headline.iterrows():
        statement = _statement(results, row["statement_id"])
        errata = ", ".join(f"[{e}]({errata_link.format(id=e)})" for e in ids(row["errata"])) or "none"
        rows.append([f"**{row['paper_ref']}** ([claim]({claim_link.format(id=row['claim_id'])}))",
                     f"**{status_text(row['status'], statement['class'], statement['range'])}**", row["cost"], errata])
    return _table(["result", "status", "what it costs the authors", "errata"], rows)


def counts_line(results: Results) -> str:
    """How many statements have each status, and how many errata (by class) the run found."""
    counts = results.statements["status"].value_counts()
    statuses = ", ".join(f"{int(counts.get(s, 0))} {status_text(s)}" for s in STATUS_DEFINITIONS)
    classes = results.errata["class"].value_counts()
    by_class = ", ".join(f"{c} {int(classes[c])}" for c in FINDING_DEFINITIONS if c in classes)
    return (f"Of the paper's {len(results.statements)} quantitative statements we track: {statuses}. "
            f"{len(results.errata)} errata by root cause ({by_class or 'none'}), "
            f"resting on {len(results.ledger)} checks.")


def legend_markdown() -> list[str]:
    """The statuses and the classes of errata, one line each."""
    lines = ["**Statuses.** " + "; ".join(f"*{s}*: {d}" for s, d in STATUS_DEFINITIONS.items()) + ".", "",
             "**Classes of errata.** " + "; ".join(f"*{c}*: {d}" for c, d in FINDING_DEFINITIONS.items()) + "."]
    return lines


def erratum_markdown(row: pd.Series, certificate_prefix: str) -> list[str]:
    """One erratum: where, what is printed, why it fails, the certificate's counterexample, the correction."""
    certificates = ", ".join(f"[{Path(c).stem}]({certificate_prefix}{c})" for c in ids(row["certificates"]))
    correction = row["correction"] or "none proposed"
    if row["verified_by"]:
        correction += f" (verified by `{row['verified_by']}`: **{row['verified']}**)"
    parts = [
        f'<a id="erratum-{row["erratum_id"]}"></a>',
        f"#### {row['location']} — {row['class']}",
        "",
        f"- **Printed:** {markdown_math(row['printed'], in_table=False)}",
        f"- **Why it fails:** {markdown_math(row['explanation'], in_table=False)}",
        f"- **Counterexample** (from the certificate): {markdown_math(row['counterexample'], in_table=False)}",
        f"- **Correction:** {markdown_math(correction, in_table=False)}",
        f"- **Statements:** {', '.join(f'`{s}`' for s in ids(row['statements']))}; "
        f"**certificates:** {certificates or 'none'}; erratum id `{row['erratum_id']}`",
        "",
    ]
    return parts


def tightness_rows(results: Results) -> list[tuple[str, str, list[str]]]:
    """The tightness table as read: (where, bound id, [printed, proved, measured on, printed / proved,
    proved / measured, exponents, gap, method]), numbers formatted for reading."""
    rows = []
    for _, row in results.tightness.iterrows():
        exponents = "; ".join(f"{label} {row[f'exponents_{label}']}" for label in ("printed", "proved", "measured")
                              if row[f"exponents_{label}"])
        rows.append((row["paper_ref"], row["bound"],
                     [row["printed"], row["proved"],
                      f"{row['family']}: {readable(row['family_value'])}" if row["family"] else "",
                      readable(row["printed_over_proved"]), readable(row["proved_over_family"]), exponents,
                      row["gap"], row["method"]]))
    return rows


TIGHTNESS_HEADER = ["bound", "printed", "proved", "measured on", "printed / proved", "proved / measured",
                    "exponents", "gap", "method"]


def findings_markdown(results_dir: str | Path) -> str:
    """``findings.md``: headline table, errata by root cause (with the legend), tightness, open statements.

    Links are relative to ``results_dir`` (where findings.md lives).
    """
    results = load_results(results_dir)
    lines = ["# Findings", "",
             "Generated from the run's result files by `sparseact ledger`; nothing here is typed by hand.", "",
             "## Headline results", "", counts_line(results), ""]
    lines += headline_markdown(results, errata_link="#erratum-{id}", claim_link="../notebooks/{id}.py")
    lines += ["", *legend_markdown(), "", "## Errata by root cause", ""]
    if len(results.errata):
        for finding_class in FINDING_DEFINITIONS:
            group = results.errata[results.errata["class"] == finding_class]
            if len(group):
                lines += [f"### {finding_class} ({len(group)})", "", f"*{FINDING_DEFINITIONS[finding_class]}*", ""]
                for _, row in group.iterrows():
                    lines += erratum_markdown(row, certificate_prefix="")
    else:
        lines += ["No erratum.", ""]
    lines += ["## Tightness", ""]
    rows = [[f"**{where}** `{bound}`", *cells] for where, bound, cells in tightness_rows(results)]
    lines += _table(TIGHTNESS_HEADER, rows) if rows else ["No bound measured."]
    open_rows = results.statements[results.statements["status"] == "open"]
    lines += ["", f"## Open statements ({len(open_rows)})", ""]
    lines += _table(["where", "statement", "what would settle it"],
                    [[r["paper_ref"], r["statement"], r["reason"]] for _, r in open_rows.iterrows()]) \
        if len(open_rows) else ["None."]
    return "\n".join(lines) + "\n"


def readme_block(results_dir: str | Path, link_prefix: str = "results/") -> str:
    """README's generated block: the counts and the headline table (links relative to the repository root)."""
    results = load_results(results_dir)
    lines = [counts_line(results), ""]
    lines += headline_markdown(results, errata_link=f"{link_prefix}findings.md#erratum-{{id}}",
                               claim_link="notebooks/{id}.py")
    lines += ["", f"Errata by root cause, tightness and open statements: [findings]({link_prefix}findings.md); "
              f"every statement: [statements]({link_prefix}statements.md)."]
    return "\n".join(lines) + "\n"

