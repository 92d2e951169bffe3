"""Constants, argument checks and network helpers shared by the estimators of :mod:`sparseact.complexity`."""

from __future__ import annotations

import math

import numpy as np

from sparseact._validation import MAX_CLASS_SCALE, check_int
from sparseact._validation import check_confidence as _check_confidence  # noqa: F401 (for exact.py and lower.py)
from sparseact._validation import check_rng as _check_rng  # noqa: F401 (for exact.py, lower.py and samples.py)
from sparseact.networks import SparseReLUNetwork
from sparseact.networks import check_network as _check_network

#: Largest ``m`` for which the exact estimators average over *all* sign vectors.
EXHAUSTIVE_MAX_M = 10
#: Largest ``m`` for which the proof's quantity (no per-cell programme) is averaged over all sign vectors.
EXHAUSTIVE_BRACKET_M = 14

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
    if np.abs(arr).max() > MAX_CLASS_SCALE:
        raise ValueError(
            f"X entries must be at most {MAX_CLASS_SCALE:g} in absolute value "
            f"(sparseact._validation.MAX_CLASS_SCALE), got {np.abs(arr).max():g}"
        )
    return arr


def _scale(value, name: str) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float, np.integer, np.floating)):
        raise ValueError(f"{name} must be a real number >= 0, got {value!r}")
    value = float(value)
    if not math.isfinite(value) or value < 0:
        raise ValueError(f"{name} must be a finite real number >= 0, got {value!r}")
    if value > MAX_CLASS_SCALE:
        raise ValueError(
            f"{name} must be at most {MAX_CLASS_SCALE:g} (sparseact._validation.MAX_CLASS_SCALE), got {value:g}"
        )
    return value


def _as_zeta(zeta, m: int) -> np.ndarray:
    z = np.asarray(zeta, dtype=np.float64)
    if z.shape != (m,):
        raise ValueError(f"zeta must have shape ({m},), got {z.shape}")
    if not np.all(np.abs(z) == 1.0):
        raise ValueError("zeta must be a vector of +-1 signs")
    return z


def _check_sk(s, k) -> tuple[int, int]:
    s = check_int(s, "s", 1)
    k = check_int(k, "k", 1)
    if k > s:
        raise ValueError(f"k must be <= s, got k={k}, s={s}")
    return s, k


# ---------------------------------------------------------------------------
# network helpers
# ---------------------------------------------------------------------------


def network_objective(net: SparseReLUNetwork, X, zeta) -> float:
    """``(1/m) sum_i zeta_i h(x_i)`` for the network ``h`` (**exact** for that network)."""
    net = _check_network(net)
    X = _as_points(X)
    zeta = _as_zeta(zeta, X.shape[0])
    return float(zeta @ net(X)) / X.shape[0]


def in_class(net: SparseReLUNetwork, X, s: int, k: int, W: float, B: float) -> bool:
    """Whether ``net`` lies in ``H_{n,s,k}^{W,B}`` with k-sparsity on the rows of ``X`` (Definition 2).

    ``ValueError`` unless ``net`` is a network, ``1 <= k <= s`` (integers) and ``W, B >= 0`` are finite
    (and, like the entries of ``X``, at most :data:`sparseact._validation.MAX_CLASS_SCALE`).
    """
    net = _check_network(net)
    X = _as_points(X)
    s, k = _check_sk(s, k)
    W, B = _scale(W, "W"), _scale(B, "B")
    return bool(
        net.n_neurons <= s
        and net.scale_W() <= W
        and net.scale_B() <= B
        and int(net.active_counts(X).max(initial=0)) <= k
    )
