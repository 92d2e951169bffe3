"""Certificates of violations that only the runs stage can build, and the FAIL fields the assembly takes from them.

Some checks compare numbers the runs stage records per instance (a network, a
sample) with a limit, but the assembly only sees the numbers: the instance, which
a certificate must contain, is gone. For such a check the runs stage calls
:func:`violation` on every instance that violates the check (the same test the
assembly applies) and returns the rows, only when there are any, as the optional
run table :data:`TABLE`; the assembly then takes the verdict's FAIL fields from
the worst recorded violation with :func:`fail_fields`. On data without
violations nothing is added, so PASS rows and run tables are unchanged.
"""

from __future__ import annotations

import json

#: Name of the optional run table of violations (one per claim; absent when nothing is violated).
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
        :func:`sparseact.certificates.certificate` of the violation.

    Returns
    -------
    dict
        The row, with the certificate as JSON text (run tables hold scalars).
    """
    return dict(check=check_id, excess=float(excess), instance=instance, certificate=json.dumps(certificate))


def fail_fields(verdict, tables: dict, check_id: str, finding: str):
    """The verdict of a check and its FAIL fields, from the worst violation recorded for it.

    Parameters
    ----------
    verdict : Verdict
        The verdict the assembly computed from the numbers.
    tables : dict of str to DataFrame
        The claim's run tables (:data:`TABLE` among them when some instance violated some check).
    check_id : str
        The check.
    finding : str
        The finding class (:data:`sparseact.ledger.FINDINGS`) a FAIL of this check gets.

    Returns
    -------
    verdict : Verdict
        ``verdict``, except a FAIL with no recorded violation becomes INCONCLUSIVE (the
        runs and the assembly apply the same test, so this means the rows were not
        produced by the runs stage; a FAIL without a certificate is no verdict).
    fields : dict
        ``finding``, ``certificate`` and ``counterexample`` of a FAIL (the certificate of
        the largest excess); empty otherwise.
    """
    from sparseact.ledger import Verdict

    if verdict is not Verdict.FAIL:
        return verdict, {}
    rows = tables.get(TABLE)
    rows = rows[rows["check"] == check_id] if rows is not None and len(rows) else []
    if not len(rows):
        return Verdict.INCONCLUSIVE, {}
    row = rows.loc[rows["excess"].idxmax()]
    cert = json.loads(row["certificate"])
    counterexample = (f"{row['instance']}: {cert['lhs_label']} = {cert['lhs_value']:.6g}, {cert['rhs_label']} = "
                      f"{cert['rhs_value']:.6g}, not {cert['lhs_label']} {cert['relation']} {cert['rhs_label']} "
                      f"({len(rows)} violating instance{'s' if len(rows) > 1 else ''})")
    return verdict, dict(finding=finding, certificate=cert, counterexample=counterexample)


def with_violations(tables: dict, rows: list) -> dict:
    """``tables`` with the violation ``rows`` (:func:`violation`) added as :data:`TABLE`, only when there are any."""
    if rows:
        import pandas as pd

        tables = {**tables, TABLE: pd.DataFrame(rows, columns=list(COLUMNS))}
    return tables
