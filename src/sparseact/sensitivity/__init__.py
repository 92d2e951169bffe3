r"""The quantities *inside* the proofs of Lemma 6, Lemma 9 and Lemma 10, computed exactly.

:mod:`sparseact.bounds` evaluates the expressions the paper *prints*; this package
measures, on the whole cube {-1, 1}^n, the intermediate quantities the proofs
manipulate, so every step of the argument can be compared with the truth. All
sensitivities use the normalisation of the paper's Section 2.1,

    sen_f(x) = (1/4) sum_i (f(x) - f(x^{(+)i}))^2,   AS(f) = E_x[sen_f(x)],
    NS_rho(f) = E_{x ~ U, y ~ N_rho(x)} (1/4)(f(x) - f(y))^2,

so for a {0,1}-valued ``g``, ``AS(g) = (1/4) sum_i Pr_x[g(x) != g(x^{(+)i})]``
(a quarter of the expected number of sensitive coordinates).

Modules, one per proof
----------------------
The tests in ``tests/test_sensitivity.py`` check every finding on concrete instances.

:mod:`~sparseact.sensitivity.lemma9`
    Lemma 9's decomposition ``AS(h) = (U) + (V)``, its transition probabilities
    (:func:`lemma9_decomposition`) and its Hoeffding level (:func:`lemma9_hoeffding_level`):
    the printed steps for ``(U)`` and the union bound each drop a factor 4.
:mod:`~sparseact.sensitivity.lemma6`
    Lemma 6's halfspace ``g(x) = 1{<w, x> <= b}`` (:func:`halfspace_indicator`,
    :func:`lemma6_measure`, :func:`halfspace_family`) and the identity of its proof
    (:func:`lemma6_identity_check`): exactly ``AS(g) = -(1/2) E_x[g(x) sum_i x_i]``
    for ``w > 0``, not the printed ``(1/4) E_x[g(x) sum_i x_i]``.
:mod:`~sparseact.sensitivity.bucket_coupling`
    Appendix B's bucket coupling, eq. (17) in the proof of Lemma 10
    (:func:`bucket_coupling_noise_sensitivity`): it samples ``(x, N_{rho_eff}(x))``,
    ``rho_eff = 1 - 2/r``, and (17) holds exactly at ``rho_eff`` with the Section 2.1
    normalisation on both sides.

Conventions: ``R_x = {j : <w_j, x> > b_j}`` (strict, as in Definition 1 and
:class:`~sparseact.networks.SparseReLUNetwork`), ``g_j = 1{<w_j, x> > b_j}``,
``k = max_x |R_x|``, ``W = net.scale_W()``, ``B = net.scale_B()``, natural logs.
"""

from __future__ import annotations

from sparseact.sensitivity._common import MAX_EXACT_DIM, MAX_NEURONS
from sparseact.sensitivity.bucket_coupling import (
    MAX_BUCKETS,
    BucketCouplingResult,
    bucket_count,
    bucket_coupling_noise_sensitivity,
)
from sparseact.sensitivity.lemma6 import (
    Lemma6Identity,
    halfspace_family,
    halfspace_indicator,
    lemma6_identity_check,
    lemma6_measure,
)
from sparseact.sensitivity.lemma9 import HoeffdingLevel, Lemma9Terms, lemma9_decomposition, lemma9_hoeffding_level

__all__ = [
    "MAX_BUCKETS",
    "MAX_EXACT_DIM",
    "MAX_NEURONS",
    "BucketCouplingResult",
    "HoeffdingLevel",
    "Lemma6Identity",
    "Lemma9Terms",
    "bucket_count",
    "bucket_coupling_noise_sensitivity",
    "halfspace_family",
    "halfspace_indicator",
    "lemma6_identity_check",
    "lemma6_measure",
    "lemma9_decomposition",
    "lemma9_hoeffding_level",
]
