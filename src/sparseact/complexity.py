r"""Empirical Rademacher complexity of ``H_{n,s,k}^{W,B}`` (Section 5).

For a sample ``S = (x_1, ..., x_m)`` in R^n the empirical Rademacher complexity is

.. math::

    \mathcal{R}_\mathcal{H}(S) = \mathbb{E}_\zeta \sup_{h \in \mathcal{H}}
    \frac{1}{m} \sum_{i=1}^m \zeta_i h(x_i),

with ``zeta`` uniform on ``{-1, 1}^m``. Here ``H = H_{n,s,k}^{W,B}`` (Definition
2): ``h(x) = sum_j u_j relu(<w_j, x> - b_j)`` with ``||u||_inf max_j ||w_j|| <= W``,
``||u||_inf max_j |b_j| <= B`` and ``k``-sparsity required *on the sample*: every
``x_i`` activates at most ``k`` neurons, neuron ``j`` being active at ``x`` when
``<w_j, x> - b_j > 0`` (strictly, Definition 1).

Reduction used throughout
-------------------------
1. *Unit output weights.* If ``a = ||u||_inf > 0``, replacing ``(u, w_j, b_j)``
   by ``(u/a, a w_j, a b_j)`` leaves every term ``u_j relu(<w_j,x> - b_j)`` and
   every activation pattern unchanged (``relu`` is positively homogeneous), so
   ``H = {sum_j u_j relu(<w_j,x> - b_j) : |u_j| <= 1, ||w_j|| <= W, |b_j| <= B,
   k-sparse on S}``; the converse inclusion is immediate since then
   ``||u||_inf <= 1``. The constraints now act on each neuron separately.
2. *Cells.* Let ``I_j = {i : <w_j, x_i> - b_j > 0}`` (the *cell* of neuron ``j``).
   The objective is ``(1/m) sum_j u_j sum_{i in I_j} zeta_i (<w_j,x_i> - b_j)``
   and the sup over ``|u_j| <= 1`` gives ``(1/m) sum_j |sum_{i in I_j} zeta_i
   (<w_j, x_i> - b_j)|``. A neuron contributing 0 can be switched off
   (``w_j = 0, b_j = 0`` is inactive everywhere), which only frees capacity.
3. *Per-cell problem.* For a cell ``I`` cut out by some halfspace the value is
   ``V(I) = sup |sum_{i in I} zeta_i (<w,x_i> - b)|`` over ``F_I = {(w, b) :
   ||w|| <= W, |b| <= B, <w,x_i> - b > 0 (i in I), <= 0 (i not in I)}``. When
   ``F_I`` is non-empty its closure is ``C_I`` (same with ``>= 0`` on ``I``): for
   ``p`` in ``C_I`` and ``q`` in ``F_I`` the segment ``(1-t)p + tq``, ``t in (0,
   1]``, lies in ``F_I``. The objective is continuous, so ``V(I)`` is the
   *maximum* over the compact convex set ``C_I`` of ``|linear|`` — two
   second-order-cone programs (one per sign). ``F_I`` is non-empty exactly when
   ``I`` is a halfspace cell (scale any realising ``(w, b)`` down), except that
   ``B = 0`` forces ``b = 0`` (homogeneous halfspaces ``{<w,x> > 0}`` only) and
   ``W = 0`` forces ``w = 0`` (only the empty cell and, if ``B > 0``, all points).
4. *Assignments.* ``sup_h = (1/m) max sum_j V(I_j)`` over multisets of at most
   ``s`` realisable cells covering every point at most ``k`` times (a cell may
   be repeated; the same cell realised twice contributes ``2 V(I)``).
5. *Symmetry.* ``H = -H`` (flip ``u``), so the sup at ``-zeta`` equals the sup at
   ``zeta``; exhaustive averages run over the ``2^(m-1)`` vectors with
   ``zeta_1 = +1``.

Numerical methods
-----------------
* Cells (:func:`halfspace_cells`): incremental enumeration, one LP feasibility
  problem (``scipy.optimize.linprog``, margin normalisation) per candidate
  extension; every cell carries a strict witness checked in floating point.
  There are ``O(m^n)`` cells (Sauer-Shelah, as in the proof of Theorem 19).
* Per-cell values (:func:`cell_value`): a batched log-barrier interior-point
  method over all cells, both signs and many ``zeta`` at once; the iterates are
  strictly feasible, so each value is attained by a neuron realising the cell,
  and a Lagrangian dual bound certifies the gap (about ``1e-7`` relative).
* Assignments (:func:`best_assignment`): dynamic programme over coverage
  vectors (numba).
* Lower bounds for large samples (:func:`sup_lower_bound`): heuristic search
  over ``k``-sparse networks, each result verified.

Note on eq. (1)
---------------
With ``B = 0`` the complexity is positively homogeneous in the sample,
``R_H(aS) = a R_H(S)``, while (1) is ``W R sqrt(s n log(m R)) / sqrt(m)``, which
tends to 0 as ``m R -> 1`` (and has no real value below). So (1) with any fixed
constant fails for samples of norm ``R`` slightly above ``1/m``; see
``tests/test_complexity.py::test_eq1_with_constant_one_fails_when_m_R_is_close_to_one``.
The same holds for (15) with ``log(k m (R + B))``.

Kinds of numbers
----------------
Every returned number is one of

* **exact** — the sup itself (up to the stated solver tolerance, certified by
  a primal/dual bracket);
* **lower bound (estimate)** — the value of an explicit network verified to lie
  in ``H`` (scales and ``k``-sparsity on ``S`` checked), hence ``<=`` the sup for
  that ``zeta``; averaged over sampled ``zeta`` it estimates a lower bound of
  ``R_H(S)`` (with a CLT interval for that average);
* **upper bound (proof quantity)** — the intermediate quantity of the proof of
  Theorem 19, eqs. (3)-(13), which dominates the sup;
* **formula** — a bound of the paper evaluated by :mod:`sparseact.bounds`
  (hidden constants 1, natural log).
"""

from __future__ import annotations

import itertools
import math
import warnings
from dataclasses import dataclass
from statistics import NormalDist

import numba
import numpy as np
from scipy.optimize import OptimizeWarning, linprog, nnls

from sparseact import bounds as _bounds
from sparseact._validation import check_int
from sparseact.analysis import MonteCarloEstimate
from sparseact.networks import SparseReLUNetwork

__all__ = [
    "EXHAUSTIVE_MAX_M",
    "CellValue",
    "ExactSup",
    "LowerBoundSup",
    "halfspace_cells",
    "class_cells",
    "cell_value",
    "best_assignment",
    "sup_exact",
    "sup_lower_bound",
    "proof_intermediate_quantity",
    "rademacher_exact",
    "rademacher_lower_bound",
    "proof_intermediate",
    "paper_bounds",
    "sample_distribution",
    "network_objective",
    "in_class",
]

#: Largest ``m`` for which the exact estimators average over *all* sign vectors.
EXHAUSTIVE_MAX_M = 10

#: Final barrier parameter: the primal optimality gap is at most (constraints)/t in normalised units.
_T_FINAL = 1e8

#: Largest number of coverage states ``(min(k, s) + 1)^m`` of the assignment search.
MAX_ASSIGNMENT_STATES = 1 << 20

# ---------------------------------------------------------------------------
# argument checks
# ---------------------------------------------------------------------------


def _as_points(X) -> np.ndarray:
    try:
        arr = np.asarray(X, dtype=np.float64)
    except (TypeError, ValueError) as exc:
        raise ValueError(f"X must be a numeric array of shape (m, n): {exc}") from None
    if arr.ndim != 2 or arr.shape[0] < 1 or arr.shape[1] < 1:
        raise ValueError(f"X must have shape (m, n) with m, n >= 1, got shape {arr.shape}")
    if not np.all(np.isfinite(arr)):
        raise ValueError("X must be finite")
    return arr


def _scale(value, name: str) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float, np.integer, np.floating)):
        raise ValueError(f"{name} must be a real number >= 0, got {value!r}")
    value = float(value)
    if not math.isfinite(value) or value < 0:
        raise ValueError(f"{name} must be a finite real number >= 0, got {value!r}")
    return value


def _as_zeta(zeta, m: int) -> np.ndarray:
    z = np.asarray(zeta, dtype=np.float64)
    if z.shape != (m,):
        raise ValueError(f"zeta must have shape ({m},), got {z.shape}")
    if not np.all(np.abs(z) == 1.0):
        raise ValueError("zeta must be a vector of +-1 signs")
    return z


def _check_rng(rng) -> np.random.Generator:
    if not isinstance(rng, np.random.Generator):
        raise ValueError(f"rng must be a numpy.random.Generator, got {type(rng).__name__}")
    return rng


def _check_confidence(confidence) -> float:
    if isinstance(confidence, bool) or not isinstance(confidence, (float, int, np.floating, np.integer)):
        raise ValueError(f"confidence must be a number in (0, 1), got {confidence!r}")
    confidence = float(confidence)
    if not 0.0 < confidence < 1.0:
        raise ValueError(f"confidence must lie strictly between 0 and 1, got {confidence}")
    return confidence


def _check_sk(s, k) -> tuple[int, int]:
    s = check_int(s, "s", 1)
    k = check_int(k, "k", 1)
    if k > s:
        raise ValueError(f"k must be <= s, got k={k}, s={s}")
    return s, k


# ---------------------------------------------------------------------------
# halfspace cells
# ---------------------------------------------------------------------------


def _lp_witness(X: np.ndarray, labels: np.ndarray, homogeneous: bool) -> np.ndarray | None:
    """``(w, b)`` with ``<w,x_i> - b > 0`` iff ``labels[i]``, or ``None`` if there is none.

    Biased halfspaces: a strict separation on both sides exists iff one does with
    ``>0`` / ``<=0`` (shift ``b`` by half the smallest positive margin), and then,
    after scaling, one with margins ``>= 1`` / ``<= -1``: that LP is solved and the
    answer is checked in floating point. Homogeneous (``b = 0``): the LP asks
    ``<w,x_i> >= 1`` on the cell and ``<= 0`` off it (points with ``<w,x_i> = 0``
    may be needed, e.g. antipodal or zero rows), checked with tolerance ``1e-9``.
    """
    m, n = X.shape
    sign = np.where(labels, -1.0, 1.0)  # rows: -(<w,x> - b) <= -1 on the cell, (<w,x> - b) <= rhs off
    if homogeneous:
        A = sign[:, None] * X
        rhs = np.where(labels, -1.0, 0.0)
    else:
        A = sign[:, None] * np.hstack([X, -np.ones((m, 1))])
        rhs = np.full(m, -1.0)
    nv = A.shape[1]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", OptimizeWarning)
        res = linprog(np.zeros(nv), A_ub=A, b_ub=rhs, bounds=[(None, None)] * nv, method="highs")
    if res.status != 0:
        return None
    v = np.asarray(res.x, dtype=np.float64)
    w, b = (v, 0.0) if homogeneous else (v[:n], float(v[n]))
    pre = X @ w - b
    scale = 1.0 + np.abs(X) @ np.abs(w) + abs(b)
    if homogeneous:
        ok = np.all(pre[labels] > 0) and np.all(pre[~labels] <= 1e-9 * scale[~labels])
    else:
        ok = np.all(pre[labels] > 0) and np.all(pre[~labels] < 0)
    if not ok:
        return None
    return np.concatenate([w, [b]])


def _witness_from(X: np.ndarray, labels: np.ndarray, v: np.ndarray, homogeneous: bool) -> bool:
    """Whether the witness ``v = (w, b)`` realises ``labels`` (strictly, robustly)."""
    n = X.shape[1]
    pre = X @ v[:n] - v[n]
    if homogeneous:
        return bool(np.all(pre[labels] > 0) and np.all(pre[~labels] <= 0))
    # robust: require both sides strict, so that the LP-based enumeration is exact
    return bool(np.all(pre[labels] > 0) and np.all(pre[~labels] < 0))


def _cells_with_witnesses(
    X: np.ndarray, homogeneous: bool = False, max_cells: int | None = None
) -> tuple[np.ndarray, np.ndarray]:
    """All halfspace cells of the rows of ``X`` with a strict witness ``(w, b)`` each.

    Incremental enumeration: a labelling of the first ``t + 1`` points is
    realisable only if its restriction to the first ``t`` points is, so each
    realisable prefix is extended by both labels of the next point. The label
    the prefix's witness already gives (if strict) needs no LP; the other is
    tested by :func:`_lp_witness`. Cost ``O(#cells * m)`` LPs instead of ``2^m``.
    """
    m, n = X.shape
    prefixes: list[tuple[np.ndarray, np.ndarray]] = [(np.zeros(0, dtype=bool), np.zeros(n + 1))]
    for t in range(m):
        Xt = X[: t + 1]
        nxt: list[tuple[np.ndarray, np.ndarray]] = []
        for labels, v in prefixes:
            for lab in (False, True):
                new = np.append(labels, lab)
                if t == 0 or not _witness_from(Xt, new, v, homogeneous):
                    v_new = _lp_witness(Xt, new, homogeneous)
                else:
                    v_new = v
                if v_new is not None:
                    nxt.append((new, v_new))
        prefixes = nxt
        if max_cells is not None and len(prefixes) > max_cells:
            raise ValueError(
                f"more than max_cells={max_cells} halfspace cells on the first {t + 1} points"
            )
    masks = np.array([lab for lab, _ in prefixes], dtype=bool).reshape(-1, m)
    wit = np.array([v for _, v in prefixes], dtype=np.float64).reshape(-1, n + 1)
    order = np.lexsort(masks.T[::-1])  # deterministic order: lexicographic in the masks
    return masks[order], wit[order]


def halfspace_cells(X, max_cells: int | None = None, homogeneous: bool = False) -> list[np.ndarray]:
    """All subsets of the rows of ``X`` cut out by one halfspace (the patterns of ONE neuron).

    A subset ``I`` is a *cell* when some ``(w, b)`` has ``<w, x_i> - b > 0`` exactly
    for ``i in I``: the activation pattern of one ReLU neuron on the sample. The
    empty cell is always included (``w = 0, b = 0``).

    Parameters
    ----------
    X : array_like, shape (m, n)
        The sample (rows are points; repeated rows always share a label). Meant
        for tiny samples (``m <= ~12`` and small ``n``): the number of cells is
        ``O(m^n)`` and each costs one LP.
    max_cells : int, optional
        Raise ``ValueError`` as soon as more cells than this are found.
    homogeneous : bool, optional
        Only halfspaces through the origin ``{<w, x> > 0}`` (``b = 0``; the
        class with ``B = 0``).

    Returns
    -------
    list of ndarray of bool, shape (m,)
        One mask per cell, each **exact** (every cell is certified by a witness
        ``(w, b)`` checked in floating point; non-cells are certified by LP
        infeasibility with margin normalisation, see :func:`_lp_witness`).
        Sorted lexicographically (the empty cell first).
    """
    X = _as_points(X)
    if max_cells is not None:
        max_cells = check_int(max_cells, "max_cells", 1)
    masks, _ = _cells_with_witnesses(X, bool(homogeneous), max_cells)
    return [row.copy() for row in masks]


def class_cells(X, W, B, max_cells: int | None = None) -> tuple[np.ndarray, np.ndarray]:
    """The cells realisable by one neuron of ``H^{W,B}`` on ``X``, with witnesses.

    ``W > 0, B > 0``: all halfspace cells; ``W > 0, B = 0``: homogeneous ones;
    ``W = 0``: the empty cell and, if ``B > 0``, the set of all points.

    Returns
    -------
    masks : ndarray of bool, shape (C, m)
        **exact** cells.
    witnesses : ndarray, shape (C, n + 1)
        ``(w, b)`` realising each cell (arbitrary scale; not scaled into ``W, B``).
    """
    X = _as_points(X)
    W = _scale(W, "W")
    B = _scale(B, "B")
    m, n = X.shape
    if W == 0.0:
        masks = [np.zeros(m, dtype=bool)]
        wit = [np.zeros(n + 1)]
        if B > 0.0:
            masks.append(np.ones(m, dtype=bool))
            wit.append(np.concatenate([np.zeros(n), [-1.0]]))
        return np.array(masks), np.array(wit)
    return _cells_with_witnesses(X, homogeneous=(B == 0.0), max_cells=max_cells)


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
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", OptimizeWarning)
        res = linprog(cost, A_ub=A_ub, b_ub=b_ub, bounds=bounds, method="highs")
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


def _barrier(A, a0, Zw, pad, q, u0, t_final: float = _T_FINAL, mu: float = 30.0, tol: float = 1e-10):
    """Batched log-barrier method for ``max q.u`` s.t. ``A u + a0 >= 0``, ``||Zw u|| <= 1``.

    Minimises ``F_t(u) = -t q.u - sum log(A u + a0) - log(1 - ||Zw u||^2)`` (self-
    concordant) by damped Newton steps ``1/(1 + lambda)`` (full steps once the
    Newton decrement ``lambda < 1/4``), which keep every iterate strictly
    feasible, for ``t = 1, mu, mu^2, ..., t_final``. At the end the multipliers
    ``1/(t s_i)`` of the linear rows are returned for the dual certificate.
    """
    u = u0.copy()
    P, M, d = A.shape
    eye_pad = pad[:, :, None] * np.eye(d)[None]
    t = 1.0
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
        for sgi, zi, ci in zip(*np.nonzero(bad)):
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
    if W > 0.0:
        if _lp_witness(X, mask, homogeneous=(B == 0.0)) is None:
            raise ValueError("mask is not a cell realisable by one neuron of the class")
    masks = mask[None, :]
    system = _build_system(X, W, B, masks, None)
    lo, hi, w, b, sg = _solve_cells(X, zeta[None, :], masks, system, W, B)
    return CellValue(float(lo[0, 0]), float(hi[0, 0]), w[0, 0], float(b[0, 0]), float(sg[0, 0]))


# ---------------------------------------------------------------------------
# assignment search: at most s cells, every point covered at most k times
# ---------------------------------------------------------------------------


@numba.njit(cache=True)
def _assignment_kernel(codes, cellbits, values, full_bits, s):  # pragma: no cover - compiled
    """Layered DP over coverage states; ``full_bits[state]`` marks points at capacity."""
    n_states = full_bits.size
    n_cells = codes.size
    neg = -np.inf
    layer = np.full(n_states, neg)
    layer[0] = 0.0
    par_c = np.full((s, n_states), -1, dtype=np.int64)
    par_s = np.full((s, n_states), -1, dtype=np.int64)
    best_val = 0.0
    best_t = 0
    best_state = 0
    for t in range(s):
        new = np.full(n_states, neg)
        reached = False
        for st in range(n_states):
            v = layer[st]
            if v == neg:
                continue
            fb = full_bits[st]
            for c in range(n_cells):
                if fb & cellbits[c]:
                    continue
                dst = st + codes[c]
                cand = v + values[c]
                if cand > new[dst]:
                    new[dst] = cand
                    par_c[t, dst] = c
                    par_s[t, dst] = st
                    reached = True
        if not reached:
            break
        layer = new
        for st in range(n_states):
            if layer[st] > best_val:
                best_val = layer[st]
                best_t = t + 1
                best_state = st
    return best_val, best_t, best_state, par_c, par_s


class _Assignment:
    """Precomputed coverage-state tables for :func:`best_assignment` on fixed cells."""

    def __init__(self, masks: np.ndarray, s: int, k: int):
        C, m = masks.shape
        self.s = s
        self.kk = min(k, s)
        self.masks = masks
        self.nonempty = masks.any(axis=1)
        if self.kk >= s:
            return
        if m > 62:
            raise ValueError(f"the exact assignment search supports m <= 62 points, got m={m}")
        n_states = (self.kk + 1) ** m
        if n_states > MAX_ASSIGNMENT_STATES:
            raise ValueError(
                f"assignment search needs (min(k,s)+1)^m = {n_states} states, "
                f"more than MAX_ASSIGNMENT_STATES={MAX_ASSIGNMENT_STATES}"
            )
        base = (self.kk + 1) ** np.arange(m, dtype=np.int64)
        states = np.arange(n_states, dtype=np.int64)
        bits = np.int64(1) << np.arange(m, dtype=np.int64)
        full = np.zeros(n_states, dtype=np.int64)
        for i in range(m):
            full |= np.where((states // base[i]) % (self.kk + 1) >= self.kk, bits[i], 0)
        self.full_bits = full
        self.codes = masks.astype(np.int64) @ base
        self.cellbits = masks.astype(np.int64) @ bits

    def solve(self, values: np.ndarray) -> tuple[float, list[int]]:
        use = np.flatnonzero((values > 0) & self.nonempty)
        if use.size == 0:
            return 0.0, []
        if self.kk >= self.s:  # no sparsity constraint binds: s copies of the best cell
            j = int(use[np.argmax(values[use])])
            return float(self.s * values[j]), [j] * self.s
        val, t, state, par_c, par_s = _assignment_kernel(
            self.codes[use], self.cellbits[use], values[use].astype(np.float64), self.full_bits, self.s
        )
        chosen: list[int] = []
        while t > 0:
            chosen.append(int(use[par_c[t - 1, state]]))
            state = int(par_s[t - 1, state])
            t -= 1
        return float(val), chosen[::-1]


def best_assignment(masks, values, s: int, k: int) -> tuple[float, list[int]]:
    """``max sum_j values[c_j]`` over multisets ``{c_1, ..., c_t}``, ``t <= s``, covering each point ``<= k`` times.

    Dynamic programme over coverage vectors in ``{0, ..., k'}^m``, ``k' = min(k,
    s)`` (encoded in base ``k' + 1``), layer by layer in the number of cells
    used (compiled with numba); a cell may be used repeatedly. Values must be
    ``>= 0`` (cells with value 0, e.g. the empty cell, are skipped: leaving a
    neuron inactive is always allowed). When ``k >= s`` nothing binds and the
    answer is ``s`` copies of the best cell.

    Returns
    -------
    value : float
        The **exact** maximum.
    cells : list of int
        Indices of an optimal multiset (with repetitions).

    Raises
    ------
    ValueError
        If ``(k'+1)^m > MAX_ASSIGNMENT_STATES`` or ``m > 62``.
    """
    masks = np.asarray(masks, dtype=bool)
    values = np.asarray(values, dtype=np.float64)
    s, k = _check_sk(s, k)
    if masks.ndim != 2 or values.shape != (masks.shape[0],):
        raise ValueError("masks must have shape (C, m) and values shape (C,)")
    if np.any(values < 0) or not np.all(np.isfinite(values)):
        raise ValueError("values must be finite and >= 0")
    return _Assignment(masks, s, k).solve(values)


# ---------------------------------------------------------------------------
# network helpers
# ---------------------------------------------------------------------------


def network_objective(net: SparseReLUNetwork, X, zeta) -> float:
    """``(1/m) sum_i zeta_i h(x_i)`` for the network ``h`` (**exact** for that network)."""
    X = _as_points(X)
    zeta = _as_zeta(zeta, X.shape[0])
    return float(zeta @ net(X)) / X.shape[0]


def in_class(net: SparseReLUNetwork, X, s: int, k: int, W: float, B: float) -> bool:
    """Whether ``net`` lies in ``H_{n,s,k}^{W,B}`` with k-sparsity on the rows of ``X`` (Definition 2)."""
    X = _as_points(X)
    return bool(
        net.n_neurons <= s
        and net.scale_W() <= W
        and net.scale_B() <= B
        and int(net.active_counts(X).max(initial=0)) <= k
    )


# ---------------------------------------------------------------------------
# exact sup for one zeta
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class ExactSup:
    """``sup_{h in H} (1/m) sum_i zeta_i h(x_i)`` for one ``zeta``.

    Attributes
    ----------
    value : float
        **exact** sup (up to solver tolerance): the objective of ``network``,
        i.e. a certified lower bound, with ``upper - value`` the certified gap.
    upper : float
        **upper bound**: the assignment maximum of the per-cell dual bounds.
    cells : list of int
        Indices (into the cell list used) of an optimal multiset of cells.
    network : SparseReLUNetwork
        A network of ``H_{n,s,k}^{W,B}`` (``||u||_inf = 1``) attaining ``value``.
    """

    value: float
    upper: float
    cells: list
    network: SparseReLUNetwork


def _cells_for(X, W, B, cells):
    if cells is None:
        return class_cells(X, W, B)
    masks = np.asarray(cells, dtype=bool)
    if masks.ndim != 2 or masks.shape[1] != X.shape[0]:
        raise ValueError(f"cells must be a sequence of boolean masks of length {X.shape[0]}")
    return masks, None


def _exact_from_values(X, zeta, lower, upper, w, b, sign, assign: _Assignment) -> ExactSup:
    """Assemble the exact sup from per-cell values: DP on the attained values, certificate by the gaps.

    With ``delta = max_c (upper_c - lower_c)`` every multiset of at most ``s`` cells
    has ``sum upper <= sum lower + s delta``, so ``DP(upper) <= DP(lower) + s delta``.
    """
    m, n = X.shape
    val_lo, chosen = assign.solve(lower)
    delta = float(np.max(upper - lower, initial=0.0))
    if chosen:
        net = SparseReLUNetwork(sign[chosen], w[chosen], b[chosen])
    else:
        net = SparseReLUNetwork(np.ones(1), np.zeros((1, n)), np.zeros(1))
    value = network_objective(net, X, zeta)
    upper_total = (val_lo + assign.s * delta) / m
    return ExactSup(value=value, upper=max(upper_total, value), cells=chosen, network=net)


def sup_exact(X, zeta, s: int, k: int, W, B, cells=None) -> ExactSup:
    """Exact ``sup_{h in H_{n,s,k}^{W,B}} (1/m) sum_i zeta_i h(x_i)`` for one ``zeta`` (tiny samples).

    Solves the per-cell problem (:func:`cell_value`) for every realisable cell
    and the assignment problem (:func:`best_assignment`), see the module
    docstring for the reduction.

    Parameters
    ----------
    X : array_like, shape (m, n)
    zeta : array_like, shape (m,)
    s, k : int
        ``1 <= k <= s``.
    W, B : float
        Scales ``>= 0``.
    cells : array_like of bool, shape (C, m), optional
        The realisable cells (default :func:`class_cells`). Passing a subset
        gives a lower bound.

    Returns
    -------
    ExactSup
        ``value`` **exact** (attained by ``network``), ``upper`` **upper bound**
        certificate.
    """
    X = _as_points(X)
    zeta = _as_zeta(zeta, X.shape[0])
    s, k = _check_sk(s, k)
    W = _scale(W, "W")
    B = _scale(B, "B")
    masks, wit = _cells_for(X, W, B, cells)
    system = _build_system(X, W, B, masks, wit)
    lo, hi, w, b, sg = _solve_cells(X, zeta[None, :], masks, system, W, B)
    return _exact_from_values(X, zeta, lo[0], hi[0], w[0], b[0], sg[0], _Assignment(masks, s, k))


# ---------------------------------------------------------------------------
# proof quantity
# ---------------------------------------------------------------------------


def _proof_cell_values(X, zeta, masks, W, B) -> tuple[np.ndarray, np.ndarray]:
    Z = masks * zeta[None, :]  # (C, m)
    weight = W * np.linalg.norm(Z @ X, axis=1)
    bias = B * np.abs(Z.sum(axis=1))
    return weight, bias


def proof_intermediate_quantity(X, zeta, s: int, k: int, W, B, cells=None, split: bool = False) -> float:
    r"""The proof's upper quantity for one ``zeta`` (eqs. (3)-(13) of Theorem 19).

    ``max (1/m) sum_j (W ||sum_{i in I_j} zeta_i x_i|| + B |sum_{i in I_j} zeta_i|)``
    over multisets of at most ``s`` realisable cells covering each point at most
    ``k`` times. For each cell, ``|sum_I zeta_i (<w,x_i> - b)| <= |<w, sum_I zeta_i
    x_i>| + |b| |sum_I zeta_i|`` (Cauchy-Schwarz as in (11)-(12) and the triangle
    inequality of (4)), so this dominates the sup: it drops the constraint that
    ``(w, b)`` must realise the cell.

    Parameters
    ----------
    X, zeta, s, k, W, B
        As in :func:`sup_exact`.
    cells : array_like of bool, shape (C, m), optional
        Realisable cells (default :func:`class_cells`).
    split : bool, optional
        If true, return the quantity of (4) with the two maxima taken
        separately, ``max sum_j W||.|| + max sum_j B|.|`` (larger or equal).

    Returns
    -------
    float
        **upper bound (proof quantity)** of the sup for this ``zeta`` (exact
        evaluation of the quantity).
    """
    X = _as_points(X)
    m = X.shape[0]
    zeta = _as_zeta(zeta, m)
    s, k = _check_sk(s, k)
    W = _scale(W, "W")
    B = _scale(B, "B")
    masks, _ = _cells_for(X, W, B, cells)
    return _proof_value(X, zeta, masks, W, B, _Assignment(masks, s, k), split)


def _proof_value(X, zeta, masks, W, B, assign: _Assignment, split: bool) -> float:
    weight, bias = _proof_cell_values(X, zeta, masks, W, B)
    if split:
        return (assign.solve(weight)[0] + assign.solve(bias)[0]) / X.shape[0]
    return assign.solve(weight + bias)[0] / X.shape[0]


# ---------------------------------------------------------------------------
# scalable lower bound for one zeta
# ---------------------------------------------------------------------------


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


def _best_threshold(P: np.ndarray, zeta: np.ndarray, tau_min: np.ndarray, W: float, B: float, max_size=None):
    """Best ``(value, direction index, tau, t)`` for neurons ``w = t u_d``, ``b = t tau``.

    For a unit direction ``u`` with projections ``p_i = <u, x_i>`` (column ``d`` of
    ``P``) the neuron ``(t u, t tau)`` has cell ``{p_i > tau}`` and contributes
    ``t g(tau)``, ``g(tau) = sum_{p_i > tau} zeta_i (p_i - tau)`` (continuous,
    piecewise linear). The scales allow ``t = min(W, B/|tau|)``; on each piece
    between consecutive breakpoints of ``{p_i} U {-B/W, B/W}``, ``t |g(tau)|`` is
    ``W |affine(tau)|`` or ``B |affine(1/tau)|``, convex in ``tau`` or in
    ``1/tau``, so its maximum over ``tau >= tau_min[d]`` (points already covered
    ``k`` times must stay inactive) is attained at a breakpoint, at ``+-B/W`` or
    at ``tau_min[d]``. (``tau -> -inf``, i.e. ``w = 0, b = -B``, is handled by the
    caller.) ``max_size`` optionally caps the number of points of the cell.
    """
    m, D = P.shape
    order = np.argsort(-P, axis=0, kind="stable")
    ps = np.take_along_axis(P, order, axis=0)  # descending per column
    zs = zeta[order]
    CP = np.vstack([np.zeros((1, D)), np.cumsum(zs * ps, axis=0)])
    CZ = np.vstack([np.zeros((1, D)), np.cumsum(zs, axis=0)])
    # tau = ps[q]: r = number strictly greater = first index of the run of equal values
    idx = np.broadcast_to(np.arange(m)[:, None], (m, D))
    new_run = np.vstack([np.ones((1, D), dtype=bool), ps[1:] != ps[:-1]])
    r = np.maximum.accumulate(np.where(new_run, idx, 0), axis=0)
    taus = [ps]
    rs = [r]
    extra = [np.where(np.isfinite(tau_min), tau_min, ps[0])]
    if W > 0:
        extra += [np.full(D, B / W), np.full(D, -B / W)]
    for tau in extra:
        taus.append(tau[None, :])
        rs.append((P > tau[None, :]).sum(axis=0, keepdims=True))
    T = np.vstack(taus)
    Rr = np.vstack(rs)
    g = np.take_along_axis(CP, Rr, axis=0) - T * np.take_along_axis(CZ, Rr, axis=0)
    with np.errstate(divide="ignore"):
        t = np.minimum(W, np.where(T == 0, np.inf, B / np.maximum(np.abs(T), 1e-300)))
    val = t * np.abs(g)
    val[T < tau_min[None, :]] = -np.inf
    if max_size is not None:
        val[Rr > max_size] = -np.inf
    flat = int(np.argmax(val))
    q, d = divmod(flat, D)
    return float(val[q, d]), d, float(T[q, d]), float(t[q, d])


def _directions(X, zeta, avail, cell, w_cur, n_random, rng, others=None) -> np.ndarray:
    n = X.shape[1]
    dirs = [] if others is None else list(others)
    if np.any(w_cur):
        dirs.append(w_cur)
        dirs.append(w_cur / np.linalg.norm(w_cur) + 0.3 * rng.standard_normal(n) / math.sqrt(n))
    if cell.any():
        c = zeta[cell] @ X[cell]
        dirs += [c, -c]
    if avail.any():
        za = zeta[avail]
        Xa = X[avail]
        c = za @ Xa
        dirs += [c, -c]
        pos = za > 0
        if pos.any():
            dirs.append(Xa[pos].sum(axis=0))
        if (~pos).any():
            dirs.append(Xa[~pos].sum(axis=0))
        dirs += list(X[rng.choice(np.flatnonzero(avail), size=2)])  # isolate around available points
    for _ in range(n_random):
        dirs.append(rng.standard_normal(n))
    U = np.array(dirs, dtype=np.float64).reshape(-1, n)
    norms = np.linalg.norm(U, axis=1)
    keep = norms > 1e-12
    return U[keep] / norms[keep, None]


def _refine_direction(X, zeta, sat, W, B, max_size, u, val, tau, t, rng, steps: int):
    """Local ascent on the direction of the best neuron ``(t u, t tau)``.

    The contribution ``t sum_{p_i > tau} zeta_i (<u, x_i> - tau)`` with ``tau`` tied
    to the binding point ``j*`` (the point at the threshold) has the
    (sub)gradient ``t sigma (sum_cell zeta_i x_i - (sum_cell zeta_i) x_{j*})`` in
    ``u``; each step evaluates a few step sizes along its tangent part plus
    random perturbations (exact thresholds by :func:`_best_threshold`) and keeps
    the best direction if it improves.
    """
    n = X.shape[1]
    for _ in range(steps):
        p = X @ u
        cell = p > tau
        gsum = zeta[cell] @ X[cell]
        sigma = 1.0 if (zeta[cell] @ (p[cell] - tau)) >= 0 else -1.0
        below = np.flatnonzero(~cell)
        grad = gsum.copy()
        if below.size:
            j = below[np.argmax(p[below])]
            if abs(p[j] - tau) <= 1e-9 * (1.0 + abs(tau)):
                grad = grad - zeta[cell].sum() * X[j]
        grad = sigma * grad
        grad -= (grad @ u) * u
        gn = np.linalg.norm(grad)
        dirs = []
        if gn > 0:
            dirs += [u + eta * grad / gn for eta in (0.02, 0.08, 0.3)]
        dirs += [u + 0.1 * rng.standard_normal(n) / math.sqrt(n) for _ in range(2)]
        Ud = np.array(dirs)
        Ud /= np.linalg.norm(Ud, axis=1, keepdims=True)
        P = X @ Ud.T
        tmin = P[sat].max(axis=0) if sat.any() else np.full(Ud.shape[0], -np.inf)
        v2, d2, tau2, t2 = _best_threshold(P, zeta, tmin, W, B, max_size)
        if v2 > val * (1 + 1e-12):
            val, u, tau, t = v2, Ud[d2], tau2, t2
        else:
            break
    return val, u, tau, t


def _place_neuron(X, zeta, counts, k, W, B, cell, w_cur, n_random, rng, max_size=None, others=None, refine=3):
    """Best neuron over candidate directions given the coverage ``counts`` of the other neurons.

    Returns ``(signed contribution, w, b, active mask)``; the contribution is
    recomputed from the neuron's own preactivations, and a candidate that would
    activate a saturated point (through rounding) is discarded.
    """
    m, n = X.shape
    sat = counts >= k
    U = _directions(X, zeta, ~sat, cell, w_cur, n_random, rng, others)
    if B == 0.0 and sat.any() and U.shape[0]:
        # homogeneous neurons: saturated points need <u, x_j> <= 0 exactly, so also try
        # the projections onto that cone, Pi_K(d) = d - X_sat^T lambda* (Moreau, via NNLS)
        Xs = X[sat]
        proj = []
        for d_ in U[:8]:
            lam, _ = nnls(Xs.T, d_, maxiter=20 * Xs.shape[0] + 50)
            v = d_ - Xs.T @ lam
            nv = np.linalg.norm(v)
            if nv > 1e-9:
                proj.append(v / nv)
        if proj:
            U = np.vstack([U, np.array(proj)])
    cand = []
    if U.shape[0] and W > 0:
        P = X @ U.T
        tau_min = P[sat].max(axis=0) if sat.any() else np.full(U.shape[0], -np.inf)
        val, d, tau, t = _best_threshold(P, zeta, tau_min, W, B, max_size)
        u = U[d]
        if val > 0 and refine:
            val, u, tau, t = _refine_direction(X, zeta, sat, W, B, max_size, u, val, tau, t, rng, refine)
        if val > 0:
            if B == 0.0:  # homogeneous: tau = 0 exactly, b = 0
                cand.append((W * u, 0.0))
            else:
                # shift the threshold up so that points at tau are robustly inactive
                tau_s = tau + 1e-9 * (1.0 + abs(tau))
                t_s = min(W, B / abs(tau_s)) if tau_s != 0 else W
                cand.append((t_s * u, t_s * tau_s))
    if not sat.any() and B > 0 and (max_size is None or m <= max_size):
        # w = 0, b = -B: every point active, value B |sum zeta|
        cand.append((np.zeros(n), -B))
    out = (0.0, np.zeros(n), 0.0, np.zeros(m, dtype=bool))
    for w, b in cand:
        pre = X @ w - b
        act = pre > 0
        if np.any(act & sat):
            continue
        v = float(zeta @ np.maximum(pre, 0.0))
        if abs(v) > abs(out[0]):
            out = (v, w, b, act)
    return out


def _random_cap(m: int, rng) -> int:
    """A random cell-size cap, biased towards small cells (``m u^2``, at least 1)."""
    return max(1, int(math.ceil(m * rng.random() ** 2)))


def _search(X, zeta, s, k, W, B, restarts, iterations, n_random, rng, init=None, capped=False):
    """Coordinate ascent over neurons with greedy construction, pair moves and restarts.

    ``init = (Wm, bm)`` starts one run from a given k-sparse network instead.
    """
    m, n = X.shape
    best_total, best_state = -1.0, None
    for rs in range(1 if init is not None else restarts):
        if init is not None:
            Wm, bm = init[0].copy(), init[1].copy()
            pre = X @ Wm.T - bm
            act = pre > 0
            val = zeta @ np.maximum(pre, 0.0)
            counts = act.sum(axis=1).astype(np.int64)
        else:
            Wm = np.zeros((s, n))
            bm = np.zeros(s)
            val = np.zeros(s)
            act = np.zeros((m, s), dtype=bool)
            counts = np.zeros(m, dtype=np.int64)
            # greedy construction (restart 0 unconstrained, later ones with random size caps)
            for j in range(s):
                cap = None if (rs == 0 and not capped) else _random_cap(m, rng)
                v, w, b, a = _place_neuron(X, zeta, counts, k, W, B, act[:, j], Wm[j], n_random, rng, cap)
                Wm[j], bm[j], val[j], act[:, j] = w, b, v, a
                counts += a
        for _sweep in range(iterations):
            improved = False
            # single-neuron moves: re-place neuron j given the others
            for j in rng.permutation(s):
                counts -= act[:, j]
                others = None
                if k > 1 and s > 1:  # overlapping cells: try the directions of other neurons
                    pick = rng.choice(np.delete(np.arange(s), j), size=min(3, s - 1), replace=False)
                    others = [Wm[i] for i in pick if np.any(Wm[i])]
                v, w, b, a = _place_neuron(X, zeta, counts, k, W, B, act[:, j], Wm[j], n_random, rng, None, others)
                if abs(v) > abs(val[j]) * (1 + 1e-12) + 1e-15:
                    Wm[j], bm[j], val[j], act[:, j] = w, b, v, a
                    improved = True
                counts += act[:, j]
            # pair moves: re-place j2 under a random size cap, then j1 given it
            if s >= 2:
                for j1 in rng.permutation(s):
                    j2 = int(rng.integers(s - 1))
                    j2 += j2 >= j1
                    old = abs(val[j1]) + abs(val[j2])
                    counts -= act[:, j1].astype(np.int64) + act[:, j2]
                    v2, w2, b2, a2 = _place_neuron(
                        X, zeta, counts, k, W, B, act[:, j2], Wm[j2], n_random, rng, _random_cap(m, rng)
                    )
                    v1, w1, b1, a1 = _place_neuron(X, zeta, counts + a2.astype(np.int64), k, W, B, act[:, j1], Wm[j1], n_random, rng)
                    if abs(v1) + abs(v2) > old * (1 + 1e-12) + 1e-15:
                        Wm[j1], bm[j1], val[j1], act[:, j1] = w1, b1, v1, a1
                        Wm[j2], bm[j2], val[j2], act[:, j2] = w2, b2, v2, a2
                        improved = True
                    counts += act[:, j1].astype(np.int64) + act[:, j2]
            if not improved:
                break
        total = float(np.abs(val).sum())
        if total > best_total:
            best_total, best_state = total, (Wm.copy(), bm.copy(), np.where(val < 0, -1.0, 1.0))
    return best_state


def _polish_network(X, zeta, Wm, bm, um, W, B):
    """Optimise each neuron's ``(w, b)`` with its cell on ``S`` held fixed (per-cell SOCP).

    Each neuron's activation pattern is kept exactly (the barrier iterates are
    strictly feasible), so ``k``-sparsity is unchanged, and its contribution
    ``u_j sum_{i in I_j} zeta_i (<w,x_i> - b)`` can only grow; a neuron whose
    pattern changes through rounding keeps its old weights.

    Constraint generation: each round solves with the ``K`` pattern constraints
    of smallest normalised slack at the start (plus all rows violated in an
    earlier round) and checks the full pattern; neurons whose solution breaks
    it are re-solved with a larger ``K`` (finally all ``m`` rows).
    """
    m, n = X.shape
    if W == 0.0:
        return Wm, bm
    has_b = B > 0.0
    d = n + 1 if has_b else n
    pre = X @ Wm.T - bm
    act = pre > 0
    todo = []
    for j in range(Wm.shape[0]):
        if not act[:, j].any():
            continue
        if not has_b and np.any(pre[~act[:, j], j] >= 0):  # off-cell points on the hyperplane
            continue
        todo.append(j)
    if not todo:
        return Wm, bm
    Wm, bm = Wm.copy(), bm.copy()
    Xa = np.hstack([X * W, -B * np.ones((m, 1))]) if has_b else X * W
    Xa = Xa / np.maximum(np.linalg.norm(Xa, axis=1, keepdims=True), 1e-300)
    info = {}
    for j in todo:
        cell = act[:, j]
        sg = np.where(cell, 1.0, -1.0)
        u0 = 0.999 * (np.concatenate([Wm[j] / W, [bm[j] / B]]) if has_b else Wm[j] / W)
        G = sg[:, None] * Xa
        slack = G @ u0
        # a (numerically) zero slack: the point sits on the neuron's hyperplane, possibly
        # as an implicit equality of the cell (homogeneous case); leave such neurons alone
        if not np.all(slack[np.linalg.norm(G, axis=1) > 0] > 1e-12):
            continue
        c = zeta[cell] @ X[cell]
        qq = np.concatenate([W * c, [-B * zeta[cell].sum()]]) if has_b else W * c
        info[j] = (G, slack, u0, um[j] * qq / max(np.linalg.norm(qq), 1e-300), np.zeros(m, dtype=bool))
    pending = list(info)
    for K in (4 * (n + 1), 16 * (n + 1), m):
        if not pending:
            break
        K = min(K, m)
        M = K + (2 if has_b else 0)
        P = len(pending)
        A = np.zeros((P, M, d))
        a0 = np.zeros((P, M))
        Zw = np.zeros((P, n, d))
        Zw[:, :, :n] = np.eye(n)
        u0s = np.zeros((P, d))
        qs = np.zeros((P, d))
        for r, j in enumerate(pending):
            G, slack, u0, q, forced = info[j]
            rows = np.argsort(np.where(forced, -np.inf, slack), kind="stable")[:K]
            A[r, :K] = G[rows]
            if has_b:
                A[r, K, n], a0[r, K] = -1.0, 1.0
                A[r, K + 1, n], a0[r, K + 1] = 1.0, 1.0
            u0s[r], qs[r] = u0, q
        zero_rows = ~np.any(A != 0, axis=2)
        a0[zero_rows] = 1.0
        u, _ = _barrier(A, a0, Zw, np.zeros((P, d)), qs, u0s)
        still = []
        for r, j in enumerate(pending):
            ui = u[r]
            w_new = W * ui[:n]
            b_new = B * ui[n] if has_b else 0.0
            p_new = X @ w_new - b_new
            broken = (p_new > 0) != act[:, j]
            if broken.any():
                info[j][4][broken] = True
                still.append(j)
                continue
            if np.linalg.norm(w_new) > W or abs(b_new) > B:
                continue
            old = um[j] * (zeta @ np.maximum(pre[:, j], 0.0))
            if um[j] * (zeta @ np.maximum(p_new, 0.0)) > old:
                Wm[j], bm[j] = w_new, b_new
        pending = still
    return Wm, bm


def sup_lower_bound(
    X, zeta, s: int, k: int, W, B, rng, restarts: int = 3, iterations: int = 6, n_random: int = 4,
    polish: bool = True, rounds: int = 2,
) -> LowerBoundSup:
    """Heuristic maximiser of ``(1/m) sum_i zeta_i h(x_i)`` over ``H_{n,s,k}^{W,B}`` (scalable).

    Search, with ``|u_j| = 1`` (module docstring, reduction 1):

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
      cell on ``S`` held fixed (:func:`_polish_network`, the per-cell SOCP), which
      keeps all activation patterns; ``rounds - 1`` further ascent + polish rounds.
    * ``restarts`` independent runs (the first unconstrained, the others with
      random size caps in the greedy construction); the best polished network wins.

    The final network is rebuilt and verified with :func:`in_class`; neurons on
    points violating ``k``-sparsity through rounding are switched off. On tiny
    instances the result is within a few per cent of :func:`sup_exact` on
    average (see ``tests/test_complexity.py``); for large ``s`` it improves with
    more effort (``restarts``, ``iterations``, ``rounds``), i.e. it is not
    converged there.

    Parameters
    ----------
    X : array_like, shape (m, n)
    zeta : array_like, shape (m,)
    s, k : int
    W, B : float
    rng : numpy.random.Generator
    restarts, iterations, n_random, rounds : int
        Search effort (see above).
    polish : bool
        Re-optimise each neuron with its cell fixed (one batched barrier solve).

    Returns
    -------
    LowerBoundSup
        ``value`` is a **lower bound (estimate)** of the sup for this ``zeta``:
        the exact objective of a network verified to lie in the class.
    """
    X = _as_points(X)
    m, n = X.shape
    zeta = _as_zeta(zeta, m)
    s, k = _check_sk(s, k)
    W = _scale(W, "W")
    B = _scale(B, "B")
    rng = _check_rng(rng)
    restarts = check_int(restarts, "restarts", 1)
    iterations = check_int(iterations, "iterations", 1)
    n_random = check_int(n_random, "n_random", 0)
    rounds = check_int(rounds, "rounds", 1)
    best = None
    for rs in range(restarts):
        # restart 0: unconstrained greedy construction; later ones: random size caps
        Wm, bm, um = _search(X, zeta, s, k, W, B, 1, iterations, n_random, rng, capped=rs > 0)
        if polish:
            Wm, bm = _polish_network(X, zeta, Wm, bm, um, W, B)
            for _ in range(rounds - 1):
                Wm, bm, um = _search(X, zeta, s, k, W, B, 1, iterations, n_random, rng, init=(Wm, bm))
                Wm, bm = _polish_network(X, zeta, Wm, bm, um, W, B)
        total = float(um @ (zeta @ np.maximum(X @ Wm.T - bm, 0.0)))
        if best is None or total > best[0]:
            best = (total, Wm, bm, um)
    _, Wm, bm, um = best
    # enforce the scales exactly in floating point
    norms = np.linalg.norm(Wm, axis=1)
    shrink = np.ones(s)
    with np.errstate(divide="ignore", invalid="ignore"):
        over_w = np.where(norms > W, W / norms, 1.0)
        over_b = np.where(np.abs(bm) > B, B / np.abs(bm), 1.0)
    shrink = np.minimum(over_w, over_b) * np.where((norms > W) | (np.abs(bm) > B), 1 - 1e-15, 1.0)
    Wm = Wm * shrink[:, None]
    bm = bm * shrink
    net = SparseReLUNetwork(um, Wm, bm)
    repaired = 0
    pre = net.preactivations(X)
    while True:
        counts = np.count_nonzero(pre > 0, axis=1)
        bad = np.flatnonzero(counts > k)
        if bad.size == 0:
            break
        i = bad[0]
        on = np.flatnonzero(pre[i] > 0)
        j = on[np.argmin(pre[i, on])]  # the neuron barely active there
        Wm[j] = 0.0
        bm[j] = 0.0
        repaired += 1
        net = SparseReLUNetwork(um, Wm, bm)
        pre = net.preactivations(X)
    if not in_class(net, X, s, k, W, B):  # pragma: no cover - defensive
        raise RuntimeError("lower-bound network failed the class check")
    return LowerBoundSup(value=network_objective(net, X, zeta), network=net, repaired=repaired)


# ---------------------------------------------------------------------------
# averages over zeta
# ---------------------------------------------------------------------------


def _all_zetas_half(m: int) -> np.ndarray:
    """The ``2^(m-1)`` sign vectors with ``zeta_1 = +1`` (the sup is even in ``zeta``)."""
    rest = np.array(list(itertools.product((1.0, -1.0), repeat=m - 1)), dtype=np.float64).reshape(-1, m - 1)
    return np.hstack([np.ones((rest.shape[0], 1)), rest])


def _zetas(m: int, n_zeta, rng) -> tuple[np.ndarray, bool]:
    if n_zeta is None:
        if m > EXHAUSTIVE_MAX_M:
            raise ValueError(
                f"m={m} > EXHAUSTIVE_MAX_M={EXHAUSTIVE_MAX_M}: pass n_zeta and rng to sample sign vectors"
            )
        return _all_zetas_half(m), True
    n_zeta = check_int(n_zeta, "n_zeta", 2)
    rng = _check_rng(rng)
    return 1.0 - 2.0 * rng.integers(0, 2, size=(n_zeta, m)).astype(np.float64), False


def _mc(samples: np.ndarray, confidence: float, method: str) -> MonteCarloEstimate:
    mean = float(samples.mean())
    half = NormalDist().inv_cdf(0.5 + confidence / 2.0) * float(samples.std(ddof=1)) / math.sqrt(samples.size)
    return MonteCarloEstimate(mean, mean - half, mean + half, int(samples.size), confidence, method)


def rademacher_exact(
    X, s: int, k: int, W, B, n_zeta: int | None = None, rng=None, confidence: float = 0.95,
    max_cells: int | None = None,
) -> MonteCarloEstimate:
    """Exact empirical Rademacher complexity ``R_H(S)`` of ``H_{n,s,k}^{W,B}`` for tiny samples.

    For each ``zeta`` the sup is computed exactly (:func:`sup_exact`: all
    realisable cells, the per-cell SOCPs, the assignment search). With
    ``n_zeta=None`` (requires ``m <= EXHAUSTIVE_MAX_M``) the average runs over
    all ``2^m`` sign vectors (``2^(m-1)`` by the ``zeta -> -zeta`` symmetry);
    otherwise over ``n_zeta`` sampled vectors.

    Parameters
    ----------
    X : array_like, shape (m, n)
    s, k : int
        ``1 <= k <= s``.
    W, B : float
        Scales ``>= 0``.
    n_zeta : int, optional
        Number of sampled sign vectors (``>= 2``); ``None`` for all of them.
    rng : numpy.random.Generator, optional
        Required when ``n_zeta`` is given.
    confidence : float, optional
        Coverage of the CLT interval (sampled case).
    max_cells : int, optional
        Passed to the cell enumeration.

    Returns
    -------
    MonteCarloEstimate
        Exhaustive case, ``method="exact"``: ``estimate`` is the **exact**
        ``R_H(S)`` (the mean of values attained by verified networks) and
        ``[ci_low, ci_high]`` is the certified bracket ``[estimate, mean of the
        dual upper bounds]`` (``confidence = 1.0``; its width is the solver
        error). Sampled case, ``method="exact sup, Monte Carlo over zeta"``:
        ``estimate`` is a Monte Carlo estimate of ``R_H(S)`` from exact sups,
        with a CLT interval.
    """
    X = _as_points(X)
    m = X.shape[0]
    s, k = _check_sk(s, k)
    W = _scale(W, "W")
    B = _scale(B, "B")
    if n_zeta is None and rng is not None:
        _check_rng(rng)
    zetas, exhaustive = _zetas(m, n_zeta, rng)
    masks, wit = class_cells(X, W, B, max_cells)
    system = _build_system(X, W, B, masks, wit)
    assign = _Assignment(masks, s, k)
    lo = np.empty(zetas.shape[0])
    hi = np.empty(zetas.shape[0])
    chunk = max(1, 4096 // max(1, system.cells.size))
    for start in range(0, zetas.shape[0], chunk):
        zs = zetas[start : start + chunk]
        L, U, w, b, sg = _solve_cells(X, zs, masks, system, W, B)
        for r in range(zs.shape[0]):
            res = _exact_from_values(X, zs[r], L[r], U[r], w[r], b[r], sg[r], assign)
            lo[start + r], hi[start + r] = res.value, res.upper
    if exhaustive:
        est = float(lo.mean())
        return MonteCarloEstimate(est, est, float(hi.mean()), 2**m, 1.0, "exact")
    confidence = _check_confidence(confidence)
    return _mc(lo, confidence, "exact sup, Monte Carlo over zeta")


def rademacher_lower_bound(
    X, s: int, k: int, W, B, n_zeta: int, rng, restarts: int = 3, iterations: int = 6,
    n_random: int = 4, confidence: float = 0.95, polish: bool = True, rounds: int = 2,
) -> MonteCarloEstimate:
    """Scalable lower-bound estimate of ``R_H(S)`` from verified networks.

    For each of ``n_zeta`` sampled sign vectors, :func:`sup_lower_bound` finds a
    network of ``H_{n,s,k}^{W,B}`` (verified: scales and ``k``-sparsity on ``S``)
    and its objective is a valid lower bound of the sup for that ``zeta``.

    Returns
    -------
    MonteCarloEstimate
        ``method="lower bound"``: ``estimate`` is a **lower bound (estimate)**
        of ``R_H(S)`` — the mean of per-``zeta`` lower bounds, whose expectation
        is ``<= R_H(S)`` — with a CLT interval for that expectation.
    """
    X = _as_points(X)
    m = X.shape[0]
    s, k = _check_sk(s, k)
    n_zeta = check_int(n_zeta, "n_zeta", 2)
    rng = _check_rng(rng)
    confidence = _check_confidence(confidence)
    zetas = 1.0 - 2.0 * rng.integers(0, 2, size=(n_zeta, m)).astype(np.float64)
    vals = np.array(
        [sup_lower_bound(X, z, s, k, W, B, rng, restarts, iterations, n_random, polish, rounds).value for z in zetas]
    )
    return _mc(vals, confidence, "lower bound")


def proof_intermediate(
    X, s: int, k: int, W, B, n_zeta: int | None = None, rng=None, confidence: float = 0.95,
    split: bool = False, max_cells: int | None = None,
) -> MonteCarloEstimate:
    """Average over ``zeta`` of :func:`proof_intermediate_quantity` (tiny samples: needs the cells).

    Returns
    -------
    MonteCarloEstimate
        **upper bound (proof quantity)** of ``R_H(S)``: exact average over all
        sign vectors when ``n_zeta is None`` (``method="proof quantity, exact"``,
        zero-width interval), else a Monte Carlo estimate with a CLT interval
        (``method="proof quantity, Monte Carlo over zeta"``).
    """
    X = _as_points(X)
    m = X.shape[0]
    s, k = _check_sk(s, k)
    W = _scale(W, "W")
    B = _scale(B, "B")
    zetas, exhaustive = _zetas(m, n_zeta, rng)
    masks, _ = class_cells(X, W, B, max_cells)
    assign = _Assignment(masks, s, k)
    vals = np.array([_proof_value(X, z, masks, W, B, assign, split) for z in zetas])
    if exhaustive:
        est = float(vals.mean())
        return MonteCarloEstimate(est, est, est, 2**m, 1.0, "proof quantity, exact")
    return _mc(vals, _check_confidence(confidence), "proof quantity, Monte Carlo over zeta")


# ---------------------------------------------------------------------------
# the paper's bounds for an instance
# ---------------------------------------------------------------------------


def paper_bounds(m: int, n: int, s: int, k: int, W, B, R) -> dict[str, float]:
    """The Section 5 bounds at one instance, from :mod:`sparseact.bounds` (all **formula**).

    Keys: ``"eq1"`` (Theorem 19, only for ``k = 1``, else NaN), ``"eq15"``,
    ``"conj20"`` (eq. (16)), ``"dense"`` (Anthony et al.), ``"proof_8_14"``
    (sum of the proof's final bounds (8) and (14) with ``c = 1``). Hidden
    constants are 1 and logs natural; a value is NaN where the printed formula
    is not real (a negative log under a square root, e.g. ``m (R + B) < 1``).
    """

    def safe(f, *a):
        try:
            return float(f(*a))
        except ValueError:
            return float("nan")

    out = {
        "eq1": safe(_bounds.theorem19_rademacher, m, n, s, W, B, R) if k == 1 else float("nan"),
        "eq15": safe(_bounds.eq15_rademacher, m, n, s, k, W, B, R),
        "conj20": safe(_bounds.conjecture20_rademacher, m, s, k, W, B, R),
        "dense": safe(_bounds.dense_rademacher, m, s, W, B, R),
    }
    try:
        b8, b14 = _bounds.theorem19_proof_terms(m, n, s, W, B, R)
        out["proof_8_14"] = float(b8 + b14)
    except ValueError:
        out["proof_8_14"] = float("nan")
    return out


# ---------------------------------------------------------------------------
# samples
# ---------------------------------------------------------------------------


def sample_distribution(kind: str, m: int, n: int, rng, **kw) -> tuple[np.ndarray, float]:
    """``m`` points on the cube ``{-1, 1}^n`` from a named distribution.

    Parameters
    ----------
    kind : {"uniform", "biased", "clustered", "lifted-parity"}
        * ``"uniform"``: i.i.d. uniform signs.
        * ``"biased"``: i.i.d. coordinates, ``+1`` with probability ``p``
          (keyword ``p``, default 0.8).
        * ``"clustered"``: ``n_centres`` (default 3) uniform centres; each point
          is a uniformly chosen centre with every bit flipped independently
          with probability ``flip`` (default 0.1).
        * ``"lifted-parity"``: Section 4's lift: ``y`` uniform on ``{-1,1}^q``,
          ``x = x(y)`` with ``x_ii = y_i``, ``x_ij = y_i y_j``, flattened
          (:func:`sparseact.constructions.quadratic_lift`), so ``n = q^2``
          (``n`` must be a perfect square).
    m, n : int
        Number of points and dimension.
    rng : numpy.random.Generator

    Returns
    -------
    X : ndarray, shape (m, n)
        The sample (float64 entries ``+-1``).
    R : float
        ``max_i ||x_i||_2`` (**exact**; ``sqrt(n)`` on the cube).
    """
    from sparseact.constructions import quadratic_lift

    m = check_int(m, "m", 1)
    n = check_int(n, "n", 1)
    rng = _check_rng(rng)
    allowed = {"uniform": set(), "biased": {"p"}, "clustered": {"n_centres", "flip"}, "lifted-parity": set()}
    if kind not in allowed:
        raise ValueError(f"unknown kind {kind!r}; expected one of {sorted(allowed)}")
    extra = set(kw) - allowed[kind]
    if extra:
        raise ValueError(f"unexpected keyword(s) for kind {kind!r}: {sorted(extra)}")
    if kind == "uniform":
        X = 1.0 - 2.0 * rng.integers(0, 2, size=(m, n))
    elif kind == "biased":
        p = kw.get("p", 0.8)
        if isinstance(p, bool) or not isinstance(p, (int, float, np.floating, np.integer)) or not 0.0 <= p <= 1.0:
            raise ValueError(f"p must be a probability in [0, 1], got {p!r}")
        X = np.where(rng.random((m, n)) < p, 1.0, -1.0)
    elif kind == "clustered":
        n_centres = check_int(kw.get("n_centres", 3), "n_centres", 1)
        flip = kw.get("flip", 0.1)
        if isinstance(flip, bool) or not isinstance(flip, (int, float, np.floating, np.integer)) or not 0.0 <= flip <= 1.0:
            raise ValueError(f"flip must be a probability in [0, 1], got {flip!r}")
        centres = 1.0 - 2.0 * rng.integers(0, 2, size=(n_centres, n))
        X = centres[rng.integers(0, n_centres, size=m)] * np.where(rng.random((m, n)) < flip, -1.0, 1.0)
    else:
        q = math.isqrt(n)
        if q * q != n:
            raise ValueError(f"lifted-parity needs n = q^2 (a perfect square), got n={n}")
        Y = 1.0 - 2.0 * rng.integers(0, 2, size=(m, q))
        X = quadratic_lift(Y)
    X = np.asarray(X, dtype=np.float64)
    return X, float(np.linalg.norm(X, axis=1).max())
