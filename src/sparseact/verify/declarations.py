"""The checks a claim declares once, read as data: ``claims/<id>/checks.yaml`` (docs/architecture.md, "Checks as data").

:func:`read_checks` validates a claim's file and returns its :class:`Checks`: check id -> declaration, in file order,
each declaration also an attribute named after its check (:func:`python_name`), so that code names a check by an
identifier and types its id nowhere (``CHECKS.transition_union_printed.id`` is ``"lemma9/transition-union-printed"``;
a misspelt name fails at import with an :class:`AttributeError` listing the claim's checks). The claims read their
files through :func:`sparseact.claims._checks.declared_checks`; the verifier, which imports nothing of the claims,
reads them here to key its pins (:mod:`sparseact.verify.pins`): data, like the certificates it checks.
"""

from __future__ import annotations

import keyword
from collections.abc import Iterator, Mapping
from pathlib import Path

from sparseact._yaml import read_yaml

#: The file in which a claim declares its checks, in its folder.
DECLARATIONS = "checks.yaml"
#: The folder holding one folder per claim (``sparseact/claims``), read as data.
CLAIMS_FOLDER = Path(__file__).resolve().parent.parent / "claims"


class Declaration(dict):
    """One entry of a ``checks.yaml`` (keys :data:`sparseact.verify.records.DECLARATION_KEYS`, and optionally
    :data:`OPTIONAL_KEYS`), its id also ``.id``."""

    @property
    def id(self) -> str:
        return self["id"]

    @property
    def measures(self) -> tuple[str, ...]:
        """The measures whose recorded instances certify the check's FAIL (the runs stage's names of what it
        measured), in their declared order; empty when none is declared."""
        measures = self.get("measures", ())
        return (measures,) if isinstance(measures, str) else tuple(measures)


#: Keys an entry of a ``checks.yaml`` may add to the required ones: ``measures``, the name (or list of names) under
#: which the runs stage records the instances that certify the check's FAIL; ``reading``, how a routine check is read
#: from a run table (:data:`READING_KEYS`, :meth:`sparseact.verify.assembly.Assembly.read`).
OPTIONAL_KEYS = ("measures", "reading")
#: The keys of a declared ``reading``, each with whether it is required: the run ``table`` (or a list of run tables,
#: whose rows are read together, in order), the rows it covers
#: (``where``: column -> value), the column ``of`` whose largest value is the worst, the limit ``at-most`` it may reach
#: (with ``over``, a column: each row's ``of`` at most ``at-most`` times its ``over``, the worst the largest ratio;
#: ``of`` and ``over`` may then be lists of as many columns, each pair one instance per row), or instead of
#: ``at-most`` the limit ``at-least`` below which ``of`` may not fall (its smallest value the worst; not with ``over``),
#: ``also``, further limits that hold too (column -> a number its largest value is at most, or the name of a column
#: each row's value is at most, row by row), the worst value's ``label``, the row's ``variant`` and ``notes``, and its
#: ``range``: the columns that describe the rows (:func:`sparseact.claims.describe_range`), then ``range-note``
#: (``${name}`` in a text: a fill value, a check of the claim, or else the largest value of a column of the rows).
READING_KEYS = {
    "table": True,
    "where": False,
    "of": True,
    "over": False,
    "at-most": False,
    "at-least": False,
    "also": False,
    "label": True,
    "variant": False,
    "notes": False,
    "range": False,
    "range-note": False,
}


def python_name(check_id: str) -> str:
    """The attribute of :class:`Checks` naming ``check_id``: its name after ``<claim>/`` with every ``-`` as ``_``,
    and a trailing ``_`` when that is a Python keyword (``lemma9/transition-union-printed`` ->
    ``transition_union_printed``, ``section4_parity/class`` -> ``class_``).

    Raises
    ------
    ValueError
        When the result is no identifier.
    """
    name = check_id.partition("/")[2].replace("-", "_")
    if not name.isidentifier():
        raise ValueError(f"check id {check_id!r} gives no Python name ({name!r})")
    return f"{name}_" if keyword.iskeyword(name) else name


class Checks(Mapping):
    """The checks one claim declares: check id -> :class:`Declaration`, in file order, and each declaration as the
    attribute :func:`python_name` of its id.

    Raises
    ------
    ValueError
        When two ids give one name, or a name is one of the mapping's own attributes.
    """

    def __init__(self, claim_id: str, declarations: Mapping[str, Declaration]):
        self._claim_id = claim_id
        self._by_id = dict(declarations)
        self._by_name: dict[str, Declaration] = {}
        for check_id, declaration in self._by_id.items():
            name = python_name(check_id)
            if name in self._by_name:
                raise ValueError(
                    f"{claim_id}: {self._by_name[name].id!r} and {check_id!r} both give the Python name {name!r}"
                )
            if hasattr(Checks, name):
                raise ValueError(f"{claim_id}: {check_id!r} gives the Python name {name!r}, a method of Checks")
            self._by_name[name] = declaration

    def __getattr__(self, name: str) -> Declaration:
        by_name = self.__dict__.get("_by_name", {})
        if name in by_name:
            return by_name[name]
        raise AttributeError(
            f"{self.__dict__.get('_claim_id')} declares no check named {name!r} in its {DECLARATIONS}; "
            f"its checks: {', '.join(by_name)}"
        )

    def __getitem__(self, check_id: str) -> Declaration:
        return self._by_id[check_id]

    def __iter__(self) -> Iterator[str]:
        return iter(self._by_id)

    def __len__(self) -> int:
        return len(self._by_id)

    def __repr__(self) -> str:
        return f"Checks({self._claim_id!r}: {', '.join(self._by_name)})"


def read_checks(claim_id: str, folder: Path = CLAIMS_FOLDER) -> Checks:
    """The checks ``claim_id`` declares in ``folder/<claim_id>/checks.yaml``.

    Raises
    ------
    FileNotFoundError
        When the claim has no ``checks.yaml``.
    ValueError
        When an entry lacks a key or has one more (bar :data:`OPTIONAL_KEYS`), names another claim's check, repeats
        an id, or has a method, finding, ``pinned``, ``measures`` or ``reading`` outside their values (``pinned`` is true or false,
        and false for a check that cannot FAIL; a check that can FAIL but is not pinned yet is listed, with its
        reason, in ``tests/test_checks_declared.py``), or when two ids give one Python name (:class:`Checks`).

    Notes
    -----
    ``finding`` is ``null`` (the check cannot FAIL), one class of :data:`sparseact.verify.verdicts.FINDINGS`, or
    ``[<class>, out-of-range]`` for a check whose FAIL takes the degenerate-corner rule
    (:func:`sparseact.verify.corners.finding`): ``out-of-range`` when every violation lies in a log corner, the
    class otherwise.
    """
    # deferred: the vocabulary loads pandas, and the Snakefile imports this module (DECLARATIONS, through
    # sparseact.claims._registry) without it
    from sparseact.verify.corners import CORNER_FINDING
    from sparseact.verify.records import DECLARATION_KEYS
    from sparseact.verify.verdicts import FINDINGS, METHODS

    path = Path(folder) / claim_id / DECLARATIONS
    entries = read_yaml(path)
    if not isinstance(entries, list):
        raise ValueError(f"{path}: a list of checks, got {type(entries).__name__}")
    checks: dict[str, Declaration] = {}
    for entry in entries:
        allowed = {*DECLARATION_KEYS, *OPTIONAL_KEYS}
        if not isinstance(entry, dict) or not set(DECLARATION_KEYS) <= set(entry) <= allowed:
            raise ValueError(
                f"{path}: every check has the keys {list(DECLARATION_KEYS)} and may have {list(OPTIONAL_KEYS)}, "
                f"got {entry!r}"
            )
        check_id = entry["id"]
        problem = (
            "names another claim's check"
            if not str(check_id).startswith(f"{claim_id}/")
            else "is declared twice"
            if check_id in checks
            else f"has method {entry['method']!r}, not one of {METHODS}"
            if entry["method"] not in METHODS
            else f"has finding {entry['finding']!r}, not null, one of {FINDINGS} or [<one of them>, {CORNER_FINDING}]"
            if not _valid_finding(entry["finding"], FINDINGS, CORNER_FINDING)
            else "has pinned other than true or false, or true for a check that cannot FAIL"
            if entry["pinned"] not in (True, False) or (entry["pinned"] and entry["finding"] is None)
            else f"has measures {entry['measures']!r}, not a name or a non-empty list of names"
            if "measures" in entry and not _valid_measures(entry["measures"])
            else f"has a reading {entry['reading']!r} without the keys {_required_reading()} or with others than "
            f"{list(READING_KEYS)}, or not one limit, at-most or at-least (not with over), that is a number"
            if "reading" in entry and not _valid_reading(entry["reading"])
            else ""
        )
        if problem:
            raise ValueError(f"{path}: {check_id!r} {problem}")
        checks[check_id] = Declaration(entry)
    return Checks(claim_id, checks)


def _valid_measures(measures) -> bool:
    """Whether ``measures`` is a non-empty name or a non-empty list of distinct non-empty names."""
    names = [measures] if isinstance(measures, str) else measures
    return (
        isinstance(names, list)
        and bool(names)
        and all(isinstance(name, str) and name for name in names)
        and len(set(names)) == len(names)
    )


def _required_reading() -> list[str]:
    return [key for key, required in READING_KEYS.items() if required]


def _valid_reading(reading) -> bool:
    """Whether ``reading`` is a mapping with the required :data:`READING_KEYS` and no others, a ``table`` or a list
    of tables, one number ``at-most`` or ``at-least`` (not with ``over``), a mapping ``where``, limits ``also`` and a
    list of column names ``range``."""
    limits = [reading[key] for key in ("at-most", "at-least") if key in reading] if isinstance(reading, dict) else []
    return (
        isinstance(reading, dict)
        and set(_required_reading()) <= set(reading) <= set(READING_KEYS)
        and len(limits) == 1
        and isinstance(limits[0], int | float)
        and not isinstance(limits[0], bool)
        and not ("at-least" in reading and "over" in reading)
        and _valid_tables(reading["table"])
        and isinstance(reading.get("where", {}), dict)
        and _valid_also(reading.get("also", {}))
        and _valid_columns(reading["of"], reading.get("over", reading["of"]))
        and isinstance(reading.get("range", []), list)
        and all(isinstance(column, str) for column in reading.get("range", []))
    )


def _valid_tables(tables) -> bool:
    """Whether ``tables`` is a run table's name or a non-empty list of them."""
    names = [tables] if isinstance(tables, str) else tables
    return isinstance(names, list) and bool(names) and all(isinstance(name, str) for name in names)


def _valid_also(also) -> bool:
    """Whether ``also`` maps column names each to a number or to a column name."""
    return isinstance(also, dict) and all(
        isinstance(column, str) and (isinstance(limit, str | int | float) and not isinstance(limit, bool))
        for column, limit in also.items()
    )


def _valid_columns(of, over) -> bool:
    """Whether ``of`` and ``over`` are both a column, or two lists of as many columns (``over`` only then)."""
    if isinstance(of, str):
        return isinstance(over, str)
    return (
        isinstance(of, list)
        and isinstance(over, list)
        and len(of) == len(over) > 0
        and all(isinstance(name, str) for name in [*of, *over])
    )


def _valid_finding(finding, findings: tuple, corner: str) -> bool:
    """Whether ``finding`` is ``None``, one of ``findings``, or ``[<one of them>, corner]`` (the corner rule)."""
    if isinstance(finding, list):
        return len(finding) == 2 and finding[0] in findings and finding[0] != corner and finding[1] == corner
    return finding is None or finding in findings
