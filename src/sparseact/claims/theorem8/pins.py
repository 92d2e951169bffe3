"""The verifier's pins of the checks of ``theorem8``, read by path (:mod:`sparseact.verify.pins`)."""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np

from sparseact import bounds
from sparseact.verify import exact as ex
from sparseact.verify.certificates import REPRODUCE_ATOL, REPRODUCE_RTOL
from sparseact.verify.declarations import read_checks
from sparseact.verify.exact import Real
from sparseact.verify.pins import Pin
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
from sparseact.verify.rigorous import RigorousSides, _nested, _p, _quantity_side, _sizes, quantity


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


# ---------------------------------------------------------------------------
# Both sides in exact or interval arithmetic (the proof; shared evaluators: sparseact.verify.rigorous)
# ---------------------------------------------------------------------------


def _theorem8_degree(eps, n, s, k, W, B) -> Real:
    return (k**8 * W**4 * ex.log(n * s) ** 4 + k**6 * B**4 * ex.log(s)) / eps**2


def _theorem8_one_minus_rho(eps, n, s, k, W, B) -> Real:
    terms = []
    den1 = k**8 * W**4 * ex.log(n * s) ** 4
    den2 = k**6 * B**4 * ex.log(s)
    if den1.exact != 0:
        terms.append(ex.log(k * n * s * W**2 / eps) / den1)
    if den2.exact != 0:
        terms.append(1 / den2)
    if not terms:
        raise Refused("the proof's 1 - rho is infinite at this instance")
    return eps**2 * ex.minimum(*terms)


def _theorem8_tail_step_rigorous(c: dict) -> RigorousSides:
    eps, n, s, k, W, B, small_c = (_p(c, "lhs", name) for name in ("eps", "n", "s", "k", "W", "B", "c"))
    omr = small_c * _theorem8_one_minus_rho(eps, n, s, k, W, B)
    d = ex.ceil(_theorem8_degree(eps, n, s, k, W, B))
    if c["relation"] == "<=":
        return d * omr, 3 * (1 - (1 - omr) ** d)
    return d * omr, Real(1)


def _theorem8_degree_tail_rigorous(c: dict) -> RigorousSides:
    lhs = _spec(c, "lhs", "fourier_tail")
    eps = _p(c, "rhs", "eps")
    n, s, k, W, B = _sizes(lhs["function"]["network"])
    if _integer(lhs.get("degree"), "degree", 0, 2**31) < ex.ceil(_theorem8_degree(eps, n, s, k, W, B)):
        raise Refused("the tail is taken below the proof's degree")
    return Real(quantity(lhs)), eps


def _lemma7_projection_rigorous(c: dict) -> RigorousSides:
    tail = _quantity_side(c, "lhs", "fourier_tail")
    eps = _p(c, "rhs", "eps")
    if ex.decide(tail, eps) > 0:
        raise Refused("the instance breaks Lemma 7's hypothesis: tail > eps (exactly)")
    return tail, eps / 2


def _lemma7_count(n, d, C_H, eps, delta) -> Real:
    return n**d * C_H**2 * ex.log(1 / delta) / eps


def _lemma7_sup_sign_rigorous(c: dict) -> RigorousSides:
    M, K, eps, delta = (_p(c, "lhs", name) for name in ("M", "K", "eps", "delta"))
    C, d = _p(c, "rhs", "C"), _p(c, "rhs", "d")
    # h_+(x) = -(M/2)(1 + x_1), h_- = -(M/2)(1 - x_1): sup h = 0 (at x_1 = -1, resp. 1); (1/4) E(h_+ - h_-)^2 = M^2/4
    C_H = Real(0)
    lhs = 1 if ex.decide(M**2 / 4, 2 * K * eps) > 0 and ex.decide(delta, Fraction(1, 2)) < 0 else 0
    return Real(lhs), C * _lemma7_count(Real(1), d, C_H, eps, delta)


def _theorem8_final_line_rigorous(c: dict) -> RigorousSides:
    lam, eps, delta = (_p(c, "lhs", name) for name in ("lam", "eps", "delta"))
    C, n, s, k, small_c = (_p(c, "rhs", name) for name in ("C", "n", "s", "k", "c"))
    lhs = 1 if ex.decide(lam**2, 2 * eps) > 0 and ex.decide(delta, Fraction(1, 2)) < 0 else 0
    d = ex.ceil(small_c * _theorem8_degree(eps, n, s, k, lam, lam))
    return Real(lhs), C * _lemma7_count(n, d, Real(1), eps, delta)


def _theorem4_corner_rigorous(c: dict) -> RigorousSides:
    k, eps, delta = (_p(c, "lhs", name) for name in ("k", "eps", "delta"))
    C, small_c, n, s = (_p(c, "rhs", name) for name in ("C", "c", "n", "s"))
    lhs = 1 if ex.decide(k * k, 2 * eps) > 0 and ex.decide(delta, Fraction(1, 2)) < 0 else 0
    log_n = ex.log(n)
    exponent = small_c * (k * ex.log(n * s)) ** 8 / eps**2 * log_n
    return Real(lhs), C * ex.exp(exponent) * ex.log(1 / delta) / eps


def _theorem8_rho_rigorous(c: dict) -> RigorousSides:
    n, s, k, W, B, C, ell = (_p(c, "lhs", name) for name in ("n", "s", "k", "W", "B", "C", "ell"))
    small_c = _nested(c, "lhs", "lomr", "c")
    log = ex.log
    lomr = (
        log(small_c)
        - 2 * ell
        + log(ex.minimum((log(k * n * s * W**2) + ell) / (k**8 * W**4 * log(n * s) ** 4), 1 / (k**6 * B**4 * log(s))))
    )
    ratio = 3 * C * ex.exp(lomr / 2 + ell) * (k**4 * W**2 * (log(n * s) - lomr) ** 2 + k**3 * B**2 * ex.sqrt(log(s)))
    return ratio, Real(1)


def _tail_step_corrected_rigorous(c: dict) -> RigorousSides:
    omr = _p(c, "lhs", "omr")
    d = ex.ceil(1 / omr)
    return 1 - (1 - omr) ** d, 1 - ex.exp(-1)


def _theorem8_ch_rigorous(c: dict) -> RigorousSides:
    v = _parameter(c, "lhs", "v")
    n, _, k, W, B = _sizes(v["function"]["network"])
    return abs(Real(quantity(v))), k * (W * ex.sqrt(n) + B)


def _rho_choice_corrected_rigorous(c: dict) -> RigorousSides:
    n, s, k, W, B, ell = (_p(c, "lhs", name) for name in ("n", "s", "k", "W", "B", "ell"))
    log = ex.log
    terms = [Real(-4)]
    if ex.decide(k * W, 0) > 0:
        terms.append(
            -2 * ell
            - log(36)
            - log(k**8 * W**4)
            - 4 * log(ex.maximum(27, 2 * log(n * s) + 4 * (log(6 * k**4 * W**2) + ell)))
        )
    if ex.decide(B, 0) > 0 and ex.decide(s, 1) > 0:
        terms.append(-2 * ell - log(36) - log(k**6 * B**4 * log(s)))
    lomr = ex.minimum(*terms)
    ratio = 3 * ex.exp(lomr / 2 + ell) * (k**4 * W**2 * (log(n * s) - lomr) ** 2 + k**3 * B**2 * ex.sqrt(log(s)))
    return ratio, Real(1)


#: The checks of the claim, read from its checks.yaml as data (their ids key :data:`PINS`).
CHECKS = read_checks("theorem8")

#: check id -> its pin (the checks of ``theorem8``): the statement it refutes with its float pass, both sides in
#: exact or interval arithmetic, and the text its certificate carries (:class:`~sparseact.verify.pins.Pin`).
PINS: dict[str, Pin] = {
    CHECKS.lemma7_CH_sign.id: Pin(
        Statement(
            "lemma7",
            "<=",
            "O(n^d C_H^2 log(1/delta)/eps) samples, C_H = sup_{h,x} h(x), suffice for (O(eps), delta)-PAC "
            "learning a class with tail <= eps above d (Lemma 7)",
            _lemma7_sup_sign,
        ),
        _lemma7_sup_sign_rigorous,
        {
            "statement": "(O(eps), delta)-PAC from O(n^d C_H^2 log(1/delta)/eps) samples with C_H = sup_{h,x} h(x)",
            "paper_ref": "Lemma 7",
            "finding": "typo",
            "lhs_label": "samples any learner needs for squared loss <= K eps with probability >= 1 - delta",
            "rhs_label": "Lemma 7's O(n^d C_H^2 log(1/delta)/eps) with C_H = sup_{h,x} h(x) as printed",
            "expr": {
                "lhs": "1 if M**2/4 > 2*K*eps and delta < 1/2 else 0",
                "rhs": "C * n**d * C_H**2 * log(1/delta) / eps",
            },
        },
    ),
    CHECKS.theorem4_n1.id: Pin(
        Statement(
            "theorem4",
            "<=",
            "sample complexity n^{poly(k log(ns))/eps^2} log(1/delta)/eps (Theorem 4, suppressing W, B), at n = 1",
            _theorem4_corner,
        ),
        _theorem4_corner_rigorous,
        {
            "statement": "sample complexity n^{poly(k log(ns))/eps^2} log(1/delta)/eps (suppressing W, B), at n = 1",
            "paper_ref": "Theorem 4 (Section 1)",
            "finding": "out-of-range",
            "lhs_label": "samples any learner needs (targets h = k and h = -k: with no sample nothing tells them apart)",
            "rhs_label": "Theorem 4's count n^{P(k log(ns))/eps^2} log(1/delta)/eps, hidden constant C, P(z) = c z^8",
            "expr": {
                "lhs": "1 if k**2 > 2*eps and delta < 1/2 else 0",
                "rhs": "C*exp(c*(k*log(n*s))**8/eps**2*log(n))*log(1/delta)/eps",
            },
        },
    ),
    CHECKS.final_line_scale.id: Pin(
        Statement(
            "theorem8-proof-final",
            "<=",
            "run time and sample complexity O(n^d log(1/delta)/eps), d = Theta((k^8 W^4 "
            "log^4(ns) + k^6 B^4 log s)/eps^2) (proof of Theorem 8, last line)",
            _theorem8_final_line,
        ),
        _theorem8_final_line_rigorous,
        {
            "statement": "run time and sample complexity O(n^d log(1/delta)/eps) with d as printed, at every scale of the class",
            "paper_ref": "Theorem 8 (proof, last line)",
            "finding": "typo",
            "lhs_label": "samples any learner needs (targets h = lam and h = -lam: with no sample nothing tells them apart)",
            "rhs_label": "the last line's count C n^d log(1/delta)/eps at the printed degree d",
            "expr": {
                "lhs": "1 if lam**2 > 2*eps and delta < 1/2 else 0",
                "rhs": "C * n**ceil(c*(k**8*W**4*log(n*s)**4 + k**6*B**4*log(s))/eps**2) * log(1/delta) / eps",
            },
        },
    ),
    CHECKS.rho_choice.id: Pin(
        Statement(
            "theorem8-proof-rho",
            "<=",
            "the proof's 1 - rho makes Lemma 10's bound <= eps/3 (proof of Theorem 8)",
            _theorem8_rho,
        ),
        _theorem8_rho_rigorous,
        {
            "statement": "1 - rho = c eps^2 min{log(knsW^2/eps)/(k^8W^4 log^4(ns)), 1/(k^6B^4 log s)} makes Lemma 10's bound <= eps/3 for some constant c",  # noqa: E501
            "paper_ref": "Theorem 8 (proof)",
            "finding": "proof-slip",
            "lhs_label": "Lemma 10's bound C sqrt(1-rho)(k^4 W^2 log^2(ns/(1-rho)) + k^3 B^2 sqrt(log s)) / (eps/3) at the printed 1-rho, eps = exp(-ell)",  # noqa: E501
            "rhs_label": "1 (the step's NS_rho <= eps/3)",
            "expr": {
                "lhs": "3*C*exp(lomr/2 + ell)*(k**4*W**2*(log(n*s) - lomr)**2 + k**3*B**2*sqrt(log(s)))",
                "lhs.lomr": "log(c) - 2*ell + log(min((log(k*n*s*W**2) + ell)/(k**8*W**4*log(n*s)**4), 1/(k**6*B**4*log(s))))",
                "rhs": "1",
            },
        },
    ),
    CHECKS.tail_step.id: Pin(
        Statement(
            "theorem8-proof-tail",
            "<=",
            "1 <= d(1-rho) <= 3(1-rho^d) at the proof's d and rho (so eps/(3(1-rho^d)) <= "
            "eps/(d(1-rho)) <= eps; proof of Theorem 8)",
            _theorem8_tail_step,
            links=(">=",),
        ),
        _theorem8_tail_step_rigorous,
        {
            "statement": "sum_{|T|>d} fhat(T)^2 <= eps/(3(1-rho^d)) <= eps/(d(1-rho)) <= eps for the proof's d and rho",
            "paper_ref": "Theorem 8 (proof)",
            "finding": "proof-slip",
            "lhs_label": "d(1-rho)",
            "rhs_label": "3(1-rho^d)",
            "expr": {
                "lhs": "d*omr",
                "rhs": "3*(1 - (1 - omr)**d)",
            },
        },
    ),
    CHECKS.lemma7_projection_printed.id: Pin(
        Statement(
            "lemma7-proof-projection",
            "<=",
            "sum_{|T|>d} hhat(T)^2 <= eps => ||g - h||_2^2 = sum_{|T|>d} hhat(T)^2 <= eps/2 (after Lemma 7)",
            _lemma7_projection,
        ),
        _lemma7_projection_rigorous,
        {
            "statement": "||g - h||_2^2 = sum_{|T|>d} hhat(T)^2 <= eps/2 under Lemma 7's hypothesis (tail <= eps)",
            "paper_ref": "Section 2.1 (after Lemma 7)",
            "finding": "proof-slip",
            "lhs_label": "||g - h||_2^2 = sum_{|T|>d} hhat(T)^2",
            "rhs_label": "eps/2",
            "expr": {
                "rhs": "eps / 2",
            },
        },
    ),
    CHECKS.degree_degenerate.id: Pin(
        Statement(
            "theorem8-proof-tail",
            "<=",
            "the tail of h above the proof's d = Theta((k^8 W^4 log^4(ns) + k^6 B^4 log s)/"
            "eps^2) is <= eps (proof of Theorem 8)",
            _theorem8_degree_tail,
        ),
        _theorem8_degree_tail_rigorous,
        {
            "statement": "the proof's d makes the tail <= eps, at n = s = 1",
            "paper_ref": "Theorem 8 (proof)",
            "finding": "out-of-range",
            "lhs_label": "sum_{|T|>d} hhat(T)^2 at the printed d",
            "rhs_label": "eps",
            "expr": {
                "rhs": "eps",
            },
        },
    ),
    CHECKS.tail_step_corrected.id: Pin(
        Statement(
            "theorem8-proof-tail",
            ">=",
            "1 - rho^d >= 1 - 1/e for d = ceil(1/(1-rho)), rho in [0, 1)",
            _tail_step_corrected,
        ),
        _tail_step_corrected_rigorous,
    ),
    CHECKS.rho_choice_corrected.id: Pin(
        Statement(
            "theorem8-proof-rho",
            "<=",
            "Lemma 10's bound (C = 1) at the corrected 1 - rho* is <= eps/3",
            _rho_choice_corrected,
        ),
        _rho_choice_corrected_rigorous,
    ),
    CHECKS.C_H.id: Pin(
        Statement(
            "theorem8-proof-CH",
            "<=",
            "sup_x |h(x)| <= C_H = k (W sqrt(n) + B) on H_{n,s,k}^{W,B} (proof of Theorem 8)",
            _theorem8_ch,
        ),
        _theorem8_ch_rigorous,
    ),
}
