r"""Appendix A: a sparsely activated network whose weight vectors are dense.

As printed (PMLR, Appendix A): with ``b = log2 s`` and ``q = n - b``,

.. math:: F(x, y) = \sum_{\alpha \in \{1,-1\}^b}
          \sigma(\langle w_\alpha, y\rangle + \Gamma(\langle x, \alpha\rangle - b))

on inputs ``(x, y) in {-1,1}^b x {-1,1}^q``. "When ``Gamma = sqrt(q)``, this network is
1-sparsely activated for all inputs, and when ``Gamma = Theta(sqrt(log s))``, the function is
1-sparse with probability ``1 - 1/poly(s)`` under the uniform distribution"; such functions
"return ``sigma(<w_x, y>)`` for all (or most) of the input space, where ``w_x`` can depend
arbitrarily on ``x``". The example is quoted in Section 1 as a sparsely activated network in
which even the weight vectors ``w_i`` are not sparse.

Since ``<x, alpha> = b - 2 d(x, alpha)`` (``d`` the Hamming distance), neuron ``alpha`` fires at
``(x, y)`` iff

.. math:: \langle w_\alpha, y\rangle > 2\Gamma\, d(x, \alpha).                       \qquad (A.1)

* Neuron ``alpha = x`` fires iff ``<w_x, y> > 0``; so whenever no other neuron fires,
  ``F(x, y) = sigma(<w_x, y>)``.
* A neuron ``alpha != x`` (``d >= 1``) can fire only if ``max_y <w_alpha, y> = ||w_alpha||_1 > 2 Gamma``.
  So ``||w_alpha||_1 <= 2 Gamma`` for every ``alpha`` is sufficient for 1-sparsity on all inputs; with
  ``Gamma = sqrt(q)`` it holds when ``||w_alpha||_2 <= 1`` (``||w||_1 <= sqrt(q) ||w||_2``). For equal
  rows (e.g. all-ones) it is also necessary: at ``y = sign(w)`` the neuron ``x`` and its ``b``
  neighbours all fire once ``||w||_1 > 2 Gamma``. The printed statement puts no condition on
  ``w_alpha`` ("can depend arbitrarily on x"): all-ones rows with ``q = 12`` (``||w||_1 = 12 >
  2 sqrt(12)``) make ``1 + b`` neurons fire. The intended normalisation is clear from the two choices
  of ``Gamma`` (``sqrt(q)`` is the largest ``|<w, y>|`` for a unit vector, ``sqrt(log s)`` its
  sub-Gaussian scale): the omitted hypothesis ``||w_alpha||_2 <= 1`` is a typo-class finding, and with
  it the appendix's conclusion (a 1-sparse network with dense weights exists) stands.
* With ``||w_alpha||_2 <= 1``, Hoeffding's inequality ``Pr_y[<w, y> > t] <= exp(-t^2 / (2 ||w||_2^2))``
  and a union bound over ``alpha != x`` give the explicit bound

  .. math:: \Pr_{x,y}[\#\text{active} > 1] \le \sum_{d=1}^{b} \binom{b}{d} e^{-2\Gamma^2 d^2}
            \le (1 + s^{-2c^2})^{\log_2 s} - 1 \quad (\Gamma = c\sqrt{\ln s}),        \qquad (A.2)

  which is ``O(log s * s^{-2 c^2}) = 1/poly(s)`` for every constant ``c > 0``.

Checks. Every input of ``{-1,1}^(b+q)`` is enumerated (exact). With ``Gamma = sqrt(q)``: the largest
number of active neurons for unit-norm Gaussian rows, the l1-extremal unit rows ``sign/sqrt(q)``,
unnormalised Gaussian rows and all-ones rows (as printed: FAIL with an explicit network and input;
corrected ``||w_alpha||_2 <= 1``: PASS; the sufficient condition ``||w_alpha||_1 <= 2 Gamma``: PASS),
``F = sigma(<w_x, y>)``, and the number of non-zero weights per neuron. With ``Gamma = c sqrt(ln s)``
(unit-norm rows): the exact fraction of inputs with more than one active neuron against (A.2), and its
decay in ``s`` (a trend, reported; never a FAIL for the unspecified Theta constant).

Grid: one point ``b<b>-d<d>`` per ``b`` in ``b_values`` and weight draw ``d < weight_draws`` (the three
random row families at ``Gamma = sqrt(q)`` and the exact excess fraction on ``gamma_points`` values of
``Gamma`` in ``[0, sqrt(q)]``), one point ``b<b>-ones`` per ``b`` (all-ones rows, no randomness), and
one point ``whp-b<b>-c<c>`` per ``(b, c)`` of the ``whp`` sub-block (``weight_draws`` unit-norm draws).
"""

from __future__ import annotations

PAPER_REF = "Appendix A (with Remark 11)"
RANDOM = True

#: Largest cube dimension ``b + q`` enumerated.
MAX_CUBE_DIM = 22
#: Budget of the excess-fraction computation, ``2^q * (2^b)^2`` comparisons per Gamma.
EXCESS_BUDGET = 1 << 31


# ---------------------------------------------------------------------------
# grid
# ---------------------------------------------------------------------------


def points(block: dict) -> dict[str, dict]:
    q, whp = int(block["q"]), block["whp"]
    grid = {}
    for b in block["b_values"]:
        for d in range(int(block["weight_draws"])):
            grid[f"b{b}-d{d}"] = {
                "kind": "draw",
                "b": int(b),
                "q": q,
                "draw": d,
                "gamma_points": int(block["gamma_points"]),
            }
        grid[f"b{b}-ones"] = {"kind": "ones", "b": int(b), "q": q}
    for b in whp["b_values"]:
        for c in whp["c_values"]:
            grid[f"whp-b{b}-c{float(c)!r}"] = {
                "kind": "whp",
                "b": int(b),
                "q": int(whp["q"]),
                "c": float(c),
                "draws": int(block["weight_draws"]),
            }
    return grid


def work(point: dict) -> tuple[str, float]:
    """Growth proxy of a point's CPU time (:meth:`sparseact.claims.Claim.work`): the ``2^b``-cell index times the
    ``q^2``-term weight grid, per gamma point (a draw) or per draw (whp)."""
    size = 2.0 ** point["b"] * point["q"] ** 2
    if point["kind"] == "draw":
        return "draw", size * point["gamma_points"]
    return point["kind"], size * point.get("draws", 1)


def shard(point_name: str, point: dict) -> str:
    """Two runs jobs: every b's weight draws and all-ones rows, and the whp sweep (each costs about its start-up)."""
    return "whp" if point_name.startswith("whp-") else "rows"


def validate(block: dict):
    """The enumeration budgets, which the schema cannot express (``b + q`` and ``2^q 4^b``)."""
    for i, b in enumerate(block["b_values"]):
        if b + block["q"] > MAX_CUBE_DIM:
            yield f"b_values[{i}]", f"b + q = {b} + {block['q']} exceeds {MAX_CUBE_DIM} (the cube is enumerated)"
        elif (1 << block["q"]) * 4**b > EXCESS_BUDGET:
            yield f"b_values[{i}]", f"2^q 4^b = {(1 << block['q']) * 4**b} exceeds the budget {EXCESS_BUDGET}"
    whp = block["whp"]
    for i, b in enumerate(whp["b_values"]):
        if b + whp["q"] > MAX_CUBE_DIM:
            yield f"whp.b_values[{i}]", f"b + q = {b} + {whp['q']} exceeds {MAX_CUBE_DIM} (the cube is enumerated)"
        elif (1 << whp["q"]) * 4**b > EXCESS_BUDGET:
            yield f"whp.b_values[{i}]", f"2^q 4^b = {(1 << whp['q']) * 4**b} exceeds the budget {EXCESS_BUDGET}"
