"""Membership of ``H_{n,s,k}^{W,B}``: certified sparsity, rescaling, the densest threshold and the sparsity repair.

Notation as in :mod:`sparseact.families`: neuron ``j`` is active at ``x`` when
``<w_j, x> - b_j > 0`` (strictly), ``h`` is ``k``-sparse when at most ``k``
neurons are active at every ``x`` of {-1, 1}^n, and ``W``, ``B`` are
:meth:`SparseReLUNetwork.scale_W`, :meth:`SparseReLUNetwork.scale_B`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from sparseact._validation import check_int
from sparseact.families._common import _nsk, _real, _rng, _rows_per_chunk, _uniform_chunks, _with_margin
from sparseact.networks import SparseReLUNetwork
from sparseact.networks import check_network as _net

__all__ = ["EXACT_MAX_N", "SparsityCertificate", "certify_sparsity", "densest_threshold", "repair_sparsity", "rescale"]

#: Largest ``n`` whose cube is enumerated to certify sparsity exactly.
EXACT_MAX_N = 22


def _copy(net: SparseReLUNetwork, u=None, b=None) -> SparseReLUNetwork:
    return SparseReLUNetwork(net.u.copy() if u is None else u, net.W.copy(), net.b.copy() if b is None else b)


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
        # deferred: numba loads only when a cube is scanned
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
