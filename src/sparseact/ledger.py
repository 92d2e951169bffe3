"""Claim records, verdicts computed from data, and the claims ledger.

Every check produces :class:`ClaimRecord` rows whose verdict comes from one of
the ``verdict_*`` functions below, applied to measured numbers. Nothing here
accepts a verdict from the caller.

Tolerance policy
----------------
* Exact checks (enumerated inputs, float64 arithmetic): two numbers agree when
  ``|a - b| <= ATOL + RTOL * |b|`` with ``ATOL = RTOL = 1e-9``. The paper's
  constructions use small integers and halves, which float64 represents
  exactly, so their errors are 0.0 or at least 1e-3; the tolerance only absorbs
  rounding in sums of random real weights.
* Inequalities ``value <= limit`` allow the same slack: ``value <= limit + ATOL + RTOL*|limit|``.
* O(.) bounds (``verdict_big_o``): the ratio measured/expression is fitted
  against the swept parameter on log-log axes; PASS when the fitted slope is at
  most ``SLOPE_TOL`` (the ratio does not grow), FAIL when it is larger and the
  largest parameter also has the largest ratio, INCONCLUSIVE otherwise or when
  fewer than ``MIN_SWEEP_POINTS`` (3) parameter values were swept.
* Monte Carlo: normal (CLT) intervals at 95% unless a check says otherwise; a
  one-sided claim PASSes when the whole interval satisfies it, FAILs when the
  whole interval violates it, and is INCONCLUSIVE when the interval straddles.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass, field, replace
from enum import Enum
from pathlib import Path

import numpy as np
import pandas as pd

from sparseact._validation import check_real

ATOL = 1e-9
RTOL = 1e-9
SLOPE_TOL = 0.1
#: Fewest distinct values of a swept parameter on which an O(.) verdict is given.
MIN_SWEEP_POINTS = 3

METHODS = ("exact", "monte-carlo", "estimate")

#: What kind of failure a FAIL is, most severe first (the ledger and errata sort by it).
#:
#: * ``statement-error``: a stated result (lemma, theorem, equation) is false as printed;
#: * ``constant-factor``: an explicit constant is off (never used for an O(.) bound);
#: * ``proof-slip``: a step of a proof is wrong, the stated result survives (the
#:   check names the verified replacement);
#: * ``typo``: the intended meaning is clear and the corrected version is verified;
#: * ``out-of-range``: fails only outside the range the paper uses (the check says the range).
FINDINGS = ("statement-error", "constant-factor", "proof-slip", "typo", "out-of-range")
#: One sentence per class of :data:`FINDINGS`, for the legends of the report and findings.md.
FINDING_DEFINITIONS = {
    "statement-error": "a stated result (lemma, theorem, equation) is false as printed",
    "constant-factor": "an explicit constant is off (never used for an O(.) bound)",
    "proof-slip": "a step of a proof is wrong, but the stated result survives (the check names the verified "
                  "replacement)",
    "typo": "the intended meaning is clear and the corrected version is verified",
    "out-of-range": "fails only outside the range the paper uses (the check says the range)",
}

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
    "seeds",
    "notes",
]


class Verdict(str, Enum):
    """Outcome of a check."""

    PASS = "PASS"
    FAIL = "FAIL"
    INCONCLUSIVE = "INCONCLUSIVE"

    def __str__(self) -> str:
        return self.value


@dataclass(frozen=True)
class ClaimRecord:
    """One row of the ledger: one check of one claim.

    Attributes
    ----------
    claim_id : str
        The claim (module of :mod:`sparseact.claims`), e.g. ``"lemma9"``.
    check_id : str
        Unique id of the check, ``"<claim_id>/<name>"``, e.g. ``"section4_parity/lift-printed"``.
    statement_id : str
        The statement of the paper the check bears on (a key of its claim
        module's ``STATEMENTS``), e.g. ``"lemma9"``, ``"eq15"``.
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
        Number of instances (networks, inputs, ...) the verdict covers.
    range : str
        The parameters those instances cover, e.g. ``"n <= 20, s <= 64, k <= 8"``
        (:func:`sparseact.claims.describe_range`); a statement that only holds on
        what was enumerated states this range.
    worst_value : float
        The worst measured quantity (error, ratio, count).
    worst_value_label : str
        What ``worst_value`` is.
    verdict : Verdict
        Computed by a ``verdict_*`` function.
    finding : str
        For a FAIL, what kind of failure it is (one of :data:`FINDINGS`); empty otherwise.
    counterexample : str
        For a FAIL, a concrete failing input.
    certificate : dict or None
        For a FAIL, the certificate (:func:`sparseact.certificates.certificate`)
        from which both sides of the violated relation can be recomputed.
    evidence : tuple of str
        Relative paths of figures, tables and reports.
    seeds : str
        How many independent seeds (replicates) gave this verdict, e.g. ``"3/3"``
        (set by :func:`combine_replicates`; ``"1/1"`` for deterministic checks).
    notes : str
        Anything a reader needs to interpret the row.
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
    seeds: str = ""
    notes: str = ""
    range: str = ""

    def __post_init__(self):
        if self.method not in METHODS:
            raise ValueError(f"method must be one of {METHODS}, got {self.method!r}")
        if not isinstance(self.verdict, Verdict):
            raise ValueError(f"verdict must be a Verdict computed by a verdict_* function, got {self.verdict!r}")
        if self.verdict is Verdict.FAIL:
            if self.finding not in FINDINGS:
                raise ValueError(f"{self.check_id}: a FAIL needs a finding class, one of {FINDINGS}; got {self.finding!r}")
            if not self.certificate:
                raise ValueError(f"{self.check_id}: a FAIL needs a certificate (sparseact.certificates.certificate)")
        elif self.finding or self.certificate:
            raise ValueError(f"{self.check_id}: only a FAIL carries a finding and a certificate")

    def with_evidence(self, paths: Sequence[str]) -> ClaimRecord:
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
    def from_dict(cls, data: dict) -> ClaimRecord:
        data = dict(data)
        data["verdict"] = Verdict(data["verdict"])
        data["evidence"] = tuple(data.get("evidence", ()))
        return cls(**data)


@dataclass
class CheckReport:
    """What a claim's checks produced.

    Attributes
    ----------
    records : list of ClaimRecord
        Ledger rows.
    tables : dict of str to DataFrame
        Per-instance data; saved as CSV and LaTeX next to the figures.
    """

    records: list[ClaimRecord] = field(default_factory=list)
    tables: dict[str, pd.DataFrame] = field(default_factory=dict)


def _records(records, name: str) -> list[ClaimRecord]:
    """``records`` as a list of :class:`ClaimRecord`, or ``TypeError`` naming ``name``."""
    if isinstance(records, (str, bytes)) or not isinstance(records, Iterable):
        raise TypeError(f"{name} must be a sequence of ClaimRecord, got {type(records).__name__}")
    records = list(records)
    for record in records:
        if not isinstance(record, ClaimRecord):
            raise TypeError(f"{name} must hold ClaimRecord objects, got {type(record).__name__}")
    return records


def combine_replicates(replicates: Sequence[Sequence[ClaimRecord]]) -> list[ClaimRecord]:
    """One ledger row per check from the rows of several independent seeds.

    A verdict stands only when every seed gives it; otherwise the check is
    INCONCLUSIVE. The combined row is the first seed's (for a unanimous FAIL,
    the first seed's counterexample), with ``seeds`` saying how many agree and,
    when the seeds' worst values differ, each seed's worst value in the notes.

    Parameters
    ----------
    replicates : sequence of sequences of ClaimRecord
        The rows of each seed; every seed must produce the same check ids.
    """
    if isinstance(replicates, (str, bytes)) or not isinstance(replicates, Iterable):
        raise TypeError(f"replicates must be a sequence of sequences of ClaimRecord, got {type(replicates).__name__}")
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
            seeds = ", ".join(f"{v.value} {c}" for v, c in counts.items()) + f" of {total}"
        else:
            seeds = f"{verdicts.count(verdict)}/{total}"
        notes = base.notes
        worst = [r.worst_value for r in rows]
        if total > 1 and len({repr(w) for w in worst}) > 1:
            per_seed = "; ".join(f"{w:.4g}" for w in worst)
            notes = (notes + " " if notes else "") + f"[per seed: {base.worst_value_label} = {per_seed}; verdicts " \
                    + ", ".join(v.value for v in verdicts) + "]"
        combined.append(replace(base, verdict=verdict, seeds=seeds, notes=notes))
    return combined


# ---------------------------------------------------------------------------
# Verdicts
# ---------------------------------------------------------------------------


def close(a, b, atol: float = ATOL, rtol: float = RTOL) -> np.ndarray:
    """Elementwise agreement under the tolerance policy."""
    a = np.asarray(a, dtype=np.float64)
    b = np.asarray(b, dtype=np.float64)
    return np.abs(a - b) <= atol + rtol * np.abs(b)


def verdict_equal(got, expected, atol: float = ATOL, rtol: float = RTOL) -> tuple[Verdict, float, int | None]:
    """Exact check that ``got == expected`` elementwise (within the tolerance policy).

    Returns
    -------
    verdict : Verdict
    max_abs_error : float
    first_failure : int or None
        Index of the first element that disagrees.
    """
    got = np.asarray(got, dtype=np.float64).ravel()
    expected = np.asarray(expected, dtype=np.float64).ravel()
    if got.shape != expected.shape:
        raise ValueError(f"shapes differ: got {got.shape}, expected {expected.shape}")
    if got.size == 0:
        raise ValueError("got and expected are empty: nothing to compare, so no verdict")
    ok = close(got, expected, atol, rtol)
    err = float(np.max(np.abs(got - expected), initial=0.0))
    if ok.all():
        return Verdict.PASS, err, None
    return Verdict.FAIL, err, int(np.argmin(ok))


def verdict_at_most(value: float, limit: float, atol: float = ATOL, rtol: float = RTOL) -> Verdict:
    """PASS when ``value <= limit`` (with the tolerance policy's slack), FAIL otherwise.

    An infinite side decides the comparison when the other side is finite (``inf`` exceeds every finite
    limit, e.g. a ratio over a bound of 0; every finite value is below a limit of ``inf``, e.g. a degree
    that overflows float64). ``ValueError`` for a NaN, or when both sides are infinite.
    """
    for name, number in (("value", value), ("limit", limit)):
        if np.isnan(number):
            raise ValueError(f"{name} is NaN: no verdict compares a NaN")
    if np.isinf(value) and np.isinf(limit):
        raise ValueError(f"value {value} and limit {limit} are both infinite: no verdict compares two infinities")
    if np.isinf(value) or np.isinf(limit):
        return Verdict.PASS if value < limit else Verdict.FAIL
    return Verdict.PASS if value <= limit + atol + rtol * abs(limit) else Verdict.FAIL


def verdict_all(verdicts: Iterable[Verdict]) -> Verdict:
    """Combine verdicts: FAIL if any fails, else INCONCLUSIVE if any is, else PASS."""
    verdicts = list(verdicts)
    if not verdicts:
        return Verdict.INCONCLUSIVE
    if Verdict.FAIL in verdicts:
        return Verdict.FAIL
    if Verdict.INCONCLUSIVE in verdicts:
        return Verdict.INCONCLUSIVE
    return Verdict.PASS


def _usable(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """The points of a log-log fit: both coordinates finite and positive."""
    return (x > 0) & (y > 0) & np.isfinite(x) & np.isfinite(y)


def has_slope(x, y) -> bool:
    """Whether :func:`loglog_slope` is defined: at least two distinct ``x`` among the usable points
    (both coordinates finite and > 0)."""
    x = np.asarray(x, dtype=np.float64)
    y = np.asarray(y, dtype=np.float64)
    if x.shape != y.shape:
        raise ValueError(f"x and y must have the same shape, got {x.shape} and {y.shape}")
    return bool(np.unique(x[_usable(x, y)]).size >= 2)


def loglog_slope(x, y) -> float:
    """Least-squares slope of ``log y`` against ``log x`` over the usable points (both coordinates finite, > 0).

    Raises ``ValueError`` when fewer than two distinct ``x`` are usable (no slope is defined: see
    :func:`has_slope`); :func:`verdict_big_o` reads that case as INCONCLUSIVE without calling this.
    """
    if not has_slope(x, y):
        raise ValueError("loglog_slope needs two distinct x among the points with x and y finite and > 0")
    x = np.asarray(x, dtype=np.float64)
    y = np.asarray(y, dtype=np.float64)
    keep = _usable(x, y)
    return float(np.polyfit(np.log(x[keep]), np.log(y[keep]), 1)[0])


def verdict_growth_mc(parameter, ratio_low, ratio_high, slope_tol: float = SLOPE_TOL) -> tuple[Verdict, float]:
    """:func:`verdict_big_o` for Monte Carlo ratios with confidence intervals.

    PASS when the slope of the *upper* interval ends is at most ``slope_tol``
    (pessimistic); FAIL only when growth is established beyond the noise, i.e. the
    lower end at the largest parameter exceeds the upper end at the smallest;
    INCONCLUSIVE otherwise.
    """
    parameter = np.asarray(parameter, dtype=np.float64)
    low, high = np.asarray(ratio_low, dtype=np.float64), np.asarray(ratio_high, dtype=np.float64)
    if not parameter.shape == low.shape == high.shape:
        raise ValueError(f"parameter, ratio_low and ratio_high must have the same shape, got {parameter.shape}, "
                         f"{low.shape} and {high.shape}")
    verdict, slope = verdict_big_o(parameter, high, slope_tol)
    if verdict is Verdict.FAIL:
        first, last = parameter == parameter.min(), parameter == parameter.max()
        if low[last].max() <= high[first].max():
            verdict = Verdict.INCONCLUSIVE
    return verdict, slope


def verdict_big_o(parameter, ratios, slope_tol: float = SLOPE_TOL) -> tuple[Verdict, float]:
    """Verdict for ``measured = O(expression)`` along one swept parameter.

    Parameters
    ----------
    parameter : array_like
        The swept parameter, one value per instance (repeats allowed).
    ratios : array_like
        ``measured / expression`` per instance.
    slope_tol : float
        Largest log-log slope of the ratio still read as "not growing" (finite; ``ValueError`` otherwise).

    Returns
    -------
    verdict : Verdict
        PASS if the fitted slope of the per-parameter worst ratio is at most
        ``slope_tol``; FAIL if it is larger and the worst ratio sits at the largest
        parameter value; INCONCLUSIVE otherwise, and whenever fewer than
        :data:`MIN_SWEEP_POINTS` distinct parameter values were measured (two
        points cannot separate growth from instance-to-instance noise).
    slope : float
        The fitted slope (:func:`loglog_slope`); NaN, with INCONCLUSIVE, when fewer than two
        parameter values have a finite positive worst ratio (no slope is defined).
    """
    slope_tol = check_real(slope_tol, "slope_tol")
    parameter = np.asarray(parameter, dtype=np.float64)
    ratios = np.asarray(ratios, dtype=np.float64)
    if parameter.shape != ratios.shape:
        raise ValueError(f"parameter and ratios must have the same shape, got {parameter.shape} and {ratios.shape}")
    values = np.unique(parameter)
    worst = np.array([ratios[parameter == v].max() for v in values])
    if not has_slope(values, worst):
        return Verdict.INCONCLUSIVE, float("nan")
    slope = loglog_slope(values, worst)
    if not np.isfinite(slope) or np.count_nonzero(worst > 0) < MIN_SWEEP_POINTS:
        return Verdict.INCONCLUSIVE, slope
    if slope <= slope_tol:
        return Verdict.PASS, slope
    if worst[-1] >= worst.max():
        return Verdict.FAIL, slope
    return Verdict.INCONCLUSIVE, slope


# ---------------------------------------------------------------------------
# Result files and the ledger
# ---------------------------------------------------------------------------


def records_to_frame(records: Iterable[ClaimRecord], results_dir: str | Path = "results") -> pd.DataFrame:
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


def load_records(paths: Iterable[str | Path]) -> list[ClaimRecord]:
    """Read the ``claims`` of every result JSON file in ``paths``."""
    records = []
    for path in paths:
        with open(path, encoding="utf-8") as handle:
            data = json.load(handle)
        if "claims" not in data:
            raise ValueError(f"{path} is not a result file: it has no 'claims' list")
        records.extend(ClaimRecord.from_dict(row) for row in data["claims"])
    return records


def _markdown_cell(value) -> str:
    text = f"{value:.4g}" if isinstance(value, float) else str(value)
    return text.replace("|", "\\|").replace("\n", " ")


def _evidence_links(evidence: str, prefix: str) -> str:
    """Compact Markdown links (``[pdf](...)``, ``[csv](...)``) for a ``; ``-joined evidence list."""
    links = []
    for path in filter(None, (p.strip() for p in str(evidence).split(";"))):
        name = path.rsplit("/", 1)[-1]
        label = "report" if name.endswith(".html") else name.rsplit(".", 1)[-1] + ":" + name.rsplit(".", 1)[0]
        links.append(f"[{label}]({prefix}{path})")
    return " ".join(links)


def ledger_markdown(frame: pd.DataFrame, link_prefix: str = "../") -> str:
    """The ledger as a Markdown document (summary counts, then one row per check).

    Evidence paths are relative to the repository root; ``link_prefix`` makes them
    relative to where the Markdown file lives (``results/`` by default).
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
        cells = [_evidence_links(row[c], link_prefix) if c == "evidence" else _markdown_cell(row[c]) for c in columns]
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"


def severity_order(record: ClaimRecord) -> tuple:
    """Sort key of the ledger: FAILs first, most severe finding first, then INCONCLUSIVE, then PASS."""
    (record,) = _records([record], "record")
    rank = {Verdict.FAIL: 0, Verdict.INCONCLUSIVE: 1, Verdict.PASS: 2}[record.verdict]
    finding = FINDINGS.index(record.finding) if record.finding in FINDINGS else len(FINDINGS)
    return rank, finding, record.claim_id, record.check_id


def write_certificates(records: Iterable[ClaimRecord], directory: str | Path = "results/certificates") -> list[str]:
    """Write each FAIL's certificate to ``<directory>/<check_id>.json`` (:func:`certificate_path`); return the paths."""
    from sparseact.provenance import atomic_write_json

    paths = []
    for record in records:
        if record.certificate:
            path = Path(directory) / f"{record.check_id}.json"
            atomic_write_json(path, certificate_document(record))
            paths.append(str(path))
    return paths


def certificate_document(record: ClaimRecord) -> dict:
    """The content of a FAIL's certificate file: the check, the statement it refutes, and the certificate."""
    if not isinstance(record, ClaimRecord):
        raise TypeError(f"record must be a ClaimRecord, got {type(record).__name__}")
    return dict(check_id=record.check_id, statement_id=record.statement_id, paper_ref=record.paper_ref,
                statement=record.statement, finding=record.finding, counterexample=record.counterexample,
                certificate=record.certificate)


def write_ledger(records: Sequence[ClaimRecord], csv_path: str | Path, md_path: str | Path,
                 results_dir: str | Path = "results") -> pd.DataFrame:
    """Write ``records`` as the ledger CSV and Markdown; return the table.

    ``results_dir`` (relative to the repository root) holds the certificates the ledger names
    (:func:`records_to_frame`) and the Markdown file, whose links it makes relative to that directory.
    """
    from sparseact.provenance import atomic_write_text

    from sparseact.paper import paper_ref

    frame = records_to_frame(sorted(records, key=severity_order), results_dir)
    # where a check's statement is printed is the paper data's to say (a record may predate an edit of it)
    frame["paper_ref"] = [paper_ref(s) if s else ref for s, ref in zip(frame["statement_id"], frame["paper_ref"])]
    duplicated = frame["check_id"][frame["check_id"].duplicated()]
    if len(duplicated):
        raise ValueError(f"duplicate check ids in the ledger: {sorted(set(duplicated))}")
    atomic_write_text(csv_path, frame.to_csv(index=False, lineterminator="\n"))
    atomic_write_text(md_path, ledger_markdown(frame, link_prefix="../" * len(Path(results_dir).parts)))
    return frame
