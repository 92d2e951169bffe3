"""Data and runs stages of the claim ``section4_parity``: ``generate(point, rng)`` and ``run(point, data, rng)``.

The grid and what the claim checks: :mod:`sparseact.claims.section4_parity`.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from sparseact import constructions as C
from sparseact.analysis import walsh_coefficients
from sparseact.claims._failures import instance_json
from sparseact.cube import hypercube
from sparseact.networks import SparseReLUNetwork
from sparseact.runtime.datafiles import network_arrays, network_from_arrays

#: The two versions of every formula (:data:`sparseact.constructions.VARIANTS`), with their ledger labels.
VARIANT_LABELS = {"printed": "as printed", "corrected": "corrected"}


def generate(point: dict, rng) -> dict:
    """The networks of the point.

    Exhaustive point: for every non-empty ``S`` (``subsets`` holds their bitmasks, in
    :func:`~sparseact.constructions.all_subsets` order) the printed and the corrected network
    ``sum_a 2 sigma(<w_{S,a}, x> - b_{S,a})`` under the prefixes ``printed.<i>`` and ``corrected.<i>``.
    Scale point: the coefficient vector ``v = 1_{[m]}`` of ``sum_{i in S} y_i`` for ``S = [m]`` and every
    integer shift ``a in [-m, m]`` (the weights are :func:`~sparseact.constructions.lifted_quadratic_weights`
    of ``(v, a)``; the ``m^2``-dimensional rows are not stored).
    """
    m = point["m"]
    if point["kind"] == "scale":
        return {"v": np.ones(m), "a": np.arange(-m, m + 1, dtype=np.int64)}
    subsets = C.all_subsets(m)
    arrays = {"subsets": np.array([sum(1 << i for i in S) for S in subsets], dtype=np.int64)}
    for i, S in enumerate(subsets):
        for variant in VARIANT_LABELS:
            arrays.update(network_arrays(C.parity_network(m, S, variant)[0], f"{variant}.{i}"))
    return arrays


def _subset(mask: int) -> tuple[int, ...]:
    return tuple(i for i in range(int(mask).bit_length()) if mask >> i & 1)


def _first(values, limit: float = 0.0):
    """Index of the first value above ``limit`` (an error above 0: the first input where two sides differ), or
    None. The assembly decides whether the difference is a violation."""
    bad = np.flatnonzero(np.asarray(values) > limit)
    return int(bad[0]) if bad.size else None


def run(point: dict, data: dict, rng) -> dict:
    if point["kind"] == "scale":
        return _run_scale(point, data)
    return _run_exhaustive(point, data)


def _run_scale(point: dict, data: dict) -> dict:
    """``max_a ||w_{[m],a}||_2``, ``max_a |b_{[m],a}|`` over every integer ``a in [-m, m]``; the network's scales."""
    m, v = point["m"], data["v"]
    norms, biases = [], []
    for a in data["a"]:
        w, beta = C.lifted_quadratic_weights(v, float(a))
        norms.append(float(np.linalg.norm(w)))
        biases.append(abs(beta))
    network_shifts = C.parity_shifts(m, tuple(range(m)), "corrected")
    u_scale = 2.0  # ||u||_inf of sum_a 2 sigma(...)
    in_network = np.isin(data["a"], network_shifts)
    row = dict(
        m=m,
        n=m * m,
        shifts=len(data["a"]),
        max_w_norm=max(norms),
        max_abs_b=max(biases),
        closed_form_w=float(np.sqrt(4.0 * m**3 + m * m - m)),
        closed_form_b=m * m + m - 0.5,
        neurons=len(network_shifts),
        W=u_scale * float(np.max(np.asarray(norms)[in_network])),
        B=u_scale * float(np.max(np.asarray(biases)[in_network])),
    )
    row["w_norm_over_m1.5"] = row["max_w_norm"] / m**1.5
    row["b_over_m2"] = row["max_abs_b"] / m**2
    return {"parity_scale": pd.DataFrame([row])}


def _run_exhaustive(point: dict, data: dict) -> dict:
    """Every construction on every ``S``, ``y`` (and integer ``a in [-m, m]`` for the lift), printed and corrected.

    The ``parity_failures`` table holds, per measure (what differs, per variant ``printed`` or ``corrected``:
    ``<variant>-lift-error``, ``<variant>-chi-error``, ``printed-identity-vs-chi-error``, ``<variant>-identity-error``,
    ``<variant>-network-error``, ``<variant>-network-active``, ``<variant>-neuron-count``; and ``identity-active``),
    the first instance where it does, with the raw arguments of its certificate (the assembly builds it and maps its
    checks to these measures).
    """
    m = point["m"]
    Y = hypercube(m)
    X = C.quadratic_lift(Y)
    rows, failures = [], {}
    chi = {"printed": C.chi_printed, "corrected": _chi_corrected}

    def record(measure, builder, **arguments):
        """The first instance of ``measure``: the raw arguments of its certificate (the assembly builds it)."""
        if measure not in failures:
            failures[measure] = _instance(builder, **arguments)

    for i, mask in enumerate(data["subsets"]):
        S = _subset(mask)
        label = " ".join(map(str, S))
        parity, t = C.parity01(Y, S), Y[:, list(S)].sum(axis=1)
        for variant in VARIANT_LABELS:
            shifts = C.parity_shifts(m, S, variant)
            chi_v = chi[variant](Y, S)
            identity, identity_active = C.parity_identity(Y, S, shifts)
            net = network_from_arrays(data, f"{variant}.{i}")
            values, active = net.evaluate(X)
            lift_errors = _lift_errors(m, S, variant, Y, X, t, record)
            chi_error, identity_error = np.abs(chi_v - parity), np.abs(identity - parity)
            network_error = np.abs(values - parity)
            # measure -> (the certificate's builder, |left side - right side| at every y)
            differences = {f"{variant}-chi-error": ("chi", chi_error)}
            if variant == "printed":
                differences["printed-identity-vs-chi-error"] = ("identity-vs-chi", np.abs(identity - chi_v))
            differences[f"{variant}-identity-error"] = ("identity", identity_error)
            differences[f"{variant}-network-error"] = ("network", network_error)
            for measure, (builder, err) in differences.items():
                j = _first(err)
                if j is None:
                    continue
                arguments = dict(m=m, S=S, shifts=shifts, y=Y[j], x=X[j], net=_net(net), variant=variant)
                if measure == "printed-network-error" and len(S) == m:
                    # at S = [m] the printed weights are right: the difference is the encoding's alone
                    failures[measure] = _instance(builder, **arguments)
                else:
                    record(measure, builder, **arguments)
            j = _first(identity_active, 1)
            if j is not None:
                record("identity-active", "active", m=m, S=S, y=Y[j], shifts=shifts)
            j = _first(active, 1)
            if j is not None:
                record(
                    f"{variant}-network-active",
                    "network-active",
                    m=m,
                    S=S,
                    y=Y[j],
                    x=X[j],
                    net=_net(net),
                    variant=variant,
                )
            if net.n_neurons > 2 * m:
                record(f"{variant}-neuron-count", "neuron-count", m=m, S=S, net=_net(net), variant=variant)
            norms = np.linalg.norm(net.W, axis=1)
            rescaled = _rescaled(net, float(norms.max()) / m, X, parity) if variant == "corrected" else {}
            rows.append(
                dict(
                    **rescaled,
                    neuron_formula=int(np.sum((np.arange(-m, m + 1) - len(S)) % 4 == 0))
                    if variant == "corrected"
                    else int(np.sum(np.arange(-m, m + 1) % 2 == 0)),
                    m=m,
                    S=label,
                    size=len(S),
                    variant=variant,
                    chi_error=float(chi_error.max()),
                    identity_vs_chi_error=float(np.abs(identity - chi_v).max()),
                    identity_error=float(identity_error.max()),
                    identity_max_active=int(identity_active.max()),
                    lift_error=max(lift_errors),
                    network_error=float(network_error.max()),
                    max_active_support=int(active.max()),
                    neurons=net.n_neurons,
                    neuron_limit=2 * m,
                    max_w_norm=float(norms.max()),
                    max_abs_b=float(np.abs(net.b).max()),
                    W=net.scale_W(),
                    B=net.scale_B(),
                    max_abs_w_entry=float(np.abs(net.W).max()),
                    max_abs_u=float(np.abs(net.u).max()),
                    max_active_cube=(net.max_active() if point["full_cube"] and variant == "corrected" else -1),
                )
            )
    failure_rows = [dict(measure=name, **spec) for name, spec in failures.items()]
    columns = ["measure", "m", "S", "variant", "data"]
    return {
        "parity": pd.DataFrame(rows),
        "parity_failures": pd.DataFrame(failure_rows, columns=columns),
        "parity_dense": _dense_parity(m, point["full_cube"]),
        "parity_parseval": _parseval_queries(m),
    }


def _lift_errors(m: int, S, variant: str, Y, X, t, record) -> list[float]:
    """Per integer shift ``a in [-m, m]``: the largest ``|<w_{S,a}, x(y)> - b_{S,a} - (1/2 - (t - a)^2)|`` over ``y``
    (``t = sum_S y_i``), ``record`` keeping the first failure."""
    errors = []
    for a in range(-m, m + 1):
        w, beta = C.parity_lift_weights(m, S, float(a), variant)
        err = np.abs((X @ w - beta) - (0.5 - (t - a) ** 2))
        errors.append(float(err.max()))
        j = _first(err)
        if j is not None:
            record(f"{variant}-lift-error", "lift", m=m, S=S, a=a, y=Y[j], w=w, beta=beta, variant=variant)
    return errors


def _rescaled(net, lam: float, X, parity) -> dict:
    """The network ``(lam u, W / lam, b / lam)``, which computes the same function (ReLU is positively homogeneous):
    its error against the parity, largest ``||w_j||``, most active neurons and Definition 2's ``W``."""
    small = SparseReLUNetwork(net.u * lam, net.W / lam, net.b / lam)
    small_values, small_active = small.evaluate(X)
    return dict(
        rescaled_error=float(np.abs(small_values - parity).max()),
        rescaled_max_w_norm=float(np.linalg.norm(small.W, axis=1).max()),
        rescaled_max_active=int(small_active.max()),
        rescaled_W=small.scale_W(),
    )


def _dense_parity(m: int, full_cube: bool):
    """The dense network of :func:`~sparseact.constructions.dense_parity_network` for every non-empty ``S`` of
    ``[m]``, on all of ``{-1,1}^n`` (``n = m^2`` when ``full_cube``, else ``n = m``): error, neurons, active."""
    n = m * m if full_cube else m
    X = hypercube(n)
    rows = []
    for S in C.all_subsets(m):
        net = C.dense_parity_network(n, S)
        values, active = net.evaluate(X)
        net01 = C.dense_parity01_network(n, S)
        values01, active01 = net01.evaluate(X)
        rows.append(
            dict(
                m=m,
                n=n,
                k=len(S),
                S=" ".join(map(str, S)),
                neurons=net.n_neurons,
                error=float(np.abs(values - np.prod(X[:, list(S)], axis=1)).max()),
                max_active=int(active.max()),
                neurons01=net01.n_neurons,
                error01=float(np.abs(values01 - (1 + np.prod(X[:, list(S)], axis=1)) / 2).max()),
                max_active01=int(active01.max()),
            )
        )
    return pd.DataFrame(rows)


#: Bounded queries per m of the Parseval check (Theorem 14's key step), from a fixed generator (the verdict is
#: an identity, the same for every query).
PARSEVAL_QUERIES = 16


def _parseval_queries(m: int):
    """Theorem 14's key step on ``{-1,1}^m``: for bounded queries ``phi`` (``|phi| <= 1``),
    ``sum_S E[phi chi_S]^2 = E[phi^2] <= 1`` (Parseval), so at most ``1/tau^2`` parities have
    ``|E[phi chi_S]| > tau``: one query tells apart few parities.

    Queries: every parity itself (the extreme case), majority, and :data:`PARSEVAL_QUERIES` tables with
    entries uniform in ``[-1, 1]`` and ``{-1, 1}`` from ``default_rng(m)``.
    """
    Y = hypercube(m)
    rng = np.random.default_rng(m)
    queries = {f"parity {T}": np.prod(Y[:, [i for i in range(m) if T >> i & 1]], axis=1) for T in range(1, 2**m)}
    queries["majority"] = np.sign(Y.sum(axis=1) + 0.5)
    for r in range(PARSEVAL_QUERIES):
        queries[f"uniform {r}"] = rng.uniform(-1.0, 1.0, size=2**m)
        queries[f"signs {r}"] = rng.choice([-1.0, 1.0], size=2**m)
    rows = []
    for name, phi in queries.items():
        coefficients = walsh_coefficients(phi)  # E[phi chi_S] for every S (index 0: S empty)
        energy = float(np.mean(phi**2))
        for tau in (0.5, 0.25, 0.125):
            rows.append(
                dict(
                    m=m,
                    query=name,
                    tau=tau,
                    sum_squares=float(np.sum(coefficients**2)),
                    second_moment=energy,
                    distinguished=int(np.sum(np.abs(coefficients[1:]) > tau)),
                    limit=1.0 / tau**2,
                )
            )
    return pd.DataFrame(rows)


def _chi_corrected(Y, S):
    """``chi_S`` corrected: 1 iff ``sum_{i in S} y_i = |S| (mod 4)``."""
    t = np.rint(np.asarray(Y)[:, list(S)].sum(axis=1)).astype(np.int64)
    return ((t - len(S)) % 4 == 0).astype(np.float64)


def _net(net) -> dict:
    """A network's ``u, W, b``, for the raw data of an instance."""
    return dict(u=net.u, W=net.W, b=net.b)


def _instance(builder: str, **arguments) -> dict:
    """A row of the ``parity_failures`` table: the first input where a measure's two sides differ, with the raw
    data its certificate needs (``builder`` names the certificate of
    :data:`sparseact.claims.section4_parity.verdicts.CERTIFICATES`; ``arguments`` are its arguments)."""
    S = arguments["S"]
    return dict(
        m=arguments["m"],
        S=" ".join(map(str, S)),
        variant=arguments.get("variant", "") if builder != "active" else "",
        data=instance_json(dict(builder=builder, **arguments)),
    )
