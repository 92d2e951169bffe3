"""Per-cell values: ``V(I) = max |sum_{i in I} zeta_i (<w,x_i> - b)|``, an SOCP per sign, with a dual bracket."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from sparseact.complexity._common import _T_FINAL, _as_points, _as_zeta, _scale
from sparseact.complexity.cells import _lp_witness, _solve_lp

# ---------------------------------------------------------------------------
# per-cell problem (an SOCP per sign) with a primal/dual bracket
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class CellValue:
    """Value of one cell for one ``zeta``: ``V(I) = max |sum_{i in I} zeta_i (<w,x_i> - b)|``.

    Attributes
    ----------
    lower : float
        ``sum_{i in I} zeta_i (<w,x_i> - b)`` in absolute value for the returned
        ``(w, b)``, which realises ``I`` strictly within the scales: a
        **lower bound** of ``V(I)`` attained by an explicit neuron.
    upper : float
        Lagrangian dual bound ``min_sign W ||c + X^T nu|| + B |d + 1^T nu|`` at
        the multipliers found: an **upper bound** of ``V(I)`` (valid for any
        multipliers of the right sign). ``upper - lower`` is the certified gap.
    w : ndarray, shape (n,)
    b : float
        The neuron attaining ``lower`` (preactivation ``> 0`` exactly on ``I``,
        up to the homogeneous degenerate case documented in :func:`cell_value`).
    sign : float
        ``+1`` or ``-1``: the sign of ``sum_{i in I} zeta_i (<w,x_i> - b)``.
    """

    lower: float
    upper: float
    w: np.ndarray
    b: float
    sign: float


@dataclass(frozen=True)
class _CellSystem:
    """Per-cell data of the barrier method, for the non-empty cells of a class (``W > 0``).

    Variables ``u`` in R^d: biased class (``B > 0``) ``u = (w/W, b/B)``, ``d = n + 1``;
    homogeneous (``B = 0``) ``w/W = Z u`` with ``Z`` an orthonormal basis of the
    subspace cut out by the cell's implicit equalities, padded with zero columns
    to ``d = n`` (padded coordinates stay 0). Constraints ``A u + a0 >= 0`` (rows
    ``0..m-1``: the cell's ``<w,x_i> - b >= 0`` / ``<= 0``, normalised, zero rows with
    ``a0 = 1`` where absent; then ``1 - u_b >= 0``, ``1 + u_b >= 0`` if biased) and
    ``||w/W|| <= 1`` with ``w/W = Zw u``.
    """

    cells: np.ndarray  # (C',) indices into the class cell list
    A: np.ndarray  # (C', M, d)
    a0: np.ndarray  # (C', M)
    Zw: np.ndarray  # (C', n, d)
    pad: np.ndarray  # (C', d)
    u0: np.ndarray  # (C', d) strictly feasible start
    equalities: np.ndarray  # (C', m) bool: implicit equalities (homogeneous only)
    has_b: bool


def _homogeneous_interior(X: np.ndarray, mask: np.ndarray):
    """Relative-interior point of ``{w : <w,x_i> >= 1 (i in I), <= 0 (i not in I)}`` and implicit equalities.

    LP: maximise ``sum_i s_i`` with ``<w, x_i> + s_i <= 0``, ``0 <= s_i <= 1`` off the
    cell; at an optimum every off-cell row that is not an implicit equality has
    ``s_i > 0`` (otherwise adding a point where it is strict would increase the
    sum), so ``E = {s_i = 0}`` are the implicit equalities ``<w, x_i> = 0``.
    """
    m, n = X.shape
    off = np.flatnonzero(~mask)
    on = np.flatnonzero(mask)
    k = off.size
    A_ub = np.zeros((on.size + k, n + k))
    b_ub = np.zeros(on.size + k)
    A_ub[: on.size, :n] = -X[on]
    b_ub[: on.size] = -1.0
    A_ub[on.size :, :n] = X[off]
    A_ub[on.size :, n:] = np.eye(k)
    cost = np.concatenate([np.zeros(n), -np.ones(k)])
    bounds = [(None, None)] * n + [(0.0, 1.0)] * k
    res = _solve_lp(cost, A_ub, b_ub, bounds)
    if res.status != 0:
        raise ValueError("cell is not realisable by a homogeneous halfspace")
    eq = np.zeros(m, dtype=bool)
    eq[off[res.x[n:] <= 1e-7]] = True
    return res.x[:n], eq


def _build_system(X: np.ndarray, W: float, B: float, masks: np.ndarray, wit) -> _CellSystem:
    m, n = X.shape
    has_b = B > 0.0
    d = n + 1 if has_b else n
    cells = np.flatnonzero(masks.any(axis=1)) if W > 0 else np.zeros(0, dtype=np.int64)
    C = cells.size
    M = m + (2 if has_b else 0)
    A = np.zeros((C, M, d))
    a0 = np.zeros((C, M))
    Zw = np.zeros((C, n, d))
    pad = np.zeros((C, d))
    u0 = np.zeros((C, d))
    equalities = np.zeros((C, m), dtype=bool)
    for r, c in enumerate(cells):
        mask = masks[c]
        sg = np.where(mask, 1.0, -1.0)
        if has_b:
            v = wit[c] if wit is not None else _lp_witness(X, mask, False)
            if v is None:
                raise ValueError(f"cell {c} is not realisable by one neuron of the class")
            G = sg[:, None] * np.hstack([X * W, -B * np.ones((m, 1))])
            Zw[r, :, :n] = np.eye(n)
            y0 = np.concatenate([v[:n] / W, [v[n] / B]])
            u0[r] = 0.5 * y0 / max(np.linalg.norm(y0[:n]), abs(y0[n]), 1e-300)
            A[r, m, n], a0[r, m] = -1.0, 1.0
            A[r, m + 1, n], a0[r, m + 1] = 1.0, 1.0
        else:
            w_int, eq = _homogeneous_interior(X, mask)
            equalities[r] = eq
            if eq.any():
                _, sv, vt = np.linalg.svd(X[eq])
                rank = int(np.sum(sv > 1e-10 * max(sv[0], 1e-300)))
                Z = vt[rank:].T
            else:
                Z = np.eye(n)
            Zw[r, :, : Z.shape[1]] = Z
            pad[r, Z.shape[1] :] = 1.0
            G = sg[:, None] * (X * W) @ Zw[r]
            G[eq] = 0.0
            u = Zw[r].T @ w_int
            u0[r] = 0.5 * u / max(np.linalg.norm(u), 1e-300)
        norms = np.linalg.norm(G, axis=1)
        live = norms > 1e-12
        A[r, :m][live] = G[live] / norms[live, None]
        a0[r, :m][~live] = 1.0
        s0 = A[r] @ u0[r] + a0[r]
        if not np.all(s0 > 0):  # pragma: no cover - defensive
            raise RuntimeError(f"no strictly feasible start for cell {c}")
    return _CellSystem(cells, A, a0, Zw, pad, u0, equalities, has_b)


def _barrier(A, a0, Zw, pad, q, u0, t_final: float = _T_FINAL, mu: float = 30.0, tol: float = 1e-10, t0: float = 1.0):
    """Batched log-barrier method for ``max q.u`` s.t. ``A u + a0 >= 0``, ``||Zw u|| <= 1``.

    Minimises ``F_t(u) = -t q.u - sum log(A u + a0) - log(1 - ||Zw u||^2)`` (self-
    concordant) by damped Newton steps ``1/(1 + lambda)`` (full steps once the
    Newton decrement ``lambda < 1/4``), which keep every iterate strictly
    feasible, for ``t = t0, t0 mu, t0 mu^2, ..., t_final`` (a warm start near the
    optimum may begin at a larger ``t0``). At the end the multipliers ``1/(t s_i)``
    of the linear rows are returned for the dual certificate.
    """
    u = u0.copy()
    d = A.shape[2]
    eye_pad = pad[:, :, None] * np.eye(d)[None]
    t = float(t0)
    while True:
        for _ in range(100):
            s = np.einsum("pmd,pd->pm", A, u) + a0
            w = np.einsum("pnd,pd->pn", Zw, u)
            r = 1.0 - np.einsum("pn,pn->p", w, w)
            inv_s = 1.0 / s
            ztw = np.einsum("pnd,pn->pd", Zw, w)
            g = -t * q - np.einsum("pmd,pm->pd", A, inv_s) + 2.0 * ztw / r[:, None]
            # Newton system H delta = -g with H = R^T R; solve through a QR factor of the
            # square-root rows R (conditioning sqrt(cond H): H itself is numerically
            # singular once slacks are ~1e-9)
            R = np.concatenate(
                [
                    A * inv_s[:, :, None],
                    np.sqrt(2.0 / r)[:, None, None] * Zw,
                    (2.0 / r)[:, None, None] * ztw[:, None, :],
                    eye_pad,
                ],
                axis=1,
            )
            Rt = np.linalg.qr(R, mode="r")
            z = np.linalg.solve(np.swapaxes(Rt, 1, 2), -g[:, :, None])
            delta = np.linalg.solve(Rt, z)[:, :, 0]
            dec = np.maximum(-(g * delta).sum(axis=1), 0.0)
            lam = np.sqrt(dec)
            alpha = np.where(lam > 0.25, 1.0 / (1.0 + lam), 1.0)
            # safeguard against rounding: stay strictly inside
            Ad = np.einsum("pmd,pd->pm", A, delta)
            with np.errstate(divide="ignore", invalid="ignore"):
                ratio = np.where(Ad < 0, -s / Ad, np.inf).min(axis=1)
            dw = np.einsum("pnd,pd->pn", Zw, delta)
            qa = np.einsum("pn,pn->p", dw, dw)
            qb = 2.0 * np.einsum("pn,pn->p", w, dw)
            with np.errstate(divide="ignore", invalid="ignore"):
                ball = np.where(qa > 0, (-qb + np.sqrt(qb * qb + 4.0 * qa * r)) / (2.0 * qa), np.inf)
            alpha = np.minimum(alpha, 0.99 * np.minimum(ratio, ball))
            u = u + alpha[:, None] * delta
            if dec.max(initial=0.0) < tol:
                break
        if t >= t_final:
            break
        t = min(t * mu, t_final)
    s = np.einsum("pmd,pd->pm", A, u) + a0
    return u, 1.0 / (t * s)


def _polish_dual(q, A_cell, u, Zw, has_b: bool, n: int) -> float:
    """Dual bound from multipliers fitted to the KKT system at a primal point ``u``.

    With ``S`` the nearly active rows, NNLS fits ``q + A_S^T lambda = mu Zw^T w + nu
    sign(u_b) e_b`` (``lambda, mu, nu >= 0``); the returned value is the dual norm
    of ``q + A_S^T lambda``, an upper bound for any ``lambda >= 0``.
    """
    s = A_cell @ u
    w = Zw @ u
    from scipy.optimize import nnls  # deferred: scipy.optimize is slow to import, unused by the sweeps

    best = np.inf
    for thr in (1e-7, 1e-5, 1e-3):
        act = A_cell[(s <= thr) & np.any(A_cell != 0, axis=1)]
        cols = [act.T, -(Zw.T @ w)[:, None]]
        if has_b:
            e = np.zeros(u.size)
            e[n] = 1.0 if u[n] >= 0 else -1.0
            cols.append(-e[:, None])
        M = np.hstack(cols)
        try:
            coef, _ = nnls(M, -q, maxiter=20 * M.shape[1] + 50)
        except RuntimeError:  # pragma: no cover - NNLS iteration limit
            continue
        z = q + act.T @ coef[: act.shape[0]]
        val = np.linalg.norm(z[:n]) + abs(z[n]) if has_b else np.linalg.norm(z)
        best = min(best, float(val))
    return best


def _solve_cells(X, zetas, masks, system: _CellSystem, W, B):
    """Per-cell values for each ``zeta`` (rows of ``zetas``).

    Returns ``lower, upper`` of shape ``(Z, C)`` (``C`` = number of class cells)
    and the attaining neurons ``w`` ``(Z, C, n)``, ``b``, ``sign`` ``(Z, C)``, plus the
    number of cells whose neuron had to be pulled further inside (rounding).
    """
    m, n = X.shape
    Zn, C = zetas.shape[0], masks.shape[0]
    lower = np.zeros((Zn, C))
    upper = np.zeros((Zn, C))
    w_out = np.zeros((Zn, C, n))
    b_out = np.zeros((Zn, C))
    sign_out = np.ones((Zn, C))
    if W == 0.0:  # only the full cell (w = 0, b -> -B): value B |sum zeta|
        for c in np.flatnonzero(masks.all(axis=1) & (B > 0)):
            d = zetas.sum(axis=1)
            lower[:, c] = upper[:, c] = B * np.abs(d)
            b_out[:, c] = -B
            sign_out[:, c] = np.where(d >= 0, 1.0, -1.0)
        return lower, upper, w_out, b_out, sign_out
    cells = system.cells
    Cs = cells.size
    if Cs == 0:
        return lower, upper, w_out, b_out, sign_out
    has_b = system.has_b
    Msk = masks[cells].astype(np.float64)  # (C', m)
    Zc = zetas[:, None, :] * Msk[None, :, :]  # (Z, C', m)
    c_vec = Zc @ X  # (Z, C', n)
    q_y = W * c_vec
    # objective in u: q_u = Zw^T (W c) (+ (-B d) on u_b)
    q_u = np.einsum("cnd,zcn->zcd", system.Zw, q_y)
    if has_b:
        q_u[:, :, n] += -B * Zc.sum(axis=2)
    scale = np.linalg.norm(q_u, axis=2)  # (Z, C')
    safe = np.where(scale > 0, scale, 1.0)
    qn = q_u / safe[:, :, None]
    # batch: (sign, zeta, cell)
    P = 2 * Zn * Cs
    idx = np.tile(np.arange(Cs), 2 * Zn)
    q_b = np.concatenate([qn, -qn], axis=0).reshape(P, -1)
    u, lam = _barrier(system.A[idx], system.a0[idx], system.Zw[idx], system.pad[idx], q_b, system.u0[idx])
    # dual certificate: z = q + A_cell^T lam, dual norm
    z = q_b + np.einsum("pmd,pm->pd", system.A[idx][:, :m], lam[:, :m])
    if has_b:
        dual = np.linalg.norm(z[:, :n], axis=1) + np.abs(z[:, n])
    else:
        dual = np.linalg.norm(z, axis=1)
    # polish the certificate where the barrier multipliers leave a visible gap
    prim = np.einsum("pd,pd->p", q_b, u)
    loose = np.flatnonzero(dual - prim > 3.0 * system.A.shape[1] / _T_FINAL)
    if loose.size:
        A_all = system.A[:, :m]
        for p in loose:
            dual[p] = min(dual[p], _polish_dual(q_b[p], A_all[idx[p]], u[p], system.Zw[idx[p]], has_b, n))
    dual = dual.reshape(2, Zn, Cs) * scale[None]
    # neurons (w, b) and their actual contributions
    wv = W * np.einsum("pnd,pd->pn", system.Zw[idx], u)
    bv = B * u[:, n] if has_b else np.zeros(P)
    wv = wv.reshape(2, Zn, Cs, n)
    bv = bv.reshape(2, Zn, Cs)
    pre = np.einsum("szcn,mn->szcm", wv, X) - bv[..., None]
    # pull towards the strict start where rounding broke the pattern (rare)
    want = masks[cells][None, None]
    eqs = system.equalities[None, None]
    bad = np.any(((pre > 0) != want) & ~eqs, axis=3)
    if bad.any():
        for sgi, zi, ci in zip(*np.nonzero(bad), strict=True):
            u_i = u.reshape(2, Zn, Cs, -1)[sgi, zi, ci]
            for eps in (1e-9, 1e-7, 1e-5, 1e-3, 1e-1, 1.0):
                uu = (1 - eps) * u_i + eps * system.u0[ci]
                ww = W * system.Zw[ci] @ uu
                bb = B * uu[n] if has_b else 0.0
                pp = X @ ww - bb
                if np.all(((pp > 0) == want[0, 0, ci]) | eqs[0, 0, ci]):
                    wv[sgi, zi, ci], bv[sgi, zi, ci], pre[sgi, zi, ci] = ww, bb, pp
                    break
    vals = np.einsum("szcm,zm->szc", np.maximum(pre, 0.0), zetas)
    pick = (np.abs(vals[1]) > np.abs(vals[0])).astype(np.int64)  # (Z, C')
    zz, cc = np.meshgrid(np.arange(Zn), np.arange(Cs), indexing="ij")
    best = vals[pick, zz, cc]
    zero = scale == 0
    lower[:, cells] = np.where(zero, 0.0, np.abs(best))
    upper[:, cells] = np.where(zero, 0.0, np.maximum(dual.max(axis=0), np.abs(best)))
    w_out[:, cells] = np.where(zero[..., None], 0.0, wv[pick, zz, cc])
    b_out[:, cells] = np.where(zero, 0.0, bv[pick, zz, cc])
    sign_out[:, cells] = np.where(best >= 0, 1.0, -1.0)
    return lower, upper, w_out, b_out, sign_out


def cell_value(X, zeta, mask, W, B) -> CellValue:
    """``V(I) = max |sum_{i in I} zeta_i (<w, x_i> - b)|`` over neurons of the class with cell ``I``.

    The feasible set is ``{||w|| <= W, |b| <= B, <w,x_i> - b > 0 (i in I), <= 0
    (i not in I)}``; its sup equals the max over the closure (``>= 0`` on ``I``),
    see the module docstring: a linear objective over a compact convex set (a
    small second-order-cone programme), solved for both signs by a log-barrier
    interior-point method (:func:`_barrier`) in the normalised coordinates
    ``(w/W, b/B)``. Every iterate is strictly feasible, so the returned neuron
    realises ``I`` exactly; the value is recomputed from it. The barrier
    multipliers give a Lagrangian dual bound ``W ||c + X^T nu|| + B |d + 1^T nu|``
    (``c = sum_I zeta_i x_i``, ``d = sum_I zeta_i``, ``nu_i >= 0`` on ``I``, ``<= 0``
    off it), an upper bound for any such ``nu``.

    For ``B = 0`` (homogeneous neurons) off-cell points on which every
    realising ``w`` vanishes (implicit equalities, e.g. an antipodal pair both
    off the cell) are handled in the subspace they cut out; the returned
    neuron then has preactivation ``~1e-16`` (rounding of 0) on those points.

    Parameters
    ----------
    X : array_like, shape (m, n)
    zeta : array_like, shape (m,)
        Signs ``+-1``.
    mask : array_like of bool, shape (m,)
        The cell ``I``; must be realisable by one neuron of the class.
    W, B : float
        Scales (``>= 0``).

    Returns
    -------
    CellValue
        ``lower``: **lower bound** attained by the returned neuron; ``upper``:
        **upper bound** (dual certificate); both equal ``V(I)`` up to the
        barrier's tolerance (about ``1e-9`` relative).

    Raises
    ------
    ValueError
        If the cell is not realisable within the class.
    """
    X = _as_points(X)
    m, n = X.shape
    zeta = _as_zeta(zeta, m)
    mask = np.asarray(mask, dtype=bool)
    if mask.shape != (m,):
        raise ValueError(f"mask must have shape ({m},), got {mask.shape}")
    W = _scale(W, "W")
    B = _scale(B, "B")
    if not mask.any():
        return CellValue(0.0, 0.0, np.zeros(n), 0.0, 1.0)
    if W == 0.0 and (B == 0.0 or not mask.all()):
        raise ValueError("with W = 0 only the empty cell and (if B > 0) the full cell are realisable")
    if W > 0.0 and _lp_witness(X, mask, homogeneous=(B == 0.0)) is None:
        raise ValueError("mask is not a cell realisable by one neuron of the class")
    masks = mask[None, :]
    system = _build_system(X, W, B, masks, None)
    lo, hi, w, b, sg = _solve_cells(X, zeta[None, :], masks, system, W, B)
    return CellValue(float(lo[0, 0]), float(hi[0, 0]), w[0, 0], float(b[0, 0]), float(sg[0, 0]))
