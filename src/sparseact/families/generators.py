"""Families of ``k``-sparse networks of ``H_{n,s,k}^{W,B}``: random directions at the densest threshold, junta buckets.

The measurements of Lemma 9 and Lemma 10 run on these networks (notation as in
:mod:`sparseact.families`). Every function draws from the
:class:`numpy.random.Generator` it is given alone.
"""

from __future__ import annotations

import math

import numpy as np

from sparseact._validation import check_int, check_memory
from sparseact.families._common import _MARGIN, _nsk, _rng, _rows_per_chunk, _uniform_chunks, _with_margin
from sparseact.families.certify import EXACT_MAX_N, densest_threshold
from sparseact.networks import SparseReLUNetwork

__all__ = ["WEIGHT_KINDS", "bucket_network", "random_sparse_network"]

#: Weight distributions of :func:`random_sparse_network`.
WEIGHT_KINDS = ("gaussian", "sign", "sparse")


def _random_directions(n: int, s: int, rng: np.random.Generator, weights: str) -> np.ndarray:
    if weights == "gaussian":
        return rng.standard_normal((s, n))
    if weights == "sign":
        return 1.0 - 2.0 * rng.integers(0, 2, size=(s, n)).astype(np.float64)
    if weights == "sparse":
        m = max(1, round(math.sqrt(n)))
        Wmat = np.zeros((s, n))
        for j in range(s):
            support = rng.choice(n, size=m, replace=False)
            Wmat[j, support] = rng.standard_normal(m)
        return Wmat
    raise ValueError(f"weights must be one of {WEIGHT_KINDS}, got {weights!r}")


def random_sparse_network(
    n: int, s: int, k: int, rng, weights: str = "gaussian", n_samples: int = 100_000
) -> SparseReLUNetwork:
    """A random network made k-sparse by the densest common normalised threshold.

    ``w_j`` are random directions, ``u_j`` independent uniform signs and
    ``b_j = t ||w_j||_2`` with one ``t`` for all neurons (neuron ``j`` is active
    iff ``<w_j, x>/||w_j|| > t``). ``t`` is the smallest value for which the
    network is ``k``-sparse, ``t* = max_x (k+1)-th largest <w_j, x>/||w_j||``
    (:func:`densest_threshold`; one pass, no bisection), plus a relative safety
    margin of ``1e-9`` so that the strict inequality is robust to rounding:
    any ``t`` below ``t*`` breaks ``k``-sparsity. When ``k == s`` there is no
    constraint and ``t`` is just below ``-max_j ||w_j||_1/||w_j||_2`` (all
    neurons active on the whole cube: ``h`` is affine there).

    For ``n <= EXACT_MAX_N`` the maximum is over the whole cube and the result
    is verified with :meth:`SparseReLUNetwork.max_active` (``t`` is raised
    further in the unlikely case that fails), so
    ``certify_sparsity(net).max_active <= k`` is guaranteed. For larger ``n`` it
    is over ``n_samples`` uniform points drawn from ``rng``: k-sparsity then
    holds on those points only.

    Parameters
    ----------
    n, s, k : int
        Dimension, neurons, sparsity: ``n >= 1``, ``1 <= k <= s``.
    rng : numpy.random.Generator
    weights : {"gaussian", "sign", "sparse"}
        ``w_j`` with i.i.d. N(0, 1) entries; i.i.d. uniform signs; or N(0, 1)
        entries on a uniformly random support of ``round(sqrt(n))`` coordinates.
    n_samples : int, optional
        Sample size for ``n > EXACT_MAX_N``.

    Returns
    -------
    SparseReLUNetwork
        In ``H_{n,s,k}^{W,B}`` with ``W = max_j ||w_j||`` and
        ``B = |t| max_j ||w_j||`` (``||u||_inf = 1``).
    """
    n, s, k = _nsk(n, s, k)
    check_memory(8 * n * s, f"the {s} x {n} weight matrix")
    rng = _rng(rng)
    if weights not in WEIGHT_KINDS:
        raise ValueError(f"weights must be one of {WEIGHT_KINDS}, got {weights!r}")
    n_samples = check_int(n_samples, "n_samples")
    Wmat = _random_directions(n, s, rng, weights)
    u = 1.0 - 2.0 * rng.integers(0, 2, size=s).astype(np.float64)
    norms = np.linalg.norm(Wmat, axis=1)
    if k == s:
        t = -float(np.max(np.abs(Wmat).sum(axis=1) / norms))
        t = t - _MARGIN * max(1.0, abs(t))
        return SparseReLUNetwork(u, Wmat, t * norms)
    exact = n <= EXACT_MAX_N
    points = None
    if not exact:
        points = list(_uniform_chunks(rng, n_samples, n, _rows_per_chunk(s)))
    t = _with_margin(densest_threshold(Wmat, k, points))
    net = SparseReLUNetwork(u, Wmat, t * norms)
    if not exact:
        return net
    step = _MARGIN * max(1.0, abs(t))
    while net.max_active() > k:  # pragma: no cover - the margin dwarfs rounding
        t += step
        step *= 2.0
        net = SparseReLUNetwork(u, Wmat, t * norms)
    return net


def bucket_network(n: int, s: int, k: int, rng) -> SparseReLUNetwork:
    """``k`` independent Theorem-13 junta blocks: exactly ``k`` neurons active on every input.

    With ``p = floor(log2(s/k))``, ``k p`` distinct coordinates are drawn at
    random and split into ``k`` groups ``G_1, ..., G_k`` of ``p`` coordinates.
    Group ``g`` gets ``2^p`` neurons, one per pattern ``v`` in ``{-1, 1}^p``:
    ``w_j = v`` on ``G_g`` (zero elsewhere), ``b_j = p - 1``, so that, as in the
    proof of Theorem 13, ``sigma(<w_j, x> - p + 1) = 1{x_{G_g} = v}``
    (preactivation ``1`` on a match, ``<= -1`` otherwise). Exactly one neuron
    per group fires, hence exactly ``k`` on every ``x``. The remaining
    ``s - k 2^p`` neurons are fillers that never fire: ``w_j`` a random sign
    pattern on a random group's coordinates and ``b_j = p`` (preactivation
    ``<= 0``; ``0`` is inactive by the strict inequality). Output weights are
    independent uniform signs and the neurons are randomly permuted.

    ``h`` is then ``sum_g f_g(x_{G_g})`` for ``k`` random ``{-1, 1}``-valued
    ``p``-juntas ``f_g`` on disjoint coordinates, with
    ``W = sqrt(p)``, ``B = p`` (``p - 1`` without fillers): large average
    sensitivity per unit ``W^2``, a useful seed for :func:`adversarial_search`.

    Parameters
    ----------
    n, s, k : int
        Requires ``s >= 2k`` (so ``p >= 1``) and ``n >= k p``.
    rng : numpy.random.Generator

    Returns
    -------
    SparseReLUNetwork
    """
    n, s, k = _nsk(n, s, k)
    check_memory(8 * n * s, f"the {s} x {n} weight matrix")
    rng = _rng(rng)
    if s < 2 * k:
        raise ValueError(f"bucket_network needs s >= 2k (p = floor(log2(s/k)) >= 1), got s={s}, k={k}")
    p = (s // k).bit_length() - 1  # floor(log2(s/k)) for integers
    if n < k * p:
        raise ValueError(f"bucket_network needs n >= k*p = {k}*{p} = {k * p} distinct coordinates, got n={n}")
    coords = rng.permutation(n)[: k * p].reshape(k, p)
    patterns = 1.0 - 2.0 * ((np.arange(1 << p)[:, None] >> np.arange(p)[None, :]) & 1)
    Wmat = np.zeros((s, n))
    b = np.empty(s)
    row = 0
    for g in range(k):
        for v in patterns:
            Wmat[row, coords[g]] = v
            b[row] = p - 1
            row += 1
    for _ in range(s - row):
        g = int(rng.integers(k))
        Wmat[row, coords[g]] = 1.0 - 2.0 * rng.integers(0, 2, size=p)
        b[row] = p
        row += 1
    u = 1.0 - 2.0 * rng.integers(0, 2, size=s).astype(np.float64)
    order = rng.permutation(s)
    return SparseReLUNetwork(u[order], Wmat[order], b[order])
