"""The verdict policy: the tolerances, the verdicts, and the functions that compute them from data.

Every check produces a :class:`~sparseact.verify.records.CheckRecord` whose verdict comes from one of
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

from collections.abc import Iterable
from enum import Enum

import numpy as np

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
#: * ``out-of-range``: fails only in a degenerate corner: where a printed logarithm (the ``log n`` of a printed power
#:   ``n^X = e^{X log n}`` among them) is below 1 and flooring it at 1 removes the violation, or at ``W = 0``, where
#:   every network of Definition 2 is a constant (:mod:`sparseact.verify.corners`); or outside the range the paper
#:   uses: the range the statement prints, else the range where the paper applies it (the check says which).
FINDINGS = ("statement-error", "constant-factor", "proof-slip", "typo", "out-of-range")
#: One sentence per class of :data:`FINDINGS`, for the legends of the report and findings.md.
FINDING_DEFINITIONS = {
    "statement-error": "a stated result (lemma, theorem, equation) is false as printed",
    "constant-factor": "an explicit constant is off (never used for an O(.) bound)",
    "proof-slip": "a step of a proof is wrong, but the stated result survives (the check names the verified "
    "replacement)",
    "typo": "the intended meaning is clear and the corrected version is verified",
    "out-of-range": "fails only in a degenerate corner: where a printed logarithm (the log n of a printed power "
    "n^X = e^{X log n} among them) is below 1 and flooring it at 1 removes the violation, or at W = 0, where every "
    "network of Definition 2 is a constant; or outside the range the paper uses: the range the statement prints, "
    "else the range where the paper applies it (the check says which)",
}


class Verdict(str, Enum):  # noqa: UP042 (a StrEnum would change str() and format() of the values written)
    """Outcome of a check."""

    PASS = "PASS"
    FAIL = "FAIL"
    INCONCLUSIVE = "INCONCLUSIVE"

    def __str__(self) -> str:
        return self.value


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
    """Combine verdicts: FAIL if any fails, else INCONCLUSIVE if any is, else PASS (``ValueError`` for anything that
    is not a verdict or its name)."""
    try:
        verdicts = [Verdict(verdict) for verdict in verdicts]
    except ValueError:
        raise ValueError(f"verdict_all combines verdicts (PASS, FAIL, INCONCLUSIVE), got {verdicts!r:.80}") from None
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
        raise ValueError(
            f"parameter, ratio_low and ratio_high must have the same shape, got {parameter.shape}, "
            f"{low.shape} and {high.shape}"
        )
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
