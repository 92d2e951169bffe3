"""Readings of the :mod:`sparseact.verify.verdicts` that several claims' verdicts share, and the certificates they
build from the instances the runs stage recorded (:mod:`sparseact.claims._failures`).

A FAIL in the ledger needs a certificate (a checkable counterexample). Checks that
cannot build one (a trend of an ``O(.)`` ratio, an explicit-constant bound whose
violating instance is not kept) read a FAIL of the ledger's verdict functions as
INCONCLUSIVE; elementwise comparisons follow the ledger's tolerance policy.
"""

from __future__ import annotations

import json
from collections.abc import Callable

import numpy as np
import pandas as pd

from sparseact.claims._failures import WORST
from sparseact.networks import SparseReLUNetwork
from sparseact.verify import certificates as cert
from sparseact.verify.verdicts import ATOL, RTOL, Verdict, verdict_big_o


def exceeds(values, limits) -> np.ndarray:
    """Elementwise ``values > limits`` beyond the slack of the ledger's tolerance policy.

    Parameters
    ----------
    values, limits : array_like
        Broadcast against each other.

    Returns
    -------
    numpy.ndarray of bool
        ``values > limits + ATOL + RTOL |limits|``: where :func:`sparseact.verify.verdicts.verdict_at_most`
        would FAIL.
    """
    values, limits = np.asarray(values, dtype=float), np.asarray(limits, dtype=float)
    return values > limits + ATOL + RTOL * np.abs(limits)


def safe_ratio(num, den) -> np.ndarray:
    """Elementwise ``num / den``, where ``den`` is not positive ``inf`` over a positive ``num`` and 0 otherwise: the
    ratio of a measured value to its bound, a bound of 0 being exceeded by any positive value."""
    num, den = np.asarray(num, dtype=float), np.asarray(den, dtype=float)
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(den > 0, num / np.where(den > 0, den, 1.0), np.where(num > 0, np.inf, 0.0))


def no_uncertified_fail(verdict: Verdict) -> Verdict:
    """``verdict`` with a FAIL read as INCONCLUSIVE, for a check that builds no certificate (a FAIL needs one)."""
    return Verdict.INCONCLUSIVE if verdict is Verdict.FAIL else verdict


def verdict_big_o_trend(parameter, ratios) -> tuple[Verdict, float]:
    """:func:`sparseact.verify.verdicts.verdict_big_o` read for the ledger: a growing slope is a trend, never a FAIL.

    No finite computation certifies that an ``O(.)`` bound is false, so a FAIL becomes INCONCLUSIVE.

    Returns
    -------
    verdict : Verdict
        PASS or INCONCLUSIVE.
    slope : float
        The fitted log-log slope of ``ratios`` against ``parameter``.
    """
    verdict, slope = verdict_big_o(parameter, ratios)
    return no_uncertified_fail(verdict), slope


def slopes_text(sweeps: dict) -> str:
    """``0.02 in n, -0.16 in s``: each swept parameter's log-log slope of a ratio, as :func:`verdict_big_o_trend`
    gives it (``sweeps``: parameter -> (verdict, slope)), in words, so that a page does not read ``n 0.02`` as a
    product or ``s -0.16`` as a difference."""
    return ", ".join(f"{slope:.2f} in {parameter}" for parameter, (_, slope) in sweeps.items())


def at_most_one(lhs: dict, count: int, lhs_label: str, rhs_label: str, explanation: str) -> dict:
    """The certificate that ``count``, the left side ``lhs`` (an active count at one input), exceeds 1."""
    return cert.certificate("<=", lhs, cert.formula("1"), count, 1.0, lhs_label, rhs_label, explanation)


def active_neurons(net: SparseReLUNetwork, x, lhs_label: str, explanation: str) -> tuple[int, dict]:
    """The number of neurons of ``net`` active at the input ``x``, and the certificate that it exceeds ``k = 1``
    (:func:`at_most_one`, the count recomputed from the network by the verifier)."""
    count = int(net.active_counts(x[None, :])[0])
    quantity = cert.quantity("active_count", network=cert.network_spec(net), x=ints(x))
    return count, at_most_one(quantity, count, lhs_label, "k = 1", explanation)


def ints(values) -> list:
    """``values`` as a list of Python ints (an input or a secret in a certificate)."""
    return [int(v) for v in values]


def instance_arguments(data: dict, arrays=()) -> dict:
    """The arguments of a claim's certificate builder from an instance's raw data (:func:`instance_json`): the
    entries named in ``arrays`` as numpy arrays, a network ``net`` (its ``u, W, b``) as a
    :class:`~sparseact.networks.SparseReLUNetwork`, and the ``builder``'s name dropped."""
    arguments = {key: value for key, value in data.items() if key != "builder"}
    arguments.update({key: np.asarray(arguments[key]) for key in arrays if key in arguments})
    if "net" in arguments:
        arguments["net"] = SparseReLUNetwork(**arguments["net"])
    return arguments


def of_measures(rows: pd.DataFrame, measures: str | tuple[str, ...]) -> pd.DataFrame:
    """The rows of a runs stage's table of instances whose ``measure`` is ``measures`` (a name) or one of them (a
    tuple of names), in their order: how a claim's ``verdicts`` module reads, for one of its checks, the instances the
    runs stage recorded under the names of what it measured."""
    names = (measures,) if isinstance(measures, str) else tuple(measures)
    return rows[rows["measure"].isin(names)]


def first_recorded(rows: pd.DataFrame, certify: Callable[[dict], dict]) -> Callable[[tuple[str, ...]], tuple | None]:
    """The ``certify`` of a :class:`sparseact.verify.assembly.Assembly` for a claim whose runs stage records the first
    differing input of an exhaustive enumeration in a table of its own (``rows``: columns ``measure`` and ``data``,
    :func:`sparseact.claims._failures.instance_json`), in the order the check should cite them.

    ``certify(data)`` is the claim's failure of one instance (a dict with ``certificate`` and ``counterexample``);
    the returned function gives ``(certificate, counterexample)`` of the first row of the check's measures, or
    ``None`` when none was recorded.
    """

    def first(measures: tuple[str, ...]):
        mine = of_measures(rows, measures) if len(rows) else rows
        if not len(mine):
            return None
        failure = certify(json.loads(mine.iloc[0]["data"]))
        return failure["certificate"], failure["counterexample"]

    return first


def certified_worst(tables: dict, measures: str | tuple[str, ...], build: Callable[[dict], dict | None]):
    """The certificate and counterexample of the worst recorded instance of ``measures`` that violates a check.

    The ``build`` of :func:`sparseact.verify.certificates.fail_fields`, e.g.
    ``fail_fields(verdict, finding, lambda: certified_worst(tables, CHECKS.x.measures, build), notes)``. The
    runs stage names each worst instance by the inequality it measured
    (:func:`sparseact.claims._failures.worst_instance`), and each check declares the measures that certify it.

    Parameters
    ----------
    tables : dict of str to DataFrame
        The claim's run tables (:data:`WORST` among them).
    measures : str or tuple of str
        The measure, or the measures, whose recorded instances can certify the check (rows of :data:`WORST`
        whose ``measure`` is one of them).
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
    built = [(row, build(json.loads(row["data"]))) for _, row in of_measures(rows, measures).iterrows()]
    violating = [(row, cert) for row, cert in built if cert is not None]
    if not violating:
        return None
    row, cert = max(violating, key=lambda pair: pair[0]["excess"])
    count = len(violating)
    counterexample = (
        f"{row['instance']}: {cert['lhs_label']} = {cert['lhs_value']:.6g}, {cert['rhs_label']} = "
        f"{cert['rhs_value']:.6g}, not {cert['lhs_label']} {cert['relation']} {cert['rhs_label']} "
        f"({count} violating instance{'s' if count > 1 else ''})"
    )
    return cert, counterexample
