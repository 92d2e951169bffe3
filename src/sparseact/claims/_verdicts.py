"""Readings of the :mod:`sparseact.verify.verdicts` that several claims' verdicts share.

A FAIL in the ledger needs a certificate (a checkable counterexample). Checks that
cannot build one (a trend of an ``O(.)`` ratio, an explicit-constant bound whose
violating instance is not kept) read a FAIL of the ledger's verdict functions as
INCONCLUSIVE; elementwise comparisons follow the ledger's tolerance policy.
"""

from __future__ import annotations

import numpy as np

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


def at_most_one(lhs: dict, count: int, lhs_label: str, rhs_label: str, explanation: str) -> dict:
    """The certificate that ``count``, the left side ``lhs`` (an active count at one input), exceeds 1."""
    return cert.certificate("<=", lhs, cert.formula("1"), count, 1.0, lhs_label, rhs_label, explanation)


def ints(values) -> list:
    """``values`` as a list of Python ints (an input or a secret in a certificate)."""
    return [int(v) for v in values]
