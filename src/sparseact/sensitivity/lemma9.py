r"""The quantities *inside* the proofs of Lemma 6, Lemma 9 and Lemma 10, computed exactly.

:mod:`sparseact.bounds` evaluates the expressions the paper *prints*; this module
measures, on the whole cube {-1, 1}^n, the intermediate quantities the proofs
manipulate, so every step of the argument can be compared with the truth. All
sensitivities use the normalisation of the paper's Section 2.1,

    sen_f(x) = (1/4) sum_i (f(x) - f(x^{(+)i}))^2,   AS(f) = E_x[sen_f(x)],
    NS_rho(f) = E_{x ~ U, y ~ N_rho(x)} (1/4)(f(x) - f(y))^2,

so for a {0,1}-valued ``g``, ``AS(g) = (1/4) sum_i Pr_x[g(x) != g(x^{(+)i})]``
(a quarter of the expected number of sensitive coordinates).

Summary of what the computations establish (the tests in
``tests/test_sensitivity.py`` check every item on concrete instances)
-----------------------------------------------------------------------------------

Lemma 6 (proof).
    For ``g(x) = 1{<w, x> <= b}`` and ``w > 0``, ``g`` is non-*increasing* in
    every coordinate (the proof says non-decreasing), and exactly
    ``E[x_i g(x)] = -(1/2) Pr_x[g(x) != g(x^{(+)i})]``, hence

        AS(g) = -(1/2) E_x[g(x) sum_i x_i]            (exact),

    not the printed ``AS(g) = (1/4) E_x[g(x) sum_i x_i]`` (which is negative, or
    0, whenever ``w > 0``): the printed form is off by the factor ``-2``. For
    general ``w`` the exact identity is ``AS(g) = -(1/2) E[g(x) sum_i sign(w_i) x_i]``.
    See :func:`lemma6_identity_check`.

Lemma 9 (proof), see :func:`lemma9_decomposition`.
    * ``U + V = AS(h)`` exactly (a partition of the sum).
    * On ``R_x = R_{x^{(+)i}}``, ``h(x) - h(x^{(+)i}) = 2 w_i^{R_x} x_i``, so
      ``(U) = E_x[sum_i (w_i^{R_x})^2 1{R_x = R_{x^{(+)i}}}] <= E_x ||w^{R_x}||^2``:
      the printed middle step ``(U) <= E_x[(1/4)||w^{R_x}||^2]`` and the printed
      bound ``(U) <= k^2 W^2/4`` both lose a factor 4 and are **false** in
      general (a single always-active neuron has ``U = ||w||^2 = 4 U_intermediate
      = 4 U_bound``). What holds is ``U <= 4 U_intermediate <= 4 U_bound = k^2 W^2``;
      ``U_intermediate <= U_bound`` does hold.
    * ``Pr_{x,i}[R_x != R_{x^{(+)i}}] <= (1/n) sum_j sum_i Pr_x[g_j(x) != g_j(x^{(+)i})]``
      (union bound, exact inequality) ``= (4/n) sum_j AS(g_j)``: the printed
      ``= (1/n) sum_j AS(g_j)`` drops a factor 4 (``transition_union_bound =
      4 * transition_bound_sum`` exactly). With one neuron (``s = 1``) the union
      bound is an equality, so ``transition_probability = 4 * transition_bound_sum``
      and the printed chain fails by exactly 4.
    * The symmetrisation ``(V) <= n E_{x,i}[h(x)^2 1{R_x != R_{x^{(+)i}}}]`` is
      correct (``V_bound``).

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

Conventions: ``R_x = {j : <w_j, x> > b_j}`` (strict, as in Definition 1 and
:class:`~sparseact.networks.SparseReLUNetwork`), ``g_j = 1{<w_j, x> > b_j}``,
``k = max_x |R_x|``, ``W = net.scale_W()``, ``B = net.scale_B()``, natural logs.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from itertools import combinations
from math import comb

import numba
import numpy as np

from sparseact._validation import check_confidence, check_network, check_rho, check_work, clt_half_width
from sparseact.analysis import (
    MonteCarloEstimate,
    average_sensitivity,
    influences,
    level_weights,
    noise_sensitivity,
)
from sparseact.cube import hypercube
from sparseact.networks import SparseReLUNetwork

__all__ = [
    "MAX_EXACT_DIM",
    "MAX_NEURONS",
    "BucketCouplingResult",
    "HoeffdingLevel",
    "Lemma6Identity",
    "Lemma9Terms",
    "bucket_coupling_noise_sensitivity",
    "bucket_count",
    "halfspace_family",
    "halfspace_indicator",
    "lemma6_identity_check",
    "lemma6_measure",
    "lemma9_decomposition",
    "lemma9_hoeffding_level",
]

#: Largest input dimension for the exact whole-cube computations here.
MAX_EXACT_DIM = 22
#: Largest number of neurons: active sets are packed into one uint64 per point.
MAX_NEURONS = 64
#: float64 entries per chunk of preactivations (32 MiB).
_CHUNK_ENTRIES = 1 << 22
#: Largest ``r`` for which ``AS(H_z)`` is tabulated on {-1, 1}^r.
MAX_BUCKETS = 20
#: Budget ``(2r)^n * 2^r`` for the exact enumeration of Appendix B.
_EXACT_BUDGET = 1 << 22
#: Tolerance in ``r = floor(2/(1 - rho))`` so that e.g. ``rho = 1/3`` gives 3.
_FLOOR_TOL = 1e-9


# ---------------------------------------------------------------------------
# validation
# ---------------------------------------------------------------------------


def _check_net(net, max_dim: int = MAX_EXACT_DIM) -> tuple[int, int]:
    check_network(net)
    n, s = net.n_inputs, net.n_neurons
    if n < 1 or n > max_dim:
        raise ValueError(
            f"the network's input dimension must be in [1, {max_dim}] for exact enumeration "
            f"of the cube, got n={n}"
        )
    if s < 1 or s > MAX_NEURONS:
        raise ValueError(
            f"the network must have between 1 and {MAX_NEURONS} neurons (active sets are "
            f"packed into uint64 bitmasks), got s={s}"
        )
    return n, s


def _check_halfspace(w, b) -> tuple[np.ndarray, float]:
    try:
        w = np.asarray(w, dtype=np.float64)
    except (TypeError, ValueError) as exc:
        raise ValueError(f"w must be a real vector: {exc}") from None
    if w.ndim != 1:
        raise ValueError(f"w must be one-dimensional, got shape {w.shape}")
    if not 1 <= w.size <= MAX_EXACT_DIM:
        raise ValueError(f"len(w) must be in [1, {MAX_EXACT_DIM}] for exact enumeration, got {w.size}")
    if not np.isfinite(w).all():
        raise ValueError("w must be finite")
    if isinstance(b, bool) or not isinstance(b, (int, float, np.integer, np.floating)):
        raise ValueError(f"b must be a real number, got {b!r}")
    b = float(b)
    if not math.isfinite(b):
        raise ValueError(f"b must be finite, got {b}")
    return w, b


def _chunk_rows(s: int) -> int:
    return max(1, _CHUNK_ENTRIES // max(1, s))


# ---------------------------------------------------------------------------
# Lemma 9
# ---------------------------------------------------------------------------


@numba.njit(cache=True)
def _pair_kernel(masks, h, n, s):
    # One pass over all unordered pairs {x, x^(+)i} (row j and j | 2**i, bit i of j clear).
    # Returns sums over pairs of: d^2 on R_x = R_y, d^2 on R_x != R_y,
    # h(x)^2 + h(y)^2 on R_x != R_y, the number of pairs with R_x != R_y, and
    # per neuron the number of pairs on which g_j differs.
    N = masks.size
    u_sum = 0.0
    v_sum = 0.0
    vb_sum = 0.0
    changed = 0
    flips = np.zeros(s, dtype=np.int64)
    one = np.uint64(1)
    for i in range(n):
        bit = 1 << i
        u_i = 0.0
        v_i = 0.0
        vb_i = 0.0
        for hi in range(0, N, 2 * bit):
            for lo in range(bit):
                x = hi + lo
                y = x + bit
                d = h[x] - h[y]
                d2 = d * d
                mx = masks[x]
                my = masks[y]
                if mx == my:
                    u_i += d2
                else:
                    v_i += d2
                    vb_i += h[x] * h[x] + h[y] * h[y]
                    changed += 1
                    diff = mx ^ my
                    for j in range(s):
                        if (diff >> np.uint64(j)) & one:
                            flips[j] += 1
        u_sum += u_i
        v_sum += v_i
        vb_sum += vb_i
    return u_sum, v_sum, vb_sum, changed, flips


@numba.njit(cache=True)
def _active_sets(pre, G, UW, masks, counts):
    # Per row r of the preactivations: the bitmask of R_x = {j : pre[r, j] > 0} (bit j = neuron j)
    # into masks[r], counts[j] += 1 for j in R_x; returns max |R_x| and sum_r ||w^{R_x}||^2 with
    # ||w^R||^2 = sum_{j, l in R} G[j, l] (|R|^2 terms) or the norm of sum_{j in R} UW[j] (|R| n terms).
    rows, s = pre.shape
    n = UW.shape[1]
    active = np.empty(s, dtype=np.int64)
    wr = np.empty(n)
    k = 0
    wr_sq = 0.0
    one = np.uint64(1)
    for r in range(rows):
        mask = np.uint64(0)
        c = 0
        for j in range(s):
            if pre[r, j] > 0.0:
                mask |= one << np.uint64(j)
                active[c] = j
                c += 1
                counts[j] += 1
        masks[r] = mask
        k = max(k, c)
        if c <= n:
            for a in range(c):
                for b in range(c):
                    wr_sq += G[active[a], active[b]]
        else:
            wr[:] = 0.0
            for a in range(c):
                wr += UW[active[a]]
            wr_sq += np.dot(wr, wr)
    return k, wr_sq


def _cube_tables(net: SparseReLUNetwork):
    """Truth table of ``h``, active-set bitmasks, activation probabilities, max active count, ``E_x||w^{R_x}||^2``.

    ``h`` is formed chunk by chunk exactly as in :meth:`SparseReLUNetwork.truth_table`;
    the active sets, counts and ``||w^{R_x}||^2`` come from one compiled pass over each chunk.
    """
    n, s = net.n_inputs, net.n_neurons
    UW = np.ascontiguousarray(net.u[:, None] * net.W)  # rows u_j w_j
    G = UW @ UW.T  # u_j u_l <w_j, w_l>
    N = 1 << n
    h = np.empty(N)
    masks = np.empty(N, dtype=np.uint64)
    counts = np.zeros(s, dtype=np.int64)
    k, wr_sq, start = 0, 0.0, 0
    for pre in net.cube_preactivations(_chunk_rows(s)):
        stop = start + pre.shape[0]
        h[start:stop] = np.maximum(pre, 0.0) @ net.u
        chunk_k, chunk_wr = _active_sets(np.ascontiguousarray(pre), G, UW, masks[start:stop], counts)
        k, wr_sq, start = max(k, chunk_k), wr_sq + chunk_wr, stop
    return h, masks, counts / N, k, wr_sq / N


@dataclass(frozen=True)
class Lemma9Terms:
    r"""The terms of the proof of Lemma 9 on the whole cube (see :func:`lemma9_decomposition`).

    Attributes
    ----------
    U, V : float
        Terms (U) and (V): ``E_x[sum_i (1/4)(h(x)-h(x^{(+)i}))^2 1{R_x = R_{x^{(+)i}}}]``
        and the same with ``1{R_x != R_{x^{(+)i}}}``.
    AS : float
        ``AS(h)`` from :func:`sparseact.analysis.average_sensitivity` (an
        independent computation; ``U + V = AS`` up to rounding).
    U_intermediate : float
        ``E_x[(1/4)||w^{R_x}||^2]``, the proof's middle expression for (U).
    U_bound : float
        ``k^2 W^2 / 4``, the proof's bound on (U).
    V_bound : float
        ``n E_{x,i}[h(x)^2 1{R_x != R_{x^{(+)i}}}]``, the symmetrised bound on (V).
    transition_probability : float
        ``Pr_{x,i}[R_x != R_{x^{(+)i}}]``, ``x`` uniform, ``i`` uniform in ``[n]`` (exact).
    transition_union_bound : float
        ``(1/n) sum_j sum_i Pr_x[g_j(x) != g_j(x^{(+)i})]`` (the union bound).
    transition_bound_sum : float
        ``(1/n) sum_j AS(g_j)`` with the (1/4)-normalised AS; equals
        ``transition_union_bound / 4``.
    transition_lemma6_bound : float
        ``(1/n) sum_j p_j sqrt(n log(1/p_j))`` (Lemma 6 with constant 1; terms
        with ``p_j = 0`` are 0).
    transition_paper_bound : float
        ``k sqrt(log(s/k)) / sqrt(n)`` (0 when ``k = 0``).
    activation_probabilities : ndarray, shape (s,)
        ``p_j = E_x[g_j(x)]``.
    neuron_average_sensitivities : ndarray, shape (s,)
        ``AS(g_j)`` ((1/4)-normalised).
    k, W, B, n, s
        Exact max active count on the cube, ``net.scale_W()``, ``net.scale_B()``,
        input dimension, number of neurons.
    active_second_moment : float
        ``E_x[|R_x|^2]`` (``AS(h) <= 4 W^2 E_x[|R_x|^2]`` for every network, sparse or not).
    fourier_total_influence : float
        ``sum_T |T| hhat(T)^2`` from the Walsh-Hadamard spectrum of the truth table (equals ``AS``
        by O'Donnell, Thm 2.38, with the 1/4 of Section 2.1; an independent computation).
    abs_values : ndarray, shape (2**n,)
        ``|h(x)|`` on the cube (hypercube order), for tail probabilities of ``|h|``.
    """

    U: float
    V: float
    AS: float
    U_intermediate: float
    U_bound: float
    V_bound: float
    transition_probability: float
    transition_union_bound: float
    transition_bound_sum: float
    transition_lemma6_bound: float
    transition_paper_bound: float
    activation_probabilities: np.ndarray
    neuron_average_sensitivities: np.ndarray
    k: int
    W: float
    B: float
    n: int
    s: int
    active_second_moment: float = float("nan")
    fourier_total_influence: float = float("nan")
    abs_values: np.ndarray | None = None


def lemma9_decomposition(net: SparseReLUNetwork) -> Lemma9Terms:
    r"""Exact values of the terms in the proof of Lemma 9 for one network.

    The proof splits

    .. math::

        \text{AS}(h) = \underbrace{\mathbb{E}_x\Big[\sum_i \tfrac14 (h(x)-h(x^{\oplus i}))^2
        \mathbf 1\{R_x = R_{x^{\oplus i}}\}\Big]}_{(\text{U})}
        + \underbrace{\mathbb{E}_x\Big[\sum_i \tfrac14 (h(x)-h(x^{\oplus i}))^2
        \mathbf 1\{R_x \ne R_{x^{\oplus i}}\}\Big]}_{(\text{V})}

    with ``R_x = {j : <w_j, x> > b_j}``, and prints

    * ``(U) <= E_x[(1/4)||w^{R_x}||^2] <= k^2 W^2 / 4`` with
      ``w^R = sum_{j in R} u_j w_j``;
    * ``(V) <= n E_{x,i}[h(x)^2 1{R_x != R_{x^{(+)i}}}]``;
    * ``Pr_{x,i}[R_x != R_{x^{(+)i}}] <= (1/n) sum_j sum_i Pr_x[g_j(x) != g_j(x^{(+)i})]
      = (1/n) sum_j AS(g_j)`` for ``g_j(x) = 1{<w_j, x> > b_j}``;
    * ``... <= (1/n) sum_j p_j sqrt(n log(1/p_j)) <= k sqrt(log(s/k)) / sqrt(n)``.

    Every quantity is computed exactly over the whole cube. Findings (module
    docstring): ``U + V = AS``; ``U`` can exceed ``U_intermediate`` and
    ``U_bound`` by up to a factor 4 (the printed steps drop the 4 of
    ``(h(x) - h(x^{(+)i}))^2 = 4 (w_i^{R_x})^2``; ``U <= 4 U_intermediate`` holds);
    ``sum_i Pr[g_j(x) != g_j(x^{(+)i})] = 4 AS(g_j)`` for {0,1}-valued ``g_j``, so
    the printed equality ``(1/n) sum_j sum_i Pr[...] = (1/n) sum_j AS(g_j)`` is off
    by 4 and ``transition_union_bound = 4 transition_bound_sum``.

    Implementation: the preactivations are enumerated chunk by chunk
    (:meth:`SparseReLUNetwork.cube_preactivations`), the truth table is formed as
    in :meth:`SparseReLUNetwork.truth_table` and each active set ``R_x`` is packed
    into a uint64 bitmask (``2**22`` points: 32 MiB). A numba kernel then visits
    every unordered pair ``{x, x^{(+)i}}`` once (rows ``j`` and ``j | 2**(i-1)``).
    Counts are integers, so the transition probabilities are exact rationals
    rounded once.

    Parameters
    ----------
    net : SparseReLUNetwork
        ``1 <= n <= 22`` inputs, ``1 <= s <= 64`` neurons.

    Returns
    -------
    Lemma9Terms

    Raises
    ------
    ValueError
        If ``net`` is not a SparseReLUNetwork or its size is out of range.
    """
    n, s = _check_net(net)
    h, masks, p, k, wr_sq = _cube_tables(net)
    u_sum, v_sum, vb_sum, changed, flips = _pair_kernel(masks, h, n, s)
    N = 1 << n
    # Each unordered pair stands for two (x, i) terms of E_x sum_i.
    U = u_sum / (2.0 * N)
    V = v_sum / (2.0 * N)
    V_bound = vb_sum / N
    transition_probability = 2.0 * changed / (n * N)
    flip_sums = 2.0 * flips / N  # sum_i Pr_x[g_j(x) != g_j(x^(+)i)]
    neuron_as = flip_sums / 4.0
    W = net.scale_W()
    B = net.scale_B()
    with np.errstate(divide="ignore", invalid="ignore"):
        lemma6_terms = np.where(p > 0, p * np.sqrt(n * np.log(1.0 / np.where(p > 0, p, 1.0))), 0.0)
    paper = k * math.sqrt(math.log(s / k)) / math.sqrt(n) if k > 0 else 0.0
    return Lemma9Terms(
        U=float(U),
        V=float(V),
        AS=average_sensitivity(h),
        U_intermediate=wr_sq / 4.0,
        U_bound=k**2 * W**2 / 4.0,
        V_bound=float(V_bound),
        transition_probability=float(transition_probability),
        transition_union_bound=float(flip_sums.sum() / n),
        transition_bound_sum=float(neuron_as.sum() / n),
        transition_lemma6_bound=float(lemma6_terms.sum() / n),
        transition_paper_bound=float(paper),
        activation_probabilities=p,
        neuron_average_sensitivities=neuron_as,
        k=k,
        W=W,
        B=B,
        n=n,
        s=s,
        active_second_moment=float(np.mean(_popcounts(masks).astype(np.float64) ** 2)),
        fourier_total_influence=float(np.arange(n + 1) @ level_weights(h)),
        abs_values=np.abs(h),
    )


def _popcounts(masks: np.ndarray) -> np.ndarray:
    """Number of set bits of each ``uint64`` active-set bitmask (``|R_x|``)."""
    counts = np.zeros(masks.shape, dtype=np.int64)
    for byte in masks.view(np.uint8).reshape(-1, 8).T:
        counts += _BYTE_POPCOUNT[byte]
    return counts


_BYTE_POPCOUNT = np.array([bin(i).count("1") for i in range(256)], dtype=np.int64)


# ---------------------------------------------------------------------------
# Lemma 9: the Hoeffding level and the deterministic bound
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class HoeffdingLevel:
    r"""Tail quantities of the proof of Lemma 9 (see :func:`lemma9_hoeffding_level`).

    Attributes
    ----------
    c : float
        The constant ``c`` used.
    t : float
        ``c k W sqrt(log(n^k s)) + k B``.
    level : float
        ``c k^1.5 W sqrt(log(n s)) + k B``.
    prob_exceed_level : float
        Exact ``Pr_x[|l_{R_x}(x)| >= level] = Pr_x[|h(x)| >= level]``.
    prob_exceed_t : float
        Exact ``Pr_x[|h(x)| > t]``.
    union_probability : float or None
        Exact ``Pr_x[exists R, |R| <= k : |<w^R, x> - b^R| > t]`` (the event the
        Hoeffding/union bound controls), or None when there are more than
        ``max_subsets`` sets ``R``.
    target : float
        ``1 / (n s)^4``.
    holds : bool
        ``prob_exceed_level <= target``.
    c_required : float
        Infimum of the ``c >= 0`` for which ``Pr_x[|h(x)| >= c k^1.5 W sqrt(log(ns)) + kB]
        <= 1/(ns)^4`` (not attained; ``inf`` if no ``c`` works, e.g. ``k W log(ns) = 0``
        while the tail is too heavy; 0 if ``c = 0`` already works).
    max_abs_h : float
        ``max_x |h(x)|``.
    deterministic_bound : float
        ``k W sqrt(n) + k B``.
    deterministic_holds : bool
        ``max_abs_h <= deterministic_bound`` (up to a relative 1e-12 rounding slack).
    k, W, B, n, s
        As in :class:`Lemma9Terms`.
    """

    c: float
    t: float
    level: float
    prob_exceed_level: float
    prob_exceed_t: float
    union_probability: float | None
    target: float
    holds: bool
    c_required: float
    max_abs_h: float
    deterministic_bound: float
    deterministic_holds: bool
    k: int
    W: float
    B: float
    n: int
    s: int


def _subset_matrix(net: SparseReLUNetwork, k: int) -> np.ndarray:
    s = net.n_neurons
    cols = []
    for m in range(1, k + 1):
        for R in combinations(range(s), m):
            col = np.zeros(s)
            col[list(R)] = net.u[list(R)]
            cols.append(col)
    return np.array(cols).T if cols else np.zeros((s, 0))


def lemma9_hoeffding_level(net: SparseReLUNetwork, c: float = 1.0, max_subsets: int = 20000) -> HoeffdingLevel:
    r"""The tail step of the proof of Lemma 9, measured exactly.

    The proof takes ``t = c k W sqrt(log(n^k s)) + k B`` and claims, for a
    "sufficiently large" ``c``,

    .. math::

        \Pr_x[\exists R, |R|\le k: |\langle w^R, x\rangle - b^R| > t]
        \le 2 n^k \exp\Big(-\frac{(t - |b^R|)^2}{2\|w^R\|^2}\Big) \le \frac{1}{(ns)^4},
        \qquad
        \Pr_x[|\ell_{R_x}(x)| \ge c k^{1.5} W \sqrt{\log(ns)} + kB] \le \frac{1}{n^4 s^4},

    and, deterministically, ``|l_{R_x}(x)| <= k W sqrt(n) + k B``. Since
    ``h(x) = l_{R_x}(x)`` on the cube, both are statements about ``|h|``.
    (``log(n^k s) <= k log(ns)``, so ``t <= level``.) Note that the union bound
    runs over the ``sum_{m <= k} C(s, m) <= s^k`` sets ``R``, not ``n^k`` as
    printed; ``union_probability`` measures the event itself.

    Parameters
    ----------
    net : SparseReLUNetwork
        ``1 <= n <= 22``, ``1 <= s <= 64``.
    c : float, optional
        The proof's constant, ``c >= 0``.
    max_subsets : int, optional
        ``union_probability`` is computed only if the number of sets
        ``1 <= |R| <= k`` is at most this.

    Returns
    -------
    HoeffdingLevel
    """
    n, s = _check_net(net)
    if isinstance(c, bool) or not isinstance(c, (int, float, np.integer, np.floating)) or not (
        math.isfinite(float(c)) and float(c) >= 0
    ):
        raise ValueError(f"c must be a finite number >= 0, got {c!r}")
    c = float(c)
    h, _, _, k, _ = _cube_tables(net)
    W, B = net.scale_W(), net.scale_B()
    a = np.abs(h)
    N = a.size
    t = c * k * W * math.sqrt(math.log(float(n) ** k * s)) + k * B
    log_ns = math.log(n * s)
    level = c * k**1.5 * W * math.sqrt(log_ns) + k * B
    target = 1.0 / float(n * s) ** 4
    p_level = float(np.count_nonzero(a >= level)) / N
    p_t = float(np.count_nonzero(a > t)) / N
    # c_required: the count of |h| >= L must be <= m = floor(target * N); the
    # infimum of admissible L is the (m+1)-th largest |h|.
    m = int(math.floor(target * N))
    if m >= N:
        c_req = 0.0
    else:
        thresh = float(np.partition(a, N - 1 - m)[N - 1 - m])  # (m+1)-th largest
        scale = k**1.5 * W * math.sqrt(log_ns)
        need = thresh - k * B
        if need < 0:
            c_req = 0.0
        elif scale > 0:
            c_req = need / scale
        else:
            c_req = math.inf
    # the union event over all R with |R| <= k
    n_sub = sum(comb(s, mm) for mm in range(1, k + 1))
    union = None
    if n_sub <= max_subsets:
        M = _subset_matrix(net, k)
        hits = 0
        if M.shape[1]:
            for pre in net.cube_preactivations(_chunk_rows(max(s, n_sub))):
                L = pre @ M  # l_R(x) = sum_{j in R} u_j (<w_j, x> - b_j), one column per R
                hits += int(np.count_nonzero((np.abs(L) > t).any(axis=1)))
        union = hits / N
    max_abs = float(a.max())
    det = k * W * math.sqrt(n) + k * B
    return HoeffdingLevel(
        c=c,
        t=float(t),
        level=float(level),
        prob_exceed_level=p_level,
        prob_exceed_t=p_t,
        union_probability=union,
        target=target,
        holds=p_level <= target,
        c_required=float(c_req),
        max_abs_h=max_abs,
        deterministic_bound=float(det),
        deterministic_holds=max_abs <= det * (1 + 1e-12) + 1e-300,
        k=k,
        W=W,
        B=B,
        n=n,
        s=s,
    )


# ---------------------------------------------------------------------------
# Lemma 6: a single halfspace
# ---------------------------------------------------------------------------


def halfspace_indicator(w, b) -> np.ndarray:
    r"""Truth table of Lemma 6's halfspace ``g(x) = 1{<w, x> <= b}`` on {-1, 1}^n, ``n = len(w)``.

    The preactivation ``<w, x> - b`` is computed exactly as for a one-neuron
    :class:`SparseReLUNetwork` (chunked, split sums), and ``g = 1{<w, x> - b <= 0}``
    is the complement of that neuron's activity, so ``1 - g`` is the ``g_j`` of
    Lemma 9 for the same ``(w, b)``.

    Parameters
    ----------
    w : array_like, shape (n,)
        Weights, ``1 <= n <= 22``.
    b : float
        Threshold.

    Returns
    -------
    ndarray of float64, shape (2**n,)
        0/1 values in :func:`sparseact.cube.hypercube` order.
    """
    w, b = _check_halfspace(w, b)
    net = SparseReLUNetwork([1.0], w[None, :], [b])
    return np.concatenate([(pre[:, 0] <= 0.0).astype(np.float64) for pre in net.cube_preactivations(_CHUNK_ENTRIES)])


def lemma6_measure(w, b) -> tuple[float, float]:
    r"""``(p, AS(g))`` for ``g(x) = 1{<w, x> <= b}`` (Lemma 6).

    Lemma 6 (Kane 2014): ``AS(g) = O(p sqrt(n log(1/p)))`` with ``p = E[g]``.
    ``AS`` is the Section 2.1 one (factor 1/4), from
    :func:`sparseact.analysis.average_sensitivity`; for this {0,1}-valued ``g``
    it equals ``(1/4) sum_i Pr_x[g(x) != g(x^{(+)i})]``.

    Returns
    -------
    tuple of float
        ``(p, AS(g))``.
    """
    g = halfspace_indicator(w, b)
    return float(g.mean()), average_sensitivity(g)


@dataclass(frozen=True)
class Lemma6Identity:
    r"""Both sides of the identity in the proof of Lemma 6 (see :func:`lemma6_identity_check`).

    Attributes
    ----------
    p : float
        ``E[g]``.
    AS : float
        ``AS(g)`` (Section 2.1 normalisation).
    paper_rhs : float
        ``(1/4) E_x[g(x) sum_i x_i]``, the printed right-hand side.
    corrected_rhs : float
        ``-(1/2) E_x[g(x) sum_i sign(w_i) x_i]``; equals ``AS`` exactly.
    coordinate_means : ndarray, shape (n,)
        ``E[x_i g(x)]`` (the proof claims ``= E[(g(x) - g(x^{(+)i}))^2]``).
    flip_probabilities : ndarray, shape (n,)
        ``Pr_x[g(x) != g(x^{(+)i})] = E[(g(x) - g(x^{(+)i}))^2]``.
    """

    p: float
    AS: float
    paper_rhs: float
    corrected_rhs: float
    coordinate_means: np.ndarray
    flip_probabilities: np.ndarray


def lemma6_identity_check(w, b) -> Lemma6Identity:
    r"""Evaluate both sides of the identity in the proof of Lemma 6.

    The proof (assuming w.l.o.g. ``w > 0`` and calling ``g`` non-decreasing) prints

    .. math::

        \mathbb{E}[x_i g(x)] = \mathbb{E}[(g(x) - g(x^{\oplus i}))^2],
        \qquad \text{AS}(g) = \frac14 \mathbb{E}_x\Big[g(x) \sum_{i=1}^n x_i\Big].

    Exact finding: ``g = 1{<w, x> <= b}`` is non-*increasing* in ``x_i`` when
    ``w_i > 0``, and pairing ``x`` with ``x^{(+)i}`` gives
    ``E[x_i g(x)] = (1/2) E[x_i (g(x) - g(x^{(+)i}))] = -(1/2) Pr[g(x) != g(x^{(+)i})]``,
    so with ``AS(g) = (1/4) sum_i Pr[g(x) != g(x^{(+)i})]``

    .. math::

        \text{AS}(g) = -\frac12 \mathbb{E}_x\Big[g(x) \sum_i \operatorname{sign}(w_i) x_i\Big]
        \quad\text{(exact)},

    i.e. ``AS(g) = -2 * paper_rhs`` for ``w > 0``. Coordinates with ``w_i = 0``
    contribute 0 to both sides.

    Parameters
    ----------
    w : array_like, shape (n,)
        Weights (any signs), ``1 <= n <= 22``.
    b : float
        Threshold.

    Returns
    -------
    Lemma6Identity
    """
    w, b = _check_halfspace(w, b)
    g = halfspace_indicator(w, b)
    n = w.size
    N = g.size
    means = np.empty(n)
    for i in range(n):
        blk = g.reshape(-1, 2, 1 << i)  # [:, 0, :] has x_i = +1, [:, 1, :] has x_i = -1
        means[i] = (blk[:, 0, :].sum() - blk[:, 1, :].sum()) / N
    flips = 4.0 * influences(g)  # (g(x)-g(x^i))^2 = 1{g(x) != g(x^i)} for 0/1 values
    return Lemma6Identity(
        p=float(g.mean()),
        AS=float(flips.sum() / 4.0),
        paper_rhs=float(means.sum() / 4.0),
        corrected_rhs=float(-0.5 * (np.sign(w) * means).sum()),
        coordinate_means=means,
        flip_probabilities=flips,
    )


_HALFSPACE_KINDS = ("majority-like", "random-gaussian", "random-positive")


def _spread(values: list, count: int | None) -> list:
    """``count`` entries of ``values`` evenly spaced by position (all if None or >= len)."""
    if count is None or count >= len(values):
        return list(values)
    pos = np.unique(np.round(np.linspace(0, len(values) - 1, count)).astype(int))
    return [values[i] for i in pos]


def halfspace_family(
    n: int,
    rng: np.random.Generator | None,
    kind: str,
    *,
    thresholds: int | None = None,
    draws: int = 1,
) -> list[tuple[np.ndarray, float]]:
    r"""Halfspaces ``(w, b)`` in dimension ``n`` whose means ``p = E[1{<w,x> <= b}]`` span ``2^-n .. 1/2``.

    Kinds
    -----
    ``"majority-like"``
        ``w = (1, ..., 1)``, ``b = -n + 2t`` for ``t = 0, ..., floor((n-1)/2)``
        (integer arithmetic, exact ties included by ``<=``): ``g = 1{#{i: x_i = 1} <= t}``,
        ``p = sum_{m <= t} C(n, m) / 2^n``. ``rng`` and ``draws`` are not used.
    ``"random-gaussian"``
        ``w ~ N(0, I_n)``; ``b`` placed midway between consecutive sorted values
        of ``<w, x>`` over the cube so that ``p = 2^q / 2^n`` for
        ``q = 0, ..., n-1`` (exactly, barring ties of ``<w, x>``).
    ``"random-positive"``
        As above with ``w = |N(0, I_n)|`` (all coefficients positive, the
        setting of the proof of Lemma 6).

    Parameters
    ----------
    n : int
        Dimension, ``1 <= n <= 22``.
    rng : numpy.random.Generator or None
        Required for the random kinds.
    kind : str
        One of ``"majority-like"``, ``"random-gaussian"``, ``"random-positive"``.
    thresholds : int, optional
        Keep only this many biases per weight vector, evenly spaced (by index)
        over the full sweep, always including both ends; default: the full sweep.
    draws : int, optional
        Number of independent weight vectors for the random kinds (default 1), at most
        :data:`sparseact._validation.MAX_HALFSPACE_DRAWS` (else ``ValueError`` giving the count).

    Returns
    -------
    list of (ndarray, float)
        Grouped by weight vector, ``p`` increasing within a group.
    """
    if isinstance(n, bool) or not isinstance(n, (int, np.integer)) or not 1 <= n <= MAX_EXACT_DIM:
        raise ValueError(f"n must be an integer in [1, {MAX_EXACT_DIM}], got {n!r}")
    n = int(n)
    if kind not in _HALFSPACE_KINDS:
        raise ValueError(f"kind must be one of {_HALFSPACE_KINDS}, got {kind!r}")
    if thresholds is not None and (
        isinstance(thresholds, bool) or not isinstance(thresholds, (int, np.integer)) or thresholds < 1
    ):
        raise ValueError(f"thresholds must be a positive integer or None, got {thresholds!r}")
    if isinstance(draws, bool) or not isinstance(draws, (int, np.integer)) or draws < 1:
        raise ValueError(f"draws must be a positive integer, got {draws!r}")
    check_work(int(draws), "MAX_HALFSPACE_DRAWS", f"halfspace_family with draws = {draws}", "draws")
    if kind == "majority-like":
        w = np.ones(n)
        return [(w.copy(), float(-n + 2 * t)) for t in _spread(list(range((n - 1) // 2 + 1)), thresholds)]
    if not isinstance(rng, np.random.Generator):
        raise ValueError(f"rng must be a numpy.random.Generator for kind {kind!r}, got {type(rng).__name__}")
    out = []
    for _ in range(int(draws)):
        w = rng.standard_normal(n)
        if kind == "random-positive":
            w = np.abs(w)
            w[w == 0] = 1.0
        net = SparseReLUNetwork([1.0], w[None, :], [0.0])
        vals = np.sort(np.concatenate([pre[:, 0] for pre in net.cube_preactivations(_CHUNK_ENTRIES)]))
        for q in _spread(list(range(n)), thresholds):
            m = 1 << q  # number of points with g = 1
            out.append((w.copy(), float(0.5 * (vals[m - 1] + vals[m]))))
    return out


# ---------------------------------------------------------------------------
# Appendix B: the bucket coupling
# ---------------------------------------------------------------------------


def bucket_count(rho: float) -> int:
    """``r = floor(2 / (1 - rho))`` (Appendix B), with a 1e-9 tolerance so ``rho = 1/3`` gives 3."""
    rho = check_rho(rho, scalar=True)
    return int(math.floor(2.0 / (1.0 - rho) + _FLOOR_TOL))


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
        Input dimension ``1 <= n <= 22`` (NS is computed exactly from the truth
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
    rho_eff = 1.0 - 2.0 / r
    h = net.truth_table()
    left = float(noise_sensitivity(h, rho))
    left_eff = float(noise_sensitivity(h, rho_eff))
    V = hypercube(r)
    per = max(1, _CHUNK_ENTRIES // ((1 << r) * max(s, n, r)))
    if exact:
        total_terms = (1 << n) * r**n
        acc = 0.0
        z_all = hypercube(n)  # row c % 2^n
        powers = r ** np.arange(n, dtype=np.int64)
        for start in range(0, total_terms, per):
            c = np.arange(start, min(total_terms, start + per), dtype=np.int64)
            Z = z_all[c & ((1 << n) - 1)]
            A = (c[:, None] >> n) // powers[None, :] % r  # base-r digits
            acc += float(_bucket_sums(net, Z, A, r, V).sum())
        middle = acc / total_terms / r
        right = middle / 4.0
        return BucketCouplingResult(
            rho=rho, r=r, rho_effective=rho_eff, left=left, left_at_rho_effective=left_eff,
            left_unnormalised=4.0 * left, right=right, right_ci=None, middle=middle,
            exact=True, right_mc=None, n_terms=total_terms,
        )
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
    est = MonteCarloEstimate(
        estimate=mean, ci_low=mean - half, ci_high=mean + half, n_samples=int(x.size),
        confidence=float(confidence), method=f"bucket_coupling(r={r})",
    )
    return BucketCouplingResult(
        rho=rho, r=r, rho_effective=rho_eff, left=left, left_at_rho_effective=left_eff,
        left_unnormalised=4.0 * left, right=mean, right_ci=(est.ci_low, est.ci_high),
        middle=4.0 * mean, exact=False, right_mc=est, n_terms=int(x.size),
    )
