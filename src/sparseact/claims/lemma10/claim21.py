"""Claim 2.1 of the claim ``lemma10``: Parseval, the noise sensitivity's Fourier formula, and the tail bound on the
range Theorem 8 uses (``rho`` in ``[0, 1)``) and as printed for ``rho < 0``, with the certificates of its FAIL."""

from __future__ import annotations

import numpy as np
import pandas as pd

from sparseact.claims._checks import declared_checks
from sparseact.claims._readings import certified_worst, exceeds
from sparseact.claims.lemma10 import OUT_OF_RANGE_RHO
from sparseact.claims.lemma10.compute import DEFINITION_MAX_N, FORMULA_RHO
from sparseact.verify import certificates as cert
from sparseact.verify.assembly import Assembly
from sparseact.verify.verdicts import Verdict, close, verdict_at_most

#: The claim's checks, declared once (checks.yaml).
CHECKS = declared_checks("lemma10")


def relative(got, expected):
    """``|got - expected| / |expected|`` (0 where both vanish)."""
    got, expected = np.asarray(got, dtype=float), np.asarray(expected, dtype=float)
    with np.errstate(divide="ignore", invalid="ignore"):
        rel = np.abs(got - expected) / np.abs(expected)
    return np.where(np.abs(got - expected) == 0, 0.0, rel)


def claim21_records(noise_formula, tail, parity, tables):
    return [*_claim21_formula_records(noise_formula), *_claim21_tail_records(tail, parity, tables)]


def _claim21_formula_records(noise_formula):
    """Claim 2.1's first bullet (Parseval) and the noise sensitivity's Fourier formula against its definition."""
    parseval_err = float(relative(noise_formula["sum_fhat2"], noise_formula["norm2"]).max())
    parseval_ok = bool(close(noise_formula["sum_fhat2"], noise_formula["norm2"]).all())
    record = Assembly("lemma10", {"rho": list(FORMULA_RHO), "n": DEFINITION_MAX_N}).record
    records = [
        record(
            CHECKS.claim21_parseval,
            "",
            parseval_err,
            "max relative difference",
            Verdict.PASS if parseval_ok else Verdict.INCONCLUSIVE,
            int(noise_formula["instance"].nunique()),
            "" if parseval_ok else "numerical disagreement beyond the tolerance policy (no exact certificate)",
        )
    ]
    by_definition = noise_formula.dropna(subset=["NS_definition"])
    formula_err = (
        float(relative(by_definition["NS_formula"], by_definition["NS_definition"]).max())
        if len(by_definition)
        else float("nan")
    )
    formula_ok = bool(len(by_definition)) and close(by_definition["NS_formula"], by_definition["NS_definition"]).all()
    records.append(
        record(
            CHECKS.claim21_ns_formula,
            "",
            formula_err,
            "max relative difference",
            Verdict.PASS if formula_ok else Verdict.INCONCLUSIVE,
            len(by_definition),
            (
                "INCONCLUSIVE only when no network of the grid is small enough to sum the definition, or when the "
                "two disagree (a disagreement would need an exact certificate to be a FAIL)"
                if not formula_ok
                else "exact agreement, both signs of rho"
            ),
        )
    )
    return records


def _claim21_tail_records(tail, parity, tables):
    """Claim 2.1's tail bound, on the range Theorem 8 uses (rho in [0, 1)) and as printed for rho < 0."""
    assembly = Assembly("lemma10", {"rho": list(OUT_OF_RANGE_RHO)})
    records = []
    every = pd.concat([tail, parity.drop(columns=["order"])], ignore_index=True)
    inside = every[every["in_range"]]
    excess = float((inside["tail"] - inside["bound"]).max())

    def claim21_failure():
        """The worst in-range violation: a monomial (certified here) or a network (certified from the instance the runs stage recorded)."""
        candidates = []
        bad = parity[parity["in_range"] & exceeds(parity["tail"], parity["bound"])]
        if len(bad):
            row = bad.loc[(bad["tail"] - bad["bound"]).idxmax()]
            certificate, counterexample = _monomial_failure(row, "f = chi_T with |T| = {p}, rho = {rho:g}, d = {d}", 6)
            if certificate is not None:
                candidates.append((float(row["tail"] - row["bound"]), certificate, counterexample))
        network = certified_worst(tables, CHECKS.claim21_tail.measures, network_tail_certificate)
        if network is not None:
            certificate, counterexample = network
            candidates.append((certificate["lhs_value"] - certificate["rhs_value"], certificate, counterexample))
        if not candidates:
            return None
        _, certificate, counterexample = max(candidates, key=lambda c: c[0])
        return certificate, counterexample

    # Claim 2.1 is stated for all f and used for rho in [0, 1) (proof of Theorem 8); this row tests only that
    # range, so a violation would make the stated claim false where the paper uses it: statement-error.
    records.append(
        assembly.record(
            CHECKS.claim21_tail,
            "rho in [0, 1) (the range Theorem 8 uses)",
            excess,
            "max (tail - bound)",
            verdict_at_most(excess, 0.0),
            len(inside),
            "for rho in [0, 1), 1 - rho^|T| >= 1 - rho^d when |T| > d, which is the printed 'hence'",
            build=claim21_failure,
        )
    )

    outside = every[~every["in_range"]]
    violated = outside[exceeds(outside["tail"], outside["bound"])]
    bad_parity = parity[~parity["in_range"] & exceeds(parity["tail"], parity["bound"])]
    certificate, counterexample = None, ""
    if len(bad_parity):
        preferred = bad_parity[
            (bad_parity["order"] == 2) & np.isclose(bad_parity["rho"], -0.5) & (bad_parity["d"] == 1)
        ]
        certificate, counterexample = _monomial_failure(
            (preferred if len(preferred) else bad_parity).iloc[0],
            "f = chi_T with |T| = {p}: NS_rho(f) = Pr[an odd number of the {p} coordinates of T flip] = "
            "(1 - rho^{p})/2 (each flips with probability (1-rho)/2; the verifier recomputes it from the "
            "definition); at rho = {rho:g} < 0 the bound is below the tail",
            4,
            strict=True,
        )
    network_hits = violated[~violated["instance"].str.startswith("chi_")]
    records.append(
        assembly.row(
            CHECKS.claim21_tail_negative_rho,
            "as printed, rho < 0",
            len(outside),
            worst_value=float((outside["tail"] - outside["bound"]).max()),
            worst_value_label="max (tail - bound)",
            **cert.certified_fields(
                bool(len(violated)), certificate, CHECKS.claim21_tail_negative_rho["finding"], counterexample
            ),
            notes=(
                f"violated on {len(violated)} of {len(outside)} (function, rho < 0, d) cases, {len(network_hits)} of "
                "them on networks: for rho < 0, 1 - rho^|T| is not increasing in |T|, so the 'hence' breaks. The "
                "paper uses Claim 2.1 only for rho in [0, 1) (proof of Theorem 8), where it holds "
                f"({CHECKS.claim21_tail.id}); Appendix B's 'rho in [-1, 1]' concerns the coupling, not this tail bound."
            ),
        )
    )
    return records


def _monomial_failure(row, explanation: str, digits: int, strict: bool = False):
    """Certificate (or ``None``) and counterexample of Claim 2.1's tail bound at a ``chi_T`` row of the parity table;
    ``explanation`` is formatted with the row's ``p``, ``rho`` and ``d``, the counterexample's values with ``digits``
    significant digits."""
    p, rho, d = int(row["order"]), float(row["rho"]), int(row["d"])
    certificate = tail_certificate(
        {"monomial": list(range(p)), "n": p},
        rho,
        d,
        row["tail"],
        row["bound"],
        explanation.format(p=p, rho=rho, d=d),
        strict=strict,
    )
    return certificate, (
        f"f = {row['instance']} on n = {p}, rho = {rho:g}, d = {d}: tail = {row['tail']:.{digits}g} > "
        f"2 NS_rho/(1 - rho^d) = {row['bound']:.{digits}g}"
    )


def tail_certificate(
    function: dict, rho: float, d: int, tail: float, bound: float, explanation: str, strict: bool = True
) -> dict | None:
    """The certificate of ``sum_{|T|>d} fhat(T)^2 > 2 NS_rho(f)/(1 - rho^d)`` (Claim 2.1's tail bound) for ``f``.

    Parameters
    ----------
    function : dict
        The function spec ``F`` of :mod:`sparseact.verify.certificates` (monomial, network, ...).
    rho : float
    d : int
    tail, bound : float
        The two sides as the check computed them.
    explanation : str
        One sentence for a reader.
    strict : bool
        Raise when the values do not violate the bound (:func:`~sparseact.verify.certificates.certificate`);
        otherwise return ``None``.

    Returns
    -------
    dict or None
    """
    build = cert.certificate if strict else cert.certificate_if_violated
    return build(
        "<=",
        cert.quantity("fourier_tail", function=function, degree=d),
        cert.formula(
            "2 * ns / (1 - rho**d)", rho=rho, d=d, ns=cert.quantity("noise_sensitivity", function=function, rho=rho)
        ),
        tail,
        bound,
        "sum_{|T|>d} fhat(T)^2",
        "2 NS_rho(f) / (1 - rho^d)",
        explanation,
    )


def network_tail_certificate(data: dict) -> dict | None:
    """The certificate of Claim 2.1's tail bound violated by the network of one recorded instance
    (:func:`sparseact.claims.lemma10.compute.worst_tail`), or ``None`` when the bound holds there."""
    if not exceeds(data["tail"], data["bound"]):
        return None
    return tail_certificate(
        {"network": {key: data[key] for key in ("u", "W", "b")}},
        data["rho"],
        data["d"],
        data["tail"],
        data["bound"],
        f"network {data['label']}, rho = {data['rho']:g}, d = {data['d']}",
        strict=False,
    )
