"""Statement-level verdicts: which of the paper's stated results hold, fail as stated, or are not settled.

Every claim module lists the paper's quantitative statements it bears on
(``STATEMENTS``, see :mod:`sparseact.claims`); every ledger row names one of them
in ``statement_id``. This module joins the two:

``fails-as-stated``
    Some check of the statement FAILs with a finding other than ``out-of-range``
    (every FAIL carries a certificate, :mod:`sparseact.certificates`). The
    statement's severity is its most severe finding (:data:`sparseact.ledger.FINDINGS`).
``holds``
    Either the statement lists an ``argument`` (check ids whose PASS together
    proves it; they may belong to other statements, e.g. when an informal
    theorem of the introduction restates a later one) and all of those PASS
    (basis *verified argument*), or every check
    of it PASSes and every one is exact (basis *exact enumeration*: it holds on
    everything enumerated). A FAIL found only outside the range the paper uses
    (``out-of-range``) does not prevent *holds*; the reason says so.
``not-settled``
    Anything else: an INCONCLUSIVE check, PASSes resting on estimates or Monte
    Carlo, a statement marked ``unsettled`` by its claim, or no check at all. The
    reason says what would settle it.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from pathlib import Path

import pandas as pd

from sparseact.ledger import FINDINGS

STATUSES = ("fails-as-stated", "holds", "not-settled")
KINDS = ("theorem", "lemma", "claim", "conjecture", "remark", "equation", "construction", "proof-step",
         "introduction", "discussion", "definition")
STATEMENT_COLUMNS = ["statement_id", "claim_id", "paper_ref", "kind", "statement", "status", "severity", "basis",
                     "checks", "reason"]
#: Longest ``reason`` cell, in characters as read (a ``$...$`` formula counts as its visible symbols).
REASON_WIDTH = 240
#: A ``$...$`` formula in a reason, and what of its TeX is not counted: the letters of a macro name (a macro counts as
#: one character), braces, script marks, spaces and spacing commands.
_MATH = re.compile(r"(?<![\\$])\$[^$]+?(?<![\\$])\$")
_TEX_MARKUP = re.compile(r"\\[,;:!]|(?<=\\)[A-Za-z]+|[{}^_$\s]")


def catalogue(claim_ids: Iterable[str] | None = None) -> pd.DataFrame:
    """Every statement of every claim module, one row each (columns ``statement_id`` ... ``unsettled``)."""
    from sparseact.claims import claim_ids as all_claims
    from sparseact.claims import get_claim

    rows, owner = [], {}
    for claim_id in (claim_ids if claim_ids is not None else all_claims()):
        for statement_id, spec in get_claim(claim_id).statements.items():
            if statement_id in owner:
                raise ValueError(f"statement id {statement_id!r} is defined by both {owner[statement_id]} and {claim_id}")
            if spec.get("kind") not in KINDS:
                raise ValueError(f"{claim_id}: statement {statement_id!r} has kind {spec.get('kind')!r}, not one of {KINDS}")
            owner[statement_id] = claim_id
            rows.append(dict(statement_id=statement_id, claim_id=claim_id, paper_ref=spec["paper_ref"],
                             kind=spec["kind"], statement=spec["statement"],
                             argument=tuple(spec.get("argument", {}).get("uses", ())),
                             argument_text=spec.get("argument", {}).get("text", ""),
                             unsettled=spec.get("note", "")))
    return pd.DataFrame(rows, columns=["statement_id", "claim_id", "paper_ref", "kind", "statement", "argument",
                                       "argument_text", "unsettled"])


def _shorten(text: str, width: int = REASON_WIDTH) -> str:
    """``text`` on one line, cut to ``width`` characters as read; a ``$...$`` formula is kept whole or dropped whole
    (never cut inside, so that the reason still renders), and counts as the symbols it shows."""
    text = " ".join(str(text).split())
    pieces, position = [], 0
    for math in _MATH.finditer(text):
        pieces += [(text[position:math.start()], False), (math.group(0), True)]
        position = math.end()
    pieces.append((text[position:], False))
    if sum(_read_length(piece, is_math) for piece, is_math in pieces) <= width:
        return text
    budget, kept = width - 3, []
    for piece, is_math in pieces:
        length = _read_length(piece, is_math)
        if length <= budget:
            kept.append(piece)
            budget -= length
            continue
        if not is_math:
            kept.append(piece[:budget])
        break
    return "".join(kept).rstrip() + "..."


def _read_length(piece: str, is_math: bool) -> int:
    return len(_TEX_MARKUP.sub("", piece)) if is_math else len(piece)


def _severity_rank(finding: str) -> int:
    return FINDINGS.index(finding) if finding in FINDINGS else len(FINDINGS)


def decide(statement: pd.Series, checks: pd.DataFrame, ledger: pd.DataFrame | None = None) -> dict:
    """Status, severity, basis and reason of one statement from its ledger rows.

    ``checks`` are the ledger rows of the statement; ``ledger`` (default:
    ``checks``) is where the check ids of its ``argument`` are looked up.
    """
    ledger = checks if ledger is None else ledger
    verdicts = checks["verdict"].tolist()
    fails = checks[(checks["verdict"] == "FAIL") & (checks["finding"] != "out-of-range")]
    out_of_range = checks[(checks["verdict"] == "FAIL") & (checks["finding"] == "out-of-range")]
    caveat = (f" Fails only outside the range the paper uses ({', '.join(out_of_range['check_id'])})."
              if len(out_of_range) else "")
    if len(fails):
        worst = min(fails["finding"], key=_severity_rank)
        row = fails[fails["finding"] == worst].iloc[0]
        example = f": {row['counterexample']}" if row["counterexample"] else ""
        return dict(status="fails-as-stated", severity=worst, basis="certificate",
                    reason=_shorten(f"{worst} ({row['check_id']}){example}"))
    argument = list(statement["argument"])
    if argument:
        missing = [c for c in argument if c not in set(ledger["check_id"])]
        if missing:
            raise ValueError(f"statement {statement['statement_id']}: argument checks {missing} are not in the ledger")
        steps = ledger.set_index("check_id").loc[argument, "verdict"]
        if (steps == "PASS").all():
            return dict(status="holds", severity="", basis="verified argument",
                        reason=_shorten(f"{statement['argument_text']}{caveat}"))
    if statement["unsettled"]:
        return dict(status="not-settled", severity="", basis=_basis(checks), reason=_shorten(statement["unsettled"]))
    if not verdicts:
        return dict(status="not-settled", severity="", basis="", reason="no check bears on it yet")
    passing = checks[checks["verdict"] == "PASS"]
    if len(passing) + len(out_of_range) == len(checks) and len(passing) and (passing["method"] == "exact").all():
        instances = int(passing["instances"].sum())
        return dict(status="holds", severity="", basis="exact enumeration",
                    reason=_shorten(f"PASS on every enumerated instance ({instances} in {len(passing)} checks).{caveat}"))
    inconclusive = checks[checks["verdict"] == "INCONCLUSIVE"]
    if len(inconclusive):
        row = inconclusive.iloc[0]
        return dict(status="not-settled", severity="", basis=_basis(checks),
                    reason=_shorten(f"INCONCLUSIVE ({row['check_id']}): {row['notes'] or row['check']}"))
    return dict(status="not-settled", severity="", basis=_basis(checks),
                reason=_shorten("PASS on estimates only (" + ", ".join(sorted(set(passing["method"]))) + "); an exact "
                                "enumeration or a proof would settle it." + caveat))


def _basis(checks: pd.DataFrame) -> str:
    methods = set(checks["method"])
    if not methods:
        return ""
    return "exact enumeration" if methods == {"exact"} else "estimate"


def statement_table(ledger: pd.DataFrame, statements: pd.DataFrame | None = None) -> pd.DataFrame:
    """One row per statement: status, severity, basis, the checks behind it and a one-line reason.

    Sorted by status (fails-as-stated first, by severity), then by claim.
    """
    statements = catalogue() if statements is None else statements
    ledger = ledger.fillna("")
    known = set(statements["statement_id"])
    orphans = sorted(set(ledger["statement_id"]) - known)
    if orphans:
        raise ValueError(f"ledger rows name unknown statements {orphans}")
    rows = []
    for _, statement in statements.iterrows():
        checks = ledger[ledger["statement_id"] == statement["statement_id"]]
        decision = decide(statement, checks, ledger)
        named = list(dict.fromkeys([*checks["check_id"], *statement["argument"]]))
        rows.append(dict(statement_id=statement["statement_id"], claim_id=statement["claim_id"],
                         paper_ref=statement["paper_ref"], kind=statement["kind"], statement=statement["statement"],
                         checks="; ".join(named), **decision))
    frame = pd.DataFrame(rows, columns=STATEMENT_COLUMNS)
    order = frame["status"].map(STATUSES.index) * 10 + frame["severity"].map(_severity_rank)
    return frame.assign(_order=order).sort_values(["_order", "claim_id", "statement_id"], kind="stable") \
        .drop(columns="_order").reset_index(drop=True)


def errata_table(ledger: pd.DataFrame) -> pd.DataFrame:
    """The FAIL rows addressed to the authors, most severe first.

    Columns: location, printed text, counterexample, proposed correction (the
    ``corrected`` checks of the same statement, with their verdicts), whether the
    correction is verified, severity, certificate path.
    """
    ledger = ledger.fillna("")
    failed = ledger[ledger["verdict"] == "FAIL"]
    rows = []
    for _, row in failed.iterrows():
        twins = ledger[(ledger["statement_id"] == row["statement_id"]) & (ledger["variant"] == "corrected")]
        correction = "; ".join(f"{t['statement']} [{t['check_id']}: {t['verdict']}]" for _, t in twins.iterrows())
        rows.append(dict(severity=row["finding"], paper_ref=row["paper_ref"], statement_id=row["statement_id"],
                         check_id=row["check_id"], printed=row["statement"], counterexample=row["counterexample"],
                         correction=correction or "(none proposed)",
                         verified=bool(len(twins)) and bool((twins["verdict"] == "PASS").all()),
                         certificate=row["certificate"], notes=row["notes"]))
    frame = pd.DataFrame(rows, columns=["severity", "paper_ref", "statement_id", "check_id", "printed",
                                        "counterexample", "correction", "verified", "certificate", "notes"])
    return frame.assign(_rank=frame["severity"].map(_severity_rank)).sort_values(["_rank", "check_id"], kind="stable") \
        .drop(columns="_rank").reset_index(drop=True)


def _markdown_table(frame: pd.DataFrame, columns: Sequence[str]) -> list[str]:
    lines = ["| " + " | ".join(columns) + " |", "|" + "---|" * len(columns)]
    for _, row in frame.iterrows():
        cells = [str(row[c]).replace("|", "\\|").replace("\n", " ") for c in columns]
        lines.append("| " + " | ".join(cells) + " |")
    return lines


def status_counts(statements: pd.DataFrame) -> dict[str, int]:
    """How many statements have each status."""
    counts = statements["status"].value_counts()
    return {status: int(counts.get(status, 0)) for status in STATUSES}


def summary_markdown(statements: pd.DataFrame, ledger: pd.DataFrame, link_prefix: str = "results/") -> str:
    """The short generated summary README carries (counts, statement errors, links)."""
    counts = status_counts(statements)
    verdicts = ledger["verdict"].value_counts()
    findings = ledger.loc[ledger["verdict"] == "FAIL", "finding"].value_counts()
    lines = [
        f"Of the paper's **{len(statements)} quantitative statements** we track, **{counts['holds']} hold**, "
        f"**{counts['fails-as-stated']} fail as stated** and **{counts['not-settled']} are not settled** "
        f"([statements]({link_prefix}statements.md)). They rest on **{len(ledger)} checks**: "
        + ", ".join(f"{v} {int(verdicts.get(v, 0))}" for v in ("PASS", "FAIL", "INCONCLUSIVE"))
        + "; the FAILs are " + (", ".join(f"{f} {int(findings[f])}" for f in FINDINGS if f in findings) or "none")
        + f" ([findings]({link_prefix}findings.md), [ledger]({link_prefix}ledger.md)).",
        "",
    ]
    failing = statements[statements["status"] == "fails-as-stated"]
    if len(failing):
        lines += _markdown_table(failing, ["paper_ref", "statement", "severity", "reason"])
    return "\n".join(lines) + "\n"


def statements_markdown(statements: pd.DataFrame) -> str:
    counts = status_counts(statements)
    lines = ["# Statements of the paper", "",
             "Generated by `sparseact ledger` from the claims' statement lists and the ledger. *holds*: every check "
             "is exact and PASSes, or an argument whose every step is a PASSing check proves it; *fails-as-stated*: "
             "a check FAILs with a certificate; *not-settled*: anything else (the reason says what would settle it).",
             "", ", ".join(f"**{s}**: {c}" for s, c in counts.items()), ""]
    lines += _markdown_table(statements, ["statement_id", "paper_ref", "kind", "statement", "status", "severity",
                                          "basis", "checks", "reason"])
    return "\n".join(lines) + "\n"


def findings_markdown(statements: pd.DataFrame, ledger: pd.DataFrame) -> str:
    """``results/findings.md``: the answer first, then the errata by severity, then the open questions."""
    errata = errata_table(ledger)
    lines = ["# Findings", "", "Generated from the ledger and the statements table; nothing here is typed by hand.",
             "", summary_markdown(statements, ledger, link_prefix=""), "## Errata (most severe first)", ""]
    if len(errata):
        lines += _markdown_table(errata, ["severity", "paper_ref", "printed", "counterexample", "correction",
                                          "verified", "certificate"])
    else:
        lines.append("No check fails.")
    open_rows = statements[statements["status"] == "not-settled"]
    lines += ["", "## Not settled", ""]
    lines += _markdown_table(open_rows, ["paper_ref", "statement", "basis", "reason"]) if len(open_rows) else ["None."]
    return "\n".join(lines) + "\n"


def write_statement_files(ledger: pd.DataFrame, statements_csv: str | Path, statements_md: str | Path,
                          findings_md: str | Path, statements: pd.DataFrame | None = None) -> pd.DataFrame:
    """Write ``statements.csv``/``.md`` and ``findings.md``; return the statements table."""
    from sparseact.provenance import atomic_write_text

    table = statement_table(ledger, statements)
    atomic_write_text(statements_csv, table.to_csv(index=False, lineterminator="\n"))
    atomic_write_text(statements_md, statements_markdown(table))
    atomic_write_text(findings_md, findings_markdown(table, ledger))
    return table


#: Markers around the generated summary in README.md.
README_START = "<!-- findings:start (generated by `sparseact readme-summary`; do not edit) -->"
README_END = "<!-- findings:end -->"


def readme_with_summary(readme: str, summary: str) -> str:
    """``readme`` with the text between :data:`README_START` and :data:`README_END` replaced by ``summary``."""
    if README_START not in readme or README_END not in readme:
        raise ValueError("README has no generated-summary markers")
    head, rest = readme.split(README_START, 1)
    _, tail = rest.split(README_END, 1)
    return f"{head}{README_START}\n{summary}{README_END}{tail}"


def readme_summary(results_dir: str | Path = "results", link_prefix: str = "results/") -> str:
    """The README summary from ``<results_dir>/statements.csv`` and ``ledger.csv`` (links relative to the root)."""
    results_dir = Path(results_dir)
    statements = pd.read_csv(results_dir / "statements.csv", keep_default_na=False)
    ledger = pd.read_csv(results_dir / "ledger.csv", keep_default_na=False)
    return summary_markdown(statements, ledger, link_prefix=link_prefix)
