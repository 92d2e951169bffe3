r"""Empirical Rademacher complexity of ``H_{n,s,k}^{W,B}`` (Section 5).

For a sample ``S = (x_1, ..., x_m)`` in R^n the empirical Rademacher complexity is

.. math::

    \mathcal{R}_\mathcal{H}(S) = \mathbb{E}_\zeta \sup_{h \in \mathcal{H}}
    \frac{1}{m} \sum_{i=1}^m \zeta_i h(x_i),

with ``zeta`` uniform on ``{-1, 1}^m``. Here ``H = H_{n,s,k}^{W,B}`` (Definition
2): ``h(x) = sum_j u_j relu(<w_j, x> - b_j)`` with ``||u||_inf max_j ||w_j|| <= W``,
``||u||_inf max_j |b_j| <= B`` and ``k``-sparsity required *on the sample*: every
``x_i`` activates at most ``k`` neurons, neuron ``j`` being active at ``x`` when
``<w_j, x> - b_j > 0`` (strictly, Definition 1).

Reduction used throughout
-------------------------
1. *Unit output weights.* If ``a = ||u||_inf > 0``, replacing ``(u, w_j, b_j)``
   by ``(u/a, a w_j, a b_j)`` leaves every term ``u_j relu(<w_j,x> - b_j)`` and
   every activation pattern unchanged (``relu`` is positively homogeneous), so
   ``H = {sum_j u_j relu(<w_j,x> - b_j) : |u_j| <= 1, ||w_j|| <= W, |b_j| <= B,
   k-sparse on S}``; the converse inclusion is immediate since then
   ``||u||_inf <= 1``. The constraints now act on each neuron separately.
2. *Cells.* Let ``I_j = {i : <w_j, x_i> - b_j > 0}`` (the *cell* of neuron ``j``).
   The objective is ``(1/m) sum_j u_j sum_{i in I_j} zeta_i (<w_j,x_i> - b_j)``
   and the sup over ``|u_j| <= 1`` gives ``(1/m) sum_j |sum_{i in I_j} zeta_i
   (<w_j, x_i> - b_j)|``. A neuron contributing 0 can be switched off
   (``w_j = 0, b_j = 0`` is inactive everywhere), which only frees capacity.
3. *Per-cell problem.* For a cell ``I`` cut out by some halfspace the value is
   ``V(I) = sup |sum_{i in I} zeta_i (<w,x_i> - b)|`` over ``F_I = {(w, b) :
   ||w|| <= W, |b| <= B, <w,x_i> - b > 0 (i in I), <= 0 (i not in I)}``. When
   ``F_I`` is non-empty its closure is ``C_I`` (same with ``>= 0`` on ``I``): for
   ``p`` in ``C_I`` and ``q`` in ``F_I`` the segment ``(1-t)p + tq``, ``t in (0,
   1]``, lies in ``F_I``. The objective is continuous, so ``V(I)`` is the
   *maximum* over the compact convex set ``C_I`` of ``|linear|`` — two
   second-order-cone programs (one per sign). ``F_I`` is non-empty exactly when
   ``I`` is a halfspace cell (scale any realising ``(w, b)`` down), except that
   ``B = 0`` forces ``b = 0`` (homogeneous halfspaces ``{<w,x> > 0}`` only) and
   ``W = 0`` forces ``w = 0`` (only the empty cell and, if ``B > 0``, all points).
4. *Assignments.* ``sup_h = (1/m) max sum_j V(I_j)`` over multisets of at most
   ``s`` realisable cells covering every point at most ``k`` times (a cell may
   be repeated; the same cell realised twice contributes ``2 V(I)``).
5. *Symmetry.* ``H = -H`` (flip ``u``), so the sup at ``-zeta`` equals the sup at
   ``zeta``; exhaustive averages run over the ``2^(m-1)`` vectors with
   ``zeta_1 = +1``.

Numerical methods
-----------------
* Cells (:func:`halfspace_cells`): incremental enumeration, one LP feasibility
  problem (``scipy.optimize.linprog``, margin normalisation) per candidate
  extension; every cell carries a strict witness checked in floating point.
  There are ``O(m^n)`` cells (Sauer-Shelah, as in the proof of Theorem 19).
* Per-cell values (:func:`cell_value`): a batched log-barrier interior-point
  method over all cells, both signs and many ``zeta`` at once; the iterates are
  strictly feasible, so each value is attained by a neuron realising the cell,
  and a Lagrangian dual bound certifies the gap (about ``1e-7`` relative).
* Assignments (:func:`best_assignment`): dynamic programme over coverage
  vectors (numba).
* Lower bounds for large samples (:func:`sup_lower_bound`,
  :func:`sup_lower_bounds`): heuristic search over ``k``-sparse networks,
  compiled (numba) and batched over sign vectors and restarts, each neuron
  polished with its cell held fixed by a compiled log-barrier method
  (:mod:`~sparseact.complexity.barrier_polish`), each result verified.

Note on eq. (1)
---------------
With ``B = 0`` the complexity is positively homogeneous in the sample,
``R_H(aS) = a R_H(S)``, while (1) is ``W R sqrt(s n log(m R)) / sqrt(m)``, which
tends to 0 as ``m R -> 1`` (and has no real value below). So (1) with any fixed
constant fails for samples of norm ``R`` slightly above ``1/m``; see
``tests/test_complexity.py::test_eq1_with_constant_one_fails_when_m_R_is_close_to_one``.
The same holds for (15) with ``log(k m (R + B))``.

Kinds of numbers
----------------
Every returned number is one of

* **exact** — the sup itself (up to the stated solver tolerance, certified by
  a primal/dual bracket);
* **lower bound (estimate)** — the value of an explicit network verified to lie
  in ``H`` (scales and ``k``-sparsity on ``S`` checked), hence ``<=`` the sup for
  that ``zeta``; averaged over sampled ``zeta`` it estimates a lower bound of
  ``R_H(S)`` (with a CLT interval for that average);
* **upper bound (proof quantity)** — the intermediate quantity of the proof of
  Theorem 19, eqs. (3)-(13), which dominates the sup;
* **formula** — a bound of the paper evaluated by :mod:`sparseact.bounds`
  (hidden constants 1, natural log).

Modules
-------
:mod:`~sparseact.complexity.cells` (halfspace cells), :mod:`~sparseact.complexity.cellvalue`
(per-cell SOCPs), :mod:`~sparseact.complexity.assignment` (the DP),
:mod:`~sparseact.complexity.exact` (exact sup, proof quantity, exact averages),
:mod:`~sparseact.complexity.lower` (scalable lower bounds),
:mod:`~sparseact.complexity.barrier_polish` (the lower bounds' per-neuron barrier polish),
:mod:`~sparseact.complexity.samples` (samples and the paper's bounds).
"""

from __future__ import annotations

from sparseact.complexity._common import (
    EXHAUSTIVE_BRACKET_M,
    EXHAUSTIVE_MAX_M,
    MAX_ASSIGNMENT_STATES,
    in_class,
    network_objective,
)
from sparseact.complexity.assignment import best_assignment
from sparseact.complexity.cells import class_cells, halfspace_cells
from sparseact.complexity.cellvalue import CellValue, _build_system, _solve_cells, cell_value
from sparseact.complexity.exact import (
    Brackets,
    ExactSup,
    _all_zetas_half,
    proof_intermediate,
    proof_intermediate_quantity,
    rademacher_brackets,
    rademacher_exact,
    rademacher_exact_networks,
    sup_exact,
)
from sparseact.complexity.lower import LowerBoundSup, rademacher_lower_bound, sup_lower_bound, sup_lower_bounds
from sparseact.complexity.samples import paper_bounds, sample_distribution

__all__ = [
    "EXHAUSTIVE_BRACKET_M",
    "EXHAUSTIVE_MAX_M",
    "MAX_ASSIGNMENT_STATES",
    "Brackets",
    "CellValue",
    "ExactSup",
    "LowerBoundSup",
    "best_assignment",
    "cell_value",
    "class_cells",
    "halfspace_cells",
    "in_class",
    "network_objective",
    "paper_bounds",
    "proof_intermediate",
    "proof_intermediate_quantity",
    "rademacher_brackets",
    "rademacher_exact",
    "rademacher_exact_networks",
    "rademacher_lower_bound",
    "sample_distribution",
    "sup_exact",
    "sup_lower_bound",
    "sup_lower_bounds",
]

# private helpers used by the tests
_ = (_all_zetas_half, _build_system, _solve_cells)
