"""Certificates of the claim ``section4_parity``, from the first differing input the runs stage recorded.

:func:`sparseact.claims.section4_parity.compute.run` records, in ``parity_failures``, the raw data of the first
input where a check's two sides differ, named by the builder that certifies it; :func:`certify` turns one into the
counterexample and the certificate the verifier recomputes.
"""

from __future__ import annotations

from functools import partial

from sparseact.claims._readings import active_neurons, at_most_one, instance_arguments, ints
from sparseact.claims.section4_parity.compute import VARIANT_LABELS
from sparseact.verify import certificates as cert
from sparseact.verify.certificates import network_spec

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


def certify(data: dict) -> dict:
    """The counterexample and certificate of one recorded instance: ``data`` names its builder
    (:data:`CERTIFICATES`) and holds the builder's arguments (a network as its ``u, W, b``)."""
    return CERTIFICATES[data["builder"]](**instance_arguments(data, ("x", "y", "w")))


def _spec(m, S, variant, counterexample, certificate) -> dict:
    return dict(
        m=m,
        S=" ".join(map(str, S)),
        variant=variant,
        counterexample=counterexample,
        certificate=certificate,
    )


def _failure(kind, m, S, shifts, y, x, net, variant) -> dict:
    """Certificate of ``chi_S(y) != parity`` (``kind`` ``chi``), of the identity against the printed ``chi_S``
    (``identity-vs-chi``) or against the parity (``identity``), or of ``h(x(y)) != parity`` (``network``), at the
    input ``y``."""
    y, S_list, A = ints(y), list(S), ints(shifts)
    parity = cert.formula(PARITY_EXPR, y=y, S=S_list)
    parity_value = _parity_value(y, S)
    where = f"m={m}, S={S_list} (0-based), y={tuple(y)}"
    if kind == "chi":
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
    if kind == "identity-vs-chi":
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
    if kind == "identity":
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
        cert.quantity("value", function={"network": network_spec(net)}, x=ints(x)),
        parity,
        h,
        parity_value,
        "h(x(y)), network " + VARIANT_LABELS[variant],
        "parity on S",
        f"{where}; x = x(y) (the lift of m^2 entries, row-major: x_ii = y_i, x_ij = y_i y_j)",
    )
    return _spec(m, S, variant, f"{where}: h(x(y)) = {h:g}, parity = {parity_value:g}", c)


def _lift_failure(m, S, a, y, w, beta, variant) -> dict:
    y, S_list = ints(y), list(S)
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


def _active_failure(m, S, y, shifts) -> dict:
    y, S_list, A = ints(y), list(S), ints(shifts)
    count = sum(1 for a in A if 0.5 - (sum(y[i] for i in S) - a) ** 2 > 0)
    expr = "sum(1 for a in A if 0.5 - (sum(y[i] for i in S) - a) ** 2 > 0)"
    c = at_most_one(
        cert.formula(expr, y=y, S=S_list, A=A),
        count,
        "active ReLUs of the identity",
        "1",
        f"m={m}, S={S_list}, y={tuple(y)}, shifts {A}",
    )
    return _spec(m, S, "", f"m={m}, S={S_list}, y={tuple(y)}: {count} active", c)


def _network_active_failure(m, S, y, x, net, variant) -> dict:
    where = f"m={m}, S={list(S)} (0-based), y={tuple(ints(y))}"
    explanation = f"{where}; x = x(y) lies in the support of the distribution D of Section 4"
    count, c = active_neurons(net, x, "active neurons of h at x(y)", explanation)
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


#: The certificate builders of :func:`certify`, by the name the runs stage records with an instance's data.
CERTIFICATES = {
    **{kind: partial(_failure, kind) for kind in ("chi", "identity-vs-chi", "identity", "network")},
    "lift": _lift_failure,
    "active": _active_failure,
    "network-active": _network_active_failure,
    "neuron-count": _neuron_count_failure,
}
