"""Samples on the cube from named distributions, and the paper's Section 5 bounds at an instance."""

from __future__ import annotations

import math

import numpy as np

from sparseact import bounds as _bounds
from sparseact._validation import check_int
from sparseact.complexity._common import _check_rng, _check_sk
from sparseact.constructions import quadratic_lift

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
    ``ValueError`` unless ``m, n >= 1`` and ``1 <= k <= s`` are integers.
    """

    m, n = check_int(m, "m"), check_int(n, "n")
    s, k = _check_sk(s, k)

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
        if (
            isinstance(flip, bool)
            or not isinstance(flip, (int, float, np.floating, np.integer))
            or not 0.0 <= flip <= 1.0
        ):
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
