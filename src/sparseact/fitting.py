"""Power-law fits of measured quantities: exponents per parameter with confidence intervals.

For an O(.) bound the paper hides constants; what the data can say is how the
measured quantity scales with each parameter. :func:`fit_exponents` fits
``log y = c + sum_p alpha_p log x_p`` by ordinary least squares and returns each
exponent ``alpha_p`` with a Student-t confidence interval.
"""

from __future__ import annotations

import math
from collections.abc import Mapping

import numpy as np
import pandas as pd
from scipy import stats

from sparseact._validation import as_real_array


def fit_exponents(predictors: Mapping[str, np.ndarray], response, confidence: float = 0.95) -> pd.DataFrame:
    """Fit ``response ~ C * prod_p predictors[p] ** alpha_p`` on log-log axes.

    Parameters
    ----------
    predictors : mapping of str to array_like
        Positive parameter values, one array per parameter, all of the response's length.
        A parameter that does not vary is dropped (its exponent is not identifiable).
    response : array_like
        Positive measured values.
    confidence : float
        Level of the two-sided t-intervals.

    Returns
    -------
    DataFrame
        One row per identifiable parameter plus ``"const"`` (``log C``), with columns
        ``parameter, exponent, stderr, ci_low, ci_high, n_points, r_squared``.

    Raises
    ------
    ValueError
        On non-positive values, mismatched lengths, fewer points than coefficients + 1, or
        collinear log predictors (exponents not separately identifiable).
    """
    if not isinstance(predictors, Mapping):
        raise TypeError(f"predictors must be a mapping of names to arrays, got {type(predictors).__name__}")
    y = as_real_array(response, "response").astype(np.float64)
    if y.ndim != 1:
        raise ValueError(f"response must be one-dimensional, got shape {y.shape}")
    if not 0 < confidence < 1:
        raise ValueError(f"confidence must be in (0, 1), got {confidence}")
    if np.any(~np.isfinite(y)) or np.any(y <= 0):
        raise ValueError("response must be finite and positive for a log-log fit")
    names, columns = [], []
    for name, values in predictors.items():
        x = np.asarray(values, dtype=np.float64)
        if x.shape != y.shape:
            raise ValueError(f"predictor {name!r} has shape {x.shape}, response has {y.shape}")
        if np.any(~np.isfinite(x)) or np.any(x <= 0):
            raise ValueError(f"predictor {name!r} must be finite and positive")
        if np.unique(x).size > 1:
            names.append(name)
            columns.append(np.log(x))
    design = np.column_stack([np.ones_like(y), *columns])
    dof = y.size - design.shape[1]
    if dof < 1:
        raise ValueError(f"need more than {design.shape[1]} points to fit {design.shape[1]} coefficients, got {y.size}")
    if np.linalg.matrix_rank(design) < design.shape[1]:
        raise ValueError(
            f"the log predictors {', '.join(map(repr, names))} are collinear (with each other or the "
            "constant): their exponents are not separately identifiable"
        )
    coef, *_ = np.linalg.lstsq(design, np.log(y), rcond=None)
    resid = np.log(y) - design @ coef
    sigma2 = float(resid @ resid) / dof
    cov = sigma2 * np.linalg.pinv(design.T @ design)
    stderr = np.sqrt(np.clip(np.diag(cov), 0.0, None))
    t = stats.t.ppf(0.5 + confidence / 2, dof)
    total = float(((np.log(y) - np.log(y).mean()) ** 2).sum())
    r2 = 1.0 - float(resid @ resid) / total if total > 0 else 1.0
    return pd.DataFrame(
        {
            "parameter": ["const", *names],
            "exponent": coef,
            "stderr": stderr,
            "ci_low": coef - t * stderr,
            "ci_high": coef + t * stderr,
            "n_points": y.size,
            "r_squared": r2,
        }
    )


def fit_exponents_if_possible(predictors: Mapping[str, np.ndarray], response, confidence: float = 0.95):
    """:func:`fit_exponents`, or ``None`` when the data cannot support the fit.

    That is, too few points, or non-positive values left after dropping those.
    """
    if not isinstance(predictors, Mapping):
        raise TypeError(f"predictors must be a mapping of names to arrays, got {type(predictors).__name__}")
    y = as_real_array(response, "response").astype(np.float64)
    keep = np.isfinite(y) & (y > 0)
    for name, values in predictors.items():
        x = as_real_array(values, f"predictor {name!r}").astype(np.float64)
        if x.shape != y.shape:
            raise ValueError(f"predictor {name!r} has shape {x.shape}, response has {y.shape}")
        keep &= np.isfinite(x) & (x > 0)
    varying = [name for name, values in predictors.items() if np.unique(np.asarray(values)[keep]).size > 1]
    if keep.sum() < len(varying) + 2:
        return None
    return fit_exponents({name: np.asarray(v)[keep] for name, v in predictors.items()}, y[keep], confidence)


def exponent_text(fit, parameter: str) -> str:
    """``"x^a [lo, hi]"`` for one fitted parameter, or a note that there were too few points."""
    if fit is not None and not (isinstance(fit, pd.DataFrame) and "parameter" in fit):
        raise TypeError(f"fit must be a fit_exponents DataFrame or None, got {type(fit).__name__}")
    if fit is None or parameter not in set(fit["parameter"]):
        return f"{parameter}: too few points to fit"
    row = fit.set_index("parameter").loc[parameter]
    return f"{parameter}^{row['exponent']:.2f} [{row['ci_low']:.2f}, {row['ci_high']:.2f}]"


def factor_status(ci_low: float, ci_high: float, claimed: float) -> str:
    """Compare a fitted exponent's interval with the exponent a bound claims.

    Returns ``"slack"`` when the whole interval lies below ``claimed`` (the data grow
    more slowly than the bound's factor), ``"exceeded"`` when it lies above, ``"undetermined"`` when a number is NaN,
    and ``"consistent"`` otherwise.
    """
    if any(math.isnan(v) for v in (ci_low, ci_high, claimed)):
        return "undetermined"  # an interval a fit could not give (too few points for its error)
    if ci_low > ci_high:
        raise ValueError(f"factor_status needs ci_low <= ci_high, got [{ci_low}, {ci_high}]")
    if ci_high < claimed:
        return "slack"
    if ci_low > claimed:
        return "exceeded"
    return "consistent"
