"""The records of a verdict: one check (a ledger row) and one claim's assembled result.

A :class:`CheckRecord` holds one check's verdict, computed by a ``verdict_*`` function of
:mod:`sparseact.verify.verdicts`; :func:`combine_replicates` makes one record per check from the records of a
random claim's independent replicates (a verdict stands only when every replicate gives it).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from string import Template

import pandas as pd

from sparseact._validation import check_int, check_real
from sparseact.verify.verdicts import FINDINGS, METHODS, Verdict

#: The fields of a :class:`CheckRecord` that are text.
_TEXT_FIELDS = (
    "claim_id",
    "check_id",
    "paper_ref",
    "statement",
    "check",
    "variant",
    "method",
    "worst_value_label",
    "statement_id",
    "finding",
    "counterexample",
    "replicates",
    "notes",
    "range",
)


@dataclass(frozen=True)
class CheckRecord:
    """One row of the ledger: one check of one claim.

    Attributes
    ----------
    claim_id : str
        The claim (module of :mod:`sparseact.claims`), e.g. ``"lemma9"``.
    check_id : str
        Unique id of the check, ``"<claim_id>/<name>"``, e.g. ``"section4_parity/lift-printed"``.
    statement_id : str
        The statement of the paper the check bears on (an ``id`` of its claim's
        ``statements.yaml``), e.g. ``"lemma9"``, ``"eq15"``.
    paper_ref : str
        Where the claim is printed (PMLR numbering).
    statement : str
        The claim, short, as the paper states it.
    check : str
        What was computed and compared.
    variant : str
        ``"as printed"``, ``"corrected"`` or ``""`` when the two coincide.
    method : str
        ``"exact"``, ``"monte-carlo"`` or ``"estimate"``.
    instances : int
        Number of instances (networks, inputs, ...) the verdict covers (an integer >= 0).
    range : str
        The parameters those instances cover, e.g. ``"n <= 20, s <= 64, k <= 8"``
        (:func:`sparseact.claims.describe_range`); a statement that only holds on
        what was enumerated states this range.
    worst_value : float
        The worst measured quantity (error, ratio, count): a real number, as measured (NaN when no instance of the
        check's regime was measured, infinite for a ratio over zero).
    worst_value_label : str
        What ``worst_value`` is.
    verdict : Verdict
        Computed by a ``verdict_*`` function.
    finding : str
        For a FAIL, what kind of failure it is (one of :data:`FINDINGS`); empty otherwise.
    counterexample : str
        For a FAIL, a concrete failing input.
    certificate : dict or None
        For a FAIL, the certificate (:func:`sparseact.verify.certificates.certificate`)
        from which both sides of the violated relation can be recomputed.
    evidence : tuple of str
        Relative paths of figures, tables and reports.
    replicates : str
        How many of the claim's independent replicates gave this verdict, e.g. ``"3/3"``, or how they split,
        e.g. ``"PASS 2, FAIL 1 of 3"``
        (set by :func:`combine_replicates`; ``"1/1"`` for deterministic checks).
    notes : str
        Anything a reader needs to interpret the row.

    Raises
    ------
    TypeError
        When a text field is not a ``str``, ``certificate`` neither a dict nor ``None``, or ``evidence`` not a tuple
        of paths.
    ValueError
        When ``instances`` is not an integer >= 0, ``worst_value`` not a real number, ``method`` not one of
        :data:`~sparseact.verify.verdicts.METHODS`, ``verdict`` not a :class:`~sparseact.verify.verdicts.Verdict`, or
        a FAIL lacks its finding class or certificate (or a verdict other than FAIL carries one).
    """

    claim_id: str
    check_id: str
    paper_ref: str
    statement: str
    check: str
    variant: str
    method: str
    instances: int
    worst_value: float
    worst_value_label: str
    verdict: Verdict
    statement_id: str = ""
    finding: str = ""
    counterexample: str = ""
    certificate: dict | None = None
    evidence: tuple[str, ...] = field(default_factory=tuple)
    replicates: str = ""
    notes: str = ""
    range: str = ""

    def __post_init__(self):
        for name in _TEXT_FIELDS:
            if not isinstance(getattr(self, name), str):
                raise TypeError(f"{name} must be a str, got {type(getattr(self, name)).__name__}")
        check_int(self.instances, "instances", minimum=0)
        check_real(self.worst_value, "worst_value", finite=False)
        if self.certificate is not None and not isinstance(self.certificate, dict):
            raise TypeError(f"certificate must be a dict or None, got {type(self.certificate).__name__}")
        if not isinstance(self.evidence, (list, tuple)) or not all(isinstance(p, (str, Path)) for p in self.evidence):
            raise TypeError(f"evidence must be a tuple of paths (str or pathlib.Path), got {self.evidence!r}")
        if self.method not in METHODS:
            raise ValueError(f"method must be one of {METHODS}, got {self.method!r}")
        if not isinstance(self.verdict, Verdict):
            raise ValueError(f"verdict must be a Verdict computed by a verdict_* function, got {self.verdict!r}")
        if self.verdict is Verdict.FAIL:
            if self.finding not in FINDINGS:
                raise ValueError(
                    f"{self.check_id}: a FAIL needs a finding class, one of {FINDINGS}; got {self.finding!r}"
                )
            if not self.certificate:
                raise ValueError(
                    f"{self.check_id}: a FAIL needs a certificate (sparseact.verify.certificates.certificate)"
                )
        elif self.finding or self.certificate:
            raise ValueError(f"{self.check_id}: only a FAIL carries a finding and a certificate")

    def with_evidence(self, paths: Sequence[str]) -> CheckRecord:
        """A copy with ``paths`` appended to the evidence.

        ``ValueError`` unless ``paths`` is a list or tuple of paths (``str`` or :class:`pathlib.Path`); a bare
        string is refused, not split into characters.
        """
        if not isinstance(paths, (list, tuple)) or not all(isinstance(path, (str, Path)) for path in paths):
            raise ValueError(f"paths must be a list or tuple of paths (str or pathlib.Path), got {paths!r}")
        return replace(self, evidence=tuple(self.evidence) + tuple(paths))

    def to_dict(self) -> dict:
        out = asdict(self)
        out["verdict"] = self.verdict.value
        out["evidence"] = list(self.evidence)
        out["worst_value"] = float(self.worst_value)
        out["instances"] = int(self.instances)
        return out

    @classmethod
    def from_dict(cls, data: dict) -> CheckRecord:
        data = dict(data)
        data["verdict"] = Verdict(data["verdict"])
        data["evidence"] = tuple(data.get("evidence", ()))
        return cls(**data)


#: The keys of a check's declaration (a claim's ``checks.yaml`` entry; docs/architecture.md, "Checks as data").
DECLARATION_KEYS = ("id", "statement", "says", "method", "checks", "rule", "finding", "pinned")


def declared_record(declaration: Mapping, fill: Mapping | None = None, **measured) -> CheckRecord:
    """The ledger row of one declared check: its declaration plus what the assembly measured and decided.

    Parameters
    ----------
    declaration : mapping
        The check's entry of its claim's ``checks.yaml`` (keys :data:`DECLARATION_KEYS`): ``id``,
        ``statement`` (the statement id), ``says`` and ``checks`` (the row's ``statement`` and ``check``
        texts), ``method``, ``rule``, ``finding`` (the class of a FAIL, or ``None`` when the check cannot FAIL; a
        list of classes when the degenerate-corner rule may give ``out-of-range`` instead) and ``pinned``.
    fill : mapping, optional
        Values of the ``${name}`` fields of ``says`` and ``checks`` (e.g. the grid a check ran on).
    **measured
        The other fields of :class:`CheckRecord`: ``claim_id``, ``paper_ref``, ``variant``, ``instances``,
        ``range``, ``worst_value``, ``worst_value_label``, ``verdict`` and, for a FAIL, ``finding``,
        ``certificate`` and ``counterexample`` (e.g. from :func:`sparseact.verify.certificates.fail_fields`).

    Returns
    -------
    CheckRecord

    Raises
    ------
    TypeError
        When ``declaration`` or ``fill`` is not a mapping, or a measured field has the wrong type
        (:class:`CheckRecord`).
    ValueError
        When the declaration lacks a key, ``measured`` repeats a declared field, a measured value is out of its
        range (:class:`CheckRecord`), or a FAIL's finding is not the declared one.
    """
    if not isinstance(declaration, Mapping):
        raise TypeError(f"declaration must be a mapping (an entry of checks.yaml), got {type(declaration).__name__}")
    if fill is not None and not isinstance(fill, Mapping):
        raise TypeError(f"fill must be a mapping of field values, got {type(fill).__name__}")
    missing = [key for key in DECLARATION_KEYS if key not in declaration]
    if missing:
        raise ValueError(f"declaration of {declaration.get('id', '?')!r} lacks {missing}")
    texts = {key: Template(declaration[key]).substitute(fill or {}) for key in ("says", "checks")}
    fields = dict(
        check_id=declaration["id"],
        statement_id=declaration["statement"],
        statement=texts["says"],
        check=texts["checks"],
        method=declaration["method"],
    )
    repeated = sorted(set(fields) & set(measured))
    if repeated:
        raise ValueError(f"{declaration['id']}: {repeated} are declared in checks.yaml, not measured")
    record = CheckRecord(**fields, **measured)
    finding = declaration["finding"]
    if record.verdict is Verdict.FAIL and record.finding not in (finding if isinstance(finding, list) else [finding]):
        raise ValueError(
            f"{declaration['id']} FAILs with finding {record.finding!r}, declared {declaration['finding']!r}"
        )
    return record


@dataclass
class ClaimReport:
    """What a claim's checks produced.

    Attributes
    ----------
    records : list of CheckRecord
        Ledger rows.
    tables : dict of str to DataFrame
        Per-instance data; saved as CSV and LaTeX next to the figures.
    """

    records: list[CheckRecord] = field(default_factory=list)
    tables: dict[str, pd.DataFrame] = field(default_factory=dict)


def _records(records, name: str) -> list[CheckRecord]:
    """``records`` as a list of :class:`CheckRecord`, or ``TypeError`` naming ``name``."""
    if isinstance(records, (str, bytes)) or not isinstance(records, Iterable):
        raise TypeError(f"{name} must be a sequence of CheckRecord, got {type(records).__name__}")
    records = list(records)
    for record in records:
        if not isinstance(record, CheckRecord):
            raise TypeError(f"{name} must hold CheckRecord objects, got {type(record).__name__}")
    return records


def combine_replicates(replicates: Sequence[Sequence[CheckRecord]]) -> list[CheckRecord]:
    """One ledger row per check from the rows of several independent replicates.

    A verdict stands only when every replicate gives it; otherwise the check is
    INCONCLUSIVE. The combined row is the first replicate's (for a unanimous FAIL,
    the first replicate's counterexample), with ``replicates`` saying how many agree and,
    when the replicates' worst values differ, each replicate's worst value in the notes.

    Parameters
    ----------
    replicates : sequence of sequences of CheckRecord
        The rows of each replicate; every replicate must produce the same check ids.
    """
    if isinstance(replicates, (str, bytes)) or not isinstance(replicates, Iterable):
        raise TypeError(f"replicates must be a sequence of sequences of CheckRecord, got {type(replicates).__name__}")
    replicates = [_records(rows, "replicates") for rows in replicates]
    if not replicates:
        raise ValueError("combine_replicates needs at least one replicate")
    ids = [r.check_id for r in replicates[0]]
    for i, rows in enumerate(replicates[1:], start=1):
        if [r.check_id for r in rows] != ids:
            raise ValueError(f"replicate {i} produced checks {[r.check_id for r in rows]}, replicate 0 produced {ids}")
    total = len(replicates)
    combined = []
    for j, base in enumerate(replicates[0]):
        rows = [rep[j] for rep in replicates]
        verdicts = [r.verdict for r in rows]
        verdict = verdicts[0] if all(v is verdicts[0] for v in verdicts) else Verdict.INCONCLUSIVE
        if verdict is not Verdict.FAIL:
            base = replace(base, verdict=verdict, finding="", certificate=None)
        if verdict is Verdict.INCONCLUSIVE and verdicts[0] is not Verdict.INCONCLUSIVE:
            counts = {v: verdicts.count(v) for v in Verdict if v in verdicts}
            agreement = ", ".join(f"{v.value} {c}" for v, c in counts.items()) + f" of {total}"
        else:
            agreement = f"{verdicts.count(verdict)}/{total}"
        notes = base.notes
        worst = [r.worst_value for r in rows]
        if total > 1 and len({repr(w) for w in worst}) > 1:
            per_replicate = "; ".join(f"{w:.4g}" for w in worst)
            notes = (
                (notes + " " if notes else "")
                + f"[per replicate: {base.worst_value_label} = {per_replicate}; "
                + "verdicts "
                + ", ".join(v.value for v in verdicts)
                + "]"
            )
        combined.append(replace(base, verdict=verdict, replicates=agreement, notes=notes))
    return combined
