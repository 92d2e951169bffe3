"""The rows of the Introduction's dense lower bound ``Omega(s^2/eps^2)``, evaluated at assembly (exact).

``theorem17/memoriser-unseen-mass`` (the memoriser lemma's step), ``theorem17/dense-lower-bound-fixed-n`` (an
instance of ``dense-lower-bound-refuted``: the bound read at fixed n) and the exact steps of
``dense-lower-bound-uniform`` (the bound read uniformly), whose arithmetic is
:mod:`sparseact.claims.theorem17.dense_lower_bound`.
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd

from sparseact import bounds
from sparseact.claims._checks import declared_checks
from sparseact.claims.theorem17 import dense_lower_bound
from sparseact.verify.assembly import Assembly
from sparseact.verify.records import CheckRecord
from sparseact.verify.verdicts import Verdict, verdict_all, verdict_at_most

#: The claim's checks, declared once (checks.yaml).
CHECKS = declared_checks("theorem17")

#: The expected unseen mass ``sum_x P(x)(1 - P(x))^m`` against ``N/(e m)``: sample sizes, and distributions on
#: ``N`` points (uniform; all mass spread at ``1/m``; geometric), evaluated exactly (closed-form sums).
MEMORISER_M = (1, 3, 10, 100, 10_000)
MEMORISER_N = (2, 8, 64)
#: The instance of dense-lower-bound-refuted (the Introduction's Omega(s^2/eps^2) read at fixed n): the dense class
#: H_{1,1,1}^{1,1} (C = s(W sqrt(n) + B) = 2) at delta = 1/4, a tiny eps, and the constant read at DENSE_C.
DENSE_INSTANCE = dict(n=1, s=1, W=1.0, B=1.0, delta=0.25, eps=1e-12)
DENSE_C = 1e-6


def _unseen_mass_rows() -> pd.DataFrame:
    rows = []
    for N in MEMORISER_N:
        for m in MEMORISER_M:
            spread = min(1.0 / m, 1.0 / N)
            families = {
                "uniform": np.full(N, 1.0 / N),
                "at 1/m": np.r_[np.full(N - 1, spread), 1.0 - (N - 1) * spread],
                "geometric": 0.5 ** np.arange(1, N + 1) / (1 - 0.5**N),
            }
            for name, P in families.items():
                rows.append(
                    dict(
                        N=N, m=m, family=name, expected_unseen=float(np.sum(P * (1.0 - P) ** m)), bound=N / (math.e * m)
                    )
                )
    return pd.DataFrame(rows)


def dense_lower_bound_records() -> list[CheckRecord]:
    """``theorem17/memoriser-unseen-mass`` (the lemma's step, exact) and ``theorem17/dense-lower-bound-fixed-n``
    (the memoriser's sample count against c s^2/eps^2 at fixed n: an instance of dense-lower-bound-refuted), then
    the steps of dense-lower-bound-uniform (:func:`_uniform_lower_bound_records`)."""
    unseen = _unseen_mass_rows()
    record = Assembly("theorem17", {"c": f"{DENSE_C:g}"}).record
    records = [
        record(
            CHECKS.memoriser_unseen_mass,
            "",
            float((unseen["expected_unseen"] / unseen["bound"]).max()),
            "max E[unseen mass] / (N/(e m))",
            verdict_all(verdict_at_most(u, b) for u, b in zip(unseen["expected_unseen"], unseen["bound"], strict=True)),
            len(unseen),
            "p(1 - p)^m <= p e^(-pm) <= 1/(e m) termwise; the spread family comes closest (mass 1/m per point).",
            covered=f"N in {list(MEMORISER_N)}, m in {list(MEMORISER_M)}",
        )
    ]
    inst = DENSE_INSTANCE
    C = float(bounds.class_sup_bound(inst["n"], inst["s"], inst["W"], inst["B"]))  # k = s: every neuron may fire
    m0 = math.ceil(bounds.memoriser_sample_complexity(inst["n"], C, inst["eps"], inst["delta"]))
    printed = DENSE_C * inst["s"] ** 2 / inst["eps"] ** 2
    below_above = m0 * inst["eps"] ** 2 / inst["s"] ** 2
    records.append(
        record(
            CHECKS.dense_lower_bound_fixed_n,
            "ours",
            float(m0 / printed),
            "sufficient samples / (c s^2/eps^2)",
            Verdict.PASS if m0 < printed else Verdict.INCONCLUSIVE,
            1,
            f"{m0} samples suffice, below c s^2/eps^2 = {printed:.4g} at c = {DENSE_C:g}; c s^2/eps^2 exceeds "
            f"this count for every c above {below_above:.3g}, and at a smaller eps for every c above a smaller value. This is the "
            "family-by-family reading of the Introduction's Omega(s^2/eps^2) (one n, eps -> 0); read uniformly (some "
            "n growing with 1/eps) it holds for W > 0 and every c (dense-lower-bound-uniform).",
            covered=f"n = {inst['n']}, s = {inst['s']}, W = B = 1, delta = {inst['delta']:g}, eps = {inst['eps']:g}",
        )
    )
    return records + _uniform_lower_bound_records()


def _uniform_lower_bound_records() -> list[CheckRecord]:
    """The exact steps of dense-lower-bound-uniform (the Introduction's Omega(s^2/eps^2) read uniformly, some n for
    every s and eps): the degree-1 Fourier coefficients of relu(<z, y>), the Hamming-ball count against 2^{H(1/4)t},
    and the witness (t, L, n) at one (s, eps, W, delta, c)."""
    record = Assembly("theorem17").record
    errors = {t: dense_lower_bound.degree_one_error(t) for t in dense_lower_bound.DEGREE_ONE_T}
    balls = dense_lower_bound.hamming_ball_rows()
    inst = dense_lower_bound.UNIFORM_INSTANCE
    witness = dense_lower_bound.uniform_instance(inst["s"], inst["eps"], inst["W"], inst["delta"], inst["c"])
    return [
        record(
            CHECKS.relu_degree_one,
            "ours",
            float(max(errors.values())),
            "max |coefficient - z_i/2|",
            Verdict.PASS if not any(errors.values()) else Verdict.INCONCLUSIVE,
            sum(2**t * t for t in errors),
            "The coefficients of f_z = relu(a <z, y>), a > 0, are a z_i/2 by homogeneity.",
            covered=f"t in {list(errors)}, every z",
        ),
        record(
            CHECKS.hamming_ball_volume,
            "ours",
            max(r["ratio"] for r in balls),
            "max V / 2^{H(1/4) t}",
            Verdict.PASS if all(r["holds"] for r in balls) else Verdict.INCONCLUSIVE,
            len(balls),
            "An instance check of fact:hamming-ball; H(1/4) = 2 - (3/4) log2(3) = 0.8113.",
            covered=f"t = 1, ..., {dense_lower_bound.BALL_T_MAX}",
        ),
        record(
            CHECKS.dense_lower_bound_uniform,
            "ours",
            witness["bound"],
            "(t + 1)^M 2^{-(1 - H(1/4)) t}, against 1 - delta",
            Verdict.PASS if witness["wrong_ok"] and witness["below"] else Verdict.INCONCLUSIVE,
            1,
            f"At n = {witness['n']} no learner reaches loss <= eps with probability >= 1 - delta = "
            f"{float(1 - inst['delta']):g} from {witness['M']} samples: the success probability of a uniformly "
            f"random target is at most {witness['bound']:.4g} (with the exact Hamming ball in place of "
            f"2^{{H(1/4) t}}, {witness['exact_bound']:.3g}).",
            covered=f"s = {inst['s']}, eps = {inst['eps']}, W = {inst['W']}, delta = {inst['delta']}, c = {inst['c']}: "
            f"M = {witness['M']}, L = {witness['L']}, t = {witness['t']}, n = {witness['n']}",
        ),
    ]
