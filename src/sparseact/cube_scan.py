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

__all__ = ["edge_counts", "max_active_count", "max_kth_largest"]


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


#: Per low coordinate ``i < 3``, the bytes of a little-endian word of eight table entries whose bit ``i`` is clear.
_LOW_MASKS = np.array([0x0001000100010001, 0x0000010100000101, 0x0000000001010101], dtype=np.uint64)
#: Times a word of 0/1 bytes, its top byte is their sum.
_BYTE_SUM = np.uint64(0x0101010101010101)


def edge_counts(g: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Per coordinate ``i``, ``sum_x x_i g(x)`` and ``#{x : g(x) != g(x^{(+)i})}`` of a 0/1 table, edge by edge.

    ``g`` is a bool table of length ``2**n`` in :func:`sparseact.cube.hypercube` order (row ``j`` has
    ``x_i = (-1)^{bit i of j}``); each unordered edge ``{j, j | 2**i}`` is counted once, eight entries at a time
    (a table shorter than eight is padded with both ends of an edge equal). Exact integers, as float64.
    """
    n = g.size.bit_length() - 1
    words = np.zeros(max(1, g.size >> 3), dtype=np.uint64)
    words.view(np.bool_)[: g.size] = g
    return _edge_word_counts(words, n)


@numba.njit(cache=True)
def _edge_word_counts(words, n):  # pragma: no cover - compiled
    sums = np.zeros(n)
    flips = np.zeros(n)
    W = words.size
    for i in range(n):
        plus = np.int64(0)
        differ = np.int64(0)
        if i < 3:
            shift = np.uint64(8 << i)
            mask = _LOW_MASKS[i]
            for x in range(W):
                a = words[x] & mask
                b = (words[x] >> shift) & mask
                plus += np.int64((a * _BYTE_SUM) >> np.uint64(56)) - np.int64((b * _BYTE_SUM) >> np.uint64(56))
                differ += np.int64(((a ^ b) * _BYTE_SUM) >> np.uint64(56))
        else:
            d = 1 << (i - 3)
            for hi in range(0, W, 2 * d):
                for x in range(hi, hi + d):
                    a = words[x]
                    b = words[x + d]
                    plus += np.int64((a * _BYTE_SUM) >> np.uint64(56)) - np.int64((b * _BYTE_SUM) >> np.uint64(56))
                    differ += np.int64(((a ^ b) * _BYTE_SUM) >> np.uint64(56))
        sums[i] = plus
        flips[i] = 2 * differ
    return sums, flips
