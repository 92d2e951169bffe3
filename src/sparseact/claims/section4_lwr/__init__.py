r"""Section 4 (cryptographic hardness): ``f_w(y) = F_w(x(y))`` with ``F_w`` in ``H_{r^2, O(q^2 m), 1}``.

As printed (PMLR p. 8), for an ``LWR_{p,q,m}`` instance (Definition 15: ``f_w(y) = (<w, y> mod q) mod p``
on ``y in Z_q^m``):

* ``y`` is mapped to ``z(y) in {1,-1}^r``, ``r = O(m log q)``, by its binary digits, and "for every
  ``w`` we can find ``v(w) in R^r`` such that ``<v(w), z(y)> = <w, y>``", so ``f_w(y) = lambda(<v(w), z(y)>)``
  with ``lambda(i) = (i mod q) mod p`` on ``[q^2 m]``;
* ``lambda(<v(w), z(y)>) = sum_{a in [q^2 m]} 2 lambda(a) sigma(1/2 - (<v(w), z(y)> - a))^2`` (square
  *outside* the ReLU as printed), with one ReLU active for any ``y``;
* with ``x(y)_{ii} = z_i``, ``x(y)_{ij} = z_i z_j`` (``n = r^2``) there is a lifted weight vector
  ``W_{w,a} in {1,-1}^n`` and ``b_{w,a}`` with ``1/2 - (<v(w), z(y)> - a)^2 = <W_{w,a}, x(y)> - b_{w,a}``,
  and ``||W_{w,a}||_2, |b_{w,a}| = poly(q, m)``;
* hence for every ``w`` some ``F_w in H_{r^2, O(q^2 m), 1}`` has ``f_w(y) = F_w(x(y))`` for every ``y``.

With bits encoded as ``beta -> 1 - 2 beta``, ``y_i = sum_l 2^l (1 - z_{il})/2``, so ``<w, y> = c + <v, z(y)>``
with ``v_{il} = -w_i 2^(l-1)`` and ``c = sum_i w_i (2^L - 1)/2`` (``L`` = bit length of ``q - 1``): affine,
not linear (the least-squares residual, orthogonal to every column of ``z(Y)``, certifies that no linear
``v`` exists); the offset is absorbed into the shifts (``a -> a - c``). With the square outside the ReLU,
every ``a >= t`` contributes; inside (as in the parity identity, and as the text's "quadratic function
inside the ReLU" says) exactly the term ``a = t`` does. Expanding the square with ``z_i^2 = 1`` gives
``W[i,j] = -v_i v_j``, ``W[i,i] = 2 (a - c) v_i``, ``b = ||v||^2 + (a - c)^2 - 1/2`` (real, not ``+-1``;
when ``q`` is a power of two ``z(y)`` covers the whole cube and the diagonal is forced to be the Fourier
coefficient ``E_z[z_i (1/2 - (<w, y(z)> - a)^2)]``). The Definition 2 scales obey the explicit polynomials of
:func:`scale_polynomials`.

Definition 15 prints ``(<w, y> mod q) mod p``; the learning-with-rounding map of Banerjee et al. (2012) it
cites is ``round((p/q)(<w, y> mod q)) mod p`` (:func:`sparseact.constructions.lwr_round`). For ``p | q``,
``p`` prime, the printed map is ``<w mod p, y> mod p``, linear over the field ``Z_p``: Gaussian elimination
(:func:`sparseact.constructions.gf_solve`) on ``m + 8`` samples of rank ``m`` recovers it on every input, so
Conjecture 16 as printed is false; the certificate (quantity ``gf_p_solve``) re-solves every secret's samples.
With the rounding map, no affine map over ``Z_p`` fits most secrets (exhaustive), and the same lifted network
with output weights ``2 round((p/q)(a mod q))`` computes it: the reduction carries the corrected map.

Grid: one point ``q<q>-m<m>-p<p>`` per instance; every ``y in Z_q^m`` and every shift is checked for every
secret (all of ``Z_q^m`` when ``q^m <= max_secrets``, else ``max_secrets`` distinct random secrets).
"""

from __future__ import annotations

PAPER_REF = "Section 4 (Cryptographic hardness)"
RANDOM = True

#: Largest domain ``q^m`` enumerated per secret (the check of the config block enforces it).
LWR_MAX_DOMAIN = 4096


def points(block: dict) -> dict[str, dict]:
    return {
        f"q{i['q']}-m{i['m']}-p{i['p']}": {
            "q": int(i["q"]),
            "m": int(i["m"]),
            "p": int(i["p"]),
            "max_secrets": int(block["max_secrets"]),
        }
        for i in block["instances"]
    }


def work(point: dict) -> tuple[str, float]:
    """Growth proxy of a point's CPU time (:meth:`sparseact.claims.Claim.work`): the ``q^m`` inputs times the
    ``q^2 m`` shifted ReLUs, per secret."""
    return "", float(point["q"] ** point["m"]) * point["q"] ** 2 * point["m"] * point["max_secrets"]


def shard(point_name: str, point: dict) -> str:
    """One runs job for every instance (each takes a fraction of a job's start-up)."""
    return "instances"


def validate(block: dict):
    seen = set()
    for j, inst in enumerate(block["instances"]):
        key = f"instances[{j}]"
        if inst["p"] > inst["q"]:
            yield (f"{key}.p", f"p = {inst['p']} must be at most q = {inst['q']} (rounding Z_q to Z_p)")
        if inst["q"] ** inst["m"] > LWR_MAX_DOMAIN:
            yield (key, f"q^m = {inst['q'] ** inst['m']} exceeds the exhaustive-domain limit {LWR_MAX_DOMAIN}")
        name = (inst["q"], inst["m"], inst["p"])
        if name in seen:
            yield (key, f"instance q={inst['q']}, m={inst['m']}, p={inst['p']} is listed twice")
        seen.add(name)
