"""Assembly stage of the claim ``section1_index``: ``assemble(block, tables)``, the verdicts and certificates.

The grid and what the claim checks: :mod:`sparseact.claims.section1_index`;
the measurements: :mod:`sparseact.claims.section1_index.compute`.
"""

from __future__ import annotations

import math

from sparseact.claims import describe_range
from sparseact.claims._checks import declared_checks
from sparseact.claims._readings import certified_worst
from sparseact.verify import certificates as cert
from sparseact.verify.assembly import Assembly
from sparseact.verify.records import ClaimReport
from sparseact.verify.verdicts import Verdict, verdict_all, verdict_at_most, verdict_equal

#: The claim's checks, declared once (checks.yaml).
CHECKS = declared_checks("section1_index")
#: ``Index_b(z)`` in {0, 1} from the input list ``z`` (a certificate formula); the address has bit i set iff z_i < 0.
INDEX_EXPR = "(z[b + sum(2**i for i in range(b) if z[i] < 0)] + 1) / 2"


def assemble(block: dict, tables: dict):
    table = tables["index"]
    table_range = describe_range(table.to_dict("records"), ["b", "n", "s"], "every input of the cube")
    record = Assembly(
        "section1_index", {}, table_range, lambda measures: certified_worst(tables, measures, certificate)
    ).record
    max_active = int(table["max_active"].max())
    size_ok = verdict_all(verdict_at_most(s, 2**b) for s, b in zip(table["s"], table["b"], strict=True))
    # a counterexample makes Section 1's statement (the network computes Index_b, in H_{b+2^b, 2^b, 1}) false as
    # printed: the declared finding of both checks
    records = [
        record(
            CHECKS.computes,
            "",
            float(table["max_abs_error"].max()),
            "max |h - Index_b|",
            verdict_all(verdict_at_most(e, 0.0) for e in table["max_abs_error"]),
            len(table),
        ),
        record(
            CHECKS.sparsity,
            "",
            max_active,
            "max active neurons",
            verdict_all([verdict_at_most(max_active, 1), size_ok]),
            len(table),
        ),
    ]
    records += _introduction_records(tables["deletion"])
    return ClaimReport(records, {})


#: The introduction's activation fraction and speed-up (Section 1, motivation): 3% of the neurons, "33x".
SPARSITY_FRACTION = 0.03
SPEEDUP_PRINTED = 33
#: Neuron counts and failure probability of the Gaussian-input evidence (intro-gaussian).
GAUSSIAN_S = (2, 4, 16, 256, 4096, 2**20)


def _introduction_records(deletion) -> list:
    """The introduction's statements about the examples (neuron deletion, weight sparsity), the 3% arithmetic and
    the Gaussian-input remark."""
    records = []
    least = float(deletion["change"].min())
    deletion_range = describe_range(
        deletion.to_dict("records"),
        ["p", "n", "s"],
        "Index_b (p = b) and two p-juntas with s = 2^p neurons; every input",
    )
    record = Assembly("section1_index", {"s_values": ", ".join(map(str, GAUSSIAN_S))}, deletion_range).record
    records.append(
        record(
            CHECKS.deletion,
            "",
            least,
            "min over neurons of max_x |h - h_{-j}|",
            Verdict.PASS if least > 0 else Verdict.INCONCLUSIVE,
            len(deletion),
            f"{len(deletion)} neurons in {deletion.groupby(['network', 'p']).ngroups} networks; every deletion "
            f"changes the value by at least {least:g} somewhere (the neuron's own pattern: Index_b outputs 1 -> 0 at "
            "x = alpha, y_alpha = 1; a +-1 junta loses f(w_j) at x = w_j). With s > 2^p the proof of Theorem 13 "
            "pads with zero neurons, whose removal changes nothing: the sentence is about s = 2^p.",
        )
    )
    excess = int((deletion["nonzero_weights"] - deletion["expected_nonzero"]).max())
    records.append(
        record(
            CHECKS.weight_sparsity,
            "",
            float((deletion["nonzero_weights"] / deletion["n"]).max()),
            "max fraction of non-zero weights",
            Verdict.PASS if excess <= 0 else Verdict.INCONCLUSIVE,
            len(deletion),
            "Index_b: b + 1 of b + 2^b weights non-zero; p-junta: p of n",
        )
    )
    fraction = 1.0 / SPARSITY_FRACTION
    records.append(
        record(
            CHECKS.speedup_arithmetic,
            "",
            fraction,
            "1 / 0.03",
            verdict_equal(math.floor(fraction), SPEEDUP_PRINTED)[0],
            1,
            "the factor is the ratio of all neurons to active ones, 33.3",
            covered="the printed fraction 0.03",
        )
    )
    rows = [(s, _gaussian_threshold(s)) for s in GAUSSIAN_S]
    largest = max(abs(_more_than_one(s, b) - 1.0 / s) for s, b in rows)
    records.append(
        record(
            CHECKS.gaussian_bias,
            "",
            max(b for _, b in rows),
            "b*(s) at the largest s",
            verdict_at_most(largest, 1e-9),
            len(rows),
            "b*(s) = "
            + ", ".join(
                f"{b:.4f} (s={s}, sqrt(3 ln s) = {math.sqrt(3 * math.log(s)):.4f}; s P(one active) = "
                f"{s * _one_active(b):.3g})"
                for s, b in rows
            )
            + ": the bias must grow like sqrt(3 ln s) times ||w_j|| (C(s, 2) P^2 ~ 1/s puts the probability P that "
            "one neuron is active of order s^(-3/2))",
            covered=describe_range([{"s": s} for s, _ in rows], ["s"], "orthonormal weights, common bias"),
        )
    )
    return records


def _one_active(b: float) -> float:
    """Pr[N(0, 1) > b]: one neuron of unit weight active at bias b under Gaussian inputs."""
    return 0.5 * math.erfc(b / math.sqrt(2.0))


def _more_than_one(s: int, b: float) -> float:
    P = _one_active(b)
    return 1.0 - (1.0 - P) ** s - s * P * (1.0 - P) ** (s - 1)


def _gaussian_threshold(s: int) -> float:
    """The common bias at which s orthonormal neurons have Pr[more than one active] = 1/s (decreasing in b)."""
    low, high = -40.0, 40.0
    while high - low > 1e-12:
        middle = (low + high) / 2
        low, high = (middle, high) if _more_than_one(s, middle) > 1.0 / s else (low, middle)
    return (low + high) / 2


def certificate(data: dict) -> dict | None:
    """The certificate of one worst instance (:func:`sparseact.claims.section1_index.compute.worst`), or ``None``
    when it violates nothing: ``h(z) == Index_b(z)`` (``kind`` value), ``#active(z) <= 1`` (active) or
    ``s <= 2^b`` (size)."""
    spec = {key: data[key] for key in ("u", "W", "b")}  # the network's JSON form N, as recorded
    b = data["bits"]
    if data["kind"] == "value":
        return cert.certificate_if_violated(
            "==",
            cert.quantity("value", function={"network": spec}, x=data["z"]),
            cert.formula(INDEX_EXPR, z=data["z"], b=b),
            data["h"],
            data["index"],
            "h(z)",
            "Index_b(z)",
            "the network differs from Index_b on this input",
        )
    if data["kind"] == "active":
        return cert.certificate_if_violated(
            "<=",
            cert.quantity("active_count", network=spec, x=data["z"]),
            cert.formula("k", k=1),
            data["count"],
            1,
            "active neurons at z",
            "k",
            "more than one neuron fires on this input",
        )
    return cert.certificate_if_violated(
        "<=",
        cert.formula("sum(1 for a in u)", u=spec["u"]),
        cert.formula("2**b", b=b),
        data["s"],
        2**b,
        "s",
        "2^b",
        "the network has more than 2^b neurons",
    )
