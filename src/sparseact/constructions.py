"""The explicit networks the paper constructs, as printed and (where needed) corrected.

Every builder returns a :class:`~sparseact.networks.SparseReLUNetwork` and, where the
paper maps a domain into the hypercube first, the embedding as a function. The
function each network is *claimed* to compute is given next to it, so a check
can compare the two on every input of the domain.

Where a printed formula does not do what the text says, the builder takes a
``variant`` argument: ``"printed"`` reproduces the formula exactly as printed and
``"corrected"`` the smallest correction we could justify. The claims
(:mod:`sparseact.claims.section4_parity`, :mod:`sparseact.claims.section4_lwr`, ...) check both.

Conventions
-----------
Points of {-1, 1}^p are indexed as in :mod:`sparseact.cube`: index ``j`` is the
point with ``x_i = (-1)**(bit i of j)``. A bit ``beta in {0, 1}`` is encoded as
the sign ``1 - 2*beta`` (0 -> +1, 1 -> -1). Integer ranges written ``[N]`` in the
paper are taken as ``{0, ..., N-1}`` when the value 0 must be representable.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from itertools import combinations

import numpy as np

from sparseact._validation import (
    as_int_array,
    as_real_array,
    check_int,
    check_memory,
    check_real,
    check_rng,
    check_work,
)
from sparseact.cube import hypercube, indices_from_points
from sparseact.networks import SparseReLUNetwork

VARIANTS = ("printed", "corrected")


def _check_variant(variant: str) -> str:
    if variant not in VARIANTS:
        raise ValueError(f"variant must be one of {VARIANTS}, got {variant!r}")
    return variant


def _finite_array(value, name: str, ndim: int | None = None) -> np.ndarray:
    """``value`` as a finite float64 array (of ``ndim`` dimensions when given), or ``ValueError`` naming it."""
    arr = as_real_array(value, name).astype(np.float64)
    if ndim is not None and arr.ndim != ndim:
        raise ValueError(f"{name} must have {ndim} dimension(s), got shape {arr.shape}")
    if not np.all(np.isfinite(arr)):
        raise ValueError(f"{name} must be finite (no NaN or infinity)")
    return arr


def _subset(S, m: int) -> list[int]:
    """``S`` as a list of distinct column indices in ``[0, m)``, or ``ValueError``."""
    indices = as_int_array(S, "S", 0, m - 1)
    if indices.ndim != 1 or np.unique(indices).size != indices.size:
        raise ValueError(f"S must be a set of distinct indices in [0, {m}), got {S!r}")
    return indices.tolist()


def _coordinates(values, name: str, n: int | None = None) -> list[int]:
    """``values`` as a list of distinct coordinates, each a Python or numpy integer in ``[0, n)`` (``n`` optional).

    ``TypeError`` naming ``name`` for a non-integer entry (``1.5`` is refused, never truncated); ``ValueError`` for a
    negative entry (never read from the end), one ``>= n`` or a repeat.
    """
    values = list(values)
    for v in values:
        if isinstance(v, (bool, np.bool_)) or not isinstance(v, (int, np.integer)):
            raise TypeError(f"{name} must be integer coordinates, got {v!r} (refused, not truncated)")
    values = [int(v) for v in values]
    span = f"in [0, {n})" if n is not None else ">= 0"
    bad = [v for v in values if v < 0 or (n is not None and v >= n)]
    if bad:
        hint = " (a negative index is not read from the end)" if bad[0] < 0 else ""
        raise ValueError(f"{name} must be coordinates {span}{hint}, got {bad[0]}")
    if len(set(values)) != len(values):
        raise ValueError(f"{name} must be distinct coordinates {span}, got {values}")
    return values


def relu(z):
    """``sigma(z) = max(z, 0)`` of a finite real array (``ValueError`` on NaN or infinity)."""
    return np.maximum(_finite_array(z, "z"), 0.0)


# ---------------------------------------------------------------------------
# Theorem 13: p-juntas in H_{n,s,1}^{sqrt(p), p}
# ---------------------------------------------------------------------------


def junta_function(truth_table, variables: Sequence[int]) -> Callable[[np.ndarray], np.ndarray]:
    """The p-junta ``f(x) = truth_table[index of (x_v)_{v in variables}]``.

    Parameters
    ----------
    truth_table : array_like, shape (2**p,)
        Values of ``f`` on {-1, 1}^p in :func:`sparseact.cube.hypercube` order.
    variables : sequence of int
        The ``p`` distinct 0-based coordinates ``f`` depends on.
    """
    table = np.asarray(truth_table, dtype=np.float64)
    variables = _coordinates(variables, "variables")
    width = max(variables, default=-1) + 1
    if not np.isfinite(table).all():
        raise ValueError("truth_table must contain only finite values (found NaN or inf)")
    if table.shape != (1 << len(variables),):
        raise ValueError(
            f"truth_table must have length 2**p = {1 << len(variables)} for "
            f"p = {len(variables)} variables, got shape {table.shape}"
        )

    def f(X: np.ndarray) -> np.ndarray:
        X = np.asarray(X, dtype=np.float64)
        if X.ndim != 2 or X.shape[1] < width:
            raise ValueError(f"X must have shape (points, n) with n >= {width} (the variables), got {X.shape}")
        return table[indices_from_points(X[:, variables])]

    return f


def junta_network(truth_table, variables: Sequence[int], n: int, s: int | None = None):
    """Theorem 13's network for a p-junta: ``sum_j u_j sigma(<w_j, x> - p + 1)``.

    For each ``j < 2**p``, ``w_j`` is the j-th point of {-1, 1}^p placed on
    ``variables`` (zero elsewhere) and ``u_j = f(w_j)``; neurons ``j >= 2**p`` have
    ``w_j = 0``, ``u_j = 0`` and bias 0 (never active). Then
    ``sigma(<w_j, x> - p + 1) = 1{x agrees with w_j on variables}``, so exactly
    one neuron fires and ``h = f`` (proof of Theorem 13).

    Parameters
    ----------
    truth_table : array_like, shape (2**p,)
        Values in {-1, 1} of the junta on its variables (hypercube order).
    variables : sequence of int
        ``p`` distinct coordinates in ``[0, n)``.
    n : int
        Input dimension.
    s : int, optional
        Number of neurons, ``s >= 2**p`` (default ``2**p``).

    Returns
    -------
    SparseReLUNetwork
    """
    n = check_int(n, "n")
    variables = _coordinates(variables, "variables", n)
    p = len(variables)
    table = np.asarray(truth_table, dtype=np.float64)
    if table.shape != (1 << p,):
        raise ValueError(f"truth_table must have length 2**p = {1 << p}, got shape {table.shape}")
    if not np.all(np.abs(table) == 1):
        raise ValueError("truth_table must have values in {-1, 1} (a Boolean junta)")
    s = (1 << p) if s is None else check_int(s, "s")
    if s < (1 << p):
        raise ValueError(f"s must be at least 2**p = {1 << p} neurons, got s = {s}")
    check_memory(8.0 * s * (n + 2), f"junta_network: {s} neurons on n = {n} inputs")
    W = np.zeros((s, n))
    W[: 1 << p][:, variables] = hypercube(p)
    u = np.zeros(s)
    u[: 1 << p] = table
    b = np.zeros(s)
    b[: 1 << p] = p - 1
    return SparseReLUNetwork(u, W, b)


def parity_truth_table(p: int) -> np.ndarray:
    """Truth table of ``chi_[p](x) = prod_i x_i`` on {-1, 1}^p (hypercube order)."""
    return np.prod(hypercube(p), axis=1)


# ---------------------------------------------------------------------------
# Section 1: Index_b in H_{b + 2^b, 2^b, 1}
# ---------------------------------------------------------------------------


def index_function(b: int) -> Callable[[np.ndarray], np.ndarray]:
    """``Index_b(z)`` for ``z = (x, y)``: bit ``y_x`` mapped to {0, 1} (-1 -> 0).

    ``x`` (the first ``b`` coordinates) is read as the integer whose bit ``i`` is
    ``(1 - x_i)/2``, the hypercube row order; ``y`` is the remaining ``2**b``
    coordinates.
    """
    b = check_int(b, "b")
    width = b + (1 << b)

    def f(Z: np.ndarray) -> np.ndarray:
        Z = np.asarray(Z, dtype=np.float64)
        if Z.ndim != 2 or Z.shape[1] != width:
            raise ValueError(f"Z must have shape (points, b + 2**b) = (points, {width}), got {Z.shape}")
        address = indices_from_points(Z[:, :b])
        return (Z[np.arange(Z.shape[0]), b + address] + 1.0) / 2.0

    return f


def index_network(b: int) -> SparseReLUNetwork:
    """Section 1's ``Index_b(z) = sum_alpha sigma(<w_alpha, z> - b + 1/2)``.

    The first ``b`` coordinates of ``w_alpha`` are ``alpha``; among the last ``2**b``
    the alpha-th is ``1/2`` (alpha-th in hypercube order), the rest 0; ``u = 1``.
    """
    b = check_int(b, "b")
    check_memory(
        8 * (1 << min(b, 64)) * (b + (1 << min(b, 64)) + 2), f"index_network({b}): 2^{b} neurons on {b} + 2^{b} inputs"
    )
    s = 1 << b
    W = np.zeros((s, b + s))
    W[:, :b] = hypercube(b)
    W[np.arange(s), b + np.arange(s)] = 0.5
    return SparseReLUNetwork(np.ones(s), W, np.full(s, b - 0.5))


# ---------------------------------------------------------------------------
# Section 4: parities through the quadratic lift x(y) in {-1,1}^{m x m}
# ---------------------------------------------------------------------------


def parity01(Y: np.ndarray, S: Sequence[int]) -> np.ndarray:
    """The parity of ``y`` on ``S`` in {0, 1} form: 1 iff ``prod_{i in S} y_i = 1``.

    This is the function a learner of parities must output (Theorem 14).
    """
    Y = np.asarray(Y, dtype=np.float64)
    Y = _finite_array(Y, "Y", 2)
    return (1.0 + np.prod(Y[:, _subset(S, Y.shape[1])], axis=1)) / 2.0


def chi_printed(Y: np.ndarray, S: Sequence[int]) -> np.ndarray:
    """``chi_S`` exactly as printed in Section 4: 1 iff ``sum_{i in S} y_i`` is even.

    For ``y in {-1, 1}^m`` the sum is congruent to ``|S|`` modulo 2, so this is the
    constant ``1{|S| even}``, not a parity. ``ValueError`` unless every entry of ``Y`` is
    ``+-1`` (a sum of other reals has no parity; it is refused, not rounded).
    """
    Y = np.asarray(Y, dtype=np.float64)
    Y = _finite_array(Y, "Y", 2)
    if not np.all(np.abs(Y) == 1.0):
        raise ValueError("Y must have entries +-1 (points of {-1, 1}^m): the parity of other sums is not defined")
    t = np.rint(Y[:, _subset(S, Y.shape[1])].sum(axis=1)).astype(np.int64)
    return (t % 2 == 0).astype(np.float64)


def parity_shifts(m: int, S: Sequence[int], variant: str = "printed") -> np.ndarray:
    """The shifts ``a`` of the identity ``sum_a 2 sigma(1/2 - (sum_{i in S} y_i - a)^2)``.

    ``"printed"``: every even ``a`` in ``{-m, ..., m}``. ``"corrected"``: every
    ``a`` in ``{-m, ..., m}`` with ``a = |S| (mod 4)``; then the sum is 1 exactly
    when the number of ``-1`` among ``(y_i)_{i in S}``, ``(|S| - sum y_i)/2``, is
    even, i.e. it is :func:`parity01`.
    """
    m = check_int(m, "m")
    check_memory(8.0 * (2 * m + 1), f"parity_shifts: the {2 * m + 1} candidate shifts of m = {m}")
    S = _subset(S, m)
    _check_variant(variant)
    a = np.arange(-m, m + 1)
    if variant == "printed":
        return a[a % 2 == 0]
    return a[(a - len(S)) % 4 == 0]


def parity_identity(Y: np.ndarray, S: Sequence[int], shifts: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Evaluate ``sum_a 2 sigma(1/2 - (t - a)^2)``, ``t = sum_{i in S} y_i``.

    Returns
    -------
    values : ndarray, shape (m_points,)
    active : ndarray of int, shape (m_points,)
        Number of terms with a positive argument (active ReLUs).
    """
    Y = np.asarray(Y, dtype=np.float64)
    Y = _finite_array(Y, "Y", 2)
    shifts = _finite_array(shifts, "shifts", 1)
    t = Y[:, _subset(S, Y.shape[1])].sum(axis=1)
    arg = 0.5 - (t[:, None] - shifts[None, :]) ** 2
    return 2.0 * relu(arg).sum(axis=1), np.count_nonzero(arg > 0, axis=1)


def quadratic_lift(Z: np.ndarray) -> np.ndarray:
    """Section 4's lift: ``x(z)_{ij} = z_i`` if ``i = j`` and ``z_i z_j`` otherwise.

    Parameters
    ----------
    Z : array_like, shape (points, r)
        Points of {-1, 1}^r.

    Returns
    -------
    ndarray, shape (points, r*r)
        Row-major flattening of the ``r x r`` matrix ``x(z)``: entry ``(i, j)``
        is column ``i*r + j``.
    """
    Z = _finite_array(Z, "Z")
    if Z.ndim == 2:
        check_memory(8.0 * Z.shape[0] * Z.shape[1] ** 2, f"quadratic_lift: {Z.shape[0]} points of {Z.shape[1]}^2")
    if Z.ndim != 2:
        raise ValueError(f"Z must have shape (points, r), got {Z.shape}")
    r = Z.shape[1]
    X = Z[:, :, None] * Z[:, None, :]
    X[:, np.arange(r), np.arange(r)] = Z
    return X.reshape(Z.shape[0], r * r)


def lifted_quadratic_weights(v: np.ndarray, a: float) -> tuple[np.ndarray, float]:
    """``(w, beta)`` with ``1/2 - (<v, z> - a)^2 = <w, x(z)> - beta`` for all ``z`` in {-1,1}^r.

    Expanding with ``z_i^2 = 1``: ``w_{ij} = -v_i v_j`` (``i != j``),
    ``w_{ii} = 2 a v_i`` and ``beta = ||v||^2 + a^2 - 1/2``.
    """
    v = _finite_array(v, "v", 1)
    a = check_real(a, "a")
    check_memory(8.0 * v.size**2, f"lifted_quadratic_weights: a {v.size} x {v.size} weight matrix")
    w = -np.outer(v, v)
    w[np.diag_indices(v.size)] = 2.0 * a * v
    beta = float(v @ v + a * a - 0.5)
    if not (np.all(np.isfinite(w)) and math.isfinite(beta)):
        raise ValueError("v and a are too large: the lifted weights overflow float64")
    return w.reshape(-1), beta


def parity_lift_weights(m: int, S: Sequence[int], a: float, variant: str = "printed"):
    """``(w_{S,a}, b_{S,a})`` of Section 4 for ``1/2 - (sum_{i in S} y_i - a)^2``.

    ``"printed"``: ``b = |S| + a^2 - 1/2``, ``w[i, j] = -1`` for ``i != j in [m]`` and
    ``w[i, i] = 2a`` for every ``i`` (as printed, with no reference to ``S``).
    ``"corrected"``: the same restricted to ``i, j in S`` (zero elsewhere), which is
    :func:`lifted_quadratic_weights` of the indicator vector of ``S``.
    """
    m = check_int(m, "m")
    check_memory(8.0 * m * m, f"parity_lift_weights: an {m} x {m} weight matrix")
    S = _subset(S, m)
    a = check_real(a, "a", -1e150, 1e150)
    if variant == "printed":
        w = -np.ones((m, m))
        w[np.diag_indices(m)] = 2.0 * a
        return w.reshape(-1), float(len(S) + a * a - 0.5)
    _check_variant(variant)
    indicator = np.zeros(m)
    indicator[_subset(S, m)] = 1.0
    return lifted_quadratic_weights(indicator, a)


def parity_network(m: int, S: Sequence[int], variant: str = "corrected"):
    """Section 4's 1-sparse network for the parity on ``S``, on the lifted input ``x(y)``.

    ``h(x) = sum_a 2 sigma(<w_{S,a}, x> - b_{S,a})`` over :func:`parity_shifts`.
    With ``variant="corrected"`` both corrections (shifts ``a = |S| mod 4`` and
    weights restricted to ``S``) are applied; ``"printed"`` uses both printed
    formulas.

    Returns
    -------
    network : SparseReLUNetwork
        On ``n = m*m`` inputs.
    embedding : callable
        ``y -> x(y)`` (:func:`quadratic_lift`).
    """
    shifts = parity_shifts(m, S, variant)
    check_memory(2 * 8.0 * len(shifts) * m * m, f"parity_network: {len(shifts)} neurons on {m} x {m} inputs")
    rows = [parity_lift_weights(m, S, float(a), variant) for a in shifts]
    W = np.array([w for w, _ in rows])
    b = np.array([beta for _, beta in rows])
    return SparseReLUNetwork(np.full(len(shifts), 2.0), W, b), quadratic_lift


def dense_parity_network(n: int, S: Sequence[int]) -> SparseReLUNetwork:
    """A one-layer network of ``|S| + 1`` neurons computing ``chi_S(x) = prod_{i in S} x_i`` on all of ``{-1,1}^n``.

    With ``k = |S|`` and ``T = sum_{i in S} x_i in {T_0, ..., T_k}``, ``T_j = -k + 2j``, neuron ``j``
    is ``sigma(T - T_j + 1)`` (``w_j = 1_S``, ``b_j = T_j - 1``). At ``T = T_i`` it equals
    ``2(i - j) + 1`` for ``j <= i`` and 0 for ``j > i``, so the output weights solve the unit lower
    triangular system ``sum_{j <= i} c_j (2(i - j) + 1) = (-1)^(k - i)`` (``i = 0..k``): a solution always
    exists, in integers. The network is dense (up to ``k + 1`` neurons active): it shows that
    networks of size ``s`` without activation sparsity compute parities on ``min(n, s - 1)`` variables.
    """
    n = check_int(n, "n", 1)
    S = sorted(_coordinates(S, "S", n))
    k = len(S)
    check_memory(8.0 * (k + 1) * (n + 2), f"dense_parity_network: {k + 1} neurons on n = {n} inputs")
    targets = np.array([(-1.0) ** (k - i) for i in range(k + 1)])
    c = np.zeros(k + 1)
    for i in range(k + 1):
        c[i] = targets[i] - sum(c[j] * (2 * (i - j) + 1) for j in range(i))
    W = np.zeros((k + 1, n))
    W[:, S] = 1.0
    b = np.array([-k + 2.0 * j - 1.0 for j in range(k + 1)])
    return SparseReLUNetwork(c, W, b)


def dense_parity01_network(n: int, S: Sequence[int]) -> SparseReLUNetwork:
    """A one-layer network of ``|S|`` neurons, no output bias, computing the ``{0,1}``-valued parity
    ``(1 + prod_{i in S} x_i)/2`` (Section 4's encoding of ``chi_S``) on all of ``{-1,1}^n``.

    With ``k = |S| >= 1``, ``T = sum_{i in S} x_i in {T_0, ..., T_k}``, ``T_i = -k + 2i``, the target is
    ``g_i = 1{k - i even}`` at ``T_i``: the piecewise-linear interpolant of the ``g_i``. Its first piece is
    ``sigma(T - T_0)/2`` when ``g_0 = 0`` (``k`` odd) and ``sigma(T_1 - T)/2`` when ``g_0 = 1`` (``k`` even;
    zero for ``T >= T_1``); neurons ``j = 1, ..., k - 1`` are ``c_j sigma(T - T_j)``, with ``c_j`` fixed in turn
    by the value at ``T_{j+1}`` (each adds ``2 c_j (i - j)`` at ``T_i``, ``i > j``). So ``k`` neurons suffice: size-``s``
    networks compute parities on ``min(n, s)`` variables in this encoding.
    """
    n = check_int(n, "n", 1)
    S = sorted(_coordinates(S, "S", n))
    k = len(S)
    if k < 1:
        raise ValueError("S must be non-empty")
    check_memory(8.0 * k * (n + 2), f"dense_parity01_network: {k} neurons on n = {n} inputs")
    T = [-k + 2.0 * i for i in range(k + 1)]
    g = [1.0 if (k - i) % 2 == 0 else 0.0 for i in range(k + 1)]
    even = g[0] == 1.0
    first = [(max(T[1] - t, 0.0) if even else max(t - T[0], 0.0)) / 2.0 for t in T]
    c = [0.0] * k
    for i in range(2, k + 1):
        c[i - 1] = (g[i] - first[i] - sum(c[j] * 2.0 * (i - j) for j in range(1, i - 1))) / 2.0
    W = np.zeros((k, n))
    W[0, S] = -1.0 if even else 1.0
    W[1:, S] = 1.0
    b = np.array([-T[1] if even else T[0]] + [T[j] for j in range(1, k)])
    u = np.array([0.5, *c[1:]])
    return SparseReLUNetwork(u, W, b)


def all_subsets(m: int) -> list[tuple[int, ...]]:
    """Every non-empty subset of ``{0, ..., m-1}``, by size then lexicographically.

    ``ValueError`` if ``m`` is not an integer ``>= 0`` or the ``2^m - 1`` tuples (about ``8 (m + 8)``
    bytes each) exceed :data:`sparseact._validation.MEMORY_LIMIT_BYTES`.
    """
    m = check_int(m, "m", 0)
    check_memory(((1 << m) - 1) * 8 * (m + 8), f"all_subsets({m}): 2^{m} - 1 tuples")
    return [c for size in range(1, m + 1) for c in combinations(range(m), size)]


# ---------------------------------------------------------------------------
# Section 4: Learning with Rounding through binary encoding and the lift
# ---------------------------------------------------------------------------


def lwr_bits(q: int) -> int:
    """Bits per coordinate of ``Z_q``: the bit length of ``q - 1``."""
    q = check_int(q, "q", 2)
    return max(1, int(q - 1).bit_length())


def _lwr_arguments(w, q, p) -> tuple[np.ndarray, int, int]:
    """``w in Z_q^m`` (integers in ``[0, q)``, never truncated), ``q >= 2`` and ``p >= 1``, or ``ValueError``."""
    q = check_int(q, "q", 2)
    p = check_int(p, "p", 1)
    if p > q:
        raise ValueError(f"p must be <= q (lambda = (t mod q) mod p), got p = {p}, q = {q}")
    w = as_int_array(w, "w", 0, q - 1)
    if w.ndim != 1 or w.size == 0:
        raise ValueError(f"w must be a non-empty vector of Z_q^m, got shape {w.shape}")
    return w, q, p


def lwr_function(w: np.ndarray, q: int, p: int) -> Callable[[np.ndarray], np.ndarray]:
    """Definition 15: ``f_w(y) = (<w, y> mod q) mod p`` on ``y in Z_q^m``.

    ``w`` must lie in ``Z_q^m`` (integers in ``[0, q)``), ``q >= 2``, ``p >= 1``; otherwise ``ValueError``.
    """
    w, q, p = _lwr_arguments(w, q, p)

    def f(Y: np.ndarray) -> np.ndarray:
        return ((np.asarray(Y, dtype=np.int64) @ w) % q % p).astype(np.float64)

    return f


def lwr_encode(Y: np.ndarray, q: int) -> np.ndarray:
    """``z(y) in {-1, 1}^r``: the binary digits of each ``y_i``, bit ``beta`` -> ``1 - 2 beta``.

    Coordinate ``i*L + l`` holds bit ``l`` (least significant first) of ``y_i``,
    ``L = lwr_bits(q)``, so ``r = m L = O(m log q)``.
    """
    L = lwr_bits(q)
    Y = as_int_array(Y, "Y")
    if Y.ndim != 2:
        raise ValueError(f"Y must have shape (points, m), got {Y.shape}")
    if Y.size and (Y.min() < 0 or Y.max() >= q):
        raise ValueError(f"Y must have entries in Z_q = [0, {q})")
    bits = (Y[:, :, None] >> np.arange(L)[None, None, :]) & 1
    return (1.0 - 2.0 * bits).reshape(Y.shape[0], -1)


def lwr_affine_form(w: np.ndarray, q: int) -> tuple[np.ndarray, float]:
    """``(v, c)`` with ``<w, y> = c + <v, z(y)>`` for every ``y in Z_q^m`` (exact).

    From ``y_i = sum_l 2^l (1 - z_{il})/2``: ``v_{il} = -w_i 2^(l-1)`` and
    ``c = sum_i w_i (2^L - 1)/2``. The paper asks for a *linear* ``v`` with
    ``<v, z(y)> = <w, y>``; the offset ``c`` is generally non-zero, and it is
    absorbed into the shifts ``a`` of the ReLU identity (our correction).
    """
    L = lwr_bits(q)
    w = as_int_array(w, "w", 0, q - 1).astype(np.float64)
    if w.ndim != 1:
        raise ValueError(f"w must be a vector of Z_q^m, got shape {w.shape}")
    v = -(w[:, None] * (2.0 ** (np.arange(L) - 1))[None, :]).reshape(-1)
    return v, float(w.sum() * ((1 << L) - 1) / 2.0)


def lwr_linear_form_printed(w: np.ndarray, q: int, Y: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Best *linear* ``v`` for ``<v, z(y)> = <w, y>`` over the points ``Y`` (least squares).

    The printed claim is that some ``v`` makes this exact. Returns ``v`` and the
    residual vector ``rho = <w, y> - <v, z(y)>`` over ``Y``. If ``rho != 0``, no
    linear ``v`` exists: ``rho`` is orthogonal to every column of ``z(Y)``
    (``sum_y rho_y z(y) = 0``) while ``sum_y rho_y <w, y> = ||rho||^2 > 0`` -- a
    certificate of infeasibility.
    """
    Z = lwr_encode(Y, q)
    w = as_int_array(w, "w", 0, q - 1)
    if w.shape != (Z.shape[1] // lwr_bits(q),):
        raise ValueError(f"w must have one entry per column of Y ({Z.shape[1] // lwr_bits(q)}), got shape {w.shape}")
    target = np.asarray(Y, dtype=np.float64) @ w.astype(np.float64)
    v, *_ = np.linalg.lstsq(Z, target, rcond=None)
    return v, target - Z @ v


def lwr_lambda(t, q: int, p: int):
    """``lambda(i) = (i mod q) mod p`` (Section 4): integers ``t``, ``q >= 2``, ``p >= 1``."""
    q, p = check_int(q, "q", 2), check_int(p, "p", 1)
    if p > q:
        raise ValueError(f"p must be <= q (lambda = (t mod q) mod p), got p = {p}, q = {q}")
    return (as_int_array(t, "t") % q) % p


def lwr_round(t, q: int, p: int):
    """The rounding map of Banerjee et al. (2012): ``round((p/q) (t mod q)) mod p``, ties up.

    ``round(x) = floor(x + 1/2)``, computed in integers as ``floor((2 p (t mod q) + q) / (2 q))``.
    This is the map the learning-with-rounding problem uses; Definition 15 prints
    ``(t mod q) mod p`` (:func:`lwr_lambda`) instead.
    """
    q, p = check_int(q, "q", 2), check_int(p, "p", 1)
    if p > q:
        raise ValueError(f"p must be <= q (rounding Z_q to Z_p), got p = {p}, q = {q}")
    t = as_int_array(t, "t") % q
    return ((2 * p * t + q) // (2 * q)) % p


#: Where Miller-Rabin with the first twelve primes as bases stops being exact (3.3e24, Sorenson and Webster 2017).
PRIME_TEST_LIMIT = 3317044064679887385961981


def is_prime(p: int) -> bool:
    """Whether the integer ``p`` is prime: Miller-Rabin with the first twelve primes as bases, exact below 3.3e24."""
    bases = (2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37)
    if isinstance(p, int) and p >= PRIME_TEST_LIMIT:
        raise ValueError(f"p must be below {PRIME_TEST_LIMIT:.2g}, where the primality test is exact")
    p = check_int(p, "p", 0)
    if p < 2:
        return False
    if p in bases:
        return True
    if any(p % b == 0 for b in bases):
        return False
    d, r = p - 1, 0
    while d % 2 == 0:
        d, r = d // 2, r + 1
    for b in bases:
        x = pow(b, d, p)
        if x in (1, p - 1):
            continue
        for _ in range(r - 1):
            x = x * x % p
            if x == p - 1:
                break
        else:
            return False
    return True


def gf_solve(A, y, p: int):
    """The unique solution ``x in Z_p^m`` of ``A x = y (mod p)``, ``p`` prime, by Gaussian elimination.

    Parameters
    ----------
    A : array_like of int, shape (N, m)
    y : array_like of int, shape (N,)
    p : int
        A prime (every non-zero residue is invertible).

    Returns
    -------
    ndarray of int or None
        ``x`` when ``A`` has rank ``m`` over ``Z_p`` and the system is consistent; ``None`` otherwise.

    Examples
    --------
    >>> gf_solve([[1, 1], [0, 1], [1, 0]], [0, 1, 1], 2).tolist()
    [1, 1]
    """
    p = check_int(p, "p", minimum=2)
    if not is_prime(p):
        raise ValueError(f"p must be prime (every non-zero residue invertible), got {p}")
    A, y = as_int_array(A, "A"), as_int_array(y, "y")
    if A.ndim != 2 or y.shape != (A.shape[0],):
        raise ValueError(f"A must be (N, m) and y (N,), got {A.shape} and {y.shape}")
    M = np.concatenate([A % p, (y % p)[:, None]], axis=1)
    rows, m = M.shape[0], M.shape[1] - 1
    for col in range(m):
        pivot_row = col  # each column gets a pivot (or there is no unique solution): the pivot row is the column
        nonzero = np.flatnonzero(M[pivot_row:, col]) + pivot_row
        if not nonzero.size:
            return None
        M[[pivot_row, nonzero[0]]] = M[[nonzero[0], pivot_row]]
        M[pivot_row] = (M[pivot_row] * pow(int(M[pivot_row, col]), p - 2, p)) % p
        others = np.arange(rows) != pivot_row
        M[others] = (M[others] - np.outer(M[others, col], M[pivot_row])) % p
    if np.any(M[m:, m]):
        return None
    return M[:m, m].copy()


def affine_fits_zp(values, Y, p: int) -> bool:
    """Whether some affine map ``y -> <w', y> + c (mod p)``, ``w' in Z_p^m``, ``c in Z_p``, equals ``values`` on ``Y``.

    Exhaustive over the ``p^(m+1)`` affine maps (small ``p``, ``m`` only).
    """
    p = check_int(p, "p", minimum=2)
    Y, values = as_int_array(Y, "Y") % p, as_int_array(values, "values") % p
    if Y.ndim != 2 or values.shape != (Y.shape[0],):
        raise ValueError(f"Y must be (points, m) and values (points,), got {Y.shape} and {values.shape}")
    m = Y.shape[1]
    check_memory(float(p) ** m * (Y.shape[0] + m) * 8, f"the {p}^{m} linear maps of Z_p^m")
    grids = np.meshgrid(*([np.arange(p)] * m), indexing="ij")
    coefficients = np.stack([g.reshape(-1) for g in grids], axis=1)
    images = (Y @ coefficients.T) % p  # (points, p^m)
    offsets = (values[:, None] - images) % p
    return bool(np.any(np.all(offsets == offsets[:1], axis=0)))


def lwr_identity(t: np.ndarray, q: int, p: int, m: int, variant: str = "printed"):
    """Evaluate the ReLU identity for ``lambda(t)``, ``t`` an integer in ``[0, q^2 m)``.

    ``"printed"``: ``sum_{a in [q^2 m]} 2 lambda(a) sigma(1/2 - (t - a))^2`` -- the
    square outside the ReLU, exactly as printed. ``"corrected"``:
    ``sum_a 2 lambda(a) sigma(1/2 - (t - a)^2)``, the parity identity's form.

    Parameters
    ----------
    t : array_like, shape (T,)
        Finite real values (the identity is about integers in ``[0, q^2 m)``).
    q, p, m : int
        ``2 <= q``, ``1 <= p <= q``, ``m >= 1``.
    variant : {"printed", "corrected"}

    Returns
    -------
    values, active : ndarray
        The sum, and the number of ReLUs with a positive argument.

    Raises
    ------
    ValueError
        For arguments outside the ranges above, and, before anything is allocated, when the
        ``T q^2 m`` terms exceed :data:`sparseact._validation.MAX_LWR_IDENTITY_TERMS` or their
        temporaries :data:`sparseact._validation.MEMORY_LIMIT_BYTES` (the message gives the size).
    """
    _check_variant(variant)
    q, p, m = check_int(q, "q", 2), check_int(p, "p", 1), check_int(m, "m")
    if p > q:
        raise ValueError(f"p must be <= q (lambda = (t mod q) mod p), got p = {p}, q = {q}")
    t = as_real_array(t, "t").astype(np.float64)
    if t.ndim != 1 or not np.all(np.isfinite(t)):
        raise ValueError(f"t must be a finite one-dimensional array, got shape {t.shape}")
    check_work(
        t.size * q * q * m, "MAX_LWR_IDENTITY_TERMS", f"lwr_identity: {t.size} values times {q * q * m} shifts", "terms"
    )
    # four float64 temporaries (difference, argument, ReLU, its square) and one bool per (value, shift)
    check_memory(33.0 * t.size * q * q * m, f"lwr_identity: {t.size} values times {q * q * m} shifts")
    a = np.arange(q * q * m, dtype=np.float64)
    lam = lwr_lambda(a.astype(np.int64), q, p).astype(np.float64)
    diff = t[:, None] - a[None, :]
    arg = 0.5 - diff if variant == "printed" else 0.5 - diff**2
    terms = relu(arg) ** 2 if variant == "printed" else relu(arg)
    return 2.0 * terms @ lam, np.count_nonzero(arg > 0, axis=1)


def lwr_network(w: np.ndarray, q: int, p: int):
    """The (corrected) network ``F_w`` with ``F_w(x(z(y))) = f_w(y)`` (Section 4).

    One neuron per shift ``a in {0, ..., q^2 m - 1}``:
    ``2 lambda(a) sigma(1/2 - (<v, z> + c - a)^2)`` linearised by
    :func:`lifted_quadratic_weights` on ``x = x(z)``, ``n = r^2``, with ``(v, c)``
    from :func:`lwr_affine_form` (the printed linear ``v`` does not exist in
    general, and the printed square sits outside the ReLU).

    The arguments are those of :func:`lwr_function` (``w in Z_q^m``, so that ``<w, y>`` lies in
    ``[0, q^2 m)``, the shifts' range): the network equals ``f_w`` on every ``y in Z_q^m``.

    Returns
    -------
    network : SparseReLUNetwork
    embedding : callable
        ``y -> x(z(y))``.
    """
    w, q, p = _lwr_arguments(w, q, p)
    m = w.size
    r = m * lwr_bits(q)
    check_memory(8.0 * q * q * m * r * r, f"lwr_network: {q * q * m} neurons on n = r^2 = {r * r} inputs")
    v, c = lwr_affine_form(w, q)
    shifts = np.arange(q * q * m)
    rows = [lifted_quadratic_weights(v, float(a) - c) for a in shifts]
    W = np.array([row for row, _ in rows])
    b = np.array([beta for _, beta in rows])
    u = 2.0 * lwr_lambda(shifts, q, p).astype(np.float64)

    def embedding(Y: np.ndarray) -> np.ndarray:
        return quadratic_lift(lwr_encode(Y, q))

    return SparseReLUNetwork(u, W, b), embedding


def zq_points(q: int, m: int) -> np.ndarray:
    """All ``q**m`` points of ``Z_q^m``, shape (q**m, m)."""
    q = check_int(q, "q", 2)
    m = check_int(m, "m")
    check_memory(8 * (m + 1) * q ** min(m, 64), f"zq_points({q}, {m}): {q}^{m} points")
    grids = np.meshgrid(*([np.arange(q)] * m), indexing="ij")
    return np.stack([g.reshape(-1) for g in grids], axis=1)


# ---------------------------------------------------------------------------
# Appendix A: a sparsely activated network with dense weights
# ---------------------------------------------------------------------------


def _appendix_a_weights(y_weights) -> tuple[np.ndarray, int]:
    """``y_weights`` as a finite ``(2**b, q)`` array, and ``b``; ``ValueError`` otherwise."""
    Wy = _finite_array(y_weights, "y_weights", 2)
    b = Wy.shape[0].bit_length() - 1
    if Wy.shape[0] != 1 << b or Wy.shape[1] == 0:
        raise ValueError(f"y_weights must have 2**b rows and q >= 1 columns, got shape {Wy.shape}")
    return Wy, b


def appendix_a_network(y_weights: np.ndarray, gamma: float) -> SparseReLUNetwork:
    """``F(x, y) = sum_alpha sigma(<w_alpha, y> + Gamma (<x, alpha> - b))`` (Appendix A).

    Parameters
    ----------
    y_weights : array_like, shape (2**b, q)
        Row ``j`` is ``w_alpha`` for the j-th ``alpha`` of {-1, 1}^b (hypercube order).
    gamma : float
        ``Gamma >= 0``.

    Returns
    -------
    SparseReLUNetwork
        On inputs ``(x, y)`` in {-1, 1}^(b+q), ``x`` first; neuron ``alpha`` has weight
        ``(Gamma alpha, w_alpha)``, bias ``Gamma b`` and ``u_alpha = 1``.
    """
    Wy, b = _appendix_a_weights(y_weights)
    s = Wy.shape[0]
    gamma = check_real(gamma, "gamma", minimum=0.0)
    W = np.concatenate([gamma * hypercube(b), Wy], axis=1)
    return SparseReLUNetwork(np.ones(s), W, np.full(s, gamma * b))


def appendix_a_target(y_weights: np.ndarray) -> Callable[[np.ndarray], np.ndarray]:
    """``(x, y) -> sigma(<w_x, y>)``, what Appendix A says ``F`` returns when 1-sparse."""
    Wy, b = _appendix_a_weights(y_weights)

    def f(X: np.ndarray) -> np.ndarray:
        X = np.asarray(X, dtype=np.float64)
        rows = Wy[indices_from_points(X[:, :b])]
        return relu(np.einsum("ij,ij->i", rows, X[:, b:]))

    return f


def unit_gaussian_rows(rng: np.random.Generator, rows: int, q: int) -> np.ndarray:
    """``rows`` independent uniformly random unit vectors in R^q."""
    rng, rows, q = check_rng(rng), check_int(rows, "rows"), check_int(q, "q")
    check_memory(8.0 * rows * q, f"unit_gaussian_rows: {rows} x {q} floats")
    G = rng.standard_normal((rows, q))
    return G / np.linalg.norm(G, axis=1, keepdims=True)


__all__ = [
    "PRIME_TEST_LIMIT",
    "VARIANTS",
    "affine_fits_zp",
    "all_subsets",
    "appendix_a_network",
    "appendix_a_target",
    "chi_printed",
    "dense_parity01_network",
    "dense_parity_network",
    "gf_solve",
    "index_function",
    "index_network",
    "is_prime",
    "junta_function",
    "junta_network",
    "lifted_quadratic_weights",
    "lwr_affine_form",
    "lwr_bits",
    "lwr_encode",
    "lwr_function",
    "lwr_identity",
    "lwr_lambda",
    "lwr_linear_form_printed",
    "lwr_network",
    "lwr_round",
    "parity01",
    "parity_identity",
    "parity_lift_weights",
    "parity_network",
    "parity_shifts",
    "parity_truth_table",
    "quadratic_lift",
    "relu",
    "unit_gaussian_rows",
    "zq_points",
]
