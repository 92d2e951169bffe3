"""The certificates of the claim ``appendixA``, from the raw data of the instances its runs stage recorded.

The runs stage records, per network, the input with the most active neurons (measure ``max-active``) and the input
with the largest ``|F - sigma(<w_x, y>)|`` (``max-abs-error``) in its table ``sqrt_q_failures``
(:func:`sparseact.claims.appendixA.compute.run`); :func:`worst_failure` certifies a check's FAIL from them, and
:func:`split_certificate` the printed high-probability statement's FAIL on the split rows.
"""

from __future__ import annotations

import json

import numpy as np

from sparseact.claims._readings import of_measures
from sparseact.claims.appendixA.compute import format_input, split_network
from sparseact.verify import certificates as cert
from sparseact.verify.verdicts import Verdict, verdict_equal


def _network(data: dict) -> dict:
    """The JSON form ``N`` of the recorded network."""
    return {key: data[key] for key in ("u", "W", "b")}


def active_certificate(data: dict) -> dict:
    """The certificate of more than one active neuron of ``F`` at the recorded input (``Gamma = sqrt(q)``)."""
    b, q, gamma = data["bits"], data["q"], data["gamma"]
    return cert.certificate(
        "<=",
        cert.quantity("active_count", network=_network(data), x=data["x"]),
        cert.formula("1"),
        data["count"],
        1.0,
        "#{alpha : <w_alpha, y> + Gamma(<x, alpha> - b) > 0}",
        "1 (1-sparse for all inputs)",
        f"Appendix A network F with Gamma = sqrt(q) = {gamma:.6g}, b = {b}, q = {q}, {data['family']} rows "
        f"w_alpha (||w_alpha||_1 = {data['norm1']:.6g} > 2 Gamma = {2 * gamma:.6g}); input (x, y) = "
        f"{format_input(data['x'])} with x the first b coordinates",
    )


def computes_certificate(data: dict) -> dict:
    """The certificate of ``F(x, y) != sigma(<w_x, y>)`` at the recorded input."""
    x, b = data["x"], data["bits"]
    w = data["W"][int(sum((1 - int(v)) // 2 << i for i, v in enumerate(x[:b])))][b:]
    return cert.certificate(
        "==",
        cert.quantity("value", function={"network": _network(data)}, x=x),
        cert.formula("relu(sum(w[i] * y[i] for i in range(q)))", w=w, y=x[b:], q=len(w)),
        data["value"],
        data["target"],
        "F(x, y)",
        "sigma(<w_x, y>)",
        f"input {format_input(x)}, x the first {b} coordinates",
    )


#: The certificate builder of a recorded instance, by its measure (declared in checks.yaml).
CERTIFICATES = {"max-active": active_certificate, "max-abs-error": computes_certificate}


def split_certificate(row) -> dict | None:
    """The certificate of ``Pr[F is 1-sparse] < 1 - 1/s`` for the split rows of one ``whp_split`` row
    (:func:`sparseact.claims.appendixA.compute.split_network`), or ``None`` when the bound holds."""
    b, s, c, gamma, sparse = (
        int(row["b"]),
        int(row["s"]),
        float(row["c"]),
        float(row["gamma"]),
        row["sparse_probability"],
    )
    return cert.certificate_if_violated(
        ">=",
        cert.quantity("sparse_probability", network=cert.network_spec(split_network(b, gamma)), k=1),
        cert.formula("1 - 1/s", s=s),
        sparse,
        row["bound"],
        "Pr_(x,y)[F is 1-sparse]",
        "1 - 1/P(s) with P(s) = s",
        f"Appendix A network F with Gamma = {c:g} sqrt(ln s) = {gamma:.6g}, b = {b} (s = {s}), q = 1, rows w_alpha = "
        f"+-(2 Gamma b + 1) e_1 (+ for the first half of the alpha): every one of the {1 << (b + 1)} inputs activates "
        f"exactly {int(row['min_active'])} neurons, so Pr[1-sparse] = {sparse:g}, below 1 - 1/P(s) for every "
        f"polynomial P with P({s}) > 1",
    )


def worst_failure(failures, measures: tuple[str, ...], part):
    """The certificate and counterexample of the instance of ``measures`` (a check's) in ``failures`` (the runs
    stage's ``sqrt_q_failures``) with most active neurons (then smallest b) among the instances in ``part`` that
    violate the check, or None."""
    if not len(failures):
        return None
    keys = set(zip(part["point"], part["family"], strict=True))
    mine = np.array([key in keys for key in zip(failures["point"], failures["family"], strict=True)], dtype=bool)
    rows = of_measures(failures[mine], measures)
    if measures == ("max-abs-error",):  # each network's largest |F - sigma(<w_x, y>)| > 0 is recorded
        data = [json.loads(text) for text in rows["data"]]
        rows = rows[np.array([verdict_equal(d["value"], d["target"])[0] is Verdict.FAIL for d in data], dtype=bool)]
    if not len(rows):
        return None
    row = rows.sort_values(["max_active", "b"], ascending=[False, True], kind="stable").iloc[0]
    build = CERTIFICATES[row["measure"]]
    return build(json.loads(row["data"])), row["counterexample"]
