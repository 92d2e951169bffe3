"""Dimensional analysis: every bound of :mod:`sparseact.bounds` under a change of scale.

The paper's quantities carry scales. Multiplying the output weights ``u`` by
``lambda`` multiplies ``h``, ``W``, ``B`` and ``C_H`` by ``lambda``, an average or
noise sensitivity by ``lambda^2``, and the squared loss ``(1/2)(f - y)^2`` and so
the accuracy ``eps`` of a PAC guarantee by ``lambda^2`` (Section 2). For the
general-distribution results (inputs in ``R^n`` with ``||x|| <= R``), multiplying
``x`` by ``mu`` and every ``w_j`` by ``1/mu`` leaves ``h`` unchanged and scales
``R`` by ``mu`` and ``W`` by ``1/mu``. A correct bound transforms like the
quantity it bounds: a sensitivity like ``lambda^2``, a Rademacher complexity like
``lambda``, a degree, a probability or a sample complexity not at all.

For each formula the check measures the local exponent
``d log f / d log t`` of the formula under each transformation, at scales ``t``
from ``1e-6`` to ``1e6`` (exactly evaluated closed forms), and compares it with
the exponent of the bounded quantity:

* equal everywhere: covariant (PASS);
* off by less than :data:`LOG_DEVIATION` (a scale inside a logarithm, e.g.
  ``log(m(R+B))``): PASS with the caveat that the formula is degenerate at small
  scales (the reason for Theorem 19's FAIL on small-norm samples);
* off by a power: the formula promises something false at some scale. For a
  sample complexity that is certified by an explicit instance
  (:func:`sparseact.bounds.sign_ambiguity_lower_bound`: telling ``h`` from
  ``-h``); without such a certificate the row is INCONCLUSIVE.

The Theorem 17 rows bear on the statement ``theorem17`` of the claim
:mod:`sparseact.claims.theorem17`. Lemma 18, the root of Theorem 17's failure, is refuted
on the class ``{h, -h}``, ``h = lambda relu(x)``: its condition
``c (C_H E_S[R_H(S)] + sqrt(log(1/delta)/m)) <= eps`` (``E_S`` an exact binomial sum) holds one
sample below the sign-ambiguity lower bound; with the loss range ``C_H^2`` on the confidence
term it does not. Theorem 5 is compared with Theorem 17 on the cube (``R = sqrt(n)``).
The families of the proofs that no hidden constant saves four steps of the uniform-distribution chain (the last line,
the choice of ``rho`` and the tail step of Theorem 8's proof, the bound on (V) in Lemma 9's) are evaluated at a grid of
constants (:mod:`sparseact.claims.scaling.uniform_families`).

Grid: three points, ``output-scale`` (``u -> lambda u``, every formula),
``input-scale`` (``x -> mu x``, the formulas with ``R``) and
``theorem17-sign-ambiguity`` (the certificate search).
"""

from __future__ import annotations

PAPER_REF = "Lemmas 6, 7, 9, 10, Claim 2.1, Theorems 8, 17, 19, eq. (15), Conjecture 20"
RANDOM = False


def points(block: dict) -> dict[str, dict]:
    scales = [float(t) for t in block["scales"]]
    sign = block["sign_ambiguity"]
    return {
        "output-scale": {"transform": "output", "scales": scales},
        "input-scale": {"transform": "input", "scales": scales},
        "theorem17-sign-ambiguity": {
            "eps0_values": [float(e) for e in sign["eps0_values"]],
            "delta": float(sign["delta"]),
            "constant": float(sign["constant"]),
        },
    }


def shard(point_name: str, point: dict) -> str:
    """The three points take milliseconds: one runs job."""
    return "all"


def validate(block: dict):
    if any(float(t) == 1.0 for t in block["scales"]):
        yield "scales", "a scale of 1 measures nothing; use scales away from 1 (e.g. 1e-3, 1e3)"
