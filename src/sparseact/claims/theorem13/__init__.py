r"""Theorem 13: p-juntas are 1-sparse networks, so learning ``H_{n,s,1}`` is as hard as learning juntas.

As printed (PMLR, Section 4 "Lower Bounds for Learning H_{n,s,1}"):

* Conjecture 12: no ``(eps, delta)``-PAC learner for the ``p``-juntas ``J_{n,p}`` under the uniform
  distribution runs in time ``n^{o(p)}``;
* Theorem 13: assuming Conjecture 12, no ``(eps, delta)``-PAC learner for ``H_{n,s,1}^{W,B}`` with
  ``W = sqrt(log2 s)``, ``B = log2 s`` over ``U`` runs in time ``n^{o(log s)}``;
* its proof: ``H_{n,s,1}^{sqrt(p), p} contains J_{n,p}`` for every ``p <= floor(log2 s)``: with ``w_1, ...,
  w_{2^p}`` the ``2^p`` sign patterns on the junta's variables (zero elsewhere), ``u_j = f(w_j)`` and
  ``w_j = 0, u_j = 0`` for ``j > 2^p``,

      f(x) = sum_{j in [2^p]} u_j sigma(<w_j, x> - p + 1),  since
      sigma(<w_j, x> - p + 1) = 1{x_i = w_ji for all i in [p]}.

What is computed.

*Junta part* (exact). For every ``n``, ``s`` and ``p <= min(floor(log2 s), n)`` of the block, the parity
on ``p`` random variables and ``random_tables`` random truth tables are written as the proof's network
(:func:`sparseact.constructions.junta_network`, ``s`` neurons) and evaluated on all ``2^n`` inputs
(:meth:`~sparseact.networks.SparseReLUNetwork.cube_preactivations`): ``h = f`` everywhere, the proof's
indicator identity for every neuron ``j <= 2^p``, at most one active neuron, and the Definition 2 scales
``W = ||u||_inf max_j ||w_j||_2`` and ``B = ||u||_inf max_j |b_j|`` against ``sqrt(p), p`` (proof) and
``sqrt(log2 s), log2 s`` (theorem). The junta ``f`` is computed from its truth table by index arithmetic
(:func:`junta_on_cube`), independently of the network.

*Hardness part.* Theorem 13's lower bound rests on Conjecture 12 in its range ``p = O(log n)``
(``conj12-log-range``, open); no experiment proves a lower bound for all algorithms, so Theorem 13 is proved as an
implication (``docs/statements-graph.md``). What the construction predicts for the
low-degree algorithm (Lemma 7), the algorithm whose run time the lower bound matches, is measured: a
``p``-parity written as a network in ``H_{n,2^p,1}`` has all its Fourier weight at level ``p``, so

* its approximation floor ``(1/2) sum_{|T| > d} fhat(T)^2`` equals the trivial error ``(1/2) Var f`` for
  ``d < p`` and 0 for ``d >= p`` (exact, Fourier weights of the network's truth table);
* the learner's exact test error (whole cube; the fit uses ``m_d = max(samples, 3 N_d)`` uniform samples)
  stays at the trivial error for ``d < p`` and drops to 0 at ``d = p`` (the *cliff*; random draws);
* the learner then needs ``N_p(n) = sum_{t <= p} C(n, t)`` features, and
  ``(n/p)^p <= C(n, p) <= N_p(n) <= (e n / p)^p`` (``1 <= p <= n``), i.e. ``N_p = n^{Theta(p)}`` for fixed
  ``p`` (exact combinatorics).

Random juntas (random truth tables on ``p`` variables) are learned alongside for contrast; they carry
low-degree weight and improve before ``d = p`` (reported, no verdict).

Grid (``points``): ``junta-n<n>`` for ``n < SPLIT_N`` (every cell ``(p, s)`` with ``p <= min(floor(log2 s),
n)``) and ``junta-n<n>-p<p>`` for ``n >= SPLIT_N`` (one ``p``, every ``s``; a ``2^n`` cube per network); each
cell ``(n, s, p)`` draws its instances from its own stream, so adding an ``s`` or a ``p`` changes no other
cell's networks. ``hardness-n<n>-p<p>``: every degree; one training sample per degree, shared by the parity
and the random junta.
"""

from __future__ import annotations

from sparseact.combinatorics import monomial_count

PAPER_REF = "Theorem 13 and its proof, Conjecture 12 (Section 4)"
RANDOM = True

#: Junta points with ``n >= SPLIT_N`` hold one ``p`` each (a ``2^n`` cube per network); smaller ``n`` share a point
#: (a workflow job costs seconds of start-up, more than a small cube).
SPLIT_N = 18

#: Largest number of monomials ``N_d`` a hardness fit may need (time and memory of one fit, see ``check``).
MAX_FEATURES = 5000


def _floor_log2(s: int) -> int:
    return int(s).bit_length() - 1


def junta_points(block: dict) -> dict[str, dict]:
    """The junta points: ``junta-n<n>`` (every cell ``(p, s)`` of that ``n``) for ``n < SPLIT_N``, else one
    ``junta-n<n>-p<p>`` per ``p``. A cell is a ``p`` with the ``s`` values ``p <= floor(log2 s)``."""
    junta, grid = block["junta"], {}
    for n in junta["n_values"]:
        cells = []
        for p in sorted(junta["p_values"]):
            s_values = sorted(int(s) for s in junta["s_values"] if p <= _floor_log2(s))
            if p <= n and s_values:
                cells.append({"p": int(p), "s_values": s_values})
        common = {
            "part": "junta",
            "n": int(n),
            "random_tables": int(junta["random_tables"]),
            "include_parity": bool(junta["include_parity"]),
        }
        if n < SPLIT_N and cells:
            grid[f"junta-n{n}"] = {**common, "cells": cells}
        for cell in cells if n >= SPLIT_N else []:
            grid[f"junta-n{n}-p{cell['p']}"] = {**common, "cells": [cell]}
    return grid


def hardness_points(block: dict) -> dict[str, dict]:
    """The ``hardness-n<n>-p<p>`` points of the ``hardness`` sub-block."""
    hard, grid = block["hardness"], {}
    for n in hard["n_values"]:
        for p in hard["p_values"]:
            if p <= n:
                grid[f"hardness-n{n}-p{p}"] = {
                    "part": "hardness",
                    "n": int(n),
                    "p": int(p),
                    "degrees": sorted(int(d) for d in hard["degrees"]),
                    "samples": int(hard["samples"]),
                }
    return grid


def points(block: dict) -> dict[str, dict]:
    return {**junta_points(block), **hardness_points(block)}


#: Junta points of n >= SPLIT_N (one per p) share a runs job JUNTA_P_PER_JOB values of p at a time (each costs a few
#: shards' start-up); hardness points with ``n >= LARGE_HARDNESS_N`` share
#: one. Both sets of names sort as p (n) ascends (p <= 9, n from 10 to 99), so the merged shards run their
#: points in the order separate shards did.
JUNTA_P_PER_JOB, LARGE_HARDNESS_N = 3, 10


#: A cube row's cost that does not grow with the network's neurons (the junta's value, the gaps), in neurons.
ROW_NEURONS = 8


def work(point: dict) -> tuple[str, float]:
    """Growth proxy of a point's CPU time (:meth:`sparseact.claims.Claim.work`): a junta point evaluates each of its
    networks (a parity and ``random_tables`` tables per cell and ``s``) on the ``2^n``-point cube, ``s`` neurons plus
    ROW_NEURONS per row; a hardness point fits ``max(samples, 3 N_d)`` samples on ``N_d`` features at its largest
    degree ``d``."""
    if point["part"] == "junta":
        networks = point["random_tables"] + int(point["include_parity"])
        neurons = sum(s + ROW_NEURONS for cell in point["cells"] for s in cell["s_values"])
        return "junta", 2.0 ** point["n"] * networks * neurons
    features = monomial_count(point["n"], max(point["degrees"]))
    return "hardness", float(max(point["samples"], 3 * features)) * features


def shard(point_name: str, point: dict) -> str:
    """Small junta dimensions share a runs job, n = 16 has its own, the split n's points go JUNTA_P_PER_JOB
    values of p to a job (n >= SPLIT_N); the hardness points one job for n = 8 and one for the larger n."""
    if point_name.startswith("junta-") and point["n"] <= 12:
        return "junta-small"
    if point_name.startswith("hardness-"):
        return "hardness-large" if point["n"] >= LARGE_HARDNESS_N else point_name.rsplit("-", 1)[0]
    if point_name.startswith("junta-") and point["n"] >= SPLIT_N:  # one cell, one p
        first = (point["cells"][0]["p"] - 1) // JUNTA_P_PER_JOB * JUNTA_P_PER_JOB + 1
        return f"junta-n{point['n']}-p{first}-{first + JUNTA_P_PER_JOB - 1}"
    return point_name


def validate(block: dict):
    """Relations of the block's keys that the schema cannot express."""
    junta, hard = block["junta"], block["hardness"]
    if not junta["include_parity"] and junta["random_tables"] == 0:
        yield "junta.random_tables", "no junta to test: random_tables = 0 and include_parity is false"
    p_max = max(min(_floor_log2(max(junta["s_values"])), n) for n in junta["n_values"])
    for i, p in enumerate(junta["p_values"]):
        if p > p_max:
            yield (
                f"junta.p_values[{i}]",
                (
                    f"p = {p} is tested nowhere: it needs p <= floor(log2 s) and p <= n "
                    f"(largest possible p here is {p_max})"
                ),
            )
    for i, p in enumerate(hard["p_values"]):
        if p > max(hard["n_values"]):
            yield f"hardness.p_values[{i}]", f"p = {p} exceeds every n (largest n = {max(hard['n_values'])})"
        if not any(d < p for d in hard["degrees"]) or not any(d >= p for d in hard["degrees"]):
            yield (
                "hardness.degrees",
                (
                    f"the cliff at d = p = {p} needs a degree below p and one at or above p "
                    f"(got {sorted(hard['degrees'])})"
                ),
            )
    features = monomial_count(max(hard["n_values"]), max(hard["degrees"]))
    if features > MAX_FEATURES:
        yield (
            "hardness.degrees",
            (
                f"a degree-{max(hard['degrees'])} fit at n = {max(hard['n_values'])} needs "
                f"{features} monomials (limit {MAX_FEATURES}: one fit's time and memory)"
            ),
        )
