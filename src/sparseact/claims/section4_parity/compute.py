"""Data and runs stages of the claim ``section4_parity``: ``generate(point, rng)`` and ``run(point, data, rng)``.

The grid and what the claim checks: :mod:`sparseact.claims.section4_parity`.
"""

from __future__ import annotations

import json

import numpy as np
import pandas as pd

from sparseact import constructions as C
from sparseact.analysis import walsh_coefficients
from sparseact.cube import hypercube
from sparseact.networks import SparseReLUNetwork
from sparseact.runtime.datafiles import network_arrays, network_from_arrays
from sparseact.verify import certificates as cert
from sparseact.verify.certificates import network_spec
from sparseact.verify.verdicts import ATOL

#: The two versions of every formula (:data:`sparseact.constructions.VARIANTS`), with their ledger labels.
VARIANT_LABELS = {"printed": "as printed", "corrected": "corrected"}

#: ``chi_S`` as printed: 1 iff ``sum_{i in S} y_i`` is even (``S`` 0-based).
CHI_PRINTED_EXPR = "1 if sum(y[i] for i in S) % 2 == 0 else 0"
#: ``chi_S`` corrected: 1 iff ``sum_{i in S} y_i = |S| (mod 4)``.
CHI_CORRECTED_EXPR = "1 if (sum(y[i] for i in S) - sum(1 for i in S)) % 4 == 0 else 0"
#: The parity on ``S`` in {0,1} form: 1 iff the number of ``-1`` among ``(y_i)_{i in S}`` is even.
PARITY_EXPR = "(1 + (-1) ** sum((1 - y[i]) // 2 for i in S)) / 2"
#: The right side of the identity over the shift set ``A``.
IDENTITY_EXPR = "sum(2 * relu(0.5 - (sum(y[i] for i in S) - a) ** 2) for a in A)"
#: The quadratic inside the ReLU.
QUADRATIC_EXPR = "0.5 - (sum(y[i] for i in S) - a) ** 2"
#: ``<w, x(y)> - b`` with the lift ``x(y)`` computed from its definition (``w`` flattened row-major).
LIFT_EXPR = "sum(w[i * m + j] * (y[i] if i == j else y[i] * y[j]) for i in range(m) for j in range(m)) - b"


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


def _first(errors, atol: float):
    """Index of the first error above the tolerance policy's slack, or None."""
    bad = np.flatnonzero(np.asarray(errors) > atol)
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
    """Every check on every ``S``, ``y`` (and integer ``a in [-m, m]`` for the lift), printed and corrected."""
    m = point["m"]
    Y = hypercube(m)
    X = C.quadratic_lift(Y)
    rows, failures = [], {}
    chi = {"printed": C.chi_printed, "corrected": _chi_corrected}

    def record(check_name, builder, *arguments):
        if check_name not in failures:
            failures[check_name] = builder(*arguments)

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
            lift_errors = []
            for a in range(-m, m + 1):
                w, beta = C.parity_lift_weights(m, S, float(a), variant)
                err = np.abs((X @ w - beta) - (0.5 - (t - a) ** 2))
                lift_errors.append(float(err.max()))
                j = _first(err, ATOL)
                if j is not None:
                    record(f"lift-{variant}", _lift_failure, m, S, a, Y[j], w, beta, variant)
            errors = {
                f"chi-{variant}": np.abs(chi_v - parity),
                "identity-vs-printed-chi": np.abs(identity - chi_v) if variant == "printed" else None,
                f"identity-{variant}": np.abs(identity - parity),
                f"network-{variant}": np.abs(values - parity),
            }
            for name, err in errors.items():
                j = None if err is None else _first(err, ATOL)
                if j is not None and name == "network-printed" and len(S) == m:
                    # at S = [m] the printed weights are right: the failure is the encoding's alone
                    failures[name] = _failure(name, m, S, shifts, Y[j], X[j], net, variant)
                elif j is not None:
                    record(name, _failure, name, m, S, shifts, Y[j], X[j], net, variant)
            j = _first(identity_active, 1)
            if j is not None:
                record("identity-one-active", _active_failure, "identity-one-active", m, S, Y[j], shifts)
            j = _first(active, 1)
            if j is not None:
                record(f"sparsity-{variant}", _network_active_failure, m, S, Y[j], X[j], net, variant)
            if net.n_neurons > 2 * m:
                record(f"sparsity-{variant}", _neuron_count_failure, m, S, net, variant)
            norms = np.linalg.norm(net.W, axis=1)
            rescaled = {}
            if variant == "corrected":
                # ReLU is positively homogeneous: (u, W, b) -> (lam u, W / lam, b / lam) computes the same function
                lam = float(norms.max()) / m
                small = SparseReLUNetwork(net.u * lam, net.W / lam, net.b / lam)
                small_values, small_active = small.evaluate(X)
                rescaled = dict(
                    rescaled_error=float(np.abs(small_values - parity).max()),
                    rescaled_max_w_norm=float(np.linalg.norm(small.W, axis=1).max()),
                    rescaled_max_active=int(small_active.max()),
                    rescaled_W=small.scale_W(),
                )
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
                    chi_error=float(errors[f"chi-{variant}"].max()),
                    identity_vs_chi_error=float(np.abs(identity - chi_v).max()),
                    identity_error=float(errors[f"identity-{variant}"].max()),
                    identity_max_active=int(identity_active.max()),
                    lift_error=max(lift_errors),
                    network_error=float(errors[f"network-{variant}"].max()),
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
    failure_rows = [dict(check=name, **spec) for name, spec in failures.items()]
    columns = ["check", "m", "S", "variant", "counterexample", "lhs", "rhs", "certificate"]
    return {
        "parity": pd.DataFrame(rows),
        "parity_failures": pd.DataFrame(failure_rows, columns=columns),
        "parity_dense": _dense_parity(m, point["full_cube"]),
        "parity_parseval": _parseval_queries(m),
    }


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


def _ints(x) -> list:
    return [int(v) for v in x]


def _spec(m, S, variant, counterexample, certificate) -> dict:
    return dict(
        m=m,
        S=" ".join(map(str, S)),
        variant=variant,
        counterexample=counterexample,
        lhs=certificate["lhs_value"],
        rhs=certificate["rhs_value"],
        certificate=json.dumps(certificate),
    )


def _failure(name, m, S, shifts, y, x, net, variant) -> dict:
    """Certificate of a FAIL of ``chi-*``, ``identity-*`` or ``network-*`` at the input ``y``."""
    y, S_list, A = _ints(y), list(S), _ints(shifts)
    parity = cert.formula(PARITY_EXPR, y=y, S=S_list)
    parity_value = _parity_value(y, S)
    where = f"m={m}, S={S_list} (0-based), y={tuple(y)}"
    if name.startswith("chi-"):
        expr = CHI_PRINTED_EXPR if variant == "printed" else CHI_CORRECTED_EXPR
        value = _chi_value(y, S, variant)
        c = cert.certificate(
            "==",
            cert.formula(expr, y=y, S=S_list),
            parity,
            value,
            parity_value,
            "chi_S(y) (" + VARIANT_LABELS[variant] + ")",
            "parity (1 + prod_{i in S} y_i)/2",
            f"{where}: sum_{{i in S}} y_i = {sum(y[i] for i in S)}; for y in {{-1,1}}^m this sum is "
            "|S| mod 2 for every y, so the printed chi_S is constant, while the parity is not",
        )
        return _spec(m, S, variant, f"{where}: chi_S = {value:g}, parity = {parity_value:g}", c)
    value = _identity_value(y, S, A)
    if name == "identity-vs-printed-chi":
        chi_value = _chi_value(y, S, "printed")
        c = cert.certificate(
            "==",
            cert.formula(IDENTITY_EXPR, y=y, S=S_list, A=A),
            cert.formula(CHI_PRINTED_EXPR, y=y, S=S_list),
            value,
            chi_value,
            "sum_{a even} 2 sigma(1/2 - (sum_S y_i - a)^2)",
            "printed chi_S(y)",
            where,
        )
        return _spec(m, S, variant, f"{where}: identity = {value:g}, printed chi_S = {chi_value:g}", c)
    if name.startswith("identity-"):
        c = cert.certificate(
            "==",
            cert.formula(IDENTITY_EXPR, y=y, S=S_list, A=A),
            parity,
            value,
            parity_value,
            f"sum_{{a in A}} 2 sigma(1/2 - (sum_S y_i - a)^2), A = {A}",
            "parity (1 + prod_{i in S} y_i)/2",
            f"{where}: with even shifts the sum is 1 iff sum_S y_i is even, which does not depend "
            "on y; the parity needs a = |S| (mod 4)",
        )
        return _spec(m, S, variant, f"{where}, shifts {A}: identity = {value:g}, parity = {parity_value:g}", c)

    h = float(net(x[None, :])[0])
    c = cert.certificate(
        "==",
        cert.quantity("value", function={"network": network_spec(net)}, x=_ints(x)),
        parity,
        h,
        parity_value,
        "h(x(y)), network " + VARIANT_LABELS[variant],
        "parity on S",
        f"{where}; x = x(y) (row-major m x m lift: x_ii = y_i, x_ij = y_i y_j)",
    )
    return _spec(m, S, variant, f"{where}: h(x(y)) = {h:g}, parity = {parity_value:g}", c)


def _lift_failure(m, S, a, y, w, beta, variant) -> dict:
    y, S_list = _ints(y), list(S)
    quadratic = 0.5 - (sum(y[i] for i in S) - a) ** 2
    lifted = float(sum(w[i * m + j] * (y[i] if i == j else y[i] * y[j]) for i in range(m) for j in range(m)) - beta)
    where = f"m={m}, S={S_list} (0-based), a={a}, y={tuple(y)}"
    c = cert.certificate(
        "==",
        cert.formula(QUADRATIC_EXPR, y=y, S=S_list, a=a),
        cert.formula(LIFT_EXPR, w=[float(v) for v in w], y=y, m=m, b=beta),
        quadratic,
        lifted,
        "1/2 - (sum_{i in S} y_i - a)^2",
        "<w_{S,a}, x(y)> - b_{S,a}",
        f"{where}; w_{{S,a}}[i,j] = -1 for i != j in [m], w[i,i] = 2a, b = |S| + a^2 - 1/2 "
        "as printed: the weights ignore S",
    )
    return _spec(m, S, variant, f"{where}: 1/2 - (sum_S y_i - a)^2 = {quadratic:g}, <w, x(y)> - b = {lifted:g}", c)


def _active_failure(name, m, S, y, shifts) -> dict:
    y, S_list, A = _ints(y), list(S), _ints(shifts)
    count = sum(1 for a in A if 0.5 - (sum(y[i] for i in S) - a) ** 2 > 0)
    expr = "sum(1 for a in A if 0.5 - (sum(y[i] for i in S) - a) ** 2 > 0)"
    c = cert.certificate(
        "<=",
        cert.formula(expr, y=y, S=S_list, A=A),
        cert.formula("1"),
        count,
        1.0,
        "active ReLUs of the identity",
        "1",
        f"m={m}, S={S_list}, y={tuple(y)}, shifts {A}",
    )
    return _spec(m, S, "", f"m={m}, S={S_list}, y={tuple(y)}: {count} active", c)


def _network_active_failure(m, S, y, x, net, variant) -> dict:
    count = int(net.active_counts(x[None, :])[0])
    where = f"m={m}, S={list(S)} (0-based), y={tuple(_ints(y))}"
    c = cert.certificate(
        "<=",
        cert.quantity("active_count", network=cert.network_spec(net), x=_ints(x)),
        cert.formula("1"),
        count,
        1.0,
        "active neurons of h at x(y)",
        "k = 1",
        f"{where}; x = x(y) lies in the support of the distribution D of Section 4",
    )
    return _spec(m, S, variant, f"{where}: {count} neurons active at x(y)", c)


def _neuron_count_failure(m, S, net, variant) -> dict:
    b = [float(v) for v in net.b]
    c = cert.certificate(
        "<=",
        cert.formula("sum(1 for _ in b)", b=b),
        cert.formula("2 * m", m=m),
        len(b),
        2 * m,
        "number of neurons s (one bias each)",
        "2m",
        f"m={m}, S={list(S)}",
    )
    return _spec(m, S, variant, f"m={m}, S={list(S)}: {len(b)} neurons > 2m", c)


def _parity_value(y, S) -> float:
    return (1 + (-1) ** sum((1 - y[i]) // 2 for i in S)) / 2


def _chi_value(y, S, variant) -> float:
    t = sum(y[i] for i in S)
    return float(t % 2 == 0) if variant == "printed" else float((t - len(S)) % 4 == 0)


def _identity_value(y, S, A) -> float:
    t = sum(y[i] for i in S)
    return float(sum(2 * max(0.5 - (t - a) ** 2, 0.0) for a in A))
