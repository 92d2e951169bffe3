r"""The steps of Theorem 19's proof (eqs. (5)-(14)) and the facts they cite, checked exactly on tiny samples.

Every probability here is **exact**: the law of a Rademacher sum is enumerated over all
``2^m`` sign vectors ``zeta`` of the sample (``m <= 8``), every cell ``I`` is one of the
sets a halfspace cuts from the sample (:func:`sparseact.complexity.class_cells`, strict
``<w, x_i> - b > 0``; for a finite sample the sets cut by closed halfspaces are the same
family), and every maximum over networks is the exact assignment of at most ``s`` cells
covering each point at most ``k`` times (:func:`sparseact.complexity.best_assignment`).
Hoeffding's constant is ``c = 2`` (``P(|sum_i zeta_i a_i| > t ||a||) <= 2 e^{-t^2/2}``).

Quantities (paper notation, ``t`` on :data:`T_GRID`):

* Cover / Sauer-Shelah: the number of cells against ``C(m', n+1) = 2 sum_{i<=n} binom(m'-1, i)``
  (``m'`` distinct points; equality in general position), ``sum_{i<=n+1} binom(m, i)`` and ``2 m^n``.
* Hoeffding (eqs. (5), (9)): ``P(|sum_{I} zeta_i a_i| > t ||a_I||) <= 2 e^{-t^2/2}`` for every cell
  ``I`` and ``a = 1`` (eq. (5)) or ``a = x_{., p}`` (eq. (9)), and for random weight vectors.
* unions (eqs. (5), (10)): ``P(exists I: |sum_I zeta_i| > t sqrt|I|)`` against
  ``(#cells) 2 e^{-t^2/2}`` and ``P(exists I: ||sum_I zeta_i x_i|| > t R sqrt|I|)`` against the printed
  ``2 n m^n e^{-t^2/2}``.
* second term (eqs. (6)-(8)): ``T_2 = E_zeta max (B/m) sum_j |sum_{I_j} zeta_i|`` (the largest value
  of (4)'s second term over the class, ``|u_j b_j| <= B``) against (6) with the exact bad-event
  probability, (7) with the count ``2 m^n`` in the ``O()``, and (8) at ``t = 2 sqrt(n c log(mB))``.
* the step of the all-parameter bound (theorem19-uniform): ``E max_I ||sum_I zeta_i x_i||/sqrt|I| <=
  R (1 + sqrt(2 log N))`` over the ``N`` non-empty cells, and its scalar form.
* first term (eqs. (13), (14)): ``T_1 = E_zeta max (W/m) sum_j ||sum_{I_j} zeta_i x_i||`` against (13)
  (printed bad-event probability ``2 n m^n e^{-t^2/c}``) and (14) at ``t = 2 sqrt(n log(mR))``.
"""

from __future__ import annotations

import math

import numpy as np

from sparseact.complexity import best_assignment, class_cells, rademacher_brackets

#: Thresholds t at which the tail bounds and eqs. (6), (7), (13) are evaluated.
T_GRID = (0.25, 0.5, 1.0, 1.5, 2.0, 2.5, 3.0, 3.5)
#: Hoeffding's constant: P(|sum zeta_i a_i| > t ||a||) <= 2 exp(-t^2 / HOEFFDING_C).
HOEFFDING_C = 2.0
#: Lengths of the random weight vectors on which Hoeffding's inequality is enumerated exactly.
HOEFFDING_LENGTHS = (1, 2, 3, 5, 8, 12)


def all_signs(m: int) -> np.ndarray:
    """Every sign vector of ``{-1, 1}^m``, shape ``(2^m, m)``."""
    bits = (np.arange(2**m)[:, None] >> np.arange(m)[None, :]) & 1
    return 1.0 - 2.0 * bits


def cover_count(m: int, d: int) -> int:
    """Cover's number of dichotomies of ``m`` points in general position by homogeneous halfspaces of ``R^d``."""
    return 2 * sum(math.comb(m - 1, i) for i in range(d))


def sauer_shelah(m: int, vc: int) -> int:
    """``sum_{i <= vc} binom(m, i)``: Sauer-Shelah's bound for a class of VC dimension ``vc``."""
    return sum(math.comb(m, i) for i in range(vc + 1))


def hoeffding_tail(Z: np.ndarray, a: np.ndarray, t: float) -> float:
    """Exact ``P(|sum_i zeta_i a_i| > t ||a||)`` over the rows ``zeta`` of ``Z`` (uniform)."""
    norm = float(np.linalg.norm(a))
    return float(np.mean(np.abs(Z @ a) > t * norm)) if norm > 0 else 0.0


def cells_of(X: np.ndarray, W: float, B: float) -> np.ndarray:
    return np.asarray(class_cells(X, W, B)[0], dtype=bool)


def cover_rows(X: np.ndarray, masks: np.ndarray, label: str) -> dict:
    """Cell count of ``X`` against Cover's count, Sauer-Shelah and ``2 m^n`` (the paper's ``O(m^n)``)."""
    m, n = X.shape
    distinct = len(np.unique(X, axis=0))
    return dict(
        sample=label,
        m=m,
        n=n,
        distinct=distinct,
        cells=len(masks),
        cover=cover_count(distinct, n + 1),
        sauer_shelah=sauer_shelah(m, n + 1),
        two_m_n=2 * m**n,
        general_position=label.startswith("gaussian"),
    )


def tail_rows(X: np.ndarray, masks: np.ndarray, Z: np.ndarray, label: str) -> list[dict]:
    """Eq. (5) and (9) per cell and coordinate, and the unions of (5) and (10), at every ``t``."""
    m, n = X.shape
    R = float(np.linalg.norm(X, axis=1).max())
    rows = []
    nonempty = masks[masks.any(axis=1)]
    sums = Z @ nonempty.T.astype(float)  # (2^m, C): sum_{I} zeta_i
    sizes = nonempty.sum(axis=1)
    norms = np.linalg.norm(np.einsum("zm,cm,mp->zcp", Z, nonempty.astype(float), X), axis=2)  # ||sum_I zeta x||
    for t in T_GRID:
        bound = 2.0 * math.exp(-t * t / HOEFFDING_C)
        eq5 = max(hoeffding_tail(Z, mask.astype(float), t) for mask in nonempty)
        eq9 = max(hoeffding_tail(Z, mask * X[:, p], t) for mask in nonempty for p in range(n))
        union5 = float(np.mean((np.abs(sums) > t * np.sqrt(sizes)[None, :]).any(axis=1)))
        union10 = float(np.mean((norms > t * R * np.sqrt(sizes)[None, :]).any(axis=1)))
        rows.append(
            dict(
                sample=label,
                m=m,
                n=n,
                t=t,
                hoeffding=bound,
                eq5_max_tail=eq5,
                eq9_max_tail=eq9,
                union5=union5,
                union5_bound=len(masks) * bound,
                union10=union10,
                union10_printed=2 * n * m**n * math.exp(-t * t / HOEFFDING_C),
            )
        )
    return rows


def hoeffding_instances(rng) -> list[dict]:
    """Hoeffding's inequality on random weight vectors, exact over all sign vectors (the fact's own instances)."""
    rows = []
    for length in HOEFFDING_LENGTHS:
        Z = all_signs(length)
        for kind, a in (
            ("ones", np.ones(length)),
            ("gaussian", rng.standard_normal(length)),
            ("one-large", np.r_[10.0, np.ones(length - 1)]),
        ):
            for t in T_GRID:
                rows.append(
                    dict(
                        length=length,
                        weights=kind,
                        t=t,
                        tail=hoeffding_tail(Z, a, t),
                        bound=2.0 * math.exp(-t * t / HOEFFDING_C),
                    )
                )
    return rows


def term_rows(
    X: np.ndarray, masks: np.ndarray, Z: np.ndarray, s: int, k: int, W: float, B: float, label: str
) -> list[dict]:
    """The two terms of (4) (their largest values over the class, exact) against (6), (7), (8), (13), (14)."""
    m, n = X.shape
    R = float(np.linalg.norm(X, axis=1).max())
    cellsum = Z @ masks.T.astype(float)  # (2^m, C)
    cellvec = np.linalg.norm(np.einsum("zm,cm,mp->zcp", Z, masks.astype(float), X), axis=2)
    second = float(np.mean([best_assignment(masks, B * np.abs(row), s, k)[0] for row in cellsum])) / m
    first = float(np.mean([best_assignment(masks, W * row, s, k)[0] for row in cellvec])) / m
    sizes = masks.sum(axis=1).astype(float)
    nonempty = masks.any(axis=1)
    rows = []
    for t in T_GRID:
        bad5 = float(np.mean((np.abs(cellsum[:, nonempty]) > t * np.sqrt(sizes[nonempty])[None, :]).any(axis=1)))
        bad10 = float(np.mean((cellvec[:, nonempty] > t * R * np.sqrt(sizes[nonempty])[None, :]).any(axis=1)))
        tail = 2.0 * math.exp(-t * t / HOEFFDING_C)
        eq6 = best_assignment(masks, B * (t * np.sqrt(sizes) + bad5 * sizes), s, k)[0] / m
        eq7 = t * B * math.sqrt(s * k / m) + 2 * m**n * tail * B * k
        eq13_exact = best_assignment(masks, W * (t * R * np.sqrt(sizes) + bad10 * R * sizes), s, k)[0] / m
        eq13 = W / m * (t * R * math.sqrt(s * k * m) + 2 * n * m**n * math.exp(-t * t / HOEFFDING_C) * R * k * m)
        rows.append(
            dict(
                sample=label,
                m=m,
                n=n,
                s=s,
                k=k,
                W=W,
                B=B,
                R=R,
                t=t,
                second=second,
                first=first,
                eq6=eq6,
                eq7=eq7,
                eq13_exact=eq13_exact,
                eq13=eq13,
            )
        )
    t8 = eq8_t(m, n, B)
    t14 = eq14_t(m, n, R)
    for row in rows:
        row.update(eq8=eq8_rhs(m, n, s, B), eq14=eq14_rhs(m, n, s, W, R), t8=t8, t14=t14)
    return rows


def maximum_rows(X: np.ndarray, masks: np.ndarray, Z: np.ndarray, label: str) -> list[dict]:
    """The step of theorem19-uniform, exactly: ``E_zeta max_I ||sum_{i in I} zeta_i x_i|| / sqrt|I|`` over the
    non-empty cells ``I`` against ``R (1 + sqrt(2 log N))``, ``N`` the number of non-empty cells, and the same for
    ``|sum_{i in I} zeta_i| / sqrt|I|`` against ``1 + sqrt(2 log N)`` (the points replaced by ``1 in R^1``)."""
    cells = masks[masks.any(axis=1)].astype(float)  # (N, m)
    size = np.sqrt(cells.sum(axis=1))[None, :]
    count = len(cells)
    R = float(np.linalg.norm(X, axis=1).max())
    vectors = np.linalg.norm(np.einsum("zm,cm,mp->zcp", Z, cells, X), axis=2) / size
    scalars = np.abs(Z @ cells.T) / size
    slack = 1.0 + math.sqrt(2.0 * math.log(count))
    return [
        dict(
            sample=label,
            m=X.shape[0],
            n=X.shape[1],
            cells=count,
            quantity=quantity,
            value=float(np.mean(values.max(axis=1))),
            bound=scale * slack,
        )
        for quantity, values, scale in (
            ("E max ||sum_I zeta_i x_i||/sqrt|I|", vectors, R),
            ("E max |sum_I zeta_i|/sqrt|I|", scalars, 1.0),
        )
    ]


def eq8_t(m, n, B, c=HOEFFDING_C):
    return 2.0 * math.sqrt(n * c * math.log(m * B))


def eq14_t(m, n, R):
    return 2.0 * math.sqrt(n * math.log(m * R))


def eq8_rhs(m, n, s, B, c=HOEFFDING_C):
    """Eq. (8): ``4 B sqrt(s n c log(mB)) / sqrt(m)``."""
    return 4.0 * B * math.sqrt(s * n * c * math.log(m * B)) / math.sqrt(m)


def eq14_rhs(m, n, s, W, R):
    """Eq. (14): ``4 W R sqrt(n s log(mR)) / sqrt(m)``."""
    return 4.0 * W * R * math.sqrt(n * s * math.log(m * R)) / math.sqrt(m)


def eq7_at(t, m, n, s, B, c=HOEFFDING_C):
    """Eq. (7)'s right side with the ``O(m^n e^{-t^2/c})`` read as ``(2 m^n) 2 e^{-t^2/c}`` (cell count ``<= 2 m^n``)."""
    return t * B * math.sqrt(s) / math.sqrt(m) + 4.0 * math.exp(n * math.log(m) - t * t / c) * B


def eq13_at(t, m, n, s, W, R, c=HOEFFDING_C):
    """Eq. (13)'s right side as printed, with ``sum_j sqrt|I_j| <= sqrt(sm)`` and ``sum_j |I_j| <= m``."""
    return W / m * (t * R * math.sqrt(s * m) + 2 * n * math.exp(n * math.log(m) - t * t / c) * R * m)


def eq13_proved_at(t, m, n, s, W, R):
    """eq13-proved's right side (the union bound's ``4n m^n e^{-t^2/2}``, Hoeffding's ``c = 2``), with
    ``sum_j sqrt|I_j| <= sqrt(sm)`` and ``sum_j |I_j| <= m``: ``W R t sqrt(s/m) + 4 n W R m^n e^{-t^2/2}``."""
    return W * R * t * math.sqrt(s / m) + 4 * n * W * R * math.exp(n * math.log(m) - t * t / 2.0)


def grid_rows(grid: dict) -> list[dict]:
    """(7) at (8)'s ``t`` against (8), and (13) at (14)'s ``t`` against (14), as printed and as proved
    (eq13-proved), on a parameter grid (closed forms)."""
    rows = []
    for m in grid["m"]:
        for n in grid["n"]:
            for s in grid["s"]:
                for scale in grid["scale"]:
                    B = R = W = float(scale)
                    rows.append(
                        dict(
                            m=m,
                            n=n,
                            s=s,
                            B=B,
                            R=R,
                            W=W,
                            eq7_at_t8=eq7_at(eq8_t(m, n, B), m, n, s, B),
                            eq8=eq8_rhs(m, n, s, B),
                            eq13_at_t14=eq13_at(eq14_t(m, n, R), m, n, s, W, R),
                            eq13_proved_at_t14=eq13_proved_at(eq14_t(m, n, R), m, n, s, W, R),
                            eq14=eq14_rhs(m, n, s, W, R),
                        )
                    )
    return rows


#: The grid of (m, n, s, scale = B = R = W) on which (7) -> (8) and (13) -> (14) are evaluated: the
#: range the paper uses (R = sqrt(n) >= 1 on the cube, B >= 1, m(R+B) large), with m = 4, where eq14-strict's
#: range starts and its bound is tightest (eq13-proved's bound at 0.92 of (14) at n = s = R = 1).
STEP_GRID = dict(
    m=[3, 4, 10, 100, 1000, 10**4, 10**6], n=[1, 2, 4, 9, 16, 64], s=[1, 4, 64, 1024], scale=[1.0, 3.0, 8.0]
)
#: The smallest m of eq14-strict's range: its argument needs ``4n m^(-n) <= 2 sqrt(n log(m)/m)``, which holds from
#: m = 4 (at n = 1, m = 3 it fails: 4/3 > 2 sqrt(log(3)/3)).
EQ14_STRICT_MIN_M = 4


# ---------------------------------------------------------------------------
# fixed counterexamples (certificates)
# ---------------------------------------------------------------------------

#: Eq. (12): n = s = k = 1, x = (1, -1), W = 1, B = 2 (B >= W lets one neuron take both points).
EQ12_X = [[1.0], [-1.0]]
EQ12_W, EQ12_B = 1.0, 2.0
#: Candidate neurons (u, w, b) for the eq. (12) instance: every cell of x = (1, -1) with both signs of u.
EQ12_CANDIDATES = [(u, w, b) for u in (1.0, -1.0) for w in (1.0, -1.0) for b in (0.0, -1.5)]
#: The printed (12)'s right side bounded above for s = 1: (W/m) max over ALL subsets I of E ||sum_I zeta_i x_i||
#: (the cells of the maximiser are some of these subsets), for points on the line.
EQ12_RHS_EXPR = (
    "W/m*max(sum(abs(sum((1-2*((z>>i)&1))*x[i] for i in range(m) if (I>>i)&1)) for z in range(2**m))"
    "/2**m for I in range(2**m))"
)


def eq12_instance() -> dict:
    """The largest first term of (4) per sign vector over the candidate neurons, and (12)'s printed right side."""
    X = np.asarray(EQ12_X)
    m = len(X)
    Z = all_signs(m)
    chosen, values = [], []
    for zeta in Z:
        best = max(EQ12_CANDIDATES, key=lambda c: _first_term(X, zeta, *c))
        chosen.append(best)
        values.append(_first_term(X, zeta, *best))
    x = X[:, 0]
    rhs = (
        EQ12_W
        / m
        * max(
            np.mean([abs(sum(z[i] * x[i] for i in range(m) if (subset >> i) & 1)) for z in Z]) for subset in range(2**m)
        )
    )
    return dict(X=X, zetas=Z, networks=chosen, lhs=float(np.mean(values)), rhs=float(rhs))


def _first_term(X, zeta, u, w, b) -> float:
    cell = X[:, 0] * w - b >= 0
    return float(u * w * (zeta[cell] @ X[cell, 0])) / len(X)


#: Eq. (7): n = 1, x = (0, 1, -1); neurons relu(x) and relu(-x) are 1-sparsely activated (x = 0 activates neither)
#: but the printed I_j (with >= 0) both contain x = 0.
EQ7_X = [[0.0], [1.0], [-1.0]]
EQ7_NETWORK = dict(u=[1.0, 1.0], W=[[1.0], [-1.0]], b=[0.0, 0.0])


def eq7_instance() -> dict:
    X = np.asarray(EQ7_X)
    W = np.asarray(EQ7_NETWORK["W"])
    b = np.asarray(EQ7_NETWORK["b"])
    pre = X @ W.T - b
    return dict(
        sum_cells=int(np.count_nonzero(pre >= 0)),
        m=len(X),
        max_active=int(np.count_nonzero(pre > 0, axis=1).max()),
        sum_strict=int(np.count_nonzero(pre > 0)),
    )


#: Eqs. (8) and (14) with the printed cells ``I_j = {i : <w_j, x_i> - b_j >= 0}``: ``m`` equal points ``x_i = 1``
#: (``n = 1``, ``R = 1``) and ``s`` neurons ``u_j relu(x - 1)`` (``w_j = b_j = 1``): every point is tied at 0 with every
#: neuron, so no neuron is active (the network is 1-sparse, even 0-sparse) while every printed ``I_j`` is all of
#: ``[m]``; ``u_j = +-1`` takes the sign of ``sum_i zeta_i``. Both terms of (4) are then ``s |sum_i zeta_i| / m``.
TIES_INSTANCE = dict(m=4, n=1, s=256, W=1.0, B=1.0, R=1.0)
#: The bounds (8) and (14) in the certificates' formula language (c = 2 in (8)).
EQ8_EXPR = "4*B*sqrt(s*n*c*log(m*B))/sqrt(m)"
EQ14_EXPR = "4*W*R*sqrt(n*s*log(m*R))/sqrt(m)"


def ties_instance() -> dict:
    """The two terms of (4) with the printed cells on :data:`TIES_INSTANCE`, one network per sign vector, and
    the right sides of (8) and (14)."""
    m, n, s = (TIES_INSTANCE[key] for key in ("m", "n", "s"))
    W, B, R = (TIES_INSTANCE[key] for key in ("W", "B", "R"))
    X = np.full((m, n), R)
    Z = all_signs(m)
    networks, first, second = [], [], []
    for zeta in Z:
        sign = 1.0 if zeta.sum() >= 0 else -1.0
        u, w, b = np.full(s, sign), np.full((s, n), W), np.full(s, B)
        cells = X @ w.T - b >= 0  # (m, s): the printed I_j
        networks.append(dict(u=u.tolist(), W=w.tolist(), b=b.tolist()))
        first.append(float(sum(u[j] * (zeta[cells[:, j]] @ (X[cells[:, j]] @ w[j])) for j in range(s))) / m)
        second.append(float(sum(u[j] * b[j] * zeta[cells[:, j]].sum() for j in range(s))) / m)
    return dict(
        X=X,
        zetas=Z,
        networks=networks,
        first=float(np.mean(first)),
        second=float(np.mean(second)),
        eq8=eq8_rhs(m, n, s, B),
        eq14=eq14_rhs(m, n, s, W, R),
        active=int(
            max(
                np.count_nonzero(X @ np.asarray(net["W"]).T - np.asarray(net["b"]) > 0, axis=1).max()
                for net in networks
            )
        ),
    )


#: Theorem 19's last line: (8) + (14) (c = 2, Hoeffding) against (1) with its printed constant 1.
COMBINE_EXPR = "4*(sqrt(c)*B*sqrt(log(m*B)) + W*R*sqrt(log(m*R)))*sqrt(s*n/m)"
#: The instance of the combine certificate: the largest cube sweep point of the paper's range.
COMBINE_POINT = dict(m=400, n=9, s=8, W=1.0, B=1.0, R=3.0, c=HOEFFDING_C)


# ---------------------------------------------------------------------------
# the classical (dense) bound: contraction and the linear class
# ---------------------------------------------------------------------------

#: (m, number of vectors) of the random finite sets A on which the contraction lemma is enumerated exactly.
CONTRACTION_SETS = ((3, 4), (5, 6), (8, 8), (10, 6))


def contraction_rows(rng) -> list[dict]:
    """Ledoux-Talagrand's contraction for relu, exact over all sign vectors on random finite sets ``A``.

    ``E_zeta max_{a in A} sum_i zeta_i relu(a_i) <= E_zeta max_{a in A} sum_i zeta_i a_i`` (relu is
    1-Lipschitz); ``A`` holds Gaussian vectors, their negatives' halves and the zero vector.
    """
    rows = []
    for m, size in CONTRACTION_SETS:
        Z = all_signs(m)
        A = rng.standard_normal((size, m))
        A = np.vstack([A, -A[: size // 2], np.zeros(m)])
        rows.append(
            dict(
                m=m,
                vectors=len(A),
                relu=float(np.mean(np.max(Z @ np.maximum(A, 0.0).T, axis=1))),
                linear=float(np.mean(np.max(Z @ A.T, axis=1))),
            )
        )
    return rows


def linear_class_rows(X: np.ndarray, Z: np.ndarray, label: str) -> list[dict]:
    """``E_zeta ||sum_i zeta_i x_i|| <= sqrt(sum_i ||x_i||^2) <= R sqrt(m)`` and ``E |sum zeta_i| <= sqrt(m)`` (exact)."""
    m = X.shape[0]
    return [
        dict(
            sample=label,
            m=m,
            n=X.shape[1],
            quantity="E||sum zeta_i x_i||",
            value=float(np.mean(np.linalg.norm(Z @ X, axis=1))),
            bound=float(np.sqrt((X**2).sum())),
        ),
        dict(
            sample=label,
            m=m,
            n=X.shape[1],
            quantity="E|sum zeta_i|",
            value=float(np.mean(np.abs(Z.sum(axis=1)))),
            bound=math.sqrt(m),
        ),
    ]


#: Samples on which (1) holds with equality (theorem19-constant-sharp): ``m(R + B) = e`` with ``R = W = 1``; at
#: ``m = 2`` the two points ``-R, R`` and two neurons ``sigma(+-W x + B)``, 1-sparse since ``B < WR``.
TIGHT_INSTANCES = (
    dict(points=(1.0,), s=1, B=math.e - 1.0),
    dict(points=(-1.0, 1.0), s=2, B=math.e / 2.0 - 1.0),
)


def tight_rows(W: float) -> list[dict]:
    """Exact ``R_H(S)`` brackets (all sign vectors) on :data:`TIGHT_INSTANCES` beside ``WR + B`` (the sup bound
    ``k(WR+B)`` at ``k = 1``) and (1) with constant 1."""
    rows = []
    for inst in TIGHT_INSTANCES:
        X = np.asarray(inst["points"], dtype=float)[:, None]
        m, B, R = X.shape[0], inst["B"], float(np.abs(X).max())
        (br,) = rademacher_brackets(X, [(inst["s"], 1)], W, B)
        rows.append(
            dict(
                m=m,
                n=1,
                s=inst["s"],
                k=1,
                R=R,
                W=W,
                B=B,
                exact=br.exact,
                exact_upper=br.exact_upper,
                sup_bound=W * R + B,
                eq1=(W * R + B) * math.sqrt(inst["s"] * math.log(m * (R + B)) / m),
            )
        )
    return rows
