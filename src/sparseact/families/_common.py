"""Shared by the modules of :mod:`sparseact.families`: argument checks, the threshold margin, uniform points."""

from __future__ import annotations

import math

import numpy as np

from sparseact._validation import check_int

#: Relative safety margin added to computed thresholds, so that the strict
#: inequality ``<w_j, x> - b_j > 0`` is decided the same way by every
#: evaluation order (normalised vs raw preactivations, split-sum vs matrix
#: product). Rounding errors of the preactivations are ``O(n^{3/2} 1e-16)``
#: relative to ``||w_j||``, far below this.
_MARGIN = 1e-9

#: About this many float64 preactivations are held in memory at once.
_CHUNK_ELEMENTS = 1 << 22


def _nsk(n, s, k) -> tuple[int, int, int]:
    n = check_int(n, "n")
    s = check_int(s, "s")
    k = check_int(k, "k")
    if k > s:
        raise ValueError(f"k must be <= s (at most s neurons can be active), got k={k}, s={s}")
    return n, s, k


def _rng(rng, name: str = "rng") -> np.random.Generator:
    if not isinstance(rng, np.random.Generator):
        raise ValueError(f"{name} must be a numpy.random.Generator, got {type(rng).__name__}")
    return rng


def _real(value, name: str, positive: bool) -> float:
    if isinstance(value, bool):
        raise ValueError(f"{name} must be a real number, got {value!r}")
    try:
        value = float(value)
    except (TypeError, ValueError):
        raise ValueError(f"{name} must be a real number, got {value!r}") from None
    if not math.isfinite(value):
        raise ValueError(f"{name} must be finite, got {value}")
    if positive and value <= 0:
        raise ValueError(f"{name} must be > 0, got {value}")
    if not positive and value < 0:
        raise ValueError(f"{name} must be >= 0, got {value}")
    return value


def _uniform_chunks(rng: np.random.Generator, m: int, n: int, rows: int):
    for start in range(0, m, rows):
        size = min(rows, m - start)
        yield 1.0 - 2.0 * rng.integers(0, 2, size=(size, n), dtype=np.int8).astype(np.float64)


def _rows_per_chunk(s: int) -> int:
    return max(1, _CHUNK_ELEMENTS // max(1, s))


def _with_margin(t: float) -> float:
    return t + _MARGIN * max(1.0, abs(t))
