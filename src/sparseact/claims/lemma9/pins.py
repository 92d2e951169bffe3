"""The verifier's pins of the checks of ``lemma9``, read by path (:mod:`sparseact.verify.pins`)."""

from __future__ import annotations

import math
from collections.abc import Callable
from fractions import Fraction

import numpy as np

from sparseact import bounds
from sparseact.verify import exact as ex
from sparseact.verify.declarations import read_checks
from sparseact.verify.exact import Real
from sparseact.verify.pins import Pin
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
from sparseact.verify.rigorous import RigorousSides, _network_on_cube, _p, _quantity_side, _sizes, quantity


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


# ---------------------------------------------------------------------------
# Both sides in exact or interval arithmetic (the proof; shared evaluators: sparseact.verify.rigorous)
# ---------------------------------------------------------------------------


def _halfspace_sensitivities_rigorous(network: dict) -> list[Fraction]:
    return [
        quantity({"quantity": "average_sensitivity", "function": {"halfspace": {"w": w, "b": t}}})
        for w, t in zip(network["W"], network["b"], strict=True)
    ]


def _lemma9_union_rigorous(factor: int) -> Callable[[dict], RigorousSides]:
    def sides(c: dict) -> RigorousSides:
        network = _spec(c, "lhs", "transition_probability")["network"]
        n = len(network["W"][0])
        return _quantity_side(c, "lhs", "transition_probability"), Real(
            factor * sum(_halfspace_sensitivities_rigorous(network), Fraction(0)) / n
        )

    return sides


def _lemma9_term_u_rigorous(c: dict) -> RigorousSides:
    _, _, k, W, _ = _sizes(_spec(c, "lhs", "lemma9_U")["network"])
    return _quantity_side(c, "lhs", "lemma9_U"), k * k * W * W / 4


def _lemma9_transition_rigorous(c: dict) -> RigorousSides:
    n, s, k, _, _ = _sizes(_spec(c, "lhs", "transition_probability")["network"])
    return _quantity_side(c, "lhs", "transition_probability"), k * ex.sqrt(ex.log(Fraction(s, k))) / ex.sqrt(n)


def _lemma9_proof_v_rigorous(c: dict) -> RigorousSides:
    n, s, k, W, B, small_c = (_p(c, "lhs", name) for name in ("n", "s", "k", "W", "B", "c"))
    C = _p(c, "rhs", "C")
    sqrt, log = ex.sqrt, ex.log
    middle = n * (
        (k * sqrt(log(s / k)) / sqrt(n) - 1 / (n * s) ** 4) * (c_k15(small_c, k) * W * sqrt(log(n * s)) + k * B) ** 2
        + 1 / (n * s) ** 4 * (k * W * sqrt(n) + k * B) ** 2
    )
    rhs = C * (k**4 * W**2 * sqrt(n) * log(n * s) + k**3 * B**2 * sqrt(log(s)))
    return middle, rhs


def c_k15(small_c: Real, k: Real) -> Real:
    """``c k^1.5``."""
    return small_c * k * ex.sqrt(k)


def _lemma9_tail_hence_rigorous(c: dict) -> RigorousSides:
    n, B, small_c = _p(c, "lhs", "n"), _p(c, "lhs", "B"), _p(c, "lhs", "c")
    threshold = c_k15(small_c, Real(1)) * 0 * ex.sqrt(ex.log(n)) + B  # k = s = 1, W = 0
    h = B if ex.decide(B, 0) > 0 else Real(0)  # relu(<0, x> + B) is the constant relu(B)
    return Real(1 if ex.decide(abs(h), threshold) >= 0 else 0), 1 / n**4


def _lemma9_transition_printed_rigorous(c: dict) -> RigorousSides:
    return _quantity_side(c, "lhs", "transition_probability"), _quantity_side(c, "rhs", "concave_activation_sum")


def _lemma9_concavity_printed_rigorous(c: dict) -> RigorousSides:
    lhs = _spec(c, "lhs", "concave_activation_sum")
    C = _p(c, "rhs", "C")
    n, s, k, _, _ = _sizes(lhs["network"])
    return Real(quantity(lhs)), C * k * ex.sqrt(ex.log(Fraction(s, k))) / ex.sqrt(Real(n))


def _lemma9_bound_rigorous(c: dict) -> RigorousSides:
    lhs = _spec(c, "lhs", "average_sensitivity")
    C = _p(c, "rhs", "C")
    n, s, k, W, B = _sizes(lhs["function"]["network"])
    bound = k**4 * W**2 * ex.sqrt(Real(n)) * ex.log(n * s) + k**3 * B**2 * ex.sqrt(ex.log(s))
    return Real(quantity(lhs)), C * bound


def _lemma9_tighter_rigorous(c: dict) -> RigorousSides:
    lhs = _spec(c, "lhs", "average_sensitivity")
    _, _, k, W, _ = _sizes(lhs["function"]["network"])
    return Real(quantity(lhs)), 4 * k * k * W * W


def _lemma9_term_u_corrected_rigorous(c: dict) -> RigorousSides:
    lhs = c["lhs"]
    if isinstance(lhs, dict) and lhs.get("quantity") == "lemma9_U":
        return Real(quantity(lhs)), Real(quantity({"quantity": "lemma9_wR", "network": lhs["network"]}))
    _, _, k, W, _ = _sizes(_spec(c, "lhs", "lemma9_wR")["network"])
    return _quantity_side(c, "lhs", "lemma9_wR"), k * k * W * W


def _lemma9_concavity_rigorous(c: dict) -> RigorousSides:
    """sum_j p_j sqrt(log(1/p_j)) against Phi(s, k) (k sqrt(log(s/k)) when k/s <= e^-1/2, else s/sqrt(2e))."""
    network = _parameter(c, "rhs", "k")["network"]
    X, active, _, _ = _network_on_cube(network)
    probabilities = [Fraction(int(np.count_nonzero(active[:, j])), len(X)) for j in range(active.shape[1])]
    s, k = active.shape[1], max(1, int(active.sum(axis=1).max()))
    lhs = sum((q * ex.sqrt(ex.log(1 / q)) for q in probabilities if 0 < q < 1), Real(0))
    edge = ex.exp(Fraction(-1, 2))
    rhs = k * ex.sqrt(ex.log(Fraction(s, k))) if ex.decide(Fraction(k, s), edge) <= 0 else s / ex.sqrt(2 * ex.E)
    return lhs, rhs


#: The checks of the claim, read from its checks.yaml as data (their ids key :data:`PINS`).
CHECKS = read_checks("lemma9")

#: check id -> its pin (the checks of ``lemma9``): the statement it refutes with its float pass, both sides in
#: exact or interval arithmetic, and the text its certificate carries (:class:`~sparseact.verify.pins.Pin`).
PINS: dict[str, Pin] = {
    CHECKS.term_U_printed.id: Pin(
        Statement("lemma9-proof-U", "<=", "(U) <= k^2 W^2 / 4 (proof of Lemma 9; k, W of the network)", _lemma9_term_u),
        _lemma9_term_u_rigorous,
        {
            "statement": "(U) <= E[(1/4)||w^{R_x}||^2] <= k^2 W^2 / 4",
            "paper_ref": "Lemma 9 (proof, term (U))",
            "finding": "proof-slip",
            "lhs_label": "(U)",
            "rhs_label": "k^2 W^2 / 4",
            "expr": {
                "rhs": "k**2 * W**2 / 4",
            },
        },
    ),
    CHECKS.transition_union_printed.id: Pin(
        Statement(
            "lemma9-proof-union",
            "<=",
            "Pr_{x,i}[R_x != R_{x xor i}] <= (1/n) sum_j AS(g_j) (proof of Lemma 9)",
            _lemma9_union,
        ),
        _lemma9_union_rigorous(1),
        {
            "statement": "Pr_{x,i}[R_x != R_{x xor i}] <= (1/n) sum_j AS(g_j), g_j = 1{<w_j,x> > b_j}",
            "paper_ref": "Lemma 9 (proof, term (V))",
            "finding": "proof-slip",
            "lhs_label": "Pr_{x,i}[R_x != R_{x xor i}]",
            "rhs_label": "(1/n) sum_j AS(g_j)",
            "expr": {},
        },
    ),
    CHECKS.transition.id: Pin(
        Statement(
            "lemma9-proof-transition",
            "<=",
            "Pr_{x,i}[R_x != R_{x xor i}] <= k sqrt(log(s/k)) / sqrt(n) (proof of Lemma 9; n, s, k of the network)",
            _lemma9_transition,
        ),
        _lemma9_transition_rigorous,
        {
            "statement": "Pr_{x,i}[R_x != R_{x xor i}] <= k sqrt(log(s/k)) / sqrt(n)",
            "paper_ref": "Lemma 9 (proof, term (V))",
            "finding": "out-of-range",
            "lhs_label": "Pr_{x,i}[R_x != R_{x xor i}]",
            "rhs_label": "k sqrt(log(s/k)) / sqrt(n)",
            "expr": {
                "rhs": "k * sqrt(log(s / k)) / sqrt(n)",
            },
        },
    ),
    CHECKS.proof_tail_hence_W0.id: Pin(
        Statement(
            "lemma9-proof-tail",
            "<=",
            "Pr_x[|l_{R_x}(x)| >= c k^{1.5} W sqrt(log(ns)) + kB] <= 1/(ns)^4 (proof of Lemma 9)",
            _lemma9_tail_hence,
        ),
        _lemma9_tail_hence_rigorous,
        {
            "statement": "Pr_x[|l_{R_x}(x)| >= c k^{1.5} W sqrt(log(ns)) + kB] <= 1/(ns)^4 (the printed 'hence', non-strict)",
            "paper_ref": "Lemma 9 (proof, term (V), Hoeffding step)",
            "finding": ("proof-slip", "out-of-range"),
            "lhs_label": "Pr_x[|l_{R_x}(x)| >= c k^{1.5} W sqrt(log(ns)) + kB]",
            "rhs_label": "1/(ns)^4",
            "expr": {
                "lhs": "Pr_x[|relu(<0, x> + B)| >= c k**1.5 W sqrt(log(n s)) + k B]",
                "rhs": "1/(n*s)**4",
            },
        },
    ),
    CHECKS.proof_V_printed.id: Pin(
        Statement(
            "lemma9-proof-V",
            "<=",
            "n[(k sqrt(log(s/k))/sqrt(n) - (ns)^-4)(c k^1.5 W sqrt(log ns) + kB)^2 + (ns)^-4 "
            "(kW sqrt(n) + kB)^2] <= C (k^4 W^2 sqrt(n) log(ns) + k^3 B^2 sqrt(log s)) (proof of Lemma 9, (V))",
            _lemma9_proof_v,
        ),
        _lemma9_proof_v_rigorous,
        {
            "statement": "n[(k sqrt(log(s/k))/sqrt(n) - (ns)^-4)(c k^1.5 W sqrt(log(ns)) + kB)^2 + (ns)^-4 (kW sqrt(n) + kB)^2] <= O(k^4 W^2 sqrt(n) log(ns) + k^3 B^2 sqrt(log s))",  # noqa: E501
            "paper_ref": "Lemma 9 (proof, final bound on (V))",
            "finding": "proof-slip",
            "lhs_label": "n[(k sqrt(log(s/k))/sqrt(n) - (ns)^-4)(c k^1.5 W sqrt(log ns) + kB)^2 + (ns)^-4 (kW sqrt(n) + kB)^2]",
            "rhs_label": "C (k^4 W^2 sqrt(n) log(ns) + k^3 B^2 sqrt(log s))",
            "expr": {
                "lhs": "n*((k*sqrt(log(s/k))/sqrt(n) - 1/(n*s)**4)*(c*k**1.5*W*sqrt(log(n*s)) + k*B)**2 + 1/(n*s)**4*(k*W*sqrt(n) + k*B)**2)",  # noqa: E501
                "rhs": "C*(k**4*W**2*sqrt(n)*log(n*s) + k**3*B**2*sqrt(log(s)))",
            },
        },
    ),
    CHECKS.transition_printed.id: Pin(
        Statement(
            "lemma9-proof-transition",
            "<=",
            "Pr_{x,i}[R_x != R_{x xor i}] <= (1/n) sum_j p_j sqrt(n log(1/p_j)), p_j = Pr_x[neuron j active] (the first "
            "inequality of term (V) of Lemma 9's proof, constant 1 as printed)",
            _lemma9_transition_printed,
        ),
        _lemma9_transition_printed_rigorous,
        {
            "statement": "Pr_{x,i}[R_x != R_{x xor i}] <= (1/n) sum_j p_j sqrt(n log(1/p_j)) (the first inequality, constant 1 as printed)",
            "paper_ref": "Lemma 9 (proof, term (V))",
            "finding": "proof-slip",
            "lhs_label": "Pr_{x,i}[R_x != R_{x xor i}]",
            "rhs_label": "with p_j = Pr_x[neuron j active], the printed middle term (1/n) sum_j p_j sqrt(n log(1/p_j))",
            "expr": {},
        },
    ),
    CHECKS.transition_concavity_printed.id: Pin(
        Statement(
            "lemma9-proof-transition",
            "<=",
            "(1/n) sum_j p_j sqrt(n log(1/p_j)) <= C k sqrt(log(s/k))/sqrt(n), p_j = "
            "Pr_x[neuron j active] (the concavity step of Lemma 9's proof, term (V), read up to a constant C)",
            _lemma9_concavity_printed,
        ),
        _lemma9_concavity_printed_rigorous,
        {
            "statement": "(1/n) sum_j p_j sqrt(n log(1/p_j)) <= C k sqrt(log(s/k))/sqrt(n), p_j = Pr_x[neuron j active] (concavity step, read up to a constant)",  # noqa: E501
            "paper_ref": "Lemma 9 (proof, term (V))",
            "finding": "out-of-range",
            "lhs_label": "(1/n) sum_j p_j sqrt(n log(1/p_j))",
            "rhs_label": "C k sqrt(log(s/k))/sqrt(n)",
            "expr": {
                "rhs": "C*k*sqrt(log(s/k))/sqrt(n)",
            },
        },
    ),
    CHECKS.bound_degenerate.id: Pin(
        Statement(
            "lemma9", "<=", "AS(h) <= C (k^4 W^2 sqrt(n) log(ns) + k^3 B^2 sqrt(log s)) (Lemma 9)", _lemma9_bound
        ),
        _lemma9_bound_rigorous,
        {
            "statement": "AS(h) <= O(k^4 W^2 sqrt(n) log(ns) + k^3 B^2 sqrt(log s)) at n = s = 1",
            "paper_ref": "Lemma 9",
            "finding": "out-of-range",
            "lhs_label": "AS(relu(x_1))",
            "rhs_label": "C (k^4 W^2 sqrt(n) log(ns) + k^3 B^2 sqrt(log s))",
            "expr": {
                "rhs": "C*(k**4*W**2*sqrt(n)*log(n*s) + k**3*B**2*sqrt(log(s)))",
            },
        },
    ),
    CHECKS.tighter_4k2W2.id: Pin(
        Statement(
            "lemma9",
            "<=",
            "AS(h) <= 4 k^2 W^2 (ours; k = max(1, most active neurons), W of Definition 2)",
            _lemma9_tighter,
        ),
        _lemma9_tighter_rigorous,
    ),
    CHECKS.term_U_corrected.id: Pin(
        Statement(
            "lemma9-proof-U",
            "<=",
            "(U) <= E_x ||w^{R_x}||^2 <= k^2 W^2 (the corrected steps of (U))",
            _lemma9_term_u_corrected,
        ),
        _lemma9_term_u_corrected_rigorous,
    ),
    CHECKS.transition_union_corrected.id: Pin(
        Statement(
            "lemma9-proof-union",
            "<=",
            "Pr_{x,i}[R_x != R_{x xor i}] <= (4/n) sum_j AS(g_j) (the union bound, corrected)",
            _lemma9_union_corrected,
        ),
        _lemma9_union_rigorous(4),
    ),
    CHECKS.transition_corrected.id: Pin(
        Statement(
            "lemma9-proof-transition",
            "<=",
            "sum_j p_j sqrt(log(1/p_j)) <= Phi(s, k) under sum_j p_j <= k (concavity)",
            _lemma9_concavity,
        ),
        _lemma9_concavity_rigorous,
    ),
}
