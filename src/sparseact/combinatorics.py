"""Counting formulas in pure Python (no numpy), so the workflow's config checks can use them cheaply."""

from __future__ import annotations

import math


def monomial_count(n: int, d: int) -> int:
    """``N_d(n) = sum_{t <= d} C(n, t)``: the sets ``T`` of ``[n]`` with ``|T| <= d`` (Lemma 7's ``n^d`` features).

    Examples
    --------
    >>> monomial_count(20, 3)
    1351
    """
    for name, value in (("n", n), ("d", d)):
        if isinstance(value, bool) or not isinstance(value, int) and not hasattr(value, "__index__"):
            raise ValueError(f"{name} must be an integer, got {value!r}")
        if int(value) < 0:
            raise ValueError(f"{name} must be >= 0, got {value}")
    n, d = int(n), int(d)
    return sum(math.comb(n, t) for t in range(min(n, d) + 1))
