"""Pins of the checks of ``sparseact.claims.lemma9`` (see :mod:`sparseact.verify.pins`)."""

from __future__ import annotations

import math

import numpy as np

from sparseact import bounds
from sparseact.verify.recompute import (
    MAX_ENUMERATION_DIM,
    Refused,
    Sides,
    Statement,
    _active_sets,
    _average_sensitivity,
    _evaluate,
    _integer,
    _network,
    _network_cube,
    _network_sizes,
    _number,
    _parameter,
    _reproduces,
    _spec,
    cube,
    evaluate_quantity,
)


def _lemma9_term_u(c: dict) -> Sides:
    lhs = _spec(c, "lhs", "lemma9_U")
    _, _, k, W, _ = _network_sizes(lhs["network"])
    return Sides(evaluate_quantity(lhs), float(bounds.lemma9_term_U(k, W)), {"k": k, "W": W})


def _lemma9_transition(c: dict) -> Sides:
    lhs = _spec(c, "lhs", "transition_probability")
    n, s, k, _, _ = _network_sizes(lhs["network"])
    return Sides(evaluate_quantity(lhs), float(bounds.lemma9_transition_probability(n, s, k)), {"n": n, "s": s, "k": k})


def _lemma9_union(c: dict) -> Sides:
    lhs = _spec(c, "lhs", "transition_probability")
    union = sum(_halfspace_sensitivities(lhs["network"])) / _network(lhs["network"])[1].shape[1]
    written = evaluate_quantity(_spec(c, "rhs", "average_sensitivity"))
    if not _reproduces(written, union):
        raise Refused(f"rhs is not (1/n) sum_j AS(g_j) of lhs's network ({written:.12g} != {union:.12g})")
    return Sides(evaluate_quantity(lhs), union, {})


def _lemma9_tail_hence(c: dict) -> Sides:
    """h = relu(<0, x> + B) on the cube of dimension n (s = k = 1, W = 0, bias B): the printed non-strict event
    |l_{R_x}(x)| >= c k^{1.5} W sqrt(log(ns)) + kB, against 1/(ns)^4."""
    n = _integer(_parameter(c, "lhs", "n"), "n", 2, MAX_ENUMERATION_DIM)
    B = _number(_parameter(c, "lhs", "B"), "B", 1e-300, 1e300)
    small_c = _number(_parameter(c, "lhs", "c"), "c", 0.0, 1e300)
    X = cube(n)
    network = {"u": [1.0], "W": [[0.0] * n], "b": [-B]}
    h = _evaluate({"network": network}, X)
    k, s, W = 1, 1, 0.0
    threshold = small_c * k**1.5 * W * math.sqrt(math.log(n * s)) + k * B
    lhs = float(np.mean(np.abs(h) >= threshold))
    return Sides(lhs, 1.0 / (n * s) ** 4, {"n": n, "B": B, "c": small_c, "W": W, "k": k, "s": s})


def _lemma9_proof_v(c: dict) -> Sides:
    """The last step of (V): the middle expression (bounds.lemma9_proof_V_middle) against C times Lemma 9's
    expression (bounds.lemma9_average_sensitivity), at the instance's n, s, k, W, B, c and the constant C."""
    n = _integer(_parameter(c, "lhs", "n"), "n", 2, 2**60)
    s = _integer(_parameter(c, "lhs", "s"), "s", 2, 2**40)
    k = _integer(_parameter(c, "lhs", "k"), "k", 1, s)
    W, B = (_number(_parameter(c, "lhs", name), name, 0.0, 1e300) for name in ("W", "B"))
    small_c = _number(_parameter(c, "lhs", "c"), "c", 1e-300, 1e300)
    C = _number(_parameter(c, "rhs", "C"), "C", 1e-300, 1e300)
    middle = float(bounds.lemma9_proof_V_middle(n, s, k, W, B, small_c))
    rhs = C * float(bounds.lemma9_average_sensitivity(n, s, k, W, B))
    return Sides(middle, rhs, {"n": n, "s": s, "k": k, "W": W, "B": B, "c": small_c, "C": C})


def _lemma9_concavity_printed(c: dict) -> Sides:
    """The second inequality of the transition step of Lemma 9's proof, (1/n) sum_j p_j sqrt(n log(1/p_j)) <=
    C k sqrt(log(s/k))/sqrt(n), with n, s, k of the network and any constant C."""
    lhs = _spec(c, "lhs", "concave_activation_sum")
    C = _number(_parameter(c, "rhs", "C"), "C", 1e-300, 1e300)
    n, s, k, _, _ = _network_sizes(lhs["network"])
    return Sides(
        evaluate_quantity(lhs), C * k * math.sqrt(math.log(s / k)) / math.sqrt(n), {"C": C, "n": n, "s": s, "k": k}
    )


def _lemma9_transition_printed(c: dict) -> Sides:
    """The first inequality of the transition step of Lemma 9's proof as printed (constant 1):
    Pr_{x,i}[R_x != R_{x xor i}] <= (1/n) sum_j p_j sqrt(n log(1/p_j)), both sides of one network."""
    lhs = _spec(c, "lhs", "transition_probability")
    rhs = _spec(c, "rhs", "concave_activation_sum")
    if lhs["network"] != rhs["network"]:
        raise Refused("the two sides must be read on one network")
    n, s, k, _, _ = _network_sizes(lhs["network"])
    return Sides(evaluate_quantity(lhs), evaluate_quantity(rhs), {"n": n, "s": s, "k": k})


def _lemma9_bound(c: dict) -> Sides:
    """Lemma 9 (printed): AS(h) <= C (k^4 W^2 sqrt(n) log(ns) + k^3 B^2 sqrt(log s)) (bounds.lemma9_average_sensitivity)
    with n, s, k, W, B of the network and any constant C."""
    lhs = _spec(c, "lhs", "average_sensitivity")
    if "network" not in lhs["function"]:
        raise Refused("lhs: the statement is about a network of the class")
    C = _number(_parameter(c, "rhs", "C"), "C", 1e-300, 1e300)
    n, s, k, W, B = _network_sizes(lhs["function"]["network"])
    rhs = C * float(bounds.lemma9_average_sensitivity(n, s, k, W, B))
    return Sides(evaluate_quantity(lhs), rhs, {"C": C, "n": n, "s": s, "k": k, "W": W, "B": B})


def _network_lists(network: dict) -> dict:
    u, W, _ = _network(network)
    return {"u": u.tolist(), "Wm": W.tolist()}


def _lemma9_tighter(c: dict) -> Sides:
    """Ours: AS(h) <= 4 k^2 W^2, k = max(1, most active neurons on the cube), W = ||u||_inf max_j ||w_j||_2."""
    lhs = _spec(c, "lhs", "average_sensitivity")
    network = lhs["function"].get("network")
    if network is None:
        raise Refused("lhs: the statement is about a network")
    _, _, k, W, _ = _network_sizes(network)
    return Sides(evaluate_quantity(lhs), 4.0 * k * k * W * W, {"c": 4, "k": k, **_network_lists(network)})


def _lemma9_term_u_corrected(c: dict) -> Sides:
    """The corrected steps of (U): (U) <= E_x ||w^{R_x}||^2 (written (c/4) E||w^R||^2, c = 4), then
    E_x ||w^{R_x}||^2 <= k^2 W^2; the left side's quantity names the step."""
    lhs = c["lhs"]
    kind = lhs.get("quantity") if isinstance(lhs, dict) else None
    if kind == "lemma9_U":
        network = lhs["network"]
        wr = evaluate_quantity({"quantity": "lemma9_wR", "network": network})
        return Sides(evaluate_quantity(lhs), wr, {"c": 4, "v": wr})
    lhs = _spec(c, "lhs", "lemma9_wR")
    _, _, k, W, _ = _network_sizes(lhs["network"])
    return Sides(evaluate_quantity(lhs), float(k * k * W * W), {"k": k, **_network_lists(lhs["network"])})


def _halfspace_sensitivities(network: dict) -> list[float]:
    _, W, b = _network(network)
    X = _network_cube(network)
    return [_average_sensitivity((X @ w > t).astype(float)) for w, t in zip(W, b, strict=True)]


def _lemma9_union_corrected(c: dict) -> Sides:
    """Pr_{x,i}[R_x != R_{x xor i}] <= (4/n) sum_j AS(g_j), g_j = 1{<w_j, x> > b_j} (the union bound, factor 4)."""
    lhs = _spec(c, "lhs", "transition_probability")
    n = _network(lhs["network"])[1].shape[1]
    sensitivities = _halfspace_sensitivities(lhs["network"])
    variables = {"c": 4, "n": n, **{f"a{j}": value for j, value in enumerate(sensitivities)}}
    return Sides(evaluate_quantity(lhs), 4.0 / n * sum(sensitivities), variables)


def _lemma9_concavity(c: dict) -> Sides:
    """sum_j p_j sqrt(log(1/p_j)) <= Phi(s, k), p_j = Pr_x[<w_j, x> > b_j] of the network, sum_j p_j <= k: Phi is
    k sqrt(log(s/k)) when k/s <= e^-1/2 (equal p_j = k/s, concavity) and s/sqrt(2e) beyond (p_j = e^-1/2)."""
    spec = _spec(c, "rhs", "formula")
    k_spec = (spec.get("vars") or {}).get("k")
    if not isinstance(k_spec, dict) or k_spec.get("quantity") != "max_active":
        raise Refused("rhs: k must be the network's max_active quantity")
    network = k_spec["network"]
    _, W, b = _network(network)
    X = _network_cube(network)
    probabilities = [float(np.mean(X @ w > t)) for w, t in zip(W, b, strict=True)]
    s = W.shape[0]
    k = max(1, int(_active_sets(network).sum(axis=1).max()))
    edge = math.exp(-0.5)
    lhs = sum(q * math.sqrt(math.log(1 / q)) for q in probabilities if 0 < q < 1)
    rhs = k * math.sqrt(math.log(s / k)) if k / s <= edge else s / math.sqrt(2 * math.e)
    variables = {"k": float(k), "s": s, "edge": edge, **{f"p{j}": q for j, q in enumerate(probabilities)}}
    if _spec(c, "lhs", "formula") and set(c["lhs"].get("vars") or {}) != {f"p{j}" for j in range(s)}:
        raise Refused("lhs: one p_j per neuron of the network")
    return Sides(lhs, rhs, variables)


#: check id -> the statement it refutes (the checks of ``lemma9``).
STATEMENTS: dict[str, Statement] = {
    "lemma9/term-U-printed": Statement(
        "lemma9-proof-U", "<=", "(U) <= k^2 W^2 / 4 (proof of Lemma 9; k, W of the network)", _lemma9_term_u
    ),
    "lemma9/transition-union-printed": Statement(
        "lemma9-proof-union",
        "<=",
        "Pr_{x,i}[R_x != R_{x xor i}] <= (1/n) sum_j AS(g_j) (proof of Lemma 9)",
        _lemma9_union,
    ),
    "lemma9/transition": Statement(
        "lemma9-proof-transition",
        "<=",
        "Pr_{x,i}[R_x != R_{x xor i}] <= k sqrt(log(s/k)) / sqrt(n) (proof of Lemma 9; n, s, k of the network)",
        _lemma9_transition,
    ),
    "lemma9/proof-tail-hence-W0": Statement(
        "lemma9-proof-tail",
        "<=",
        "Pr_x[|l_{R_x}(x)| >= c k^{1.5} W sqrt(log(ns)) + kB] <= 1/(ns)^4 (proof of Lemma 9)",
        _lemma9_tail_hence,
    ),
    "lemma9/proof-V-printed": Statement(
        "lemma9-proof-V",
        "<=",
        "n[(k sqrt(log(s/k))/sqrt(n) - (ns)^-4)(c k^1.5 W sqrt(log ns) + kB)^2 + (ns)^-4 "
        "(kW sqrt(n) + kB)^2] <= C (k^4 W^2 sqrt(n) log(ns) + k^3 B^2 sqrt(log s)) (proof of Lemma 9, (V))",
        _lemma9_proof_v,
    ),
    "lemma9/transition-printed": Statement(
        "lemma9-proof-transition",
        "<=",
        "Pr_{x,i}[R_x != R_{x xor i}] <= (1/n) sum_j p_j sqrt(n log(1/p_j)), p_j = Pr_x[neuron j active] (the first "
        "inequality of term (V) of Lemma 9's proof, constant 1 as printed)",
        _lemma9_transition_printed,
    ),
    "lemma9/transition-concavity-printed": Statement(
        "lemma9-proof-transition",
        "<=",
        "(1/n) sum_j p_j sqrt(n log(1/p_j)) <= C k sqrt(log(s/k))/sqrt(n), p_j = "
        "Pr_x[neuron j active] (the concavity step of Lemma 9's proof, term (V), read up to a constant C)",
        _lemma9_concavity_printed,
    ),
    "lemma9/bound-degenerate": Statement(
        "lemma9", "<=", "AS(h) <= C (k^4 W^2 sqrt(n) log(ns) + k^3 B^2 sqrt(log s)) (Lemma 9)", _lemma9_bound
    ),
    "lemma9/tighter-4k2W2": Statement(
        "lemma9", "<=", "AS(h) <= 4 k^2 W^2 (ours; k = max(1, most active neurons), W of Definition 2)", _lemma9_tighter
    ),
    "lemma9/term-U-corrected": Statement(
        "lemma9-proof-U",
        "<=",
        "(U) <= E_x ||w^{R_x}||^2 <= k^2 W^2 (the corrected steps of (U))",
        _lemma9_term_u_corrected,
    ),
    "lemma9/transition-union-corrected": Statement(
        "lemma9-proof-union",
        "<=",
        "Pr_{x,i}[R_x != R_{x xor i}] <= (4/n) sum_j AS(g_j) (the union bound, corrected)",
        _lemma9_union_corrected,
    ),
    "lemma9/transition-corrected": Statement(
        "lemma9-proof-transition",
        "<=",
        "sum_j p_j sqrt(log(1/p_j)) <= Phi(s, k) under sum_j p_j <= k (concavity)",
        _lemma9_concavity,
    ),
}
