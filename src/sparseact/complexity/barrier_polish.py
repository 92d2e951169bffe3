r"""Per-neuron polish of the lower-bound search: a compiled log-barrier method for the per-cell SOCP.

A neuron ``(w, b)`` of a network found by :mod:`sparseact.complexity.lower` has a
cell ``I = {i : <w, x_i> - b > 0}`` on the sample ``S``; with the cell held fixed,
its contribution ``u sum_{i in I} zeta_i (<w, x_i> - b)`` is maximised over

    C_I = {(w, b) : ||w|| <= W, |b| <= B, <w, x_i> - b >= 0 (i in I), <= 0 (i not in I)},

the per-cell second-order-cone programme ``V(I)`` of reduction 3 of
:mod:`sparseact.complexity`. In the scaled variable ``v = (w/W, b/B)`` it reads
``max q.v`` s.t. ``A v + a0 >= 0``, ``||v[:n]|| <= 1``, with one row of ``A`` per
pattern constraint (and, with a threshold, the two rows of ``|b| <= B``).

:func:`_polish_barrier` solves it for one neuron by the same log-barrier method
as :func:`sparseact.complexity.cellvalue._barrier`, compiled (numba) with explicit
loops, so that each neuron of a batch stops at its own convergence;
:func:`_polish_barriers` runs a batch; :func:`_polish_networks` builds the
programmes of every neuron of many networks at once (constraint generation over
the ``m`` pattern rows) and keeps each improved neuron. The iterates are strictly
feasible, so every activation pattern, and with it ``k``-sparsity on ``S``, is kept.
"""

from __future__ import annotations

import numba
import numpy as np

from sparseact.complexity._common import _T_FINAL

#: First barrier parameter of the polish (warm start from the search's neuron).
_POLISH_T0 = 1e3
#: Growth factor of the barrier parameter between centring stages (t = 1e3, 1e4, ..., _T_FINAL). A factor of
#: 100 left the damped Newton steps after each increase so long that iterates crowded the ball's boundary
#: (``1 - ||u||^2`` near 1e-14, below what rounding resolves) and most neurons stalled at the iteration cap.
_POLISH_MU = 10.0
#: Newton decrement at which a centring stage stops.
_POLISH_TOL = 1e-10
#: Newton steps per centring stage at most.
_POLISH_MAX_NEWTON = 100
#: Fraction of the distance to the nearest pattern constraint a step may cover (fraction to the boundary).
_POLISH_BOUNDARY_FRACTION = 0.99
#: Fraction of the distance to the ball ``||u[:n]|| = 1`` a step may cover (at most halving ``1 - ||u||^2``).
_POLISH_BALL_FRACTION = 0.5
#: Factor applied to the search's neuron ``(w/W, b/B)`` for the polish's start. The cell's constraints are
#: homogeneous in ``(w, b)``, so the pattern is kept, while ``1 - ||u||^2`` grows from about 0 (the search
#: uses the full scale) to 3/4: a start hugging the ball's boundary left the Newton steps chords of a curved
#: boundary, and the barrier stalled short of the cell's maximum (at 81 % of it on a 38-point example).
_POLISH_START_SCALE = 0.5
#: Newton decrement below which full (safeguarded) Newton steps are taken, without line search.
_POLISH_FULL_STEP_DECREMENT = 0.25
#: Sufficient-decrease constant of the backtracking line search (a step of length ``alpha`` must
#: lower the barrier function by ``_POLISH_ARMIJO * alpha * lambda^2``).
_POLISH_ARMIJO = 0.25
#: Halvings of the step before the line search gives up for the damped step ``1 / (1 + lambda)``.
_POLISH_BACKTRACKS = 40
#: Bisection steps of the starting threshold (maximal smallest slack along the threshold coordinate).
_POLISH_CENTRE_STEPS = 60


@numba.njit(cache=True)
def _polish_barrier(A, a0, q, u0, n, t0, t_final, mu, tol):  # pragma: no cover - compiled
    """Log-barrier method for ``max q.u`` s.t. ``A u + a0 >= 0``, ``||u[:n]|| <= 1``, one neuron.

    The same method as :func:`sparseact.complexity.cellvalue._barrier` (damped
    Newton steps on ``-t q.u - sum log(A u + a0) - log(1 - ||u[:n]||^2)``, Newton
    systems through a Householder QR factor of the square-root rows, every
    iterate strictly feasible, ``t = t0, t0 mu, ..., t_final``), compiled with
    explicit loops and no allocation per iteration, for one neuron, so that each
    neuron of a batch stops at its own convergence.

    The start is ``u0`` scaled by :data:`_POLISH_START_SCALE` (away from the
    ball's boundary) and, with a threshold coordinate (``d = n + 1``), moved
    along it to the point of largest smallest slack (:func:`_centre_threshold`).
    Each Newton step: the square-root rows (:func:`_barrier_rows`), their
    triangular factor (:func:`_householder_triangle`), the direction and its
    decrement (:func:`_newton_direction`), the longest step that stays inside
    (:func:`_longest_step`) and the step taken (:func:`_step_length`).
    """
    M, d = A.shape
    u = u0 * _POLISH_START_SCALE
    R = np.zeros((M + n + 1, d))
    s = np.empty(M)
    g = np.empty(d)
    z = np.empty(d)
    delta = np.empty(d)
    slope = np.empty(M)
    if d == n + 1:
        _centre_threshold(A, a0, u, n, s)
    t = t0
    while True:
        for _ in range(_POLISH_MAX_NEWTON):
            r = _barrier_rows(A, a0, q, u, n, t, R, s, g)
            _householder_triangle(R)
            dec = _newton_direction(R, g, z, delta)
            lam = np.sqrt(dec)
            longest = _longest_step(A, s, u, delta, n, r, slope)
            alpha = _step_length(q, u, delta, s, slope, n, t, r, dec, lam, longest)
            for c in range(d):
                u[c] += alpha * delta[c]
            if dec < tol:
                break
        if t >= t_final:
            break
        t = min(t * mu, t_final)
    return u


# _polish_barrier's steps, each inlined into it, so that the kernel is optimised as one function
@numba.njit(cache=True, inline="always")
def _centre_threshold(A, a0, u, n, s):  # pragma: no cover - compiled
    """Move the start ``u`` along its threshold coordinate ``u[n]`` to the point of largest smallest slack.

    Bisection between the two slack envelopes (increasing and decreasing in
    ``u[n]``): the search leaves its threshold a relative 1e-9 above the binding
    point, too close to the boundary for the barrier. ``s`` is scratch (``A u + a0``).
    """
    M, d = A.shape
    lo = -np.inf
    hi = np.inf
    for i in range(M):
        acc = a0[i]
        for c in range(d):
            acc += A[i, c] * u[c]
        s[i] = acc
        if A[i, n] > 0:
            lo = max(lo, -s[i] / A[i, n])
        elif A[i, n] < 0:
            hi = min(hi, -s[i] / A[i, n])
    if -np.inf < lo < hi < np.inf:
        shift = 0.0
        for _ in range(_POLISH_CENTRE_STEPS):
            shift = 0.5 * (lo + hi)
            rising = np.inf
            falling = np.inf
            for i in range(M):
                if A[i, n] > 0:
                    rising = min(rising, s[i] + A[i, n] * shift)
                elif A[i, n] < 0:
                    falling = min(falling, s[i] + A[i, n] * shift)
            if rising < falling:
                lo = shift
            else:
                hi = shift
        u[n] += shift


@numba.njit(cache=True, inline="always")
def _barrier_rows(A, a0, q, u, n, t, R, s, g):  # pragma: no cover - compiled
    """The barrier function's gradient ``g`` at ``u`` and the rows ``R`` whose Gram matrix is its Hessian.

    Rows ``A_i / s_i`` of the pattern constraints (slacks ``s = A u + a0``, written
    to ``s``), then ``sqrt(2 / r) e_i`` and ``(2 / r) u[:n]`` of the ball's term,
    ``r = 1 - ||u[:n]||^2``, which is returned.
    """
    M, d = A.shape
    r = 1.0
    for i in range(n):
        r -= u[i] * u[i]
    for c in range(d):
        g[c] = -t * q[c]
    for i in range(M):
        acc = a0[i]
        for c in range(d):
            acc += A[i, c] * u[c]
        s[i] = acc
        inv = 1.0 / acc
        for c in range(d):
            v = A[i, c] * inv
            g[c] -= v
            R[i, c] = v
    sq = np.sqrt(2.0 / r)
    for i in range(M, R.shape[0]):
        for c in range(d):
            R[i, c] = 0.0
    for i in range(n):
        g[i] += 2.0 * u[i] / r
        R[M + i, i] = sq
        R[M + n, i] = 2.0 / r * u[i]
    return r


@numba.njit(cache=True, inline="always")
def _householder_triangle(R):  # pragma: no cover - compiled
    """Householder reflections in place: the first ``d`` rows of ``R`` (``d`` columns) become the triangular factor."""
    rows, d = R.shape
    for j in range(d):
        nrm = 0.0
        for i in range(j, rows):
            nrm += R[i, j] * R[i, j]
        nrm = np.sqrt(nrm)
        if nrm == 0.0:
            continue
        alpha = -nrm if R[j, j] >= 0 else nrm
        v0 = R[j, j] - alpha
        vv = v0 * v0 + nrm * nrm - R[j, j] * R[j, j]
        if vv <= 0.0:
            continue
        for c in range(j + 1, d):
            dot = v0 * R[j, c]
            for i in range(j + 1, rows):
                dot += R[i, j] * R[i, c]
            f = 2.0 * dot / vv
            R[j, c] -= f * v0
            for i in range(j + 1, rows):
                R[i, c] -= f * R[i, j]
        R[j, j] = alpha


@numba.njit(cache=True, inline="always")
def _newton_direction(R, g, z, delta):  # pragma: no cover - compiled
    """The Newton step ``delta`` of ``Rt^T Rt delta = -g`` (forward, then backward substitution; ``z`` is scratch)
    and its decrement ``lambda^2 = -g.delta`` (at least 0), which is returned."""
    d = g.shape[0]
    for i in range(d):
        acc = -g[i]
        for j in range(i):
            acc -= R[j, i] * z[j]
        z[i] = acc / R[i, i] if R[i, i] != 0 else 0.0
    for i in range(d - 1, -1, -1):
        acc = z[i]
        for j in range(i + 1, d):
            acc -= R[i, j] * delta[j]
        delta[i] = acc / R[i, i] if R[i, i] != 0 else 0.0
    dec = 0.0
    for c in range(d):
        dec -= g[c] * delta[c]
    return max(dec, 0.0)


@numba.njit(cache=True, inline="always")
def _longest_step(A, s, u, delta, n, r, slope):  # pragma: no cover - compiled
    """The longest step along ``delta`` that stays strictly inside despite rounding: the fractions
    :data:`_POLISH_BOUNDARY_FRACTION` of the way to the nearest slack's zero and :data:`_POLISH_BALL_FRACTION` of the
    way to the ball's boundary. Writes the slacks' rates ``A delta`` to ``slope``."""
    M, d = A.shape
    ratio = np.inf
    for i in range(M):
        ad = 0.0
        for c in range(d):
            ad += A[i, c] * delta[c]
        slope[i] = ad
        if ad < 0:
            ratio = min(ratio, -s[i] / ad)
    qa = 0.0
    qb = 0.0
    for i in range(n):
        qa += delta[i] * delta[i]
        qb += 2.0 * u[i] * delta[i]
    ball = (-qb + np.sqrt(qb * qb + 4.0 * qa * r)) / (2.0 * qa) if qa > 0 else np.inf
    return min(_POLISH_BOUNDARY_FRACTION * ratio, _POLISH_BALL_FRACTION * ball)


@numba.njit(cache=True, inline="always")
def _step_length(q, u, delta, s, slope, n, t, r, dec, lam, longest):  # pragma: no cover - compiled
    """The length of the Newton step: full (at most ``longest``) while the decrement ``lam`` is at most
    :data:`_POLISH_FULL_STEP_DECREMENT`, else backtracked from there until ``F = -t q.u - sum log(slack) -
    log(1 - ||u[:n]||^2)`` decreases enough (Armijo); the damped step ``1 / (1 + lam)`` of the theory is the fallback."""
    alpha = min(1.0, longest)
    if not lam > _POLISH_FULL_STEP_DECREMENT:
        return alpha
    M = s.shape[0]
    f0 = -np.log(r)
    qu = 0.0
    qd = 0.0
    for c in range(u.shape[0]):
        qu += q[c] * u[c]
        qd += q[c] * delta[c]
    f0 -= t * qu
    for i in range(M):
        f0 -= np.log(s[i])
    for _ls in range(_POLISH_BACKTRACKS):
        rt = 1.0
        for i in range(n):
            ui = u[i] + alpha * delta[i]
            rt -= ui * ui
        if rt > 0:
            ft = -t * (qu + alpha * qd) - np.log(rt)
            inside = True
            for i in range(M):
                st = s[i] + alpha * slope[i]
                if st <= 0:
                    inside = False
                    break
                ft -= np.log(st)
            if inside and ft <= f0 - _POLISH_ARMIJO * alpha * dec:
                return alpha
        alpha *= 0.5
    return min(1.0 / (1.0 + lam), longest)


@numba.njit(cache=True)
def _polish_barriers(A, a0, q, u0, n, t0, t_final, mu, tol):  # pragma: no cover - compiled
    """:func:`_polish_barrier` for each neuron ``p`` of a batch (rows ``A[p]``, ``a0[p]``, ``q[p]``, ``u0[p]``)."""
    out = np.empty_like(u0)
    for p in range(A.shape[0]):
        u = _polish_barrier(A[p], a0[p], q[p], u0[p], n, t0, t_final, mu, tol)
        for c in range(u.shape[0]):  # a loop: out[p] = u compiles the message of a shape check (see lower._set_row)
            out[p, c] = u[c]
    return out


def _polish_networks(X, zetas, Wm, bm, um, W, B):
    """Optimise each neuron's ``(w, b)`` with its cell on ``S`` held fixed (per-cell SOCP), all instances at once.

    ``Wm`` ``(I, s, n)``, ``bm``, ``um`` ``(I, s)``: instance ``i`` is a network for the
    sign vector ``zetas[i]``. Each neuron's activation pattern is kept exactly (the
    barrier iterates are strictly feasible), so ``k``-sparsity is unchanged, and
    its contribution ``u_j sum_{i in I_j} zeta_i (<w,x_i> - b)`` can only grow; a
    neuron whose pattern changes through rounding keeps its old weights.

    Constraint generation: each round solves with the ``K`` pattern constraints
    of smallest normalised slack at the start (plus all rows violated in an
    earlier round) and checks the full pattern; neurons whose solution breaks
    it are re-solved with a larger ``K`` (finally all ``m`` rows). Every round is
    one batched barrier solve over the pending neurons of all instances.
    """
    m, n = X.shape
    if W == 0.0:
        return Wm, bm
    has_b = B > 0.0
    d = n + 1 if has_b else n
    Wm, bm = Wm.copy(), bm.copy()
    pre = np.einsum("mn,isn->ism", X, Wm) - bm[:, :, None]  # (I, s, m)
    act = pre > 0
    Xa = np.hstack([X * W, -B * np.ones((m, 1))]) if has_b else X * W
    Xa = Xa / np.maximum(np.linalg.norm(Xa, axis=1, keepdims=True), 1e-300)
    live = np.linalg.norm(Xa, axis=1) > 0
    info = {}
    for inst, j in zip(*np.nonzero(act.any(axis=2)), strict=True):
        cell = act[inst, j]
        if not has_b and np.any(pre[inst, j][~cell] >= 0):  # off-cell points on the hyperplane
            continue
        sg = np.where(cell, 1.0, -1.0)
        u0 = 0.999 * (np.concatenate([Wm[inst, j] / W, [bm[inst, j] / B]]) if has_b else Wm[inst, j] / W)
        G = sg[:, None] * Xa
        slack = G @ u0
        # a (numerically) zero slack: the point sits on the neuron's hyperplane, possibly
        # as an implicit equality of the cell (homogeneous case); leave such neurons alone
        if not np.all(slack[live] > 1e-12):
            continue
        zeta = zetas[inst]
        c = zeta[cell] @ X[cell]
        qq = np.concatenate([W * c, [-B * zeta[cell].sum()]]) if has_b else W * c
        info[(inst, j)] = (G, slack, u0, um[inst, j] * qq / max(np.linalg.norm(qq), 1e-300), np.zeros(m, dtype=bool))
    pending = list(info)
    for K in (4 * (n + 1), 16 * (n + 1), m):
        if not pending:
            break
        K = min(K, m)
        M = K + (2 if has_b else 0)
        P = len(pending)
        A = np.zeros((P, M, d))
        a0 = np.zeros((P, M))
        u0s = np.zeros((P, d))
        qs = np.zeros((P, d))
        for r, key in enumerate(pending):
            G, slack, u0, q, forced = info[key]
            rows = np.argsort(np.where(forced, -np.inf, slack), kind="stable")[:K]
            A[r, :K] = G[rows]
            u0s[r], qs[r] = u0, q
        if has_b:
            A[:, K, n], a0[:, K] = -1.0, 1.0
            A[:, K + 1, n], a0[:, K + 1] = 1.0, 1.0
        zero_rows = ~np.any(A != 0, axis=2)
        a0[zero_rows] = 1.0
        u = _polish_barriers(A, a0, qs, u0s, n, _POLISH_T0, _T_FINAL, _POLISH_MU, _POLISH_TOL)
        w_new = W * u[:, :n]
        b_new = B * u[:, n] if has_b else np.zeros(P)
        still = []
        for r, (inst, j) in enumerate(pending):
            p_new = X @ w_new[r] - b_new[r]
            broken = (p_new > 0) != act[inst, j]
            if broken.any():
                info[(inst, j)][4][broken] = True
                still.append((inst, j))
                continue
            if np.linalg.norm(w_new[r]) > W or abs(b_new[r]) > B:
                continue
            zeta = zetas[inst]
            old = um[inst, j] * (zeta @ np.maximum(pre[inst, j], 0.0))
            if um[inst, j] * (zeta @ np.maximum(p_new, 0.0)) > old:
                Wm[inst, j], bm[inst, j] = w_new[r], b_new[r]
        pending = still
    return Wm, bm
