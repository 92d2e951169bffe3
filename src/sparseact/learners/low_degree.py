"""The low-degree algorithm: polynomial regression over the characters ``chi_T``, ``|T| <= d``.

Section 2.1 of the paper ("Low-degree algorithm", Lemma 7) learns a class whose
members have Fourier tail ``sum_{|T| > d} hhat(T)^2 <= eps`` by *polynomial
regression*: least squares over the ``N = sum_{t <= d} C(n, t)`` monomials
``chi_T(x) = prod_{i in T} x_i``. Theorem 8 applies it to ``k``-sparsely
activated networks with ``d = Theta((k^8 W^4 log(ns)^4 + k^6 B^4 log s)/eps^2)``.
:class:`LowDegreeRegressor` implements two estimators:

* ``method="regression"`` (Lemma 7): ``argmin_c (1/m) sum_i (sum_T c_T chi_T(x_i) - y_i)^2``
  (plus an optional ridge ``ridge * sum_T c_T^2``), solved through the normal
  equations ``(Phi^T Phi + m * ridge * I) c = Phi^T y``;
* ``method="correlation"`` (the classical low-degree algorithm of Linial,
  Mansour and Nisan): ``c_T = (1/m) sum_i y_i chi_T(x_i)``, the empirical
  Fourier coefficient, an unbiased estimate of ``fhat(T)`` under the uniform
  distribution.

On the whole cube as the sample both give ``fhat(T)`` for ``|T| <= d`` exactly
(the characters are orthogonal), and the population loss of the fit is
``(1/2) sum_{|T| > d} fhat(T)^2``, the approximation floor of Lemma 7.

Conventions
-----------
A set ``T`` of coordinates is the int64 bitmask ``sum_{i in T} 2**i`` with bit
``i`` for column ``i`` of ``X`` (the paper's ``x_{i+1}``), exactly the indexing
of :func:`sparseact.analysis.walsh_coefficients` and of the hypercube order of
:mod:`sparseact.cube`. The public order of the monomials (:func:`monomials`,
``coef_``) is by degree, then lexicographic on the sorted index tuples.
Internally features are built in *colexicographic* order, where the degree-``t``
monomials with largest index ``j`` are ``chi_P * x_j`` for the first
``C(j, t-1)`` monomials ``P`` of degree ``t - 1``: one broadcast product per
``(t, j)``, i.e. ``d * n`` vectorised operations per block of samples.

How the moments are computed (``moments=``)
-------------------------------------------
``"blocks"``: rows of ``X`` are processed in blocks; the block's features are
built transposed, ``(N, rows)``, in float32, and ``Phi_b^T Phi_b`` is one
float32 ``syrk`` (numpy ``P @ P.T``) accumulated into a float64 Gram matrix.
float32 loses nothing here: the features are exactly +-1 and every partial sum
of ``chi_S(x) chi_T(x)`` over at most ``2**24`` rows is an integer of absolute
value ``<= 2**24``, so it is exactly representable; the float32 Gram matrix is
*bitwise equal* to the float64 one while the product runs several times
faster (measured at ``N = 1,351``: 0.12 s vs 0.78 s per 12,418-row block; the
whole fit at ``n = 20, d = 3, m = 50,000``: 0.68 s vs 1.24 s, identical
coefficients). The block size is capped at ``2**24`` rows for this reason.
``Phi_b^T y`` is accumulated in float64 (the features are cast chunk by
chunk). The full ``(m, N)`` feature matrix is never built.

``"cube"`` (``n <= 24``): since ``chi_S chi_T = chi_{S xor T}``, the Gram matrix
is ``G[S, T] = M(S xor T)`` with ``M(U) = sum_i chi_U(x_i)``, and
``(Phi^T y)[T] = sum_i y_i chi_T(x_i)``. Both are Walsh-Hadamard transforms of
histograms of the sample on the cube (counts and sums of ``y`` per point), so
they cost two :func:`sparseact.analysis.fwht` of length ``2**n`` plus an
``N x N`` gather, independently of ``m``. ``M`` is exact (integers); the
result is the same least-squares solution up to rounding (~1e-15 relative).

``"auto"`` (default) picks whichever a rough cost model says is faster.

Memory (the largest problems within about 4 GiB)
-------------------------------------------------
Sets are int64 bitmasks, so ``n <= 62``. With ``N = #monomials``, fitting with
``method="regression"`` holds the float64 Gram matrix (``8 N^2`` bytes; the
Cholesky factorisation and the ``lstsq`` fallback work in place), plus, on the
blocks path, a float32 block product (``4 N^2`` bytes) and one 64 MiB block of
features: about ``12 N^2`` bytes + 64 MiB, so ``N <= ~18,500`` within 4 GiB.
The cube path needs ``8 N^2`` bytes + ``16 * 2**n`` bytes (two float64
histograms) instead, so ``N <= ~22,000`` for ``n <= 24``. The estimate is
checked against :data:`MEMORY_LIMIT_BYTES` (4 GiB) before anything large is
allocated. Examples (estimated peak, blocks / cube path):

======  =====  ========  ==========================================
``n``   ``d``  ``N``     estimated peak (blocks path / cube path)
======  =====  ========  ==========================================
20      3      1,351     0.08 / 0.09 GiB
20      4      6,196     0.49 / 0.36 GiB
20      5      21,700    5.3 GiB (refused) / 3.6 GiB
24      4      12,951    1.9 / 1.6 GiB
32      3      5,489     0.40 GiB
48      3      18,473    3.9 GiB (largest ``n`` at ``d = 3``)
62      2      1,954     0.11 GiB
62      3      39,774    17.7 GiB (refused; ``correlation`` is fine)
======  =====  ========  ==========================================

Fewer samples than monomials (``m < N``, no ridge): the normal equations are
singular, and the minimum-norm least-squares solution ``pinv(Phi) y`` is
computed from the ``m x m`` kernel ``K = Phi Phi^T`` instead (``Phi`` built
once, ``8 m N`` bytes): ``c = Phi^T pinv(K) y`` with eigenvalues of ``K``
below :data:`LSTSQ_COND` times the largest dropped. ``K`` has the nonzero
eigenvalues of ``Phi^T Phi``, so the cutoff is the one of the ``N x N``
fallback, at ``O(m^2 N + m^3)`` instead of ``O(N^3)`` (at ``n = 16, d = 4``,
``N = 2,517``, ``m = 1,000``: about 0.5 s instead of 2.4 s). Repeated points
are merged first (one row each, with their mean label: the least-squares
problem has the same minimisers, ``Phi`` and the unique rows' ``Phi_u`` the
same row space); when the merged kernel is well conditioned (reciprocal
condition number at least :data:`KERNEL_RCOND_MIN`, so that no eigenvalue
would be dropped) ``c = Phi_u^T K_u^{-1} y_u`` comes from its Cholesky factor,
otherwise from the eigendecomposition of the unmerged ``K``.

The number of samples ``m`` is not limited by this module (blocks are
streamed; only ``X`` and ``y`` themselves must fit, ``8 m (n + 1)`` bytes as
float64), only by time: the blocks path costs about ``m N^2 / 2`` float32
multiply-adds (roughly 1.5 s per 10^5 samples at ``N = 1,351`` on the
2-core benchmark machine) plus the ``N^3 / 3`` Cholesky factorisation; the
cube path costs two length-``2**n`` transforms and an ``N x N`` gather,
independently of ``m``. ``method="correlation"`` needs only ``O(N)`` memory
beyond the 64 MiB block (but each block then holds only ``2**24 // N`` rows).
:meth:`LowDegreeRegressor.predict_cube` needs ``8 * 2**n`` bytes (``n <= 28``; 128 MiB at ``n = 24``).
"""

from __future__ import annotations

import math

import numpy as np
import scipy.linalg
from scipy.linalg import lapack

from sparseact import combinatorics
from sparseact._validation import check_finite_result, check_int, check_memory
from sparseact.analysis import fwht
from sparseact.cube import MAX_ENUMERATION_DIM
from sparseact.learners._base import ParamsMixin

__all__ = [
    "BLOCK_BYTES",
    "CUBE_MAX_N",
    "KERNEL_RCOND_MIN",
    "LSTSQ_COND",
    "MAX_BLOCK_ROWS",
    "MAX_DIM",
    "MEMORY_LIMIT_BYTES",
    "RCOND_MIN",
    "LowDegreeRegressor",
    "monomial_count",
    "monomials",
]

#: Largest ``n`` for which sets fit in int64 bitmasks.
MAX_DIM = 62
#: Target size of one block of features (float32 in ``fit``, float64 in ``predict``).
BLOCK_BYTES = 64 << 20
#: Largest number of rows per block in ``fit`` (exact float32 Gram partial sums).
MAX_BLOCK_ROWS = 1 << 24
#: Largest ``n`` for ``moments="cube"`` (two float64 arrays of ``2**n`` entries).
CUBE_MAX_N = 24
#: Refuse fits whose estimated peak memory (Gram matrix and buffers) exceeds this.
MEMORY_LIMIT_BYTES = 4 << 30
#: Below this reciprocal condition number of the normal equations the
#: Cholesky solution is abandoned for the minimum-norm least-squares one.
RCOND_MIN = 1e-12
#: Relative eigenvalue cutoff of the minimum-norm solutions (on ``Phi^T Phi``, or on
#: ``Phi Phi^T``, which has the same nonzero eigenvalues, when ``m < N``).
LSTSQ_COND = 1e-10
#: Reciprocal condition number (LAPACK ``pocon`` estimate, 1-norm) of the kernel ``Phi_u Phi_u^T`` of the
#: distinct sample points above which it is solved by Cholesky: ``lambda_min / lambda_max >= rcond``
#: for a symmetric matrix, and the margin of 100 over :data:`LSTSQ_COND` covers the estimate's error,
#: so the eigendecomposition would have dropped no eigenvalue.
KERNEL_RCOND_MIN = 100 * LSTSQ_COND

#: dtype of the feature blocks accumulated into the Gram matrix (float32 is exact, see module doc).
_FEATURE_DTYPE = np.float32

_METHODS = ("regression", "correlation")
_MOMENTS = ("auto", "blocks", "cube")


# ---------------------------------------------------------------------------
# Monomials
# ---------------------------------------------------------------------------


def _check_nd(n, d) -> tuple[int, int]:
    n = check_int(n, "n", 0)
    if n > MAX_DIM:
        raise ValueError(f"n must be <= {MAX_DIM} (sets are int64 bitmasks), got {n}")
    d = check_int(d, "d", 0)
    return n, d


def _check_monomial_memory(n: int, d: int) -> None:
    """``ValueError`` giving the size when the sets of ``[n]`` of size ``<= d`` exceed the memory limit.

    The levels are built side by side (bitmask, last index, counts, offsets): about 32 bytes a set.
    """
    count = combinatorics.monomial_count(n, d)
    check_memory(32 * count, f"the {count} sets of [{n}] of size <= {d}")


def monomial_count(n: int, d: int) -> int:
    """Number of sets ``T`` of ``[n]`` with ``|T| <= d``: ``sum_{t <= d} C(n, t)``."""
    n, d = _check_nd(n, d)
    return combinatorics.monomial_count(n, d)


def _colex_levels(n: int, d: int) -> list[np.ndarray]:
    """Bitmasks of the ``t``-subsets of ``[n]`` in colexicographic order, ``t = 0..min(n, d)``.

    The first ``C(j, t)`` entries of level ``t`` are the ``t``-subsets of
    ``{0, ..., j-1}``; level ``t`` is, for ``j = t-1, ..., n-1``, the first
    ``C(j, t-1)`` entries of level ``t - 1`` with bit ``j`` added.
    """
    levels = [np.zeros(1, dtype=np.int64)]
    for t in range(1, min(n, d) + 1):
        prev = levels[-1]
        parts = [prev[: math.comb(j, t - 1)] | (np.int64(1) << np.int64(j)) for j in range(t - 1, n)]
        levels.append(np.concatenate(parts))
    return levels


def _lex_levels(n: int, d: int) -> list[np.ndarray]:
    """Bitmasks of the ``t``-subsets in lexicographic order of their sorted index tuples."""
    masks = np.zeros(1, dtype=np.int64)
    last = np.full(1, -1, dtype=np.int64)
    levels = [masks]
    for _ in range(1, min(n, d) + 1):
        counts = n - 1 - last  # children T + {j}, j = last+1..n-1, in increasing j
        total = int(counts.sum())
        starts = np.cumsum(counts) - counts
        offsets = np.arange(total, dtype=np.int64) - np.repeat(starts, counts)
        last = np.repeat(last + 1, counts) + offsets
        masks = np.repeat(masks, counts) | (np.int64(1) << last)
        levels.append(masks)
    return levels


def monomials(n: int, d: int) -> np.ndarray:
    """All sets ``T`` of ``[n]`` with ``|T| <= d``, as int64 bitmasks.

    Parameters
    ----------
    n : int
        Number of coordinates, ``0 <= n <= 62``.
    d : int
        Maximum degree, ``d >= 0`` (``d > n`` is the same as ``d = n``).

    Returns
    -------
    ndarray of int64, shape (sum_{t <= d} C(n, t),)
        Bit ``i`` set iff coordinate ``i`` (column ``i`` of ``X``, the paper's
        ``x_{i+1}``) is in ``T``, as in
        :func:`sparseact.analysis.walsh_coefficients`. Ordered by degree, then
        lexicographically on the sorted index tuples (the order of
        ``itertools.combinations``).

    Examples
    --------
    >>> monomials(3, 2).tolist()
    [0, 1, 2, 4, 3, 5, 6]
    """
    n, d = _check_nd(n, d)
    _check_monomial_memory(n, d)
    return np.concatenate(_lex_levels(n, d))


class _Basis:
    """Monomials of degree ``<= d`` in the internal colex order, and the map to the public order."""

    def __init__(self, n: int, d: int):
        _check_monomial_memory(n, d)
        self.n, self.d = n, min(n, d)
        colex = _colex_levels(n, d)
        lex = _lex_levels(n, d)
        self.sizes = [lvl.size for lvl in colex]
        self.offsets = np.concatenate([[0], np.cumsum(self.sizes)]).astype(np.int64)
        self.colex = np.concatenate(colex)
        self.lex = np.concatenate(lex)
        self.N = self.colex.size
        # lex_from_colex[k] = colex position of the k-th public monomial.
        perm = []
        for t, (c, lx) in enumerate(zip(colex, lex, strict=True)):
            order = np.argsort(c, kind="stable")
            perm.append(order[np.searchsorted(c, lx, sorter=order)] + self.offsets[t])
        self.lex_from_colex = np.concatenate(perm)

    def to_lex(self, coef_colex: np.ndarray) -> np.ndarray:
        return coef_colex[self.lex_from_colex]

    def to_colex(self, coef_lex: np.ndarray) -> np.ndarray:
        out = np.empty_like(coef_lex)
        out[self.lex_from_colex] = coef_lex
        return out

    def features_t(self, XT: np.ndarray, out: np.ndarray) -> np.ndarray:
        """Transposed features: ``out[k, r] = chi_{colex[k]}(x_r)`` for ``XT`` of shape (n, rows)."""
        out[0] = 1.0
        for t in range(1, self.d + 1):
            prev = self.offsets[t - 1]
            pos = self.offsets[t]
            for j in range(t - 1, self.n):
                c = math.comb(j, t - 1)
                np.multiply(out[prev : prev + c], XT[j], out=out[pos : pos + c])
                pos += c
        return out


# ---------------------------------------------------------------------------
# Validation
# ---------------------------------------------------------------------------

#: Rows per chunk when validating / indexing ``X`` (bounded temporaries).
_CHECK_ROWS = 1 << 16


def _as_numeric(value, name: str) -> np.ndarray:
    try:
        arr = np.asarray(value)
    except (TypeError, ValueError) as exc:
        raise ValueError(f"{name} must be a real numeric array: {exc}") from None
    if arr.dtype.kind == "O":
        try:
            arr = arr.astype(np.float64)
        except (TypeError, ValueError) as exc:
            raise ValueError(f"{name} must be a real numeric array: {exc}") from None
    if arr.dtype.kind not in "iuf":
        raise ValueError(f"{name} must be a real numeric array, got dtype {arr.dtype}")
    return arr


def _check_X(X, n_features: int | None = None, allow_empty: bool = False) -> np.ndarray:
    X = _as_numeric(X, "X")
    if X.ndim != 2:
        raise ValueError(f"X must be two-dimensional (m, n), got shape {X.shape}")
    m, n = X.shape
    if m == 0 and not allow_empty:
        raise ValueError("X is empty: need at least one sample (row)")
    if n_features is not None and n != n_features:
        raise ValueError(f"X has {n} columns but the model was fitted with n = {n_features}")
    if n > MAX_DIM:
        raise ValueError(f"X must have at most {MAX_DIM} columns (sets are int64 bitmasks), got {n}")
    for s in range(0, m, _CHECK_ROWS):
        blk = X[s : s + _CHECK_ROWS]
        if not np.all((blk == 1) | (blk == -1)):
            bad = np.argwhere(~((blk == 1) | (blk == -1)))[0]
            raise ValueError(f"X must have entries in {{-1, 1}}; X[{s + bad[0]}, {bad[1]}] = {blk[bad[0], bad[1]]!r}")
    return X


def _check_y(y, m: int) -> np.ndarray:
    y = _as_numeric(y, "y")
    if y.ndim != 1:
        raise ValueError(f"y must be one-dimensional (m,), got shape {y.shape}")
    if y.shape[0] != m:
        raise ValueError(f"X and y have different numbers of samples: {m} and {y.shape[0]}")
    y = np.ascontiguousarray(y, dtype=np.float64)
    if not np.all(np.isfinite(y)):
        raise ValueError("y must be finite (no NaN or inf)")
    return y


def _check_ridge(ridge) -> float:
    if isinstance(ridge, bool) or not isinstance(ridge, (int, float, np.integer, np.floating)):
        raise ValueError(f"ridge must be a real number >= 0, got {ridge!r}")
    ridge = float(ridge)
    if not math.isfinite(ridge) or ridge < 0.0:
        raise ValueError(f"ridge must be a finite real number >= 0, got {ridge}")
    return ridge


def _cube_indices(X: np.ndarray) -> np.ndarray:
    """Hypercube row index of each (validated) row of ``X`` (bit ``i`` set iff ``x_i = -1``)."""
    m, n = X.shape
    weights = np.left_shift(np.int64(1), np.arange(n, dtype=np.int64))
    out = np.empty(m, dtype=np.int64)
    for s in range(0, m, _CHECK_ROWS):
        out[s : s + _CHECK_ROWS] = (X[s : s + _CHECK_ROWS] < 0) @ weights
    return out


# ---------------------------------------------------------------------------
# Moments and the normal equations
# ---------------------------------------------------------------------------


def _matvec_f64(P: np.ndarray, v: np.ndarray, out: np.ndarray) -> None:
    """``out += P @ v`` in float64 for a float32 ``P``, casting ``P`` chunk by chunk (16 MiB)."""
    if P.dtype == np.float64:
        out += P @ v
        return
    rows = max(1, (16 << 20) // (8 * max(1, P.shape[1])))
    for k in range(0, P.shape[0], rows):
        out[k : k + rows] += P[k : k + rows].astype(np.float64) @ v


def _moments_blocks(basis: _Basis, X, y, rows: int, gram: bool, dtype=None):
    """``(G, b)`` in colex order from feature blocks; ``G`` is ``None`` unless ``gram``."""
    dtype = np.dtype(_FEATURE_DTYPE if dtype is None else dtype)
    N, m = basis.N, X.shape[0]
    b = np.zeros(N)
    G = np.zeros((N, N)) if gram else None
    tmp = np.empty((N, N), dtype=dtype) if gram else None
    buf = None
    for s in range(0, m, rows):
        Xb = X[s : s + rows]
        r = Xb.shape[0]
        if buf is None or buf.shape[1] != r:
            buf = np.empty((N, r), dtype=dtype)
        XT = np.ascontiguousarray(Xb.T, dtype=dtype)
        P = basis.features_t(XT, buf)
        if gram:
            np.matmul(P, P.T, out=tmp)  # syrk; exact (integers <= r <= 2**24)
            G += tmp
        _matvec_f64(P, y[s : s + r], b)
    return G, b


def _moments_cube(basis: _Basis, X, y, gram: bool):
    """``(G, b)`` in colex order from Walsh transforms of the sample's histogram on the cube."""
    n = X.shape[1]
    idx = _cube_indices(X)
    size = 1 << n
    acc = np.bincount(idx, weights=y, minlength=size)
    fwht(acc, out=acc)  # acc[T] = sum_i y_i chi_T(x_i)
    b = acc[basis.colex]
    G = None
    if gram:
        del acc
        cnt = np.bincount(idx, minlength=size).astype(np.float64)
        fwht(cnt, out=cnt)  # cnt[U] = sum_i chi_U(x_i), exact integers
        N = basis.N
        G = np.empty((N, N))
        masks = basis.colex
        step = max(1, (BLOCK_BYTES // 8) // N)
        for i in range(0, N, step):
            G[i : i + step] = cnt[masks[i : i + step, None] ^ masks[None, :]]
    return G, b


def _min_norm_kernel(basis: _Basis, X: np.ndarray, y: np.ndarray):
    """Minimum-norm least squares ``pinv(Phi) y = Phi^T pinv(Phi Phi^T) y`` for ``m < N`` samples.

    The distinct points ``X_u`` (mean label ``y_u`` each) give the same
    minimum-norm solution when their features ``Phi_u`` have full row rank:
    then ``c = Phi_u^T K_u^{-1} y_u`` with ``K_u = Phi_u Phi_u^T`` (exact
    integers), by Cholesky (LAPACK ``potrf``/``pocon``/``potrs``) when its
    reciprocal condition number is at least :data:`KERNEL_RCOND_MIN`.
    Otherwise ``K = Phi Phi^T`` of all ``m`` points is diagonalised (LAPACK
    ``syevd``); eigenvalues below :data:`LSTSQ_COND` times the largest are
    dropped, as in the ``N x N`` fallback of :func:`_solve_normal_equations`.

    Returns
    -------
    c : ndarray (colex order), solver : str, rank : int
    """
    _, first, inverse, counts = np.unique(_cube_indices(X), return_index=True, return_inverse=True, return_counts=True)
    PT = basis.features_t(np.ascontiguousarray(X[first].T, dtype=np.float64), np.empty((basis.N, first.size)))
    K = PT.T @ PT
    factor, info = lapack.dpotrf(K, lower=1, clean=1, overwrite_a=0)
    if info == 0:
        rcond, info = lapack.dpocon(factor, float(np.abs(K).sum(axis=0).max()), uplo=b"L")
        if info == 0 and rcond >= KERNEL_RCOND_MIN:
            alpha, info = lapack.dpotrs(factor, (np.bincount(inverse, weights=y) / counts)[:, None], lower=1)
            if info == 0:
                return PT @ alpha[:, 0], "kernel", int(first.size)
    m = X.shape[0]
    PT = basis.features_t(np.ascontiguousarray(X.T, dtype=np.float64), np.empty((basis.N, m)))
    eigenvalues, V = scipy.linalg.eigh(PT.T @ PT, overwrite_a=True, check_finite=False)
    keep = eigenvalues > LSTSQ_COND * eigenvalues[-1]
    V = V[:, keep]
    return PT @ (V @ ((V.T @ y) / eigenvalues[keep])), "kernel", int(keep.sum())


def _solve_normal_equations(G: np.ndarray, b: np.ndarray, diag: float):
    """Solve ``G c = b`` for symmetric PSD ``G`` (modified in place); ``diag`` is ``G``'s diagonal.

    Cholesky (LAPACK ``potrf``/``pocon``/``potrs``) on one triangle; if it
    fails or the reciprocal condition number is below :data:`RCOND_MIN`, the
    other, untouched triangle restores ``G`` and the minimum-norm solution
    ``pinv(G) b`` (``gelsy``: complete orthogonal factorisation with column
    pivoting, several times faster than the SVD-based ``gelsd``; relative
    cutoff :data:`LSTSQ_COND`) is returned;
    for ``G = Phi^T Phi``, ``b = Phi^T y`` it is the minimum-norm least-squares
    solution ``pinv(Phi) y``.

    Returns
    -------
    c : ndarray, solver : str, rank : int
    """
    N = G.shape[0]
    G[np.diag_indices(N)] = diag
    step = max(1, (BLOCK_BYTES // 8) // N)
    anorm = max(float(np.abs(G[i : i + step]).sum(axis=1).max()) for i in range(0, N, step))
    A = G.T  # Fortran-contiguous view of the symmetric matrix: no copy
    c, info = lapack.dpotrf(A, lower=1, clean=0, overwrite_a=1)  # writes G's upper triangle
    if info == 0:
        rcond, info2 = lapack.dpocon(c, anorm, uplo=b"L")
        if info2 == 0 and rcond >= RCOND_MIN:
            x, info3 = lapack.dpotrs(c, b[:, None], lower=1)
            if info3 == 0:
                return x[:, 0], "cholesky", N
    # Restore the upper triangle from the intact strict lower triangle.
    for i in range(0, N, step):
        i1 = min(N, i + step)
        G[i:i1, i1:] = G[i1:, i:i1].T  # source strictly below the diagonal block: intact
        low = np.tril(G[i:i1, i:i1], -1)
        G[i:i1, i:i1] = low + low.T
    G[np.diag_indices(N)] = diag
    x, _, rank, _ = scipy.linalg.lstsq(
        G.T, b, cond=LSTSQ_COND, overwrite_a=True, check_finite=False, lapack_driver="gelsy"
    )
    return x, "lstsq", int(rank)


# ---------------------------------------------------------------------------
# Estimator
# ---------------------------------------------------------------------------


class LowDegreeRegressor(ParamsMixin):
    """Low-degree algorithm: regression on the characters ``chi_T``, ``|T| <= d`` (Lemma 7).

    Section 2.1 of the paper: a hypothesis class whose members satisfy
    ``sum_{|T| > d} hhat(T)^2 <= eps`` is learned under the uniform
    distribution by polynomial regression over the monomials of degree at most
    ``d`` (Lemma 7: ``O(n^d C_H^2 log(1/delta)/eps)`` samples and time), since
    ``g = sum_{|T| <= d} hhat(T) chi_T`` has ``||g - h||_2^2 <= eps``. Theorem 8
    instantiates this for ``k``-sparsely activated networks. See the module
    docstring for the algorithms and memory limits.

    Parameters
    ----------
    degree : int, default 2
        Maximum degree ``d`` of the monomials (``0 <= d <= n``).
    method : {"regression", "correlation"}, default "regression"
        ``"regression"``: least squares (Lemma 7's polynomial regression),
        ``c = argmin (1/m) sum_i (c . chi(x_i) - y_i)^2 + ridge ||c||^2``, via
        the normal equations (Cholesky; minimum-norm ``lstsq`` fallback when
        they are singular; for ``m < N`` without ridge, the minimum-norm
        solution from the ``m x m`` kernel ``Phi Phi^T``). ``"correlation"``: the classical
        estimator ``c_T = (1/m) sum_i y_i chi_T(x_i)`` of ``fhat(T)``.
    block_size : int or None, default None
        Rows per block of features. Default: ``2**24 // N`` in ``fit`` (a 64 MiB
        float32 block), ``2**23 // N`` in ``predict`` (64 MiB of float64).
        Only affects memory and speed, not the result (beyond rounding).
    ridge : float, default 0.0
        Ridge penalty ``ridge * sum_T c_T^2`` added to the mean squared error
        (i.e. ``m * ridge`` on the diagonal of ``Phi^T Phi``); ``method="regression"`` only.
    moments : {"auto", "blocks", "cube"}, default "auto"
        How ``Phi^T Phi`` and ``Phi^T y`` are computed: streamed feature
        blocks, or Walsh transforms of the sample histogram on the cube
        (``n <= 24``); ``"auto"`` picks the cheaper one. Same estimator.

    Attributes
    ----------
    coef_ : ndarray of float64, shape (n_monomials_,)
        Coefficient ``c_T`` of ``chi_T`` for ``T = monomials_[k]``.
    monomials_ : ndarray of int64, shape (n_monomials_,)
        ``monomials(n, degree)`` (bitmasks, by degree then lexicographic).
    n_features_in_ : int
        ``n``.
    n_monomials_ : int
        ``N = sum_{t <= degree} C(n, t)``.
    n_samples_ : int
        ``m``.
    solver_ : str
        ``"cholesky"``, ``"lstsq"`` (minimum-norm fallback), ``"kernel"``
        (minimum-norm from ``Phi Phi^T``, ``m < N``) or ``"correlation"``.
    rank_ : int
        Numerical rank of the normal equations (``N`` unless ``solver_`` is ``"lstsq"`` or ``"kernel"``).
    moments_ : str
        ``"blocks"``, ``"cube"`` or ``"kernel"`` (``Phi`` built whole, ``m < N``), the path actually used.

    Examples
    --------
    >>> import numpy as np
    >>> from sparseact.cube import hypercube
    >>> X = hypercube(4)
    >>> y = 1.0 + 2.0 * X[:, 0] * X[:, 2] + X[:, 0] * X[:, 1] * X[:, 2]
    >>> model = LowDegreeRegressor(degree=2).fit(X, y)
    >>> {T: round(c, 12) for T, c in model.coefficients_.items() if abs(c) > 1e-12}
    {(): 1.0, (0, 2): 2.0}
    >>> model.exact_test_error(y)  # (1/2) * (tail weight 1**2 at T = {0, 1, 2})
    0.5
    """

    def __init__(self, degree=2, method="regression", block_size=None, ridge=0.0, moments="auto"):
        self.degree = degree
        self.method = method
        self.block_size = block_size
        self.ridge = ridge
        self.moments = moments

    # -- scikit-learn style parameter handling -----------------------------

    # -- fitting -----------------------------------------------------------

    def _validated_params(self, n: int) -> tuple[int, str, int | None, float, str]:
        degree = check_int(self.degree, "degree", 0)
        if degree > n:
            raise ValueError(f"degree must be <= n = {n} (the number of columns of X), got {degree}")
        if self.method not in _METHODS:
            raise ValueError(f"method must be one of {_METHODS}, got {self.method!r}")
        block = None if self.block_size is None else check_int(self.block_size, "block_size", 1)
        ridge = _check_ridge(self.ridge)
        if self.moments not in _MOMENTS:
            raise ValueError(f"moments must be one of {_MOMENTS}, got {self.moments!r}")
        if self.moments == "cube" and n > CUBE_MAX_N:
            raise ValueError(f"moments='cube' needs n <= {CUBE_MAX_N}, got n = {n}")
        return degree, self.method, block, ridge, self.moments

    def fit(self, X, y) -> LowDegreeRegressor:
        """Fit the coefficients of ``chi_T``, ``|T| <= degree``, to the sample ``(X, y)``.

        Parameters
        ----------
        X : array_like, shape (m, n)
            Points of {-1, 1}^n (any real dtype; entries exactly +-1), ``m >= 1``.
        y : array_like, shape (m,)
            Finite real labels.

        Returns
        -------
        self
        """
        X = _check_X(X)
        m, n = X.shape
        y = _check_y(y, m)
        degree, method, block, ridge, moments = self._validated_params(n)
        N = monomial_count(n, degree)
        gram = method == "regression"
        if gram and ridge == 0.0 and m < N:
            moments = "kernel"
        elif moments == "auto":
            moments = _choose_moments(m, n, N, gram)
        need = _fit_memory(N, n, gram, moments, m)
        if need > MEMORY_LIMIT_BYTES:
            raise ValueError(
                f"fitting N = {N} monomials (n = {n}, degree = {degree}) would need about "
                f"{need / 2**30:.1f} GiB (> MEMORY_LIMIT_BYTES = {MEMORY_LIMIT_BYTES / 2**30:.1f} GiB); "
                "lower the degree or use method='correlation'"
            )
        basis = _Basis(n, degree)
        with np.errstate(over="ignore", invalid="ignore"):
            if moments == "kernel":
                c, solver, rank = _min_norm_kernel(basis, X, y)
            else:
                if moments == "cube":
                    G, b = _moments_cube(basis, X, y, gram)
                else:
                    rows = min(block or max(1, MAX_BLOCK_ROWS // N), MAX_BLOCK_ROWS, m)
                    G, b = _moments_blocks(basis, X, y, rows, gram)
                check_finite_result(b, "the label moments sum_i y_i chi_T(x_i)", {"y": y})
                if gram:
                    c, solver, rank = _solve_normal_equations(G, b, m * (1.0 + ridge))
                    del G
                else:
                    c, solver, rank = b / m, "correlation", N
        c = check_finite_result(np.asarray(c, dtype=np.float64), "the fitted coefficients", {"y": y})
        self.coef_ = basis.to_lex(c)
        self.monomials_ = basis.lex.copy()
        self.n_features_in_ = n
        self.n_monomials_ = N
        self.n_samples_ = m
        self.solver_ = solver
        self.rank_ = rank
        self.moments_ = moments
        self._basis = basis
        return self

    # -- fitted model ------------------------------------------------------

    def _check_fitted(self) -> None:
        if not hasattr(self, "coef_"):
            raise ValueError("this LowDegreeRegressor is not fitted yet: call fit(X, y) first")

    @property
    def coefficients_(self) -> dict[tuple[int, ...], float]:
        """``{T: c_T}`` with ``T`` the sorted tuple of 0-based coordinates (``()`` is the constant)."""
        self._check_fitted()
        n = self.n_features_in_
        return {
            tuple(i for i in range(n) if (mask >> i) & 1): float(c)
            for mask, c in zip(self.monomials_.tolist(), self.coef_, strict=True)
        }

    def predict(self, X) -> np.ndarray:
        """``h(x) = sum_T c_T chi_T(x)`` for each row of ``X`` (features built in float64 blocks).

        Parameters
        ----------
        X : array_like, shape (m, n)
            Points of {-1, 1}^n, ``n = n_features_in_``.

        Returns
        -------
        ndarray of float64, shape (m,)
        """
        self._check_fitted()
        X = _check_X(X, self.n_features_in_, allow_empty=True)
        basis = self._basis
        coef = basis.to_colex(np.asarray(self.coef_, dtype=np.float64))
        m, N = X.shape[0], basis.N
        if self.block_size is None:
            rows = max(1, BLOCK_BYTES // (8 * N))
        else:
            rows = check_int(self.block_size, "block_size", 1)
        out = np.empty(m)
        buf = None
        for s in range(0, m, rows):
            Xb = X[s : s + rows]
            r = Xb.shape[0]
            if buf is None or buf.shape[1] != r:
                buf = np.empty((N, r))
            P = basis.features_t(np.ascontiguousarray(Xb.T, dtype=np.float64), buf)
            with np.errstate(over="ignore", invalid="ignore"):
                out[s : s + r] = coef @ P
        return check_finite_result(out, "the predictions", {"coef_": self.coef_})

    def predict_cube(self, n: int | None = None) -> np.ndarray:
        """Predictions on the whole cube {-1, 1}^n, in :func:`sparseact.cube.hypercube` order.

        Places ``c_T`` at index ``T`` (bitmask) of a length-``2**n`` array and
        applies the Walsh-Hadamard transform (:func:`sparseact.analysis.fwht`):
        entry ``j`` is then ``sum_T c_T (-1)**popcount(T & j) = sum_T c_T chi_T(x_j)``.
        ``O(n 2**n)`` time and ``8 * 2**n`` bytes.

        Parameters
        ----------
        n : int, optional
            Dimension; must equal ``n_features_in_`` (the default), ``n <= 28``.

        Returns
        -------
        ndarray of float64, shape (2**n,)
        """
        self._check_fitted()
        if n is None:
            n = self.n_features_in_
        n = check_int(n, "n", 0)
        if n != self.n_features_in_:
            raise ValueError(f"n = {n} does not match the fitted dimension n_features_in_ = {self.n_features_in_}")
        if n > MAX_ENUMERATION_DIM:
            raise ValueError(f"predict_cube needs n <= {MAX_ENUMERATION_DIM} (2**n values), got {n}")
        table = np.zeros(1 << n)
        table[self.monomials_] = self.coef_
        return fwht(table, out=table)

    def exact_test_error(self, target_values) -> float:
        """Exact population loss ``L_U(h) = E_{x ~ U} (1/2)(h(x) - f(x))^2`` over the whole cube.

        The paper's loss is ``l(yhat, y) = (1/2)(yhat - y)^2`` (Section 2), so
        this is half the mean squared error over all ``2**n`` points, computed
        exactly (up to rounding) from :meth:`predict_cube`. By Parseval it
        equals ``(1/2) sum_T (c_T - fhat(T))^2`` with ``c_T = 0`` for
        ``|T| > degree``; for ``h`` fitted on the whole cube it is
        ``(1/2) sum_{|T| > d} fhat(T)^2``, Lemma 7's approximation floor.

        Parameters
        ----------
        target_values : array_like, shape (2**n,)
            Truth table of the target ``f`` in :func:`sparseact.cube.hypercube` order.

        Returns
        -------
        float
        """
        self._check_fitted()
        n = self.n_features_in_
        f = _as_numeric(target_values, "target_values")
        if f.ndim != 1 or f.shape[0] != (1 << n):
            raise ValueError(f"target_values must be a truth table of length 2**{n} = {1 << n}, got shape {f.shape}")
        f = np.asarray(f, dtype=np.float64)
        if not np.all(np.isfinite(f)):
            raise ValueError("target_values must be finite")
        diff = self.predict_cube(n)
        diff -= f
        return 0.5 * float(np.dot(diff, diff)) / diff.size


def _fit_memory(N: int, n: int, gram: bool, moments: str, m: int) -> int:
    """Estimated peak bytes of ``fit`` beyond ``X`` and ``y``."""
    if moments == "kernel":
        return 8 * m * N + 16 * m * m + 64 * N
    need = BLOCK_BYTES + 64 * N
    if gram:
        need += 8 * N * N + (4 * N * N if moments == "blocks" else 0)
    if moments == "cube":
        need += 2 * 8 * (1 << n)
    return need


def _choose_moments(m: int, n: int, N: int, gram: bool) -> str:
    """Rough cost model (seconds on a 2-core AVX2 machine) picking "cube" or "blocks"."""
    if n > CUBE_MAX_N:
        return "blocks"
    cube = (2 if gram else 1) * 5e-9 * (1 << n) + 1e-8 * m + (1e-8 * N * N if gram else 0.0)
    blocks = 3e-9 * m * N + (m * N * N / 2 / 5e10 if gram else 0.0)
    return "cube" if cube < blocks else "blocks"
