"""The Boolean hypercube {-1, 1}^n, enumerated in a fixed order.

Row ``j`` of :func:`hypercube` is the point ``x`` with ``x_i = (-1)**(bit i of j)``,
bit 0 being ``x_1`` (the paper's coordinates are 1-based, numpy's 0-based:
column ``i`` holds ``x_{i+1}``). With this order the character
``chi_T(x) = prod_{i in T} x_i`` of the paper's Section 2.1 is, on row ``j``,
``(-1)**popcount(T & j)`` when ``T`` is written as a bitmask, so a truth table
in this order is what a Walsh-Hadamard transform expects.
"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np

from sparseact._validation import as_int_array, check_memory

#: Largest dimension any function here will enumerate (2**28 points).
MAX_ENUMERATION_DIM = 28

#: Default number of points per chunk in :func:`iter_hypercube` (8 MiB of
#: float64 per column).
DEFAULT_CHUNK = 1 << 20


def _check_dim(n: int, name: str = "n") -> int:
    if isinstance(n, bool) or not isinstance(n, (int, np.integer)):
        raise ValueError(f"{name} must be an integer, got {n!r}")
    n = int(n)
    if n < 0 or n > MAX_ENUMERATION_DIM:
        raise ValueError(f"{name} must be in [0, {MAX_ENUMERATION_DIM}] for exact enumeration, got {n}")
    return n


def points_from_indices(indices: np.ndarray, n: int) -> np.ndarray:
    """Hypercube points for the given row indices.

    Parameters
    ----------
    indices : array_like of int
        Row indices in ``[0, 2**n)``.
    n : int
        Dimension.

    Returns
    -------
    ndarray of float64, shape (len(indices), n)
        ``out[r, i] = (-1)**((indices[r] >> i) & 1)``.
    """
    n = _check_dim(n)
    idx = as_int_array(indices, "indices")
    if idx.ndim != 1:
        raise ValueError(f"indices must be one-dimensional, got shape {idx.shape}")
    if idx.size and (idx.min() < 0 or idx.max() >= (1 << n)):
        raise ValueError(f"indices must lie in [0, 2**{n}), got range [{idx.min()}, {idx.max()}]")
    bits = (idx[:, None] >> np.arange(n, dtype=np.int64)[None, :]) & 1
    return 1.0 - 2.0 * bits


def indices_from_points(X: np.ndarray) -> np.ndarray:
    """Inverse of :func:`points_from_indices`: the row index of each point.

    Parameters
    ----------
    X : array_like, shape (m, n)
        Points with entries in {-1, 1}.

    Returns
    -------
    ndarray of int64, shape (m,)
    """
    X = np.asarray(X)
    if X.ndim != 2:
        raise ValueError(f"X must be two-dimensional (m, n), got shape {X.shape}")
    if not np.all((X == 1) | (X == -1)):
        raise ValueError("X must have entries in {-1, 1}")
    n = X.shape[1]
    _check_dim(n, "X.shape[1]")
    weights = np.left_shift(np.int64(1), np.arange(n, dtype=np.int64))
    return ((X < 0).astype(np.int64) * weights).sum(axis=1)


def hypercube(n: int) -> np.ndarray:
    """All ``2**n`` points of {-1, 1}^n.

    Parameters
    ----------
    n : int
        Dimension, ``0 <= n <= 28``, and ``8 (n + 3) 2^n`` bytes within
        :data:`sparseact._validation.MEMORY_LIMIT_BYTES` (``n <= 24`` at 4 GiB;
        :func:`iter_hypercube` enumerates larger cubes in chunks).

    Returns
    -------
    ndarray of float64, shape (2**n, n)
        Row ``j`` has ``x_i = (-1)**(bit i of j)`` (bit 0 is ``x_1``).

    Examples
    --------
    >>> hypercube(2)
    array([[ 1.,  1.],
           [-1.,  1.],
           [ 1., -1.],
           [-1., -1.]])
    """
    n = _check_dim(n)
    check_memory(8 * (n + 3) * (1 << n), f"hypercube({n}): 2^{n} points (and their index and bit arrays)")
    return points_from_indices(np.arange(1 << n, dtype=np.int64), n)


def iter_hypercube(n: int, chunk: int = DEFAULT_CHUNK) -> Iterator[np.ndarray]:
    """Yield the rows of :func:`hypercube` in consecutive chunks.

    Parameters
    ----------
    n : int
        Dimension, ``0 <= n <= 28``.
    chunk : int, optional
        Maximum number of rows per chunk.

    Yields
    ------
    X : ndarray of float64, shape (rows, n)
        The next ``rows <= chunk`` rows of ``hypercube(n)``; concatenated, the
        chunks are ``hypercube(n)``.

    Raises
    ------
    ValueError
        At the call (not at the first chunk) for a bad ``n`` or ``chunk``, or a
        chunk above :data:`sparseact._validation.MEMORY_LIMIT_BYTES`.
    """
    n = _check_dim(n)
    if isinstance(chunk, bool) or not isinstance(chunk, (int, np.integer)) or chunk < 1:
        raise ValueError(f"chunk must be a positive integer, got {chunk!r}")
    chunk = min(int(chunk), 1 << n)
    check_memory(8 * (n + 3) * chunk, f"iter_hypercube: chunks of {chunk} points")
    return _chunks(n, chunk)


def _chunks(n: int, chunk: int) -> Iterator[np.ndarray]:
    total = 1 << n
    for start in range(0, total, chunk):
        stop = min(total, start + chunk)
        yield points_from_indices(np.arange(start, stop, dtype=np.int64), n)
