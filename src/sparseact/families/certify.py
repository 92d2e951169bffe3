"""Families of networks in ``H_{n,s,k}^{W,B}`` with certified sparsity, and an adversarial search.

These are the instances on which Lemma 9 (``AS(h) <= O(k^4 W^2 sqrt(n) log(ns)
+ k^3 B^2 sqrt(log s))``) and Lemma 10 (the matching ``NS_rho`` bound) are
measured. Notation follows the paper (Definitions 1 and 2): a network is
``h(x) = sum_j u_j sigma(<w_j, x> - b_j)`` with ``s`` neurons on ``x`` in
``{-1, 1}^n``; neuron ``j`` is *active* at ``x`` when ``<w_j, x> - b_j > 0``
(strictly); ``h`` is ``k``-sparse when at most ``k`` neurons are active at every
``x`` of the cube; ``W = ||u||_inf max_j ||w_j||_2`` and
``B = ||u||_inf max_j |b_j|`` (:meth:`SparseReLUNetwork.scale_W`,
:meth:`SparseReLUNetwork.scale_B`).

Contents
--------
:func:`certify_sparsity`
    Maximum active count: exact over the cube for ``n <= EXACT_MAX_N``, else a
    Monte Carlo lower bound.
:func:`rescale`
    Rescale the output weights ``u`` only (the activation pattern is unchanged)
    to reach a prescribed ``W`` (or ``B``).
:func:`random_sparse_network`
    Random directions with a common normalised threshold ``t``, the smallest
    one that makes the network ``k``-sparse (computed exactly in one pass).
:func:`bucket_network`
    ``k`` independent Theorem-13 junta blocks: exactly ``k`` neurons active
    everywhere.
:func:`adversarial_search`
    (1+1)-evolution strategy with restarts over certified ``k``-sparse networks
    normalised to ``W = 1``.
:func:`make_ratio_objective`
    ``AS / (Lemma 9 bound)``, ``NS_rho / (Lemma 10 bound)`` and
    ``AS / (4 k^2 W^2)`` as objectives for the search.

Every random function takes a :class:`numpy.random.Generator` and draws from
it alone, so results are reproducible for a given generator state.

A simple bound used by the ``"edge"`` objective: along an edge ``x -> x^{(+)i}``
every preactivation is affine in ``x_i`` and changes by ``2 |w_{ji}|``, and a
neuron inactive at both ends contributes nothing, so
``|h(x) - h(x^{(+)i})| <= 2 ||u||_inf sum_{j in R_x u R_{x^{(+)i}}} |w_{ji}|``.
Cauchy-Schwarz over the at most ``2k`` neurons of ``R_x u R_{x^{(+)i}}``,
summing over ``i`` and using that ``x^{(+)i}`` is uniform when ``x`` is, gives
``AS(h) <= 2k ||u||_inf^2 * 2 E_x[sum_{j in R_x} ||w_j||^2] <= 4 k^2 W^2``
for every ``h`` in ``H_{n,s,k}^{W,B}`` (no ``n``, ``s`` or ``B`` dependence).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from sparseact.analysis import average_sensitivity, noise_sensitivity
from sparseact.bounds import lemma9_average_sensitivity, lemma10_noise_sensitivity
from sparseact.networks import SparseReLUNetwork
from sparseact._validation import check_int, check_rho, check_work
from sparseact._validation import check_network as _net

__all__ = [
    "EXACT_MAX_N",
    "OBJECTIVE_KINDS",
    "SEARCH_MAX_N",
    "WEIGHT_KINDS",
    "SearchResult",
    "SparsityCertificate",
    "adversarial_search",
    "bucket_network",
    "certify_sparsity",
    "densest_threshold",
    "make_ratio_objective",
    "random_sparse_network",
    "repair_sparsity",
    "rescale",
]

#: Largest ``n`` whose cube is enumerated to certify sparsity exactly.
EXACT_MAX_N = 22

#: Largest ``n`` accepted by :func:`adversarial_search` (every step certifies
#: sparsity on the whole cube, ``2**n`` points).
SEARCH_MAX_N = 14

#: Weight distributions of :func:`random_sparse_network`.
WEIGHT_KINDS = ("gaussian", "sign", "sparse")

#: Relative safety margin added to computed thresholds, so that the strict
#: inequality ``<w_j, x> - b_j > 0`` is decided the same way by every
#: evaluation order (normalised vs raw preactivations, split-sum vs matrix
#: product). Rounding errors of the preactivations are ``O(n^{3/2} 1e-16)``
#: relative to ``||w_j||``, far below this.
_MARGIN = 1e-9

#: About this many float64 preactivations are held in memory at once.
_CHUNK_ELEMENTS = 1 << 22


# ---------------------------------------------------------------------------
# validation
# ---------------------------------------------------------------------------




def _nsk(n, s, k) -> tuple[int, int, int]:
    n = check_int(n, "n")
    s = check_int(s, "s")
    k = check_int(k, "k")
    if k > s:
        raise ValueError(f"k must be <= s (at most s neurons can be active), got k={k}, s={s}")
    return n, s, k


def _rng(rng, name: str = "rng") -> np.random.Generator:
    if not isinstance(rng, np.random.Generator):
        raise ValueError(f"{name} must be a numpy.random.Generator, got {type(rng).__name__}")
    return rng


def _real(value, name: str, positive: bool) -> float:
    if isinstance(value, bool):
        raise ValueError(f"{name} must be a real number, got {value!r}")
    try:
        value = float(value)
    except (TypeError, ValueError):
        raise ValueError(f"{name} must be a real number, got {value!r}") from None
    if not math.isfinite(value):
        raise ValueError(f"{name} must be finite, got {value}")
    if positive and value <= 0:
        raise ValueError(f"{name} must be > 0, got {value}")
    if not positive and value < 0:
        raise ValueError(f"{name} must be >= 0, got {value}")
    return value


def _copy(net: SparseReLUNetwork, u=None, b=None) -> SparseReLUNetwork:
    return SparseReLUNetwork(
        net.u.copy() if u is None else u, net.W.copy(), net.b.copy() if b is None else b
    )


# ---------------------------------------------------------------------------
# certification
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class SparsityCertificate:
    """Maximum number of simultaneously active neurons found by :func:`certify_sparsity`.

    Attributes
    ----------
    max_active : int
        ``max_x |{j : <w_j, x> - b_j > 0}|`` over the points examined.
    method : str
        ``"exact"`` (the whole cube ``{-1, 1}^n``: ``max_active`` is the
        smallest ``k`` with ``h`` in ``H_{n,s,k}`` under the uniform
        distribution) or ``"monte-carlo"`` (random points: ``max_active`` is
        only a *lower bound* on that ``k``).
    n_points : int
        Number of points examined (``2**n`` when exact).
    """

    max_active: int
    method: str
    n_points: int

    @property
    def exact(self) -> bool:
        """Whether ``max_active`` is the exact maximum over the cube."""
        return self.method == "exact"


def _uniform_chunks(rng: np.random.Generator, m: int, n: int, rows: int):
    for start in range(0, m, rows):
        size = min(rows, m - start)
        yield 1.0 - 2.0 * rng.integers(0, 2, size=(size, n), dtype=np.int8).astype(np.float64)


def _rows_per_chunk(s: int) -> int:
    return max(1, _CHUNK_ELEMENTS // max(1, s))


def certify_sparsity(net, rng=None, n_samples: int = 200_000) -> SparsityCertificate:
    """Maximum active count of ``net`` on the cube, exact when affordable.

    Parameters
    ----------
    net : SparseReLUNetwork
        The network ``h``.
    rng : numpy.random.Generator, optional
        Needed only when ``net.n_inputs > EXACT_MAX_N`` (Monte Carlo).
    n_samples : int, optional
        Number of uniform random points for the Monte Carlo case.

    Returns
    -------
    SparsityCertificate
        For ``n <= EXACT_MAX_N``: ``net.max_active()`` over all ``2**n`` points
        (method ``"exact"``). Otherwise the maximum over ``n_samples`` uniform
        random points (method ``"monte-carlo"``), which is only a **lower
        bound** on the true maximum: a rare input activating more neurons may
        be missed.

    Raises
    ------
    ValueError
        If ``net`` is not a network, ``n_samples < 1``, or ``rng`` is missing
        when Monte Carlo is needed.
    """
    net = _net(net)
    n = net.n_inputs
    if n <= EXACT_MAX_N:
        return SparsityCertificate(int(net.max_active()), "exact", 1 << n)
    n_samples = check_int(n_samples, "n_samples")
    rng = _rng(rng, "rng (required for Monte Carlo certification when n > EXACT_MAX_N)")
    best = 0
    for X in _uniform_chunks(rng, n_samples, n, _rows_per_chunk(net.n_neurons)):
        best = max(best, int(net.active_counts(X).max(initial=0)))
    return SparsityCertificate(best, "monte-carlo", n_samples)


# ---------------------------------------------------------------------------
# rescaling
# ---------------------------------------------------------------------------


def _scale_after(u: np.ndarray, c: float, factor: float) -> float:
    return float(np.max(np.abs(u * c)) * factor)


def _exact_factor(u: np.ndarray, factor: float, target: float) -> float:
    """A ``c`` with ``max|u c| * factor == target`` if one exists in floating point.

    Starts from ``target / (max|u| factor)`` and walks a few ulps (the value is
    non-decreasing in ``c``); returns the closest one found.
    """
    c = target / (float(np.max(np.abs(u))) * factor)
    best_c, best_err = c, abs(_scale_after(u, c, factor) - target)
    for _ in range(64):
        val = _scale_after(u, c, factor)
        err = abs(val - target)
        if err < best_err:
            best_c, best_err = c, err
        if val == target:
            return c
        c = float(np.nextafter(c, np.inf if val < target else 0.0))
    return best_c


def rescale(net, W=None, B=None) -> SparseReLUNetwork:
    """Rescale the output weights ``u`` by a positive factor to reach a given ``W`` or ``B``.

    Only ``u`` changes, so ``w_j``, ``b_j`` and hence the activation pattern
    (which neurons are active at each ``x``, in particular the sparsity ``k``)
    are untouched, and ``h`` is multiplied by the same factor ``c > 0``. Since
    ``scale_W`` and ``scale_B`` are both proportional to ``||u||_inf``, one
    factor moves both: ``W -> c W``, ``B -> c B``. This is how instances are
    normalised to ``W = 1`` (then ``B`` becomes ``scale_B / scale_W``).

    Parameters
    ----------
    net : SparseReLUNetwork
    W : float, optional
        Target ``scale_W() > 0``. The result has ``scale_W() == W`` exactly when
        some float factor attains it (the factor is adjusted ulp by ulp),
        otherwise to within an ulp or two.
    B : float, optional
        Target ``scale_B()``. Alone it must be ``> 0``. Given together with
        ``W`` it must be consistent, i.e. ``B == W * scale_B / scale_W``
        (relative tolerance ``1e-9``); ``W`` then determines the factor.

    Returns
    -------
    SparseReLUNetwork
        A new network (arrays copied).

    Raises
    ------
    ValueError
        If neither target is given, a target is not positive/finite, the
        network has ``scale_W() == 0`` (resp. ``scale_B() == 0``) so no positive
        factor reaches the target, or ``W`` and ``B`` are inconsistent.
    """
    net = _net(net)
    if W is None and B is None:
        raise ValueError("give W or B (or both, consistently) to rescale to")
    if W is not None:
        W = _real(W, "W", positive=True)
        sW = net.scale_W()
        if sW <= 0:
            raise ValueError("cannot rescale to a given W: the network has scale_W() == 0")
        wnorm = float(np.max(np.linalg.norm(net.W, axis=1)))
        c = _exact_factor(net.u, wnorm, W)
        if B is not None:
            B = _real(B, "B", positive=False)
            sB = net.scale_B()
            implied = W * sB / sW
            if not math.isclose(implied, B, rel_tol=1e-9, abs_tol=0.0):
                raise ValueError(
                    f"W={W} and B={B} are inconsistent: rescaling u (the only change that keeps "
                    f"the activation pattern) gives B = W * scale_B/scale_W = {implied}"
                )
    else:
        B = _real(B, "B", positive=True)
        if net.scale_B() <= 0:
            raise ValueError("cannot rescale to a given B: the network has scale_B() == 0")
        bnorm = float(np.max(np.abs(net.b)))
        c = _exact_factor(net.u, bnorm, B)
    return _copy(net, u=net.u * c)


# ---------------------------------------------------------------------------
# thresholds
# ---------------------------------------------------------------------------


def _max_kth_normalized(W: np.ndarray, b: np.ndarray, k: int, points=None) -> float:
    """``max_x`` of the ``(k+1)``-th largest of ``<w_j, x> - b_j`` over the rows given.

    Over the whole cube (one compiled pass, :func:`sparseact.cube_scan.max_kth_largest`)
    when ``points`` is None, else over the given point batches. ``-inf`` when there are at most ``k`` rows.
    """
    s = W.shape[0]
    if s <= k:
        return -math.inf
    if points is None:
        from sparseact.cube_scan import max_kth_largest

        return float(max_kth_largest(*SparseReLUNetwork(np.zeros(s), W, b).cube_halves(), k))
    kth = s - k - 1  # ascending position of the (k+1)-th largest
    best = -math.inf
    for Z in (X @ W.T - b for X in points):
        if best > -math.inf:
            # A row whose (k+1)-th largest exceeds ``best`` has > k entries above it;
            # the count is much cheaper than a partition and discards almost every row.
            Z = Z[np.count_nonzero(Z > best, axis=1) > k]
            if Z.shape[0] == 0:
                continue
        best = max(best, float(np.partition(Z, kth, axis=1)[:, kth].max()))
    return best


def densest_threshold(Wmat, k: int, points=None) -> float:
    """The smallest common normalised threshold ``t`` making ``sigma(<w_j, x> - t ||w_j||)`` k-sparse.

    Neuron ``j`` is active iff ``z_j(x) := <w_j, x> / ||w_j|| > t``, and the
    number of active neurons is non-increasing in ``t``. At most ``k`` are
    active at ``x`` iff ``t`` is at least the ``(k+1)``-th largest of the
    ``z_j(x)``, so the smallest ``t`` that works everywhere is

        t* = max_x  (k+1)-th largest of {z_j(x) : j in [s]},

    computed in one pass over the cube (or over ``points``). At ``t*`` at most
    ``k`` neurons are active everywhere; at every ``t < t*`` the maximising
    ``x`` has at least ``k + 1`` active neurons.

    Parameters
    ----------
    Wmat : array_like, shape (s, n)
        Rows ``w_j``, all finite and non-zero.
    k : int
        Sparsity, ``1 <= k < s``.
    points : iterable of ndarray, optional
        Batches of finite points, at least one point in all; default the whole cube (``n <= 28``).

    Returns
    -------
    float
        ``t*`` (without any safety margin).
    """
    Wmat = np.asarray(Wmat, dtype=np.float64)
    if Wmat.ndim != 2:
        raise ValueError(f"Wmat must be two-dimensional (s, n), got shape {Wmat.shape}")
    k = check_int(k, "k")
    if k >= Wmat.shape[0]:
        raise ValueError(f"k must be < s for a finite threshold, got k={k}, s={Wmat.shape[0]}")
    if not np.all(np.isfinite(Wmat)):
        raise ValueError("Wmat must be finite")
    norms = np.linalg.norm(Wmat, axis=1)
    if np.any(norms == 0):
        raise ValueError("every row w_j must be non-zero")
    threshold = _max_kth_normalized(Wmat / norms[:, None], np.zeros(Wmat.shape[0]), k, points)
    if not math.isfinite(threshold):
        raise ValueError(f"points must hold at least one point, all finite: the threshold over them is {threshold}")
    return threshold


def _with_margin(t: float) -> float:
    return t + _MARGIN * max(1.0, abs(t))


def repair_sparsity(net, k: int) -> SparseReLUNetwork:
    """Make ``net`` k-sparse on the whole cube by raising biases with one common shift.

    The repair is ``b_j <- b_j + delta ||w_j||`` for all ``j`` with a common
    ``delta >= 0``: neuron ``j`` stays active at ``x`` iff
    ``(<w_j, x> - b_j) / ||w_j|| > delta``, so the smallest valid ``delta`` is
    ``max_x`` of the ``(k+1)``-th largest normalised preactivation (as in
    :func:`densest_threshold`), plus a relative margin of ``1e-9``. It only
    removes activations (never adds one) and leaves ``u``, ``w_j`` unchanged. A
    neuron with ``w_j = 0`` is active everywhere or nowhere; its bias is set to
    ``max(b_j, 0)`` (never active). Networks that are already k-sparse are
    returned unchanged (as a copy). The result is verified with
    :meth:`SparseReLUNetwork.max_active`.

    Parameters
    ----------
    net : SparseReLUNetwork
        With ``net.n_inputs <= EXACT_MAX_N``.
    k : int
        Target sparsity, ``1 <= k <= s``.

    Returns
    -------
    SparseReLUNetwork
        A new network with ``max_active() <= k``.
    """
    net = _net(net)
    n = net.n_inputs
    if n > EXACT_MAX_N:
        raise ValueError(f"repair_sparsity enumerates the cube: n must be <= {EXACT_MAX_N}, got {n}")
    _, _, k = _nsk(max(n, 1), net.n_neurons, k)
    if net.max_active() <= k:
        return _copy(net)
    b = net.b.copy()
    norms = np.linalg.norm(net.W, axis=1)
    zero = norms == 0
    b[zero] = np.maximum(b[zero], 0.0)
    live = ~zero
    q = _max_kth_normalized(net.W[live] / norms[live, None], b[live] / norms[live], k)
    delta = _with_margin(max(q, 0.0))
    for _ in range(200):
        cand = b.copy()
        cand[live] += delta * norms[live]
        out = _copy(net, b=cand)
        if out.max_active() <= k:
            return out
        delta = max(2.0 * delta, 1e-12)
    raise RuntimeError("repair_sparsity: could not certify k-sparsity (non-finite weights?)")  # pragma: no cover


# ---------------------------------------------------------------------------
# families
# ---------------------------------------------------------------------------


def _random_directions(n: int, s: int, rng: np.random.Generator, weights: str) -> np.ndarray:
    if weights == "gaussian":
        return rng.standard_normal((s, n))
    if weights == "sign":
        return 1.0 - 2.0 * rng.integers(0, 2, size=(s, n)).astype(np.float64)
    if weights == "sparse":
        m = max(1, int(round(math.sqrt(n))))
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


# ---------------------------------------------------------------------------
# objectives
# ---------------------------------------------------------------------------

OBJECTIVE_KINDS = ("lemma9", "lemma10", "edge")


def make_ratio_objective(kind: str, k: int, rho=None) -> Callable[[SparseReLUNetwork], float]:
    """Ratio of an exact sensitivity of ``h`` to a bound for ``H_{n,s,k}^{W,B}``.

    The returned callable takes a network (``n <= 28``; it enumerates the
    cube), reads ``n = net.n_inputs``, ``s = net.n_neurons``,
    ``W = net.scale_W()``, ``B = net.scale_B()`` and uses the class sparsity
    ``k`` given here (not the network's certified maximum, which may be
    smaller; the caller guarantees ``net`` is ``k``-sparse, as
    :func:`adversarial_search` does):

    * ``"lemma9"``: ``AS(h) / lemma9_average_sensitivity(n, s, k, W, B)``;
    * ``"lemma10"``: ``NS_rho(h) / lemma10_noise_sensitivity(rho, n, s, k, W, B)``;
    * ``"edge"``: ``AS(h) / (4 k^2 W^2)``, the elementary bound of the module
      docstring (never above 1 for a k-sparse ``h``).

    The bounds are the paper's with hidden constants 1 (:mod:`sparseact.bounds`).
    A zero denominator gives ``0`` for a zero numerator, ``inf`` otherwise.

    Parameters
    ----------
    kind : {"lemma9", "lemma10", "edge"}
    k : int
        Sparsity of the class, ``k >= 1`` (and ``<= s`` of the networks).
    rho : float, optional
        Required for ``"lemma10"``, in ``[-1, 1)``; not allowed otherwise.

    Returns
    -------
    callable
        ``net -> float``.
    """
    if kind not in OBJECTIVE_KINDS:
        raise ValueError(f"kind must be one of {OBJECTIVE_KINDS}, got {kind!r}")
    k = check_int(k, "k")
    if kind == "lemma10":
        if rho is None:
            raise ValueError("rho is required for kind='lemma10'")
        rho = check_rho(rho, scalar=True)
    elif rho is not None:
        raise ValueError(f"rho is only used by kind='lemma10', got rho={rho!r} for kind={kind!r}")

    def _ratio(num: float, den: float) -> float:
        if den > 0:
            return num / den
        return 0.0 if num == 0 else math.inf

    def objective(net: SparseReLUNetwork) -> float:
        net = _net(net)
        n, s = net.n_inputs, net.n_neurons
        if k > s:
            raise ValueError(f"objective built for k={k} but the network has only s={s} neurons")
        table = net.truth_table()
        W, B = net.scale_W(), net.scale_B()
        if kind == "lemma9":
            return _ratio(average_sensitivity(table), float(lemma9_average_sensitivity(n, s, k, W, B)))
        if kind == "lemma10":
            return _ratio(
                float(noise_sensitivity(table, rho)), float(lemma10_noise_sensitivity(rho, n, s, k, W, B))
            )
        return _ratio(average_sensitivity(table), 4.0 * k * k * W * W)

    objective.__name__ = f"{kind}_ratio_k{k}" + ("" if rho is None else f"_rho{rho:g}")
    objective.__doc__ = f"Ratio objective {kind!r} with class sparsity k={k}" + (
        "" if rho is None else f" and rho={rho}"
    )
    return objective


# ---------------------------------------------------------------------------
# adversarial search
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class SearchResult:
    """Outcome of :func:`adversarial_search`.

    Attributes
    ----------
    best : SparseReLUNetwork
        Best network found: ``k``-sparse on the whole cube (exactly certified)
        and normalised to ``scale_W() == 1``.
    best_value : float
        ``objective(best)``.
    history : ndarray, shape (restarts,)
        Best value found so far after each restart (non-decreasing).
    evaluations : int
        Number of objective calls.
    """

    best: SparseReLUNetwork
    best_value: float
    history: np.ndarray
    evaluations: int


def _project(net: SparseReLUNetwork, k: int) -> SparseReLUNetwork | None:
    """Repair to k-sparse, normalise to W = 1 and certify; None if impossible."""
    if not (np.all(np.isfinite(net.u)) and np.all(np.isfinite(net.W)) and np.all(np.isfinite(net.b))):
        return None
    net = repair_sparsity(net, k)
    sW = net.scale_W()
    if not (sW > 0 and math.isfinite(sW)):
        return None
    net = rescale(net, W=1.0)
    if net.max_active() > k:  # pragma: no cover - rescale keeps the pattern
        return None
    return net


def _mutate(net: SparseReLUNetwork, sigma: float, rng: np.random.Generator) -> SparseReLUNetwork:
    """Gaussian perturbation scaled to each parameter block.

    ``w_j += sigma ||w_j|| / sqrt(n) N(0, I_n)``, ``b_j += sigma ||w_j|| N(0, 1)``,
    ``u_j += sigma ||u||_inf N(0, 1)``.
    """
    s, n = net.W.shape
    norms = np.linalg.norm(net.W, axis=1)
    norms = np.where(norms > 0, norms, 1.0)
    Wn = net.W + sigma * (norms / math.sqrt(n))[:, None] * rng.standard_normal((s, n))
    b = net.b + sigma * norms * rng.standard_normal(s)
    umax = float(np.max(np.abs(net.u))) or 1.0
    u = net.u + sigma * umax * rng.standard_normal(s)
    return SparseReLUNetwork(u, Wn, b)


def _value(objective, net) -> float:
    value = float(objective(net))
    return -math.inf if math.isnan(value) else value


def adversarial_search(
    objective: Callable[[SparseReLUNetwork], float],
    n: int,
    s: int,
    k: int,
    rng,
    restarts: int = 8,
    iterations: int = 200,
    step: float = 0.3,
    init: Sequence[SparseReLUNetwork] | None = None,
) -> SearchResult:
    """Maximise ``objective`` over certified k-sparse networks with ``s`` neurons on ``n`` inputs.

    A gradient-free (1+1)-evolution strategy with random restarts. Every
    candidate is *projected* before it is evaluated:

    1. k-sparsity on the whole cube is enforced by :func:`repair_sparsity`
       (all biases raised by one common normalised shift,
       ``b_j <- b_j + delta ||w_j||``; only activations are removed);
    2. ``u`` is rescaled so that ``scale_W() == 1`` (:func:`rescale`; the
       activation pattern is unchanged), i.e. the objective sees networks of
       ``H_{n,s,k}^{1,B}``;
    3. ``max_active() <= k`` is certified exactly over ``{-1, 1}^n``.

    Restart ``r`` starts from ``init[r]`` when given (projected as above; so an
    ``init`` network that is already k-sparse is only normalised), otherwise
    from :func:`random_sparse_network` with weights cycling through
    ``"gaussian"``, ``"sign"``, ``"sparse"``. Each of the ``iterations`` steps
    perturbs the current network (Gaussian noise with relative size ``sigma``
    on ``w_j``, ``b_j`` and ``u``; see ``_mutate``), projects it, and keeps it
    if its value is ``>=`` the current one. ``sigma`` starts at ``step`` and
    follows the 1/5th success rule (times ``exp(1/3)`` on success, times
    ``exp(-1/12)`` on failure; clipped to ``[1e-4, 2]``). NaN values count as
    ``-inf``; ``ValueError`` if no network gets a finite value.

    The search is elitist: the result is at least the value of every starting
    network (after projection). All randomness comes from ``rng``, so the
    result is deterministic for a given generator state (and deterministic
    objective).

    Parameters
    ----------
    objective : callable
        ``net -> float`` to maximise (e.g. :func:`make_ratio_objective`).
    n, s, k : int
        ``1 <= n <= SEARCH_MAX_N``, ``1 <= k <= s``.
    rng : numpy.random.Generator
    restarts : int
        Number of restarts, ``>= 1`` and ``>= len(init)``.
    iterations : int
        Perturbation steps per restart, ``>= 0``; ``restarts * (iterations + 1)`` evaluations at most
        :data:`sparseact._validation.MAX_SEARCH_EVALUATIONS` (else ``ValueError`` giving the count).
    step : float
        Initial relative perturbation size, ``> 0``.
    init : sequence of SparseReLUNetwork, optional
        Starting networks (each with ``s`` neurons on ``n`` inputs).

    Returns
    -------
    SearchResult
    """
    if not callable(objective):
        raise ValueError("objective must be callable (net -> float)")
    n, s, k = _nsk(n, s, k)
    if n > SEARCH_MAX_N:
        raise ValueError(f"adversarial_search certifies on the whole cube every step: n must be <= {SEARCH_MAX_N}, got {n}")
    rng = _rng(rng)
    restarts = check_int(restarts, "restarts")
    iterations = check_int(iterations, "iterations", minimum=0)
    check_work(restarts * (iterations + 1), "MAX_SEARCH_EVALUATIONS",
               f"adversarial_search with restarts = {restarts}, iterations = {iterations}", "objective evaluations")
    step = _real(step, "step", positive=True)
    init = [] if init is None else list(init)
    if len(init) > restarts:
        raise ValueError(f"got {len(init)} init networks for only {restarts} restarts")
    for i, net in enumerate(init):
        _net(net, f"init[{i}]")
        if net.n_inputs != n or net.n_neurons != s:
            raise ValueError(
                f"init[{i}] has s={net.n_neurons} neurons on n={net.n_inputs} inputs, expected s={s}, n={n}"
            )

    best, best_value, history, evaluations = None, -math.inf, [], 0
    for r in range(restarts):
        if r < len(init):
            start = init[r]
        else:
            start = random_sparse_network(n, s, k, rng, weights=WEIGHT_KINDS[(r - len(init)) % len(WEIGHT_KINDS)])
        parent = _project(start, k)
        if parent is None:
            raise ValueError(f"starting network of restart {r} cannot be normalised (scale_W() == 0)")
        f_parent = _value(objective, parent)
        evaluations += 1
        sigma = step
        for _ in range(iterations):
            child = _project(_mutate(parent, sigma, rng), k)
            success = False
            if child is not None:
                f_child = _value(objective, child)
                evaluations += 1
                if f_child >= f_parent:
                    parent, f_parent, success = child, f_child, True
            sigma *= math.exp(1.0 / 3.0) if success else math.exp(-1.0 / 12.0)
            sigma = min(2.0, max(1e-4, sigma))
        if best is None or f_parent > best_value:
            best, best_value = parent, f_parent
        history.append(best_value)
    if not math.isfinite(best_value):
        raise ValueError(f"objective gave no finite value on any of the {evaluations} networks evaluated "
                         f"(best {best_value}; NaN counts as -inf): nothing to maximise")
    return SearchResult(best, float(best_value), np.asarray(history, dtype=np.float64), evaluations)
