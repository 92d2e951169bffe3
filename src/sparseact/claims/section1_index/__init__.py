"""Section 1: the indexing function Index_b is computed by a 1-sparse network of size 2^b.

Index_b(z) on ``n = b + 2^b`` bits reads the address ``alpha`` from the first
``b`` bits and returns the bit it points to. The paper's network
``sum_alpha sigma(<w_alpha, z> - b + 1/2)`` has one neuron per address, and at
most one neuron fires on any input, so Index_b lies in ``H_{b+2^b, 2^b, 1}``.
Every input of the cube is enumerated.

The introduction's remarks around the examples are checked too: deleting any neuron of ``Index_b`` or of
Theorem 13's network of a ``b``-junta (``s = 2^b``) changes the truth table (``max_x |u_j sigma(.)| > 0``),
every weight vector has ``b + 1`` (resp. ``b``) non-zero entries, ``1/0.03 = 33.3``, and the common bias at
which ``s`` orthonormal neurons are 1-sparse with probability ``1 - 1/s`` under Gaussian inputs.

Grid: one point per ``b`` in ``b_values``.

A FAIL carries a certificate the assembly builds from the network and the worst
input the runs stage recorded (:mod:`sparseact.claims._failures`): ``Index_b`` is recomputed from
the input by a formula (the bit the address points to), the network's value,
active count and size from the network itself.
"""

from __future__ import annotations

PAPER_REF = "Section 1 (Indexing function)"
RANDOM = False


def points(block: dict) -> dict[str, dict]:
    return {f"b{b}": {"b": int(b)} for b in block["b_values"]}


def shard(point_name: str, point: dict) -> str:
    """Every b in one runs job (the largest, b = 4, enumerates 2^20 inputs in about a second)."""
    return "index"
