r"""Lemma 9: the average sensitivity of a k-sparsely activated network, and the steps of its proof.

Lemma 9 (PMLR p. 5) states, for every ``h`` in ``H_{n,s,k}^{W,B}``,

    AS(h) <= O(k^4 W^2 sqrt(n) log(ns) + k^3 B^2 sqrt(log s)),

with ``AS`` the Section 2.1 average sensitivity (factor 1/4). The proof splits
``AS(h) = (U) + (V)`` by whether the active set ``R_x = {j : <w_j, x> > b_j}``
changes along the edge ``x -> x^{(+)i}`` and prints

* (U) ``<= E_x[(1/4)||w^{R_x}||^2] <= k^2 W^2 / 4``, ``w^R = sum_{j in R} u_j w_j``;
* ``Pr_{x,i}[R_x != R_{x^{(+)i}}] <= (1/n) sum_j sum_i Pr_x[g_j(x) != g_j(x^{(+)i})]
  = (1/n) sum_j AS(g_j)`` with ``g_j = 1{<w_j, x> > b_j}``;
* ``... <= (1/n) sum_j p_j sqrt(n log(1/p_j)) <= k sqrt(log(s/k)) / sqrt(n)``
  (Lemma 6, then concavity of ``p sqrt(log(1/p))`` under ``sum_j p_j <= k``).

Everything is measured exactly on the whole cube {-1, 1}^n
(:func:`sparseact.sensitivity.lemma9_decomposition`) for

* random and structured networks (families ``gaussian``, ``sign``, ``sparse``,
  ``bucket`` of :mod:`sparseact.families`), made ``k``-sparse on the whole cube;
  the bound is evaluated with the *certified* ``k`` (the largest active count on
  the cube), the least favourable admissible value;
* the networks an adversarial search finds (maximising AS / Lemma 9's expression);
* two one-neuron networks per ``n`` (``s = k = 1``), the proof's boundary case:
  ``relu(<1, x>)`` and ``relu(<1, x> + n - 1)`` (fires except at ``x = -1``);
  integer weights, so every certificate built on them is exact;

and, beyond exact enumeration, by Monte Carlo (``n`` up to a few hundred).

Our tighter bound. Along the edge ``x -> x^{(+)i}`` the preactivations are
affine, so only neurons of ``R_x u R_{x^{(+)i}}`` are active on it and
``|h(x) - h(x^{(+)i})| <= 2 (a_i(x) + a_i(x^{(+)i}))`` with
``a_i(x) = sum_{j in R_x} |u_j w_ji|``. Then ``(a + b)^2 <= 2a^2 + 2b^2``,
Cauchy-Schwarz ``sum_i a_i(x)^2 <= |R_x| sum_{j in R_x} u_j^2 ||w_j||^2 <= k^2 W^2``
and the symmetry of ``x`` and ``x^{(+)i}`` give

    AS(h) <= 4 k^2 W^2                                              (ours)

for every ``h`` in ``H_{n,s,k}^{W,B}``. For ``n >= 2`` Lemma 9's expression is at
least ``k^4 W^2 sqrt(2) log 2``, so ``4 k^2 W^2 <= C_49 * expression`` with
``C_49 = 4 / (sqrt(2) log 2) ~ 4.08`` (:data:`C_TIGHTER`): the bound implies
Lemma 9 with an explicit constant.

Grid (``points``): ``exact-n<n>-s<s>`` (every family and every ``k <= s`` of the
block at that ``(n, s)``, for the grid's ``n x s`` and the ``large`` block's further sizes; each
(family, k) cell draws from its own stream, so a cell's networks do not depend on which other cells
exist), ``adversarial-n<n>`` (every ``k`` of the adversarial block), ``neurons`` (the two boundary
networks for every ``n`` of the exact points) and
``monte-carlo-n<n>``. Cells are grouped by ``(n, s)`` because a
workflow job's start-up costs far more than one cell's computation.
"""

from __future__ import annotations

import math

from sparseact.claims._grids import bucket_feasible

PAPER_REF = "Lemma 9 (Section 3)"
RANDOM = True

#: Largest ``k/s`` for which ``p sqrt(log(1/p))`` is increasing at ``p = k/s`` (the concavity step's range).
CONCAVITY_EDGE = math.exp(-0.5)
#: The constant of the Hoeffding step's 'hence' line tested exactly: ``Pr_x[|l_{R_x}(x)| >= c k^1.5 W sqrt(log(ns))
#: + kB] <= (ns)^-4`` with ``c = 4`` (proved with the correct union over ``sum_{j<=k} C(s, j)`` sets).
HENCE_C = 4.0
#: Coverage of the Monte Carlo intervals.
CONFIDENCE = 0.95
#: Factors of our bound and of the corrected steps: ``AS <= 4 k^2 W^2``, ``(U) <= 4 E[(1/4)||w^{R_x}||^2]``,
#: ``Pr <= (4/n) sum_j AS(g_j)``. The runs stage measures against them, the assembly's checks and certificates
#: state them (tests shrink them to force a FAIL).
TIGHTER_FACTOR = 4
U_FACTOR = 4
UNION_FACTOR = 4


def network_label(row) -> str:
    """A network of a measurement row, for a reader: family, ``n``, ``s`` and ``k``."""
    return f"{row['family']} network n={int(row['n'])}, s={int(row['s'])}, k={int(row['k'])}"


# ---------------------------------------------------------------------------
# grid
# ---------------------------------------------------------------------------


def _cells(n: int, s: int, k_values, families) -> list[tuple[str, int]]:
    """The (family, k) cells of the exact point ``(n, s)``: ``k <= s``, bucket only where feasible."""
    return [
        (family, int(k))
        for k in k_values
        if k <= s
        for family in families
        if family != "bucket" or bucket_feasible(n, s, k)
    ]


def exact_sizes(block: dict) -> list[tuple[int, int]]:
    """The ``(n, s)`` of the exact points: the grid's, then the ``large`` block's (if any) not already in it."""
    sizes = [(int(n), int(s)) for n in block["n_values"] for s in block["s_values"]]
    large = block.get("large")
    if large:
        sizes += [(int(n), int(s)) for n in large["n_values"] for s in large["s_values"] if (n, s) not in sizes]
    return sizes


def points(block: dict) -> dict[str, dict]:
    grid = {}
    for n, s in exact_sizes(block):
        ks = [int(k) for k in block["k_values"] if k <= s]
        if _cells(n, s, ks, block["families"]):
            grid[f"exact-n{n}-s{s}"] = {
                "kind": "exact",
                "n": int(n),
                "s": int(s),
                "k_values": ks,
                "families": list(block["families"]),
                "instances": int(block["instances"]),
            }
    adv = block["adversarial"]
    for n in adv["n_values"]:
        grid[f"adversarial-n{n}"] = {
            "kind": "adversarial",
            "n": int(n),
            "s": int(adv["s"]),
            "k_values": [int(k) for k in adv["k_values"] if k <= adv["s"]],
            "restarts": int(adv["restarts"]),
            "iterations": int(adv["iterations"]),
        }
    grid["neurons"] = {"kind": "neuron", "n_values": sorted({n for n, _ in exact_sizes(block)})}
    mc = block["monte_carlo"]
    for n in mc["n_values"]:
        grid[f"monte-carlo-n{n}"] = {
            "kind": "monte-carlo",
            "n": int(n),
            "s": int(mc["s"]),
            "k": int(mc["k"]),
            "samples": int(mc["samples"]),
        }
    return grid


#: Exact points with ``n <= SMALL_EXACT_N`` share one runs job (each n costs less than a job's start-up), and so
#: do those with ``SMALL_EXACT_N < n <= MID_EXACT_N`` (each a few jobs' start-up). Their point names sort as n
#: ascends, so the merged shard runs them in the order separate shards did.
SMALL_EXACT_N, MID_EXACT_N = 14, 18


#: An exact point's fixed cost per network, as the cube dimension whose work it equals (fitted to the shipped cost
#: table's exact shards).
EXACT_FIXED_N = 16


def work(point: dict) -> tuple[str, float]:
    """Growth proxy of a point's CPU time (:meth:`sparseact.claims.Claim.work`): ``2^n`` cube points (for an exact
    point at least its fixed cost, :data:`EXACT_FIXED_N`) times ``s`` neurons per network evaluated (every family,
    ``k`` and instance; every search step), or the Monte Carlo samples times ``n s``."""
    kind = point["kind"]
    if kind == "exact":
        cube = 2.0 ** point["n"] + 2.0**EXACT_FIXED_N
        return kind, cube * point["s"] * len(point["k_values"]) * len(point["families"]) * point["instances"]
    if kind == "adversarial":
        steps = point["restarts"] * (point["iterations"] + 1)
        return kind, 2.0 ** point["n"] * point["s"] * len(point["k_values"]) * steps
    if kind == "neuron":
        return kind, sum(2.0**n for n in point["n_values"])
    return kind, float(point["samples"]) * point["n"] * point["s"]


#: The adversarial search and the single-neuron point share one runs job (each costs about a job's start-up;
#: ``adversarial-*`` sorts before ``neurons``, so the shard runs them in the order separate shards did).
SEARCH_SHARD = "adversarial-neurons"


def shard(point_name: str, point: dict) -> str:
    """One runs job for the exact sweep's n <= SMALL_EXACT_N, one for SMALL_EXACT_N < n <= MID_EXACT_N, one per
    larger n; one for the adversarial search and the single-neuron point, one for the Monte Carlo sweep."""
    if point_name.startswith("exact-"):
        if point["n"] <= SMALL_EXACT_N:
            return "exact-small"
        return "exact-mid" if point["n"] <= MID_EXACT_N else point_name.rsplit("-", 1)[0]
    if point["kind"] in ("adversarial", "neuron"):
        return SEARCH_SHARD
    return point_name.split("-n", 1)[0]


def validate(block: dict):
    """``k <= s`` relations the schema cannot express."""
    # imported here, not with the grid: sparseact._validation needs numpy
    from sparseact._validation import MAX_SEARCH_EVALUATIONS

    s_max = max(block["s_values"])
    for i, k in enumerate(block["k_values"]):
        if k > s_max:
            yield (
                f"k_values[{i}]",
                (f"k = {k} exceeds every s (largest s = {s_max}); a network has at most s active neurons"),
            )
    adv = block["adversarial"]
    evaluations = adv["restarts"] * (adv["iterations"] + 1)
    if evaluations > MAX_SEARCH_EVALUATIONS:
        yield (
            "adversarial.iterations",
            (
                f"restarts x (iterations + 1) = {evaluations} objective evaluations per "
                f"search, above the search's limit of {MAX_SEARCH_EVALUATIONS} (sparseact."
                "_validation.MAX_SEARCH_EVALUATIONS, enforced by adversarial_search)"
            ),
        )
    for i, k in enumerate(adv["k_values"]):
        if k > adv["s"]:
            yield (
                f"adversarial.k_values[{i}]",
                (f"k = {k} exceeds s = {adv['s']}; a network has at most s active neurons"),
            )
    mc = block["monte_carlo"]
    if mc["k"] > mc["s"]:
        yield "monte_carlo.k", f"k = {mc['k']} exceeds s = {mc['s']}; a network has at most s active neurons"
