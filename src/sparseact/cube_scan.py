"""Compiled scans of a network's preactivations over the whole cube, without materialising them.

:meth:`sparseact.networks.SparseReLUNetwork.cube_halves` splits the preactivation
``<w_j, x> - b_j`` into a low half ``low[i, j] = <w_j^lo, x_i^lo>`` over the first
``lo = min(n, 12)`` coordinates and a high half ``high[h, j] = <w_j^hi, x_h^hi> - b_j``;
at the cube point ``h 2**lo + i`` (:func:`sparseact.cube.hypercube` order) it is
``low[i, j] + high[h, j]``, one floating-point addition. The kernels form the same sums
one at a time, so they see exactly the values of
:meth:`~sparseact.networks.SparseReLUNetwork.cube_preactivations`, bit for bit, in
``O(s)`` memory instead of a chunk of ``rows x s`` preactivations.
"""

from __future__ import annotations

import numba
import numpy as np

__all__ = ["max_active_count", "max_kth_largest"]


@numba.njit(cache=True)
def max_active_count(low, high):  # pragma: no cover - compiled
    """``max_x |{j : low[i, j] + high[h, j] > 0}|`` over every pair ``(h, i)``.

    Parameters
    ----------
    low : ndarray of float64, shape (2**lo, s)
    high : ndarray of float64, shape (2**(n - lo), s)

    Returns
    -------
    int
    """
    s = low.shape[1]
    best = 0
    for h in range(high.shape[0]):
        for i in range(low.shape[0]):
            count = 0
            for j in range(s):
                if low[i, j] + high[h, j] > 0.0:
                    count += 1
            best = max(best, count)
    return best


@numba.njit(cache=True)
def max_kth_largest(low, high, k):  # pragma: no cover - compiled
    """``max_x`` of the ``(k+1)``-th largest of ``low[i, :] + high[h, :]`` over every pair ``(h, i)``.

    A point can raise the running maximum only if more than ``k`` of its values
    exceed it; the count is checked first, and the ``k + 1`` largest values are
    kept by insertion only for such points. ``-inf`` when ``s <= k``.

    Parameters
    ----------
    low : ndarray of float64, shape (2**lo, s)
    high : ndarray of float64, shape (2**(n - lo), s)
    k : int
        ``k >= 0``.

    Returns
    -------
    float
    """
    s = low.shape[1]
    best = -np.inf
    if s <= k:
        return best
    top = np.empty(k + 1)  # descending
    for h in range(high.shape[0]):
        for i in range(low.shape[0]):
            count = 0
            for j in range(s):
                if low[i, j] + high[h, j] > best:
                    count += 1
            if count <= k:
                continue
            filled = 0
            for j in range(s):
                v = low[i, j] + high[h, j]
                if filled <= k:
                    filled += 1
                elif v <= top[k]:
                    continue
                p = filled - 1  # insert v into top[:filled], dropping the smallest when full
                while p > 0 and top[p - 1] < v:
                    top[p] = top[p - 1]
                    p -= 1
                top[p] = v
            best = max(best, top[k])
    return best
