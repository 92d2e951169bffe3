r"""Appendix B: the bucket coupling of eq. (17) in the proof of Lemma 10, both sides computed exactly.

The normalisations (Section 2.1: ``AS`` and ``NS_rho`` with the factor 1/4) are
those of :mod:`sparseact.sensitivity`.

Appendix B, eq. (17), see :func:`bucket_coupling_noise_sensitivity`.
    The bucket coupling produces ``(x, N_{rho_eff}(x))`` with
    ``rho_eff = 1 - 2/r``, ``r = floor(2/(1 - rho))``, **not** ``(x, N_rho(x))``
    (each coordinate flips iff its bucket is the chosen one: probability
    ``1/r = (1 - rho_eff)/2``). The displayed chain reads
    ``NS_rho(h) = E[(h(x)-h(y))^2] = (1/r) E sum_b E_v (H_z(v)-H_z(v^{(+)b}))^2
    = (1/r) E[AS(H_z)]``. Exactly:

    * line 1 lacks the 1/4 of Section 2.1: ``E[(h(x)-h(y))^2] = 4 NS(h)``;
    * line 2 equals line 1 exactly at ``rho_eff``;
    * ``sum_b E_v (H(v) - H(v^{(+)b}))^2 = 4 AS(H_z)``, so line 2 = 4 x line 3;
    * the two dropped factors 4 cancel: ``NS_{rho_eff}(h) = (1/r) E_{z,A}[AS(H_z)]``
      **holds exactly** (Section 2.1 normalisation on both sides);
      with the printed unnormalised left side it holds **up to the constant 4**;
    * at the given ``rho`` it holds exactly only when ``2/(1-rho)`` is an
      integer; for ``rho in [0, 1)`` the right side is ``NS_{rho_eff}(h) >=
      NS_rho(h)`` (so (17) is a valid *upper bound*, which is all Lemma 10
      needs), while for ``rho < 0`` (``r = 1``, ``rho_eff = -1``) it can be
      smaller than ``NS_rho(h)`` (e.g. ``h = 1{x_1 = x_2}``: right side 0): **not**
      even an inequality.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from sparseact._validation import check_confidence, check_rho, clt_half_width
from sparseact.analysis import MonteCarloEstimate, noise_sensitivity
from sparseact.cube import hypercube
from sparseact.networks import SparseReLUNetwork
from sparseact.sensitivity._common import _CHUNK_ENTRIES, _check_net

__all__ = ["MAX_BUCKETS", "BucketCouplingResult", "bucket_count", "bucket_coupling_noise_sensitivity"]

#: Largest ``r`` for which ``AS(H_z)`` is tabulated on {-1, 1}^r.
MAX_BUCKETS = 20
#: Budget ``(2r)^n * 2^r`` for the exact enumeration of Appendix B.
_EXACT_BUDGET = 1 << 22
#: Tolerance in ``r = floor(2/(1 - rho))`` so that e.g. ``rho = 1/3`` gives 3.
_FLOOR_TOL = 1e-9


def bucket_count(rho: float) -> int:
    """``r = floor(2 / (1 - rho))`` (Appendix B), with a 1e-9 tolerance so ``rho = 1/3`` gives 3."""
    rho = check_rho(rho, scalar=True)
    return math.floor(2.0 / (1.0 - rho) + _FLOOR_TOL)


@dataclass(frozen=True)
class BucketCouplingResult:
    r"""Both sides of Appendix B's eq. (17) (see :func:`bucket_coupling_noise_sensitivity`).

    Attributes
    ----------
    rho : float
        The ``rho`` given.
    r : int
        ``floor(2/(1 - rho))``.
    rho_effective : float
        ``1 - 2/r``: the coupling samples ``(x, N_{rho_effective}(x))`` exactly.
    left : float
        ``NS_rho(h)`` (Section 2.1 definition, with 1/4), exact.
    left_at_rho_effective : float
        ``NS_{rho_effective}(h)``, exact.
    left_unnormalised : float
        ``E[(h(x) - h(y))^2]`` for ``y ~ N_rho(x)`` (the printed first line,
        without the 1/4) ``= 4 * left``.
    right : float
        ``(1/r) E_{z, {A_e}}[AS(H_z)]`` ((1/4)-normalised AS), exact or Monte Carlo.
    right_ci : tuple of float or None
        Confidence interval of ``right`` (Monte Carlo), None if exact.
    middle : float
        ``(1/r) E_{z, {A_e}} sum_b E_v (H_z(v) - H_z(v^{(+)b}))^2`` (the printed
        second line) ``= 4 * right`` (estimated with the same samples).
    exact : bool
        Whether ``right``/``middle`` are exact expectations.
    right_mc : MonteCarloEstimate or None
        The Monte Carlo estimate of ``right`` (None if exact).
    n_terms : int
        Number of equally weighted ``(z, A)`` terms (exact) or samples (Monte Carlo).
    """

    rho: float
    r: int
    rho_effective: float
    left: float
    left_at_rho_effective: float
    left_unnormalised: float
    right: float
    right_ci: tuple[float, float] | None
    middle: float
    exact: bool
    right_mc: MonteCarloEstimate | None
    n_terms: int


def _bucket_sums(net: SparseReLUNetwork, Z: np.ndarray, A: np.ndarray, r: int, V: np.ndarray) -> np.ndarray:
    """``sum_b E_v (H_z(v) - H_z(v^{(+)b}))^2`` for a batch of (z, bucket assignment) rows.

    ``Z``: (m, n) signs; ``A``: (m, n) bucket of each coordinate in ``[0, r)``;
    ``V``: ``hypercube(r)``. ``w'_{je} = sum_{l in A_e} w_{jl} z_l``.
    """
    onehot = (A[:, :, None] == np.arange(r)[None, None, :]) * Z[:, :, None]  # (m, n, r)
    Wp = np.einsum("jl,mle->mje", net.W, onehot)  # (m, s, r)
    pre = np.einsum("ve,mje->mvj", V, Wp) - net.b  # (m, 2^r, s)
    H = np.maximum(pre, 0.0) @ net.u  # (m, 2^r)
    idx = np.arange(1 << r)
    tot = np.zeros(H.shape[0])
    for e in range(r):
        d = H - H[:, idx ^ (1 << e)]
        tot += np.einsum("mv,mv->m", d, d)
    return tot / (1 << r)


def bucket_coupling_noise_sensitivity(
    net: SparseReLUNetwork,
    rho: float,
    rng=None,
    exact: bool = True,
    n_samples: int = 20000,
    confidence: float = 0.95,
) -> BucketCouplingResult:
    r"""Both sides of eq. (17) of Appendix B (proof of Lemma 10).

    The proof samples ``z`` uniform in {-1,1}^n, assigns each coordinate to one
    of ``r = floor(2/(1-rho))`` buckets ``A_e`` uniformly and independently,
    ``v`` uniform in {-1,1}^r, sets ``x = (z_l v_{e(l)})_l`` and obtains ``y`` by
    flipping ``v_b`` for a uniform bucket ``b``; with
    ``H_z(v) = sum_j u_j sigma(<w'_j, v> - b_j)``, ``w'_{je} = sum_{l in A_e} w_{jl} z_l``,
    it prints

    .. math::

        \text{NS}_\rho(h) = \mathbb{E}[(h(x)-h(y))^2]
        = \frac1r \mathbb{E}_{z,\{A_e\}}\Big(\sum_{b=1}^r \mathbb{E}_v (H_z(v) - H_z(v^{\oplus b}))^2\Big)
        = \frac1r \mathbb{E}_{z,\{A_e\}}[\text{AS}(H_z)]. \qquad (17)

    Result (exact, tested): each coordinate flips iff it lies in bucket ``b``,
    probability ``1/r``, so the coupling is ``(x, N_{rho_eff}(x))`` with
    ``rho_eff = 1 - 2/r``. With the Section 2.1 normalisations,
    ``NS_{rho_eff}(h) = (1/r) E[AS(H_z)]`` **holds exactly**; the printed first
    line (no 1/4) equals ``4 NS`` and the printed middle line equals
    ``(4/r) E[AS(H_z)]`` (``sum_b E_v(...)^2 = 4 AS(H_z)``), so those two are
    consistent with each other and each is 4 times the outer members: with the
    printed unnormalised left side (17) holds **up to the constant 4**. At the
    given ``rho`` it is exact only if ``2/(1-rho)`` is an integer
    (``rho_eff = rho``); for ``rho in [0, 1)`` ``right = NS_{rho_eff}(h) >= NS_rho(h)``,
    for ``rho < 0`` (``r = 1``, ``rho_eff = -1``) it can be smaller. (Averaging over
    ``z`` first: ``E_z AS(H_z) = sum_e (1/4) E_x (h(x) - h(x^{(+)A_e}))^2``, and
    averaging over the buckets turns this into ``r NS_{rho_eff}(h)``.)

    Parameters
    ----------
    net : SparseReLUNetwork
        Input dimension ``1 <= n <= MAX_EXACT_DIM`` (NS is computed exactly from the truth
        table), ``1 <= s <= 64``.
    rho : float
        In ``[-1, 1)``; ``r = floor(2/(1-rho))`` must be ``<= 20``.
    rng : numpy.random.Generator, int or None
        Randomness for the Monte Carlo branch (passed to ``numpy.random.default_rng``).
    exact : bool or None
        True: enumerate all ``2^n r^n`` equally likely ``(z, {A_e})`` (requires
        ``(2r)^n 2^r <= 2^22``, e.g. ``n <= 6`` with ``r <= 4``; ValueError
        otherwise). False: Monte Carlo over ``(z, {A_e})`` with a CLT interval.
        None: exact when within budget, else Monte Carlo.
    n_samples : int
        Monte Carlo samples (``>= 2``).
    confidence : float
        Coverage of the Monte Carlo interval.

    Returns
    -------
    BucketCouplingResult
    """
    n, s = _check_net(net)
    rho = check_rho(rho, scalar=True)
    r = bucket_count(rho)
    exact = _exact_mode(exact, n, r)
    rho_eff = 1.0 - 2.0 / r
    h = net.truth_table()
    left = float(noise_sensitivity(h, rho))
    left_eff = float(noise_sensitivity(h, rho_eff))
    V = hypercube(r)
    per = max(1, _CHUNK_ENTRIES // ((1 << r) * max(s, n, r)))
    if exact:
        middle, n_terms = _exact_middle(net, n, r, V, per)
        right, right_mc = middle / 4.0, None
    else:
        right_mc = _monte_carlo_right(net, n, r, V, per, rng, n_samples, confidence)
        right, middle, n_terms = right_mc.estimate, 4.0 * right_mc.estimate, right_mc.n_samples
    return BucketCouplingResult(
        rho=rho,
        r=r,
        rho_effective=rho_eff,
        left=left,
        left_at_rho_effective=left_eff,
        left_unnormalised=4.0 * left,
        right=right,
        right_ci=None if right_mc is None else (right_mc.ci_low, right_mc.ci_high),
        middle=middle,
        exact=right_mc is None,
        right_mc=right_mc,
        n_terms=n_terms,
    )


def _exact_mode(exact, n: int, r: int) -> bool:
    """Whether to enumerate ``(z, {A_e})`` exactly: ``exact`` as given (True only within the table budget), or, for
    None, whether the budget allows it; ValueError for an ``r`` beyond :data:`MAX_BUCKETS` or an ``exact`` over it."""
    if r > MAX_BUCKETS:
        raise ValueError(
            f"r = floor(2/(1-rho)) = {r} is too large: AS(H_z) is tabulated on {{-1,1}}^r, "
            f"which needs r <= {MAX_BUCKETS} (rho <= {1 - 2 / (MAX_BUCKETS + 1):.4f})"
        )
    if exact is not None and not isinstance(exact, (bool, np.bool_)):
        raise ValueError(f"exact must be True, False or None, got {exact!r}")
    feasible = (2 * r) ** n * (1 << r) <= _EXACT_BUDGET
    if exact is None:
        exact = feasible
    if exact and not feasible:
        raise ValueError(
            f"exact enumeration of (z, buckets) needs (2r)^n 2^r = {(2 * r) ** n * (1 << r)} > "
            f"{_EXACT_BUDGET} table entries (n={n}, r={r}); use exact=False (Monte Carlo)"
        )
    return exact


def _exact_middle(net: SparseReLUNetwork, n: int, r: int, V: np.ndarray, per: int) -> tuple[float, int]:
    """The printed middle line of (17), exactly: the mean of :func:`_bucket_sums` over all ``2^n r^n`` equally likely
    ``(z, {A_e})`` (``per`` at a time), divided by ``r``; with the number of terms."""
    total_terms = (1 << n) * r**n
    acc = 0.0
    z_all = hypercube(n)  # row c % 2^n
    powers = r ** np.arange(n, dtype=np.int64)
    for start in range(0, total_terms, per):
        c = np.arange(start, min(total_terms, start + per), dtype=np.int64)
        Z = z_all[c & ((1 << n) - 1)]
        A = (c[:, None] >> n) // powers[None, :] % r  # base-r digits
        acc += float(_bucket_sums(net, Z, A, r, V).sum())
    return acc / total_terms / r, total_terms


def _monte_carlo_right(
    net: SparseReLUNetwork, n: int, r: int, V: np.ndarray, per: int, rng, n_samples, confidence
) -> MonteCarloEstimate:
    """The right side of (17), ``(1/r) E[AS(H_z)]``, estimated from ``n_samples`` uniform ``(z, {A_e})`` drawn from
    ``rng`` (``per`` at a time), with a CLT interval of coverage ``confidence``."""
    if isinstance(n_samples, bool) or not isinstance(n_samples, (int, np.integer)) or n_samples < 2:
        raise ValueError(f"n_samples must be an integer >= 2, got {n_samples!r}")
    confidence = check_confidence(confidence)
    gen = np.random.default_rng(rng)
    samples = []
    for start in range(0, int(n_samples), per):
        m = min(per, int(n_samples) - start)
        Z = 1.0 - 2.0 * gen.integers(0, 2, size=(m, n))
        A = gen.integers(0, r, size=(m, n))
        samples.append(_bucket_sums(net, Z, A, r, V) / (4.0 * r))  # AS(H_z) / r
    x = np.concatenate(samples)
    mean = float(x.mean())
    half = clt_half_width(float(x.std(ddof=1)), x.size, confidence)
    return MonteCarloEstimate(
        estimate=mean,
        ci_low=mean - half,
        ci_high=mean + half,
        n_samples=int(x.size),
        confidence=float(confidence),
        method=f"bucket_coupling(r={r})",
    )
