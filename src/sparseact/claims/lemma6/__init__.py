r"""Lemma 6 (Kane 2014): the average sensitivity of a halfspace indicator, and the identity in its proof.

Lemma 6 (PMLR p. 4) states that ``g(x) = 1{<w, x> <= b}`` with ``E[g] = p`` has
``AS(g) = O(p sqrt(n log(1/p)))`` (Section 2.1's AS, factor 1/4). Its proof
assumes w.l.o.g. ``w > 0``, calls ``g`` non-decreasing and prints

    E[x_i g(x)] = E[(g(x) - g(x^{(+)i}))^2],    hence    AS(g) = (1/4) E_x[g(x) sum_i x_i].

With ``w > 0`` the indicator ``1{<w, x> <= b}`` is non-*increasing* in every
coordinate, and pairing ``x`` with ``x^{(+)i}`` gives
``E[x_i g(x)] = -(1/2) Pr_x[g(x) != g(x^{(+)i})]``, so exactly

    AS(g) = -(1/2) E_x[g(x) sum_i x_i]                       (corrected; w > 0)

(as :func:`sparseact.sensitivity.lemma6_identity_check` shows). Lemma 6 itself is an
O() statement about Kane's theorem and is measured, not failed for its constant.

Measured exactly on the cube for majority-like halfspaces (``w = 1``, every
integer threshold), Gaussian ``w`` and positive ``w = |N(0, I)|``, thresholds
spread so that ``p`` runs from ``2^-n`` to 1/2
(:func:`sparseact.sensitivity.halfspace_family`). The identity is tested on
every halfspace with ``w > 0`` (majority-like and positive).

Grid: one point ``n<n>`` per ``n`` in ``n_values``.
"""

from __future__ import annotations

PAPER_REF = "Lemma 6 (Section 2.1)"
RANDOM = True

#: The factor of the corrected identity ``AS(g) = CORRECTED_FACTOR * E_x[g(x) sum_i x_i]`` (``w > 0``): the runs
#: stage measures against it, the assembly's certificates state it.
CORRECTED_FACTOR = -0.5


#: Bytes the runs stage holds per cube point at its peak: ``<w, x>`` on the cube, its absolute values sorted and their
#: counts (float64 each) and a threshold's table.
RUN_BYTES_PER_POINT = 48


def points(block: dict) -> dict[str, dict]:
    return {
        f"n{n}": {"n": int(n), "thresholds": int(block["thresholds"]), "random_draws": int(block["random_draws"])}
        for n in block["n_values"]
    }


def work(point: dict) -> tuple[str, float]:
    """Growth proxy of a point's CPU time (:meth:`sparseact.claims.Claim.work`): the ``2^n``-point cube, sorted
    (``n``) once per threshold and random draw."""
    return "", 2.0 ** point["n"] * point["n"] * (point["thresholds"] + point["random_draws"])


def shard(point_name: str, point: dict) -> str:
    """All dimensions in one runs job (seconds of work)."""
    return "thresholds"


def validate(block: dict):
    """Dimensions whose cube the runs stage cannot hold within the memory limit (:data:`RUN_BYTES_PER_POINT`)."""
    # imported here, not with the grid: sparseact._validation needs numpy
    from sparseact._validation import max_cube_dim

    cap = max_cube_dim(RUN_BYTES_PER_POINT)
    for i, n in enumerate(block["n_values"]):
        if n > cap:
            yield (
                f"n_values[{i}]",
                f"n = {n}: the runs stage holds {RUN_BYTES_PER_POINT} bytes per point of the cube, above the memory "
                f"limit for n > {cap} (sparseact._validation.MEMORY_LIMIT_BYTES)",
            )
