"""Pins of the checks of ``sparseact.claims.theorem8`` (see :mod:`sparseact.verify.pins`)."""

from __future__ import annotations

import math

import numpy as np

from sparseact import bounds
from sparseact.verify.certificates import REPRODUCE_ATOL, REPRODUCE_RTOL
from sparseact.verify.recompute import (
    MAX_ENUMERATION_DIM,
    Refused,
    Sides,
    Statement,
    _active_sets,
    _integer,
    _network,
    _network_sizes,
    _number,
    _parameter,
    _spec,
    cube,
    evaluate_quantity,
    walsh_coefficients,
)


def _theorem8_rho(c: dict) -> Sides:
    """Lemma 10's bound C sqrt(1-rho)(k^4 W^2 log^2(ns/(1-rho)) + k^3 B^2 sqrt(log s)) over eps/3, at the proof's
    1 - rho = c eps^2 min{log(knsW^2/eps)/(k^8 W^4 log^4(ns)), 1/(k^6 B^4 log s)}, eps = exp(-ell), in logarithms
    (eps underflows)."""
    names = {"n": (2, 2**20), "s": (2, 2**20), "k": (1, 2**20)}
    n, s, k = (_integer(_parameter(c, "lhs", name), name, *names[name]) for name in ("n", "s", "k"))
    W, B = _number(_parameter(c, "lhs", "W"), "W", 1e-6, 1e6), _number(_parameter(c, "lhs", "B"), "B", 1e-6, 1e6)
    C = _number(_parameter(c, "lhs", "C"), "C", 1e-6, 1e6)
    ell = _number(_parameter(c, "lhs", "ell"), "ell", 0.0, 1e6)
    lomr_spec = _parameter(c, "lhs", "lomr")
    if not isinstance(lomr_spec, dict) or not isinstance(lomr_spec.get("vars"), dict):
        raise Refused("the instance has no parameter 'c' (in lhs.lomr)")
    small_c = _number(lomr_spec["vars"].get("c"), "c", 1e-300, 1.0)
    lomr = (
        math.log(small_c)
        - 2 * ell
        + math.log(
            min(
                (math.log(k * n * s * W**2) + ell) / (k**8 * W**4 * math.log(n * s) ** 4),
                1 / (k**6 * B**4 * math.log(s)),
            )
        )
    )
    ratio = (
        3
        * C
        * math.exp(lomr / 2 + ell)
        * (k**4 * W**2 * (math.log(n * s) - lomr) ** 2 + k**3 * B**2 * math.sqrt(math.log(s)))
    )
    variables = {"n": n, "s": s, "k": k, "W": W, "B": B, "C": C, "ell": ell, "c": small_c, "lomr": lomr}
    return Sides(ratio, 1.0, variables)


def _lemma7_sup_sign(c: dict) -> Sides:
    """n = 1, H = {h_+, h_-}, h_{+-}(x) = -(M/2)(1 +- x_1): C_H = sup h (as printed) is 0 and the tail above d = 1 is 0,
    so Lemma 7's count C n^d C_H^2 log(1/delta)/eps is 0; a learner with no sample outputs the same f for both, their
    losses (1/2)E(f - h)^2 sum to >= (1/4)E(h_+ - h_-)^2, so accuracy K eps with delta < 1/2 needs a sample."""
    M = _number(_parameter(c, "lhs", "M"), "M", 1e-300, 1e300)
    K = _number(_parameter(c, "lhs", "K"), "K", 1.0, 1e300)
    eps = _number(_parameter(c, "lhs", "eps"), "eps", 1e-300)
    delta = _number(_parameter(c, "lhs", "delta"), "delta", 1e-300, 1.0)
    C = _number(_parameter(c, "rhs", "C"), "C", 1e-300, 1e300)
    d = _integer(_parameter(c, "rhs", "d"), "d", 1, 1)
    X = cube(1)
    plus, minus = -(M / 2) * (1 + X[:, 0]), -(M / 2) * (1 - X[:, 0])
    if any(
        float(np.sum(walsh_coefficients(t)[np.asarray([bin(j).count("1") > d for j in range(2)])] ** 2)) > 0
        for t in (plus, minus)
    ):
        raise Refused("the two functions must have Fourier tail 0 above d")
    C_H = float(max(plus.max(), minus.max()))
    separation = float(np.mean((plus - minus) ** 2)) / 4
    lhs = 1.0 if separation > 2 * K * eps and delta < 0.5 else 0.0
    rhs = C * float(bounds.lemma7_sample_complexity(1, d, C_H, eps, delta))
    return Sides(lhs, rhs, {"M": M, "K": K, "eps": eps, "delta": delta, "C": C, "n": 1, "d": d, "C_H": C_H})


def _theorem8_final_line(c: dict) -> Sides:
    """h = lam relu(<0, x> + 1) = lam and -lam, with s - 1 zero neurons (k = 1, W = B = lam: |u| ||w|| = 0,
    |u||b| = lam); no sample tells them apart and their losses sum to >= lam^2 > 2 eps; the printed count
    C n^d log(1/delta)/eps with the degree d = ceil(c (k^8 W^4 log^4(ns) + k^6 B^4 log s)/eps^2)."""
    lam = _number(_parameter(c, "lhs", "lam"), "lam", 1e-300, 1e300)
    eps = _number(_parameter(c, "lhs", "eps"), "eps", 1e-300)
    delta = _number(_parameter(c, "lhs", "delta"), "delta", 1e-300, 1.0)
    C = _number(_parameter(c, "rhs", "C"), "C", 1e-300, 1e300)
    n = _integer(_parameter(c, "rhs", "n"), "n", 2, 16)
    s = _integer(_parameter(c, "rhs", "s"), "s", 1, 2**20)
    k = _integer(_parameter(c, "rhs", "k"), "k", 1, 1)
    X = cube(n)
    plus, minus = lam * np.maximum(X @ np.zeros(n) + 1.0, 0.0), -lam * np.maximum(X @ np.zeros(n) + 1.0, 0.0)
    separation = float(np.mean((plus - minus) ** 2)) / 4
    lhs = 1.0 if separation > 2 * eps and delta < 0.5 else 0.0
    small_c = _number(_parameter(c, "rhs", "c"), "c", 1e-300, 1e300)
    d = math.ceil(small_c * float(bounds.theorem8_degree(eps, n, s, k, lam, lam)))
    rhs = C * float(bounds.lemma7_sample_complexity(n, d, 1.0, eps, delta))
    variables = {"lam": lam, "eps": eps, "delta": delta, "C": C, "n": n, "s": s, "k": k, "W": lam, "B": lam}
    return Sides(lhs, rhs, {**variables, "c": small_c})


def _theorem4_corner(c: dict) -> Sides:
    """Theorem 4 at n = 1: the targets h = +-k (k always-active neurons u sigma(0 x + 1), u = +-1; W = 0, B = 1,
    s = k) need one sample when k^2 > 2 eps and delta < 1/2; the printed count
    C exp(c (k log(ns))^8/eps^2 log n) log(1/delta)/eps, n^{P/eps^2} with P(z) = c z^8 written with its logarithm."""
    k = _integer(_parameter(c, "lhs", "k"), "k", 1, 2**20)
    eps = _number(_parameter(c, "lhs", "eps"), "eps", 1e-300, 1e300)
    delta = _number(_parameter(c, "lhs", "delta"), "delta", 1e-300, 1.0 - 1e-16)
    n = _integer(_parameter(c, "rhs", "n"), "n", 1, 1)
    if _integer(_parameter(c, "rhs", "s"), "s", 1, 2**20) != k or _parameter(c, "rhs", "k") != k:
        raise Refused("rhs: s = k, the k always-active neurons of the instance")
    C = _number(_parameter(c, "rhs", "C"), "C", 1e-300, 1e300)
    small_c = _number(_parameter(c, "rhs", "c"), "c", 1e-300, 1e300)
    if _number(_parameter(c, "rhs", "eps"), "eps", 1e-300) != eps or _parameter(c, "rhs", "delta") != delta:
        raise Refused("the two sides must read the same eps and delta")
    lhs = float(bounds.two_point_sample_lower_bound(float(k * k), eps, delta))
    rhs = C * math.log(1 / delta) / eps  # exp(... * log(1)) = 1
    return Sides(lhs, rhs, {"k": k, "s": k, "n": n, "eps": eps, "delta": delta, "C": C, "c": small_c})


def _theorem8_tail_step(c: dict) -> Sides:
    """The chain 1 <= d(1-rho) <= 3(1-rho^d) of Theorem 8's proof at the proof's own d = ceil(bounds.theorem8_degree)
    (Theta constant 1) and 1 - rho = bounds.theorem8_one_minus_rho (constant c), both recomputed from the instance
    (eps, n, s, k, W, B, c); the certificate's relation names the link it refutes ("<=": the right one, ">=": the
    left one)."""
    eps = _number(_parameter(c, "lhs", "eps"), "eps", 1e-300, 1.0)
    n, s = (_integer(_parameter(c, "lhs", name), name, 1, 2**40) for name in ("n", "s"))
    k = _integer(_parameter(c, "lhs", "k"), "k", 1, s)
    W, B = (_number(_parameter(c, "lhs", name), name, 0.0, 1e300) for name in ("W", "B"))
    small_c = _number(_parameter(c, "lhs", "c"), "c", 1e-300, 1e300)
    omr = small_c * float(bounds.theorem8_one_minus_rho(eps, n, s, k, W, B))
    d = math.ceil(float(bounds.theorem8_degree(eps, n, s, k, W, B)))
    if not 0 < omr <= 1 or not 1 <= d < 2**53:
        raise Refused(f"the proof's 1 - rho = {omr!r} and d = {d!r} are outside (0, 1] and [1, 2^53)")
    one_minus_rho_d = -math.expm1(d * math.log1p(-omr)) if omr < 1 else 1.0
    variables = {"eps": eps, "n": n, "s": s, "k": k, "W": W, "B": B, "c": small_c, "omr": omr, "d": d}
    if c["relation"] == "<=":
        return Sides(d * omr, 3 * one_minus_rho_d, variables)
    return Sides(d * omr, 1.0, variables)


def _lemma7_projection(c: dict) -> Sides:
    """After Lemma 7: under the hypothesis sum_{|T|>d} hhat(T)^2 <= eps (checked), ||g - h||^2 = that tail <= eps/2."""
    lhs = _spec(c, "lhs", "fourier_tail")
    eps = _number(_parameter(c, "rhs", "eps"), "eps", 1e-300, 1e300)
    tail = evaluate_quantity(lhs)
    if tail > eps * (1 + REPRODUCE_RTOL) + REPRODUCE_ATOL:
        raise Refused(f"the instance breaks Lemma 7's hypothesis: tail {tail:.12g} > eps = {eps:.12g}")
    return Sides(tail, eps / 2, {"eps": eps})


def _theorem8_degree_tail(c: dict) -> Sides:
    """The proof's degree d = bounds.theorem8_degree(eps, n, s, k, W, B) of the network (n, s, k, W, B recomputed;
    any Theta constant at n = s = 1, where it is 0) makes the tail above it <= eps: a tail above a degree
    >= ceil(d) bounds the tail above ceil(d) from below."""
    lhs = _spec(c, "lhs", "fourier_tail")
    if "network" not in lhs["function"]:
        raise Refused("lhs: the statement is about a network of the class")
    eps = _number(_parameter(c, "rhs", "eps"), "eps", 1e-300, 1.0)
    n, s, k, W, B = _network_sizes(lhs["function"]["network"])
    d = math.ceil(float(bounds.theorem8_degree(eps, n, s, k, W, B)))
    degree = _integer(lhs["degree"], "d", 0, MAX_ENUMERATION_DIM)
    if degree < d:
        raise Refused(f"the tail is taken above degree {degree}, below the proof's d = {d}")
    return Sides(evaluate_quantity(lhs), eps, {"eps": eps})


def _tail_step_corrected(c: dict) -> Sides:
    """With d = ceil(1/(1-rho)), 1 - rho^d >= 1 - 1/e for rho in [0, 1) (d recomputed from 1 - rho)."""
    omr = _number(_parameter(c, "lhs", "omr"), "omr", 1e-300, 1.0)
    d = math.ceil(1 / omr)
    lhs = -math.expm1(d * math.log1p(-omr)) if omr < 1 else 1.0
    return Sides(lhs, 1 - math.exp(-1), {"omr": omr, "d": d})


def _rho_choice_corrected(c: dict) -> Sides:
    """Lemma 10's bound (constant C = 1) at 1 - rho* = min{eps^2/(36 k^8 W^4 Lambda^4), eps^2/(36 k^6 B^4 log s),
    e^-4}, Lambda = max(27, 2 log(ns) + 4 log(6k^4W^2/eps)), over eps/3, eps = exp(-ell), in logarithms."""
    names = {"n": (1, 2**40), "s": (1, 2**40), "k": (1, 2**20)}
    n, s, k = (_integer(_parameter(c, "lhs", name), name, *names[name]) for name in ("n", "s", "k"))
    W, B = (_number(_parameter(c, "lhs", name), name, 0.0, 1e6) for name in ("W", "B"))
    ell = _number(_parameter(c, "lhs", "ell"), "ell", -1e6, 1e6)
    C = 1.0
    lam_min = 27.0
    terms = [-4.0]
    if k * W > 0:
        terms.append(
            -2 * ell
            - math.log(36)
            - math.log(k**8 * W**4)
            - 4 * math.log(max(lam_min, 2 * math.log(n * s) + 4 * (math.log(6 * k**4 * W**2) + ell)))
        )
    if B > 0 and s > 1:
        terms.append(-2 * ell - math.log(36) - math.log(k**6 * B**4 * math.log(s)))
    lomr = min(terms)
    ratio = (
        3
        * C
        * math.exp(lomr / 2 + ell)
        * (k**4 * W**2 * (math.log(n * s) - lomr) ** 2 + k**3 * B**2 * math.sqrt(math.log(s)))
    )
    variables = {"C": C, "lam_min": lam_min, "ell": ell, "n": n, "s": s, "k": k, "W": W, "B": B, "lomr": lomr}
    return Sides(ratio, 1.0, variables)


def _theorem8_ch(c: dict) -> Sides:
    """C_H = k (W sqrt(n) + B) bounds |h(x)| on H_{n,s,k}^{W,B} (k = max(1, most active), W, B of Definition 2)."""
    v = _parameter(c, "lhs", "v")
    if not isinstance(v, dict) or v.get("quantity") != "value" or "network" not in v.get("function", {}):
        raise Refused("lhs: v must be the value of a network at a point")
    network = v["function"]["network"]
    n, _, k, W, B = _network_sizes(network)
    u, Wm, b = _network(network)
    value = evaluate_quantity(v)
    active = float(_active_sets(network).sum(axis=1).max())
    variables = {
        "v": value,
        "n": n,
        "k": k,
        "W": W,
        "B": B,
        "a": active,
        "u": u.tolist(),
        "M": Wm.tolist(),
        "b": b.tolist(),
    }
    return Sides(abs(value), k * (W * math.sqrt(n) + B), variables)


#: check id -> the statement it refutes (the checks of ``theorem8``).
STATEMENTS: dict[str, Statement] = {
    "theorem8/lemma7-CH-sign": Statement(
        "lemma7",
        "<=",
        "O(n^d C_H^2 log(1/delta)/eps) samples, C_H = sup_{h,x} h(x), suffice for (O(eps), delta)-PAC "
        "learning a class with tail <= eps above d (Lemma 7)",
        _lemma7_sup_sign,
    ),
    "theorem8/theorem4-n1": Statement(
        "theorem4",
        "<=",
        "sample complexity n^{poly(k log(ns))/eps^2} log(1/delta)/eps (Theorem 4, suppressing W, B), at n = 1",
        _theorem4_corner,
    ),
    "theorem8/final-line-scale": Statement(
        "theorem8-proof-final",
        "<=",
        "run time and sample complexity O(n^d log(1/delta)/eps), d = Theta((k^8 W^4 "
        "log^4(ns) + k^6 B^4 log s)/eps^2) (proof of Theorem 8, last line)",
        _theorem8_final_line,
    ),
    "theorem8/rho-choice": Statement(
        "theorem8-proof-rho",
        "<=",
        "the proof's 1 - rho makes Lemma 10's bound <= eps/3 (proof of Theorem 8)",
        _theorem8_rho,
    ),
    "theorem8/tail-step": Statement(
        "theorem8-proof-tail",
        "<=",
        "1 <= d(1-rho) <= 3(1-rho^d) at the proof's d and rho (so eps/(3(1-rho^d)) <= "
        "eps/(d(1-rho)) <= eps; proof of Theorem 8)",
        _theorem8_tail_step,
        links=(">=",),
    ),
    "theorem8/lemma7-projection-printed": Statement(
        "lemma7-proof-projection",
        "<=",
        "sum_{|T|>d} hhat(T)^2 <= eps => ||g - h||_2^2 = sum_{|T|>d} hhat(T)^2 <= eps/2 (after Lemma 7)",
        _lemma7_projection,
    ),
    "theorem8/degree-degenerate": Statement(
        "theorem8-proof-tail",
        "<=",
        "the tail of h above the proof's d = Theta((k^8 W^4 log^4(ns) + k^6 B^4 log s)/"
        "eps^2) is <= eps (proof of Theorem 8)",
        _theorem8_degree_tail,
    ),
    "theorem8/tail-step-corrected": Statement(
        "theorem8-proof-tail", ">=", "1 - rho^d >= 1 - 1/e for d = ceil(1/(1-rho)), rho in [0, 1)", _tail_step_corrected
    ),
    "theorem8/rho-choice-corrected": Statement(
        "theorem8-proof-rho",
        "<=",
        "Lemma 10's bound (C = 1) at the corrected 1 - rho* is <= eps/3",
        _rho_choice_corrected,
    ),
    "theorem8/C_H": Statement(
        "theorem8-proof-CH",
        "<=",
        "sup_x |h(x)| <= C_H = k (W sqrt(n) + B) on H_{n,s,k}^{W,B} (proof of Theorem 8)",
        _theorem8_ch,
    ),
}
