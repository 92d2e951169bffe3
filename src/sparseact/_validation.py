"""Argument checks shared by the public API (clear ``ValueError`` messages, never numpy errors).

One place for the checks every numerical module needs: integers, real arrays,
``rho``, confidence levels, random generators, and the normal (CLT) interval
that every Monte Carlo estimate reports.
"""

from __future__ import annotations

import math
from statistics import NormalDist

import numpy as np

#: The named limits of the whole package, in one place.
#: Largest array (or set of arrays) a public function allocates, in bytes; larger requests
#: raise ``ValueError`` giving the size before anything is allocated.
MEMORY_LIMIT_BYTES = 4 * 2**30
#: Estimated CPU hours above which the workflow refuses a config unless it sets
#: ``accept_cost_over_limit: true`` (see :mod:`sparseact.costs`); the full config needs well under one.
CONFIG_CPU_HOURS_LIMIT = 24.0


def check_int(value, name: str, minimum: int = 1) -> int:
    """``value`` as an ``int``, or ``ValueError`` naming ``name`` if it is not an integer ``>= minimum``."""
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
        raise ValueError(f"{name} must be an integer, got {value!r}")
    value = int(value)
    if value < minimum:
        raise ValueError(f"{name} must be >= {minimum}, got {value}")
    return value


def as_real_array(value, name: str) -> np.ndarray:
    """``value`` as a real (bool, int or float) numpy array, or ``ValueError`` naming ``name``."""
    if isinstance(value, np.ndarray):
        arr = value
    else:
        try:
            arr = np.asarray(value)
        except (TypeError, ValueError) as exc:
            raise ValueError(f"{name} must be a real numeric array: {exc}") from None
    if arr.dtype.kind not in "biuf":
        if arr.dtype.kind != "O":
            raise ValueError(f"{name} must be a real numeric array, got dtype {arr.dtype}")
        try:
            arr = arr.astype(np.float64)
        except (TypeError, ValueError) as exc:
            raise ValueError(f"{name} must be a real numeric array: {exc}") from None
    return arr


def check_confidence(confidence) -> float:
    """A confidence level strictly between 0 and 1, as a float."""
    if isinstance(confidence, bool) or not isinstance(confidence, (float, int, np.floating, np.integer)):
        raise ValueError(f"confidence must be a number in (0, 1), got {confidence!r}")
    confidence = float(confidence)
    if not 0.0 < confidence < 1.0:
        raise ValueError(f"confidence must lie strictly between 0 and 1, got {confidence}")
    return confidence


def check_rng(rng) -> np.random.Generator:
    """``rng`` if it is a :class:`numpy.random.Generator`, else ``ValueError``."""
    if not isinstance(rng, np.random.Generator):
        raise ValueError(f"rng must be a numpy.random.Generator, got {type(rng).__name__}")
    return rng


def clt_half_width(std: float, count: int, confidence: float) -> float:
    """Half-width ``z_{(1+confidence)/2} * std / sqrt(count)`` of the normal (CLT) interval of a mean."""
    return NormalDist().inv_cdf(0.5 + confidence / 2.0) * std / math.sqrt(count)
