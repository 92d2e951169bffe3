r"""Theorem 17: sample complexity of learning ``H_{n,s,k}^{W,B}`` under general distributions.

*Theorem 17* (PMLR p. 9) states that there is an ``(eps, delta)``-PAC learning
algorithm for any ``H_{n,s,k}^{W,B}`` with sample complexity

    m(eps, delta) = O( ((W R + B)^2 k s n log(k (R + B) / eps) + log(1/delta)) / eps^2 ),

for inputs with ``||x|| <= R`` (``R = sqrt(n)`` on ``{-1, 1}^n``). The learner
behind it is ERM over the class (Lemma 18 with the Rademacher bound (15)); the
loss is the squared loss ``(1/2)(h(x) - y)^2`` of Section 2.

What can be measured, and what cannot
-------------------------------------
The theorem is an upper bound, with an unknown constant, on the samples that
*exact* ERM needs, for *every* distribution and target. A finite set of
distributions cannot prove it, and our learner
(:class:`sparseact.learners.SparseActivationERM`, projected Adam + repair) is a
heuristic that can stop in a local minimum, so a large measured loss is an
optimisation failure, not a statistical one: no check here FAILs the theorem.
The checks are measurements on realisable targets from the paper's constructions
(``Index_b``, Section 1; parity juntas, Theorem 13) under the biased product
distribution ``Pr[x_i = 1] = bias`` on the cube; every test loss is exact (the
expectation over the whole cube with the distribution's weights), and since the
target is in the class the test loss *is* the excess error.

* ``erm-in-class`` (exact; a check of our learner, not of the paper): every
  network the sparse ERM returns has ``||u||_inf max ||w_j|| <= W``,
  ``||u||_inf max |b_j| <= B`` (Definition 2) and at most ``k`` active neurons on
  every sample point (Definition 1 on the sample), recomputed from the returned
  weights.
* ``samples-needed`` (Monte Carlo): the smallest grid ``m`` at which at least a
  ``1 - delta`` fraction of the seeds reach test loss ``<= eps``, against the
  expression (hidden constant 1); the ratio is the slack.
* ``at-bound`` (Monte Carlo): at ``m = ceil(c * expression)``, ``c >= 1``, the
  fraction of seeds with test loss ``> eps`` must have a one-sided 95%
  Clopper-Pearson upper end ``<= delta``. An i.i.d. sample of that size over the
  cube is drawn exactly as multinomial counts and ERM minimises exactly its
  empirical loss with the counts as weights (``sample_weight``).
* ``exact-erm-coverage`` (exact): on a finite support every exact ERM of a
  realisable target interpolates the observed points, so its test loss is 0
  when the sample covers the support; ``Pr[some x missed] <= sum_x (1 - p_x)^m``
  at ``m = expression`` is computed exactly. This proves the theorem's
  conclusion for exact ERM on the grid's instances only (and reports the much
  smaller ``m`` at which coverage alone suffices).

The printed expression is not invariant under ``u -> lambda u`` (``W, B -> lambda
W, lambda B``, squared-loss ``eps -> lambda^2 eps``); the certified FAIL of that is
``scaling/theorem17-printed`` (claim ``scaling``). Here it is only reported.

Grid: one point per (target, ``m``) for ``m`` in ``sample_sizes`` (all three
learners, ``seeds`` samples each) and one per (target, ``c``) for ``c`` in
``bound_multiples`` (sparse ERM, ``bound_seeds`` samples).
"""

from __future__ import annotations

import math

PAPER_REF = "Theorem 17 (Section 5)"
RANDOM = True


# ---------------------------------------------------------------------------
# grid
# ---------------------------------------------------------------------------


def _targets(block: dict) -> dict[str, dict]:
    """Target name -> target spec (point-name safe)."""
    targets = {f"index{int(b)}": {"target": "index", "b": int(b)} for b in block["index_b"]}
    n = int(block["junta_n"])
    for p in block["junta_p"]:
        targets[f"junta-n{n}-p{int(p)}"] = {"target": "junta", "n": n, "p": int(p)}
    return targets


def _multiple_name(c: float) -> str:
    return f"{float(c):g}"


def points(block: dict) -> dict[str, dict]:
    learner = {
        "width_factor": int(block["width_factor"]),
        "restarts": int(block["restarts"]),
        "max_iter": int(block["max_iter"]),
    }
    grid = {}
    for name, target in _targets(block).items():
        for m in block["sample_sizes"]:
            grid[f"{name}-m{int(m)}"] = {
                "kind": "grid",
                **target,
                "bias": float(block["bias"]),
                "m": int(m),
                "seeds": int(block["seeds"]),
                "degree": int(block["degree"]),
                **learner,
            }
        for c in block["bound_multiples"]:
            grid[f"{name}-bound{_multiple_name(c)}"] = {
                "kind": "bound",
                **target,
                "bias": float(block["bias"]),
                "multiple": float(c),
                "eps": float(block["eps"]),
                "delta": float(block["delta"]),
                "seeds": int(block["bound_seeds"]),
                **learner,
            }
    return grid


def work(point: dict) -> tuple[str, float]:
    """Growth proxy of a point's CPU time (:meth:`sparseact.claims.Claim.work`): gradient steps
    ``restarts (max_iter + 1)`` per seed, each over the sample (grid) or the ``2^n``-point support (bound)."""
    steps = point["seeds"] * point["restarts"] * (point["max_iter"] + 1) * point["width_factor"]
    if point["kind"] == "grid":
        return "grid", float(steps) * point["m"]
    n = point["n"] if point["target"] == "junta" else point["b"] + 2 ** point["b"]
    return "bound", float(steps) * 2.0**n


def shard(point_name: str, point: dict) -> str:
    """Per target, one runs job for the sample-size grid and one at the bound."""
    target, _, tail = point_name.rpartition("-")
    return f"{target}-{'bound' if tail.startswith('bound') else 'grid'}"


def validate(block: dict):
    # imported here, not with the grid: sparseact._validation needs numpy
    from sparseact._validation import MAX_TRAINING_STEPS

    steps = int(block["restarts"]) * (int(block["max_iter"]) + 1)
    if steps > MAX_TRAINING_STEPS:
        yield (
            "theorem17.max_iter",
            (
                f"restarts x (max_iter + 1) = {steps} gradient steps per fit, above the "
                f"learner's limit of {MAX_TRAINING_STEPS} (sparseact._validation."
                "MAX_TRAINING_STEPS, enforced by SparseActivationERM)"
            ),
        )
    for p in block["junta_p"]:
        if int(p) > int(block["junta_n"]):
            yield "theorem17.junta_p", f"every junta size p must be <= junta_n (got p={p} > junta_n={block['junta_n']})"
    yield from _bound_sizes(block)
    if not any(float(c) >= 1.0 for c in block["bound_multiples"]):
        yield (
            "theorem17.bound_multiples",
            ("at least one multiple must be >= 1 (the at-bound check measures at m >= the expression)"),
        )


#: The most samples a bound point draws: numpy's multinomial takes counts below 2^63.
MAX_BOUND_SAMPLES = 2**62


def _bound_sizes(block: dict):
    """Each bound point's sample size (Theorem 17's expression at ``eps``) is finite and drawable (probe8: eps =
    1e-300 passed the config and overflowed in the data job)."""
    # imported here, not with the grid: the expression needs the networks
    from sparseact.claims.theorem17.compute import bound_sample_size

    for name, point in points(block).items():
        if point["kind"] != "bound":
            continue
        try:
            size = bound_sample_size(point)
        except (ArithmeticError, ValueError):
            size = math.inf
        if size > MAX_BOUND_SAMPLES:
            yield (
                "theorem17.eps",
                f"eps = {block['eps']:g} gives the bound point {name} "
                + ("more samples than a float holds" if math.isinf(size) else f"{size:.3g} samples")
                + f", above the {MAX_BOUND_SAMPLES:.3g} a run can draw: take a larger eps",
            )
            return
