r"""Lemma 9: the terms of its proof, computed exactly on the whole cube {-1, 1}^n.

The normalisations (Section 2.1, ``AS`` with the factor 1/4) and conventions
(``R_x``, ``g_j``, ``k``, ``W``, ``B``) are those of :mod:`sparseact.sensitivity`.

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

The tail step of the proof (the Hoeffding level and the deterministic bound
``|h(x)| <= k W sqrt(n) + k B``) is measured by :func:`lemma9_hoeffding_level`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from itertools import combinations
from math import comb

import numba
import numpy as np

from sparseact.analysis import average_sensitivity, level_weights
from sparseact.networks import SparseReLUNetwork
from sparseact.sensitivity._common import _CHUNK_ENTRIES, _check_net

__all__ = ["HoeffdingLevel", "Lemma9Terms", "lemma9_decomposition", "lemma9_hoeffding_level"]


def _chunk_rows(s: int) -> int:
    return max(1, _CHUNK_ENTRIES // max(1, s))


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
    # into masks[r], counts[j] += 1 for j in R_x; returns max |R_x|, sum_r |R_x|^2 (an exact integer) and
    # sum_r ||w^{R_x}||^2 with ||w^R||^2 = sum_{j, l in R} G[j, l] (|R|^2 terms) or the norm of
    # sum_{j in R} UW[j] (|R| n terms).
    rows, s = pre.shape
    n = UW.shape[1]
    active = np.empty(s, dtype=np.int64)
    wr = np.empty(n)
    k = 0
    size_sq = 0
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
        size_sq += c * c
        if c <= n:
            for a in range(c):
                for b in range(c):
                    wr_sq += G[active[a], active[b]]
        else:
            wr[:] = 0.0
            for a in range(c):
                wr += UW[active[a]]
            wr_sq += np.dot(wr, wr)
    return k, size_sq, wr_sq


def _cube_tables(net: SparseReLUNetwork):
    """Truth table of ``h``, active-set bitmasks, activation probabilities, max active count, ``E_x|R_x|^2``
    and ``E_x||w^{R_x}||^2``.

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
    k, size_sq, wr_sq, start = 0, 0, 0.0, 0
    for pre in net.cube_preactivations(_chunk_rows(s)):
        stop = start + pre.shape[0]
        h[start:stop] = np.maximum(pre, 0.0) @ net.u
        chunk_k, chunk_size_sq, chunk_wr = _active_sets(np.ascontiguousarray(pre), G, UW, masks[start:stop], counts)
        k, size_sq, wr_sq, start = max(k, chunk_k), size_sq + chunk_size_sq, wr_sq + chunk_wr, stop
    return h, masks, counts / N, k, size_sq / N, wr_sq / N


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
        ``1 <= n <= MAX_EXACT_DIM`` inputs, ``1 <= s <= 64`` neurons.

    Returns
    -------
    Lemma9Terms

    Raises
    ------
    ValueError
        If ``net`` is not a SparseReLUNetwork or its size is out of range.
    """
    n, s = _check_net(net)
    h, masks, p, k, size_sq, wr_sq = _cube_tables(net)
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
        active_second_moment=float(size_sq),
        fourier_total_influence=float(np.arange(n + 1) @ level_weights(h)),
        abs_values=np.abs(h),
    )


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
        ``1 <= n <= MAX_EXACT_DIM``, ``1 <= s <= 64``.
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
    if (
        isinstance(c, bool)
        or not isinstance(c, (int, float, np.integer, np.floating))
        or not (math.isfinite(float(c)) and float(c) >= 0)
    ):
        raise ValueError(f"c must be a finite number >= 0, got {c!r}")
    c = float(c)
    h, _, _, k, _, _ = _cube_tables(net)
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
    m = math.floor(target * N)
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
