"""The certificates of the junta checks of Theorem 13, from the instances the runs stage recorded.

:func:`sparseact.claims.theorem13.compute.check_junta_network` keeps, in each ``theorem13-junta`` row, the first input
where the proof's network fails a check (``instance_<check>``, JSON) and the failure in words (``failure_<check>``);
each certificate here recomputes both sides from that raw data, and gives ``(certificate, counterexample)`` or
``None``.
"""

from __future__ import annotations

import json

from sparseact.verify.certificates import certificate, certificate_if_violated, formula, quantity, violated

#: ``f(x)`` of a junta from its truth table ``T`` (hypercube order), variables ``V`` (0-based) and ``p``.
JUNTA_EXPR = "sum(T[j] for j in range(2 ** p) if j == sum(2 ** t * (1 - x[V[t]]) / 2 for t in range(p)))"
#: ``h(x)`` of a network ``u, W, b`` (rows of ``W`` are the ``w_j``) at ``x``.
NETWORK_EXPR = "sum(u[j] * relu(sum(W[j][i] * x[i] for i in range(n)) - b[j]) for j in range(len_u))"
#: ``sigma(<w_j, x> - b_j)`` of one neuron.
NEURON_EXPR = "relu(sum(w[i] * x[i] for i in range(n)) - c)"
#: ``1{x_i = w_i for every i in V}``.
INDICATOR_EXPR = "1 if sum(abs(x[i] - w[i]) for i in V) == 0 else 0"
#: ``||u||_inf max_j ||w_j||_2`` (Definition 2's W) and ``||u||_inf max_j |b_j|`` (B).
SCALE_W_EXPR = "max(abs(t) for t in u) * max(sqrt(sum(v * v for v in row)) for row in W)"
SCALE_B_EXPR = "max(abs(t) for t in u) * max(abs(t) for t in b)"


def first_certified(junta, certify):
    """The ``build`` of a junta check's row: ``(certificate, counterexample)`` of the first ``theorem13-junta`` row
    that ``certify(row)`` certifies, or ``None``."""
    return lambda: next((found for _, row in junta.iterrows() if (found := certify(row)) is not None), None)


def recorded(check: str, build):
    """The row certifier of :func:`first_certified` for ``check``: ``(certificate, counterexample)`` of the instance a
    ``theorem13-junta`` row recorded (``instance_<check>``, ``failure_<check>``), or ``None`` when it recorded none
    or ``build(data)`` finds no violation."""

    def certify(row):
        if not row[f"instance_{check}"]:
            return None
        certificate = build(json.loads(row[f"instance_{check}"]))
        return None if certificate is None else (certificate, row[f"failure_{check}"])

    return certify


def computes_certificate(d: dict) -> dict | None:
    """``h(x) != f(x)`` at the first input where the proof's network differs from the junta."""
    network = {key: d[key] for key in ("u", "W", "b", "n", "len_u")}
    return certificate_if_violated(
        "==",
        formula(NETWORK_EXPR, x=d["x"], **network),
        formula(JUNTA_EXPR, T=d["T"], V=d["V"], p=d["p"], x=d["x"]),
        d["h"],
        d["f"],
        "h(x) of the proof's network",
        "f(x) of the junta",
        "the proof's network differs from the junta at x",
    )


def indicator_certificate(d: dict) -> dict | None:
    """``sigma(<w_j, x> - p + 1) != 1{x_V = (w_j)_V}`` at the first input and neuron where they differ."""
    return certificate_if_violated(
        "==",
        formula(NEURON_EXPR, w=d["w"], x=d["x"], c=d["c"], n=d["n"]),
        formula(INDICATOR_EXPR, w=d["w"], x=d["x"], V=d["V"]),
        d["lhs"],
        d["rhs"],
        "sigma(<w_j, x> - p + 1)",
        "1{x_i = w_ji for all i in V}",
        "the proof's indicator identity fails for neuron j at x",
    )


def sparsity_certificate(d: dict) -> dict | None:
    """More than one active neuron at the first input where more than one fires."""
    return certificate_if_violated(
        "<=",
        quantity("active_count", network={key: d[key] for key in ("u", "W", "b")}, x=d["x"]),
        formula("1"),
        d["count"],
        1.0,
        "#{j : <w_j, x> - b_j > 0}",
        "k = 1",
        "more than one neuron of the proof's network fires at x",
    )


def scale_certificate(row):
    """The first of the levels ``W <= sqrt(p)``, ``B <= p``, ``W <= sqrt(log2 s)``, ``B <= log2 s`` the network's
    scale exceeds."""
    if not row["instance_scale"]:
        return None
    d = json.loads(row["instance_scale"])
    n, s, p = int(row["n"]), int(row["s"]), int(row["p"])
    levels = (
        ("W", row["W"], SCALE_W_EXPR, row["W_proof"], "sqrt(p)"),
        ("B", row["B"], SCALE_B_EXPR, row["B_proof"], "p"),
        ("W", row["W"], SCALE_W_EXPR, row["W_theorem"], "sqrt(log2(s))"),
        ("B", row["B"], SCALE_B_EXPR, row["B_theorem"], "log2(s)"),
    )
    for label, value, expr, limit, limit_expr in levels:
        if violated("<=", value, limit):
            cert = certificate(
                "<=",
                formula(expr, u=d["u"], W=d["W"], b=d["b"]),
                formula(limit_expr, p=p, s=s),
                value,
                limit,
                f"{label} of Definition 2",
                limit_expr,
                f"the proof's network has {label} above the level of H_{{n,s,1}}^{{sqrt(p),p}}",
            )
            return cert, f"n={n}, s={s}, p={p}: {label} = {value:g} > {limit_expr} = {limit:g}"
    return None
