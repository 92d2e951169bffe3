r"""Theorem 8 (the low-degree algorithm learns H_{n,s,k}^{W,B}), its proof, and Lemma 7.

*Theorem 8* (PMLR p. 5): there is an (eps, delta)-PAC learner for ``H_{n,s,k}^{W,B}``
under the uniform distribution on ``{-1,1}^n`` with sample complexity and run time

    O(n^d k^2 (W sqrt(n) + B)^2 log(1/delta) / eps)   for   d = Theta((k^8 W^4 log(ns)^4 + k^6 B^4 log s) / eps^2).

*Lemma 7* (p. 4): if ``sum_{|T|>d} hhat(T)^2 <= eps`` for every ``h`` in ``H``, polynomial
regression over the monomials of degree ``<= d`` is an (O(eps), delta)-PAC learner with
``O(n^d C_H^2 log(1/delta)/eps)`` samples and time, ``C_H = sup_{h,x} h(x)``.

*Proof of Theorem 8* (p. 6), three steps tested here:

(rho)  "by Lemma 10, there is a constant c > 0 such that for
       ``1 - rho = c eps^2 min{log(knsW^2/eps)/(k^8 W^4 log^4(ns)), 1/(k^6 B^4 log s)}``
       any h satisfies ``NS_rho(h) <= eps/3``";
(tail) "we can choose a suitable ``d = Theta(...)`` such that by Claim 2.1,
       ``sum_{|T|>d} fhat(T)^2 <= eps/(3(1 - rho^d)) <= eps/(d(1 - rho)) <= eps``";
(C_H)  "``C_H = k(W sqrt(n) + B)``: at most k neurons are active, each contributes at most W sqrt(n) + B".

What is computed
----------------
*Learning* (one point per target): certified-sparse networks (Gaussian and Theorem-13
bucket networks, ``W = 1``) per ``k``, a dense baseline and the parity on ``p`` bits written
as Theorem 13's 1-sparse junta network. :class:`~sparseact.learners.LowDegreeRegressor`
is fitted on nested uniform samples (the first ``m`` of one stream per inner seed) for every
degree; the test error is exact, the fitted polynomial evaluated on the whole cube, with the
paper's loss ``(yhat - y)^2/2`` whose floor at degree ``d`` is ``(1/2) sum_{|T|>d} fhat(T)^2``.
Theorem 8 and Lemma 7 are ``O``/``Theta`` statements: they are compared with their
expressions at constant 1 and never failed for a constant (the slack is reported).

*Proof steps* (one deterministic point, formulas only, evaluated in log space so that
``eps = exp(-ell)`` may be astronomically small):

* (rho): Lemma 10's expression (constant ``C``) at the printed ``1 - rho`` divided by
  ``eps/3`` is ``R(eps) = 3 C sqrt(c) sqrt(L) (log(ns/(1-rho))/log(ns))^2 + ...`` with
  ``L = log(knsW^2/eps)`` while the weight term binds the ``min``, and
  ``R(eps) = 3 C sqrt(c) (1 + k W^2 log^2(ns k^6 B^4 log(s)/(c eps^2)) / (B^2 sqrt(log s)))`` once the bias
  term binds (``B > 0``, ``s > 1``, small eps). Either way ``R(eps) -> infinity`` as
  ``eps -> 0`` for *every* fixed ``c, C > 0``: the ``log(knsW^2/eps)`` sits in the numerator
  where Lemma 10 needs ``log^4`` in the denominator. The certificate is one exact instance
  (``c = CERT_C = 1``, the largest grid ``eps <= 0.1`` where it fails); the closed form covers every ``c``. Replacement (verified):
  ``1 - rho* = min{eps^2/(36 k^8 W^4 Lambda^4), eps^2/(36 k^6 B^4 log s), e^-4}``,
  ``Lambda = max(27, 2 log(ns) + 4 log(6 k^4 W^2/eps))``, gives Lemma 10's expression
  ``<= eps/6 + eps/6`` (see :func:`corrected_log_one_minus_rho`).
* (tail): the chain needs ``1 <= d(1-rho) <= 3(1-rho^d)``; tested for the ``d`` the proof
  must choose, ``d = ceil(1/(1-rho))`` (the last "<= eps" forces ``d >= 1/(1-rho)``), over
  ``rho`` in ``[0, 1)`` including the proof's own ``rho``. Claim 2.1 gives
  ``2 NS_rho/(1-rho^d)``, twice the printed first member; the corrected chain
  ``2(eps/3)/(1-rho^d) <= 2 eps/(3(1-1/e)) ~ 1.05 eps`` is the variant "corrected".
* (C_H): ``max_x |h(x)| <= k(W sqrt(n) + B)`` on every learning target, exactly.

Grid (``points``): ``target-<family>-k<k>`` (``family`` in the block's families; ``bucket``
only where feasible), ``target-dense``, ``target-parity-p<p>`` and ``proof-steps``.
"""

from __future__ import annotations

from sparseact.claims._grids import bucket_feasible
from sparseact.combinatorics import monomial_count

PAPER_REF = "Theorem 8, Lemma 7"
RANDOM = True


# ---------------------------------------------------------------------------
# grid
# ---------------------------------------------------------------------------


def points(block: dict) -> dict[str, dict]:
    n, s = int(block["n"]), int(block["s"])
    learning = dict(
        n=n,
        degrees=[int(d) for d in block["degrees"]],
        sample_sizes=[int(m) for m in block["sample_sizes"]],
        seeds=int(block["seeds"]),
        eps=float(block["eps"]),
        relative_eps=float(block["relative_eps"]),
        delta=float(block["delta"]),
    )
    grid = {}
    for k in block["k_values"]:
        for family in block["families"]:
            if k <= s and (family != "bucket" or bucket_feasible(n, s, int(k))):
                grid[f"target-{family}-k{int(k)}"] = dict(kind="target", target=family, s=s, k=int(k), **learning)
    grid["target-dense"] = dict(kind="target", target="dense", s=s, k=s, **learning)
    p = int(block["parity_p"])
    grid[f"target-parity-p{p}"] = dict(kind="target", target="parity", s=2**p, k=1, p=p, **learning)
    grid["proof-steps"] = dict(kind="proof", n=n, s=s, eps=float(block["eps"]))
    return grid


def work(point: dict) -> tuple[str, float]:
    """Growth proxy of a point's CPU time (:meth:`sparseact.claims.Claim.work`): a target point fits every sample
    size on the ``N_d`` monomials of its largest degree, per seed; the proof steps enumerate the ``2^n``-point
    cube over ``s`` neurons."""
    if point["kind"] == "proof":
        return "proof", 2.0 ** point["n"] * point["s"]
    features = monomial_count(point["n"], max(point["degrees"]))
    return "target", float(point["seeds"]) * sum(point["sample_sizes"]) * features * features


def validate(block: dict):
    """``k <= s``, ``d <= n`` and ``p <= n``, which the schema cannot express."""
    n, s = block["n"], block["s"]
    for i, k in enumerate(block["k_values"]):
        if k > s:
            yield f"theorem8.k_values[{i}]", f"k = {k} exceeds s = {s}; a network has at most s active neurons"
    for i, d in enumerate(block["degrees"]):
        if d > n:
            yield f"theorem8.degrees[{i}]", f"degree d = {d} exceeds n = {n}; there are no monomials of degree > n"
    if block["parity_p"] > n:
        yield "theorem8.parity_p", f"parity_p = {block['parity_p']} exceeds n = {n}"
