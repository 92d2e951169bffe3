"""Certificates of the claim ``section4_lwr``, from the first differing input the runs stage recorded.

:func:`sparseact.claims.section4_lwr.compute.run` records, in ``lwr_failures``, the raw data of the first input
where a check's two sides differ, named by the builder that certifies it; :func:`certify` turns one into the
counterexample and the certificate the verifier recomputes.
"""

from __future__ import annotations

from fractions import Fraction
from functools import partial

import numpy as np

from sparseact.claims._readings import active_neurons, at_most_one, instance_arguments, ints
from sparseact.verify import certificates as cert

#: The learning-with-rounding map of Banerjee et al. (2012) at ``(w, y)``: ``round((p/q)(<w, y> mod q)) mod p``.
ROUND_EXPR = "floor(p * (sum(w[i] * y[i] for i in range(m)) % q) / q + 0.5) % p"
#: ``f_w(y) = (<w, y> mod q) mod p``.
LWR_EXPR = "(sum(w[i] * y[i] for i in range(m)) % q) % p"
#: The printed identity at an integer ``t`` (square outside the ReLU).
IDENTITY_PRINTED_EXPR = "sum(2 * ((a % q) % p) * relu(0.5 - (t - a)) ** 2 for a in range(q * q * m))"
#: The corrected identity at an integer ``t`` (square inside the ReLU).
IDENTITY_CORRECTED_EXPR = "sum(2 * ((a % q) % p) * relu(0.5 - (t - a) ** 2) for a in range(q * q * m))"
#: ``lambda(t) = (t mod q) mod p``.
LAMBDA_EXPR = "(t % q) % p"
#: Active ReLUs of the corrected identity at ``t``.
ACTIVE_CORRECTED_EXPR = "sum(1 for a in range(q * q * m) if 0.5 - (t - a) ** 2 > 0)"
#: ``1/2 - (<w, y> - a)^2``.
QUADRATIC_EXPR = "0.5 - (sum(w[i] * y[i] for i in range(m)) - a) ** 2"
#: ``<W, x(z)> - b`` with the lift computed from ``z`` (``W`` flattened row-major, ``r = len(z)``).
LIFT_EXPR = "sum(W[i * r + j] * (z[i] if i == j else z[i] * z[j]) for i in range(r) for j in range(r)) - b"
#: ``|E_z[z_k g(z)]|``, ``g(z) = 1/2 - (<w, y(z)> - a)^2``, over all ``z in {-1,1}^(mL)``: the forced ``|W_kk|``.
FORCED_DIAGONAL_EXPR = (
    "abs(sum((0.5 - (sum(w[i] * sum(((j >> (i * L + l)) & 1) << l for l in range(L)) "
    "for i in range(m)) - a) ** 2) * (1 - 2 * ((j >> k) & 1)) for j in range(2 ** (m * L)))) "
    "/ 2 ** (m * L)"
)


def certify(data: dict) -> dict:
    """The counterexample and certificate of one recorded instance: ``data`` names its builder
    (:data:`CERTIFICATES`) and holds the builder's arguments (a network as its ``u, W, b``)."""
    return CERTIFICATES[data["builder"]](**instance_arguments(data, ("x", "y", "z", "w", "Z", "target", "residual")))


def _spec(counterexample: str, certificate: dict) -> dict:
    return dict(
        counterexample=counterexample,
        certificate=certificate,
    )


def _identity_failure(q, m, p, t, value, lam, variant) -> dict:
    expr = IDENTITY_PRINTED_EXPR if variant == "printed" else IDENTITY_CORRECTED_EXPR
    shape = "sigma(1/2 - (t - a))^2" if variant == "printed" else "sigma(1/2 - (t - a)^2)"
    c = cert.certificate(
        "==",
        cert.formula(expr, q=q, m=m, p=p, t=t),
        cert.formula(LAMBDA_EXPR, q=q, p=p, t=t),
        float(value),
        float(lam),
        f"sum_{{a in [q^2 m]}} 2 lambda(a) {shape}",
        "lambda(t)",
        f"q={q}, m={m}, p={p}, t={t}: with the square outside the ReLU every a >= t contributes "
        "(1/2 - (t - a) > 0), not just a = t",
    )
    return _spec(f"q={q}, m={m}, p={p}, t={t}: sum = {value:g}, lambda(t) = {lam:g}", c)


def _active_identity_failure(q, m, p, t, count) -> dict:
    c = at_most_one(
        cert.formula(ACTIVE_CORRECTED_EXPR, q=q, m=m, t=t),
        count,
        "active ReLUs of the corrected identity at t",
        "1",
        f"q={q}, m={m}, t={t}",
    )
    return _spec(f"q={q}, m={m}, t={t}: {count} ReLUs active", c)


def _exact_residual(Z, target) -> list[Fraction]:
    """``t - Z v`` with ``Z^T Z v = Z^T t`` solved in rationals (``Z`` has full column rank: the bits of ``y``)."""
    Z = [[int(v) for v in row] for row in np.asarray(Z)]
    t = [int(v) for v in np.asarray(target)]
    cols = len(Z[0])
    system = [
        [Fraction(sum(row[a] * row[b] for row in Z)) for b in range(cols)]
        + [Fraction(sum(row[a] * tv for row, tv in zip(Z, t, strict=True)))]
        for a in range(cols)
    ]
    for col in range(cols):
        pivot = next(r for r in range(col, cols) if system[r][col])
        system[col], system[pivot] = system[pivot], system[col]
        system[col] = [v / system[col][col] for v in system[col]]
        for r in range(cols):
            if r != col and system[r][col]:
                system[r] = [a - system[r][col] * b for a, b in zip(system[r], system[col], strict=True)]
    v = [system[a][cols] for a in range(cols)]
    return [tv - sum((row[a] * v[a] for a in range(cols)), Fraction(0)) for row, tv in zip(Z, t, strict=True)]


def _linear_failure(q, m, w, Z, target, residual) -> dict:
    """No linear ``v``: the least-squares residual ``rho`` has ``z(Y)^T rho = 0`` but ``<rho, <w, Y>> = ||rho||^2``.

    The certificate records ``rho`` exactly (:func:`_exact_residual`), so that ``z(Y)^T rho = 0`` holds in rationals.
    """
    exact = _exact_residual(Z, target)
    value = float(sum((r * int(t) for r, t in zip(exact, target, strict=True)), Fraction(0)))
    k = int(np.argmax(np.abs(residual)))
    c = cert.certificate(
        "==",
        cert.quantity("orthogonal_residual", Z=Z, t=target, r=[cert.exact_number(r) for r in exact]),
        cert.formula("0"),
        value,
        0.0,
        "<rho, (<w, y>)_y> with z(Y)^T rho = 0",
        "0 (if <v, z(y)> = <w, y> for all y)",
        f"q={q}, m={m}, w={tuple(ints(w))}: the rows of Z are z(y) for every y in Z_q^m "
        "(bit l of y_i at coordinate i*L + l, bit beta -> 1 - 2 beta), t_y = <w, y>; if a linear v "
        "had Z v = t then <rho, t> = <Z^T rho, v> = 0",
    )
    return _spec(
        f"q={q}, m={m}, w={tuple(ints(w))}: the best linear v leaves |<w,y> - <v,z(y)>| = "
        f"{abs(residual[k]):.4g}; certificate <rho, t> = {value:.6g} != 0",
        c,
    )


def _affine_failure(q, m, w, y, z, v, c_offset) -> dict:
    y, z = ints(y), ints(z)
    lhs = float(c_offset + sum(vi * zi for vi, zi in zip(v, z, strict=True)))
    rhs = float(sum(int(wi) * yi for wi, yi in zip(w, y, strict=True)))
    c = cert.certificate(
        "==",
        cert.formula("c + sum(v[i] * z[i] for i in range(len_z))", c=c_offset, v=list(v), z=z, len_z=len(z)),
        cert.formula("sum(w[i] * y[i] for i in range(m))", w=ints(w), y=y, m=m),
        lhs,
        rhs,
        "c + <v, z(y)>",
        "<w, y>",
        f"q={q}, m={m}, y={tuple(y)}, z(y)={tuple(z)}",
    )
    return _spec(f"q={q}, m={m}, w={tuple(ints(w))}, y={tuple(y)}: {lhs:g} != {rhs:g}", c)


def _lift_failure(q, m, w, y, z, a, W, b) -> dict:
    y, z, r = ints(y), ints(z), len(z)
    W = [float(x) for x in W]
    lhs = 0.5 - (sum(int(wi) * yi for wi, yi in zip(w, y, strict=True)) - a) ** 2
    rhs = float(sum(W[i * r + j] * (z[i] if i == j else z[i] * z[j]) for i in range(r) for j in range(r)) - b)
    c = cert.certificate(
        "==",
        cert.formula(QUADRATIC_EXPR, w=ints(w), y=y, m=m, a=a),
        cert.formula(LIFT_EXPR, W=W, z=z, r=r, b=b),
        lhs,
        rhs,
        "1/2 - (<w, y> - a)^2",
        "<W_{w,a}, x(z(y))> - b_{w,a}",
        f"q={q}, m={m}, w={tuple(ints(w))}, a={a}, y={tuple(y)}, z(y)={tuple(z)}",
    )
    return _spec(f"q={q}, m={m}, w={tuple(ints(w))}, a={a}, y={tuple(y)}: {lhs:g} != {rhs:g}", c)


def _pm1_failure(q, m, w, L, a, k, W) -> dict:
    """A diagonal entry of the lifted weights that is forced and is not +-1 (``q = 2^L``: ``z(y)`` covers the cube);
    ``W`` is the row ``W_a`` of the first neuron with one, ``k`` the entry."""
    r = m * L
    matrix = np.asarray(W, dtype=float).reshape(r, r)
    diagonal = np.abs(matrix.diagonal())
    value = float(diagonal[k])
    c = cert.certificate(
        "==",
        cert.formula(FORCED_DIAGONAL_EXPR, w=ints(w), m=m, L=L, a=a, k=k),
        cert.formula("1"),
        value,
        1.0,
        f"|W_{{w,a}}[k,k]| forced by 1/2 - (<w, y> - a)^2, k={k}",
        "1 (an entry of a vector in {1,-1}^n)",
        f"q={q} = 2^{L}, m={m}, w={tuple(ints(w))}, a={a}: z(y) runs over all of {{-1,1}}^{r}, "
        "x(y)_kk = z_k and every other coordinate of x(y) is a character of degree 0 or 2, so any "
        "W, b with <W, x(y)> - b = 1/2 - (<w, y> - a)^2 for all y has W[k,k] = E_z[z_k (1/2 - "
        "(<w, y(z)> - a)^2)] (the formula, y(z) decoded from the bits of z)",
    )
    return _spec(
        f"q={q}, m={m}, w={tuple(ints(w))}, a={a}: W[{k},{k}] = {float(matrix[k, k]):g} "
        f"is forced (Fourier coefficient) and is not +-1",
        c,
    )


def _network_failure(q, m, p, w, y, x, net, rounding: bool = False) -> dict:
    """``F_w(x(y)) != f_w(y)``: Definition 15's map, or with ``rounding`` the learning-with-rounding map and output
    weights ``2 round((p/q)(a mod q))``."""
    value = float(net(x[None, :])[0])
    w_list, y_list = ints(w), ints(y)
    if rounding:
        expected = _round_value(w_list, y_list, q, p)
        expr, labels = (
            ROUND_EXPR,
            ("F_w(x(y)) with output weights 2 round((p/q)(a mod q))", "round((p/q)(<w, y> mod q)) mod p"),
        )
    else:
        expected = sum(a * b for a, b in zip(w_list, y_list, strict=True)) % q % p
        expr, labels = LWR_EXPR, ("F_w(x(y))", "f_w(y) = (<w, y> mod q) mod p")
    c = cert.certificate(
        "==",
        cert.quantity("value", function={"network": cert.network_spec(net)}, x=ints(x)),
        cert.formula(expr, w=w_list, y=y_list, m=m, q=q, p=p),
        value,
        float(expected),
        *labels,
        f"q={q}, m={m}, p={p}, w={tuple(w_list)}, y={tuple(y_list)}; x = x(z(y))",
    )
    return _spec(
        f"q={q}, m={m}, p={p}, w={tuple(w_list)}, y={tuple(y_list)}: F = {value:g}, f = {float(expected):g}", c
    )


def _round_value(w, y, q, p) -> int:
    """``round((p/q)(<w, y> mod q)) mod p`` of one sample (Banerjee et al. 2012; ties up)."""
    t = sum(a * b for a, b in zip(w, y, strict=True)) % q
    return (2 * p * t + q) // (2 * q) % p


def _definition_failure(q, m, p, w, y) -> dict:
    """Definition 15's ``f_w`` differs from the learning-with-rounding map it cites at ``(w, y)``."""
    w_list, y_list = ints(w), ints(y)
    printed = float(sum(a * b for a, b in zip(w_list, y_list, strict=True)) % q % p)
    rounded = float(_round_value(w_list, y_list, q, p))
    c = cert.certificate(
        "==",
        cert.formula(LWR_EXPR, w=w_list, y=y_list, m=m, q=q, p=p),
        cert.formula(ROUND_EXPR, w=w_list, y=y_list, m=m, q=q, p=p),
        printed,
        rounded,
        "Definition 15: f_w(y) = (<w, y> mod q) mod p",
        "LWR (Banerjee et al. 2012): round((p/q)(<w, y> mod q)) mod p",
        f"q={q}, m={m}, p={p}, w={tuple(w_list)}, y={tuple(y_list)}: the printed map reduces mod p "
        "where learning with rounding scales by p/q and rounds",
    )
    return _spec(
        f"q={q}, m={m}, p={p}, w={tuple(w_list)}, y={tuple(y_list)}: printed f_w = {printed:g}, "
        f"rounding map = {rounded:g}",
        c,
    )


def _network_active_failure(q, m, p, w, y, x, net) -> dict:
    where = f"q={q}, m={m}, p={p}, w={tuple(ints(w))}, y={tuple(ints(y))}"
    count, c = active_neurons(net, x, "active neurons of F_w at x(y)", f"{where}; x = x(z(y))")
    return _spec(f"{where}: {count} active", c)


#: The certificate builders of :func:`certify`, by the name the runs stage records.
CERTIFICATES = {
    "identity": _identity_failure,
    "active-identity": _active_identity_failure,
    "linear": _linear_failure,
    "affine": _affine_failure,
    "lift": _lift_failure,
    "pm1": _pm1_failure,
    "network": _network_failure,
    "network-active": _network_active_failure,
    "rounding-network": partial(_network_failure, rounding=True),
    "definition": _definition_failure,
}
