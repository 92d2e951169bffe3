"""The claims ledger: the table of every check's record, its Markdown, and the certificate files of the FAILs."""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from pathlib import Path

import pandas as pd

from sparseact._validation import MANIFEST_NAME, manifest_lines, read_regular_file
from sparseact.paper import paper_ref
from sparseact.paper import statements as paper_statements
from sparseact.publish.asciimath import OPERATORS, typeset_ascii
from sparseact.publish.cells import format_value
from sparseact.publish.mathtext import markdown_math
from sparseact.runtime.provenance import atomic_write_bytes, atomic_write_json, atomic_write_text
from sparseact.verify.domains import check_certificate_domain
from sparseact.verify.records import CheckRecord, _records
from sparseact.verify.rigorous import EXACT_DECISIONS
from sparseact.verify.verdicts import FINDINGS, Verdict

LEDGER_COLUMNS = [
    "claim_id",
    "check_id",
    "statement_id",
    "paper_ref",
    "statement",
    "check",
    "variant",
    "method",
    "instances",
    "range",
    "worst_value",
    "worst_value_label",
    "verdict",
    "finding",
    "counterexample",
    "certificate",
    "evidence",
    "replicates",
    "notes",
]


def records_to_frame(records: Iterable[CheckRecord], results_dir: str | Path = "results") -> pd.DataFrame:
    """The ledger table for ``records``, one row each, columns :data:`LEDGER_COLUMNS`.

    ``results_dir`` is where the ledger and its ``certificates/`` are written (relative to the
    repository root): the ``certificate`` column names the files there.
    """
    rows = []
    for record in _records(records, "records"):
        row = record.to_dict()
        row["evidence"] = "; ".join(row["evidence"])
        row["certificate"] = certificate_path(record.check_id, results_dir) if record.certificate else ""
        rows.append(row)
    return pd.DataFrame(rows, columns=LEDGER_COLUMNS)


def certificate_path(check_id: str, results_dir: str | Path = "results") -> str:
    """Where the certificate of ``check_id`` is written (relative to the repository root)."""
    return (Path(results_dir) / "certificates" / f"{check_id}.json").as_posix()


#: Largest claim result file read (bytes): the full run's largest, theorem19.json, is about 2.5 MB.
MAX_RESULT_BYTES = 256 * 2**20


def load_records(paths: Iterable[str | Path]) -> list[CheckRecord]:
    """Read the ``checks`` of every claim's result JSON file in ``paths`` (``results/claims/<claim>.json``)."""
    records = []
    for path in paths:
        data = json.loads(read_regular_file(path, MAX_RESULT_BYTES, "claim result file").decode("utf-8"))
        if not isinstance(data, dict) or "checks" not in data:
            raise ValueError(f"{path} is not a result file: it has no 'checks' list")
        records.extend(CheckRecord.from_dict(row) for row in data["checks"])
    return records


def _markdown_cell(value) -> str:
    text = f"{value:.4g}" if isinstance(value, float) else str(value)
    return text.replace("|", "\\|").replace("\n", " ")


def notebook_path(claim_id: str, results_dir: str | Path = "results") -> str:
    """The executed notebook of a claim (committed, so that a code host shows it with its outputs), relative to the
    repository root."""
    return (Path(results_dir) / "notebooks" / f"{claim_id}.ipynb").as_posix()


def certificate_view(certificate: str) -> str:
    """The rendered view (Markdown) beside a certificate file ``<check>.json``: ``<check>.md``."""
    return str(certificate)[: -len(".json")] + ".md"


def _evidence_links(row: pd.Series, prefix: str, results_dir: str | Path) -> str:
    """The evidence a code host shows: the claim's executed notebook and, for a FAIL, its certificate's view."""
    links = [f"[notebook]({prefix}{notebook_path(row['claim_id'], results_dir)})"]
    if row["certificate"]:
        links.append(f"[certificate]({prefix}{certificate_view(row['certificate'])})")
    return " ".join(links)


def ledger_markdown(frame: pd.DataFrame, link_prefix: str = "../", results_dir: str | Path = "results") -> str:
    """The ledger as a Markdown document (summary counts, then one row per check).

    Each row's evidence is the claim's executed notebook and, for a FAIL, its certificate's rendered view (the
    figures and tables behind them are the run's, not committed). Paths are relative to the repository root
    (``results_dir`` the results directory in it); ``link_prefix`` makes them relative to where the Markdown file
    lives (``results/`` by default).
    """
    if not isinstance(frame, pd.DataFrame) or "verdict" not in frame:
        raise TypeError("frame must be a ledger DataFrame (records_to_frame), with a 'verdict' column")
    counts = frame["verdict"].value_counts()
    summary = ", ".join(f"{v}: {int(counts.get(v, 0))}" for v in (x.value for x in Verdict))
    columns = [
        "claim_id",
        "check_id",
        "paper_ref",
        "statement",
        "variant",
        "method",
        "instances",
        "worst_value",
        "worst_value_label",
        "verdict",
        "counterexample",
        "evidence",
    ]
    lines = [
        "# Claims ledger",
        "",
        "Assembled from the result files by `sparseact ledger`; every verdict is computed from data.",
        "",
        f"**{len(frame)} checks** - {summary}",
        "",
        "| " + " | ".join(columns) + " |",
        "|" + "---|" * len(columns),
    ]
    for _, row in frame.iterrows():
        cells = [
            _evidence_links(row, link_prefix, results_dir) if c == "evidence" else _markdown_cell(row[c])
            for c in columns
        ]
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"


def severity_order(record: CheckRecord) -> tuple:
    """Sort key of the ledger: FAILs first, most severe finding first, then INCONCLUSIVE, then PASS."""
    (record,) = _records([record], "record")
    rank = {Verdict.FAIL: 0, Verdict.INCONCLUSIVE: 1, Verdict.PASS: 2}[record.verdict]
    finding = FINDINGS.index(record.finding) if record.finding in FINDINGS else len(FINDINGS)
    return rank, finding, record.claim_id, record.check_id


def write_certificates(records: Iterable[CheckRecord], directory: str | Path = "results/certificates") -> list[str]:
    """Write each FAIL's certificate to ``<directory>/<check_id>.json`` (:func:`certificate_path`), its rendered view
    beside it (:func:`certificate_markdown`), and the digests of both to ``<directory>/SHA256SUMS`` (the checker refuses
    a certificate edited since; a missing file makes the ledger job run again); return the certificates' paths.

    A certificate whose parameters leave the quantifiers of its statement is refused unless it is ``out-of-range``
    (:func:`sparseact.verify.domains.check_certificate_domain`).

    A certificate the checker confirms records the margin it proves (``margin``: ``lhs - rhs`` in exact or interval
    arithmetic, :func:`sparseact.verify.checker.verify_certificate`), which the checker compares when it reads
    the file again.
    """
    # deferred: the verifier (and sparseact.bounds) loads in the ledger job only, not in every assembly notebook,
    # which reads this module for records_to_frame
    from sparseact.verify.checker import verify_certificate

    domains = {entry["id"]: entry.get("domain") for entry in paper_statements()}
    paths, written = [], {}
    for record in records:
        if record.certificate:
            path = Path(directory) / f"{record.check_id}.json"
            document = certificate_document(record)
            check_certificate_domain(document, domains.get(record.statement_id))
            verification = verify_certificate(document)
            if verification.confirmed:
                document["margin"] = verification.margin
            atomic_write_json(path, document)
            atomic_write_text(path.with_suffix(".md"), certificate_markdown(document, Path(directory)))
            paths.append(str(path))
            written[f"{record.check_id}.json"] = path.read_bytes()
            # the view is listed too, so a deleted view is rebuilt like a deleted certificate (runtime.outputs)
            written[f"{record.check_id}.md"] = path.with_suffix(".md").read_bytes()
    atomic_write_bytes(Path(directory) / MANIFEST_NAME, manifest_lines(written).encode())
    return paths


#: The fields of a certificate document (:func:`certificate_document`) its views read.
DOCUMENT_FIELDS = ("check_id", "statement_id", "paper_ref", "statement", "finding", "counterexample", "certificate")


def _checked_document(document: dict) -> dict:
    if not isinstance(document, dict) or not isinstance(document.get("certificate"), dict):
        raise TypeError("document must be a certificate document (certificate_document), with a 'certificate' dict")
    missing = [name for name in DOCUMENT_FIELDS if name not in document]
    if missing:
        raise ValueError(f"the certificate document lacks {', '.join(missing)}")
    return document


def refuted_where(document: dict) -> str:
    """Where the statement a certificate refutes is printed: the paper data's reference, as in the ledger (the
    record's own is its claim's, which for a claim spanning the paper lists every section it checks)."""
    _checked_document(document)
    try:
        return paper_ref(document["statement_id"])
    except KeyError:
        return document["paper_ref"]


def certificate_fields(document: dict) -> list[tuple[str, str]]:
    """What a certificate's rendered views say after what it refutes and its finding, in reading order: ``(label,
    text)`` pairs, the text's formulas ASCII or ``$...$`` TeX (the counterexample, why it fails, the violation, the
    margin the checker proved, and what it decides exactly beyond that arithmetic where the sides are signed samples:
    :data:`sparseact.verify.rigorous.EXACT_DECISIONS`)."""
    certificate = _checked_document(document)["certificate"]
    relation = certificate.get("relation", "")
    fields = [("Counterexample", str(document["counterexample"]))]
    if certificate.get("explanation"):
        fields.append(("Why it fails", str(certificate["explanation"])))
    if relation and "lhs_value" in certificate:
        lhs, rhs = (format_value(certificate[f"{side}_value"]) for side in ("lhs", "rhs"))
        fields.append(
            (
                "The violation",
                f"the statement needs {certificate.get('lhs_label', 'lhs')} ${OPERATORS.get(relation, relation)}$ "
                f"{certificate.get('rhs_label', 'rhs')}; here the left side is {lhs} and the right side {rhs}",
            )
        )
    if document.get("margin"):
        fields.append(("Margin the checker proved", str(document["margin"])))
    kinds = {certificate[side].get("quantity") for side in ("lhs", "rhs") if isinstance(certificate.get(side), dict)}
    fields += [("Decided exactly", EXACT_DECISIONS[kind]) for kind in sorted(kinds & EXACT_DECISIONS.keys())]
    return fields


def certificate_markdown(document: dict, directory: str | Path = "results/certificates") -> str:
    """A certificate as a code host shows it: what it refutes, the counterexample, why it fails, the violation and
    the margin the checker proved (:func:`certificate_fields`), with links back (findings, ledger, the claim's
    notebook) and to the JSON file.

    ``directory`` is the certificates' folder (``<results>/certificates``, relative to the repository root), the
    document one of :func:`certificate_document` (with the checker's ``margin`` when it confirmed it).
    """

    def prose(text) -> str:
        return markdown_math(typeset_ascii(str(text)), in_table=False)

    fields = certificate_fields(document)
    check_id = document["check_id"]
    claim, name = check_id.split("/", 1)
    up = "../" * (1 + name.count("/") + 1)  # from <results>/certificates/<claim>/ to <results>/
    lines = [
        f"# Certificate `{check_id}`",
        "",
        f"[Findings]({up}findings.md) · [ledger]({up}ledger.md) · "
        f"[the claim's notebook]({up}notebooks/{claim}.ipynb) · "
        f"[the certificate file (JSON)]({name.rsplit('/', 1)[-1]}.json)",
        "",
        f"- **Refutes:** {refuted_where(document)} (statement `{document['statement_id']}`): "
        f"{prose(document['statement'])}",
        f"- **Finding:** {document['finding']}",
        *(f"- **{label}:** {prose(text)}" for label, text in fields),
        "",
        "Recompute it independently (exact or interval arithmetic): "
        f"`sparseact verify-certificate {Path(directory).as_posix()}/{check_id}.json`",
        "",
    ]
    return "\n".join(lines)


def certificate_document(record: CheckRecord) -> dict:
    """The content of a FAIL's certificate file: the check, the statement it refutes, and the certificate."""
    if not isinstance(record, CheckRecord):
        raise TypeError(f"record must be a CheckRecord, got {type(record).__name__}")
    return dict(
        check_id=record.check_id,
        statement_id=record.statement_id,
        paper_ref=record.paper_ref,
        statement=record.statement,
        finding=record.finding,
        counterexample=record.counterexample,
        certificate=record.certificate,
    )


def write_ledger(
    records: Sequence[CheckRecord], csv_path: str | Path, md_path: str | Path, results_dir: str | Path = "results"
) -> pd.DataFrame:
    """Write ``records`` as the ledger CSV and Markdown; return the table.

    ``results_dir`` (relative to the repository root) holds the certificates the ledger names
    (:func:`records_to_frame`) and the Markdown file, whose links it makes relative to that directory.
    """
    frame = records_to_frame(sorted(records, key=severity_order), results_dir)
    # where a check's statement is printed is the paper data's to say (a record may predate an edit of it)
    frame["paper_ref"] = [
        paper_ref(s) if s else ref for s, ref in zip(frame["statement_id"], frame["paper_ref"], strict=True)
    ]
    duplicated = frame["check_id"][frame["check_id"].duplicated()]
    if len(duplicated):
        raise ValueError(f"duplicate check ids in the ledger: {sorted(set(duplicated))}")
    atomic_write_text(csv_path, frame.to_csv(index=False, lineterminator="\n"))
    atomic_write_text(
        md_path, ledger_markdown(frame, link_prefix="../" * len(Path(results_dir).parts), results_dir=results_dir)
    )
    return frame
