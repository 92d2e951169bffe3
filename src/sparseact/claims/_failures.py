"""The worst instances the runs stage measures, and the certificates the assembly builds from them.

The runs stage measures; the assembly decides. For a check whose certificate needs the
instance (a network, an input), which the assembly does not otherwise see, the runs stage
records the raw data of each point's worst instance with :func:`worst_instance` (no
verdict, no tolerance: the instance where the measured excess over the statement's limit
is largest) as the run table :data:`WORST`; the assembly passes
:func:`certified_worst` (the worst instance that violates the check, certified by the
claim's ``verdicts`` module from that data) as the ``build`` of
:func:`sparseact.verify.certificates.fail_fields`. This module imports nothing from
:mod:`sparseact.verify`, so the runs stage's code closure holds no tolerance.

Claims not yet moved to that split use the older pair below:

Some checks compare numbers the runs stage records per instance (a network, a
sample) with a limit, but the assembly only sees the numbers: the instance, which
a certificate must contain, is gone. For such a check the runs stage calls
:func:`violation` on every instance that violates the check (the same test the
assembly applies) and returns the rows, only when there are any, as the optional
run table :data:`TABLE`; the assembly then passes :func:`worst_violation` (the
worst recorded violation) as the ``build`` of
:func:`sparseact.verify.certificates.fail_fields`. On data without
violations nothing is added, so PASS rows and run tables are unchanged.
"""

from __future__ import annotations

import json
from collections.abc import Callable

import pandas as pd

#: Name of the run table of worst instances (one row per point and check; the stages add ``point`` and
#: ``replicate``).
WORST = "worst"
#: Its columns: ``data`` is the instance's raw data as JSON text (run tables hold scalars).
WORST_COLUMNS = ("check", "excess", "instance", "data")


def worst_instance(check_id: str, excess: float, instance: str, **data) -> dict:
    """One row of :data:`WORST`: the instance of one point where check ``check_id`` is closest to failing.

    Parameters
    ----------
    check_id : str
        The ledger check.
    excess : float
        The measured excess over the statement's limit (larger is worse; negative when within it).
    instance : str
        The instance, for a reader (goes into the counterexample).
    **data
        The raw data a certificate of the instance needs (numbers, lists, numpy arrays).

    Returns
    -------
    dict
        The row, with ``data`` as JSON text.
    """
    return dict(check=check_id, excess=float(excess), instance=instance, data=instance_json(data))


def instance_json(data: dict) -> str:
    """The raw data of an instance as JSON text, numpy arrays and scalars as lists and numbers."""
    return json.dumps(data, default=lambda value: value.tolist())


def with_worst(tables: dict, rows: list) -> dict:
    """``tables`` with the worst-instance ``rows`` (:func:`worst_instance`) added as :data:`WORST`."""
    return {**tables, WORST: pd.DataFrame(rows, columns=list(WORST_COLUMNS))}


def certified_worst(tables: dict, check_id: str, build: Callable[[dict], dict | None]):
    """The certificate and counterexample of the worst recorded instance of ``check_id`` that violates it.

    The ``build`` of :func:`sparseact.verify.certificates.fail_fields`, e.g.
    ``fail_fields(verdict, finding, lambda: certified_worst(tables, check_id, build), notes)``.

    Parameters
    ----------
    tables : dict of str to DataFrame
        The claim's run tables (:data:`WORST` among them).
    check_id : str
        The check.
    build : callable
        ``build(data) -> certificate or None``: the claim's certificate of one instance from its raw data
        (:func:`worst_instance`), ``None`` when the instance does not violate the check.

    Returns
    -------
    tuple or None
        ``(certificate, counterexample)`` of the violating instance with the largest excess, or ``None``
        when no recorded instance violates the check (a FAIL is then INCONCLUSIVE: a FAIL without a
        certificate is no verdict).
    """
    rows = tables.get(WORST)
    if rows is None or not len(rows):
        return None
    built = [(row, build(json.loads(row["data"]))) for _, row in rows[rows["check"] == check_id].iterrows()]
    violating = [(row, cert) for row, cert in built if cert is not None]
    if not violating:
        return None
    row, cert = max(violating, key=lambda pair: pair[0]["excess"])
    return cert, _counterexample(row["instance"], cert, len(violating))


def _counterexample(instance: str, cert: dict, count: int) -> str:
    """The ledger's counterexample of a certified instance, among ``count`` violating ones."""
    return (
        f"{instance}: {cert['lhs_label']} = {cert['lhs_value']:.6g}, {cert['rhs_label']} = "
        f"{cert['rhs_value']:.6g}, not {cert['lhs_label']} {cert['relation']} {cert['rhs_label']} "
        f"({count} violating instance{'s' if count > 1 else ''})"
    )


#: Name of the optional run table of violations (one per claim, keyed by check; absent when nothing is violated).
TABLE = "violations"
#: Its columns (the stages add ``point`` and ``replicate``).
COLUMNS = ("check", "excess", "instance", "certificate")


def violation(check_id: str, excess: float, instance: str, certificate: dict) -> dict:
    """One row of :data:`TABLE`: check ``check_id`` is violated on ``instance``.

    Parameters
    ----------
    check_id : str
        The ledger check the instance violates.
    excess : float
        How far the violation goes (larger is worse); the assembly certifies the largest.
    instance : str
        The instance, for a reader (goes into the counterexample).
    certificate : dict
        :func:`sparseact.verify.certificates.certificate` of the violation.

    Returns
    -------
    dict
        The row, with the certificate as JSON text (run tables hold scalars).
    """
    return dict(check=check_id, excess=float(excess), instance=instance, certificate=json.dumps(certificate))


def worst_violation(tables: dict, check_id: str):
    """The certificate and counterexample of the worst violation of ``check_id`` the runs stage recorded.

    The ``build`` of :func:`sparseact.verify.certificates.fail_fields`, e.g.
    ``fail_fields(verdict, finding, lambda: worst_violation(tables, check_id), notes)``.

    Parameters
    ----------
    tables : dict of str to DataFrame
        The claim's run tables (:data:`TABLE` among them when some instance violated some check).
    check_id : str
        The check.

    Returns
    -------
    tuple or None
        ``(certificate, counterexample)`` of the largest excess, or ``None`` when no violation of
        ``check_id`` is recorded (the runs and the assembly apply the same test, so a FAIL then
        means the rows were not produced by the runs stage: INCONCLUSIVE, as a FAIL without a
        certificate is no verdict).
    """
    rows = tables.get(TABLE)
    rows = rows[rows["check"] == check_id] if rows is not None and len(rows) else []
    if not len(rows):
        return None
    row = rows.loc[rows["excess"].idxmax()]
    cert = json.loads(row["certificate"])
    return cert, _counterexample(row["instance"], cert, len(rows))


def with_violations(tables: dict, rows: list) -> dict:
    """``tables`` with the violation ``rows`` (:func:`violation`) added as :data:`TABLE`, only when there are any."""
    if rows:
        tables = {**tables, TABLE: pd.DataFrame(rows, columns=list(COLUMNS))}
    return tables
