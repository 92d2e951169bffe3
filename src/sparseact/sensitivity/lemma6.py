r"""Lemma 6 (Kane 2014): a halfspace ``g(x) = 1{<w, x> <= b}`` on {-1, 1}^n and the identity of its proof.

Lemma 6 bounds ``AS(g) = O(p sqrt(n log(1/p)))`` with ``p = E[g]``; the
normalisation is Section 2.1's (``AS`` with the factor 1/4, see
:mod:`sparseact.sensitivity`).

Lemma 6 (proof).
    For ``g(x) = 1{<w, x> <= b}`` and ``w > 0``, ``g`` is non-*increasing* in
    every coordinate (the proof says non-decreasing), and exactly
    ``E[x_i g(x)] = -(1/2) Pr_x[g(x) != g(x^{(+)i})]``, hence

        AS(g) = -(1/2) E_x[g(x) sum_i x_i]            (exact),

    not the printed ``AS(g) = (1/4) E_x[g(x) sum_i x_i]`` (which is negative, or
    0, whenever ``w > 0``): the printed form is off by the factor ``-2``. For
    general ``w`` the exact identity is ``AS(g) = -(1/2) E[g(x) sum_i sign(w_i) x_i]``.
    See :func:`lemma6_identity_check`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from sparseact._validation import check_work
from sparseact.analysis import average_sensitivity, influences
from sparseact.networks import SparseReLUNetwork
from sparseact.sensitivity._common import _CHUNK_ENTRIES, MAX_EXACT_DIM

__all__ = ["Lemma6Identity", "halfspace_family", "halfspace_indicator", "lemma6_identity_check", "lemma6_measure"]


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


def halfspace_indicator(w, b) -> np.ndarray:
    r"""Truth table of Lemma 6's halfspace ``g(x) = 1{<w, x> <= b}`` on {-1, 1}^n, ``n = len(w)``.

    The preactivation ``<w, x> - b`` is computed exactly as for a one-neuron
    :class:`SparseReLUNetwork` (chunked, split sums), and ``g = 1{<w, x> - b <= 0}``
    is the complement of that neuron's activity, so ``1 - g`` is the ``g_j`` of
    Lemma 9 for the same ``(w, b)``.

    Parameters
    ----------
    w : array_like, shape (n,)
        Weights, ``1 <= n <= MAX_EXACT_DIM``.
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
        Weights (any signs), ``1 <= n <= MAX_EXACT_DIM``.
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
        Dimension, ``1 <= n <= MAX_EXACT_DIM``.
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
    vals = np.empty(1 << n)  # <w, x> on the cube, sorted in place; one array for every draw
    for _ in range(int(draws)):
        w = rng.standard_normal(n)
        if kind == "random-positive":
            w = np.abs(w)
            w[w == 0] = 1.0
        SparseReLUNetwork([1.0], w[None, :], [0.0]).cube_preactivation_table(out=vals).sort()
        for q in _spread(list(range(n)), thresholds):
            m = 1 << q  # number of points with g = 1
            out.append((w.copy(), float(0.5 * (vals[m - 1] + vals[m]))))
    return out
