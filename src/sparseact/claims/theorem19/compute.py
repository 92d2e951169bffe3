"""Data and runs stages of the claim ``theorem19``: ``generate(point, rng)`` and ``run(point, data, rng)``.

The grid and what the claim checks: :mod:`sparseact.claims.theorem19`.
"""

from __future__ import annotations

import itertools
import math
import types

import numpy as np
import pandas as pd

from sparseact import complexity as cx
from sparseact.claims._failures import instance_json, with_worst, worst_instance
from sparseact.claims.theorem19 import RANGE_EXACT_M
from sparseact.claims.theorem19 import steps as st
from sparseact.complexity import paper_bounds, rademacher_exact_networks, rademacher_lower_bound, sample_distribution
from sparseact.complexity.exact import network_objective
from sparseact.complexity.lower import sup_lower_bounds
from sparseact.complexity.simplex import regular_simplex, simplex_lower_bound, simplex_networks
from sparseact.networks import SparseReLUNetwork

#: Slack of exact comparisons (solver tolerance of the exact sups is ~1e-9 relative).
EXACT_RTOL = 1e-6
#: Largest (lower bound - exact upper bracket) or (exact - proof quantity) read as agreement.
ORDER_TOL = 1e-6

#: Distributions of the ``steps`` point's cube samples (those of the ``exact`` points); a Gaussian sample is added.
STEP_DISTRIBUTIONS = ("uniform", "clustered")
#: (n, m) of the Gaussian point sets (general position almost surely) on which Cover's count is checked.
COVER_SETS = ((1, 6), (2, 7), (3, 7), (4, 8))
#: Printed formulas, as certificate expressions.
EQ1_EXPR = "(W*R+B)*sqrt(s*n*log(m*(R+B)))/sqrt(m)"
EQ15_EXPR = "(W*R+B)*sqrt(s*n*k*log(k*m*(R+B)))/sqrt(m)"
CONJ20_EXPR = "(W*R+B)*sqrt(s*k)/sqrt(m)"
#: The corrected (1): log(m(R+B)) replaced by max(1, log(m(R+B))) (unchanged where m(R+B) >= e).
EQ1_CORRECTED_EXPR = "(W*R+B)*sqrt(s*n*max(1, log(m*(R+B))))/sqrt(m)"
#: theorem19-uniform, the all-parameter form of (1) and (15) the graph proves: for every m, n >= 1, s >= k >= 1,
#: W, B, R >= 0.
UNIFORM_EXPR = "(1+sqrt(2))*(W*R+B)*sqrt(s*n*k*log(e*m))/sqrt(m)"
BOUND_EXPRS = {
    "eq1": EQ1_EXPR,
    "eq15": EQ15_EXPR,
    "conj20": CONJ20_EXPR,
    "eq1_corrected": EQ1_CORRECTED_EXPR,
    "uniform": UNIFORM_EXPR,
}
#: Bounds whose straddling intervals are re-estimated with ``confirm_zeta`` sign vectors.
CONFIRM_BOUNDS = ("eq1", "eq15")


# ---------------------------------------------------------------------------
# data
# ---------------------------------------------------------------------------


def generate(point: dict, rng) -> dict:
    kind = point["kind"]
    if kind == "sweep":
        X, _ = sample_distribution(point["distribution"], point["m"], point["n"], rng)
    elif kind == "dimension":
        X, _ = sample_distribution("uniform", point["m"], point["n"], rng)
        X = X / math.sqrt(point["n"])  # R = 1
    elif kind == "conj20" and point["distribution"] in ("simplex", "simplex-exact"):
        X = regular_simplex(point["m"])
    elif kind == "range":  # on the unit sphere: R = 1 and every point at the largest norm
        X = rng.standard_normal((point["m"], point["n"]))
        X = X / np.linalg.norm(X, axis=1, keepdims=True)
    elif kind in ("exact", "conj20"):
        X, _ = sample_distribution(point["distribution"], point["m"], point["n"], rng)
    elif kind == "steps":  # the exact samples' distributions, a Gaussian sample, and Cover's general-position sets
        out = {}
        for dist in STEP_DISTRIBUTIONS:
            out[f"X_{dist}"], _ = sample_distribution(dist, point["m"], point["n"], rng)
        out["X_gaussian"] = rng.standard_normal((point["m"], point["n"]))
        for n, m in COVER_SETS:
            out[f"cover_{n}_{m}"] = rng.standard_normal((m, n))
        out["hoeffding_seed"] = np.asarray(rng.integers(0, 2**31))
        return out
    else:  # scale: one Gaussian sample of max norm 1, rescaled to each R in the runs stage
        X = rng.standard_normal((point["m"], point["n"]))
        X = X / np.linalg.norm(X, axis=1).max()
    return {"X": np.asarray(X, dtype=np.float64)}


# ---------------------------------------------------------------------------
# runs
# ---------------------------------------------------------------------------


def _bounds(m, n, s, k, W, B, R) -> dict:
    pb = paper_bounds(m, n, s, k, W, B, R)
    return {key: pb[key] for key in ("eq1", "eq15", "conj20", "dense")}


def _straddles(low: float, high: float, estimate: float, bounds: dict) -> bool:
    """Whether some bound lies inside the interval (or between its low end and the estimate)."""
    return any(math.isfinite(v) and (low <= v <= high or estimate > v >= low) for v in bounds.values())


def rademacher_data(X, exact, s, k, W, B, bound: str, R: float) -> dict:
    """The raw data of a ``rademacher_lower_bound`` certificate (all 2^m sign vectors, exact networks) against a
    printed bound: the sample ``X``, the sign vectors ``zetas``, one network (``u, W, b``) each, the
    class ``s, k, W, B``, ``R``, the ``bound``'s name and both sides as measured (``lhs_value``, ``rhs_value``).

    ``exact`` is a :class:`sparseact.complexity.exact.ExactNetworks` of the sample ``X``.
    """
    m, n = X.shape
    nets = exact.networks
    # the value as the verifier computes it: mean over zeta of mean_i zeta_i h_zeta(x_i)
    lhs_value = float(
        np.mean(
            [
                np.mean(z * (np.maximum(X @ net.W.T - net.b, 0.0) @ net.u))
                for z, net in zip(exact.zetas, nets, strict=True)
            ]
        )
    )
    variables = dict(W=W, R=R, B=B, s=s, n=n, m=m, k=k)
    return dict(
        X=X,
        zetas=exact.zetas,
        networks=[dict(u=net.u, W=net.W, b=net.b) for net in nets],
        **variables,
        bound=bound,
        lhs_value=lhs_value,
        rhs_value=bound_value(bound, variables),
    )


def bound_value(bound: str, variables: dict) -> float:
    """The formula ``BOUND_EXPRS[bound]`` at ``variables`` (``W, R, B, s, n, m, k``), as its certificates state it."""
    return float(eval(BOUND_EXPRS[bound], {"sqrt": math.sqrt, "log": math.log, "max": max}, variables))


def worst_order(X, zetas, s, k, W, B, pairs, instances) -> dict:
    """The worst instance of ``value <= limit + ORDER_TOL`` over the sign vectors of one sample (measure
    ``"estimator-order"``: no network of the class above the exact sup's upper bracket or the proof's quantity), with
    the raw data of its certificate.

    Parameters
    ----------
    X : ndarray, shape (m, n)
        The sample.
    zetas : list of ndarray, shape (m,)
        The sign vectors.
    s, k, W, B
        The class ``H_{n,s,k}^{W,B}``.
    pairs : list of list of (SparseReLUNetwork, float, float, str)
        Per sign vector, ``(network, value, limit, label)``: a network of the class, its value ``(1/m) sum_i zeta_i
        h(x_i)``, the recorded number it must not exceed (the exact sup's certified upper bracket, or the proof's
        quantity) and what that number is.
    instances : list of str
        Per sign vector, the sample and the sign vector, for the counterexample.

    Returns
    -------
    dict
        The :func:`sparseact.claims._failures.worst_instance` row of the first pair with the largest
        ``value - limit - ORDER_TOL`` (data: ``X``, the sign vector ``zeta``, the network ``u, W, b``, the class,
        ``value``, ``limit``, ``label`` and ``lhs_value``, the network's value as the verifier computes it).
    """
    best = None
    for zeta, row, instance in zip(zetas, pairs, instances, strict=True):
        for network, value, limit, label in row:
            if best is None or value - limit - ORDER_TOL > best[0]:
                best = (value - limit - ORDER_TOL, zeta, network, value, limit, label, instance)
    excess, zeta, network, value, limit, label, instance = best
    lhs_value = float(np.mean(zeta * (np.maximum(X @ network.W.T - network.b, 0.0) @ network.u)))
    return worst_instance(
        "estimator-order",
        excess,
        instance,
        X=X,
        zeta=zeta,
        network=dict(u=network.u, W=network.W, b=network.b),
        s=s,
        k=k,
        W=W,
        B=B,
        value=value,
        limit=limit,
        label=label,
        lhs_value=lhs_value,
    )


def _run_sweep(point, X, rng):
    m, n = X.shape
    s, k, W, B = point["s"], point["k"], point["W"], point["B"]
    R = float(np.linalg.norm(X, axis=1).max())
    bounds = _bounds(m, n, s, k, W, B, R)
    # re-estimate when the interval straddles a bound the theorem asserts ((1), (15)); Conjecture 20's (16)
    # is not re-estimated: a lower-bound interval can neither prove it nor, without an exact certificate, refute it
    checked = {key: bounds[key] for key in CONFIRM_BOUNDS if key != "eq1" or k == 1}
    est = rademacher_lower_bound(X, s, k, W, B, point["n_zeta"], rng)
    n_zeta, confirmed = point["n_zeta"], False
    if point.get("confirm_zeta") and _straddles(est.ci_low, est.ci_high, est.estimate, checked):
        est = rademacher_lower_bound(X, s, k, W, B, point["confirm_zeta"], rng)
        n_zeta, confirmed = point["confirm_zeta"], True
    row = dict(
        distribution=point.get("distribution", "uniform"),
        n=n,
        m=m,
        s=s,
        k=k,
        cls=point.get("cls", "sparse"),
        R=R,
        W=W,
        B=B,
        estimate=est.estimate,
        ci_low=est.ci_low,
        ci_high=est.ci_high,
        n_zeta=n_zeta,
        confirmed=confirmed,
        **bounds,
    )
    return pd.DataFrame([row])


def _run_exact(point, X, rng):
    m, n = X.shape
    s, k, W, B = point["s"], point["k"], point["W"], point["B"]
    R = float(np.linalg.norm(X, axis=1).max())
    exact = cx.rademacher_exact_networks(X, s, k, W, B)  # every sign vector, one optimal network each
    zetas = 1.0 - 2.0 * rng.integers(0, 2, size=(point["zetas"], m))
    lows = cx.sup_lower_bounds(X, zetas, s, k, W, B, rng)
    lower_gap, proof_gap, quality, pairs, instances = -np.inf, -np.inf, np.inf, [], []
    for zeta, low in zip(zetas, lows, strict=True):
        i = exact.index(zeta)
        proof = cx.proof_intermediate_quantity(X, zeta, s, k, W, B, cells=exact.cells)
        lower_gap = max(lower_gap, low.value - exact.uppers[i])
        proof_gap = max(proof_gap, exact.values[i] - proof)
        pairs.append(
            [
                (low.network, low.value, exact.uppers[i], "upper bracket of the exact sup"),
                (exact.networks[i], exact.values[i], proof, "proof's quantity (3)-(13)"),
            ]
        )
        instances.append(f"{point['distribution']} sample n={n}, m={m}, s={s}, k={k}, zeta={zeta.astype(int).tolist()}")
        if exact.values[i] > 0:
            quality = min(quality, low.value / exact.values[i])
    found = [worst_order(X, zetas, s, k, W, B, pairs, instances)]
    bounds = _bounds(m, n, s, k, W, B, R)
    certificates = []
    for key in ("eq1", "eq15", "conj20"):
        value = bounds[key]
        if (key != "eq1" or k == 1) and math.isfinite(value) and exact.exact > value * (1 + EXACT_RTOL):
            certificates.append(dict(bound=key, R=R, data=instance_json(rademacher_data(X, exact, s, k, W, B, key, R))))
    # the k-sparse extension's count: sum_j |I_j| <= k m with I_j = {i : <w_j, x_i> - b_j > 0}, on every optimal network
    cells_sum = max(int(np.count_nonzero(X @ net.W.T - net.b > 0)) for net in exact.networks)
    row = dict(
        distribution=point["distribution"],
        n=n,
        m=m,
        s=s,
        k=k,
        R=R,
        W=W,
        B=B,
        exact=exact.exact,
        max_cells_sum=cells_sum,
        networks=len(exact.networks),
        exact_upper=float(exact.uppers.mean()),
        max_lower_minus_exact=lower_gap,
        max_exact_minus_proof=proof_gap,
        min_lower_over_exact=quality,
        **bounds,
        **{f"above_{key}": any(c["bound"] == key for c in certificates) for key in ("eq1", "eq15", "conj20")},
    )
    return pd.DataFrame([row]), certificates, found


def _run_range(point, X):
    """Exact ``R_H(S)`` (``m <= RANGE_EXACT_M``) and the proof's quantity, an upper bound, for each ``s`` (``k = 1``)
    and ``B``, with (1) as printed and its scale-free floor ``(WR+B) sqrt(sn/m)`` (the value of (1) with the log
    floored at 1, below (1) wherever ``m(R+B) >= e``)."""
    m, n = X.shape
    W = point["W"]
    R = float(np.linalg.norm(X, axis=1).max())
    rows = []
    for B in point["B_values"]:
        classes = [(s, 1) for s in point["s_values"]]
        for br in cx.rademacher_brackets(X, classes, W, B, exact=m <= RANGE_EXACT_M):
            bounds = _bounds(m, n, br.s, 1, W, B, R)
            upper = br.proof_upper if math.isnan(br.exact_upper) else min(br.proof_upper, br.exact_upper)
            rows.append(
                dict(
                    n=n,
                    m=m,
                    s=br.s,
                    k=1,
                    R=R,
                    W=W,
                    B=B,
                    exact=br.exact,
                    exact_upper=br.exact_upper,
                    proof_upper=br.proof_upper,
                    upper=upper,
                    eq1=bounds["eq1"],
                    eq1_floor=(W * R + B) * math.sqrt(br.s * n / m),
                    conj20=bounds["conj20"],
                )
            )
    return pd.DataFrame(rows)


def _run_scale(point, X):
    """Exact ``R_H`` of ``R X`` for each ``R`` (``B = 0``, ``s = k = 1``) from one exact computation on ``X``.

    With ``B = 0`` the optimal network of each ``zeta`` on ``X`` (``||x|| <= 1``) is optimal on
    ``R X`` too (patterns and constraints are invariant, the objective scales by ``R``):
    ``R_H(R S) = R R_H(S)``; each certificate re-evaluates the networks on ``R X`` itself.
    """
    m, n = X.shape
    W = point["W"]
    unit = rademacher_exact_networks(X, 1, 1, W, 0.0)
    rows, certificates, found = [], [], []
    for R_target in point["R_values"]:
        Xr = X * R_target
        R = float(np.linalg.norm(Xr, axis=1).max())
        values = np.array([np.mean(z * net(Xr)) for z, net in zip(unit.zetas, unit.networks, strict=True)])
        exact = unit._replace(values=values, uppers=unit.uppers * R_target)
        eq1 = _bounds(m, n, 1, 1, W, 0.0, R)["eq1"]
        corrected = bound_value("eq1_corrected", dict(W=W, R=R, B=0.0, s=1, n=n, m=m, k=1))
        if not found or exact.exact / corrected > found[0][0]:  # the R with the largest exact / corrected (1)
            found = [(exact.exact / corrected, f"Gaussian sample m={m}, n={n}, R={R:.6g}, B=0, s=k=1", Xr, exact, R)]
        broken = math.isfinite(eq1) and exact.exact > eq1 * (1 + EXACT_RTOL)
        rows.append(
            dict(
                m=m,
                n=n,
                R=R,
                mR=m * R,
                W=W,
                B=0.0,
                exact=exact.exact,
                exact_upper=float(exact.uppers.mean()),
                eq1=eq1,
                eq1_corrected=corrected,
                above_eq1=broken,
            )
        )
        if broken:
            certificates.append(
                dict(bound="eq1", R=R, data=instance_json(rademacher_data(Xr, exact, 1, 1, W, 0.0, "eq1", R)))
            )
            # (15) at k = 1 is (1): the same networks refute it (by its own formula)
            certificates.append(
                dict(bound="eq15", R=R, data=instance_json(rademacher_data(Xr, exact, 1, 1, W, 0.0, "eq15", R)))
            )
    ratio, where, Xr, exact, R = found[0]
    data = rademacher_data(Xr, exact, 1, 1, W, 0.0, "eq1_corrected", R)
    worst = worst_instance("exact-over-eq1-corrected", ratio, where, exact=exact.exact, **data)
    return pd.DataFrame(rows), certificates, [worst]


def _run_conj20(point, X, rng):
    """An exact lower bound on ``R_H(S)`` from all ``2^m`` sign vectors, one explicit network of the class each.

    For each ``zeta`` with ``zeta_1 = 1`` :func:`sparseact.complexity.lower.sup_lower_bounds` finds a network ``h``
    of ``H_{n,s,k}^{W,B}`` (membership on ``S`` verified); ``-zeta`` gets ``-h`` (``H = -H``), whose value is the
    same. The mean over all ``2^m`` sign vectors of ``(1/m) sum_i zeta_i h_zeta(x_i)`` is a lower bound on ``R_H(S)``
    with no sampling error: above (16) it refutes Conjecture 20 (the certificate is this data).
    """
    m, n = X.shape
    s, k, W, B = point["s"], point["k"], point["W"], point["B"]
    R = float(np.linalg.norm(X, axis=1).max())
    half = np.array([(1.0, *rest) for rest in itertools.product((1.0, -1.0), repeat=m - 1)])
    zetas = np.vstack([half, -half])
    if point["distribution"] == "simplex":  # the explicit two-neuron networks, no search
        nets = simplex_networks(X, zetas, W, B)
        values = np.array([network_objective(net, X, z) for net, z in zip(nets, zetas, strict=True)])
    elif point["distribution"] == "simplex-exact":  # the optimal networks (same sign-vector order as zetas)
        exact = cx.rademacher_exact_networks(X, s, k, W, B)
        nets, values = list(exact.networks), exact.values
    else:
        found = sup_lower_bounds(X, half, s, k, W, B, rng, **CONJ20_SEARCH)
        nets = [r.network for r in found]
        # the search's values are network_objective's, bit for bit; -h at -zeta has the same (two sign flips, exact)
        values = np.array([r.value for r in found] * 2)
    lower = float(values.mean())
    bounds = _bounds(m, n, s, k, W, B, R)
    row = dict(
        distribution=point["distribution"],
        n=n,
        m=m,
        s=s,
        k=k,
        R=R,
        W=W,
        B=B,
        lower=lower,
        closed_form=simplex_lower_bound(m, W, B) if point["distribution"].startswith("simplex") else float("nan"),
        sign_vectors=len(zetas),
        **bounds,
        ratio=lower / bounds["conj20"],
        above_conj20=bool(lower > bounds["conj20"] * (1 + EXACT_RTOL)),
    )
    certificates = []
    if row["above_conj20"]:
        if not point["distribution"].startswith("simplex"):
            nets += [SparseReLUNetwork(-net.u, net.W, net.b) for net in nets]
        exact = types.SimpleNamespace(zetas=zetas, networks=nets)
        certificates.append(
            dict(bound="conj20", R=R, data=instance_json(rademacher_data(X, exact, s, k, W, B, "conj20", R)))
        )
    return pd.DataFrame([row]), certificates, []


def _run_steps(point: dict, data: dict) -> dict:
    """Exact checks of the proof's steps (5)-(14) and of the facts they cite (:mod:`.steps`)."""
    W, B = point["W"], point["B"]
    cover, tails, terms, linear, maximum = [], [], [], [], []
    samples = [(dist, data[f"X_{dist}"]) for dist in (*STEP_DISTRIBUTIONS, "gaussian")]
    for label, X in samples:
        masks = st.cells_of(X, W, B)
        Z = st.all_signs(X.shape[0])
        cover.append(st.cover_rows(X, masks, label))
        tails += st.tail_rows(X, masks, Z, label)
        linear += st.linear_class_rows(X, Z, label)
        maximum += st.maximum_rows(X, masks, Z, label)
        for s in point["s_values"]:
            for k in sorted({k for k in point["k_values"] if k <= s} | {s}):
                terms += st.term_rows(X, masks, Z, s, k, W, B, label)
    for n, m in COVER_SETS:
        X = data[f"cover_{n}_{m}"]
        cover.append(st.cover_rows(X, st.cells_of(X, W, B), f"gaussian n={n} m={m}"))
    fact_rng = np.random.default_rng(int(data["hoeffding_seed"]))
    hoeffding = st.hoeffding_instances(fact_rng)
    contraction = st.contraction_rows(fact_rng)
    eq12 = st.eq12_instance()
    eq7 = st.eq7_instance()
    ties = st.ties_instance()
    fixed = pd.DataFrame(
        [
            dict(
                step="eq12",
                lhs=eq12["lhs"],
                rhs=eq12["rhs"],
                data=instance_json(eq12) if eq12["lhs"] > eq12["rhs"] else "",
            ),
            dict(
                step="eq7",
                lhs=float(eq7["sum_cells"]),
                rhs=float(eq7["m"]),
                data=instance_json(eq7) if eq7["sum_cells"] != eq7["m"] else "",
            ),
            dict(
                step="km",
                lhs=float(eq7["sum_cells"]),
                rhs=float(eq7["m"]),
                data=instance_json(eq7) if eq7["sum_cells"] > eq7["m"] else "",
            ),
            *(
                dict(
                    step=step,
                    lhs=ties[term],
                    rhs=ties[bound],
                    data=instance_json(ties) if ties[term] > ties[bound] else "",
                )
                for step, term, bound in (("eq8-ties", "second", "eq8"), ("eq14-ties", "first", "eq14"))
            ),
        ]
    )
    return {
        "steps_cover": pd.DataFrame(cover),
        "steps_tails": pd.DataFrame(tails),
        "steps_terms": pd.DataFrame(terms),
        "steps_hoeffding": pd.DataFrame(hoeffding),
        "steps_fixed": fixed,
        "steps_contraction": pd.DataFrame(contraction),
        "steps_linear": pd.DataFrame(linear),
        "steps_maximum": pd.DataFrame(maximum),
        "steps_tight": pd.DataFrame(st.tight_rows(W)),
    }


def run(point: dict, data: dict, rng) -> dict:
    kind = point["kind"]
    if kind == "steps":
        return _run_steps(point, data)
    X = data["X"]
    if kind in ("sweep", "dimension"):
        return {kind: _run_sweep(point, X, rng)}
    if kind == "range":
        return {kind: _run_range(point, X)}

    if kind == "conj20":
        table, certificates, found = _run_conj20(point, X, rng)
    else:
        table, certificates, found = _run_exact(point, X, rng) if kind == "exact" else _run_scale(point, X)
    out = {kind: table}
    if certificates:  # the data of a FAIL's certificate (all 2^m sign vectors, one exact network each)
        out["certificates"] = pd.DataFrame(certificates)
    return with_worst(out, found) if found else out


#: The search for one network per sign vector (a valid lower bound whatever it finds).
CONJ20_SEARCH = dict(restarts=1, iterations=3, n_random=2, polish=False)
