r"""Theorem 19 (eq. (1)), eq. (15) and Conjecture 20 (eq. (16)): Rademacher complexity of ``H_{n,s,k}^{W,B}``.

Section 5 (PMLR p. 11-12) prints, for a sample ``S`` of ``m`` points with ``||x_i|| <= R``,

    R_{H_{n,s,1}^{W,B}}(S) <= (WR+B) sqrt(s n log(m(R+B))) / sqrt(m),          (1)
    R_{H_{n,s,k}^{W,B}}(S) <= (WR+B) sqrt(s n k log(k m(R+B))) / sqrt(m),      (15)
    R_{H_{n,s,k}^{W,B}}(S) <= (WR+B) sqrt(s k) / sqrt(m)    (Conjecture 20)    (16)

and says that sparsity makes the dependence on ``s`` sub-linear (the dense bound is
``(WR+B) s / sqrt(m)``).

What is computed (:mod:`sparseact.complexity`):

* ``sweep`` points, one per (distribution, m, s, k): a cube sample and a **lower-bound
  estimate** of ``R_H(S)`` (the mean over ``n_zeta`` sign vectors of the value of an
  explicit network of the class, each verified), with a 95% CLT interval; when the
  interval straddles (1) or (15) the point re-estimates with
  ``confirm_zeta`` sign vectors (for (1) and (15); (16) is not re-estimated). ``k = s``
  (the dense class ``H_{n,s,s}``) is always added.
* ``exact`` points: tiny samples, the **exact** ``R_H(S)`` over all sign vectors, and
  per sampled ``zeta``: lower-bound network <= exact sup <= the proof's quantity (3)-(13).
* ``dimension`` points (Conjecture 20's question): uniform cube samples scaled to
  ``R = 1``, one per ``n``.
* ``range`` points, one per (n, m): a sample on the unit sphere, over all ``2^m`` sign vectors, for
  ``s`` in ``range.s_values``, ``k = 1`` and each ``B``: the proof's quantity (3)-(13), an **upper bound** of
  ``R_H(S)`` (cells need not be realisable), and for ``m <= RANGE_EXACT_M`` the **exact** ``R_H(S)``.
  They extend (1)'s instances and give ``R_H`` against ``n`` at fixed ``m`` (Section 6's question).
* ``scale``: one Gaussian sample rescaled to several norms ``R`` (``B = 0``, ``s = k = 1``),
  exact ``R_H`` against (1): ``R_H`` is linear in the sample while ``log(m R) -> 0``.
* ``steps``: the proof's steps (5)-(14) and the facts it cites (Hoeffding, Cover's count,
  Sauer-Shelah), exact over all ``2^m`` sign vectors of tiny samples
  (:mod:`sparseact.claims.theorem19.steps`), and three printed steps refuted on fixed
  instances: (12) (``E max > max E``), ``sum_j |I_j| = m`` and ``<= k m`` with the printed
  cells ``<w_j, x_i> - b_j >= 0``; the last line's constant ((8) + (14) exceed (1)).

The summary table ``tightness`` sets (1), (15), (16) and the classical bound against the
constant the proof establishes (``4 sqrt 2``) and the exact ``R_H`` of the largest tiny sample.

A FAIL carries a ``rademacher_lower_bound`` certificate: the explicit optimal network
of each of the ``2^m`` sign vectors, so the verifier recomputes ``R_H(S)`` exactly.
Monte Carlo lower bounds never FAIL a bound (no exact certificate exists at those
``m``), and a fitted exponent never FAILs anything: they give PASS or INCONCLUSIVE.
"""

from __future__ import annotations

import math

PAPER_REF = "Section 5: Theorem 19 (eq. (1)), eq. (15), Conjecture 20 (eq. (16))"
RANDOM = True

#: Sign vectors per exact point for the per-zeta ordering lower <= exact <= proof quantity.
ORDER_ZETAS = 8


# ---------------------------------------------------------------------------
# grid
# ---------------------------------------------------------------------------


def _sweep_k_values(block: dict, s: int) -> list[tuple[int, str]]:
    """The classes of one ``s``: the configured ``k <= s`` (sparse) and ``k = s`` (dense unless configured)."""
    ks = sorted({k for k in block["k_values"] if k <= s} | {s})
    return [(k, "dense" if k == s and k not in block["k_values"] else "sparse") for k in ks]


def points(block: dict) -> dict[str, dict]:
    common = dict(W=float(block["W"]), B=float(block["B"]))
    out = {}
    for dist in block["distributions"]:
        for m in block["m_values"]:
            for s in block["s_values"]:
                for k, cls in _sweep_k_values(block, s):
                    out[f"sweep-{dist}-m{m}-s{s}-k{k}"] = dict(
                        kind="sweep",
                        distribution=dist,
                        n=int(block["n"]),
                        m=int(m),
                        s=int(s),
                        k=int(k),
                        cls=cls,
                        n_zeta=int(block["n_zeta"]),
                        confirm_zeta=int(block["confirm_zeta"]),
                        **common,
                    )
    dim = block["dimension"]
    for n in dim["n_values"]:
        out[f"dimension-n{n}"] = dict(
            kind="dimension",
            n=int(n),
            m=int(dim["m"]),
            s=int(dim["s"]),
            k=int(dim["k"]),
            n_zeta=int(block["n_zeta"]),
            **common,
        )
    ex = block["exact"]
    for dist in ("uniform", "clustered"):
        for s in ex["s_values"]:
            for k in [k for k in ex["k_values"] if k <= s]:
                out[f"exact-{dist}-s{s}-k{k}"] = dict(
                    kind="exact",
                    distribution=dist,
                    m=int(ex["m"]),
                    n=int(ex["n"]),
                    s=int(s),
                    k=int(k),
                    zetas=ORDER_ZETAS,
                    **common,
                )
    rg = block["range"]
    for n, m in rg["samples"]:
        out[f"range-n{n}-m{m:02d}"] = dict(
            kind="range",
            n=int(n),
            m=int(m),
            s_values=[int(s) for s in rg["s_values"]],
            B_values=[float(b) for b in rg["B_values"]],
            W=float(block["W"]),
        )
    out["steps"] = dict(
        kind="steps",
        m=int(ex["m"]),
        n=int(ex["n"]),
        s_values=[int(s) for s in ex["s_values"]],
        k_values=[int(k) for k in ex["k_values"]],
        **common,
    )
    for dist in block["distributions"]:
        out[f"conj20-{dist}"] = dict(
            kind="conj20", distribution=dist, n=int(block["n"]), m=CONJ20_M, s=CONJ20_SK[0], k=CONJ20_SK[1], **common
        )
    simplex = block["conj20_simplex"]
    for dist, m in (("simplex", int(simplex["m"])), ("simplex-exact", int(simplex["exact_m"]))):
        out[f"conj20-{dist}"] = dict(
            kind="conj20", distribution=dist, n=m - 1, m=m, s=2, k=1, W=float(block["W"]), B=float(simplex["B"])
        )
    sc = block["scale"]
    out["scale"] = dict(
        kind="scale", m=int(sc["m"]), n=int(sc["n"]), R_values=[float(r) for r in sc["R_values"]], W=float(block["W"])
    )
    return out


def work(point: dict) -> tuple[str, float]:
    """Growth proxy of a point's CPU time (:meth:`sparseact.claims.Claim.work`): a sweep or dimension point
    searches ``n_zeta`` sign vectors over ``s`` neurons on ``m`` points in dimension ``n`` (a sweep confirms on
    ``confirm_zeta`` more); a Conjecture 20 point searches a network for each of its ``2^(m-1)`` sign vectors (on
    the simplex, writes two-neuron networks down for all ``2^m``); the other kinds are fixed small computations."""
    if point["kind"] in ("sweep", "dimension"):
        zetas = point["n_zeta"] + point.get("confirm_zeta", 0)
        return point["kind"], float(zetas) * point["m"] * point["s"] * point["n"]
    if point["kind"] == "conj20" and point["distribution"] == "simplex":
        return "conj20-simplex", 2.0 ** point["m"] * point["m"]
    if point["kind"] == "conj20" and point["distribution"] == "simplex-exact":  # sign vectors times 2^m cells
        return "conj20-simplex-exact", 4.0 ** point["m"]
    if point["kind"] == "range":  # sign vectors times cells (Cover's count of affine dichotomies) times dimension
        m, n = point["m"], point["n"]
        cells = 2 * sum(math.comb(m - 1, i) for i in range(n + 1))
        return f"range-exact-{m <= RANGE_EXACT_M}", 2.0**m * cells * n * len(point["B_values"])
    if point["kind"] == "conj20":
        return "conj20", 2.0 ** (point["m"] - 1) * point["m"] * point["s"] * point["n"]
    return point["kind"], 1.0


def validate(block: dict):
    """Relations between keys that the schema cannot express."""
    ex, dim = block["exact"], block["dimension"]
    if dim["k"] > dim["s"]:
        yield "dimension.k", f"k = {dim['k']} exceeds s = {dim['s']}; a network has at most s active neurons"
    if not any(k <= s for k in ex["k_values"] for s in ex["s_values"]):
        yield "exact.k_values", "no k <= s in exact.s_values: the exact sub-check would have no instance"
    for key, k_values, s_values in (
        ("k_values", block["k_values"], block["s_values"]),
        ("exact.k_values", ex["k_values"], ex["s_values"]),
    ):
        for i, k in enumerate(k_values):
            if k > max(s_values):
                yield (
                    f"{key}[{i}]",
                    (
                        f"k = {k} exceeds every s (largest s = {max(s_values)}): no grid point would "
                        "use it; a network has at most s active neurons"
                    ),
                )
    rg = block["range"]
    if all(m > RANGE_EXACT_M for _, m in rg["samples"]):
        yield "range.samples", f"no sample with m <= {RANGE_EXACT_M}: the exact R_H against n would have no point"
    for i, (_, m) in enumerate(rg["samples"]):
        if m * (1 + min(rg["B_values"])) < math.e:
            yield (
                f"range.samples[{i}]",
                f"m (R + B) = {m * (1 + min(rg['B_values'])):g} < e on the unit sphere: (1)'s log is below 1 there "
                "(the degenerate corner, which the claim's scale check tests)",
            )
    if "lifted-parity" in block["distributions"] and math.isqrt(block["n"]) ** 2 != block["n"]:
        yield "n", f"lifted-parity needs n = q^2 (a perfect square), got n = {block['n']}"
    if min(block["m_values"]) * (math.sqrt(block["n"]) + block["B"]) <= 1:
        yield "m_values", "m (R + B) <= 1 on the cube: eq. (1) has no real value there"


#: Conjecture 20's exact lower bound: a sample of m = CONJ20_M points (the verifier's MAX_RADEMACHER_M: every one of
#: the 2^m sign vectors gets an explicit network of the class) per configured distribution, s = k = 1 (the class
#: where the sweep's lower-bound estimates come closest to (16): the dense class H_{n,s,s} has s times its R_H and
#: s times its bound).
CONJ20_M = 16
CONJ20_SK = (1, 1)
#: And the regular simplex of ``conj20_simplex.m`` points in R^(m-1) with s = 2, k = 1 and explicit networks
#: (:mod:`sparseact.complexity.simplex`, a referee's construction): above (16) at a suitable B; and the simplex of
#: ``conj20_simplex.exact_m`` points with the exact optimal networks (:func:`sparseact.complexity.rademacher_exact_networks`).

#: ``range`` points with ``m <= RANGE_EXACT_M`` compute the exact ``R_H(S)`` besides the proof's quantity (its cost
#: grows as ``2^m`` sign vectors).
RANGE_EXACT_M = 8

#: Sweep points with ``m <= SMALL_SWEEP_M`` share one runs job per distribution, as do those with
#: ``m >= LARGE_SWEEP_M`` (each about two jobs' start-up; the three-digit names sort as m ascends, so the merged
#: shard runs them in the order separate shards did).
SMALL_SWEEP_M, LARGE_SWEEP_M = 50, 100
#: The simplex point of Conjecture 20 and the scale point of (15) share one runs job (each about a job's start-up;
#: ``conj20-simplex`` sorts before ``scale``, so the shard runs them in the order separate shards did).
EXPLICIT_SHARD = "conj20-simplex-scale"


def shard(point_name: str, point: dict) -> str:
    """Per distribution, one runs job for the sweep's m <= SMALL_SWEEP_M, one for m >= LARGE_SWEEP_M and one per m
    between; the dimension, exact and Conjecture 20 points by kind, the simplex with the scale point."""
    if point["kind"] == "sweep":
        m = "small" if point["m"] <= SMALL_SWEEP_M else "large" if point["m"] >= LARGE_SWEEP_M else f"m{point['m']}"
        return f"sweep-{point['distribution']}-{m}"
    if point["kind"] == "scale" or (point["kind"] == "conj20" and point["distribution"] == "simplex"):
        return EXPLICIT_SHARD
    if point["kind"] in ("exact", "conj20"):
        return f"{point['kind']}-{point['distribution']}"
    if point["kind"] == "steps":
        return "steps"
    if point["kind"] == "range":  # the exact ones by dimension, the upper bounds (about a second each) together
        return f"range-n{point['n']}" if point["m"] <= RANGE_EXACT_M else "range-upper"
    return point["kind"]
