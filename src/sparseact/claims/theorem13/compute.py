"""Data and runs stages of the claim ``theorem13``: ``generate(point, rng)`` and ``run(point, data, rng)``.

The grid and what the claim checks: :mod:`sparseact.claims.theorem13`.
"""

from __future__ import annotations

import json
import math

import numpy as np
import pandas as pd

from sparseact import analysis, constructions
from sparseact.combinatorics import monomial_count
from sparseact.cube import hypercube, indices_from_points
from sparseact.learners import LowDegreeRegressor
from sparseact.runtime.datafiles import network_arrays, network_from_arrays, networks_from_arrays

#: Rows per chunk of the cube enumeration (cache-sized blocks of preactivations).
CUBE_CHUNK = 1 << 12
#: The learner gets ``m_d = max(samples, OVERSAMPLING * N_d)`` samples at degree ``d``.
OVERSAMPLING = 3


# ---------------------------------------------------------------------------
# data
# ---------------------------------------------------------------------------


def junta_instances(n: int, p: int, s: int, random_tables: int, include_parity: bool, base: int):
    """The junta instances of one ``(n, s, p)`` cell: ``(kinds, tables, variables)``.

    The cell draws from ``numpy.random.default_rng([base, n, s, p])``: random truth tables in ``{-1, 1}^{2^p}``
    (hypercube order), then one sorted set of ``p`` distinct variables per instance; the parity (if
    included) comes first.
    """
    sub = np.random.default_rng([base, n, s, p])
    tables = [constructions.parity_truth_table(p)] if include_parity else []
    tables += [sub.choice([-1.0, 1.0], size=1 << p) for _ in range(random_tables)]
    kinds = ["parity"] * int(include_parity) + ["random"] * random_tables
    variables = [sorted(int(v) for v in sub.choice(n, size=p, replace=False)) for _ in tables]
    return (
        kinds,
        np.array(tables, dtype=np.float64).reshape(len(tables), 1 << p),
        np.array(variables, dtype=np.int64).reshape(len(tables), p),
    )


def generate(point: dict, rng) -> dict:
    """Junta point: per ``s``, the instances' truth tables, variables and networks (prefix ``s<s>.``).

    Hardness point: the variables, the parity's and a random junta's networks in ``H_{n,2^p,1}``
    (``parity.``, ``random.``) and one uniform training sample per degree (``sample.d<d>``: cube row
    indices, hypercube order).
    """
    n = point["n"]
    arrays = {}
    if point["part"] == "junta":
        base = int(rng.integers(2**62))
        for cell in point["cells"]:
            p = cell["p"]
            for s in cell["s_values"]:
                kinds, tables, variables = junta_instances(
                    n, p, s, point["random_tables"], point["include_parity"], base
                )
                prefix = f"p{p}.s{s}."
                arrays.update(
                    {
                        prefix + "kinds": np.array(kinds, dtype="U8"),
                        prefix + "tables": tables,
                        prefix + "variables": variables,
                    }
                )
                for k in range(len(kinds)):
                    net = constructions.junta_network(tables[k], variables[k], n, s)
                    arrays.update(network_arrays(net, f"{prefix}net{k}"))
        return arrays
    p = point["p"]
    variables = np.sort(rng.choice(n, size=p, replace=False)).astype(np.int64)
    tables = {"parity": constructions.parity_truth_table(p), "random": rng.choice([-1.0, 1.0], size=1 << p)}
    arrays["variables"] = variables
    for kind, table in tables.items():
        arrays[f"{kind}.table"] = table
        arrays.update(network_arrays(constructions.junta_network(table, variables, n, s=1 << p), kind))
    for d in point["degrees"]:
        m = max(point["samples"], OVERSAMPLING * monomial_count(n, d))
        arrays[f"sample.d{d}"] = rng.integers(0, 1 << n, size=m).astype(np.int64)
    return arrays


# ---------------------------------------------------------------------------
# runs
# ---------------------------------------------------------------------------


def junta_on_cube(table, variables, start: int, stop: int):
    """``f(x)`` for the cube rows ``start <= j < stop`` (row ``j`` has ``x_i = (-1)^{bit i of j}``).

    The junta's pattern index is ``sum_t 2^t bit_{V[t]}(j)`` (the hypercube order of ``{-1,1}^p``), so ``f``
    is read from its truth table without building the points.

    Returns
    -------
    values : ndarray of float64
    pattern : ndarray of int64
        The pattern index of each row.
    """
    rows = np.arange(start, stop, dtype=np.int64)
    pattern = np.zeros(rows.size, dtype=np.int64)
    for t, v in enumerate(variables):
        pattern |= ((rows >> int(v)) & 1) << t
    return np.asarray(table, dtype=np.float64)[pattern], pattern


def _point_x(row: int, n: int) -> list[float]:
    return [float(1 - 2 * ((row >> i) & 1)) for i in range(n)]


def _network_vars(net) -> dict:
    return dict(u=net.u.tolist(), W=net.W.tolist(), b=net.b.tolist(), n=net.n_inputs, len_u=net.n_neurons)


def neuron_patterns(net, variables) -> list[int]:
    """Pattern index of each neuron's ``w_j`` on ``variables`` (-1 unless ``w_j`` is +-1 there and 0 elsewhere)."""
    W, V = net.W, list(variables)
    off = np.delete(W, V, axis=1)
    on = W[:, V]
    ok = np.all(np.abs(on) == 1.0, axis=1) & np.all(off == 0.0, axis=1)
    index = indices_from_points(np.where(np.abs(on) == 1.0, on, 1.0)) if len(V) else np.zeros(len(W), dtype=np.int64)
    return [int(i) if good else -1 for i, good in zip(index, ok, strict=True)]


def check_junta_network(net, table, variables, s: int) -> dict:
    """Evaluate one junta network on the whole cube; the row of the ``junta`` table.

    Computes ``max |h - f|``, the largest deviation of ``sigma(<w_j, x> - b_j)`` from
    ``1{x_V = (w_j)_V}`` over the first ``2^p`` neurons, the smallest and largest number of active
    neurons, and the scales. The first input where ``h != f`` (resp. a neuron differs from its indicator, more
    than one neuron fires) comes with the raw data of its certificate, ``instance_<check>`` (JSON); a network whose
    scale exceeds one of the levels with its ``u, W, b`` (``instance_scale``). The assembly certifies them.
    """
    n, p = net.n_inputs, len(variables)
    patterns = np.array(neuron_patterns(net, variables)[: 1 << p], dtype=np.int64)
    head = min(1 << p, net.n_neurons)
    # neuron of each pattern when the first 2^p neurons carry every sign pattern once (the proof's layout)
    inverse = None
    if head == 1 << p and sorted(patterns.tolist()) == list(range(1 << p)):
        inverse = np.argsort(patterns)
    err = ind_err = 0.0
    max_active, min_active = 0, net.n_neurons + 1
    fail = {"computes": "", "indicator": "", "sparsity": ""}
    instance = dict.fromkeys((*fail, "scale"), "")
    start = 0
    net_vars = _network_vars(net)
    for pre in net.cube_preactivations(CUBE_CHUNK):
        stop = start + pre.shape[0]
        target, pattern = junta_on_cube(table, variables, start, stop)
        active = np.count_nonzero(pre > 0.0, axis=1)
        relu = np.maximum(pre, 0.0, out=pre)
        values = relu @ net.u
        gap = np.abs(values - target)
        if inverse is not None:
            # relu >= 0: sigma_j = 1{pattern(x) = pattern_j} for all j <= 2^p iff the expected neuron gives 1
            # and the other neurons add up to 0
            expected = relu[np.arange(relu.shape[0]), inverse[pattern]]
            ind_gap = np.maximum(np.abs(expected - 1.0), relu[:, :head].sum(axis=1) - expected)
        else:
            ind_gap = np.abs(relu[:, :head] - (pattern[:, None] == patterns[None, :head])).max(axis=1)
        if gap.max() > err:
            err = float(gap.max())
        if ind_gap.max() > ind_err:
            ind_err = float(ind_gap.max())
        max_active, min_active = max(max_active, int(active.max())), min(min_active, int(active.min()))
        if not fail["computes"] and gap.max() > 0.0:
            row = start + int(np.argmax(gap))
            x = _point_x(row, n)
            h, f = float(values[row - start]), float(target[row - start])
            fail["computes"] = f"n={n}, s={s}, p={p}, variables={list(map(int, variables))}, x={x}: h={h:g}, f={f:g}"
            instance["computes"] = json.dumps(
                dict(x=x, **net_vars, T=list(map(float, table)), V=list(map(int, variables)), p=p, h=h, f=f)
            )
        if not fail["indicator"] and ind_gap.max() > 0.0:
            row_in = int(np.argmax(ind_gap))
            indicator = (pattern[row_in] == patterns[:head]).astype(np.float64)
            j = int(np.argmax(np.abs(relu[row_in, :head] - indicator)))
            x = _point_x(start + row_in, n)
            lhs, rhs = float(relu[row_in, j]), float(indicator[j])
            fail["indicator"] = f"n={n}, s={s}, p={p}, neuron j={j}, x={x}: sigma={lhs:g}, indicator={rhs:g}"
            if patterns[j] >= 0:
                w = net.W[j].tolist()
                instance["indicator"] = json.dumps(
                    dict(w=w, x=x, c=float(net.b[j]), n=n, V=list(map(int, variables)), lhs=lhs, rhs=rhs)
                )
        if not fail["sparsity"] and active.max() > 1:
            row = start + int(np.argmax(active))
            x = _point_x(row, n)
            count = int(active.max())
            fail["sparsity"] = f"n={n}, s={s}, p={p}, x={x}: {count} active neurons"
            instance["sparsity"] = json.dumps(dict(u=net_vars["u"], W=net_vars["W"], b=net_vars["b"], x=x, count=count))
        start = stop
    if net.scale_W() > min(math.sqrt(p), math.sqrt(math.log2(s))) or net.scale_B() > min(p, math.log2(s)):
        instance["scale"] = json.dumps(dict(u=net_vars["u"], W=net_vars["W"], b=net_vars["b"]))
    return dict(
        n=n,
        s=s,
        p=p,
        neurons=net.n_neurons,
        max_abs_error=err,
        indicator_error=ind_err,
        max_active=max_active,
        min_active=min_active,
        W=net.scale_W(),
        B=net.scale_B(),
        W_proof=math.sqrt(p),
        B_proof=float(p),
        W_theorem=math.sqrt(math.log2(s)),
        B_theorem=math.log2(s),
        bad_patterns=int(np.count_nonzero(patterns < 0)),
        **{f"failure_{key}": value for key, value in fail.items()},
        **{f"instance_{key}": value for key, value in instance.items()},
    )


def _run_junta(point: dict, data: dict):
    rows = []
    for cell in point["cells"]:
        for s in cell["s_values"]:
            prefix = f"p{cell['p']}.s{s}."
            kinds, tables, variables = data[prefix + "kinds"], data[prefix + "tables"], data[prefix + "variables"]
            for k, net in enumerate(networks_from_arrays(data, prefix + "net")):
                row = check_junta_network(net, tables[k], variables[k], s)
                rows.append(dict(table=str(kinds[k]), instance=k, variables=" ".join(map(str, variables[k])), **row))
    return {"theorem13-junta": pd.DataFrame(rows)}


def _run_hardness(point: dict, data: dict):
    n, p = point["n"], point["p"]
    X = hypercube(n)
    rows = []
    for kind in ("parity", "random"):
        net = network_from_arrays(data, kind)
        values = net.truth_table()
        weights = analysis.level_weights(values)
        trivial = 0.5 * float(values.var())
        max_active = net.max_active()
        for d in point["degrees"]:
            idx = data[f"sample.d{d}"]
            model = LowDegreeRegressor(degree=d).fit(X[idx], values[idx])
            rows.append(
                dict(
                    n=n,
                    p=p,
                    s=net.n_neurons,
                    target=kind,
                    degree=d,
                    m=int(idx.size),
                    features=monomial_count(n, d),
                    cost=int(idx.size) * monomial_count(n, d),
                    test_error=float(model.exact_test_error(values)),
                    floor=0.5 * float(weights[d + 1 :].sum()),
                    trivial=trivial,
                    max_active=max_active,
                )
            )
    return {"theorem13-hardness": pd.DataFrame(rows)}


def run(point: dict, data: dict, rng) -> dict:
    return _run_junta(point, data) if point["part"] == "junta" else _run_hardness(point, data)
