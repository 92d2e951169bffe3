"""Counting formulas in pure Python (no numpy), so the workflow's config checks can use them cheaply."""

from __future__ import annotations

import operator

#: Largest count :func:`monomial_count` returns; beyond it ``ValueError`` (the count is only ever compared with memory
#: and work limits far below it, and its exact value would take a time that grows with ``d``).
MAX_MONOMIAL_COUNT = 2**256


def _count_argument(value, name: str) -> int:
    """``value`` as a Python ``int >= 0`` (any integer type, a 0-d integer array too); ``ValueError`` naming ``name``
    for a bool, a float (``3.0`` or a 0-d float array: refused, not truncated), a string or a negative value."""
    try:
        if isinstance(value, bool) or type(value).__name__ == "bool_":
            raise TypeError
        value = operator.index(value)
    except TypeError:
        raise ValueError(f"{name} must be an integer, got {value!r}") from None
    if value < 0:
        raise ValueError(f"{name} must be >= 0, got {value}")
    return value


def monomial_count(n: int, d: int) -> int:
    """``N_d(n) = sum_{t <= d} C(n, t)``: the sets ``T`` of ``[n]`` with ``|T| <= d`` (Lemma 7's ``n^d`` features).

    Examples
    --------
    >>> monomial_count(20, 3)
    1351
    """
    n, d = _count_argument(n, "n"), _count_argument(d, "d")
    total, term = 0, 1
    for t in range(min(n, d) + 1):  # C(n, t) by the ratio C(n, t+1) = C(n, t) (n - t)/(t + 1): cheap per step
        total += term
        if total > MAX_MONOMIAL_COUNT:
            raise ValueError(
                f"monomial_count({n}, {d}) exceeds 2^{MAX_MONOMIAL_COUNT.bit_length() - 1}, beyond "
                "any computation (sparseact.combinatorics.MAX_MONOMIAL_COUNT)"
            )
        term = term * (n - t) // (t + 1)
    return total
