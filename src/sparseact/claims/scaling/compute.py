"""Data and runs stages of the claim ``scaling``: ``generate(point, rng)`` and ``run(point, data, rng)``.

The grid and what the claim checks: :mod:`sparseact.claims.scaling`.
"""

from __future__ import annotations

import inspect
import math

import numpy as np
import pandas as pd
from scipy.special import gammaln

from sparseact import bounds

#: Exponent of ``lambda`` carried by each argument under ``u -> lambda u`` (squared loss: eps ~ h^2).
OUTPUT_SCALE = {"W": 1, "B": 1, "C": 1, "ns_rho": 2, "eps": 2}
#: Exponent of ``mu`` carried by each argument under ``x -> mu x``, ``w_j -> w_j / mu``.
INPUT_SCALE = {"R": 1, "W": -1}
#: The formulas of :mod:`sparseact.bounds` the claim transforms, in the order its table lists them, each with the
#: exponent of ``lambda`` of the quantity it bounds (``mu``: always 0, ``h`` is unchanged).
QUANTITY_EXPONENT = {
    "lemma6_halfspace_as": 0,  # AS of a Boolean halfspace: no scale enters
    "lemma7_sample_complexity": 0,
    "lemma9_average_sensitivity": 2,
    "lemma9_terms": 2,
    "lemma9_term_U": 2,
    "lemma9_transition_probability": 0,
    "lemma10_noise_sensitivity": 2,
    "claim21_tail_bound": 2,
    "theorem8_degree": 0,
    "theorem8_one_minus_rho": 0,
    "theorem8_sample_complexity": 0,
    "class_sup_bound": 1,
    "theorem17_sample_complexity": 0,
    "theorem17_covariant_sample_complexity": 0,
    "sign_ambiguity_lower_bound": 0,
    "theorem19_rademacher": 1,
    "theorem19_proof_terms": 1,
    "eq15_rademacher": 1,
    "conjecture20_rademacher": 1,
    "dense_rademacher": 1,
}
#: The other formulas of :mod:`sparseact.bounds`, and why the claim leaves them out.
UNSCALED = {
    "lemma6_explicit": "our proved form of Lemma 6 (its constant times lemma6_halfspace_as)",
    "lemma9_sharp": "our correction, outside the paper's formulas",
    "lemma10_sharp": "our correction, outside the paper's formulas",
    "theorem8_sharp_degree": "our correction, outside the paper's formulas",
    "theorem19_rademacher_corrected": "our correction, outside the paper's formulas",
    "lemma9_proof_V_middle": "a step of a proof, outside the paper's stated formulas",
    "theorem5_rate": "a reading of an O~, not a printed formula",
    "memoriser_sample_complexity": "no printed formula",
    "two_point_sample_lower_bound": "no printed formula (the standard two-point argument)",
    "solve_for_m": "a solver, not a bound",
}
#: Base point at which every formula is evaluated before rescaling.
BASE = dict(
    n=16, s=8, k=2, W=1.0, B=1.0, R=4.0, m=1000, eps=0.1, delta=0.05, rho=0.9, d=3, C=2.0, p=0.1, ns_rho=0.5, c=1.0
)

#: Ratio of scales over which the local exponent is measured.
DECADE = 10.0
#: Lemma 18's instances: the class {h, -h}, h(x) = lambda relu(x) on x in {1, -1}, P(x = 1) = p = LEMMA18_P_OVER_EPS0
#: eps0, eps = eps0 lambda^2 (so p lambda^2 > 2 eps: telling h from -h is needed).
LEMMA18_EPS0 = 0.2
LEMMA18_P_OVER_EPS0 = 2.2
#: (lambda, log(1/delta)) of the instances, the most moderate first: delta = e^{-L}, the confidence term being where the
#: printed lemma fails. The refuted constant grows like sqrt(log(1/delta)) once lambda is large.
LEMMA18_INSTANCES = ((10.0, 10.0), (1.0e6, 1.0e2), (1.0e6, 1.0e3), (1.0e6, 1.0e4), (1.0e6, 1.0e5))
#: The constant c of Lemma 18 at which the check evaluates the printed condition (the certificate's c); every row also
#: records the largest constant it refutes. The corrected condition holds with c = 8 (lemma18-corrected).
LEMMA18_CONSTANT = 1


def _bound_functions() -> list[str]:
    return list(QUANTITY_EXPONENT)


def generate(point: dict, rng) -> dict:
    if "transform" in point:
        return {"scales": np.asarray(point["scales"], dtype=float)}
    return {"eps0_values": np.asarray(point["eps0_values"], dtype=float)}


def _evaluate(name: str, arguments: dict) -> list[float]:
    function = getattr(bounds, name)
    value = function(**{p: arguments[p] for p in inspect.signature(function).parameters})
    return [float(v) for v in (value if isinstance(value, tuple) else (value,))]


def _scaled(rule: dict, t: float) -> dict:
    return {key: value * t ** rule.get(key, 0) for key, value in BASE.items()}


def local_exponents(name: str, rule: dict, scales) -> list[dict]:
    """``d log f / d log t`` of formula ``name`` under ``rule`` at each scale (over one decade), per component."""
    rows = []
    for t in scales:
        try:
            low, high = _evaluate(name, _scaled(rule, t)), _evaluate(name, _scaled(rule, t * DECADE))
        except ValueError as exc:
            rows.append(dict(scale=t, component=0, exponent=math.nan, defined=False, note=str(exc)[:120]))
            continue
        for component, (a, b) in enumerate(zip(low, high, strict=True)):
            defined = a > 0 and b > 0
            exponent = math.log(b / a) / math.log(DECADE) if defined else math.nan
            rows.append(
                dict(
                    scale=t,
                    component=component,
                    exponent=exponent,
                    defined=defined,
                    note="" if defined else "value <= 0 at this scale",
                )
            )
    return rows


def _printed_theorem17(eps, delta, W, B, R, k=1, s=1, n=1) -> float:
    return float(bounds.theorem17_sample_complexity(eps, delta, n, s, k, W, B, R))


def sign_ambiguity_instance(eps0: float, delta: float) -> dict:
    """The instance refuting Theorem 17's scaling at ``eps = eps0 lambda^2``.

    ``n = s = k = 1``, ``R = 1``, ``h(x) = lambda relu(x)`` (``W = lambda``) on the
    marginal ``x = 1`` with probability ``p = 4 eps0``, ``x = -1`` otherwise, so
    ``p lambda^2 = 4 eps > 2 eps`` (:func:`sparseact.bounds.sign_ambiguity_lower_bound`).
    ``lambda`` makes the ``log(1/delta)/eps^2`` term negligible and ``B`` (any
    ``B >= 0`` keeps ``h`` in the class) makes ``log(k(R+B)/eps) = 1``.
    """
    lam = 1.0 / eps0
    eps = eps0 * lam**2
    B = math.e * eps - 1.0
    p = 4.0 * eps0
    lower = float(bounds.sign_ambiguity_lower_bound(p, delta))
    printed = _printed_theorem17(eps, delta, W=lam, B=B, R=1.0)
    corrected = float(bounds.theorem17_covariant_sample_complexity(eps, delta, 1, 1, 1, lam, B, 1.0))
    return dict(
        eps0=eps0,
        lam=lam,
        eps=eps,
        delta=delta,
        p=p,
        W=lam,
        B=B,
        R=1.0,
        k=1,
        s=1,
        n=1,
        lower_bound=lower,
        printed=printed,
        corrected=corrected,
        refuted_constant=lower / printed,
    )


def expected_rademacher_two_point(m: int, p: float, lam: float) -> float:
    """``E_S R_H(S)`` of ``H = {h, -h}`` on ``m`` i.i.d. points with ``h = lambda`` w.p. ``p`` and ``0`` otherwise.

    ``R_H(S) = (lambda/m) E_zeta |zeta_1 + ... + zeta_a|`` (``a`` points with ``h != 0``); ``E|S_a| = a
    binom(a-1, floor((a-1)/2)) / 2^(a-1)``; ``a ~ Binomial(m, p)``. Vectorised in log-gamma form.
    """
    a = np.arange(1, m + 1, dtype=float)
    half = np.floor((a - 1) / 2)
    log_terms = (
        gammaln(m + 1)
        - gammaln(a + 1)
        - gammaln(m - a + 1)
        + a * np.log(p)
        + (m - a) * np.log1p(-p)
        + np.log(a)
        + gammaln(a)
        - gammaln(half + 1)
        - gammaln(a - half)
        - (a - 1) * np.log(2.0)
    )
    return float(lam / m * np.exp(log_terms).sum())


def lemma18_instance(lam: float, log_inv_delta: float) -> dict:
    """Lemma 18 as printed against the samples needed on the two-point instance (``LEMMA18_*``).

    ``m1`` is the largest sample size below the samples needed to tell ``h`` from ``-h``; the printed
    condition ``c (C_H E_S R_H(S) + sqrt(log(1/delta)/m1)) <= eps`` holds there for every ``c`` up to
    ``refuted_constant``, so the printed sample complexity is at most ``m1``: too few.
    """
    eps0 = LEMMA18_EPS0
    p = LEMMA18_P_OVER_EPS0 * eps0
    eps = eps0 * lam**2
    L = float(log_inv_delta)
    needed = (L - math.log(2.0)) / -math.log1p(-p)
    m1 = math.ceil(needed) - 1
    ER = expected_rademacher_two_point(m1, p, lam)
    printed_unit = lam * ER + math.sqrt(L / m1)
    corrected_unit = lam * ER + lam**2 * math.sqrt(L / m1)
    return dict(
        log_inv_delta=L,
        eps0=eps0,
        lam=lam,
        eps=eps,
        p=p,
        needed=needed,
        m1=m1,
        ER=ER,
        printed_condition=LEMMA18_CONSTANT * printed_unit,
        corrected_condition=corrected_unit,
        refuted_constant=eps / printed_unit,
        corrected_margin=corrected_unit / eps,
    )


def run(point: dict, data: dict, rng) -> dict:
    if "transform" not in point:
        return {
            "sign_ambiguity": pd.DataFrame([sign_ambiguity_instance(e, point["delta"]) for e in point["eps0_values"]]),
            "lemma18": pd.DataFrame([lemma18_instance(lam, L) for lam, L in LEMMA18_INSTANCES]),
        }
    rule = OUTPUT_SCALE if point["transform"] == "output" else INPUT_SCALE

    rows = []
    for name in _bound_functions():
        parameters = set(inspect.signature(getattr(bounds, name)).parameters)
        if point["transform"] == "input" and "R" not in parameters:
            continue
        expected = QUANTITY_EXPONENT[name] if point["transform"] == "output" else 0
        scaled = sorted(parameters & set(rule))
        for row in local_exponents(name, rule, point["scales"]):
            rows.append(
                dict(
                    formula=name,
                    transform=point["transform"],
                    scaled_arguments=" ".join(scaled),
                    expected=expected,
                    **row,
                )
            )
    return {"exponents": pd.DataFrame(rows)}
