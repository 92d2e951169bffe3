"""One claim's ledger rows from their declarations: what every row of an assembly shares, held once.

A check declares its statement, texts, method, finding class and the measures that certify it (``checks.yaml``,
:class:`sparseact.verify.declarations.Declaration`); the claim's assembly measures and decides. An :class:`Assembly`
holds what all its rows share (the claim, the ``${name}`` values of the declared texts, the range the instances
cover, how a recorded instance of the declared measures is certified), and :meth:`Assembly.record` makes one row: a
FAIL is certified or INCONCLUSIVE (:func:`sparseact.verify.certificates.fail_fields`), and a check declared unable
to FAIL (``finding: null``) never asks for a certificate; :meth:`Assembly.row` makes a row whose verdict the claim
decided itself (a certificate built in place, a degenerate point).

A routine check also declares its ``reading`` (:data:`sparseact.verify.declarations.READING_KEYS`): the largest
value of a column over some rows of a run table (or of several), at most a limit (or the smallest, at least one).
:meth:`Assembly.read` builds its row from the tables alone, and :meth:`Assembly.records` gives every declared check's
row in declaration order, the claim supplying only the rows that are truly its own.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from string import Template

import numpy as np
import pandas as pd

from sparseact.paper import paper_ref
from sparseact.verify.certificates import fail_fields
from sparseact.verify.declarations import Declaration, python_name
from sparseact.verify.records import CheckRecord, declared_record
from sparseact.verify.verdicts import Verdict, verdict_all, verdict_at_most

#: ``(certificate, counterexample)`` of a violating instance, or ``None`` when no instance certifies the FAIL.
Certified = tuple[dict, str] | None


@dataclass(frozen=True)
class Assembly:
    """What the rows of one claim's assembly share.

    Attributes
    ----------
    claim_id : str
        The claim.
    fill : mapping
        Values of the ``${name}`` fields of the declared ``says`` and ``checks`` texts.
    range : str
        The range a row covers unless it says otherwise (:func:`sparseact.claims.describe_range`).
    certify : callable, optional
        ``certify(measures) -> (certificate, counterexample) or None``: the claim's certificate of the instance its
        runs stage recorded under a check's declared measures; a FAIL without it, or of a check that declares no
        measures, is INCONCLUSIVE unless the row brings its own ``build``.
    checks : mapping, optional
        The claim's checks (check id -> declaration), for :meth:`records`; a declared reading's notes name a check as
        ``${<its Python name>}`` (:func:`sparseact.verify.declarations.python_name`).
    paper_ref : str, optional
        The reference of every row, for a claim that cites one section for all; else each row's statement's.
    describe : callable, optional
        ``describe(rows, columns, note) -> str``: the range of a reading that declares its ``range`` columns
        (:func:`sparseact.claims.describe_range`).
    """

    claim_id: str
    fill: Mapping = field(default_factory=dict)
    range: str = ""
    certify: Callable[[tuple[str, ...]], Certified] | None = None
    checks: Mapping = field(default_factory=dict)
    paper_ref: str = ""
    describe: Callable[[list, list, str], str] | None = None

    def record(
        self,
        declaration: Mapping,
        variant: str,
        worst: float,
        label: str,
        verdict: Verdict,
        instances: int,
        notes: str = "",
        covered: str = "",
        build: Callable[[], Certified] | None = None,
    ) -> CheckRecord:
        """The ledger row of ``declaration`` (an attribute of the claim's ``CHECKS``) for its ``variant`` (``"as
        printed"``, ``"corrected"`` or ``""``).

        ``worst`` is the worst measured value, named ``label``, over ``instances`` instances covering ``covered``
        (the assembly's :attr:`range` when empty). A FAIL is certified by ``build()`` when given, else by
        :attr:`certify` of the declared measures; ``None`` from either makes it INCONCLUSIVE.
        """
        measures = Declaration(declaration).measures
        if declaration["finding"] is None:
            build = _uncertified
        elif build is None:
            build = (lambda: self.certify(measures)) if self.certify and measures else _uncertified
        return self.row(
            declaration,
            variant,
            instances,
            covered,
            worst_value=float(worst),
            worst_value_label=label,
            **fail_fields(verdict, declaration["finding"], build, notes),
        )

    def row(self, declaration: Mapping, variant: str, instances: int, covered: str = "", **decided) -> CheckRecord:
        """The ledger row of ``declaration`` whose verdict fields the claim decided itself (``decided``: the worst
        value, its label, the verdict and, for a FAIL, its finding and certificate, e.g.
        :func:`sparseact.verify.certificates.certified_fields`); the claim, reference, texts and range as in
        :meth:`record`."""
        return declared_record(
            declaration,
            self.fill,
            claim_id=self.claim_id,
            paper_ref=self.paper_ref or paper_ref(declaration["statement"]),
            variant=variant,
            instances=int(instances),
            range=covered or self.range,
            **decided,
        )

    def read(self, declaration: Mapping, tables: Mapping) -> CheckRecord:
        """The row of a check that declares its ``reading``: the largest value of the column ``of`` over the rows of
        the run table ``table`` (a list of tables: their rows, in order) whose columns equal ``where``, at most
        ``at-most`` (with the tolerance policy, :func:`sparseact.verify.verdicts.verdict_at_most`), over as many
        instances as rows. With ``over``, each row's ``of`` is at most ``at-most`` times its ``over`` (a list of
        columns each: every pair, one instance each) and the worst value is the largest ratio; with ``at-least`` in
        place of ``at-most``, the smallest ``of`` is the worst and at least that limit; with ``also``, every further
        limit holds too (:func:`_also`); with ``range``, the row's range describes those columns of the rows
        (:attr:`describe`), then ``range-note``. A ``${name}`` of the texts that is neither a fill value nor a check
        is the largest value of that column of the rows (:func:`_largest`)."""
        reading = declaration["reading"]
        rows = _table(tables, reading["table"])
        for column, value in reading.get("where", {}).items():
            rows = rows[rows[column] == value]
        names = {**self.fill, **{python_name(check_id): check_id for check_id in self.checks}}
        notes, note = (_text(reading.get(key, ""), names, rows) for key in ("notes", "range-note"))
        instances = len(rows)
        if "over" in reading:
            columns = zip(_columns(reading["of"]), _columns(reading["over"]), strict=True)
            pairs = [(rows[of].to_numpy(float), rows[over].to_numpy(float)) for of, over in columns]
            values, limits = np.concatenate([v for v, _ in pairs]), np.concatenate([b for _, b in pairs])
            worst = float(np.max(values / limits)) if len(values) else float("nan")
            verdict = verdict_all(
                verdict_at_most(v, reading["at-most"] * b) for v, b in zip(values, limits, strict=True)
            )
            instances = len(values)
        elif "at-least" in reading:
            worst = float(rows[reading["of"]].min())
            verdict = verdict_at_most(reading["at-least"], worst)
        else:
            worst = float(rows[reading["of"]].max())
            verdict = verdict_at_most(worst, reading["at-most"])
        if "also" in reading:
            verdict = verdict_all([verdict, *_also(rows, reading["also"])])
        covered = self.describe(rows.to_dict("records"), reading["range"], note) if "range" in reading else ""
        return self.record(
            declaration, reading.get("variant", ""), worst, reading["label"], verdict, instances, notes, covered
        )

    def records(self, tables: Mapping, own: Iterable[CheckRecord]) -> list[CheckRecord]:
        """Every check of :attr:`checks` in declaration order: :meth:`read` for one that declares a reading, else its
        row among ``own``.

        Raises
        ------
        ValueError
            When ``own`` misses a check without a reading, or holds a check with one or one not declared.
        """
        own = {record.check_id: record for record in own}
        read = [check_id for check_id, declaration in self.checks.items() if "reading" in declaration]
        expected = set(self.checks) - set(read)
        if set(own) != expected:
            raise ValueError(
                f"{self.claim_id}: the claim's own rows are {sorted(own)}, its checks without a reading "
                f"{sorted(expected)}"
            )
        return [
            self.read(declaration, tables) if check_id in read else own[check_id]
            for check_id, declaration in self.checks.items()
        ]


def _table(tables: Mapping, names: str | list) -> pd.DataFrame:
    """A reading's run table, or the rows of its list of run tables in order."""
    if isinstance(names, str):
        return tables[names]
    return pd.concat([tables[name] for name in names], ignore_index=True)


def _also(rows, also: Mapping) -> list[Verdict]:
    """The verdicts of a reading's further limits (``also``: column -> limit): the column's largest value at most a
    number, or each row's value at most the same row's value of the column the limit names (one verdict a row)."""
    verdicts = []
    for column, limit in also.items():
        if isinstance(limit, str):
            verdicts += [verdict_at_most(v, b) for v, b in zip(rows[column], rows[limit], strict=True)]
        else:
            verdicts.append(verdict_at_most(rows[column].max(), limit))
    return verdicts


def _text(text: str, names: Mapping, rows) -> str:
    """A reading's ``text`` with its ``${name}`` fields filled: ``names`` (fill values and checks), else the largest
    value of the column ``name`` of ``rows`` (:func:`_largest`)."""
    template = Template(text)
    columns = {name: _largest(rows[name]) for name in template.get_identifiers() if name not in names and name in rows}
    return template.substitute({**names, **columns})


def _largest(column) -> str:
    """The largest value of a column as a text: an integer as one, any other number as ``:g`` gives it."""
    value = column.max()
    return str(int(value)) if float(value).is_integer() else f"{value:g}"


def _columns(names: str | list) -> list:
    """A reading's column, or its list of columns, as a list."""
    return [names] if isinstance(names, str) else list(names)


def _uncertified() -> None:
    """No instance certifies the FAIL (it is INCONCLUSIVE)."""
    return None
