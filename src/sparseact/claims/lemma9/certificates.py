"""The certificates of Lemma 9's checks whose FAIL needs the network: from a worst instance the runs stage recorded
(:func:`sparseact.claims.lemma9.compute.worst_networks`), both sides recomputed from the network alone."""

from __future__ import annotations

from sparseact.claims.lemma9 import CONCAVITY_EDGE, TIGHTER_FACTOR, U_FACTOR, UNION_FACTOR
from sparseact.claims.lemma9.compute import inequalities
from sparseact.verify import certificates as cert
from sparseact.verify.verdicts import Verdict, verdict_at_most

#: ``W = ||u||_inf max_j ||w_j||_2`` of a certificate's network, from its lists ``u`` and ``Wm``.
_W_EXPR = "(max(abs(a) for a in u) * max(sqrt(sum(c * c for c in w)) for w in Wm))"


def network_certificate(data: dict) -> dict | None:
    """The certificate of one inequality violated by one recorded network, or ``None`` when it holds.

    ``data`` is a worst instance of :func:`sparseact.claims.lemma9.compute.worst_networks`: the ``step`` of
    :func:`sparseact.claims.lemma9.compute.inequalities`, the network ``net`` (``u, W, b``) and its measurement
    ``row``. The certificate recomputes both sides from the network alone.
    """
    spec, row, step = data["net"], data["row"], data["step"]
    (_, value, limit), *_ = [t for t in inequalities(row) if t[0] == step]
    if verdict_at_most(value, limit) is not Verdict.FAIL:  # relative slack: (U) is a sum of 2^n n terms
        return None
    function = {"network": spec}
    lists = dict(u=spec["u"], Wm=spec["W"])
    active = cert.quantity("max_active", network=spec)
    wr = cert.quantity("lemma9_wR", network=spec)

    def per_halfspace(prefix, kind, **fields):
        return {
            f"{prefix}{j}": cert.quantity(kind, function={"halfspace": {"w": w, "b": b}}, **fields)
            for j, (w, b) in enumerate(zip(spec["W"], spec["b"], strict=True))
        }

    k, W, n, s = int(row["k"]), float(row["W"]), int(row["n"]), int(row["s"])  # k = max(1, largest active count)
    if step == "tighter":
        lhs = (cert.quantity("average_sensitivity", function=function), row["AS_check"])
        rhs = (
            cert.formula(f"c * max(1, k)**2 * {_W_EXPR}**2", c=TIGHTER_FACTOR, k=active, **lists),
            TIGHTER_FACTOR * k * k * W * W,
        )
        labels = ("AS(h)", f"{TIGHTER_FACTOR} k^2 W^2")
        explanation = (
            f"our bound AS(h) <= {TIGHTER_FACTOR} k^2 W^2 (k: the largest active count on the cube, at least 1)"
        )
    elif step == "U-first":
        lhs = (cert.quantity("lemma9_U", network=spec), row["U"])
        rhs = (cert.formula("c / 4 * v", c=U_FACTOR, v=wr), U_FACTOR * row["U_intermediate"])
        labels = ("(U)", f"({U_FACTOR}/4) E[||w^R_x||^2]")
        explanation = "the corrected first step (U) <= E[||w^{R_x}||^2]"
    elif step == "U-second":
        lhs = (wr, 4 * row["U_intermediate"])
        rhs = (cert.formula(f"k**2 * {_W_EXPR}**2", k=active, **lists), 4 * row["U_bound"])
        labels = ("E[||w^R_x||^2]", "k^2 W^2")
        explanation = "the second step E[||w^{R_x}||^2] <= k^2 W^2"
    elif step == "union":
        halfspaces = per_halfspace("a", "average_sensitivity")
        lhs = (cert.quantity("transition_probability", network=spec), row["transition"])
        rhs = (
            cert.formula(f"c / n * ({' + '.join(halfspaces)})", c=UNION_FACTOR, n=n, **halfspaces),
            row["transition_union_bound"] * (UNION_FACTOR / 4),
        )
        labels = ("Pr_{x,i}[R_x != R_{x xor i}]", f"({UNION_FACTOR}/n) sum_j AS(g_j)")
        explanation = "the union bound with the factor 4, g_j = 1{<w_j, x> > b_j}"
    else:  # the concavity step
        # p_j = Pr_x[g_j(x) = 1] = E[g_j^2] = sum over all T of ghat_j(T)^2 (Parseval): the Fourier tail above
        # degree -1
        probabilities = per_halfspace("p", "fourier_tail", degree=-1)
        lhs = (
            cert.formula(
                f"sum(q * sqrt(log(1 / q)) for q in [{', '.join(probabilities)}] if 0 < q < 1)", **probabilities
            ),
            row["concave_sum"],
        )
        rhs = (
            cert.formula(
                "max(1, k) * sqrt(log(s / max(1, k))) if max(1, k) / s <= edge else s / sqrt(2 * e)",
                k=active,
                s=s,
                edge=CONCAVITY_EDGE,
            ),
            row["concavity_max"],
        )
        labels = ("sum_j p_j sqrt(log(1/p_j))", "Phi(s, k)")
        explanation = (
            "the concavity step: Phi(s, k) is the maximum of the sum under sum_j p_j <= k, p_j = Pr_x[<w_j, x> > b_j]"
        )
    (lhs, lhs_value), (rhs, rhs_value) = lhs, rhs
    return cert.certificate_if_violated("<=", lhs, rhs, float(lhs_value), float(rhs_value), *labels, explanation)
