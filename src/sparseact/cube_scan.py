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
from numba import types
from numba.extending import intrinsic

__all__ = [
    "edge_counts",
    "gaussian_tail_ratio",
    "max_active_count",
    "max_kth_largest",
    "relu_rows",
    "threshold_edge_counts",
    "threshold_words",
]


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


def edge_counts(g: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Per coordinate ``i``, ``sum_x x_i g(x)`` and ``#{x : g(x) != g(x^{(+)i})}`` of a 0/1 table, edge by edge.

    ``g`` is a bool table of length ``2**n`` in :func:`sparseact.cube.hypercube` order (row ``j`` has
    ``x_i = (-1)^{bit i of j}``); each unordered edge ``{j, j | 2**i}`` is counted once, packed one bit an entry as
    :func:`threshold_edge_counts` counts them. Exact integers, as float64.
    """
    n = g.size.bit_length() - 1
    padded = np.zeros(threshold_words(g.size) << 6, dtype=np.uint8)
    padded[: g.size] = g
    words = np.packbits(padded, bitorder="little").view("<u8").astype(np.uint64)  # bit j of word x: entry 64x + j
    return _bit_edge_counts(words, n)


def threshold_edge_counts(
    values: np.ndarray, b: float, words: np.ndarray | None = None
) -> tuple[int, np.ndarray, np.ndarray]:
    """:func:`edge_counts` of the table ``g = values <= b``, and its number of ones, without forming ``g``.

    ``values`` is a float64 table of length ``2**n`` (hypercube order); the table is packed one bit an entry (bit
    ``j`` of word ``x`` is entry ``64 x + j``) straight from the comparisons, into ``words`` when given (uint64, at
    least :func:`threshold_words` entries, reused from one threshold to the next: 2 MiB at ``n = 24``, which the
    cache holds), and every edge counted by population counts of words. Exact integers, the same as
    ``edge_counts(values <= b)`` and ``count_nonzero(values <= b)``.
    """
    n = values.size.bit_length() - 1
    size = threshold_words(values.size)
    if words is None or words.size < size:
        words = np.empty(size, dtype=np.uint64)
    ones = _pack_threshold_bits(values, float(b), words[:size])
    sums, flips = _bit_edge_counts(words[:size], n)
    return int(ones), sums, flips


def threshold_words(size: int) -> int:
    """The uint64 words :func:`threshold_edge_counts` packs a table of ``size`` entries into."""
    return max(1, (int(size) + 63) >> 6)


@intrinsic
def _popcount(typingctx, word):  # pragma: no cover - compiled
    """The number of set bits of a uint64 (LLVM's ``ctpop``: one instruction where the CPU has one)."""
    if word != types.uint64:
        return None

    def codegen(context, builder, signature, args):
        return builder.ctpop(args[0])

    return types.uint64(types.uint64), codegen


#: Per low coordinate ``i < 6``, the bits of a word of 64 table entries whose index has bit ``i`` clear.
_BIT_MASKS = np.array(
    [
        0x5555555555555555,
        0x3333333333333333,
        0x0F0F0F0F0F0F0F0F,
        0x00FF00FF00FF00FF,
        0x0000FFFF0000FFFF,
        0x00000000FFFFFFFF,
    ],
    dtype=np.uint64,
)


@numba.njit(cache=True)
def _pack_threshold_bits(values, b, words):  # pragma: no cover - compiled
    # bit j of word x is values[64 x + j] <= b; bits past the table 0
    N = values.size
    ones = np.uint64(0)
    for x in range(words.size):
        base = 64 * x
        word = np.uint64(0)
        if base + 64 <= N:
            for j in range(64):
                word |= np.uint64(values[base + j] <= b) << np.uint64(j)
        else:
            for j in range(N - base):
                word |= np.uint64(values[base + j] <= b) << np.uint64(j)
        words[x] = word
        ones += _popcount(word)
    return np.int64(ones)


@numba.njit(cache=True)
def _bit_edge_counts(words, n):  # pragma: no cover - compiled
    # each unordered edge {j, j | 2**i} once (bits past the table are 0 on
    # both ends of their edges)
    sums = np.zeros(n)
    flips = np.zeros(n)
    W = words.size
    for i in range(n):
        plus = np.int64(0)
        differ = np.int64(0)
        if i < 6:
            mask = _BIT_MASKS[i]
            shift = np.uint64(1 << i)
            for x in range(W):
                a = words[x] & mask
                c = (words[x] >> shift) & mask
                plus += np.int64(_popcount(a)) - np.int64(_popcount(c))
                differ += np.int64(_popcount(a ^ c))
        else:
            d = 1 << (i - 6)
            for hi in range(0, W, 2 * d):
                for x in range(hi, hi + d):
                    a = words[x]
                    c = words[x + d]
                    plus += np.int64(_popcount(a)) - np.int64(_popcount(c))
                    differ += np.int64(_popcount(a ^ c))
        sums[i] = plus
        flips[i] = 2 * differ
    return sums, flips


def gaussian_tail_ratio(values: np.ndarray, norm2: float, scratch: np.ndarray | None = None) -> float:
    """``max_{u > 0} Pr_x[|v(x)| >= u] / (2 exp(-u^2 / (2 norm2)))`` over the values ``u = |v(x)|`` taken.

    ``values`` holds ``v(x)`` at every cube point. Their absolute values are sorted in ``scratch[0]`` and the
    distinct positive ones and their tail probabilities compacted in place (``scratch``: float64, shape
    ``(2, values.size)``, reused by a caller with many tables); each term is the same floating-point expression,
    elementwise, as ``prob / (2 * np.exp(-(u ** 2) / (2 * norm2)))`` over the sorted distinct values, numpy's
    ``exp`` included, and the maximum of a set of floats does not depend on its order.
    """
    N = values.size
    if scratch is None or scratch.shape[0] < 2 or scratch.shape[1] != N:
        scratch = np.empty((2, N))
    a, prob = scratch[0], scratch[1]
    np.abs(values, out=a)
    a.sort()
    k = _tail_terms(a, 2 * norm2, prob)
    terms = a[:k]
    np.exp(terms, out=terms)
    return float(_max_ratio(prob[:k], terms))


@numba.njit(cache=True)
def _tail_terms(a, twice_norm2, prob):  # pragma: no cover - compiled
    # a ascending: for each distinct u > 0 (first index j), -(u*u) / twice_norm2 into a[k] (k <= j: read before
    # written) and #{|v| >= u} / N = (N - j) / N into prob[k]
    N = a.size
    k = 0
    j = 0
    while j < N:
        u = a[j]
        nxt = j + 1
        while nxt < N and a[nxt] == u:
            nxt += 1
        if u > 0.0:
            a[k] = -(u * u) / twice_norm2
            prob[k] = (N - j) / N
            k += 1
        j = nxt
    return k


@numba.njit(cache=True)
def _max_ratio(prob, e):  # pragma: no cover - compiled
    best = 0.0
    for i in range(prob.size):
        v = prob[i] / (2.0 * e[i])
        if v > best or v != v:
            best = v
            if v != v:
                return v
    return best


@numba.njit(cache=True)
def relu_rows(low, high, start, block):  # pragma: no cover - compiled
    """``block[h, i, j] = max(low[i, j] + high[start + h, j], 0)``: the ReLU of a chunk of preactivations.

    The same one addition as :meth:`sparseact.networks.SparseReLUNetwork.cube_preactivations` and the value of
    ``np.maximum(pre, 0.0)`` (``+0.0`` for a zero of either sign) for finite sums; ``block``: float64, shape
    ``(rows, 2**lo, s)``.
    """
    for h in range(block.shape[0]):
        for i in range(low.shape[0]):
            for j in range(low.shape[1]):
                v = low[i, j] + high[start + h, j]
                block[h, i, j] = v if v > 0.0 else 0.0
