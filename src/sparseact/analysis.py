"""Exact Boolean (Fourier) analysis of truth tables on {-1, 1}^n (Section 2.1, Claim 2.1).

Every exact function here takes a *truth table* ``values``: a one-dimensional
real array of length ``2**n`` in the order of :func:`sparseact.cube.hypercube`,
i.e. ``values[j] = f(x)`` for the point ``x`` with ``x_i = (-1)**(bit i of j)``
(bit 0 is ``x_1``). In this order the character ``chi_T(x) = prod_{i in T} x_i``
on row ``j`` is ``(-1)**popcount(T & j)`` with ``T`` written as a bitmask, so the
Fourier coefficients of the paper's Section 2.1,

    fhat(T) = E_{x ~ U}[f(x) chi_T(x)],        f = sum_T fhat(T) chi_T,

are the unnormalised Walsh-Hadamard transform divided by ``2**n`` and
``walsh_coefficients(values)[T]`` is ``fhat(T)`` for the bitmask ``T``.

Notation (Section 2.1 of the paper):

* ``x^{(+)i}`` is ``x`` with the ``i``-th coordinate flipped (row ``j XOR (1 << i)``);
* ``sen_f(x) = (1/4) sum_i (f(x) - f(x^{(+)i}))^2``, the l2 sensitivity at ``x``;
* ``Inf_i(f) = E_x[(1/4)(f(x) - f(x^{(+)i}))^2]`` and ``AS(f) = E_x[sen_f(x)] = sum_i Inf_i(f)``;
* ``N_rho(x)`` flips each coordinate of ``x`` independently with probability
  ``(1 - rho)/2`` and ``NS_rho(f) = E_{x ~ U, y ~ N_rho(x)} (1/4)(f(x) - f(y))^2``.

Spectral identities used (verified by brute force in ``tests/test_analysis.py``),
valid for every real-valued ``f``:

* Parseval: ``||f||_2^2 = E_x f(x)^2 = sum_T fhat(T)^2`` (Claim 2.1, first item);
* ``f(x) - f(x^{(+)i}) = 2 sum_{T : i in T} fhat(T) chi_T(x)``, hence
  ``Inf_i(f) = (1/4) * 4 * sum_{T : i in T} fhat(T)^2 = sum_{T : i in T} fhat(T)^2``
  and ``AS(f) = sum_T |T| fhat(T)^2`` (the 1/4 exactly cancels the 2^2);
* ``E_{x, y ~ N_rho(x)}[f(x) f(y)] = sum_T rho^{|T|} fhat(T)^2``, hence
  ``NS_rho(f) = (1/4)(2 ||f||^2 - 2 sum_T rho^{|T|} fhat(T)^2)
  = sum_T (1/2)(1 - rho^{|T|}) fhat(T)^2``, exactly as stated in Claim 2.1
  (no discrepancy with the definition), and for ``rho`` in ``[0, 1)`` and
  ``d >= 1``: ``sum_{|T| > d} fhat(T)^2 <= 2 NS_rho(f) / (1 - rho^d)``.

Monte Carlo twins (:func:`average_sensitivity_mc`, :func:`noise_sensitivity_mc`)
cover dimensions beyond exact enumeration.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

import numba
import numpy as np
from sparseact._validation import as_real_array, check_confidence, check_int, check_rng, clt_half_width

__all__ = [
    "MonteCarloEstimate",
    "average_sensitivity",
    "average_sensitivity_mc",
    "fourier_tail",
    "fwht",
    "influences",
    "level_weights",
    "noise_sensitivity",
    "noise_sensitivity_from_level_weights",
    "noise_sensitivity_mc",
    "walsh_coefficients",
]

# ---------------------------------------------------------------------------
# Fast Walsh-Hadamard transform (numba, cache-blocked, deterministic)
# ---------------------------------------------------------------------------

#: log2 of the block (in float64 elements) on which the first stages run in
#: L1 cache: 2**12 doubles = 32 KiB.
_BLOCK_BITS = 12
#: Target size (float64 elements) of the column-strip scratch buffer of the
#: second pass: 2**17 doubles = 1 MiB, about one core's L2.
_STRIP_TARGET = 1 << 17
#: Narrowest column strip (float64 elements); 8 doubles = one 64-byte cache line.
_MIN_STRIP = 8


@numba.njit(cache=True, inline="always")
def _radix2(a, start, length, h):
    # One butterfly stage of half-width h over a[start:start+length].
    for i in range(start, start + length, 2 * h):
        p0 = a[i : i + h]
        p1 = a[i + h : i + 2 * h]
        for t in range(h):
            x = p0[t]
            y = p1[t]
            p0[t] = x + y
            p1[t] = x - y


@numba.njit(cache=True, inline="always")
def _radix4(a, start, length, h):
    # Stages h and 2h fused (radix 4): the same additions, in the same order
    # per element, as two radix-2 stages, with half the memory traffic.
    for i in range(start, start + length, 4 * h):
        p0 = a[i : i + h]
        p1 = a[i + h : i + 2 * h]
        p2 = a[i + 2 * h : i + 3 * h]
        p3 = a[i + 3 * h : i + 4 * h]
        for t in range(h):
            x0 = p0[t]
            x1 = p1[t]
            x2 = p2[t]
            x3 = p3[t]
            s01 = x0 + x1
            d01 = x0 - x1
            s23 = x2 + x3
            d23 = x2 - x3
            p0[t] = s01 + s23
            p1[t] = d01 + d23
            p2[t] = s01 - s23
            p3[t] = d01 - d23


@numba.njit(cache=True, inline="always")
def _radix8_first(a, start, length):
    # Stages h = 1, 2, 4 on consecutive groups of 8 (the inner loops of the
    # generic kernels would be too short to vectorise).
    for i in range(start, start + length, 8):
        p = a[i : i + 8]
        x0 = p[0]
        x1 = p[1]
        x2 = p[2]
        x3 = p[3]
        x4 = p[4]
        x5 = p[5]
        x6 = p[6]
        x7 = p[7]
        a0 = x0 + x1
        a1 = x0 - x1
        a2 = x2 + x3
        a3 = x2 - x3
        a4 = x4 + x5
        a5 = x4 - x5
        a6 = x6 + x7
        a7 = x6 - x7
        b0 = a0 + a2
        b1 = a1 + a3
        b2 = a0 - a2
        b3 = a1 - a3
        b4 = a4 + a6
        b5 = a5 + a7
        b6 = a4 - a6
        b7 = a5 - a7
        p[0] = b0 + b4
        p[1] = b1 + b5
        p[2] = b2 + b6
        p[3] = b3 + b7
        p[4] = b0 - b4
        p[5] = b1 - b5
        p[6] = b2 - b6
        p[7] = b3 - b7


@numba.njit(cache=True)
def _stages(a, start, length, h_lo, h_hi):
    # All stages h = h_lo, 2 h_lo, ... < h_hi over a[start:start+length]
    # (length is a multiple of h_hi; h_lo, h_hi are powers of two).
    h = h_lo
    if h == 1 and h_hi >= 8:
        _radix8_first(a, start, length)
        h = 8
    while h < h_hi:
        if 4 * h <= h_hi:
            _radix4(a, start, length, h)
            h *= 4
        else:
            _radix2(a, start, length, h)
            h *= 2


@numba.njit(cache=True)
def _fwht_into(src, out, block_bits, strip_target, min_strip):
    """Unnormalised WHT of ``src`` written into ``out`` (may be ``src`` itself).

    Pass 1: for each block of ``B = 2**block_bits`` elements, copy it from
    ``src`` to ``out`` and run every stage ``h < B`` while it sits in L1.
    Pass 2: view ``out`` as an ``R x B`` row-major matrix (``R = N / B``); the
    remaining stages are a length-``R`` transform down each column. Columns
    are processed in strips of ``c`` (a multiple of a cache line): gather the
    ``R x c`` strip into a contiguous L2-sized scratch buffer (avoiding the
    power-of-two-stride cache conflicts), transform it there (L1-blocked,
    radix 4), scatter it back. Two sweeps over main memory in total.

    Every output is produced by exactly the additions of the textbook
    iterative butterfly (h = 1, 2, 4, ...), only reordered across independent
    elements, so the result is bitwise identical to it and deterministic.
    """
    N = src.size
    n = 0
    while (1 << n) < N:
        n += 1
    B = 1 << min(block_bits, n)
    for s in range(0, N, B):
        d = out[s : s + B]
        q = src[s : s + B]
        for t in range(B):
            d[t] = q[t]
        _stages(out, s, B, 1, B)
    if B >= N:
        return
    R = N // B
    c = strip_target // R
    if c < min_strip:
        c = min_strip
    if c > B:
        c = B
    total = R * c
    scratch = np.empty(total)
    L1 = 1 << block_bits
    for col in range(0, B, c):
        for r in range(R):
            d = scratch[r * c : (r + 1) * c]
            q = out[r * B + col : r * B + col + c]
            for t in range(c):
                d[t] = q[t]
        # Row stages of the strip = flat stages h = c, 2c, ..., < total.
        if c < L1 < total:
            for s in range(0, total, L1):
                _stages(scratch, s, L1, c, L1)
            _stages(scratch, 0, total, L1, total)
        else:
            _stages(scratch, 0, total, c, total)
        for r in range(R):
            q = scratch[r * c : (r + 1) * c]
            d = out[r * B + col : r * B + col + c]
            for t in range(c):
                d[t] = q[t]


@numba.njit(cache=True)
def _level_weights_kernel(coef, n):
    # W[t] = sum_{popcount(j) = t} coef[j]^2, summed per block then across
    # blocks (two-level summation: error ~ (B + N/B) eps instead of N eps).
    N = coef.size
    B = min(N, 1 << 12)
    low = np.zeros(B, dtype=np.int64)
    for j in range(1, B):
        low[j] = low[j >> 1] + (j & 1)
    total = np.zeros(n + 1)
    local = np.zeros(n + 1)
    for s in range(0, N, B):
        hp = 0
        m = s
        while m:
            hp += m & 1
            m >>= 1
        for t in range(n + 1):
            local[t] = 0.0
        blk = coef[s : s + B]
        for t in range(B):
            v = blk[t]
            local[hp + low[t]] += v * v
        for t in range(n + 1):
            total[t] += local[t]
    return total


# ---------------------------------------------------------------------------
# Validation helpers
# ---------------------------------------------------------------------------


def _as_table(values, name: str = "values") -> tuple[np.ndarray, int]:
    """Validate a truth table; return it as C-contiguous float64 and its ``n``."""
    arr = as_real_array(values, name)
    if arr.ndim != 1:
        raise ValueError(
            f"{name} must be a one-dimensional truth table of length 2**n, got shape {arr.shape}"
        )
    size = arr.shape[0]
    if size == 0 or size & (size - 1):
        raise ValueError(f"{name} must have length 2**n for some n >= 0, got length {size}")
    arr = np.ascontiguousarray(arr, dtype=np.float64)
    if not np.isfinite(arr).all():
        raise ValueError(f"{name} must contain only finite values (found NaN or inf)")
    return arr, size.bit_length() - 1


def _check_rho(rho) -> tuple[np.ndarray, bool]:
    arr = as_real_array(rho, "rho")
    scalar = arr.ndim == 0
    arr = np.asarray(arr, dtype=np.float64)
    if not np.isfinite(arr).all():
        raise ValueError("rho must be finite")
    if arr.size and (arr.min() < -1.0 or arr.max() > 1.0):
        raise ValueError(
            f"rho must lie in [-1, 1], got values in [{arr.min()}, {arr.max()}]"
        )
    return arr, scalar




# ---------------------------------------------------------------------------
# Exact spectrum
# ---------------------------------------------------------------------------


def fwht(values, out: np.ndarray | None = None) -> np.ndarray:
    """Unnormalised Walsh-Hadamard transform of a truth table.

    ``out[T] = sum_j values[j] * (-1)**popcount(T & j)``, i.e. with the
    hypercube order of :mod:`sparseact.cube`, ``out[T] = 2**n fhat(T)``.

    The transform runs in a cache-blocked, radix-4 numba kernel on a float64
    copy (the copy is fused into the first pass). It performs exactly the
    additions of the textbook iterative butterfly (stages ``h = 1, 2, 4, ...``),
    so results are deterministic and bitwise reproducible.

    Parameters
    ----------
    values : array_like, shape (2**n,)
        Real, finite truth table. Not modified (unless passed as ``out``).
    out : ndarray of float64, shape (2**n,), optional
        C-contiguous, writeable destination; may be ``values`` itself (then the
        transform is in place) but must not otherwise overlap it.

    Returns
    -------
    ndarray of float64, shape (2**n,)
        A new array, or ``out`` if given.

    Raises
    ------
    ValueError
        If ``values`` is not a 1-D finite real array of power-of-two length, or
        ``out`` is unsuitable.

    Examples
    --------
    >>> fwht([1.0, 0.0, 0.0, 0.0])
    array([1., 1., 1., 1.])
    """
    src, _ = _as_table(values)
    if out is None:
        out = np.empty_like(src)
    else:
        if not isinstance(out, np.ndarray):
            raise ValueError("out must be a numpy array")
        if out.dtype != np.float64 or out.ndim != 1 or not out.flags.c_contiguous:
            raise ValueError(
                "out must be a one-dimensional C-contiguous float64 array, got "
                f"dtype {out.dtype}, shape {out.shape}"
            )
        if out.shape != src.shape:
            raise ValueError(f"out must have shape {src.shape}, got {out.shape}")
        if not out.flags.writeable:
            raise ValueError("out must be writeable")
        same = out.ctypes.data == src.ctypes.data
        if not same and np.shares_memory(out, src):
            raise ValueError("out overlaps values without being the same array")
    _fwht_into(src, out, _BLOCK_BITS, _STRIP_TARGET, _MIN_STRIP)
    return out


def fwht_reference(values) -> np.ndarray:
    """Plain-numpy Walsh-Hadamard butterfly (stages ``h = 1, 2, 4, ...``), out of place.

    Same arithmetic as :func:`fwht`, so the two agree bitwise; it is the
    straightforward implementation that tests and ``benchmarks/bench_fwht.py``
    compare against.
    """
    a, _ = _as_table(values)
    a = a.copy()
    h = 1
    while h < a.size:
        a3 = a.reshape(-1, 2, h)
        x = a3[:, 0, :].copy()
        y = a3[:, 1, :]
        a3[:, 0, :] += y
        np.subtract(x, y, out=a3[:, 1, :])
        h *= 2
    return a


def walsh_coefficients(values) -> np.ndarray:
    """Fourier-Walsh coefficients ``fhat(T) = E_x[f(x) chi_T(x)]`` (Section 2.1).

    Parameters
    ----------
    values : array_like, shape (2**n,)
        Truth table in :func:`sparseact.cube.hypercube` order.

    Returns
    -------
    ndarray of float64, shape (2**n,)
        ``out[T] = fhat(T)`` with the set ``T`` encoded as the bitmask
        ``sum_{i in T} 2**(i-1)`` (``x_1`` is bit 0); equals
        ``fwht(values) / 2**n`` (exact scaling by a power of two).
    """
    src, n = _as_table(values)
    coefficients = _coefficients(src, n)
    if not np.isfinite(coefficients).all():
        raise ValueError("the Walsh coefficients overflow float64: rescale the truth table (|values| too large)")
    return coefficients


def _coefficients(src: np.ndarray, n: int) -> np.ndarray:
    # fhat for an already validated C-contiguous float64 table.
    out = np.empty_like(src)
    _fwht_into(src, out, _BLOCK_BITS, _STRIP_TARGET, _MIN_STRIP)
    out *= 2.0**-n
    return out


def level_weights(values) -> np.ndarray:
    """Fourier weight at each level, ``W^t(f) = sum_{|T| = t} fhat(T)^2``.

    Parameters
    ----------
    values : array_like, shape (2**n,)
        Truth table.

    Returns
    -------
    ndarray of float64, shape (n + 1,)
        ``out[t] = W^t(f)``; by Parseval (Claim 2.1) ``out.sum() = ||f||_2^2``.
    """
    src, n = _as_table(values)
    return _level_weights_kernel(_coefficients(src, n), n)


def fourier_tail(values, d: int) -> float:
    """Fourier tail ``sum_{|T| > d} fhat(T)^2`` (the quantity bounded in Claim 2.1).

    Equals ``||f - f^{<=d}||_2^2``, the squared error of the degree-``d``
    truncation used by the low-degree algorithm (Lemma 7).

    Parameters
    ----------
    values : array_like, shape (2**n,)
        Truth table.
    d : int
        Degree, ``d >= 0``; ``d >= n`` gives ``0.0``.

    Returns
    -------
    float
        The sum of the level weights ``W^t`` over ``t > d`` (summed directly,
        not as ``||f||^2 - sum_{t <= d} W^t``, so small tails are accurate).
    """
    d = check_int(d, "d", 0)
    w = level_weights(values)
    return float(w[d + 1 :].sum())


# ---------------------------------------------------------------------------
# Sensitivity
# ---------------------------------------------------------------------------

#: Number of table entries processed per vectorised chunk in :func:`influences`.
_INFLUENCE_CHUNK = 1 << 16


def influences(values) -> np.ndarray:
    """Influences ``Inf_i(f) = E_x[(1/4)(f(x) - f(x^{(+)i}))^2]``, ``i = 1..n``.

    This is the per-coordinate term of the paper's l2 sensitivity
    ``sen_f(x) = (1/4) sum_i (f(x) - f(x^{(+)i}))^2`` (Section 2.1), valid for
    real-valued ``f``; for ``f`` into {-1, 1} it is ``Pr_x[f(x) != f(x^{(+)i})]``.
    Computed directly from the table (``x^{(+)i}`` is row ``j XOR 2**(i-1)``)
    in vectorised chunks; spectrally ``Inf_i(f) = sum_{T : i in T} fhat(T)^2``.

    Parameters
    ----------
    values : array_like, shape (2**n,)
        Truth table.

    Returns
    -------
    ndarray of float64, shape (n,)
        ``out[i - 1] = Inf_i(f)`` (column ``i - 1`` of the hypercube is ``x_i``).
    """
    src, n = _as_table(values)
    N = src.size
    out = np.empty(n)
    # Each unordered pair {j, j ^ h} appears twice in E_x, so
    # Inf_i = 2**-n * (1/4) * 2 * sum_pairs d^2 = sum_pairs d^2 / 2**(n+1).
    scale = 2.0 ** -(n + 1)
    for i in range(n):
        h = 1 << i
        a = src.reshape(N // (2 * h), 2, h)
        acc = 0.0
        if h >= _INFLUENCE_CHUNK:
            for r in range(a.shape[0]):
                for c0 in range(0, h, _INFLUENCE_CHUNK):
                    d = a[r, 0, c0 : c0 + _INFLUENCE_CHUNK] - a[r, 1, c0 : c0 + _INFLUENCE_CHUNK]
                    acc += float(np.square(d, out=d).sum())
        else:
            rows = max(1, _INFLUENCE_CHUNK // h)
            for r0 in range(0, a.shape[0], rows):
                blk = a[r0 : r0 + rows]
                d = blk[:, 0, :] - blk[:, 1, :]
                acc += float(np.square(d, out=d).sum())
        out[i] = acc * scale
    return out


def average_sensitivity(values) -> float:
    """Average l2^2 sensitivity ``AS(f) = E_x[sen_f(x)] = sum_i Inf_i(f)`` (Section 2.1).

    With the paper's normalisation ``sen_f(x) = (1/4) sum_i (f(x) - f(x^{(+)i}))^2``
    one has, for every real-valued ``f``, exactly
    ``AS(f) = sum_{T subseteq [n]} |T| fhat(T)^2`` (because
    ``f(x) - f(x^{(+)i}) = 2 sum_{T ni i} fhat(T) chi_T(x)``, so
    ``(1/4) E (f(x) - f(x^{(+)i}))^2 = sum_{T ni i} fhat(T)^2``). For Boolean
    ``f`` into {-1, 1} it is the expected number of sensitive coordinates.

    Parameters
    ----------
    values : array_like, shape (2**n,)
        Truth table.

    Returns
    -------
    float
        ``AS(f)``, computed directly from the table via :func:`influences`.
    """
    return float(influences(values).sum())


def _one_minus_rho_pow(rho: np.ndarray, t: np.ndarray) -> np.ndarray:
    """``1 - rho**t`` for ``t >= 1`` without cancellation near ``rho = +-1``.

    Returns shape ``rho.shape + t.shape``.
    """
    r = rho[..., None]
    absr = np.abs(r)
    with np.errstate(divide="ignore"):
        log_abs = np.log(absr)  # -inf at rho = 0, giving |rho|**t = 0 below
    x = t * log_abs
    neg_odd = (r < 0) & (t % 2 == 1)
    # rho**t = +|rho|**t unless rho < 0 and t odd (then -|rho|**t).
    return np.where(neg_odd, 1.0 + np.exp(x), -np.expm1(x))


def noise_sensitivity_from_level_weights(weights, rho):
    """``NS_rho(f) = sum_t (1/2)(1 - rho^t) W^t(f)`` from precomputed level weights.

    Use this to evaluate many ``rho`` without recomputing the transform.

    Parameters
    ----------
    weights : array_like, shape (n + 1,)
        Level weights ``W^t`` as returned by :func:`level_weights`.
    rho : float or array_like
        Correlation(s) in ``[-1, 1]``.

    Returns
    -------
    float or ndarray
        Same shape as ``rho`` (a float for scalar ``rho``).
    """
    w = as_real_array(weights, "weights")
    if w.ndim != 1 or w.shape[0] == 0:
        raise ValueError(f"weights must be a non-empty 1-D array of level weights, got shape {w.shape}")
    w = np.asarray(w, dtype=np.float64)
    if not np.isfinite(w).all():
        raise ValueError("weights must be finite")
    if (w < 0).any():
        raise ValueError(f"level weights are sums of squares and cannot be negative, got min {w.min()}")
    r, scalar = _check_rho(rho)
    n = w.shape[0] - 1
    if n == 0:
        res = np.zeros(r.shape)
    else:
        t = np.arange(1, n + 1, dtype=np.float64)
        res = 0.5 * (_one_minus_rho_pow(r, t) @ w[1:])
    return float(res) if scalar else res


def noise_sensitivity(values, rho):
    """Exact ``rho``-noise sensitivity ``NS_rho(f) = E_{x ~ U, y ~ N_rho(x)} (1/4)(f(x) - f(y))^2``.

    ``N_rho(x)`` flips each coordinate of ``x`` independently with probability
    ``(1 - rho)/2`` (Section 2.1). Computed through the spectrum with Claim 2.1,

        NS_rho(f) = sum_T (1/2)(1 - rho^{|T|}) fhat(T)^2,

    which is exact for every real-valued ``f`` and ``rho`` in ``[-1, 1]``: from
    ``E[f(x) f(y)] = sum_T rho^{|T|} fhat(T)^2`` one gets
    ``(1/4) E (f(x) - f(y))^2 = (1/4)(2||f||^2 - 2 sum_T rho^{|T|} fhat(T)^2)``.
    The factor 1/2 of Claim 2.1 was checked against the definition by brute
    force over all pairs ``(x, y)`` (``tests/test_analysis.py``): no discrepancy.
    ``1 - rho^t`` is evaluated as ``-expm1(t log rho)`` to stay accurate near
    ``rho = 1``.

    Parameters
    ----------
    values : array_like, shape (2**n,)
        Truth table.
    rho : float or array_like
        Correlation(s) in ``[-1, 1]``; vectorised.

    Returns
    -------
    float or ndarray
        Same shape as ``rho`` (a float for scalar ``rho``).
    """
    _check_rho(rho)  # validate before the (possibly large) transform
    return noise_sensitivity_from_level_weights(level_weights(values), rho)


# ---------------------------------------------------------------------------
# Monte Carlo
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class MonteCarloEstimate:
    """A Monte Carlo estimate with a CLT (normal) confidence interval.

    Attributes
    ----------
    estimate : float
        Sample mean of the per-sample unbiased estimates.
    ci_low, ci_high : float
        ``estimate -+ z * s / sqrt(n_samples)`` with ``s`` the sample standard
        deviation (ddof=1) and ``z`` the ``(1 + confidence)/2`` normal quantile.
    n_samples : int
        Number of independent samples averaged.
    confidence : float
        Nominal coverage of the interval.
    method : str
        Which estimator produced the samples.
    """

    estimate: float
    ci_low: float
    ci_high: float
    n_samples: int
    confidence: float
    method: str


class _RunningMoments:
    """Mean and sum of squared deviations, merged chunk by chunk (Chan et al.)."""

    def __init__(self) -> None:
        self.count = 0
        self.mean = 0.0
        self.m2 = 0.0

    def add(self, samples: np.ndarray) -> None:
        m = samples.size
        if m == 0:
            return
        mean_b = float(samples.mean())
        m2_b = float(np.square(samples - mean_b).sum())
        total = self.count + m
        delta = mean_b - self.mean
        self.mean += delta * m / total
        self.m2 += m2_b + delta * delta * self.count * m / total
        self.count = total

    def estimate(self, confidence: float, method: str) -> MonteCarloEstimate:
        var = self.m2 / (self.count - 1)
        half = clt_half_width(math.sqrt(var), self.count, confidence)
        return MonteCarloEstimate(
            estimate=self.mean,
            ci_low=self.mean - half,
            ci_high=self.mean + half,
            n_samples=self.count,
            confidence=confidence,
            method=method,
        )


def _check_mc_args(f, n, n_samples, rng, confidence, chunk_size) -> tuple[int, int, float, int]:
    if not callable(f):
        raise ValueError("f must be a callable mapping an (m, n) array of +-1 points to (m,) values")
    n = check_int(n, "n", 1)
    n_samples = check_int(n_samples, "n_samples", 2)
    check_rng(rng)
    confidence = check_confidence(confidence)
    chunk_size = check_int(chunk_size, "chunk_size", 1) if chunk_size is not None else None
    return n, n_samples, confidence, chunk_size


def _evaluate(f, X: np.ndarray) -> np.ndarray:
    y = np.asarray(f(X), dtype=np.float64)
    if y.shape != (X.shape[0],):
        raise ValueError(
            f"f must map an ({X.shape[0]}, {X.shape[1]}) array to shape ({X.shape[0]},), "
            f"got shape {y.shape}"
        )
    if not np.isfinite(y).all():
        raise ValueError("f returned non-finite values")
    return y


def _uniform_points(rng: np.random.Generator, m: int, n: int) -> np.ndarray:
    return 1.0 - 2.0 * rng.integers(0, 2, size=(m, n), dtype=np.int8)


#: Float64 entries per evaluation batch in the Monte Carlo estimators (32 MiB).
_MC_BATCH_ENTRIES = 1 << 22


def average_sensitivity_mc(
    f: Callable[[np.ndarray], np.ndarray],
    n: int,
    n_samples: int,
    rng: np.random.Generator,
    confidence: float = 0.95,
    *,
    method: str = "all_coordinates",
    chunk_size: int | None = None,
) -> MonteCarloEstimate:
    """Monte Carlo estimate of ``AS(f) = E_x[sen_f(x)]`` with a CLT interval.

    Two unbiased estimators (``x ~ U`` i.i.d. per sample):

    * ``"all_coordinates"`` (default): the sample is
      ``sen_f(x) = (1/4) sum_i (f(x) - f(x^{(+)i}))^2``; ``n + 1`` evaluations
      of ``f`` per sample.
    * ``"random_coordinate"``: with ``i`` uniform in ``[n]``, the sample is
      ``n (1/4)(f(x) - f(x^{(+)i}))^2``; 2 evaluations per sample.

    The default is the conditional expectation of the second given ``x``
    (Rao-Blackwellisation), so its per-sample variance is never larger, and
    typically about ``n`` times smaller when the influences are spread out
    (its samples are also exactly constant, with a zero-width interval, for
    functions such as parity whose sensitivity does not depend on ``x``).
    The second is cheaper per sample and may win per evaluation when ``f`` is
    very expensive and ``n`` large.

    Parameters
    ----------
    f : callable
        Maps an ``(m, n)`` float64 array of +-1 points to ``(m,)`` real values.
    n : int
        Dimension, ``n >= 1``.
    n_samples : int
        Number of independent samples, ``>= 2``.
    rng : numpy.random.Generator
        Source of randomness (results are deterministic given its state).
    confidence : float, optional
        Coverage of the normal interval, in ``(0, 1)``.
    method : {"all_coordinates", "random_coordinate"}, optional
    chunk_size : int, optional
        Samples per batch (default: keeps each batch of points at about 32 MiB).

    Returns
    -------
    MonteCarloEstimate
    """
    n, n_samples, confidence, chunk_size = _check_mc_args(f, n, n_samples, rng, confidence, chunk_size)
    if method not in ("all_coordinates", "random_coordinate"):
        raise ValueError(f"method must be 'all_coordinates' or 'random_coordinate', got {method!r}")
    acc = _RunningMoments()
    if method == "all_coordinates":
        per = chunk_size or max(1, _MC_BATCH_ENTRIES // ((n + 1) * n))
        for start in range(0, n_samples, per):
            m = min(per, n_samples - start)
            x = _uniform_points(rng, m, n)
            X = np.repeat(x[:, None, :], n + 1, axis=1)  # (m, n+1, n)
            idx = np.arange(n)
            X[:, idx + 1, idx] *= -1.0  # slot i+1 is x^{(+)(i+1)}
            y = _evaluate(f, X.reshape(m * (n + 1), n)).reshape(m, n + 1)
            sen = 0.25 * np.square(y[:, 1:] - y[:, :1]).sum(axis=1)
            acc.add(sen)
    else:
        per = chunk_size or max(1, _MC_BATCH_ENTRIES // (2 * n))
        for start in range(0, n_samples, per):
            m = min(per, n_samples - start)
            x = _uniform_points(rng, m, n)
            i = rng.integers(0, n, size=m)
            xf = x.copy()
            xf[np.arange(m), i] *= -1.0
            y = _evaluate(f, np.concatenate([x, xf]))
            acc.add(n * 0.25 * np.square(y[:m] - y[m:]))
    return acc.estimate(confidence, method)


def noise_sensitivity_mc(
    f: Callable[[np.ndarray], np.ndarray],
    n: int,
    rho: float,
    n_samples: int,
    rng: np.random.Generator,
    confidence: float = 0.95,
    *,
    chunk_size: int | None = None,
) -> MonteCarloEstimate:
    """Monte Carlo estimate of ``NS_rho(f) = E_{x ~ U, y ~ N_rho(x)} (1/4)(f(x) - f(y))^2``.

    Each sample draws ``x`` uniformly and ``y`` from ``N_rho(x)`` (each
    coordinate flipped independently with probability ``(1 - rho)/2``) and
    records ``(1/4)(f(x) - f(y))^2``; 2 evaluations of ``f`` per sample.

    Parameters
    ----------
    f : callable
        Maps an ``(m, n)`` float64 array of +-1 points to ``(m,)`` real values.
    n : int
        Dimension, ``n >= 1``.
    rho : float
        Correlation in ``[-1, 1]`` (scalar).
    n_samples : int
        Number of independent pairs, ``>= 2``.
    rng : numpy.random.Generator
    confidence : float, optional
        Coverage of the normal interval, in ``(0, 1)``.
    chunk_size : int, optional
        Pairs per batch (default: about 32 MiB of points per batch).

    Returns
    -------
    MonteCarloEstimate
    """
    n, n_samples, confidence, chunk_size = _check_mc_args(f, n, n_samples, rng, confidence, chunk_size)
    r, scalar = _check_rho(rho)
    if not scalar:
        raise ValueError("noise_sensitivity_mc takes a scalar rho")
    p_flip = (1.0 - float(r)) / 2.0
    acc = _RunningMoments()
    per = chunk_size or max(1, _MC_BATCH_ENTRIES // (2 * n))
    for start in range(0, n_samples, per):
        m = min(per, n_samples - start)
        x = _uniform_points(rng, m, n)
        flips = rng.random((m, n)) < p_flip
        y_pts = np.where(flips, -x, x)
        y = _evaluate(f, np.concatenate([x, y_pts]))
        acc.add(0.25 * np.square(y[:m] - y[m:]))
    return acc.estimate(confidence, f"noise_pairs(rho={float(r)!r})")
