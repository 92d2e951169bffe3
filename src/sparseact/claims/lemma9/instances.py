"""The rows of Lemma 9 decided on one exact instance: the printed last step of (V), the proof's "hence" line at
``W = 0``, the degenerate point ``n = s = k = 1`` and the concavity step's family, each with its certificate."""

from __future__ import annotations

import math

import numpy as np

from sparseact import bounds
from sparseact.analysis import average_sensitivity
from sparseact.bounds import C_LEMMA6
from sparseact.claims import describe_range
from sparseact.claims._checks import declared_checks
from sparseact.networks import SparseReLUNetwork
from sparseact.verify import certificates as cert
from sparseact.verify import corners
from sparseact.verify.assembly import Assembly
from sparseact.verify.verdicts import Verdict

#: The claim's checks, declared once (checks.yaml).
CHECKS = declared_checks("lemma9")

#: An instance of the printed last step of (V) at unit constants and a moderate scale (the middle expression is at
#: least ``k^3 B^2 sqrt(n log(s/k))``; the closed form in lemma9-V-no-constant covers every constant).
V_STEP_INSTANCE = dict(n=100, s=4, k=1, W=0.1, B=1.0, c=1.0, C=1.0)

#: Lemma 9's printed bound with an explicit constant C in the certificates' formula language.
LEMMA9_BOUND = "C*(k**4*W**2*sqrt(n)*log(n*s) + k**3*B**2*sqrt(log(s)))"


def proof_v_printed_record(assembly):
    """``lemma9/proof-V-printed``: the printed last step of (V) at :data:`V_STEP_INSTANCE`, certified when the middle
    expression exceeds the last."""
    inst = V_STEP_INSTANCE
    n, s, k, W, B, c, C = (inst[key] for key in ("n", "s", "k", "W", "B", "c", "C"))
    middle_expr = (
        "n*((k*sqrt(log(s/k))/sqrt(n) - 1/(n*s)**4)*(c*k**1.5*W*sqrt(log(n*s)) + k*B)**2 "
        "+ 1/(n*s)**4*(k*W*sqrt(n) + k*B)**2)"
    )
    env = dict(n=n, s=s, k=k, W=W, B=B, c=c)
    middle = bounds.lemma9_proof_V_middle(n, s, k, W, B, c)
    last = C * (k**4 * W**2 * math.sqrt(n) * math.log(n * s) + k**3 * B**2 * math.sqrt(math.log(s)))
    certificate = cert.certificate_if_violated(
        "<=",
        cert.formula(middle_expr, **env),
        cert.formula(LEMMA9_BOUND, C=C, **env),
        middle,
        last,
        "n[(k sqrt(log(s/k))/sqrt(n) - (ns)^-4)(c k^1.5 W sqrt(log ns) + kB)^2 + (ns)^-4 (kW sqrt(n) + kB)^2]",
        "C (k^4 W^2 sqrt(n) log(ns) + k^3 B^2 sqrt(log s))",
        f"n = {n}, s = {s}, k = {k}, W = {W:g}, B = {B:g}, c = {c:g}, C = {C:g}. The middle expression is at least "
        "its bias part k^3 B^2 sqrt(n log(s/k)), while for W <= n^(-1/4) log(4n)^(-1/2) the right side stays below "
        "2C sqrt(log s): the ratio grows like sqrt(n)/C, unbounded in n for every constant C (and every c)",
    )
    return assembly.record(
        CHECKS.proof_V_printed,
        "as printed",
        middle / last,
        "middle expression / (C x last expression)",
        Verdict.FAIL if certificate else Verdict.INCONCLUSIVE,
        1,
        "the middle expression's bias part is k^3 B^2 sqrt(n log(s/k)), sqrt(n) above the printed B term. "
        "(V) <= AS(h) <= 4 k^2 W^2 (lemma9-sharp) holds anyway",
        covered=describe_range(
            [V_STEP_INSTANCE], ["n", "s", "k", "W", "B"], "one formula instance; closed form for every constant"
        ),
        build=lambda: (
            certificate,
            f"W = {W:g}, B = 1, k = 1, s = 4, n = {n}: middle = {middle:.4g} > {C:g} x last = {last:.4g}",
        ),
    )


#: The proof's "hence" line at W = 0: h = relu(<0, x> + 1) = 1 = kB on n = 2, s = k = 1, B = 1.
TAIL_W0_INSTANCE = dict(n=2, B=1.0, c=4.0)


def tail_hence_w0_certificate():
    """The certificate refuting the printed (non-strict) "hence" line of Lemma 9's tail step at ``W = 0``, or ``None``.

    ``h(x) = relu(<0, x> + 1) = 1`` is in ``H_{2,1,1}^{0,1}``; ``Pr_x[|l_{R_x}(x)| >= c k^{1.5} W sqrt(log(ns)) + kB]
    = Pr[1 >= 1] = 1 > 1/(ns)^4 = 1/16`` for every ``c``. With ``>`` the probability is 0.
    """
    c = TAIL_W0_INSTANCE
    n, B = c["n"], c["B"]
    net = SparseReLUNetwork([1.0], [[0.0] * n], [-B])
    X = np.array([[1 - 2 * ((j >> i) & 1) for i in range(n)] for j in range(1 << n)], dtype=float)
    h = np.asarray(net(X), dtype=float)
    threshold = c["c"] * 0.0 + 1 * B  # c k^1.5 W sqrt(log(ns)) + kB, W = 0, k = 1
    prob = float(np.mean(np.abs(h) >= threshold))
    return cert.certificate_if_violated(
        "<=",
        cert.formula(
            "Pr_x[|relu(<0, x> + B)| >= c k**1.5 W sqrt(log(n s)) + k B]", n=n, B=B, c=c["c"], W=0.0, k=1, s=1
        ),
        cert.formula("1/(n*s)**4", n=n, s=1),
        prob,
        1 / n**4,
        "Pr_x[|l_{R_x}(x)| >= c k^{1.5} W sqrt(log(ns)) + kB]",
        "1/(ns)^4",
        f"n = {n}, s = k = 1, W = 0, B = {B:g}: h = relu(<0, x> + {B:g}) = kB everywhere, so the printed non-strict "
        f"event |l_{{R_x}}(x)| >= c k^1.5 W sqrt(log ns) + kB = kB has probability 1 > 1/(ns)^4 = 1/16 for every c; "
        "with a strict > it has probability 0",
    )


def tail_hence_w0_record():
    certificate = tail_hence_w0_certificate()
    c = TAIL_W0_INSTANCE
    return Assembly("lemma9").row(
        CHECKS.proof_tail_hence_W0,
        variant="as printed, W = 0",
        instances=1,
        worst_value=certificate["lhs_value"] if certificate else 0.0,
        worst_value_label="probability",
        covered=f"n = {c['n']}, s = k = 1, W = 0, B = {c['B']:g}, every c",
        verdict=Verdict.FAIL if certificate else Verdict.INCONCLUSIVE,
        # W = 0 is the degenerate class of the corner rule: the printed line fails only there
        finding=corners.finding(CHECKS.proof_tail_hence_W0["finding"][0], [corners.certificate_in_corner(certificate)])
        if certificate
        else "",
        certificate=certificate,
        counterexample="h = 1 = kB, n = 2: Pr[|h| >= kB] = 1 > 1/16" if certificate else "",
    )


#: The constant of the degenerate-point certificate: no constant helps where the printed bound is 0.
DEGENERATE_C = 1e12


def degenerate_record(assembly):
    """``lemma9/bound-degenerate``: at ``n = s = k = 1`` the printed logarithms vanish, so the bound is 0 for every
    constant while ``AS(relu(x_1)) = 1/4`` (exact); the class follows the degenerate-corner rule."""
    net = SparseReLUNetwork([1.0], [[1.0]], [0.0])
    value = float(average_sensitivity(net.truth_table()))
    expression = float(bounds.lemma9_average_sensitivity(1, 1, 1, 1.0, 0.0))
    certificate = cert.certificate_if_violated(
        "<=",
        cert.quantity("average_sensitivity", function={"network": cert.network_spec(net)}),
        cert.formula(LEMMA9_BOUND, C=DEGENERATE_C, n=1, s=1, k=1, W=1.0, B=0.0),
        value,
        DEGENERATE_C * expression,
        "AS(relu(x_1))",
        "C (k^4 W^2 sqrt(n) log(ns) + k^3 B^2 sqrt(log s))",
        f"n = s = k = 1, W = 1, B = 0: log(ns) = log s = 0, so the bound is 0 for every constant C (here "
        f"{DEGENERATE_C:g}), while AS(relu(x_1)) = 1/4 (the neuron flips on every edge). Degenerate: the printed "
        "logarithms vanish exactly at n = s = 1",
    )
    return assembly.row(
        CHECKS.bound_degenerate,
        variant="as printed, degenerate point",
        instances=1,
        **corners.degenerate_point_fields(certificate, value, expression, "AS"),
        counterexample=f"h = relu(x_1), n = s = 1: AS = {value:g} > 0 = bound" if certificate else "",
        covered="n = s = k = 1, W = 1, B = 0",
        notes="the degenerate corner of Lemma 9: for n >= 2, AS <= 4k^2W^2 (lemma9-sharp) gives the bound with an "
        f"explicit constant ({CHECKS.bound.id})",
    )


#: The concavity step's instance: k copies of relu(x_1) on n = 1 (each active with probability 1/2) and one neuron
#: that never fires, so s = k + 1 and log(s/k) > 0; the constant refuted is the corrected chain's 4 C_6.
CONCAVITY_K = 1000
#: The concavity step's bound, (V)'s k sqrt(log(s/k))/sqrt(n), with the constant C the check states.
CONCAVITY_BOUND = "C*k*sqrt(log(s/k))/sqrt(n)"


def concavity_record(assembly):
    """``lemma9/transition-concavity-printed``: the step sum_j p_j sqrt(n log(1/p_j))/n <= C k sqrt(log(s/k))/sqrt(n)
    fails for s = k + 1 with k live neurons of p_j = 1/2: the left side is k sqrt(log 2)/2, the right side about
    C sqrt(k), so it fails for every C once k > (2C/sqrt(log 2))^2; certified at C = 4 C_6 (the constant the corrected
    chain carries)."""
    k = CONCAVITY_K
    net = SparseReLUNetwork([1.0] * (k + 1), [[1.0]] * k + [[0.0]], [0.0] * k + [1.0])
    constant = 4 * C_LEMMA6
    middle = k * 0.5 * math.sqrt(math.log(2.0))
    bound = constant * k * math.sqrt(math.log((k + 1) / k))
    certificate = cert.certificate_if_violated(
        "<=",
        cert.quantity("concave_activation_sum", network=cert.network_spec(net)),
        cert.formula(CONCAVITY_BOUND, C=constant, k=k, s=k + 1, n=1),
        middle,
        bound,
        "(1/n) sum_j p_j sqrt(n log(1/p_j))",
        "C k sqrt(log(s/k))/sqrt(n)",
        f"n = 1, {k} copies of relu(x_1) (each active with probability p_j = 1/2, at most k = {k} at once) and one "
        f"neuron that never fires (s = k + 1): the middle of the chain is k sqrt(log 2)/2 = {middle:.4g}, while "
        f"C k sqrt(log(s/k)) = {bound:.4g} at C = 4 C_6 = {constant:.4g}. One member of a family: the right side is "
        "about C sqrt(k), so every constant C fails once k > (2C/sqrt(log 2))^2; the printed concavity step takes "
        "p_j = k/s as the maximiser, which it is only for k/s <= e^(-1/2)",
    )
    return assembly.row(
        CHECKS.transition_concavity_printed,
        variant="as printed",
        instances=1,
        worst_value=middle / bound,
        worst_value_label="middle / (4 C_6 k sqrt(log(s/k)))",
        verdict=Verdict.FAIL if certificate else Verdict.PASS,
        certificate=certificate,
        # log(s/k) < 1/2 here: with the logarithm floored at 1 the same constant covers the step (a log corner)
        finding=corners.finding(
            CHECKS.transition_concavity_printed["finding"][0],
            [corners.certificate_in_corner(certificate)],
        )
        if certificate
        else "",
        counterexample=(
            f"k = {k}, s = k + 1, n = 1, p_j = 1/2: middle {middle:.4g} > {bound:.4g} = 4 C_6 k sqrt(log(s/k))"
        )
        if certificate
        else "",
        covered=f"n = 1, s = {k + 1}, k = {k}",
        notes="the step holds with Phi(s, k) in place of k sqrt(log(s/k)) "
        f"({CHECKS.transition_corrected.id}); Lemma 9 survives through lemma9-sharp",
    )
