r"""Section 4 (hardness under arbitrary distributions): parities as 1-sparse networks on the lift ``x(y)``.

As printed (PMLR p. 8), for ``S subseteq [m]``:

* ``chi_S : {1,-1}^m -> {0,1}``, ``chi_S(y) = 1`` iff ``sum_{i in S} y_i`` is even;
* ``chi_S(y) = sum_{a in {-m..m}, a even} 2 sigma(1/2 - (sum_{i in S} y_i - a)^2)``, and for any ``y``
  at most one ReLU node is active;
* with ``x(y)_{ii} = y_i``, ``x(y)_{ij} = y_i y_j`` (``n = m^2``), for every ``a in [-m, m]``
  ``1/2 - (sum_{i in S} y_i - a)^2 = <w_{S,a}, x(y)> - b_{S,a}`` with ``b_{S,a} = |S| + a^2 - 1/2``,
  ``w_{S,a}[i, j] = -1`` for ``i != j in [m]`` and ``w_{S,a}[i, i] = 2a``;
  ``||w_{S,a}||_2 = O(m^1.5)``, ``|b_{S,a}| = O(m^2)``;
* hence parities on ``m`` bits are computed in ``H_{m^2, 2m, 1}^{O(m^1.5), O(m^2)}`` on the support
  ``{x(y)}`` (Definition 1 counts active neurons on the support of the distribution), which with
  Theorem 14 gives the first part of Theorem 3.

For ``y in {-1,1}^m``, ``sum_{i in S} y_i = |S| (mod 2)``, so the printed ``chi_S`` is the constant
``1{|S| even}`` (the text mixes the {0,1} and {-1,1} encodings). The parity is 1 iff the number
``(|S| - sum_{i in S} y_i)/2`` of ``-1`` entries is even, i.e. ``sum_{i in S} y_i = |S| (mod 4)``, so the
identity needs the shifts ``a = |S| (mod 4)`` (:func:`sparseact.constructions.parity_shifts`). Expanding
``(sum_{i in S} y_i - a)^2`` with ``y_i^2 = 1`` gives the printed weights restricted to ``i, j in S``
(zero elsewhere): the printed ``i != j in [m]`` is right only for ``S = [m]``. The corrected entries are
dominated entrywise by the printed ones and ``b`` is the same, so ``max_S max_a ||w_{S,a}||`` is attained at
``S = [m]``, where ``||w_{[m],a}||_2^2 = m(m - 1) + 4 a^2 m`` and ``|b| = m + a^2 - 1/2``:
``max_{|a| <= m} ||w|| = sqrt(4 m^3 + m^2 - m) = O(m^1.5)``, ``max |b| = m^2 + m - 1/2 = O(m^2)``.

The introduction's statements ride on the same points: the rescaled network ``(lam u, w_j/lam, b_j/lam)``
(coefficient vectors of norm ``<= k``, Definition 2's ``W`` unchanged), the dense ``(k+1)``-neuron parity
network :func:`sparseact.constructions.dense_parity_network` on every input, and Theorem 14's key step
(Parseval: a bounded query correlates beyond ``tau`` with at most ``1/tau^2`` parities). The scale bounds
are checked exactly with explicit constants (``sqrt(5) m^1.5``, ``2 m^2``); the fitted exponents are
measurements (tightness table).

Grid: one exhaustive point ``m<m>`` per ``m`` in ``m_values`` (every non-empty ``S``, every ``y``, every
integer ``a in [-m, m]``, printed and corrected; the whole cube ``{-1,1}^(m*m)`` for
``m <= full_cube_max_m``, off the support, reported only), and one point ``scale-m<m>`` per ``m`` in
``scale_m_values`` (the weights of ``S = [m]`` for every integer ``a in [-m, m]``; no enumeration).
"""

from __future__ import annotations

PAPER_REF = "Section 4 (Hardness under arbitrary distributions)"
RANDOM = False

#: Fewest distinct m values of the scale fit (:data:`sparseact.verify.verdicts.MIN_SWEEP_POINTS`; not imported here so
#: that reading and checking the grid loads no numerical code).
MIN_SWEEP_POINTS = 3


def points(block: dict) -> dict[str, dict]:
    grid = {
        f"m{m}": {"kind": "exhaustive", "m": int(m), "full_cube": bool(m <= block["full_cube_max_m"])}
        for m in block["m_values"]
    }
    grid.update({f"scale-m{m}": {"kind": "scale", "m": int(m)} for m in block["scale_m_values"]})
    return grid


def work(point: dict) -> tuple[str, float]:
    """Growth proxy of a point's CPU time (:meth:`sparseact.claims.Claim.work`): an exhaustive point enumerates the
    ``2^(m^2)`` lifted inputs (``2^m`` without the full cube); a scale point evaluates closed forms."""
    if point["kind"] == "scale":
        return "scale", 1.0
    return "exhaustive", 2.0 ** (point["m"] ** 2 if point["full_cube"] else point["m"])


def shard(point_name: str, point: dict) -> str:
    """Every point in one runs job: the exhaustive points and the scale formulas together cost about a shard's
    start-up."""
    return "all"


def validate(block: dict):
    if len(set(block["scale_m_values"])) < MIN_SWEEP_POINTS:
        yield (
            "scale_m_values",
            f"the O(m^1.5), O(m^2) fit needs at least {MIN_SWEEP_POINTS} distinct m values "
            f"(got {sorted(set(block['scale_m_values']))})",
        )
    for key in ("m_values", "scale_m_values"):
        if len(set(block[key])) != len(block[key]):
            yield (key, f"repeated values give repeated point names (got {block[key]})")
