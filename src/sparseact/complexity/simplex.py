r"""An explicit lower bound on :math:`\mathcal{R}_\mathcal{H}(S)` on a regular simplex, with two neurons, 1-sparse.

The sample is the regular simplex: ``m`` unit vectors of R^(m-1) with ``<x_i, x_j> = -1/(m-1)`` for ``i != j``.
For a sign vector ``zeta`` with positive set ``P`` (``|P| = p``, ``0 < p < m``) and negative set ``N``, the
direction ``v = sum_P x_i / ||sum_P x_i||`` has ``<v, x_i> = a_P = sqrt((m-p)/(p(m-1)))`` on ``P`` and
``-a_N = -sqrt(p/((m-p)(m-1)))`` on ``N``. With ``lam = min(W, B/a_N)`` and ``lam' = min(W, B/a_P)`` the
network

.. math::

    h(x) = \sigma(\langle \lambda v, x\rangle + \lambda a_N) - \sigma(\langle -\lambda' v, x\rangle + \lambda' a_P)

(output weights ``1, -1``; weights of norm at most ``W``, biases at most ``B``) has exactly one active neuron at
every sample point (the other one sits at 0, moved to ``-SLACK`` times its scale against rounding) and
``sum_i zeta_i h(x_i) = (p lam + (m - p) lam')(a_P + a_N)``. For
``p in {0, m}`` one always-active constant neuron ``zeta_1 sigma(B)`` gives ``m B``. The mean over all ``2^m`` sign
vectors of ``(1/m) sum_i zeta_i h_zeta(x_i)`` is therefore a lower bound on the empirical Rademacher complexity of
``H_{m-1,2,1}^{W,B}`` (sparsity on the sample, :mod:`sparseact.complexity`), in closed form
(:func:`simplex_lower_bound`): above Conjecture 20's ``(WR + B) sqrt(sk)/sqrt(m)`` (``R = 1``, ``s = 2``,
``k = 1``) for ``m >= 9`` at a suitable ``B`` (found by a referee of this project).
"""

from __future__ import annotations

from math import comb, sqrt

import numpy as np

from sparseact._validation import check_int, check_real
from sparseact.networks import SparseReLUNetwork

#: How far below 0 the inactive neuron's pre-activation is put (``a_N - SLACK``, ``a_P - SLACK`` as thresholds), so
#: that 1-sparsity on the sample survives rounding; it lowers each term by at most ``2 W SLACK``.
SLACK = 1e-9
#: The largest simplex built or evaluated (a regular simplex of m points is an m x (m - 1) array).
MAX_SIMPLEX_M = 4096


def regular_simplex(m: int) -> np.ndarray:
    """``m`` unit vectors of R^(m-1) with pairwise inner products ``-1/(m-1)``, shape ``(m, m - 1)``.

    Raises
    ------
    ValueError
        If ``m < 2`` or ``m > MAX_SIMPLEX_M``.
    """
    m = _simplex_size(m)
    centred = np.eye(m) - 1.0 / m
    # an orthonormal basis of the sum-zero hyperplane: the first m - 1 left singular vectors of the centred rows
    basis = np.linalg.svd(centred)[0][:, : m - 1]
    X = centred @ basis
    return X / np.linalg.norm(X, axis=1, keepdims=True)


def _simplex_size(m) -> int:
    m = check_int(m, "m", minimum=2)
    if m > MAX_SIMPLEX_M:
        raise ValueError(f"m = {m} exceeds MAX_SIMPLEX_M = {MAX_SIMPLEX_M}")
    return m


def _thresholds(m: int, p: int) -> tuple[float, float]:
    return sqrt((m - p) / (p * (m - 1))), sqrt(p / ((m - p) * (m - 1)))


def simplex_networks(X: np.ndarray, zetas: np.ndarray, W: float, B: float) -> list[SparseReLUNetwork]:
    """One network of ``H_{m-1,2,1}^{W,B}`` per sign vector, as in the module docstring.

    Parameters
    ----------
    X : ndarray, shape (m, m - 1)
        A regular simplex (:func:`regular_simplex`).
    zetas : ndarray, shape (N, m)
        Sign vectors in {-1, 1}^m.
    W, B : float
        Definition 2's bounds, ``W > 0`` and ``B > 0``.

    Raises
    ------
    ValueError
        If ``X`` is not a regular simplex, or a sign vector is not in {-1, 1}^m.
    """
    X = np.asarray(X, dtype=float)
    zetas = np.asarray(zetas, dtype=float)
    W, B = check_real(W, "W", minimum=0.0), check_real(B, "B", minimum=0.0)
    if W <= 0 or B <= 0:
        raise ValueError("W and B must be positive")
    if X.ndim != 2 or X.shape[0] != X.shape[1] + 1 or X.shape[0] < 2:
        raise ValueError(f"X must be m points of R^(m-1), got shape {X.shape}")
    m = X.shape[0]
    gram = X @ X.T
    if not np.allclose(gram, np.where(np.eye(m, dtype=bool), 1.0, -1.0 / (m - 1)), rtol=0, atol=1e-12):
        raise ValueError("X is not a regular simplex (unit vectors, pairwise inner products -1/(m-1))")
    if zetas.ndim != 2 or zetas.shape[1] != m or not np.all(np.abs(zetas) == 1):
        raise ValueError(f"sign vectors must be an array of rows in {{-1,1}}^{m}")
    networks = []
    for zeta in zetas:
        positive = zeta > 0
        p = int(positive.sum())
        if p in (0, m):
            networks.append(SparseReLUNetwork(np.array([zeta[0]]), np.zeros((1, m - 1)), np.array([-B])))
            continue
        a_pos, a_neg = _thresholds(m, p)
        v = X[positive].sum(axis=0)
        v /= np.linalg.norm(v)
        lam, lam_n = min(W, B / a_neg), min(W, B / a_pos)
        networks.append(
            SparseReLUNetwork(
                np.array([1.0, -1.0]),
                np.vstack([lam * v, -lam_n * v]),
                np.array([-lam * (a_neg - SLACK), -lam_n * (a_pos - SLACK)]),
            )
        )
    return networks


def simplex_lower_bound(m: int, W: float, B: float) -> float:
    """The closed form of the lower bound: ``2^-m sum_p C(m, p) value(p) / m`` (module docstring; without
    :data:`SLACK`, so :func:`simplex_networks` attain it within ``2 W SLACK``)."""
    m = _simplex_size(m)
    W, B = check_real(W, "W", minimum=0.0), check_real(B, "B", minimum=0.0)
    total = 0.0
    for p in range(m + 1):
        if p in (0, m):
            value = m * B
        else:
            a_pos, a_neg = _thresholds(m, p)
            lam = min(W, B / a_neg) if a_neg > 0 else W
            value = (p * lam + (m - p) * min(W, B / a_pos)) * (a_pos + a_neg)
        total += comb(m, p) / 2**m * value  # exact integer division: no overflow for large m
    return total / m
