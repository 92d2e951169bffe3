"""Data and runs stages of the claim ``theorem8``: ``generate(point, rng)`` and ``run(point, data, rng)``.

The grid and what the claim checks: :mod:`sparseact.claims.theorem8`.
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd

from sparseact import analysis, bounds, constructions, families
from sparseact._validation import FloatOverflowError
from sparseact.bounds import C_THEOREM8_DEGREE
from sparseact.claims._failures import with_worst, worst_instance
from sparseact.cube import hypercube
from sparseact.learners import LowDegreeRegressor
from sparseact.learners.low_degree import monomial_count
from sparseact.networks import SparseReLUNetwork
from sparseact.runtime.datafiles import network_arrays, network_from_arrays
from sparseact.runtime.provenance import derive_rng

#: ``log(1/eps)`` values of the proof-step formulas (``eps = exp(-ell)``; ``ell = 0`` is ``eps = 1``).
ELL_GRID = (0.0, 0.5, 1.0, 1.6, 2.3, 3.0, 4.6, 6.9, 9.2, 13.8, 23.0, 46.1, 115.0, 230.0, 460.0, 700.0)
#: Extra values of ``1 - rho`` at which the tail step is tested (besides the proof's own ``1 - rho``).
OMR_GRID_POINTS = 2000
#: The constants ``c`` for which the largest failing eps of the printed ``1 - rho`` is reported.
C_VALUES = (1.0, 1e-3, 1e-6, 1e-9, 1e-12)
#: A tiny ``c`` at which the (rho) table also evaluates the printed choice, to show that shrinking ``c`` does not help.
TINY_C = 1e-12
#: The (rho) certificate: the unit constant ``c``, at the largest ``eps <= CERT_EPS_MAX`` of a fine grid where Lemma 10's
#: bound exceeds ``2 eps/3`` (a moderate witness; the closed form and theorem8-rho-no-constant cover every ``c``).
CERT_C = 1.0
CERT_EPS_MAX = 0.1

#: Lemma 10's hidden constant in the formulas (the closed form in the notes covers every value).
LEMMA10_C = 1.0
#: Class parameters of the wide grid on which the corrected ``1 - rho*`` is verified.
WIDE_N = (1, 2, 12, 1000, 10**6)
WIDE_S = (1, 2, 8, 1000)
WIDE_K = (1, 2, 4, 8)
WIDE_W = (0.0, 1e-3, 0.1, 1.0, 10.0)
WIDE_B = (0.0, 0.1, 1.0, 10.0)
#: ``Lambda``'s floor in :func:`corrected_log_one_minus_rho` (``4 log L <= L/2`` for ``L >= 27``).
LAMBDA_MIN = 27.0

#: The constant ``c`` of the printed ``1 - rho`` for which ``NS_rho <= eps/3`` follows from lemma10-sharp
#: (``log^4(2)/72``; see the argument of theorem8-proof-rho).
C_RHO_SHARP = math.log(2.0) ** 4 / 72.0

#: Lemma 7's projection identity is checked at the degrees with at most this many monomials (full-cube least squares).
PROJECTION_MAX_FEATURES = 200
#: ``k`` values of the proof-step tables (those ``<= s`` are used; fixed, so the point does not move with the grid).
PROOF_K = (1, 2, 4, 8)


# ---------------------------------------------------------------------------
# data
# ---------------------------------------------------------------------------


def dense_network(n: int, s: int, rng):
    """A dense baseline: Gaussian weights, zero biases (about half the neurons fire), W normalised to 1."""
    net = SparseReLUNetwork(rng.choice([-1.0, 1.0], size=s), rng.standard_normal((s, n)), [0.0] * s)
    return families.rescale(net, W=1.0)


def target_network(point: dict, rng):
    """The point's target ``h``: a certified-sparse, dense or parity network (``W = 1`` except the parity)."""
    n, s, kind = point["n"], point["s"], point["target"]
    if kind == "parity":
        p = point["p"]
        return constructions.junta_network(constructions.parity_truth_table(p), list(range(p)), n)
    if kind == "dense":
        return dense_network(n, s, rng)
    if kind == "bucket":
        net = families.bucket_network(n, s, point["k"], rng)
    else:
        net = families.random_sparse_network(n, s, point["k"], rng, weights=kind)
    return families.rescale(net, W=1.0)


def generate(point: dict, rng):
    """The target network and, per inner seed, one stream of ``max(sample_sizes)`` uniform cube indices.

    The network and each seed's sample draw from their own streams, so adding a seed or a
    degree changes nothing else. Samples of size ``m`` are the first ``m`` indices (nested).
    """
    if point["kind"] == "proof":
        return {}
    base = int(rng.integers(0, 2**63 - 1))
    out = network_arrays(target_network(point, derive_rng(base, "network")), "net")
    n, m_max = point["n"], max(point["sample_sizes"])
    dtype = np.uint16 if n <= 16 else np.uint32
    out["samples"] = np.stack(
        [derive_rng(base, "sample", i).integers(0, 2**n, size=m_max).astype(dtype) for i in range(point["seeds"])]
    )
    return out


# ---------------------------------------------------------------------------
# formulas of the proof (log space)
# ---------------------------------------------------------------------------


def lemma10_ratio(log_omr, ell, n, s, k, W, B, C=None):
    """Lemma 10's expression at ``1 - rho = exp(log_omr)`` divided by ``eps/3``, ``eps = exp(-ell)``.

    ``C`` is Lemma 10's hidden constant (default :data:`LEMMA10_C`, read at call time).

    ``3 C sqrt(1-rho) (k^4 W^2 log^2(ns/(1-rho)) + k^3 B^2 sqrt(log s)) / eps`` (natural logs), evaluated
    as ``3 C exp(log_omr/2 + ell) (...)`` so that tiny ``eps`` and ``1 - rho`` do not underflow.
    """
    C = LEMMA10_C if C is None else C
    log_omr, ell = np.asarray(log_omr, dtype=float), np.asarray(ell, dtype=float)
    inner = k**4 * W**2 * (np.log(n * s) - log_omr) ** 2 + k**3 * B**2 * np.sqrt(np.log(s))
    return 3.0 * C * np.exp(log_omr / 2.0 + ell) * inner


def printed_log_one_minus_rho(ell, n, s, k, W, B, c=1.0):
    """``log(1 - rho)`` for the proof's ``1 - rho = c eps^2 min{log(knsW^2/eps)/(k^8W^4 log^4(ns)), 1/(k^6B^4 log s)}``.

    A fraction with a zero denominator is an absent constraint (``+inf``). ``eps = exp(-ell)``. Where the printed
    ``1 - rho`` is ``<= 0`` (``knsW^2 <= eps``) there is no printed ``rho``: the value is ``-inf`` or NaN, silently.
    """
    ell = np.asarray(ell, dtype=float)
    den1, den2 = k**8 * W**4 * np.log(n * s) ** 4, k**6 * B**4 * np.log(s)
    with np.errstate(divide="ignore", invalid="ignore"):
        first = np.where(den1 > 0, (np.log(k * n * s * W**2) + ell) / den1, np.inf)
        second = 1.0 / den2 if den2 > 0 else np.inf
        return np.log(c) - 2.0 * ell + np.log(np.minimum(first, second))


def clamped_log_one_minus_rho(ell, n, s, k, W, B, c=1.0):
    """``log(1 - rho)`` for the clamped choice ``1 - rho = min{1, c eps^2 min{max(1, log(knsW^2/eps))/(k^8W^4
    log^4(ns)), 1/(k^6B^4 log s)}}`` (in ``(0, 1]``, so ``rho`` in ``[0, 1)``; the printed ``1 - rho`` can be ``<= 0``
    when ``knsW^2 < eps`` or ``> 2``). ``eps = exp(-ell)``.
    """
    ell = np.asarray(ell, dtype=float)
    den1, den2 = k**8 * W**4 * np.log(n * s) ** 4, k**6 * B**4 * np.log(s)
    with np.errstate(divide="ignore", invalid="ignore"):
        first = np.where(den1 > 0, np.maximum(1.0, np.log(k * n * s * W**2) + ell) / den1, np.inf)
    second = 1.0 / den2 if den2 > 0 else np.inf
    return np.minimum(0.0, np.log(c) - 2.0 * ell + np.log(np.minimum(first, second)))


def corrected_log_one_minus_rho(ell, n, s, k, W, B):
    r"""``log(1 - rho*)``: a ``1 - rho`` for which Lemma 10's expression (constant 1) is ``<= eps/3``.

    ``1 - rho* = min{eps^2/(36 k^8 W^4 Lambda^4), eps^2/(36 k^6 B^4 log s), e^{-4}}`` with
    ``Lambda = max(27, 2 log(ns) + 4 log(6 k^4 W^2/eps))`` (absent terms are ``+inf``).

    Why: the bias term is ``sqrt(1-rho) k^3 B^2 sqrt(log s) <= eps/6`` directly. For the
    weight term, ``f(x) = sqrt(x) log^2(ns/x)`` increases on ``(0, ns e^{-4}]``. If
    ``x_w = eps^2/(36 k^8 W^4 Lambda^4) <= ns e^{-4}``, then ``k^4 W^2 f(1-rho*) <= k^4 W^2 f(x_w)
    = (eps/6)(log(ns/x_w)/Lambda)^2`` and ``4 <= log(ns/x_w) = a + 4 log Lambda <= Lambda/2 + Lambda/2``
    with ``a = log(ns) + 2 log(6 k^4 W^2/eps) <= Lambda/2`` and ``4 log Lambda <= Lambda/2`` (``Lambda >= 27``).
    Otherwise ``k^4 W^2 < eps e^2/(6 Lambda^2 sqrt(ns))`` and ``k^4 W^2 f(1-rho*) <= k^4 W^2 f(ns e^{-4}) =
    16 e^{-2} sqrt(ns) k^4 W^2 < 16 eps/(6 Lambda^2) < eps/6``. So the weight term is ``<= eps/6`` too.
    ``Lambda = Theta(log(nskW/eps))``: Theorem 8's ``log(ns)`` becomes ``log(nskW/eps)``.
    """
    ell = np.asarray(ell, dtype=float)
    terms = [np.full(ell.shape, -4.0)]
    if k * W > 0:
        lam = np.maximum(LAMBDA_MIN, 2 * np.log(n * s) + 4 * (np.log(6 * k**4 * W**2) + ell))
        terms.append(-2 * ell - np.log(36.0) - np.log(k**8 * W**4) - 4 * np.log(lam))
    if B > 0 and s > 1:
        terms.append(-2 * ell - np.log(36.0) - np.log(k**6 * B**4 * np.log(s)))
    return np.minimum.reduce(terms)


def tail_chain(omr):
    """For ``d = ceil(1/(1-rho))``: ``d``, ``d(1-rho)``, ``1 - rho^d`` (``rho^d = exp(d log1p(-(1-rho)))``)."""
    omr = np.asarray(omr, dtype=float)
    d = np.ceil(1.0 / omr)
    with np.errstate(divide="ignore"):  # 1 - rho = 1: rho^d = 0
        return d, d * omr, -np.expm1(d * np.log1p(-omr))


# ---------------------------------------------------------------------------
# measurements
# ---------------------------------------------------------------------------


def degree_needed(weights, eps: float, relative: bool = False) -> int:
    """Smallest ``d`` whose floor ``(1/2) sum_{|T|>d} fhat(T)^2`` is at most ``eps`` (exact, from level weights).

    With ``relative=True`` the floor is compared with ``eps`` times the trivial loss
    ``(1/2) Var(f) = (1/2) sum_{T != {}} fhat(T)^2`` (the loss of predicting the mean).
    """
    weights = np.asarray(weights, dtype=float)
    tails = 0.5 * weights[::-1].cumsum()[::-1]  # tails[t] = (1/2) sum_{level >= t}
    limit = eps * 0.5 * float(weights[1:].sum()) if relative else eps
    for d in range(weights.size):
        if d + 1 >= weights.size or tails[d + 1] <= limit:
            return d
    return weights.size - 1


def _degree_or_inf(eps, n, s, k, W, B) -> float:
    """Theorem 8's printed degree, or ``inf`` where it exceeds float64 (an ``eps`` near 0: a relative one when the
    trivial loss is a rounding residue, the rho table's smallest): larger than any degree its checks compare or use."""
    try:
        return float(bounds.theorem8_degree(eps, n, s, k, W, B))
    except FloatOverflowError:
        return float("inf")


def _label(point: dict) -> str:
    if point["target"] == "parity":
        return f"parity p={point['p']}"
    if point["target"] == "dense":
        return "dense (k=s)"
    return f"{point['target']} k={point['k']}"


def _run_target(point: dict, data: dict):
    net = network_from_arrays(data, "net")
    n = point["n"]
    values = net.truth_table()
    weights = analysis.level_weights(values)
    k, W, B, s = max(1, net.max_active()), net.scale_W(), net.scale_B(), net.n_neurons
    kind = "sparse" if point["target"] not in ("dense", "parity") else point["target"]
    meta = dict(target=_label(point), kind=kind, n=n, s=s, k=k, W=W, B=B)
    X_cube = hypercube(n)
    trivial = 0.5 * float(values.var())
    rows = []
    for seed, stream in enumerate(data["samples"]):
        for m in point["sample_sizes"]:
            idx = stream[:m].astype(np.int64)
            for d in point["degrees"]:
                floor = 0.5 * float(weights[d + 1 :].sum())
                model = LowDegreeRegressor(degree=d).fit(X_cube[idx], values[idx])
                error = float(model.exact_test_error(values))
                features = monomial_count(n, d)
                rows.append(
                    dict(
                        **meta,
                        degree=d,
                        m=m,
                        seed=seed,
                        features=features,
                        test_error=error,
                        floor=floor,
                        excess=max(error - floor, 0.0),
                        variance_term=features / m,
                        trivial=trivial,
                    )
                )
    eps, rel = point["eps"], point["relative_eps"]
    C_H = float(bounds.class_sup_bound(n, k, W, B))
    # Lemma 7's population step: least squares on the whole cube is the degree-d truncation (loss (1/2) tail)
    projection = [
        abs(
            float(LowDegreeRegressor(degree=d).fit(X_cube, values).exact_test_error(values))
            - 0.5 * float(weights[d + 1 :].sum())
        )
        for d in point["degrees"]
        if monomial_count(n, d) <= PROJECTION_MAX_FEATURES
    ]
    AS = float(np.arange(n + 1) @ weights)
    tails = weights[::-1].cumsum()[::-1]  # tails[t] = sum_{|T| >= t} hhat(T)^2
    over = [float(tails[d + 1] * (d + 1) / AS) if AS > 0 else (0.0 if tails[d + 1] <= 0 else np.inf) for d in range(n)]
    d_sharp = int(bounds.theorem8_sharp_degree(eps, k, W))
    active = np.concatenate([(pre > 0).sum(axis=1) for pre in net.cube_preactivations()]).astype(np.float64)
    second = float(np.mean(active**2))
    need = dict(
        **meta,
        eps=eps,
        relative_eps=rel,
        trivial_loss=trivial,
        degree_needed_exact=degree_needed(weights, eps / 2),
        degree_needed_relative=degree_needed(weights, rel, relative=True),
        degree_prescribed=float(bounds.theorem8_degree(eps, n, s, k, W, B)),
        degree_prescribed_relative=_degree_or_inf(rel * trivial, n, s, k, W, B) if trivial > 0 else float("inf"),
        delta=point["delta"],
        max_abs_h=float(np.abs(values).max()),
        C_H=C_H,
        projection_error=max(projection) if projection else float("nan"),
        AS=AS,
        tail_times_d_over_AS=max(over) if over else 0.0,
        degree_sharp=d_sharp,
        tail_at_sharp=float(tails[d_sharp + 1]) if d_sharp + 1 <= n else 0.0,
        active_second_moment=second,
        ratio_active=AS / (4 * W * W * second) if W > 0 and second > 0 else (0.0 if AS == 0 else np.inf),
    )
    out = {"theorem8-curves": pd.DataFrame(rows), "theorem8-targets": pd.DataFrame([need])}
    return with_worst(out, [worst_ch(need["target"], net, values, n, C_H)])


def worst_ch(target: str, net, values, n: int, C_H: float) -> dict:
    """The instance of ``max_x |h(x)| <= C_H`` (measure ``"sup-h-over-C_H"``) of one target, with the raw data of its
    certificate.

    Parameters
    ----------
    target : str
        The target's name.
    net : SparseReLUNetwork
        The target.
    values : ndarray
        Its truth table (hypercube order).
    n : int
        Input dimension.
    C_H : float
        The bound ``k(W sqrt(n) + B)``.

    Returns
    -------
    dict
        The :func:`sparseact.claims._failures.worst_instance` row (excess: ``|h(x)| / C_H``; data: the network
        ``u, W, b``, the first cube point ``x`` maximising ``|h|``, ``top = |h(x)|``, ``C_H`` and ``n``).
    """
    top = float(np.abs(values).max())
    with np.errstate(divide="ignore", invalid="ignore"):
        ratio = float(np.float64(top) / np.float64(C_H))
    j = int(np.argmax(np.abs(values)))
    x = [1 - 2 * ((j >> i) & 1) for i in range(n)]
    return worst_instance(
        "sup-h-over-C_H", ratio, f"{target}, x = {tuple(x)}", u=net.u, W=net.W, b=net.b, x=x, top=top, C_H=C_H, n=n
    )


def _sharp_proof_rows(ells):
    """Exact formula rows of the proof of Theorem 8 through lemma9-sharp, on the wide grid (log space).

    ``theorem8-rho-sharp``: ``min(2 k^2 W^2 (1-rho), 4 k^2 W^2) / (eps/3)`` at the clamped ``1 - rho``
    (:func:`clamped_log_one_minus_rho`, in ``(0, 1]``) with ``c = C_RHO_SHARP`` on the whole grid, ``ns >= 2``, ``W > 0``;
    ``theorem8-degree-dominates``: ``(4 k^2 W^2/eps) / (C_THEOREM8_DEGREE * d_printed + 1)`` (``<= 1`` means the
    printed degree with that Theta constant is at least the degree our proof needs, ``d + 1 >= 4 k^2 W^2/eps``);
    ``theorem8-monomials``: ``sum_{i <= d} C(n, i) / (2 n^d)`` for ``2 <= n <= 64``, ``0 <= d <= 64`` (exact integers).
    """
    rho_rows, degree_rows = [], []
    for k in WIDE_K:
        for n_ in WIDE_N:
            for s_ in WIDE_S:
                if k > s_ or n_ * s_ < 2:
                    continue
                for W in WIDE_W:
                    for B in WIDE_B:
                        if W > 0:
                            lomr = clamped_log_one_minus_rho(ells, n_, s_, k, W, B, c=C_RHO_SHARP)
                            ok = np.isfinite(lomr)
                            log_ns = np.minimum(np.log(2 * k * k * W * W) + lomr, np.log(4 * k * k * W * W))
                            ratio = np.exp(log_ns + ells + np.log(3.0))  # NS bound / (eps/3), eps = exp(-ell)
                            if ok.any():
                                j = int(np.argmax(np.where(ok, ratio, -np.inf)))
                                rho_rows.append(
                                    dict(
                                        n=n_,
                                        s=s_,
                                        k=k,
                                        W=W,
                                        B=B,
                                        ell=float(ells[j]),
                                        log_omr=float(lomr[j]),
                                        ratio=float(ratio[j]),
                                    )
                                )
                        # log of C d_printed and of 4 k^2 W^2 / eps (d_printed at constant 1, natural logs)
                        with np.errstate(divide="ignore"):
                            log_d = (
                                np.logaddexp(
                                    np.log(k**8 * W**4 * math.log(n_ * s_) ** 4) if W > 0 else -np.inf,
                                    np.log(k**6 * B**4 * math.log(s_)) if B > 0 and s_ > 1 else -np.inf,
                                )
                                + 2 * ells
                            )
                            log_need = np.log(4 * k * k * W * W) + ells if W > 0 else np.full(ells.shape, -np.inf)
                        ratio = np.exp(log_need - np.logaddexp(np.log(C_THEOREM8_DEGREE) + log_d, 0.0))
                        j = int(np.argmax(ratio))
                        degree_rows.append(dict(n=n_, s=s_, k=k, W=W, B=B, ell=float(ells[j]), ratio=float(ratio[j])))
    monomials = [
        dict(
            n=n_,
            d=d,
            count=sum(math.comb(n_, i) for i in range(d + 1)),
            bound=2 * n_**d,
            ratio=float(sum(math.comb(n_, i) for i in range(d + 1)) / (2 * n_**d)),
        )
        for n_ in range(2, 65)
        for d in range(0, 65)
    ]
    return {
        "theorem8-rho-sharp": pd.DataFrame(rho_rows),
        "theorem8-degree-dominates": pd.DataFrame(degree_rows),
        "theorem8-monomials": pd.DataFrame(monomials),
    }


def _tail_tables(rho_table, n: int, s: int):
    """The tail chain ``1 <= d(1-rho) <= 3(1-rho^d)``: at ``d = ceil(1/(1-rho))`` over a grid of ``1 - rho`` and the
    proof's ``1 - rho`` of ``rho_table``, and at the proof's own ``d`` and ``1 - rho``."""
    # (tail): d = ceil(1/(1-rho)) over 1 - rho in (0, 1] (rho in [0, 1)) and at the proof's own 1 - rho.
    omr = np.concatenate([np.linspace(1.0, 1.0 / OMR_GRID_POINTS, OMR_GRID_POINTS), 10.0 ** -np.arange(1, 16)])
    source = ["grid"] * omr.size
    for _, row in rho_table.iterrows():
        for column, label in (("log_omr_printed", "printed 1-rho, c=1"), ("log_omr_corrected", "corrected 1-rho*")):
            value = float(np.exp(row[column]))
            if 0 < value <= 1 and value > 1e-300 and np.isfinite(1.0 / value) and 1.0 / value < 2**53:
                omr = np.append(omr, value)
                source.append(f"{label}, k={int(row['k'])}, B={row['B']:g}, eps={row['eps']:.3g}")
    d, x, one_minus_rho_d = tail_chain(omr)
    tail = pd.DataFrame(
        dict(
            source=source,
            one_minus_rho=omr,
            d=d,
            d_one_minus_rho=x,
            one_minus_rho_d=one_minus_rho_d,
            three_one_minus_rho_d=3.0 * one_minus_rho_d,
        )
    )
    # The chain at the proof's own d and rho: d = ceil(Theorem 8's degree) (Theta constant 1), printed 1 - rho (c = 1).
    own = []
    for _, row in rho_table.iterrows():
        value = float(np.exp(row["log_omr_printed"]))
        d_own = float(np.ceil(_degree_or_inf(row["eps"], n, s, int(row["k"]), 1.0, row["B"])))
        if 0 < value <= 1 and 1 <= d_own < 2**53:
            one_minus_rho_d_own = float(-np.expm1(d_own * np.log1p(-value)))
            own.append(
                dict(
                    source=f"printed d and 1-rho, k={int(row['k'])}, B={row['B']:g}, eps={row['eps']:.3g}",
                    k=int(row["k"]),
                    B=row["B"],
                    eps=row["eps"],
                    one_minus_rho=value,
                    d=d_own,
                    d_one_minus_rho=d_own * value,
                    one_minus_rho_d=one_minus_rho_d_own,
                    three_one_minus_rho_d=3.0 * one_minus_rho_d_own,
                )
            )
    own = pd.DataFrame(
        own,
        columns=[
            "source",
            "k",
            "B",
            "eps",
            "one_minus_rho",
            "d",
            "d_one_minus_rho",
            "one_minus_rho_d",
            "three_one_minus_rho_d",
        ],
    )
    return tail, own


def _run_proof(point: dict):
    n, s, eps = point["n"], point["s"], point["eps"]
    ell_eps = float(-np.log(eps))
    ells = np.array(sorted(set(ELL_GRID) | {ell_eps}))
    # (rho): the printed choice (c = 1 and the certificate's c) and the corrected one, per k, W = 1, B in {0, 1}.
    rows = []
    for k in (k for k in PROOF_K if k <= s):
        for B in (0.0, 1.0):
            for ell in ells:
                printed = float(printed_log_one_minus_rho(ell, n, s, k, 1.0, B))
                tiny_c = float(printed_log_one_minus_rho(ell, n, s, k, 1.0, B, c=TINY_C))
                corrected = float(corrected_log_one_minus_rho(ell, n, s, k, 1.0, B))
                rows.append(
                    dict(
                        n=n,
                        s=s,
                        k=k,
                        W=1.0,
                        B=B,
                        ell=float(ell),
                        eps=float(np.exp(-ell)),
                        log_omr_printed=printed,
                        ratio_printed=float(lemma10_ratio(printed, ell, n, s, k, 1.0, B)),
                        ratio_printed_tiny_c=float(lemma10_ratio(tiny_c, ell, n, s, k, 1.0, B)),
                        log_omr_corrected=corrected,
                        ratio_corrected=float(lemma10_ratio(corrected, ell, n, s, k, 1.0, B)),
                    )
                )
    rho_table = pd.DataFrame(rows)
    # For each c: the largest eps (smallest ell) on a fine grid at which the printed choice gives ratio > 1.
    fine = np.linspace(0.0, 700.0, 70001)
    first = []
    for c in C_VALUES:
        ratio = lemma10_ratio(printed_log_one_minus_rho(fine, n, s, 1, 1.0, 1.0, c=c), fine, n, s, 1, 1.0, 1.0)
        bad = np.flatnonzero(ratio > 1.0)
        first.append(
            dict(
                c=c,
                n=n,
                s=s,
                k=1,
                W=1.0,
                B=1.0,
                ell_first_fail=float(fine[bad[0]]) if bad.size else np.nan,
                ratio_at_eps=float(
                    lemma10_ratio(
                        printed_log_one_minus_rho(ell_eps, n, s, 1, 1.0, 1.0, c=c), ell_eps, n, s, 1, 1.0, 1.0
                    )
                ),
            )
        )
    # Corrected 1 - rho* on a wide grid of (n, s, k, W, B, eps): worst ratio per k.
    wide = []
    for k in WIDE_K:
        worst = dict(k=k, ratio=-np.inf)
        for n_ in WIDE_N:
            for s_ in WIDE_S:
                if k > s_:
                    continue
                for W in WIDE_W:
                    for B in WIDE_B:
                        ratio = lemma10_ratio(corrected_log_one_minus_rho(ells, n_, s_, k, W, B), ells, n_, s_, k, W, B)
                        j = int(np.argmax(ratio))
                        if ratio[j] > worst["ratio"]:
                            worst = dict(k=k, ratio=float(ratio[j]), n=n_, s=s_, W=W, B=B, ell=float(ells[j]))
        wide.append(worst)
    tail, own = _tail_tables(rho_table, n, s)
    sharp = _sharp_proof_rows(ells)
    return {
        "theorem8-rho-choice": rho_table,
        "theorem8-rho-first-fail": pd.DataFrame(first),
        "theorem8-rho-corrected-wide": pd.DataFrame(wide),
        "theorem8-tail-step": tail,
        "theorem8-tail-printed": own,
        **sharp,
    }


def run(point: dict, data: dict, rng):
    if point["kind"] == "proof":
        return _run_proof(point)
    return _run_target(point, data)
