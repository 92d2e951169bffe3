"""Data and runs stages of the claim ``lemma9``: ``generate(point, rng)`` and ``run(point, data, rng)``.

The grid and what the claim checks: :mod:`sparseact.claims.lemma9`.
"""

from __future__ import annotations

import math
from functools import cache

import numpy as np
import pandas as pd

from sparseact import analysis, bounds, families, sensitivity
from sparseact.claims._failures import violation, with_violations
from sparseact.claims._grids import bucket_feasible
from sparseact.claims.lemma9 import _cells
from sparseact.networks import SparseReLUNetwork
from sparseact.runtime.datafiles import network_arrays, network_from_arrays
from sparseact.runtime.provenance import derive_rng
from sparseact.verify import certificates as cert
from sparseact.verify.verdicts import Verdict, verdict_at_most

#: Largest ``k/s`` for which ``p sqrt(log(1/p))`` is increasing at ``p = k/s`` (the concavity step's range).
CONCAVITY_EDGE = math.exp(-0.5)
#: The boundary networks: ``relu(<1, x> - c)`` for these thresholds ``c`` (a function of ``n``).
NEURON_THRESHOLDS = {"majority": lambda n: 0, "nearly-affine": lambda n: -(n - 1)}
#: The constant of the Hoeffding step's 'hence' line tested exactly: ``Pr_x[|l_{R_x}(x)| >= c k^1.5 W sqrt(log(ns))
#: + kB] <= (ns)^-4`` with ``c = 4`` (proved with the correct union over ``sum_{j<=k} C(s, j)`` sets).
HENCE_C = 4.0

#: Coverage of the Monte Carlo intervals.
CONFIDENCE = 0.95
#: Factors of our bound and of the corrected steps: ``AS <= 4 k^2 W^2``, ``(U) <= 4 E[(1/4)||w^{R_x}||^2]``,
#: ``Pr <= (4/n) sum_j AS(g_j)``. Checks and certificates both read them (tests shrink them to force a FAIL).
TIGHTER_FACTOR = 4
U_FACTOR = 4
UNION_FACTOR = 4


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


#: ``W = ||u||_inf max_j ||w_j||_2`` of a certificate's network, from its lists ``u`` and ``Wm``.
_W_EXPR = "(max(abs(a) for a in u) * max(sqrt(sum(c * c for c in w)) for w in Wm))"


def violations(net, row: dict) -> list[dict]:
    """Certified violations, on one network, of the checks whose FAIL needs the network.

    Applies the assembly's tests of ``lemma9/tighter-4k2W2``, both steps of
    ``lemma9/term-U-corrected``, ``lemma9/transition-union-corrected`` and the
    concavity step of ``lemma9/transition-corrected`` to the row :func:`measure`
    computed for ``net``.

    Parameters
    ----------
    net : SparseReLUNetwork
        The network.
    row : dict
        Its :func:`measure` row.

    Returns
    -------
    list of dict
        One :func:`sparseact.claims._failures.violation` per violated test (normally
        none), whose certificate recomputes both sides from ``net`` alone.
    """
    instance = _where(row)
    out = []

    def test(check_id, value, limit, sides, labels, explanation):
        """Record ``lhs <= rhs`` (values ``value <= limit`` in the assembly's units) when it is violated.

        ``sides()`` gives ``((lhs quantity, lhs value), (rhs quantity, rhs value))``; it is called only on a
        violation, so that a passing network costs no certificate.
        """
        if verdict_at_most(value, limit) is not Verdict.FAIL:  # relative slack: (U) is a sum of 2^n n terms
            return
        (lhs, lhs_value), (rhs, rhs_value) = sides()
        if cert.violated("<=", float(lhs_value), float(rhs_value)):
            out.append(
                violation(
                    check_id,
                    value - limit,
                    instance,
                    cert.certificate("<=", lhs, rhs, float(lhs_value), float(rhs_value), *labels, explanation),
                )
            )

    @cache
    def spec():
        return cert.network_spec(net)

    def function():
        return {"network": spec()}

    def lists():
        return dict(u=spec()["u"], Wm=spec()["W"])

    def active():
        return cert.quantity("max_active", network=spec())

    def wr():
        return cert.quantity("lemma9_wR", network=spec())

    def per_halfspace(prefix, kind, **fields):
        return {
            f"{prefix}{j}": cert.quantity(kind, function={"halfspace": {"w": w, "b": b}}, **fields)
            for j, (w, b) in enumerate(zip(spec()["W"], spec()["b"], strict=True))
        }

    k, W = int(row["k"]), float(row["W"])  # k = max(1, largest active count on the cube)
    test(
        "lemma9/tighter-4k2W2",
        row["ratio_4k2W2"],
        1.0,
        lambda: (
            (cert.quantity("average_sensitivity", function=function()), row["AS_check"]),
            (
                cert.formula(f"c * max(1, k)**2 * {_W_EXPR}**2", c=TIGHTER_FACTOR, k=active(), **lists()),
                TIGHTER_FACTOR * k * k * W * W,
            ),
        ),
        ("AS(h)", f"{TIGHTER_FACTOR} k^2 W^2"),
        f"our bound AS(h) <= {TIGHTER_FACTOR} k^2 W^2 (k: the largest active count on the cube, at least 1)",
    )
    test(
        "lemma9/term-U-corrected",
        row["U"],
        U_FACTOR * row["U_intermediate"],
        lambda: (
            (cert.quantity("lemma9_U", network=spec()), row["U"]),
            (cert.formula("c / 4 * v", c=U_FACTOR, v=wr()), U_FACTOR * row["U_intermediate"]),
        ),
        ("(U)", f"({U_FACTOR}/4) E[||w^R_x||^2]"),
        "the corrected first step (U) <= E[||w^{R_x}||^2]",
    )
    test(
        "lemma9/term-U-corrected",
        row["U_intermediate"],
        row["U_bound"],
        lambda: (
            (wr(), 4 * row["U_intermediate"]),
            (cert.formula(f"k**2 * {_W_EXPR}**2", k=active(), **lists()), 4 * row["U_bound"]),
        ),
        ("E[||w^R_x||^2]", "k^2 W^2"),
        "the second step E[||w^{R_x}||^2] <= k^2 W^2",
    )
    n, s = int(row["n"]), int(row["s"])
    union = row["transition_union_bound"] * (UNION_FACTOR / 4)

    def union_sides():
        halfspaces = per_halfspace("a", "average_sensitivity")
        return (
            (cert.quantity("transition_probability", network=spec()), row["transition"]),
            (cert.formula(f"c / n * ({' + '.join(halfspaces)})", c=UNION_FACTOR, n=n, **halfspaces), union),
        )

    test(
        "lemma9/transition-union-corrected",
        row["transition"],
        union,
        union_sides,
        ("Pr_{x,i}[R_x != R_{x xor i}]", f"({UNION_FACTOR}/n) sum_j AS(g_j)"),
        "the union bound with the factor 4, g_j = 1{<w_j, x> > b_j}",
    )

    def concavity_sides():
        # p_j = Pr_x[g_j(x) = 1] = E[g_j^2] = sum over all T of ghat_j(T)^2 (Parseval): the Fourier tail above
        # degree -1
        probabilities = per_halfspace("p", "fourier_tail", degree=-1)
        return (
            (
                cert.formula(
                    f"sum(q * sqrt(log(1 / q)) for q in [{', '.join(probabilities)}] if 0 < q < 1)", **probabilities
                ),
                row["concave_sum"],
            ),
            (
                cert.formula(
                    "max(1, k) * sqrt(log(s / max(1, k))) if max(1, k) / s <= edge else s / sqrt(2 * e)",
                    k=active(),
                    s=s,
                    edge=CONCAVITY_EDGE,
                ),
                row["concavity_max"],
            ),
        )

    test(
        "lemma9/transition-corrected",
        row["concave_sum"],
        row["concavity_max"],
        concavity_sides,
        ("sum_j p_j sqrt(log(1/p_j))", "Phi(s, k)"),
        "the concavity step: Phi(s, k) is the maximum of the sum under sum_j p_j <= k, p_j = Pr_x[<w_j, x> > b_j]",
    )
    return out


def run(point: dict, data: dict, rng):
    kind, n = point["kind"], point.get("n")
    found = []  # violations of the checks only a certificate built here can FAIL (normally none)

    def measured(key, family, k):
        net = network_from_arrays(data, key)
        row = measure(net, family, k)
        found.extend(violations(net, row))
        return row

    if kind == "exact":
        rows = []
        for family, k in _cells(n, point["s"], point["k_values"], point["families"]):
            for i in range(point["instances"]):
                row = measured(f"net.{family}.k{k}.{i}", family, k)
                rows.append({**row, "instance": i})
        return with_violations({"lemma9-exact": pd.DataFrame(rows)}, found)
    if kind == "adversarial":
        rows = []
        for k in point["k_values"]:
            row = measured(f"adv.k{k}", "adversarial", k)
            rows.append({**row, "evaluations": int(data[f"adv.k{k}.evaluations"])})
        return with_violations({"lemma9-adversarial": pd.DataFrame(rows)}, found)
    if kind == "neuron":
        rows = []
        for n in point["n_values"]:
            for name, c in NEURON_THRESHOLDS.items():
                row = measured(f"neuron.n{n}.{name}", f"neuron-{name}", 1)
                rows.append({**row, "threshold": float(c(n))})
        return with_violations({"lemma9-neuron": pd.DataFrame(rows)}, found)
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


def _where(row) -> str:
    return f"{row['family']} network n={int(row['n'])}, s={int(row['s'])}, k={int(row['k'])}"
