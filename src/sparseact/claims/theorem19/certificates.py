"""Certificates that an exact ``R_H(S)`` of the runs stage's recorded instances violates a bound of Theorem 19.

The runs stage records each instance's raw data (:func:`sparseact.claims.theorem19.compute.rademacher_data`,
:func:`sparseact.claims.theorem19.compute.worst_order`); the assembly turns a violating one into the certificate
the verifier recomputes: the explicit optimal network of each of the ``2^m`` sign vectors and the bound's formula.
"""

from __future__ import annotations

import json
from fractions import Fraction

from sparseact.claims.theorem19.compute import BOUND_EXPRS, EXACT_RTOL, ORDER_TOL
from sparseact.verify import certificates as cert
from sparseact.verify.verdicts import Verdict, verdict_at_most

#: The class ``H_{n,s,k}^{W,B}`` of a ``rademacher_lower_bound``, as its certificate names it.
CLASS = ("s", "k", "W", "B")


def with_counterexample(certificate: dict | None, counterexample: str):
    """``(certificate, counterexample)``, or ``None`` when no certificate establishes the violation (the ``build`` of
    :func:`sparseact.verify.certificates.fail_fields`)."""
    return None if certificate is None else (certificate, counterexample)


def in_class(network: dict, W: float, B: float) -> dict:
    """``network`` (``u``, ``W``, ``b``) with ``u`` shrunk by the least of the factors ``1 - 2^(i-40)`` that puts it
    exactly in the class, read as the rationals its doubles denote: ``||u||_inf max_j ||w_j|| <= W`` and
    ``||u||_inf max_j |b_j| <= B``. A search's network can exceed ``W`` by a rounding error, which the verifier would
    absorb; a certificate's networks are then exactly feasible as stored. Unchanged if no factor down to
    ``1 - 2^-20`` does it (the verifier's own scaling then decides)."""

    def fits(u: list[float]) -> bool:
        norm = max((abs(Fraction(x)) for x in u), default=Fraction(0))
        weight = max((sum(Fraction(x) ** 2 for x in row) for row in network["W"]), default=Fraction(0))
        bias = max((abs(Fraction(x)) for x in network["b"]), default=Fraction(0))
        return norm * norm * weight <= Fraction(W) ** 2 and norm * bias <= Fraction(B)

    for shrink in [0.0, *(2.0 ** (i - 40) for i in range(21))]:
        u = [x * (1.0 - shrink) for x in network["u"]]
        if fits(u):
            return {**network, "u": u}
    return network


def rademacher_sides(data: dict) -> tuple[dict, dict]:
    """The two sides of a certificate that an exact ``R_H(S)`` (all 2^m sign vectors, one network each) exceeds a
    printed bound, from the raw data :func:`sparseact.claims.theorem19.compute.rademacher_data` recorded: the
    ``rademacher_lower_bound`` of the networks (each exactly in the class, :func:`in_class`) and the bound's
    formula."""
    networks = [in_class(network, data["W"], data["B"]) for network in data["networks"]]
    lhs = cert.quantity(
        "rademacher_lower_bound", networks=networks, **{key: data[key] for key in ("X", "zetas", *CLASS)}
    )
    rhs = cert.formula(BOUND_EXPRS[data["bound"]], **{key: data[key] for key in ("W", "R", "B", "s", "n", "m", "k")})
    return lhs, rhs


def rademacher_certificate(data: dict, explanation: str, lhs_label: str, rhs_label: str) -> dict:
    """The certificate of :func:`rademacher_sides` with the recorded values."""
    lhs, rhs = rademacher_sides(data)
    return cert.certificate("<=", lhs, rhs, data["lhs_value"], data["rhs_value"], lhs_label, rhs_label, explanation)


def point_certificate(
    certs, row, bound: str, explanation: str, rhs_label: str, lhs_label: str = "R_H(S)", R: float | None = None
) -> dict:
    """:func:`rademacher_certificate` of the instance the runs stage recorded (table ``certs``)
    for the point of ``row`` against ``bound``, at the norm ``R`` when given (the points of ``scale`` share a
    sample)."""
    rows = certs[(certs["point"] == row["point"]) & (certs["bound"] == bound)] if len(certs) else certs
    if R is not None and len(rows):
        rows = rows[rows["R"] == R]
    return rademacher_certificate(json.loads(rows["data"].iloc[0]), explanation, lhs_label, rhs_label)


def estimator_certificate(data: dict) -> dict | None:
    """The certificate of a network of the class above the recorded number it must not exceed for one sign vector
    (:func:`sparseact.claims.theorem19.compute.worst_order`), or ``None`` when ``value <= limit + ORDER_TOL`` holds.

    The left side is a ``rademacher_lower_bound`` of the one sign vector, recomputed with the network's class
    membership; the right side is the recorded number plus ``ORDER_TOL``, which the verifier takes as recorded.
    """
    if verdict_at_most(data["value"] - data["limit"], ORDER_TOL) is not Verdict.FAIL:
        return None
    lhs = cert.quantity(
        "rademacher_lower_bound",
        X=data["X"],
        zetas=[data["zeta"]],
        networks=[data["network"]],
        **{key: data[key] for key in CLASS},
    )
    limit, label = float(data["limit"]), data["label"]
    return cert.certificate_if_violated(
        "<=",
        lhs,
        cert.formula("v + tol", v=limit, tol=ORDER_TOL),
        data["lhs_value"],
        limit + ORDER_TOL,
        "(1/m) sum_i zeta_i h(x_i)",
        f"{label} + {ORDER_TOL:g}",
        f"a network of the class (membership recomputed) exceeds the recorded {label} for one sign vector",
    )


def scale_corrected_certificate(data: dict) -> dict | None:
    """The certificate that the exact ``R_H(S)`` of the recorded scale exceeds the corrected (1), or ``None``
    when it does not."""
    if verdict_at_most(data["exact"], data["rhs_value"] * (1 + EXACT_RTOL)) is not Verdict.FAIL:
        return None
    return rademacher_certificate(
        data,
        "exact R_H(S) (one optimal network per sign vector, all 2^m) exceeds the corrected eq. (1)",
        "R_H(S)",
        "corrected eq. (1)",
    )
