"""Families of networks in ``H_{n,s,k}^{W,B}`` with certified sparsity, and an adversarial search.

These are the instances on which Lemma 9 (``AS(h) <= O(k^4 W^2 sqrt(n) log(ns)
+ k^3 B^2 sqrt(log s))``) and Lemma 10 (the matching ``NS_rho`` bound) are
measured. Notation follows the paper (Definitions 1 and 2): a network is
``h(x) = sum_j u_j sigma(<w_j, x> - b_j)`` with ``s`` neurons on ``x`` in
``{-1, 1}^n``; neuron ``j`` is *active* at ``x`` when ``<w_j, x> - b_j > 0``
(strictly); ``h`` is ``k``-sparse when at most ``k`` neurons are active at every
``x`` of the cube; ``W = ||u||_inf max_j ||w_j||_2`` and
``B = ||u||_inf max_j |b_j|`` (:meth:`SparseReLUNetwork.scale_W`,
:meth:`SparseReLUNetwork.scale_B`).

Contents
--------
:mod:`~sparseact.families.certify` (membership of the class)
    :func:`certify_sparsity` (maximum active count: exact over the cube for
    ``n <= EXACT_MAX_N``, else a Monte Carlo lower bound), :func:`rescale`
    (the output weights ``u`` only, so the activation pattern is unchanged, to
    reach a prescribed ``W`` or ``B``), :func:`densest_threshold` (the smallest
    common normalised threshold making ``k``-sparse) and :func:`repair_sparsity`
    (raise all biases by one common normalised shift until ``k``-sparse).
:mod:`~sparseact.families.generators` (families of the class)
    :func:`random_sparse_network` (random directions with a common normalised
    threshold ``t``, the smallest one that makes the network ``k``-sparse,
    computed exactly in one pass) and :func:`bucket_network` (``k``
    independent Theorem-13 junta blocks: exactly ``k`` neurons active everywhere).
:mod:`~sparseact.families.search` (adversarial search over the class)
    :func:`adversarial_search` ((1+1)-evolution strategy with restarts over
    certified ``k``-sparse networks normalised to ``W = 1``) and
    :func:`make_ratio_objective` (``AS / (Lemma 9 bound)``, ``NS_rho / (Lemma 10
    bound)`` and ``AS / (4 k^2 W^2)`` as objectives for the search).

Every random function takes a :class:`numpy.random.Generator` and draws from
it alone, so results are reproducible for a given generator state.
"""

from __future__ import annotations

from sparseact.families.certify import (
    EXACT_MAX_N,
    SparsityCertificate,
    certify_sparsity,
    densest_threshold,
    repair_sparsity,
    rescale,
)
from sparseact.families.generators import WEIGHT_KINDS, bucket_network, random_sparse_network
from sparseact.families.search import (
    OBJECTIVE_KINDS,
    SEARCH_MAX_N,
    SearchResult,
    adversarial_search,
    make_ratio_objective,
)

#: What a figure calls the two families its tables key as ``bucket`` and ``gaussian``, in the paper's words.
FAMILY_NAMES = {"bucket": "k junta blocks (Theorem 13's networks)", "gaussian": "random Gaussian weights"}

__all__ = [
    "EXACT_MAX_N",
    "FAMILY_NAMES",
    "OBJECTIVE_KINDS",
    "SEARCH_MAX_N",
    "WEIGHT_KINDS",
    "SearchResult",
    "SparsityCertificate",
    "adversarial_search",
    "bucket_network",
    "certify_sparsity",
    "densest_threshold",
    "make_ratio_objective",
    "random_sparse_network",
    "repair_sparsity",
    "rescale",
]
