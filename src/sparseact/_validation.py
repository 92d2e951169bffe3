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
#: Most LPs a halfspace cell enumeration may solve (``m`` per cell, Cover's bound on the cells):
#: about a millisecond each, so minutes at most (sparseact.complexity.cells).
MAX_CELL_LPS = 200_000
#: Most cell solves (sign vectors times Cover's bound on the cells) an exact Rademacher estimate
#: may make: the full config's 64 x 44 takes seconds, the tests' 128 x 128 (m = 8 on the 3-cube,
#: far fewer real cells) seconds too, 64 x 128 (m = 7 in general position on n = 60) over a minute;
#: m = 10 on n = 60 (512 x 1024) would run for hours.
MAX_CELL_SOLVES = 50_000
#: Estimated CPU hours above which the workflow refuses a config unless it sets
#: ``accept_cost_over_limit: true`` (see :mod:`sparseact.costs`); the full config needs well under one.
CONFIG_CPU_HOURS_LIMIT = 24.0


#: Largest integer argument any function takes (numpy's int64 holds it, with room for a sum).
MAX_INT = 2**62


def check_int(value, name: str, minimum: int = 1) -> int:
    """``value`` as an ``int``, or ``ValueError`` naming ``name`` unless it is an integer in ``[minimum, MAX_INT]``."""
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
        raise ValueError(f"{name} must be an integer, got {value!r}")
    value = int(value)
    if value < minimum:
        raise ValueError(f"{name} must be >= {minimum}, got {value}")
    if value > MAX_INT:
        raise ValueError(f"{name} must be <= 2**62, got {value}")
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


def as_int_array(value, name: str, minimum: int | None = None, maximum: int | None = None) -> np.ndarray:
    """``value`` as an int64 array of integer values (``2.0`` passes, ``0.5`` is refused, never truncated).

    ``ValueError`` naming ``name`` if an entry is not a finite integer or lies outside
    ``[minimum, maximum]`` (bounds included, either optional).
    """
    arr = as_real_array(value, name)
    if arr.dtype.kind == "f":
        if not np.all(np.isfinite(arr)):
            raise ValueError(f"{name} must be finite integers, got a NaN or infinity")
        if not np.all(arr == np.round(arr)):
            raise ValueError(f"{name} must be integers, got non-integer values (they are refused, not truncated)")
        if arr.size and np.abs(arr).max() >= 2.0**62:
            raise ValueError(f"{name} entries must be below 2**62 in absolute value")
    arr = arr.astype(np.int64)
    if minimum is not None and arr.size and arr.min() < minimum:
        raise ValueError(f"{name} entries must be >= {minimum}, got {arr.min()}")
    if maximum is not None and arr.size and arr.max() > maximum:
        raise ValueError(f"{name} entries must be <= {maximum}, got {arr.max()}")
    return arr


def check_real(value, name: str, minimum: float | None = None, maximum: float | None = None) -> float:
    """``value`` as a finite float, or ``ValueError`` naming ``name`` (NaN, infinity, out of bounds, not a number)."""
    if isinstance(value, bool) or not isinstance(value, (float, int, np.floating, np.integer)):
        raise ValueError(f"{name} must be a real number, got {value!r}")
    value = float(value)
    if not math.isfinite(value):
        raise ValueError(f"{name} must be finite, got {value}")
    if minimum is not None and value < minimum:
        raise ValueError(f"{name} must be >= {minimum}, got {value}")
    if maximum is not None and value > maximum:
        raise ValueError(f"{name} must be <= {maximum}, got {value}")
    return value


def check_memory(nbytes: int | float, what: str) -> None:
    """``ValueError`` giving the size if allocating ``nbytes`` for ``what`` exceeds :data:`MEMORY_LIMIT_BYTES`."""
    if nbytes > MEMORY_LIMIT_BYTES:
        gib = nbytes / 2**30 if nbytes < 2**1000 else math.inf  # an exact int too large for a float
        raise ValueError(f"{what} needs {gib:.3g} GiB, above the memory limit of "
                         f"{MEMORY_LIMIT_BYTES / 2**30:g} GiB (sparseact._validation.MEMORY_LIMIT_BYTES)")
