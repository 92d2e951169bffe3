r"""Lemma 10 (noise sensitivity), Claim 2.1 (NS and Fourier tails) and Appendix B's eq. (17).

Section 2.1 defines, with ``N_rho(x)`` flipping each coordinate of ``x`` with
probability ``(1 - rho)/2``,

    NS_rho(f) = E_{x ~ U, y ~ N_rho(x)} (1/4)(f(x) - f(y))^2.

*Lemma 10* (PMLR p. 6) states, for every ``h`` in ``H_{n,s,k}^{W,B}``,

    NS_rho(h) = sqrt(1 - rho) O(k^4 W^2 log^2(ns/(1 - rho)) + k^3 B^2 sqrt(log s)).

*Claim 2.1* (Section 2, "for all f : {-1,1}^n -> R", no range of ``rho`` printed)

    ||f||_2^2 = sum_T fhat(T)^2,   NS_rho(f) = sum_T (1/2)(1 - rho^|T|) fhat(T)^2,
    and hence sum_{|T| > d} fhat(T)^2 <= 2 NS_rho(f) / (1 - rho^d).

The tail inequality needs ``1 - rho^|T| >= 1 - rho^d`` for ``|T| > d``, true for
``rho`` in ``[0, 1)``, the only range the paper uses (proof of Theorem 8); for
``rho < 0`` it fails (``x1 x2``, ``rho = -1/2``, ``d = 1``: tail 1 > 0.5), a finding
``out-of-range``.

*Appendix B* (proof of Lemma 10): with ``r = floor(2/(1 - rho))``, ``z`` uniform, each
coordinate put in one of ``r`` buckets ``A_e`` uniformly, ``v`` uniform in ``{-1,1}^r``,
``x = (z_l v_{e(l)})_l`` and ``y`` obtained by flipping ``v_b`` for a uniform ``b``, it
says "(x, y) are distributed exactly the same as (x, N_rho(x))" and prints, with
``H_z(v) = sum_j u_j sigma(<w'_j, v> - b_j)``, ``w'_{je} = sum_{l in A_e} w_{jl} z_l``,

    NS_rho(h) = E[(h(x) - h(y))^2]
              = (1/r) E_{z,{A_e}} (sum_b E_v (H_z(v) - H_z(v^{(+)b}))^2)
              = (1/r) E_{z,{A_e}} [AS(H_z)].                                  (17)

Under the coupling each coordinate flips iff it lies in bucket ``b`` (probability
``1/r``), so it samples ``N_{1-2/r}``; the first and third equalities drop the 1/4 of
Section 2.1 (in opposite directions). Exactly,
``NS_{1-2/r}(h) = (1/r) E[AS(H_z)]`` (the corrected (17)), and for ``rho`` in
``[0, 1)``: ``1 - 2/r <= rho`` so ``NS_rho(h) <= NS_{1-2/r}(h)``, and ``r >= 1/(1 - rho)``
so ``1/sqrt(r) <= sqrt(1 - rho)``: the upper bound Lemma 10 needs survives.

Everything is exact: truth tables on the whole cube, spectra by the Walsh-Hadamard
transform (:mod:`sparseact.analysis`), NS by definition summed over the ``2^n`` flip
patterns (``n <= DEFINITION_MAX_N``), and (17)'s right side by enumerating all
``2^n r^n`` equally likely ``(z, {A_e})`` (:func:`sparseact.sensitivity.bucket_coupling_noise_sensitivity`).

Grid (``points``): ``noise-n<n>-k<k>`` (Gaussian networks made ``k``-sparse on the
cube and Theorem-13 bucket networks where feasible, ``instances`` of each, every
``1 - rho`` of the block; each (family, instance) draws from its own stream),
``claim21-parity`` (the monomials ``chi_T``, ``|T| = 2, 3``, inside and outside
``[0, 1)``; microseconds) and ``appendixB-rho<rho>`` (random networks and the
dictator ``x_1 = relu(x_1) - relu(-x_1)`` at one ``rho``).
"""

from __future__ import annotations

import math

PAPER_REF = "Lemma 10, Claim 2.1, Appendix B"
RANDOM = True

#: ``rho < 0``: outside the range the paper uses Claim 2.1 in; the tail inequality is tested there too.
OUT_OF_RANGE_RHO = (-0.9, -0.5, -0.1)
#: ``rho`` in ``[0, 1)`` at which the monomials' tails are also tested.
PARITY_IN_RANGE_RHO = (0.0, 0.5, 0.9)
#: Degrees ``p`` of the monomials ``chi_T = x_1 ... x_p`` (on ``n = p`` inputs) of the ``claim21-parity`` point.
PARITY_ORDERS = (2, 3)

#: Budget ``(2r)^n 2^r`` of the exact enumeration of (17) (:mod:`sparseact.sensitivity`).
APPENDIXB_BUDGET = 1 << 22
#: Slack of ``floor(2/(1 - rho))`` (as :func:`sparseact.sensitivity.bucket_count`: ``rho = 1/3`` gives 3).
FLOOR_TOL = 1e-9


# ---------------------------------------------------------------------------
# grid
# ---------------------------------------------------------------------------


def bucket_count(rho: float) -> int:
    """``r = floor(2/(1 - rho))`` of Appendix B (with :data:`FLOOR_TOL`)."""
    return math.floor(2.0 / (1.0 - rho) + FLOOR_TOL)


def points(block: dict) -> dict[str, dict]:
    noise, appb = block["noise"], block["appendixB"]
    grid = {}
    for n in noise["n_values"]:
        for k in noise["k_values"]:
            if k <= noise["s"]:
                grid[f"noise-n{n}-k{k}"] = {
                    "kind": "noise",
                    "n": int(n),
                    "s": int(noise["s"]),
                    "k": int(k),
                    "instances": int(noise["instances"]),
                    "one_minus_rho": [float(v) for v in noise["one_minus_rho"]],
                }
    grid["claim21-parity"] = {
        "kind": "parity",
        "orders": list(PARITY_ORDERS),
        "rho_values": list(OUT_OF_RANGE_RHO + PARITY_IN_RANGE_RHO),
    }
    for rho in appb["rho_values"]:
        grid[f"appendixB-rho{float(rho)!r}"] = {
            "kind": "appendixB",
            "n": int(appb["n"]),
            "s": int(appb["s"]),
            "k": int(appb["k"]),
            "rho": float(rho),
            "instances": int(appb["instances"]),
        }
    return grid


#: Noise-sweep points with ``n <= SMALL_NOISE_N`` share one runs job (each n costs about a job's start-up), and
#: so do the larger n (each about one or two jobs' start-up). Their point names sort as n ascends, so the merged
#: shard runs them in the order separate shards did.
SMALL_NOISE_N = 14


#: A noise point's fixed cost per instance and noise level, as the cube dimension whose work it equals (fitted to the
#: shipped cost table's noise-small and noise-large shards), so a point's work is that of a cube of
#: 2^n + 2^NOISE_FIXED_N points.
NOISE_FIXED_N = 18


def work(point: dict) -> tuple[str, float]:
    """Growth proxy of a point's CPU time (:meth:`sparseact.claims.Claim.work`): the ``2^n``-point cube (at least
    its fixed cost, :data:`NOISE_FIXED_N`) times the neurons, per instance and noise level."""
    if point["kind"] == "parity":
        return "parity", 1.0
    cube = 2.0 ** point["n"] + (2.0**NOISE_FIXED_N if point["kind"] == "noise" else 0.0)
    return point["kind"], cube * point["s"] * point["instances"] * len(point.get("one_minus_rho", [0]))


def shard(point_name: str, point: dict) -> str:
    """One runs job for the noise sweep's n <= SMALL_NOISE_N and one for the larger n, one for Claim 2.1's
    parities, one for Appendix B."""
    if point_name.startswith("noise-"):
        return "noise-small" if point["n"] <= SMALL_NOISE_N else "noise-large"
    return point_name.split("-", 1)[0]


def validate(block: dict):
    """``k <= s`` and the exact-enumeration budget of (17), which the schema cannot express."""
    noise, appb = block["noise"], block["appendixB"]
    for i, k in enumerate(noise["k_values"]):
        if k > noise["s"]:
            yield f"noise.k_values[{i}]", f"k = {k} exceeds s = {noise['s']}; a network has at most s active neurons"
    if appb["k"] > appb["s"]:
        yield "appendixB.k", f"k = {appb['k']} exceeds s = {appb['s']}; a network has at most s active neurons"
    for i, rho in enumerate(appb["rho_values"]):
        r = bucket_count(rho)
        cost = (2 * r) ** appb["n"] * (1 << r)
        if cost > APPENDIXB_BUDGET:
            yield (
                f"appendixB.rho_values[{i}]",
                f"rho = {rho} gives r = {r} buckets: exact enumeration of (z, A) needs (2r)^n 2^r = {cost} > "
                f"{APPENDIXB_BUDGET} entries at n = {appb['n']}; lower rho or n",
            )
