"""Exact sup for one sign vector, the proof's quantity (eqs. (3)-(13)), and their averages over ``zeta``."""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from typing import NamedTuple

import numpy as np

from sparseact._validation import MAX_CELL_SOLVES, check_bool, check_int, clt_half_width
from sparseact.analysis import MonteCarloEstimate
from sparseact.complexity._common import (
    EXHAUSTIVE_BRACKET_M,
    EXHAUSTIVE_MAX_M,
    _as_points,
    _as_zeta,
    _check_confidence,
    _check_rng,
    _check_sk,
    _scale,
    network_objective,
)
from sparseact.complexity.assignment import _Assignment
from sparseact.complexity.cells import _count_text, check_cell_work, class_cells
from sparseact.complexity.cellvalue import _build_system, _solve_cells
from sparseact.networks import SparseReLUNetwork

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


def _proof_values(X, zeta, masks, W, B, assigns: list[_Assignment]) -> list[float]:
    """:func:`_proof_value` (not split) of each assignment, the cell values computed once for all of them."""
    weight, bias = _proof_cell_values(X, zeta, masks, W, B)
    values = weight + bias
    return [assign.solve(values)[0] / X.shape[0] for assign in assigns]


# ---------------------------------------------------------------------------
# averages over zeta
# ---------------------------------------------------------------------------


def _all_zetas_half(m: int) -> np.ndarray:
    """The ``2^(m-1)`` sign vectors with ``zeta_1 = +1`` (the sup is even in ``zeta``)."""
    rest = np.array(list(itertools.product((1.0, -1.0), repeat=m - 1)), dtype=np.float64).reshape(1 << (m - 1), m - 1)
    return np.hstack([np.ones((rest.shape[0], 1)), rest])


def _zetas(m: int, n_zeta, rng) -> tuple[np.ndarray, bool]:
    if n_zeta is None:
        if m > EXHAUSTIVE_MAX_M:
            raise ValueError(f"m={m} > EXHAUSTIVE_MAX_M={EXHAUSTIVE_MAX_M}: pass n_zeta and rng to sample sign vectors")
        return _all_zetas_half(m), True
    n_zeta = check_int(n_zeta, "n_zeta", 2)
    rng = _check_rng(rng)
    return 1.0 - 2.0 * rng.integers(0, 2, size=(n_zeta, m)).astype(np.float64), False


def _distinct_rows(zetas: np.ndarray) -> tuple[np.ndarray, np.ndarray | None]:
    """The distinct sign vectors of a sample and, for each row, its distinct one's index (a sample of many from few
    points repeats them); ``None`` for the index when rows of more than 62 signs are kept as they are."""
    m = zetas.shape[1]
    if m > 62 or zetas.shape[0] == 0:
        return zetas, None
    keys = (zetas < 0).astype(np.int64) @ (np.int64(1) << np.arange(m, dtype=np.int64))
    _, first, where = np.unique(keys, return_index=True, return_inverse=True)
    return zetas[first], where.reshape(-1)


def _mc(samples: np.ndarray, confidence: float, method: str) -> MonteCarloEstimate:
    mean = float(samples.mean())
    half = clt_half_width(float(samples.std(ddof=1)), samples.size, confidence)
    return MonteCarloEstimate(mean, mean - half, mean + half, int(samples.size), confidence, method)


def _check_exact_work(shape: tuple[int, int], n_zetas: int, B: float, max_cells: int | None, what: str) -> None:
    """``ValueError`` giving the count when sign vectors times cells exceed :data:`MAX_CELL_SOLVES`."""
    m, n = shape
    cells = check_cell_work(m, n, B == 0.0, max_cells, what)
    if n_zetas * cells > MAX_CELL_SOLVES:
        raise ValueError(
            f"{what}: {n_zetas} sign vectors times up to {_count_text(cells)} cells (m = {m}, n = {n}) is above the "
            f"limit of {MAX_CELL_SOLVES} cell solves (sparseact._validation.MAX_CELL_SOLVES); use fewer "
            "points, dimensions or sign vectors"
        )


def _exact_sups(X, zetas, masks, wit, W, B, assigns) -> tuple[np.ndarray, np.ndarray]:
    """Exact sup and its certified upper bracket for each sign vector (rows) and assignment (columns)."""
    system = _build_system(X, W, B, masks, wit)
    lo = np.empty((zetas.shape[0], len(assigns)))
    hi = np.empty_like(lo)
    chunk = max(1, 4096 // max(1, system.cells.size))
    for start in range(0, zetas.shape[0], chunk):
        zs = zetas[start : start + chunk]
        L, U, w, b, sg = _solve_cells(X, zs, masks, system, W, B)
        for r in range(zs.shape[0]):
            for c, assign in enumerate(assigns):
                res = _exact_from_values(X, zs[r], L[r], U[r], w[r], b[r], sg[r], assign)
                lo[start + r, c], hi[start + r, c] = res.value, res.upper
    return lo, hi


def rademacher_exact(
    X,
    s: int,
    k: int,
    W,
    B,
    n_zeta: int | None = None,
    rng=None,
    confidence: float = 0.95,
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
    _check_exact_work(X.shape, zetas.shape[0], B, max_cells, "rademacher_exact")
    masks, wit = class_cells(X, W, B, max_cells)
    lo, hi = _exact_sups(X, zetas, masks, wit, W, B, [_Assignment(masks, s, k)])
    lo, hi = lo[:, 0], hi[:, 0]
    if exhaustive:
        est = float(lo.mean())
        return MonteCarloEstimate(est, est, float(hi.mean()), 2**m, 1.0, "exact")
    confidence = _check_confidence(confidence)
    return _mc(lo, confidence, "exact sup, Monte Carlo over zeta")


def proof_intermediate(
    X,
    s: int,
    k: int,
    W,
    B,
    n_zeta: int | None = None,
    rng=None,
    confidence: float = 0.95,
    split: bool = False,
    max_cells: int | None = None,
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
    distinct, where = (zetas, None) if exhaustive else _distinct_rows(zetas)
    vals = np.array([_proof_value(X, z, masks, W, B, assign, split) for z in distinct])
    if where is not None:
        vals = vals[where]
    if exhaustive:
        est = float(vals.mean())
        return MonteCarloEstimate(est, est, est, 2**m, 1.0, "proof quantity, exact")
    return _mc(vals, _check_confidence(confidence), "proof quantity, Monte Carlo over zeta")


class Brackets(NamedTuple):
    """``R_H(S)`` of several classes on one sample, over all sign vectors (:func:`rademacher_brackets`)."""

    s: int
    k: int
    exact: float  # mean of attained values (NaN when not computed)
    exact_upper: float  # mean of the per-zeta dual certificates (NaN when not computed)
    proof_upper: float  # mean of the proof's quantity (3)-(13): realisability of the cells relaxed


def rademacher_brackets(X, classes, W, B, exact: bool = True, max_cells: int | None = None) -> list[Brackets]:
    """Exact ``R_H(S)`` and two upper bounds for several classes ``(s, k)`` of one sample, over all sign vectors.

    The cells and, with ``exact``, the per-cell programmes (:func:`_solve_cells`) do not depend on ``s, k``: they
    are computed once and only the assignment search runs per class. ``proof_upper`` drops the constraint that a
    neuron realise its cell (``V(I) <= W ||sum_I zeta_i x_i|| + B |sum_I zeta_i|``), so it needs no programme and
    reaches larger samples (``m <= EXHAUSTIVE_BRACKET_M``); ``exact`` needs ``m <= EXHAUSTIVE_MAX_M``.
    Every value is an average over the ``2^(m-1)`` sign vectors with ``zeta_1 = +1`` (the sup is even in ``zeta``).
    """
    X = _as_points(X)
    m = X.shape[0]
    W, B = _scale(W, "W"), _scale(B, "B")
    exact = check_bool(exact, "exact")
    classes = [_check_sk(s, k) for s, k in classes]
    if not classes:
        raise ValueError("classes must name at least one (s, k)")
    limit = EXHAUSTIVE_MAX_M if exact else EXHAUSTIVE_BRACKET_M
    if m > limit:
        raise ValueError(f"rademacher_brackets: m = {m} > {limit} (exact={exact}): too many sign vectors")
    zetas = _all_zetas_half(m)
    if exact:
        _check_exact_work(X.shape, zetas.shape[0], B, max_cells, "rademacher_brackets")
    masks, wit = class_cells(X, W, B, max_cells)
    assigns = [_Assignment(masks, s, k) for s, k in classes]
    proof = np.array([_proof_values(X, z, masks, W, B, assigns) for z in zetas]).mean(axis=0)
    if exact:
        lo, hi = _exact_sups(X, zetas, masks, wit, W, B, assigns)
    else:
        lo = hi = np.full((1, len(classes)), np.nan)
    lo_mean, hi_mean = lo.mean(axis=0), hi.mean(axis=0)
    return [Brackets(s, k, float(lo_mean[c]), float(hi_mean[c]), float(proof[c])) for c, (s, k) in enumerate(classes)]


class ExactNetworks(NamedTuple):
    """All sign vectors with their optimal networks (:func:`rademacher_exact_networks`)."""

    zetas: np.ndarray  # (2^m, m)
    values: np.ndarray  # (2^m,) (1/m) sum_i zeta_i h_zeta(x_i)
    networks: list  # SparseReLUNetwork per zeta
    uppers: np.ndarray  # (2^m,) certified upper bound of each sup
    cells: np.ndarray  # (C, m) the realisable cells

    @property
    def exact(self) -> float:
        """The **exact** ``R_H(S)``: the mean of the attained values over all sign vectors."""
        return float(self.values.mean())

    def index(self, zeta) -> int:
        """Row of ``zeta`` in :attr:`zetas`; ``ValueError`` unless ``zeta`` is a sign vector of the sample's length."""
        zeta = _as_zeta(zeta, self.zetas.shape[1])
        return int(np.flatnonzero(np.all(self.zetas == zeta[None, :], axis=1))[0])


def rademacher_exact_networks(X, s: int, k: int, W, B, max_cells: int | None = None) -> ExactNetworks:
    """Exact ``R_H(S)`` with an explicit optimal network for every one of the ``2^m`` sign vectors.

    Like :func:`rademacher_exact` with ``n_zeta=None`` (``m <= EXHAUSTIVE_MAX_M``), but
    keeps, for each ``zeta`` in ``{-1,1}^m``, the network of ``H_{n,s,k}^{W,B}``
    attaining the sup (``-zeta`` uses the network of ``zeta`` with ``u`` negated,
    since ``H = -H``): the data of a ``rademacher_lower_bound`` certificate
    (:mod:`sparseact.verify.certificates`) whose value is the **exact** ``R_H(S)``.
    """
    X = _as_points(X)
    m = X.shape[0]
    s, k = _check_sk(s, k)
    W = _scale(W, "W")
    B = _scale(B, "B")
    half, _ = _zetas(m, None, None)
    _check_exact_work(X.shape, half.shape[0], B, max_cells, "rademacher_exact_networks")
    masks, wit = class_cells(X, W, B, max_cells)
    system = _build_system(X, W, B, masks, wit)
    assign = _Assignment(masks, s, k)
    L, U, w, b, sg = _solve_cells(X, half, masks, system, W, B)
    results = [_exact_from_values(X, half[r], L[r], U[r], w[r], b[r], sg[r], assign) for r in range(half.shape[0])]
    nets = [res.network for res in results]
    nets += [SparseReLUNetwork(-net.u, net.W, net.b) for net in nets]
    zetas = np.vstack([half, -half])
    values = np.array([network_objective(net, X, z) for net, z in zip(nets, zetas, strict=True)])
    uppers = np.array([res.upper for res in results] * 2)
    return ExactNetworks(zetas, values, nets, uppers, masks)
