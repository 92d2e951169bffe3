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
from llvmlite import ir
from numba.core import types
from numba.extending import intrinsic

from sparseact._validation import (
    as_real_array,
    check_confidence,
    check_finite_result,
    check_int,
    check_memory,
    check_rho,
    check_rng,
    check_work,
    clt_half_width,
    overflow_error,
)

__all__ = [
    "MonteCarloEstimate",
    "average_sensitivity",
    "average_sensitivity_mc",
    "fourier_tail",
    "fwht",
    "fwht_reference",
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

#: Width (in coefficients) of the tiles of :func:`_influence_top`: eight
#: columns of it (32 KiB) stay in L1 while the eight input streams pass.
_INFLUENCE_WIDTH = 512

#: From this ``n`` on, :func:`influences` uses :func:`_influences_into` (the
#: eighths' transforms then have a radix-8 top group); below, one transform
#: and :func:`_influence_kernel`.
_PARSEVAL_MIN_N = 18

_F64X8 = ir.VectorType(ir.DoubleType(), 8)
_I32X8 = ir.VectorType(ir.IntType(32), 8)


def _pair_masks(h: int) -> tuple[list[int], list[int]]:
    # Shuffle masks over two 8-lane vectors (v = lanes 0-7, w = lanes 8-15):
    # ``low`` takes the lanes without bit h of v and w, ``high`` their partners.
    low = []
    for blk in range(0, 8, 2 * h):
        low += list(range(blk, blk + h)) + list(range(8 + blk, 8 + blk + h))
    return low, [j + h for j in low]


def _register_stages(vectors: int):
    """An intrinsic running stages h = 1, 2, ... < 8 * vectors of ``src[i : i + 8 * vectors]`` into ``a``.

    ``_stages_to_N(a, i, src)`` loads the block from ``src`` and stores the
    result at the same offsets of ``a`` (``src`` may be ``a``: in place), so an
    out-of-place transform needs no separate copy.

    The block is ``vectors`` 8-lane vectors. The stages h = 1, 2, 4 pair lanes
    of the same vector: for two vectors ``v, w`` a shuffle gathers the lanes
    without bit h of both into ``A``, their partners into ``B``, then ``A + B``
    and ``A - B`` are shuffled back, so every element gets exactly the addition
    of the textbook stage. The stages h >= 8 pair whole vectors. LLVM lowers
    the 8-lane vectors to the machine's registers (AVX-512, 2 x AVX2, ...)
    without changing any rounding.
    """

    def typer(typingctx, a, i, src):
        for arr in (a, src):
            if not (
                isinstance(arr, types.Array) and arr.ndim == 1 and arr.layout == "C" and arr.dtype == types.float64
            ):
                return None
        if not isinstance(i, types.Integer):
            return None
        sig = types.void(a, i, src)

        def codegen(context, builder, signature, args):
            index = context.cast(builder, args[1], signature.args[1], types.intp)

            def vector_pointers(position):
                ary = context.make_array(signature.args[position])(context, builder, args[position])
                base = builder.gep(ary.data, [index])
                return [
                    builder.bitcast(builder.gep(base, [ir.Constant(ir.IntType(64), 8 * k)]), _F64X8.as_pointer())
                    for k in range(vectors)
                ]

            ptrs = vector_pointers(0)
            x = [builder.load(p, align=8) for p in vector_pointers(2)]
            for h in (1, 2, 4):
                low, high = _pair_masks(h)
                low = ir.Constant(_I32X8, low)
                high = ir.Constant(_I32X8, high)
                for k in range(0, vectors, 2):
                    A = builder.shuffle_vector(x[k], x[k + 1], low)
                    B = builder.shuffle_vector(x[k], x[k + 1], high)
                    s = builder.fadd(A, B)
                    d = builder.fsub(A, B)
                    x[k] = builder.shuffle_vector(s, d, low)
                    x[k + 1] = builder.shuffle_vector(s, d, high)
            h = 1
            while h < vectors:
                for k in range(vectors):
                    if not k & h:
                        u, v = x[k], x[k + h]
                        x[k] = builder.fadd(u, v)
                        x[k + h] = builder.fsub(u, v)
                h *= 2
            for p, v in zip(ptrs, x, strict=True):
                builder.store(v, p, align=8)
            return context.get_dummy_value()

        return sig, codegen

    typer.__name__ = f"_stages_to_{8 * vectors}"
    return intrinsic(typer)


#: Stages 1..32 of 64 elements (8 vectors) and 1..64 of 128 (16 vectors) in registers.
_stages_to_64 = _register_stages(8)
_stages_to_128 = _register_stages(16)


@numba.njit(cache=True, inline="always", boundscheck=False)
def _radix2(a, start, length, h):
    # One butterfly stage of half-width h over a[start:start+length]. One view
    # per group, indexed from 0, so the inner loop is contiguous, free of
    # wraparound checks, and vectorised by LLVM.
    for i in range(start, start + length, 2 * h):
        p = a[i : i + 2 * h]
        for t in range(h):
            x = p[t]
            y = p[t + h]
            p[t] = x + y
            p[t + h] = x - y


@numba.njit(cache=True, inline="always", boundscheck=False)
def _radix4(a, start, length, h):
    # Stages h and 2h fused (radix 4): the same additions, in the same order
    # per element, as two radix-2 stages, with half the memory traffic.
    for i in range(start, start + length, 4 * h):
        p = a[i : i + 4 * h]
        for t in range(h):
            x0 = p[t]
            x1 = p[t + h]
            x2 = p[t + 2 * h]
            x3 = p[t + 3 * h]
            s01 = x0 + x1
            d01 = x0 - x1
            s23 = x2 + x3
            d23 = x2 - x3
            p[t] = s01 + s23
            p[t + h] = d01 + d23
            p[t + 2 * h] = s01 - s23
            p[t + 3 * h] = d01 - d23


@numba.njit(cache=True, inline="always", boundscheck=False)
def _butterfly8(x0, x1, x2, x3, x4, x5, x6, x7):
    """The length-8 Walsh-Hadamard transform of ``(x0, ..., x7)`` (three butterfly stages, in registers): the one
    sequence of additions of :func:`_radix8` and :func:`_influence_top`."""
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
    return b0 + b4, b1 + b5, b2 + b6, b3 + b7, b0 - b4, b1 - b5, b2 - b6, b3 - b7


@numba.njit(cache=True, inline="always", boundscheck=False)
def _scaled_squares8(y0, y1, y2, y3, y4, y5, y6, y7, scale):
    """``(y_m * scale)**2`` for eight coefficients (one multiplication each, then the square): the squares that
    :func:`_influence_kernel` and :func:`_influence_top` sum."""
    y0 = y0 * scale
    y1 = y1 * scale
    y2 = y2 * scale
    y3 = y3 * scale
    y4 = y4 * scale
    y5 = y5 * scale
    y6 = y6 * scale
    y7 = y7 * scale
    return y0 * y0, y1 * y1, y2 * y2, y3 * y3, y4 * y4, y5 * y5, y6 * y6, y7 * y7


@numba.njit(cache=True, inline="always", boundscheck=False)
def _radix8(a, start, length, h, check=False):
    # Stages h, 2h and 4h fused (radix 8) in registers. With check (the last
    # stage group), returns whether every output is finite (x - x is 0 exactly
    # for finite x), which finds an overflow without another pass.
    finite = True
    for i in range(start, start + length, 8 * h):
        p = a[i : i + 8 * h]
        for t in range(h):
            x0 = p[t]
            x1 = p[t + h]
            x2 = p[t + 2 * h]
            x3 = p[t + 3 * h]
            x4 = p[t + 4 * h]
            x5 = p[t + 5 * h]
            x6 = p[t + 6 * h]
            x7 = p[t + 7 * h]
            y0, y1, y2, y3, y4, y5, y6, y7 = _butterfly8(x0, x1, x2, x3, x4, x5, x6, x7)
            p[t] = y0
            p[t + h] = y1
            p[t + 2 * h] = y2
            p[t + 3 * h] = y3
            p[t + 4 * h] = y4
            p[t + 5 * h] = y5
            p[t + 6 * h] = y6
            p[t + 7 * h] = y7
            if check:
                zero = ((y0 - y0) + (y1 - y1)) + ((y2 - y2) + (y3 - y3))
                finite &= zero + (((y4 - y4) + (y5 - y5)) + ((y6 - y6) + (y7 - y7))) == 0.0
    return finite


@numba.njit(cache=True, boundscheck=False)
def _stages(a, start, length, h_lo, h_hi, first, src):
    # All stages h = h_lo, 2 h_lo, ... < h_hi over a[start:start+length]
    # (length is a multiple of h_hi; h_lo, h_hi are powers of two). From
    # h = 1 the first 6 (first = 64) or 7 (first = 128) stages run in
    # registers; the next in-cache stages get constant strides (literal
    # arguments of the inlined radix-8), which LLVM vectorises without
    # runtime checks. The register stages read src[start:start+length]: a
    # itself in place, or the table (of a's size) transformed into a.
    h = h_lo
    if h == 1 and first == 128 and h_hi >= 128:
        for i in range(start, start + length, 128):
            _stages_to_128(a, i, src)
        h = 128
        if h_hi >= 1024:
            _radix8(a, start, length, 128)
            h = 1024
        if h_hi >= 8192:
            _radix8(a, start, length, 1024)
            h = 8192
    if h == 1 and h_hi >= 64:
        for i in range(start, start + length, 64):
            _stages_to_64(a, i, src)
        h = 64
        if h_hi >= 512:
            _radix8(a, start, length, 64)
            h = 512
        if h_hi >= 4096:
            _radix8(a, start, length, 512)
            h = 4096
    while h < h_hi:
        if 8 * h <= h_hi:
            _radix8(a, start, length, h)
            h *= 8
        elif 4 * h <= h_hi:
            _radix4(a, start, length, h)
            h *= 4
        else:
            _radix2(a, start, length, h)
            h *= 2


@numba.njit(cache=True, boundscheck=False)
def _fwht_core(src, out, block_bits, skip_top):
    """Unnormalised WHT of ``src`` written into ``out`` (may be ``src`` itself).

    Depth first, in one sweep over the blocks of ``B = 2**block_bits``
    elements: copy a block from ``src`` to ``out`` and run every stage
    ``h < B`` on it while it sits in L1 (stages 1..32 in vector registers,
    then radix 8; with ``block_bits = 12`` and ``n = 13 + 3k`` the block is
    ``2**13``, in L2, and stages 1..64 run in registers, so that no radix-2
    or -4 remainder is left). Above the block, the stages come in groups (radix 2 or 4
    for the remainder first, then radix 8): as soon as the last block of a
    span of ``B * 2**g`` elements is done, that group's stages run over the
    span, which is still in L1, L2 or L3 for all but the largest spans. Each
    level of the recursion costs one pass over its span, so a transform much
    larger than the caches sweeps main memory about twice.

    Every output is produced by exactly the additions of the textbook
    iterative butterfly (h = 1, 2, 4, ...), only reordered across independent
    elements, so the result is bitwise identical to it, deterministic, and
    independent of the CPU's vector width (no fastmath, no FMA contraction).

    Returns False if ``src`` holds a NaN or an infinity or the transform
    overflows, instead of separate passes over the input and the output: a
    non-finite value makes both outputs of every butterfly it reaches
    non-finite, so after the in-block stages every element of a block with a
    non-finite input is, and the kernel looks at the first; and every output
    of a transform that overflowed anywhere is non-finite or not, as it
    leaves the last stage group, which checks each output it writes (a
    radix-8 group; below ``2**15``, where the last group is not, a scan of
    the output, in cache).

    With ``skip_top`` the last stage group above the block is left out:
    :func:`_influence_top` runs it (a radix-8 group at the sizes
    :func:`_influences_into` transforms) fused with the squares, without
    writing its outputs.
    """
    N = src.size
    n = 0
    while (1 << n) < N:
        n += 1
    bb = min(block_bits, n)
    first = 64
    if block_bits == 12 and n >= 13 and (n - 13) % 3 == 0:
        # 13 = 7 + 3 + 3 in-block stages leave a multiple of 3 above the block.
        bb = 13
        first = 128
    B = 1 << bb
    same = src.ctypes.data == out.ctypes.data
    # Stage groups above the block: the remainder (1 or 2 stages) first, then
    # radix 8; spans[k] is the span of group k's butterflies.
    rem = n - bb
    ng = (rem + 2) // 3
    gbits = np.full(ng, 3, dtype=np.int64)
    if ng and rem % 3:
        gbits[0] = rem % 3
    spans = np.empty(ng + 1, dtype=np.int64)
    spans[0] = B
    for k in range(ng):
        spans[k + 1] = spans[k] << gbits[k]
    finite = True
    checked = ng > 0 and gbits[ng - 1] == 3 and not skip_top
    for s in range(0, N, B):
        if not same and B < 64:  # else the register stages read src
            d = out[s : s + B]
            q = src[s : s + B]
            for t in range(B):
                d[t] = q[t]
        _stages(out, s, B, 1, B, first, src if B >= 64 else out)
        x = out[s]
        finite &= x - x == 0.0
        end = s + B
        for k in range(ng):
            span = spans[k + 1]
            if end % span or (skip_top and k == ng - 1):
                break
            row = spans[k]
            if gbits[k] == 3 and checked and k == ng - 1:
                finite &= _radix8(out, end - span, span, row, True)
            elif gbits[k] == 3:
                _radix8(out, end - span, span, row)
            elif gbits[k] == 2:
                _radix4(out, end - span, span, row)
            else:
                _radix2(out, end - span, span, row)
    if not (checked or skip_top):
        for t in range(N):
            finite &= out[t] - out[t] == 0.0
    return finite


@numba.njit(cache=True, boundscheck=False)
def _fwht_into(src, out, block_bits):
    # The whole transform (see _fwht_core).
    return _fwht_core(src, out, block_bits, False)


@numba.njit(cache=True, boundscheck=False)
def _influence_top(a, n, width, e, top_only):
    """Run the top three stages of ``a`` fused with :func:`_influence_kernel`'s sums, writing nothing back.

    ``a`` (length ``N = 2**n``, ``n >= 3``) has had every stage ``h < N / 8``.
    The radix-8 butterfly over ``a[t + m * N / 8]``, ``m = 0..7``, gives the
    coefficients ``y_m(t)`` with exactly the additions of :func:`_radix8`; their
    scaled squares go into ``column[m, t % W]`` (``W = width``, or ``N / 8`` if
    smaller) and their sum over ``m`` into ``tile[t // W]`` (eight lanes, added
    in a fixed order). Bit ``i`` of the coefficient index is bit ``i`` of ``t``
    for ``i < n - 3`` (a sum over columns below ``W``, over tiles above) and
    bit ``i - n + 3`` of ``m`` otherwise. The spectrum is never stored: this
    pass only reads ``a``. Each coefficient is scaled by ``2**-e`` before it
    is squared (exact, barring underflow). With ``top_only`` only the three
    top bits are wanted: the tile sums are skipped and the other entries are
    meaningless. Fixed order, so deterministic.
    """
    h = a.size >> 3
    W = min(width, h)
    wb = 0
    while (1 << wb) < W:
        wb += 1
    nt = h // W
    scale = 2.0**-e
    # Rows W + 24 apart: with W a power of two, the eight columns (and q)
    # would share their L1 sets and their 4 KiB aliases with the inputs.
    column = np.zeros((9, W + 24))[:, :W]
    tile = np.zeros(nt)
    for k in range(nt):
        _tile_squares(a, k * W, h, column, scale)
        if not top_only:
            tile[k] = _lane_sum(column[8])
    return _coordinate_sums(column, tile, n, wb)


# _influence_top's steps, inlined into it: LLVM then optimises the butterflies' loop together with the columns it
# allocates (called as a function of its own, the loop runs slower)
@numba.njit(cache=True, inline="always", boundscheck=False)
def _tile_squares(a, t0, h, column, scale):
    """One tile of :func:`_influence_top`: the radix-8 butterflies of ``a[t0 + t + m h]`` (``m = 0..7``, ``t < W``),
    each coefficient's scaled square added into ``column[m, t]`` and their sum over ``m`` written to ``column[8, t]``."""
    W = column.shape[1]
    p0 = a[t0 : t0 + W]
    p1 = a[t0 + h : t0 + h + W]
    p2 = a[t0 + 2 * h : t0 + 2 * h + W]
    p3 = a[t0 + 3 * h : t0 + 3 * h + W]
    p4 = a[t0 + 4 * h : t0 + 4 * h + W]
    p5 = a[t0 + 5 * h : t0 + 5 * h + W]
    p6 = a[t0 + 6 * h : t0 + 6 * h + W]
    p7 = a[t0 + 7 * h : t0 + 7 * h + W]
    q = column[8]
    c0 = column[0]
    c1 = column[1]
    c2 = column[2]
    c3 = column[3]
    c4 = column[4]
    c5 = column[5]
    c6 = column[6]
    c7 = column[7]
    for t in range(W):
        x0 = p0[t]
        x1 = p1[t]
        x2 = p2[t]
        x3 = p3[t]
        x4 = p4[t]
        x5 = p5[t]
        x6 = p6[t]
        x7 = p7[t]
        y0, y1, y2, y3, y4, y5, y6, y7 = _butterfly8(x0, x1, x2, x3, x4, x5, x6, x7)
        s0, s1, s2, s3, s4, s5, s6, s7 = _scaled_squares8(y0, y1, y2, y3, y4, y5, y6, y7, scale)
        c0[t] += s0
        c1[t] += s1
        c2[t] += s2
        c3[t] += s3
        c4[t] += s4
        c5[t] += s5
        c6[t] += s6
        c7[t] += s7
        q[t] = ((s0 + s1) + (s2 + s3)) + ((s4 + s5) + (s6 + s7))


@numba.njit(cache=True, inline="always", boundscheck=False)
def _lane_sum(q):
    """The sum of ``q`` (a tile's row of squares) in a fixed order: eight lanes, added pairwise at the end, when ``q``
    has eight entries or more (a power of two), else one running sum."""
    W = q.size
    if W >= 8:
        l0 = l1 = l2 = l3 = l4 = l5 = l6 = l7 = 0.0
        for u in range(0, W, 8):
            r = q[u : u + 8]
            l0 += r[0]
            l1 += r[1]
            l2 += r[2]
            l3 += r[3]
            l4 += r[4]
            l5 += r[5]
            l6 += r[6]
            l7 += r[7]
        return ((l0 + l1) + (l2 + l3)) + ((l4 + l5) + (l6 + l7))
    acc = 0.0
    for u in range(W):
        acc += q[u]
    return acc


@numba.njit(cache=True, inline="always", boundscheck=False)
def _coordinate_sums(column, tile, n, wb):
    """:func:`_influence_top`'s ``n`` sums: over ``m`` with bit ``j`` set for the top three bits, over the columns
    ``t`` (``2**wb`` of them) with bit ``i`` set below ``wb``, over the tiles with bit ``i - wb`` set in between."""
    W = column.shape[1]
    nt = tile.size
    out = np.zeros(n)
    low = np.zeros(W)
    for m in range(8):
        cm = column[m]
        total = 0.0
        for t in range(W):
            low[t] += cm[t]
            total += cm[t]
        for j in range(3):
            if (m >> j) & 1:
                out[n - 3 + j] += total
    for i in range(wb):
        acc = 0.0
        for t in range(W):
            if (t >> i) & 1:
                acc += low[t]
        out[i] = acc
    for i in range(wb, n - 3):
        acc = 0.0
        for k in range(nt):
            if (k >> (i - wb)) & 1:
                acc += tile[k]
        out[i] = acc
    return out


@numba.njit(cache=True, boundscheck=False)
def _influences_into(src, scratch, block_bits, width):
    """All ``n`` influences of the table ``src`` (``n >= 18``), reading it twice and writing only ``scratch``.

    Parseval on part of the coordinates: if ``P_G`` is the unnormalised
    transform over a set ``G`` of ``g`` coordinates only, the transform over
    the others multiplies sums of squares over them by ``2**(n - g)``, so for
    ``i`` in ``G``

        Inf_i(f) = 4**-n sum_{T ni i} F(T)^2 = 2**(-n-g) sum_{j : bit i of j} (P_G f)(j)^2.

    With ``G`` the low ``n - 3`` bits, ``P_G f`` is the transform of each
    eighth of the table: :func:`_fwht_core` writes it into ``scratch`` (length
    ``2**(n-3)``, which stays in the last-level cache) without its top stage
    group, which :func:`_influence_top` runs fused with the squares. With
    ``G`` the top 3 bits, ``P_G f`` is one radix-8 butterfly across the
    eighths, which :func:`_influence_top` reads without storing. No array of
    the table's size is allocated (fresh pages cost about as much as a copy).
    Returns ``(finite, influences)`` (``finite`` as in :func:`_fwht_core`).

    Fixed summation order, so deterministic. Exact on ±1 tables up to
    ``n = 28``: every ``(P_G f)(j)`` is an integer, scaled by a power of two,
    and every partial sum is an integer multiple of ``2**(-2e)`` below
    ``2**53`` of them.
    """
    N = src.size
    n = 0
    while (1 << n) < N:
        n += 1
    h = N >> 3
    n1 = n - 3
    out = np.zeros(n)
    finite = True
    # Low n - 3 bits, g = n - 3: scale 2**-(n - 1) before squaring, then 2**(2(n-1) - n - g) = 2.
    for m in range(8):
        finite &= _fwht_core(src[m * h : (m + 1) * h], scratch, block_bits, True)
        part = _influence_top(scratch, n1, width, n - 1, False)
        for i in range(n1):
            out[i] += part[i]
    for i in range(n1):
        out[i] *= 2.0
    # Top 3 bits, g = 3: scale 2**-e, e = ceil((n + 3) / 2), then 2**(2e - n - 3) (1 or 2).
    e = (n + 4) // 2
    top = _influence_top(src, n, width, e, True)
    for i in range(n1, n):
        out[i] = top[i] * 2.0 ** (2 * e - n - 3)
    return finite, out


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


def _as_table(values, name: str = "values", check_finite: bool = True) -> tuple[np.ndarray, int]:
    """Validate a truth table; return it as C-contiguous float64 and its ``n``.

    ``check_finite=False`` leaves the NaN/inf check to the caller: the
    transform kernel makes it while each block is in cache (:func:`_transform`).
    """
    arr = as_real_array(values, name)
    if arr.ndim != 1:
        raise ValueError(f"{name} must be a one-dimensional truth table of length 2**n, got shape {arr.shape}")
    size = arr.shape[0]
    if size == 0 or size & (size - 1):
        raise ValueError(f"{name} must have length 2**n for some n >= 0, got length {size}")
    check_memory(8 * size, f"a float64 truth table of length {size}")  # a copy or a transform's output, at least
    arr = np.ascontiguousarray(arr, dtype=np.float64)
    if check_finite and not np.isfinite(arr).all():
        raise ValueError(_not_finite(name))
    return arr, size.bit_length() - 1


def _not_finite(name: str) -> str:
    return f"{name} must contain only finite values (found NaN or inf)"


def _transform(src: np.ndarray, out: np.ndarray, in_place: bool, name: str = "values") -> bool:
    # The WHT of a C-contiguous float64 table into out (src's own buffer if
    # in_place, else a separate array); returns whether it is finite. The
    # kernel checks (see _fwht_core: False means a NaN or inf in the table, or
    # overflow); a non-finite table is refused here, and an overflow out of
    # place left to the caller. Out of place the table is first copied with
    # numpy, which is faster than the kernel's fused copy into fresh pages.
    if not in_place:
        np.copyto(out, src)
    if _fwht_into(out, out, _BLOCK_BITS):
        return True
    if in_place:
        raise ValueError(_not_finite(name)[:-1] + ", or so large that the transform overflows)")
    if not np.isfinite(src).all():
        raise ValueError(_not_finite(name))
    return False


def _check_rho(rho) -> tuple[np.ndarray, bool]:
    """``rho`` in ``[-1, 1]`` as an array, and whether it was a scalar."""
    arr = check_rho(rho, include_one=True)
    return arr, arr.ndim == 0


# ---------------------------------------------------------------------------
# Exact spectrum
# ---------------------------------------------------------------------------


#: The refusal of a transform of a finite table that overflowed float64 (never a silent inf).
_OVERFLOW = "the transform of values exceeds float64: rescale the table"


def fwht(values, out: np.ndarray | None = None) -> np.ndarray:
    """Unnormalised Walsh-Hadamard transform of a truth table.

    ``out[T] = sum_j values[j] * (-1)**popcount(T & j)``, i.e. with the
    hypercube order of :mod:`sparseact.cube`, ``out[T] = 2**n fhat(T)``.

    The transform runs in place (on ``out``, after a copy of ``values`` unless
    ``out`` is ``values``) in a cache-blocked, depth-first, radix-8 numba
    kernel, with the checks for NaN and inf fused into its first pass and for
    overflow into its last. It performs exactly the additions of the textbook
    iterative butterfly (stages ``h = 1, 2, 4, ...``), so results are
    deterministic and bitwise reproducible, whatever the CPU's vector width.

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
        If ``values`` is not a 1-D finite real array of power-of-two length, its
        transform exceeds float64, or ``out`` is unsuitable. NaN and inf are found during the transform, so
        ``out`` (which may be ``values`` itself) has been overwritten then.

    Examples
    --------
    >>> fwht([1.0, 0.0, 0.0, 0.0])
    array([1., 1., 1., 1.])
    """
    src, _ = _as_table(values, check_finite=False)
    if out is None:
        out = np.empty_like(src)
        in_place = False
    else:
        in_place = _check_out(out, src)
    if not _transform(src, out, in_place):
        raise ValueError(_OVERFLOW)
    return out


def _check_out(out, src: np.ndarray) -> bool:
    """Validate ``out`` as a destination for the transform of the table ``src``; return whether it is ``src`` itself.

    In place if ``out`` is ``src``'s own buffer: usually the very table just
    validated (a 1-D C-contiguous float64 array of the right shape, so only
    writeable is left to check); another view of it (the same start, as both
    are C-contiguous of one shape) is found through the overlap, and any other
    overlap is refused. Addresses are read only then (``ndarray.ctypes`` costs
    about 1.5 us, a few per cent of a small transform).
    """
    in_place = out is src
    if not in_place:
        if not isinstance(out, np.ndarray):
            raise ValueError("out must be a numpy array")
        if out.dtype != np.float64 or out.ndim != 1 or not out.flags.c_contiguous:
            raise ValueError(
                f"out must be a one-dimensional C-contiguous float64 array, got dtype {out.dtype}, shape {out.shape}"
            )
        if out.shape != src.shape:
            raise ValueError(f"out must have shape {src.shape}, got {out.shape}")
    if not out.flags.writeable:
        raise ValueError("out must be writeable")
    if not in_place and np.shares_memory(out, src):
        if out.ctypes.data != src.ctypes.data:
            raise ValueError("out overlaps values without being the same array")
        in_place = True
    return in_place


def fwht_reference(values) -> np.ndarray:
    """Plain-numpy Walsh-Hadamard butterfly (stages ``h = 1, 2, 4, ...``), out of place.

    Same arithmetic as :func:`fwht`, so the two agree bitwise; it is the
    straightforward implementation that tests and ``benchmarks/bench_fwht.py``
    compare against.
    """
    a, _ = _as_table(values)
    a = a.copy()
    h = 1
    with np.errstate(over="ignore"):  # an overflow is refused below
        while h < a.size:
            a3 = a.reshape(-1, 2, h)
            x = a3[:, 0, :].copy()
            y = a3[:, 1, :]
            a3[:, 0, :] += y
            np.subtract(x, y, out=a3[:, 1, :])
            h *= 2
    if not np.isfinite(a).all():
        raise ValueError(_OVERFLOW)
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


def _coefficients(src: np.ndarray, n: int, out: np.ndarray | None = None) -> np.ndarray:
    # fhat for an already validated C-contiguous float64 table, into out (a
    # validated buffer apart from src) or a fresh copy.
    if out is None:
        out = src.copy()
    else:
        np.copyto(out, src)
    _fwht_into(out, out, _BLOCK_BITS)
    out *= 2.0**-n
    return out


def _squares(compute: Callable[[np.ndarray], np.ndarray], src: np.ndarray, what: str) -> np.ndarray:
    """``compute(src)`` for a ``compute`` homogeneous of degree 2 in the table ``src`` (finite, or NaN and inf
    refused by ``compute``): when a transform or a square overflows on the way, the table is scaled by a power of two
    to at most 1 in absolute value and the result scaled back, both exact, so that a result float64 can hold is
    returned whatever the table's magnitude.

    Raises
    ------
    ValueError
        When the result itself exceeds float64 (``what`` names it).
    """
    with np.errstate(over="ignore", invalid="ignore"):
        out = compute(src)
        if np.isfinite(out).all():
            return out
        if not np.isfinite(src).all():
            raise ValueError(_not_finite("values"))
        shift = int(np.frexp(np.abs(src).max())[1])
        out = np.ldexp(compute(np.ldexp(src, -shift)), 2 * shift)
    if not np.isfinite(out).all():
        raise ValueError(
            f"{what} exceeds float64 (the table's largest |value| is {np.abs(src).max():.3g}): rescale the truth table"
        )
    return out


def level_weights(values, out: np.ndarray | None = None) -> np.ndarray:
    """Fourier weight at each level, ``W^t(f) = sum_{|T| = t} fhat(T)^2``.

    Parameters
    ----------
    values : array_like, shape (2**n,)
        Truth table.
    out : ndarray of float64, shape (2**n,), optional
        C-contiguous, writeable scratch apart from ``values``; it receives the
        table's Walsh coefficients (overwritten). A caller that computes level
        weights again and again passes one buffer to every call, instead of
        each call faulting in a fresh copy of the table.

    Returns
    -------
    ndarray of float64, shape (n + 1,)
        Entry ``t`` is ``W^t(f)``; by Parseval (Claim 2.1) the entries sum to ``||f||_2^2``.

    Raises
    ------
    ValueError
        For a table that is not one, holds NaN or inf, or whose level weights exceed float64 (:func:`_squares`), or
        an unsuitable ``out`` (as in :func:`fwht`, and never ``values`` itself).
    """
    src, n = _as_table(values, check_finite=False)  # NaN and inf: _squares looks at the table
    if out is not None and _check_out(out, src):
        raise ValueError("out must not be values itself (it receives the Walsh coefficients)")
    return _squares(lambda table: _weights(table, n, out), src, "a level weight")


def _weights(src: np.ndarray, n: int, out: np.ndarray | None = None) -> np.ndarray:
    """:func:`level_weights` of a validated finite table (coefficients into ``out``, see :func:`_coefficients`),
    non-finite where the transform or a square overflows."""
    return _level_weights_kernel(_coefficients(src, n, out), n)


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

    Raises
    ------
    ValueError
        For a table that is not one, holds NaN or inf, or whose tail exceeds float64 (:func:`_squares`).
    """
    d = check_int(d, "d", 0)
    src, n = _as_table(values)
    return float(_squares(lambda table: _weights(table, n)[d + 1 :].sum(keepdims=True), src, "the tail")[0])


# ---------------------------------------------------------------------------
# Sensitivity
# ---------------------------------------------------------------------------


@numba.njit(cache=True, boundscheck=False)
def _influence_kernel(spectrum, n, block_bits):
    """``out[i] = sum_{T : bit i of T set} (spectrum[T] / 2**n)**2`` in one pass.

    Blockwise over blocks of ``B = 2**block_bits`` coefficients: ``column[t]``
    accumulates the squares at offset ``t`` of every block and ``block[k]``
    the squares of block ``k`` (eight lanes, added in a fixed order). A low
    bit ``i`` is then a sum over the ``B / 2`` columns with bit ``i`` set, a
    high bit one over the blocks. Fixed summation order, so deterministic;
    exact whenever every partial sum of ``spectrum[T]**2`` is an integer below
    2**53 (Walsh spectra of ±1 tables up to ``n = 26``), since ``/ 2**n`` is
    exact.
    """
    N = spectrum.size
    bb = min(block_bits, n)
    B = 1 << bb
    nb = N // B
    scale = 2.0**-n
    column = np.zeros(B)
    block = np.empty(nb)
    for k in range(nb):
        p = spectrum[k * B : (k + 1) * B]
        if B >= 8:
            # Eight lanes in scalars (LLVM keeps them in one vector register).
            l0 = l1 = l2 = l3 = l4 = l5 = l6 = l7 = 0.0
            for t0 in range(0, B, 8):
                q = p[t0 : t0 + 8]
                c = column[t0 : t0 + 8]
                s0, s1, s2, s3, s4, s5, s6, s7 = _scaled_squares8(q[0], q[1], q[2], q[3], q[4], q[5], q[6], q[7], scale)
                c[0] += s0
                c[1] += s1
                c[2] += s2
                c[3] += s3
                c[4] += s4
                c[5] += s5
                c[6] += s6
                c[7] += s7
                l0 += s0
                l1 += s1
                l2 += s2
                l3 += s3
                l4 += s4
                l5 += s5
                l6 += s6
                l7 += s7
            block[k] = ((l0 + l1) + (l2 + l3)) + ((l4 + l5) + (l6 + l7))
        else:
            acc = 0.0
            for t in range(B):
                y = p[t] * scale
                sq = y * y
                column[t] += sq
                acc += sq
            block[k] = acc
    out = np.zeros(n)
    for i in range(bb):
        acc = 0.0
        for t in range(B):
            if (t >> i) & 1:
                acc += column[t]
        out[i] = acc
    for i in range(bb, n):
        acc = 0.0
        for k in range(nb):
            if (k >> (i - bb)) & 1:
                acc += block[k]
        out[i] = acc
    return out


def influences(values) -> np.ndarray:
    """Influences ``Inf_i(f) = E_x[(1/4)(f(x) - f(x^{(+)i}))^2]``, ``i = 1..n``.

    This is the per-coordinate term of the paper's l2 sensitivity
    ``sen_f(x) = (1/4) sum_i (f(x) - f(x^{(+)i}))^2`` (Section 2.1), valid for
    real-valued ``f``; for ``f`` into {-1, 1} it is ``Pr_x[f(x) != f(x^{(+)i})]``.
    Computed spectrally, ``Inf_i(f) = sum_{T : i in T} fhat(T)^2``. Below
    ``n = 18``: one :func:`fwht` and one pass over the spectrum that
    accumulates all ``n`` sums. From ``n = 18`` on, by Parseval on part of the
    coordinates (:func:`_influences_into`): the transforms of the table's
    eighths, each in a scratch of an eighth of its size, and one radix-8
    butterfly across the eighths, each fused with the squares; the table is
    read twice and no array of its size is allocated (about 1.3 in-place
    transforms, 0.8 out-of-place ones, at ``n = 22`` and ``24``).
    Deterministic (fixed summation order); exact for ±1 tables up to
    ``n = 26`` (every partial sum is an integer multiple of a power of two
    below ``2**53`` of them).

    Parameters
    ----------
    values : array_like, shape (2**n,)
        Truth table.

    Returns
    -------
    ndarray of float64, shape (n,)
        ``out[i - 1] = Inf_i(f)`` (column ``i - 1`` of the hypercube is ``x_i``).

    Raises
    ------
    ValueError
        For a table that is not one, holds NaN or inf, or whose influences exceed float64 (:func:`_squares`).
    """
    src, n = _as_table(values, check_finite=False)
    return _squares(lambda table: _influences(table, n), src, "an influence")


def _influences(src: np.ndarray, n: int) -> np.ndarray:
    """:func:`influences` of a validated table, non-finite where a transform or a square overflows."""
    if n < _PARSEVAL_MIN_N:
        spectrum = np.empty_like(src)
        _transform(src, spectrum, in_place=False)  # an overflow makes some influences inf (see _squares)
        return _influence_kernel(spectrum, n, _BLOCK_BITS)
    finite, out = _influences_into(src, np.empty(src.size >> 3), _BLOCK_BITS, _INFLUENCE_WIDTH)
    if not finite and not np.isfinite(src).all():
        raise ValueError(_not_finite("values"))
    return out if finite else np.full(n, np.inf)


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

    Raises
    ------
    ValueError
        For a table that is not one, holds NaN or inf, or whose ``AS(f)`` exceeds float64 (:func:`_squares`).
    """
    src, n = _as_table(values, check_finite=False)
    return float(_squares(lambda table: _influences(table, n).sum(keepdims=True), src, "the average sensitivity")[0])


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
    res = _noise_sensitivity(w, r)
    return float(res) if scalar else res


def _noise_sensitivity(w: np.ndarray, r: np.ndarray) -> np.ndarray:
    """``NS_rho`` for each of the correlations ``r`` from the level weights ``w`` (``W^0`` unread)."""
    n = w.shape[0] - 1
    if n == 0:
        return np.zeros(r.shape)
    return 0.5 * (_one_minus_rho_pow(r, np.arange(1, n + 1, dtype=np.float64)) @ w[1:])


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

    Raises
    ------
    ValueError
        For a table that is not one, holds NaN or inf, or whose ``NS_rho`` exceeds float64 (:func:`_squares`).
    """
    r, scalar = _check_rho(rho)  # validate before the (possibly large) transform
    src, n = _as_table(values)
    res = _squares(lambda table: _noise_sensitivity(_weights(table, n), r), src, "the noise sensitivity")
    return float(res) if scalar else res


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
    """Mean and sum of squared deviations, merged chunk by chunk (Chan et al.).

    Finite values of ``f`` can still overflow a sample or its variance (``f = +-1e308``): that is refused with
    :func:`~sparseact._validation.overflow_error` naming ``what`` and the largest ``|f|`` seen, never returned as
    ``inf`` or ``NaN``.
    """

    def __init__(self, what: str) -> None:
        self.what = what
        self.count = 0
        self.mean = 0.0
        self.m2 = 0.0
        self.f_max = 0.0

    def add_gaps(self, y0: np.ndarray, y1: np.ndarray, factor: float = 1.0) -> None:
        """Add the samples ``factor (1/4)(y0 - y1)^2`` of two arrays of values of ``f`` (summed along rows if 2-D)."""
        self.f_max = max(self.f_max, float(np.abs(y0).max(initial=0.0)), float(np.abs(y1).max(initial=0.0)))
        with np.errstate(over="ignore", invalid="ignore"):
            samples = factor * 0.25 * np.square(y0 - y1)
            samples = samples.sum(axis=1) if samples.ndim == 2 else samples
            m = samples.size
            mean_b = float(samples.mean())
            m2_b = float(np.square(samples - mean_b).sum())
            total = self.count + m
            delta = mean_b - self.mean
            self.mean += delta * m / total
            self.m2 += m2_b + delta * delta * self.count * m / total
        self.count = total
        if not (math.isfinite(self.mean) and math.isfinite(self.m2)):
            raise overflow_error(self.what, {"max |f|": self.f_max})

    def estimate(self, confidence: float, method: str) -> MonteCarloEstimate:
        var = self.m2 / (self.count - 1)
        half = clt_half_width(math.sqrt(var), self.count, confidence)
        ci_low, ci_high = self.mean - half, self.mean + half
        check_finite_result([ci_low, ci_high], self.what, {"max |f|": self.f_max})
        return MonteCarloEstimate(
            estimate=self.mean,
            ci_low=ci_low,
            ci_high=ci_high,
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


def _check_mc_size(n_samples: int, per: int, points: int, n: int, what: str) -> None:
    """Refuse, giving the size, a run over :data:`MAX_MC_ENTRIES` or a batch over the memory limit.

    ``points`` is the number of points per sample (``n + 1`` or 2); a batch holds ``per`` samples.
    """
    check_work(
        n_samples * points * n, "MAX_MC_ENTRIES", f"{what} with n = {n}, n_samples = {n_samples}", "point entries"
    )
    check_memory(
        8.0 * min(per, n_samples) * points * n,
        f"{what}: a batch of {min(per, n_samples)} samples of {points} points in n = {n} dimensions",
    )


def _evaluate(f, X: np.ndarray) -> np.ndarray:
    y = np.asarray(f(X), dtype=np.float64)
    if y.shape != (X.shape[0],):
        raise ValueError(
            f"f must map an ({X.shape[0]}, {X.shape[1]}) array to shape ({X.shape[0]},), got shape {y.shape}"
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

    Raises
    ------
    ValueError
        For arguments outside the ranges above; before anything is drawn, when all the samples' points
        exceed :data:`sparseact._validation.MAX_MC_ENTRIES` entries or one batch of them
        :data:`sparseact._validation.MEMORY_LIMIT_BYTES` (the message gives the size).
    """
    n, n_samples, confidence, chunk_size = _check_mc_args(f, n, n_samples, rng, confidence, chunk_size)
    if method not in ("all_coordinates", "random_coordinate"):
        raise ValueError(f"method must be 'all_coordinates' or 'random_coordinate', got {method!r}")
    acc = _RunningMoments(f"average_sensitivity_mc ({method})")
    if method == "all_coordinates":
        per = chunk_size or max(1, _MC_BATCH_ENTRIES // ((n + 1) * n))
        _check_mc_size(n_samples, per, n + 1, n, "average_sensitivity_mc")
        for start in range(0, n_samples, per):
            m = min(per, n_samples - start)
            x = _uniform_points(rng, m, n)
            X = np.repeat(x[:, None, :], n + 1, axis=1)  # (m, n+1, n)
            idx = np.arange(n)
            X[:, idx + 1, idx] *= -1.0  # slot i+1 is x^{(+)(i+1)}
            y = _evaluate(f, X.reshape(m * (n + 1), n)).reshape(m, n + 1)
            acc.add_gaps(y[:, 1:], y[:, :1])
    else:
        per = chunk_size or max(1, _MC_BATCH_ENTRIES // (2 * n))
        _check_mc_size(n_samples, per, 2, n, "average_sensitivity_mc")
        for start in range(0, n_samples, per):
            m = min(per, n_samples - start)
            x = _uniform_points(rng, m, n)
            i = rng.integers(0, n, size=m)
            xf = x.copy()
            xf[np.arange(m), i] *= -1.0
            y = _evaluate(f, np.concatenate([x, xf]))
            acc.add_gaps(y[:m], y[m:], n)
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

    Raises
    ------
    ValueError
        As for :func:`average_sensitivity_mc` (arguments, work and memory limits).
    """
    n, n_samples, confidence, chunk_size = _check_mc_args(f, n, n_samples, rng, confidence, chunk_size)
    r, scalar = _check_rho(rho)
    if not scalar:
        raise ValueError("noise_sensitivity_mc takes a scalar rho")
    p_flip = (1.0 - float(r)) / 2.0
    acc = _RunningMoments("noise_sensitivity_mc")
    per = chunk_size or max(1, _MC_BATCH_ENTRIES // (2 * n))
    _check_mc_size(n_samples, per, 2, n, "noise_sensitivity_mc")
    for start in range(0, n_samples, per):
        m = min(per, n_samples - start)
        x = _uniform_points(rng, m, n)
        flips = rng.random((m, n)) < p_flip
        y_pts = np.where(flips, -x, x)
        y = _evaluate(f, np.concatenate([x, y_pts]))
        acc.add_gaps(y[:m], y[m:])
    return acc.estimate(confidence, f"noise_pairs(rho={float(r)!r})")
