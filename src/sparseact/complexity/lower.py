r"""Scalable lower bounds of the sup and of ``R_H(S)``: verified networks of ``H_{n,s,k}^{W,B}`` found by search.

For one sign vector ``zeta`` the value ``(1/m) sum_i zeta_i h(x_i)`` of any network
``h`` of the class (scales and ``k``-sparsity on ``S`` checked) is a lower bound of
``sup_{h in H} (1/m) sum_i zeta_i h(x_i)``; averaged over sign vectors it
estimates a lower bound of ``R_H(S)``.

Implementation
--------------
The search (coordinate ascent over neurons, :func:`sup_lower_bound`) is compiled
with numba: one compiled call runs the search for *every* ``(zeta, restart)``
instance of an estimate, so no Python code runs per neuron placement. The
per-neuron polish (a small SOCP per neuron with its cell held fixed) is one
batched barrier solve over all neurons of all instances
(:mod:`sparseact.complexity.barrier_polish`). The compiled search
draws its random numbers from numba's generator, seeded from the caller's
``numpy.random.Generator`` at each call (one seed per batch), so results are a
deterministic function of that generator.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numba
import numpy as np

from sparseact._validation import check_int, check_memory, check_work
from sparseact.complexity._common import (
    _as_points,
    _as_zeta,
    _check_confidence,
    _check_rng,
    _check_sk,
    _scale,
)
from sparseact.complexity.barrier_polish import _polish_networks
from sparseact.complexity.exact import _mc
from sparseact.networks import SparseReLUNetwork

#: Relative improvement a move must bring to be accepted (guards against cycling on rounding).
_IMPROVE_RTOL = 1e-12
#: Absolute counterpart of :data:`_IMPROVE_RTOL`.
_IMPROVE_ATOL = 1e-15
#: Relative shift of a threshold above the binding point, so points at the threshold stay inactive.
_THRESHOLD_SHIFT = 1e-9
#: Local ascent steps on the best direction of each placement.
_REFINE_STEPS = 3
#: Directions projected onto the cone of saturated points (homogeneous class, ``B = 0``).
_N_PROJECTED = 8
#: Norm below which a candidate direction is discarded.
_MIN_DIRECTION_NORM = 1e-12


@dataclass(frozen=True)
class LowerBoundSup:
    """A network of ``H_{n,s,k}^{W,B}`` found by the heuristic search for one ``zeta``.

    Attributes
    ----------
    value : float
        ``(1/m) sum_i zeta_i h(x_i)`` of ``network``: a **lower bound
        (estimate)** of the sup (the network is verified to lie in the class).
    network : SparseReLUNetwork
    repaired : int
        Neurons switched off by the final feasibility repair (rounding at
        thresholds; normally 0).
    """

    value: float
    network: SparseReLUNetwork
    repaired: int


# ---------------------------------------------------------------------------
# compiled search (numba)
# ---------------------------------------------------------------------------


@numba.njit(cache=True)
def _set_row(M, r, v):  # pragma: no cover - compiled
    """``M[r] = v`` (``v`` of ``M``'s row length) as a loop: the same element copies.

    numba's assignment of an array to a row compiles the message of its shape check, a string formatted from the
    shapes, for shapes that agree by construction.
    """
    for j in range(v.shape[0]):
        M[r, j] = v[j]


@numba.njit(cache=True)
def _set_column(M, c, v):  # pragma: no cover - compiled
    """``M[:, c] = v`` (``v`` of ``M``'s column length) as a loop (see :func:`_set_row`)."""
    for i in range(v.shape[0]):
        M[i, c] = v[i]


@numba.njit(cache=True)
def _best_threshold(P, zeta, tau_min, W, B, max_size):  # pragma: no cover - compiled
    """Best ``(value, direction index, tau, t)`` for neurons ``w = t u_d``, ``b = t tau``.

    For a unit direction ``u`` with projections ``p_i = <u, x_i>`` (row ``d`` of
    ``P``, shape ``(D, m)``) the neuron ``(t u, t tau)`` has cell ``{p_i > tau}`` and contributes
    ``t g(tau)``, ``g(tau) = sum_{p_i > tau} zeta_i (p_i - tau)`` (continuous,
    piecewise linear). The scales allow ``t = min(W, B/|tau|)``; on each piece
    between consecutive breakpoints of ``{p_i} U {-B/W, B/W}``, ``t |g(tau)|`` is
    ``W |affine(tau)|`` or ``B |affine(1/tau)|``, convex in ``tau`` or in
    ``1/tau``, so its maximum over ``tau >= tau_min[d]`` (points already covered
    ``k`` times must stay inactive) is attained at a breakpoint, at ``+-B/W`` or
    at ``tau_min[d]``. (``tau -> -inf``, i.e. ``w = 0, b = -B``, is handled by the
    caller.) ``max_size >= 0`` caps the number of points of the cell (``-1``: no cap).
    One sort per direction; ties among the ``p_i`` are grouped (``r`` counts the
    points strictly above ``tau``), so the order within ties does not matter.
    """
    D, m = P.shape
    best_val, best_d, best_tau, best_t = -np.inf, 0, 0.0, 0.0
    CP = np.zeros(m + 1)
    CZ = np.zeros(m + 1)
    ps = np.empty(m)
    pos = np.empty(m)
    neg = np.empty(m)
    n_extra = 3 if W > 0 else 1
    for d in range(D):
        # only points above tau_min can be active: sort those (tau < tau_min is infeasible)
        tmin = tau_min[d]
        n_pos, n_neg = 0, 0
        for i in range(m):
            if P[d, i] > tmin:
                if zeta[i] > 0:
                    pos[n_pos] = -P[d, i]
                    n_pos += 1
                else:
                    neg[n_neg] = -P[d, i]
                    n_neg += 1
        c = n_pos + n_neg
        sp = np.sort(pos[:n_pos])  # ascending negatives: descending projections
        sn = np.sort(neg[:n_neg])
        a, b = 0, 0
        for q in range(c):  # merge, accumulating sum zeta_i p_i and sum zeta_i
            if b >= n_neg or (a < n_pos and sp[a] <= sn[b]):
                ps[q] = -sp[a]
                z = 1.0
                a += 1
            else:
                ps[q] = -sn[b]
                z = -1.0
                b += 1
            CP[q + 1] = CP[q] + z * ps[q]
            CZ[q + 1] = CZ[q] + z
        r = 0
        for q in range(c + n_extra):
            if q < c:
                tau = ps[q]
                if q == 0 or ps[q] != ps[q - 1]:
                    r = q
                rr = r
            else:
                e = q - c
                if e == 0:
                    if np.isfinite(tmin):
                        tau = tmin
                    elif c > 0:
                        tau = ps[0]
                    else:
                        continue
                elif e == 1:
                    tau = B / W
                else:
                    tau = -B / W
                if tau < tmin:
                    continue
                rr = 0
                for i in range(c):
                    if ps[i] > tau:
                        rr += 1
                    else:
                        break
            if max_size >= 0 and rr > max_size:
                continue
            g = CP[rr] - tau * CZ[rr]
            if tau == 0.0:
                t = W
            else:
                t = min(W, B / max(abs(tau), 1e-300))
            val = t * abs(g)
            if val > best_val:
                best_val, best_d, best_tau, best_t = val, d, tau, t
    return best_val, best_d, best_tau, best_t


@numba.njit(cache=True)
def _column_max(P, rows):  # pragma: no cover - compiled
    """``max_{i in rows} P[d, i]`` per direction ``d`` (``-inf`` when ``rows`` is empty)."""
    out = np.full(P.shape[0], -np.inf)
    for d in range(P.shape[0]):
        for i in range(P.shape[1]):
            if rows[i] and P[d, i] > out[d]:
                out[d] = P[d, i]
    return out


@numba.njit(cache=True)
def _normalised_rows(U, count):  # pragma: no cover - compiled
    """The first ``count`` rows of ``U`` with norm above :data:`_MIN_DIRECTION_NORM`, normalised."""
    keep = 0
    out = np.empty((count, U.shape[1]))
    for r in range(count):
        nrm = np.sqrt(np.sum(U[r] * U[r]))
        if nrm > _MIN_DIRECTION_NORM:
            _set_row(out, keep, U[r] / nrm)
            keep += 1
    return out[:keep].copy()


@numba.njit(cache=True)
def _directions(X, zeta, avail, cell, w_cur, n_random, others):  # pragma: no cover - compiled
    """Candidate unit directions of one placement (see :func:`sup_lower_bound`)."""
    m, n = X.shape
    U = np.zeros((others.shape[0] + 10 + n_random, n))
    c = 0
    for r in range(others.shape[0]):
        _set_row(U, c, others[r])
        c += 1
    wn = np.sqrt(np.sum(w_cur * w_cur))
    if np.any(w_cur != 0.0):
        _set_row(U, c, w_cur)
        _set_row(U, c + 1, w_cur / wn + 0.3 * np.random.standard_normal(n) / math.sqrt(n))
        c += 2
    if np.any(cell):
        v = np.zeros(n)
        for i in range(m):
            if cell[i]:
                v += zeta[i] * X[i]
        _set_row(U, c, v)
        _set_row(U, c + 1, -v)
        c += 2
    n_avail = 0
    for i in range(m):
        if avail[i]:
            n_avail += 1
    if n_avail > 0:
        v = np.zeros(n)
        vp = np.zeros(n)
        vn = np.zeros(n)
        has_p, has_n = False, False
        idx = np.empty(n_avail, dtype=np.int64)
        a = 0
        for i in range(m):
            if avail[i]:
                v += zeta[i] * X[i]
                if zeta[i] > 0:
                    vp += X[i]
                    has_p = True
                else:
                    vn += X[i]
                    has_n = True
                idx[a] = i
                a += 1
        _set_row(U, c, v)
        _set_row(U, c + 1, -v)
        c += 2
        if has_p:
            _set_row(U, c, vp)
            c += 1
        if has_n:
            _set_row(U, c, vn)
            c += 1
        for _ in range(2):  # isolate around available points
            _set_row(U, c, X[idx[np.random.randint(0, n_avail)]])
            c += 1
    for _ in range(n_random):
        _set_row(U, c, np.random.standard_normal(n))
        c += 1
    return _normalised_rows(U, c)


@numba.njit(cache=True)
def _least_squares(A, cols, b):  # pragma: no cover - compiled
    """``argmin_z ||A[:, cols] z - b||`` by the normal equations (Gaussian elimination, tiny ridge)."""
    k = cols.size
    G = np.empty((k, k + 1))
    for a in range(k):
        for c in range(k):
            G[a, c] = np.sum(A[:, cols[a]] * A[:, cols[c]])
        G[a, a] += 1e-12 * (1.0 + G[a, a])
        G[a, k] = np.sum(A[:, cols[a]] * b)
    for c in range(k):  # elimination with partial pivoting
        piv = c
        for r in range(c + 1, k):
            if abs(G[r, c]) > abs(G[piv, c]):
                piv = r
        for j in range(k + 1):
            G[c, j], G[piv, j] = G[piv, j], G[c, j]
        for r in range(c + 1, k):
            f = G[r, c] / G[c, c]
            for j in range(c, k + 1):
                G[r, j] -= f * G[c, j]
    z = np.zeros(k)
    for r in range(k - 1, -1, -1):
        acc = G[r, k]
        for j in range(r + 1, k):
            acc -= G[r, j] * z[j]
        z[r] = acc / G[r, r]
    return z


@numba.njit(cache=True)
def _nnls(A, b, maxiter):  # pragma: no cover - compiled
    """Lawson-Hanson: ``argmin_{x >= 0} ||A x - b||`` (``A`` of shape ``(p, q)``)."""
    p, q = A.shape
    x = np.zeros(q)
    passive = np.zeros(q, dtype=np.bool_)
    column_sums = np.zeros(q)  # np.abs(A).sum(axis=0) in its order (a row at a time), without its axis check's message
    for i in range(p):
        for j in range(q):
            column_sums[j] += abs(A[i, j])
    tol = 10.0 * 2.220446049250313e-16 * max(p, q) * max(column_sums.max(), 1.0)
    it = 0
    while True:
        wgrad = A.T @ (b - A @ x)
        j_best, w_best = -1, tol
        for j in range(q):
            if not passive[j] and wgrad[j] > w_best:
                j_best, w_best = j, wgrad[j]
        if j_best < 0:
            return x
        passive[j_best] = True
        while True:
            it += 1
            if it > maxiter:
                return x
            idx = np.flatnonzero(passive)
            z_p = _least_squares(A, idx, b)
            if np.all(z_p > tol):
                x[:] = 0.0
                for a in range(idx.size):
                    x[idx[a]] = z_p[a]
                break
            alpha = np.inf
            for a in range(idx.size):
                if z_p[a] <= tol:
                    den = x[idx[a]] - z_p[a]
                    if den > 0:
                        alpha = min(alpha, x[idx[a]] / den)
            if not np.isfinite(alpha):
                alpha = 0.0
            for a in range(idx.size):
                x[idx[a]] += alpha * (z_p[a] - x[idx[a]])
            for j in range(q):
                if passive[j] and x[j] <= tol:
                    passive[j] = False
                    x[j] = 0.0
            if not np.any(passive):
                break


@numba.njit(cache=True)
def _refine_direction(X, zeta, sat, W, B, max_size, u, val, tau, t, steps):  # pragma: no cover - compiled
    """Local ascent on the direction of the best neuron ``(t u, t tau)``.

    The contribution ``t sum_{p_i > tau} zeta_i (<u, x_i> - tau)`` with ``tau`` tied
    to the binding point ``j*`` (the point at the threshold) has the
    (sub)gradient ``t sigma (sum_cell zeta_i x_i - (sum_cell zeta_i) x_{j*})`` in
    ``u``; each step evaluates three step sizes along its tangent part plus two
    random perturbations (exact thresholds by :func:`_best_threshold`) and keeps
    the best direction if it improves.
    """
    m, n = X.shape
    for _ in range(steps):
        p = X @ u
        gsum = np.zeros(n)
        zsum, objective = 0.0, 0.0
        j_star, p_star = -1, -np.inf
        for i in range(m):
            if p[i] > tau:
                gsum += zeta[i] * X[i]
                zsum += zeta[i]
                objective += zeta[i] * (p[i] - tau)
            elif p[i] > p_star:
                j_star, p_star = i, p[i]
        sigma = 1.0 if objective >= 0 else -1.0
        grad = gsum.copy()
        if j_star >= 0 and abs(p_star - tau) <= 1e-9 * (1.0 + abs(tau)):
            grad = grad - zsum * X[j_star]
        grad = sigma * grad
        grad = grad - (grad @ u) * u
        gn = np.sqrt(np.sum(grad * grad))
        Ud = np.empty((5, n))
        c = 0
        if gn > 0:
            for eta in (0.02, 0.08, 0.3):
                _set_row(Ud, c, u + eta * grad / gn)
                c += 1
        for _r in range(2):
            _set_row(Ud, c, u + 0.1 * np.random.standard_normal(n) / math.sqrt(n))
            c += 1
        Uc = Ud[:c].copy()
        for r in range(c):
            _set_row(Uc, r, Uc[r] / np.sqrt(np.sum(Uc[r] * Uc[r])))
        P = Uc @ X.T  # projections, one row per direction
        v2, d2, tau2, t2 = _best_threshold(P, zeta, _column_max(P, sat), W, B, max_size)
        if v2 > val * (1 + 1e-12):
            val, u, tau, t = v2, Uc[d2].copy(), tau2, t2
        else:
            break
    return val, u, tau, t


@numba.njit(cache=True)
def _place_neuron(X, zeta, counts, k, W, B, cell, w_cur, n_random, max_size, others):  # pragma: no cover - compiled
    """Best neuron over candidate directions given the coverage ``counts`` of the other neurons.

    Returns ``(signed contribution, w, b, active mask)``; the contribution is
    recomputed from the neuron's own preactivations, and a candidate that would
    activate a saturated point (through rounding) is discarded.
    """
    m, n = X.shape
    sat = counts >= k
    any_sat = np.any(sat)
    U0 = _directions(X, zeta, ~sat, cell, w_cur, n_random, others)
    U = U0
    if B == 0.0 and any_sat and U0.shape[0] > 0:
        # homogeneous neurons: saturated points need <u, x_j> <= 0 exactly, so also try
        # the projections onto that cone, Pi_K(d) = d - X_sat^T lambda* (Moreau, via NNLS)
        XsT = np.ascontiguousarray(X[sat].T)
        n_proj = min(_N_PROJECTED, U0.shape[0])
        extra = np.empty((n_proj, n))
        c = 0
        for r in range(n_proj):
            lam = _nnls(XsT, U0[r].copy(), 20 * XsT.shape[1] + 50)
            v = U0[r] - XsT @ lam
            nv = np.sqrt(np.sum(v * v))
            if nv > 1e-9:
                _set_row(extra, c, v / nv)
                c += 1
        if c > 0:
            U = np.vstack((U0, extra[:c]))
    n_cand = 0
    cand_w = np.zeros((2, n))
    cand_b = np.zeros(2)
    if U.shape[0] > 0 and W > 0:
        P = U @ X.T  # projections, one row per direction
        val, d, tau, t = _best_threshold(P, zeta, _column_max(P, sat), W, B, max_size)
        u = U[d].copy()
        if val > 0:
            val, u, tau, t = _refine_direction(X, zeta, sat, W, B, max_size, u, val, tau, t, _REFINE_STEPS)
        if val > 0:
            if B == 0.0:  # homogeneous: tau = 0 exactly, b = 0
                _set_row(cand_w, 0, W * u)
                cand_b[0] = 0.0
            else:
                tau_s = tau + _THRESHOLD_SHIFT * (1.0 + abs(tau))
                t_s = min(W, B / abs(tau_s)) if tau_s != 0 else W
                _set_row(cand_w, 0, t_s * u)
                cand_b[0] = t_s * tau_s
            n_cand = 1
    if not any_sat and B > 0 and (max_size < 0 or m <= max_size):
        # w = 0, b = -B: every point active, value B |sum zeta|
        cand_w[n_cand] = 0.0
        cand_b[n_cand] = -B
        n_cand += 1
    best_v, best_w, best_b, best_a = 0.0, np.zeros(n), 0.0, np.zeros(m, dtype=np.bool_)
    for c in range(n_cand):
        pre = X @ cand_w[c] - cand_b[c]
        act = pre > 0
        if np.any(act & sat):
            continue
        v = 0.0
        for i in range(m):
            if pre[i] > 0:
                v += zeta[i] * pre[i]
        if abs(v) > abs(best_v):
            best_v, best_w, best_b, best_a = v, cand_w[c].copy(), cand_b[c], act
    return best_v, best_w, best_b, best_a


@numba.njit(cache=True)
def _random_cap(m):  # pragma: no cover - compiled
    """A random cell-size cap, biased towards small cells (``m u^2``, at least 1)."""
    return max(1, int(math.ceil(m * np.random.random() ** 2)))  # noqa: RUF046 (numba: keep the int64 explicit)


# inlined into its one caller, _search_batch: compiled as a function of its own, its code (with _place_neuron's and
# everything below) would be optimised and compiled twice, once for it and once within _search_batch
@numba.njit(cache=True, inline="always")
def _search(X, zeta, s, k, W, B, iterations, n_random, Wm, bm, use_init, capped):  # pragma: no cover - compiled
    """Coordinate ascent over neurons, greedy construction or a given start, single and pair moves.

    ``use_init``: start from ``(Wm, bm)`` (modified in place) instead of the greedy
    construction (uncapped, or with random size caps when ``capped``). Returns the
    output signs ``u_j = sign(contribution_j)``.
    """
    m, n = X.shape
    # -1 (no cap) typed as int64: a literal -1 would compile a second specialisation of _place_neuron
    uncapped = np.int64(-1)
    empty = np.zeros((0, n))
    act = np.zeros((m, s), dtype=np.bool_)
    val = np.zeros(s)
    counts = np.zeros(m, dtype=np.int64)
    if use_init:
        for j in range(s):
            pre = X @ Wm[j] - bm[j]
            for i in range(m):
                if pre[i] > 0:
                    act[i, j] = True
                    counts[i] += 1
                    val[j] += zeta[i] * pre[i]
    else:
        for j in range(s):
            cap = _random_cap(m) if capped else uncapped
            v, w, b, a = _place_neuron(X, zeta, counts, k, W, B, act[:, j].copy(), Wm[j].copy(), n_random, cap, empty)
            _set_row(Wm, j, w)
            bm[j], val[j] = b, v
            _set_column(act, j, a)
            counts += a.astype(np.int64)
    for _sweep in range(iterations):
        improved = False
        # single-neuron moves: re-place neuron j given the others
        for j in np.random.permutation(s):
            counts -= act[:, j].astype(np.int64)
            others = empty
            if k > 1 and s > 1:  # overlapping cells: try the directions of up to three other neurons
                rest = np.random.permutation(np.concatenate((np.arange(j), np.arange(j + 1, s))))[: min(3, s - 1)]
                others = np.empty((rest.size, n))
                n_others = 0
                for i in rest:
                    if np.any(Wm[i] != 0.0):
                        _set_row(others, n_others, Wm[i])
                        n_others += 1
                others = others[:n_others].copy()
            v, w, b, a = _place_neuron(
                X, zeta, counts, k, W, B, act[:, j].copy(), Wm[j].copy(), n_random, uncapped, others
            )
            if abs(v) > abs(val[j]) * (1 + _IMPROVE_RTOL) + _IMPROVE_ATOL:
                _set_row(Wm, j, w)
                bm[j], val[j] = b, v
                _set_column(act, j, a)
                improved = True
            counts += act[:, j].astype(np.int64)
        # pair moves: re-place j2 under a random size cap, then j1 given it
        if s >= 2:
            for j1 in np.random.permutation(s):
                j2 = np.random.randint(0, s - 1)
                if j2 >= j1:
                    j2 += 1
                old = abs(val[j1]) + abs(val[j2])
                counts -= act[:, j1].astype(np.int64) + act[:, j2].astype(np.int64)
                v2, w2, b2, a2 = _place_neuron(
                    X, zeta, counts, k, W, B, act[:, j2].copy(), Wm[j2].copy(), n_random, _random_cap(m), empty
                )
                v1, w1, b1, a1 = _place_neuron(
                    X,
                    zeta,
                    counts + a2.astype(np.int64),
                    k,
                    W,
                    B,
                    act[:, j1].copy(),
                    Wm[j1].copy(),
                    n_random,
                    uncapped,
                    empty,
                )
                if abs(v1) + abs(v2) > old * (1 + _IMPROVE_RTOL) + _IMPROVE_ATOL:
                    _set_row(Wm, j1, w1)
                    bm[j1], val[j1] = b1, v1
                    _set_column(act, j1, a1)
                    _set_row(Wm, j2, w2)
                    bm[j2], val[j2] = b2, v2
                    _set_column(act, j2, a2)
                    improved = True
                counts += act[:, j1].astype(np.int64) + act[:, j2].astype(np.int64)
        if not improved:
            break
    signs = np.ones(s)  # sign(contribution_j), +1 at 0 (a loop: np.where would compile its broadcasting)
    for j in range(s):
        if val[j] < 0:
            signs[j] = -1.0
    return signs


@numba.njit(cache=True)
def _search_batch(X, zetas, capped, s, k, W, B, iterations, n_random, Wm, bm, use_init, seed):  # pragma: no cover
    """:func:`_search` for every instance ``i`` (sign vector ``zetas[i]``, networks ``Wm[i], bm[i]`` in place).

    numba's generator is seeded with ``seed`` first, so the batch is deterministic.
    """
    np.random.seed(seed)
    um = np.ones((zetas.shape[0], s))
    for i in range(zetas.shape[0]):
        # Wm[i] and bm[i] are searched in place (views of the batch's arrays)
        _set_row(um, i, _search(X, zetas[i], s, k, W, B, iterations, n_random, Wm[i], bm[i], use_init, capped[i]))
    return um


# ---------------------------------------------------------------------------
# the lower bound for many sign vectors at once
# ---------------------------------------------------------------------------


def _seed(rng) -> int:
    return int(rng.integers(0, 2**32 - 1))


def _finish(X, zetas, s, k, W, B, Wm, bm, um) -> list[LowerBoundSup]:
    """Enforce the scales exactly in floating point, repair k-sparsity broken by rounding, verify the class.

    One network per row of ``zetas`` (``Wm[i], bm[i], um[i]``, shapes ``(Z, s, n)``, ``(Z, s)``, ``(Z, s)``).
    ``X``, ``zetas``, ``s``, ``k``, ``W`` and ``B`` were checked by the caller, so the class check and the
    objective use the arithmetic of :meth:`SparseReLUNetwork.preactivations`, :func:`in_class` and
    :func:`network_objective` on the networks' preactivations directly (bit for bit the same values: each
    network's products are the same BLAS calls on the same arrays, the rest is elementwise or a maximum) instead of
    re-checking the arguments for each of the many networks of a batch.
    """
    norms = np.linalg.norm(Wm, axis=2)
    with np.errstate(divide="ignore", invalid="ignore"):
        over_w = np.where(norms > W, W / norms, 1.0)
        over_b = np.where(np.abs(bm) > B, B / np.abs(bm), 1.0)
    shrink = np.minimum(over_w, over_b) * np.where((norms > W) | (np.abs(bm) > B), 1 - 1e-15, 1.0)
    Wm = Wm * shrink[:, :, None]
    bm = bm * shrink
    um = np.array(um, dtype=np.float64)
    pre = np.empty((len(zetas), X.shape[0], s))
    for i in range(len(zetas)):
        pre[i] = X @ Wm[i].T - bm[i]
    repaired = np.zeros(len(zetas), dtype=np.int64)
    for i in np.flatnonzero(np.count_nonzero(pre > 0, axis=2).max(axis=1, initial=0) > k):
        while True:
            counts = np.count_nonzero(pre[i] > 0, axis=1)
            bad = np.flatnonzero(counts > k)
            if bad.size == 0:
                break
            on = np.flatnonzero(pre[i, bad[0]] > 0)
            j = on[np.argmin(pre[i, bad[0], on])]  # the neuron barely active there
            Wm[i, j] = 0.0
            bm[i, j] = 0.0
            repaired[i] += 1
            pre[i] = X @ Wm[i].T - bm[i]
    # the class (Definition 2): ||u||_inf max_j ||w_j|| <= W and ||u||_inf max_j |b_j| <= B, each network's
    # scale_W() and scale_B(); every array finite, as SparseReLUNetwork checks its arguments
    top_u = np.max(np.abs(um), axis=1, initial=0.0)
    scale_w = top_u * np.max(np.linalg.norm(Wm, axis=2), axis=1, initial=0.0)
    scale_b = top_u * np.max(np.abs(bm), axis=1, initial=0.0)
    finite = np.isfinite(Wm).all() and np.isfinite(bm).all() and np.isfinite(um).all()
    if not (finite and np.all(scale_w <= W) and np.all(scale_b <= B)):  # pragma: no cover - defensive
        raise RuntimeError("lower-bound network failed the class check")
    relu = np.maximum(pre, 0.0)
    return [
        LowerBoundSup(
            value=float(zetas[i] @ (relu[i] @ um[i])) / X.shape[0],
            network=SparseReLUNetwork._from_checked(um[i], Wm[i], bm[i]),
            repaired=int(repaired[i]),
        )
        for i in range(len(zetas))
    ]


def _repeat(X, zetas, s, k, W, B, singles: list[LowerBoundSup]) -> list[LowerBoundSup]:
    """``s`` copies of the neuron of each one-neuron network (networks of ``H_{n,s,k}`` when ``k >= s``)."""
    Wm = np.stack([np.repeat(single.network.W, s, axis=0) for single in singles])
    bm = np.stack([np.repeat(single.network.b, s) for single in singles])
    um = np.stack([np.repeat(single.network.u, s) for single in singles])
    return _finish(X, zetas, s, k, W, B, Wm, bm, um)


def sup_lower_bounds(
    X,
    zetas,
    s: int,
    k: int,
    W,
    B,
    rng,
    restarts: int = 3,
    iterations: int = 6,
    n_random: int = 4,
    polish: bool = True,
    rounds: int = 2,
) -> list[LowerBoundSup]:
    """:func:`sup_lower_bound` for every row of ``zetas`` at once (one compiled search, batched polish).

    The ``len(zetas) * restarts`` searches run in one compiled call, each polish
    is one batched barrier solve over all their neurons; the best polished
    network of each sign vector's restarts wins. When ``k >= s`` sparsity cannot
    bind, the sup is ``s`` times the best single neuron's (reductions 2 and 4 of
    :mod:`sparseact.complexity`), so the search runs on ``H_{n,1,1}`` and the
    result is its neuron repeated ``s`` times.

    Parameters
    ----------
    X : array_like, shape (m, n)
    zetas : array_like, shape (Z, m)
        Sign vectors ``+-1``.
    s, k, W, B, rng, restarts, iterations, n_random, polish, rounds
        As in :func:`sup_lower_bound`; ``Z * restarts * rounds * iterations`` at most
        :data:`sparseact._validation.MAX_LOWER_BOUND_SWEEPS`, the directions it scores at most
        :data:`sparseact._validation.MAX_LOWER_BOUND_DIRECTIONS`, and one placement's directions within
        :data:`sparseact._validation.MEMORY_LIMIT_BYTES` (else ``ValueError`` giving the count).

    Returns
    -------
    list of LowerBoundSup
        One per sign vector: ``value`` is a **lower bound (estimate)** of its sup.
    """
    X = _as_points(X)
    m, n = X.shape
    zetas = np.asarray(zetas, dtype=np.float64)
    if zetas.ndim != 2:
        raise ValueError(f"zetas must have shape (Z, {m}), got {zetas.shape}")
    zetas = np.array([_as_zeta(z, m) for z in zetas]).reshape(-1, m)
    s, k = _check_sk(s, k)
    W = _scale(W, "W")
    B = _scale(B, "B")
    rng = _check_rng(rng)
    restarts = check_int(restarts, "restarts", 1)
    iterations = check_int(iterations, "iterations", 1)
    n_random = check_int(n_random, "n_random", 0)
    rounds = check_int(rounds, "rounds", 1)
    Z = zetas.shape[0]
    check_work(
        Z * restarts * rounds * iterations,
        "MAX_LOWER_BOUND_SWEEPS",
        f"sup_lower_bounds over {Z} sign vectors with restarts = {restarts}, rounds = {rounds}, "
        f"iterations = {iterations}",
        "sweeps",
    )
    check_work(
        Z * restarts * rounds * (3 * iterations + 1) * s * (n_random + 13),
        "MAX_LOWER_BOUND_DIRECTIONS",
        f"sup_lower_bounds over {Z} sign vectors with s = {s}, n_random = {n_random}, restarts = {restarts}, "
        f"rounds = {rounds}, iterations = {iterations}",
        "candidate directions",
    )
    # one placement's candidate directions: up to 3 other neurons', 10 more and n_random random ones, of length n
    check_memory((n_random + 13) * n * 8, f"sup_lower_bounds' candidate directions (n_random = {n_random}, n = {n})")
    if Z == 0:
        return []
    if k >= s > 1:
        # k-sparsity cannot bind: the sup is s times the best single neuron (module
        # docstring, reductions 2 and 4), so search H_{n,1,1} and repeat its best neuron
        singles = sup_lower_bounds(X, zetas, 1, 1, W, B, rng, restarts, iterations, n_random, polish, rounds)
        return _repeat(X, zetas, s, k, W, B, singles)
    # instance (z, rs) at index z * restarts + rs; restart 0 unconstrained, later ones with random size caps
    inst_zetas = np.ascontiguousarray(np.repeat(zetas, restarts, axis=0))
    capped = np.tile(np.arange(restarts) > 0, Z)
    Wm = np.zeros((Z * restarts, s, n))
    bm = np.zeros((Z * restarts, s))
    um = _search_batch(X, inst_zetas, capped, s, k, W, B, iterations, n_random, Wm, bm, False, _seed(rng))
    if polish:
        Wm, bm = _polish_networks(X, inst_zetas, Wm, bm, um, W, B)
        for _ in range(rounds - 1):
            Wm, bm = np.ascontiguousarray(Wm), np.ascontiguousarray(bm)
            um = _search_batch(X, inst_zetas, capped, s, k, W, B, iterations, n_random, Wm, bm, True, _seed(rng))
            Wm, bm = _polish_networks(X, inst_zetas, Wm, bm, um, W, B)
    pre = np.einsum("mn,isn->ism", X, Wm) - bm[:, :, None]
    totals = np.einsum("is,ism,im->i", um, np.maximum(pre, 0.0), inst_zetas).reshape(Z, restarts)
    best = np.zeros(Z, dtype=np.int64)
    for z in range(Z):
        for rs in range(1, restarts):
            if totals[z, rs] > totals[z, best[z]]:
                best[z] = rs
    chosen = np.arange(Z) * restarts + best
    return _finish(X, zetas, s, k, W, B, Wm[chosen], bm[chosen], um[chosen])


def sup_lower_bound(
    X,
    zeta,
    s: int,
    k: int,
    W,
    B,
    rng,
    restarts: int = 3,
    iterations: int = 6,
    n_random: int = 4,
    polish: bool = True,
    rounds: int = 2,
) -> LowerBoundSup:
    """Heuristic maximiser of ``(1/m) sum_i zeta_i h(x_i)`` over ``H_{n,s,k}^{W,B}`` (scalable).

    Search, with ``|u_j| = 1`` (reduction 1 of :mod:`sparseact.complexity`):

    * *Placement of one neuron* given the coverage of the others: candidate
      directions ``u`` (its current direction and a perturbation,
      ``+-sum_{i in I_j} zeta_i x_i``, ``+-sum_{i avail} zeta_i x_i``, the sums of
      available points with ``zeta_i = +1`` / ``-1``, two available points,
      ``n_random`` Gaussian directions, for ``k > 1`` the directions of up to three
      other neurons, for ``B = 0`` the projections onto the cone keeping saturated
      points off); along each, the exact best threshold and scale
      (:func:`_best_threshold`) subject to the points already covered ``k`` times
      staying inactive — so ``k``-sparsity holds by construction; then a few
      local (sub)gradient steps on the best direction (:func:`_refine_direction`).
    * *Coordinate ascent*: a greedy construction, then sweeps of single-neuron
      re-placements and pair moves (one neuron re-placed under a random cell-size
      cap, then the other), until no move improves (at most ``iterations`` sweeps).
    * *Polish* (``polish=True``): every neuron's ``(w, b)`` is re-optimised with its
      cell on ``S`` held fixed (the per-cell SOCP, :mod:`sparseact.complexity.barrier_polish`),
      which keeps all activation patterns; ``rounds - 1`` further ascent + polish rounds.
    * ``restarts`` independent runs (the first unconstrained, the others with
      random size caps in the greedy construction); the best polished network wins.

    The final network is rebuilt and verified with :func:`in_class`; neurons on
    points violating ``k``-sparsity through rounding are switched off. On tiny
    instances the result is within a few per cent of :func:`sup_exact` on
    average (see ``tests/test_complexity.py``); for large ``s`` it improves with
    more effort (``restarts``, ``iterations``, ``rounds``), i.e. it is not
    converged there. The search is compiled (numba); see :func:`sup_lower_bounds`
    for many sign vectors at once.

    Parameters
    ----------
    X : array_like, shape (m, n)
    zeta : array_like, shape (m,)
    s, k : int
    W, B : float
    rng : numpy.random.Generator
    restarts, iterations, n_random, rounds : int
        Search effort (see above); ``restarts, iterations, rounds >= 1``, ``n_random >= 0``, and
        ``restarts * rounds * iterations`` per sign vector at most
        :data:`sparseact._validation.MAX_LOWER_BOUND_SWEEPS`, and the directions scored within
        :data:`sparseact._validation.MAX_LOWER_BOUND_DIRECTIONS` (:func:`sup_lower_bounds`; else
        ``ValueError`` giving the count).
    polish : bool
        Re-optimise each neuron with its cell fixed (one batched barrier solve).

    Returns
    -------
    LowerBoundSup
        ``value`` is a **lower bound (estimate)** of the sup for this ``zeta``:
        the exact objective of a network verified to lie in the class.
    """
    X = _as_points(X)
    zeta = _as_zeta(zeta, X.shape[0])
    rng = _check_rng(rng)
    return sup_lower_bounds(X, zeta[None, :], s, k, W, B, rng, restarts, iterations, n_random, polish, rounds)[0]


def rademacher_lower_bound(
    X,
    s: int,
    k: int,
    W,
    B,
    n_zeta: int,
    rng,
    restarts: int = 3,
    iterations: int = 6,
    n_random: int = 4,
    confidence: float = 0.95,
    polish: bool = True,
    rounds: int = 2,
    return_networks: bool = False,
):
    """Scalable lower-bound estimate of ``R_H(S)`` from verified networks.

    For each of ``n_zeta`` sampled sign vectors, :func:`sup_lower_bounds` finds a
    network of ``H_{n,s,k}^{W,B}`` (verified: scales and ``k``-sparsity on ``S``)
    and its objective is a valid lower bound of the sup for that ``zeta``.

    Parameters
    ----------
    return_networks : bool, optional
        Also return the sign vectors and the per-``zeta`` results.

    Returns
    -------
    MonteCarloEstimate
        ``method="lower bound"``: ``estimate`` is a **lower bound (estimate)**
        of ``R_H(S)`` — the mean of per-``zeta`` lower bounds, whose expectation
        is ``<= R_H(S)`` — with a CLT interval for that expectation.
    zetas, results : ndarray, list of LowerBoundSup
        Only with ``return_networks=True``.
    """
    X = _as_points(X)
    m = X.shape[0]
    s, k = _check_sk(s, k)
    # on the m sample points at most m k neurons are ever active, and a network restricted to its active neurons is
    # in the class with fewer neurons: the class with s > m k computes nothing more on the sample than with m k
    s = min(s, m * k)
    n_zeta = check_int(n_zeta, "n_zeta", 2)
    # at least one sweep per sign vector: refused before the sign vectors are drawn
    check_work(n_zeta, "MAX_LOWER_BOUND_SWEEPS", f"rademacher_lower_bound with n_zeta = {n_zeta}", "sweeps")
    rng = _check_rng(rng)
    confidence = _check_confidence(confidence)
    zetas = 1.0 - 2.0 * rng.integers(0, 2, size=(n_zeta, m)).astype(np.float64)
    results = sup_lower_bounds(X, zetas, s, k, W, B, rng, restarts, iterations, n_random, polish, rounds)
    estimate = _mc(np.array([r.value for r in results]), confidence, "lower bound")
    return (estimate, zetas, results) if return_networks else estimate
