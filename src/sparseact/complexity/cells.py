"""Halfspace cells of a sample: the activation patterns one neuron of the class can cut out (Sauer-Shelah)."""

from __future__ import annotations

import warnings

import numpy as np

from sparseact._validation import MAX_CELL_LPS, MAX_CELL_SAMPLE_SCALE, MIN_CELL_SAMPLE_SCALE, check_bool, check_int
from sparseact.complexity._common import _as_points, _scale

# ---------------------------------------------------------------------------
# halfspace cells
# ---------------------------------------------------------------------------


#: HiGHS's methods in the order tried: its default (a simplex), then the interior point method (with crossover), which
#: solves the cell programmes the simplex leaves in an unknown state on nearly degenerate samples.
LP_METHODS = ("highs", "highs-ipm")


def _solve_lp(cost, A_ub, b_ub, bounds):
    """``scipy.optimize.linprog`` solved by the first of :data:`LP_METHODS` that decides the programme (optimal,
    infeasible or unbounded); raises ``ArithmeticError`` when none does, so a cell is never dropped on a solver's
    numerical failure."""
    # deferred: scipy.optimize is slow to import, unused by the sweeps
    from scipy.optimize import OptimizeWarning, linprog

    for method in LP_METHODS:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", OptimizeWarning)
            res = linprog(cost, A_ub=A_ub, b_ub=b_ub, bounds=bounds, method=method)
        if res.status in (0, 2, 3):
            return res
    raise ArithmeticError(f"no LP method decided a cell programme ({res.message})")


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
    res = _solve_lp(np.zeros(nv), A, rhs, [(None, None)] * nv)
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


def _count_text(count: int) -> str:
    """An exact count as text, or ``about 2^e`` for one too long to print (``str`` refuses ints over 4300 digits)."""
    return str(count) if count.bit_length() < 13_000 else f"about 2^{count.bit_length() - 1}"


def cover_cell_bound(m: int, n: int, homogeneous: bool = False) -> int:
    """Cover's bound on the halfspace cells of ``m`` points in ``R^n``: ``2 sum_{i < d} C(m - 1, i)``, at most ``2^m``.

    ``d = n + 1`` for halfspaces with a bias, ``d = n`` through the origin (Cover, 1965;
    exact for points in general position).

    ``ValueError`` unless ``m, n >= 1`` are integers, ``homogeneous`` is a bool and
    ``m <= MAX_CELL_LPS`` (:mod:`sparseact._validation`): every enumeration solves at least
    one LP per point, so a larger sample is never enumerated, and the exact count would take
    minutes.
    """
    m, n = check_int(m, "m"), check_int(n, "n")
    homogeneous = check_bool(homogeneous, "homogeneous")
    if m > MAX_CELL_LPS:
        raise ValueError(
            f"cover_cell_bound: m = {m} points is above the limit of {MAX_CELL_LPS} "
            "(sparseact._validation.MAX_CELL_LPS; at least one LP per point)"
        )
    d = n if homogeneous else n + 1
    if d >= m:
        return 1 << m  # 2 sum_{i < m} C(m - 1, i) = 2^m
    total, term = 0, 1  # term = C(m - 1, i), updated exactly
    for i in range(d):
        total += term
        term = term * (m - 1 - i) // (i + 1)
    return 2 * total


def check_cell_work(m: int, n: int, homogeneous: bool, max_cells: int | None, what: str) -> int:
    """The cell count the enumeration may reach; ``ValueError`` if its LPs exceed :data:`MAX_CELL_LPS`.

    The enumeration solves up to ``m`` LPs per cell of a prefix; ``max_cells`` (when given, an integer
    ``>= 1``) stops it early. ``ValueError`` for arguments outside the ranges of :func:`cover_cell_bound`.
    """
    if max_cells is not None:
        max_cells = check_int(max_cells, "max_cells")
    if not isinstance(what, str):
        raise ValueError(f"what must be a str (it names the computation in messages), got {what!r}")
    m = check_int(m, "m")
    if m > MAX_CELL_LPS:
        raise ValueError(
            f"{what}: m = {m} points needs at least {m} LPs, above the limit of {MAX_CELL_LPS} "
            "(sparseact._validation.MAX_CELL_LPS)"
        )
    cells = cover_cell_bound(m, n, homogeneous)
    if max_cells is not None:
        cells = min(cells, max_cells + 1)
    if cells * m > MAX_CELL_LPS:
        raise ValueError(
            f"{what}: m = {m} points in n = {n} dimensions may have {_count_text(cells)} halfspace cells "
            f"(Cover's bound), up to {_count_text(cells * m)} LPs, above the limit of {MAX_CELL_LPS} "
            "(sparseact._validation.MAX_CELL_LPS); use fewer points or pass a smaller max_cells"
        )
    return cells


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
    check_cell_work(m, n, homogeneous, max_cells, "halfspace cell enumeration")
    scale = float(np.abs(X).max())
    if scale != 0.0 and not MIN_CELL_SAMPLE_SCALE <= scale <= MAX_CELL_SAMPLE_SCALE:
        raise ValueError(
            f"halfspace cell enumeration: the sample's scale max |x_ij| = {scale:g} is outside "
            f"[{MIN_CELL_SAMPLE_SCALE:g}, {MAX_CELL_SAMPLE_SCALE:g}], where the cell LPs are reliable "
            "(sparseact._validation.MIN_CELL_SAMPLE_SCALE, MAX_CELL_SAMPLE_SCALE); rescale it "
            "(cells are invariant under x -> c x, c > 0)"
        )
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
            raise ValueError(f"more than max_cells={max_cells} halfspace cells on the first {t + 1} points")
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
        ``O(m^n)`` and each costs one LP. ``ValueError`` (giving the size) when the
        LPs may exceed :data:`sparseact._validation.MAX_CELL_LPS`, or when the scale
        ``max |x_ij|`` of a non-zero sample lies outside
        ``[MIN_CELL_SAMPLE_SCALE, MAX_CELL_SAMPLE_SCALE]`` of :mod:`sparseact._validation`.
    max_cells : int, optional
        Raise ``ValueError`` as soon as more cells than this are found.
    homogeneous : bool, optional
        Only halfspaces through the origin ``{<w, x> > 0}`` (``b = 0``; the
        class with ``B = 0``); a bool, else ``ValueError``.

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
    masks, _ = _cells_with_witnesses(X, check_bool(homogeneous, "homogeneous"), max_cells)
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
