"""Certificates of the fixed instances of :mod:`sparseact.claims.theorem19.steps` (the assembly builds them).

The runs stage records each instance (``eq12_instance``, ``eq7_instance``, ``ties_instance``) in the
``steps_fixed`` table when its two sides are measured the wrong way round; these functions turn an
instance into the certificate of its violation.
"""

from __future__ import annotations

from sparseact.claims.theorem19.steps import (
    EQ7_NETWORK,
    EQ7_X,
    EQ8_EXPR,
    EQ12_B,
    EQ12_RHS_EXPR,
    EQ12_W,
    EQ12_X,
    EQ14_EXPR,
    HOEFFDING_C,
    TIES_INSTANCE,
)
from sparseact.verify import certificates


def eq12_certificate(instance: dict) -> dict:
    nets = [dict(u=[u], W=[[w]], b=[b]) for u, w, b in instance["networks"]]
    lhs = certificates.quantity(
        "first_term_lower_bound", X=instance["X"], zetas=instance["zetas"], networks=nets, s=1, k=1, W=EQ12_W, B=EQ12_B
    )
    rhs = certificates.formula(EQ12_RHS_EXPR, W=EQ12_W, m=len(instance["X"]), x=[r[0] for r in EQ12_X])
    return certificates.certificate(
        "<=",
        lhs,
        rhs,
        instance["lhs"],
        instance["rhs"],
        "E_zeta max_h (1/m) sum_j sum_{i in I_j} zeta_i u_j <w_j, x_i> (first term of (4), explicit networks)",
        "(1/m) max_h sum_j |u_j| ||w_j|| E_zeta ||sum_{i in I_j} zeta_i x_i|| (right side of (12), bounded above by "
        "W/m max over all subsets I)",
        "n = s = k = 1, x = (1, -1), W = 1, B = 2: the maximising network takes the cell {1, 2} when zeta_1 = -zeta_2 "
        "and a single point otherwise, so E max = 0.75 W exceeds max E = 0.5 W: the expectation of (12) cannot act on "
        "cells that depend on zeta",
    )


def eq7_certificate(instance: dict, relation: str = "==") -> dict:
    """``sum_j |I_j| = m`` (eq. (7), ``relation "=="``) or ``sum_j |I_j| <= k m`` (the k-sparse extension, ``"<="``,
    ``k = 1``) violated by the printed cells of :data:`EQ7_NETWORK`."""
    rhs = (
        certificates.formula("m", m=instance["m"])
        if relation == "=="
        else certificates.formula("k*m", k=1, m=instance["m"])
    )
    return certificates.certificate(
        relation,
        certificates.quantity("cell_sizes_sum", X=EQ7_X, network=EQ7_NETWORK, k=1),
        rhs,
        instance["sum_cells"],
        instance["m"],
        "sum_j |I_j| with I_j = {i : <w_j, x_i> - b_j >= 0} (printed)",
        "m" if relation == "==" else "k m (k = 1)",
        "n = 1, x = (0, 1, -1), h(x) = relu(x) + relu(-x) is 1-sparsely activated on the sample, yet x = 0 lies in "
        "both printed I_j (a tie at 0 counts for two neurons): sum_j |I_j| = 4 "
        + ("!= m = 3" if relation == "==" else "> k m = 3"),
    )


def ties_certificate(instance: dict, term: str) -> dict:
    """The certificate that (14) (``term "first"``) or (8) (``"second"``) fails with the printed cells."""
    spec = dict(
        X=instance["X"],
        zetas=instance["zetas"],
        networks=instance["networks"],
        s=TIES_INSTANCE["s"],
        k=1,
        W=TIES_INSTANCE["W"],
        B=TIES_INSTANCE["B"],
    )
    variables = {key: TIES_INSTANCE[key] for key in ("m", "n", "s")}
    if term == "first":
        lhs = certificates.quantity("first_term_lower_bound", **spec)
        rhs = certificates.formula(EQ14_EXPR, W=TIES_INSTANCE["W"], R=TIES_INSTANCE["R"], **variables)
        labels = (
            "E_zeta max_h (1/m) sum_j sum_{i in I_j} zeta_i u_j <w_j, x_i> (first term of (4), printed I_j)",
            "4 W R sqrt(n s log(mR))/sqrt(m) (14)",
        )
        bound = instance["eq14"]
    else:
        lhs = certificates.quantity("second_term_lower_bound", **spec)
        rhs = certificates.formula(EQ8_EXPR, B=TIES_INSTANCE["B"], c=HOEFFDING_C, **variables)
        labels = (
            "E_zeta max_h (1/m) sum_j sum_{i in I_j} zeta_i u_j b_j (second term of (4), printed I_j)",
            "4 B sqrt(s n c log(mB))/sqrt(m) (8), c = 2",
        )
        bound = instance["eq8"]
    return certificates.certificate(
        "<=",
        lhs,
        rhs,
        instance[term],
        bound,
        *labels,
        f"m = {TIES_INSTANCE['m']} equal points x_i = 1 (n = 1, R = 1) and s = {TIES_INSTANCE['s']} neurons "
        "+-relu(x - 1): every point is tied at 0 with every neuron, so the network is 1-sparsely activated (no "
        "neuron fires), yet every printed I_j = {i : <w_j, x_i> - b_j >= 0} is the whole sample and the term is "
        f"s E|sum_i zeta_i| / m = {instance[term]:g}, linear in s, above the bound's sqrt(s)",
    )


#: The certificate of each fixed step's recorded instance.
FIXED_CERTIFICATES = {
    "eq12": eq12_certificate,
    "eq7": eq7_certificate,
    "km": lambda instance: eq7_certificate(instance, "<="),
    "eq8-ties": lambda instance: ties_certificate(instance, "second"),
    "eq14-ties": lambda instance: ties_certificate(instance, "first"),
}
