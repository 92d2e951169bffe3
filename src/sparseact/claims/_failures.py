"""Certificates of violations that only the runs stage can build, and the worst of them for the assembly.

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

import pandas as pd

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
    counterexample = (
        f"{row['instance']}: {cert['lhs_label']} = {cert['lhs_value']:.6g}, {cert['rhs_label']} = "
        f"{cert['rhs_value']:.6g}, not {cert['lhs_label']} {cert['relation']} {cert['rhs_label']} "
        f"({len(rows)} violating instance{'s' if len(rows) > 1 else ''})"
    )
    return cert, counterexample


def with_violations(tables: dict, rows: list) -> dict:
    """``tables`` with the violation ``rows`` (:func:`violation`) added as :data:`TABLE`, only when there are any."""
    if rows:
        tables = {**tables, TABLE: pd.DataFrame(rows, columns=list(COLUMNS))}
    return tables
