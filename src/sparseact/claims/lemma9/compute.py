"""Data and runs stages of the claim ``lemma9``: ``generate(point, rng)`` and ``run(point, data, rng)``.

The grid and what the claim checks: :mod:`sparseact.claims.lemma9`.
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd

from sparseact import analysis, bounds, families, sensitivity
from sparseact.claims._failures import with_worst, worst_instance
from sparseact.claims._grids import bucket_feasible
from sparseact.claims.lemma9 import (
    CONCAVITY_EDGE,
    CONFIDENCE,
    HENCE_C,
    TIGHTER_FACTOR,
    U_FACTOR,
    UNION_FACTOR,
    _cells,
    network_label,
)
from sparseact.networks import SparseReLUNetwork
from sparseact.runtime.datafiles import network_arrays, network_from_arrays
from sparseact.runtime.provenance import derive_rng

#: The boundary networks: ``relu(<1, x> - c)`` for these thresholds ``c`` (a function of ``n``).
NEURON_THRESHOLDS = {"majority": lambda n: 0, "nearly-affine": lambda n: -(n - 1)}


# ---------------------------------------------------------------------------
# networks
# ---------------------------------------------------------------------------


def neuron_network(n: int, c: float):
    """The one-neuron network ``h(x) = relu(<1, x> - c)`` on ``n`` inputs (``s = k = 1``, ``W = sqrt(n)``)."""
    return SparseReLUNetwork([1.0], [[1.0] * n], [float(c)])


def _cell_network(family: str, n: int, s: int, k: int, rng):
    if family == "bucket":
        return families.bucket_network(n, s, k, rng)
    return families.random_sparse_network(n, s, k, rng, weights=family)


def generate(point: dict, rng):
    """The point's networks; each (family, k) cell draws from its own stream ``derive_rng(base, family, k)``."""
    kind, n = point["kind"], point.get("n")
    out = {}
    if kind == "neuron":
        for n in point["n_values"]:
            for name, threshold in NEURON_THRESHOLDS.items():
                out.update(network_arrays(neuron_network(n, threshold(n)), f"neuron.n{n}.{name}"))
        return out
    base = int(rng.integers(0, 2**63 - 1))
    if kind == "exact":
        for family, k in _cells(n, point["s"], point["k_values"], point["families"]):
            cell = derive_rng(base, family, k)
            for i in range(point["instances"]):
                out.update(network_arrays(_cell_network(family, n, point["s"], k, cell), f"net.{family}.k{k}.{i}"))
        return out
    if kind == "adversarial":
        s = point["s"]
        for k in point["k_values"]:
            cell = derive_rng(base, "adversarial", k)
            init = [families.bucket_network(n, s, k, cell)] if bucket_feasible(n, s, k) else None
            result = families.adversarial_search(
                families.make_ratio_objective("lemma9", k),
                n,
                s,
                k,
                cell,
                restarts=point["restarts"],
                iterations=point["iterations"],
                init=init,
            )
            out.update(network_arrays(result.best, f"adv.k{k}"))
            out[f"adv.k{k}.evaluations"] = np.asarray(result.evaluations)
        return out
    if kind == "monte-carlo":
        net = families.random_sparse_network(n, point["s"], point["k"], derive_rng(base, "network"), weights="gaussian")
        return network_arrays(net, "mc")
    raise ValueError(f"unknown point kind {kind!r}")


# ---------------------------------------------------------------------------
# measurements
# ---------------------------------------------------------------------------


def concavity_max(s: int, k: int) -> float:
    r"""``Phi(s, k) = max {sum_j p_j sqrt(log(1/p_j)) : p in [0, 1]^s, sum_j p_j <= k}``.

    ``p sqrt(log(1/p))`` is concave on (0, 1) and increasing up to ``p = e^{-1/2}``,
    so the maximum is ``k sqrt(log(s/k))`` (all ``p_j = k/s``) when
    ``k/s <= e^{-1/2}``, and ``s e^{-1/2} sqrt(1/2) = s / sqrt(2e)`` (all ``p_j =
    e^{-1/2}``) otherwise. The proof prints ``k sqrt(log(s/k))`` in both cases.
    """
    if k / s <= CONCAVITY_EDGE:
        return k * math.sqrt(math.log(s / k))
    return s / math.sqrt(2.0 * math.e)


def measure(net, family: str, k_class: int) -> dict:
    """One row: the exact terms of the proof of Lemma 9 for ``net`` (certified ``k``)."""
    t = sensitivity.lemma9_decomposition(net)
    n, s, k = net.n_inputs, net.n_neurons, max(1, t.k)
    W, B = t.W, t.B
    as_value = t.U + t.V
    weight, bias = (float(v) for v in bounds.lemma9_terms(n, s, k, W, B))
    expression = weight + bias
    p = np.asarray(t.activation_probabilities)
    inner = p[(p > 0) & (p < 1)]
    concave_sum = float(np.sum(inner * np.sqrt(np.log(1.0 / inner))))
    phi = concavity_max(s, k)
    # the 'hence' line of the Hoeffding step: Pr_x[|l_{R_x}(x)| >= 4 k^1.5 W sqrt(log(ns)) + kB], l_{R_x}(x) = h(x)
    level = HENCE_C * k**1.5 * W * math.sqrt(math.log(n * s)) + k * B if n * s >= 2 else math.inf
    hence = float(np.count_nonzero(t.abs_values >= level)) / t.abs_values.size
    return dict(
        AS_fourier=t.fourier_total_influence,
        active_second_moment=t.active_second_moment,
        ratio_active=as_value / (4.0 * W * W * t.active_second_moment)
        if W > 0 and t.active_second_moment > 0
        else (0.0 if as_value == 0 else math.inf),
        hence_level=level,
        hence_probability=hence,
        hence_bound=float(n * s) ** -4,
        family=family,
        n=n,
        s=s,
        k_class=int(k_class),
        k=k,
        W=W,
        B=B,
        AS=as_value,
        AS_check=t.AS,
        U=t.U,
        V=t.V,
        U_intermediate=t.U_intermediate,
        U_bound=t.U_bound,
        expression=expression,
        weight_term=weight,
        bias_term=bias,
        ratio=as_value / expression if expression > 0 else math.inf,
        ratio_4k2W2=as_value / (TIGHTER_FACTOR * k * k * W * W) if W > 0 else 0.0,
        transition=t.transition_probability,
        transition_bound_sum=t.transition_bound_sum,
        transition_union_bound=t.transition_union_bound,
        transition_printed_bound=float(bounds.lemma9_transition_probability(n, s, k)),
        concave_sum=concave_sum,
        concavity_max=phi,
        transition_corrected_ratio=t.transition_probability * math.sqrt(n) / phi if phi > 0 else math.inf,
    )


def inequalities(row: dict) -> list[tuple[str, float, float]]:
    """The inequalities whose violation needs the network to be certified, as ``(step, value, limit)`` of one
    :func:`measure` row (``value <= limit`` in the assembly's units): ``tighter`` (``AS / (TIGHTER_FACTOR k^2 W^2)
    <= 1``), ``U-first`` (``U <= U_FACTOR U_intermediate``), ``U-second`` (``U_intermediate <= U_bound``), ``union``
    (the transition probability against the union bound with ``UNION_FACTOR``) and ``concavity`` (the concave sum
    against ``Phi(s, k)``, :func:`concavity_max`). The step names the worst instance's measure
    (:func:`worst_networks`)."""
    return [
        ("tighter", row["ratio_4k2W2"], 1.0),
        ("U-first", row["U"], U_FACTOR * row["U_intermediate"]),
        ("U-second", row["U_intermediate"], row["U_bound"]),
        ("union", row["transition"], row["transition_union_bound"] * (UNION_FACTOR / 4)),
        ("concavity", row["concave_sum"], row["concavity_max"]),
    ]


def worst_networks(measured: list) -> list[dict]:
    """Per inequality of :func:`inequalities`, the first of the point's networks with the largest excess
    ``value - limit``, with the raw data of its certificate.

    Parameters
    ----------
    measured : list of (SparseReLUNetwork, dict)
        The point's networks and their :func:`measure` rows.

    Returns
    -------
    list of dict
        :func:`sparseact.claims._failures.worst_instance` rows, measure: the inequality's ``step`` (data: the
        ``step``, the network ``net`` as ``u, W, b`` and its measurement ``row``).
    """
    worst = {}
    for net, row in measured:
        for step, value, limit in inequalities(row):
            if step not in worst or value - limit > worst[step][1]:
                worst[step] = (net, value - limit, row)
    return [
        worst_instance(step, excess, network_label(row), step=step, net=dict(u=net.u, W=net.W, b=net.b), row=row)
        for step, (net, excess, row) in worst.items()
    ]


def run(point: dict, data: dict, rng):
    kind, n = point["kind"], point.get("n")
    found = []  # the networks and their rows, for the worst instances of the inequalities of `inequalities`

    def measured(key, family, k):
        net = network_from_arrays(data, key)
        row = measure(net, family, k)
        found.append((net, row))
        return row

    if kind == "exact":
        rows = []
        for family, k in _cells(n, point["s"], point["k_values"], point["families"]):
            for i in range(point["instances"]):
                row = measured(f"net.{family}.k{k}.{i}", family, k)
                rows.append({**row, "instance": i})
        return with_worst({"lemma9-exact": pd.DataFrame(rows)}, worst_networks(found))
    if kind == "adversarial":
        rows = []
        for k in point["k_values"]:
            row = measured(f"adv.k{k}", "adversarial", k)
            rows.append({**row, "evaluations": int(data[f"adv.k{k}.evaluations"])})
        return with_worst({"lemma9-adversarial": pd.DataFrame(rows)}, worst_networks(found))
    if kind == "neuron":
        rows = []
        for n in point["n_values"]:
            for name, c in NEURON_THRESHOLDS.items():
                row = measured(f"neuron.n{n}.{name}", f"neuron-{name}", 1)
                rows.append({**row, "threshold": float(c(n))})
        return with_worst({"lemma9-neuron": pd.DataFrame(rows)}, worst_networks(found))
    if kind == "monte-carlo":
        net = network_from_arrays(data, "mc")
        s, k = point["s"], point["k"]
        cert = families.certify_sparsity(net, rng=rng, n_samples=point["samples"])
        k_used = max(k, cert.max_active)
        est = analysis.average_sensitivity_mc(net, n, point["samples"], rng, confidence=CONFIDENCE)
        W, B = net.scale_W(), net.scale_B()
        expression = float(bounds.lemma9_average_sensitivity(n, s, k_used, W, B))
        tight = 4.0 * max(1, cert.max_active) ** 2 * W * W
        row = dict(
            n=n,
            s=s,
            k=k_used,
            k_sampled=cert.max_active,
            sparsity_method=cert.method,
            W=W,
            B=B,
            AS=est.estimate,
            AS_ci_low=est.ci_low,
            AS_ci_high=est.ci_high,
            expression=expression,
            ratio=est.estimate / expression,
            ratio_ci_low=est.ci_low / expression,
            ratio_ci_high=est.ci_high / expression,
            tight_bound=tight,
            ratio_4k2W2_ci_high=est.ci_high / tight,
            samples=est.n_samples,
        )
        return {"lemma9-monte-carlo": pd.DataFrame([row])}
    raise ValueError(f"unknown point kind {kind!r}")
