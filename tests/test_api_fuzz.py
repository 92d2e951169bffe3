"""Every public function of the core library, driven with bad and edge values (hypothesis).

Each call either returns a finite result (every number in it finite) or raises ``ValueError``,
``TypeError`` or ``KeyError`` (for lookups by name), within :data:`CALL_SECONDS` and without a
``MemoryError``. The functions are found by introspection of :data:`CORE_MODULES` (a module's
``__all__`` and every public name it defines; a package's public submodules too; public classes'
constructors and public methods, except result containers); :data:`VALID` gives each one valid
arguments, and one argument at a time is replaced by a bad or edge value. A new public function
without an entry in :data:`VALID` fails :func:`test_every_public_function_has_valid_arguments`.
NaN is allowed only where documented (:data:`DOCUMENTED_NAN`), and any real number where a function holds a
measured one as it is (:data:`PASSED_THROUGH`). :data:`PROBES` are the issue's named inputs, each refused up front
with a message naming the argument or giving the size.
"""

from __future__ import annotations

import dataclasses
import importlib
import inspect
import math
import pkgutil
import signal
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sparseact import (
    analysis,
    bounds,
    combinatorics,
    complexity,
    constructions,
    cube,
    families,
    fitting,
    learners,
    networks,
    sensitivity,
)
from sparseact.learners.erm import SparseActivationERM
from sparseact.learners.low_degree import LowDegreeRegressor
from sparseact.networks import SparseReLUNetwork
from sparseact.publish import ledger
from sparseact.verify import records, verdicts

#: The core library: numerical modules and packages, with the verdict policy and the records
#: (sparseact.verify.verdicts, sparseact.verify.records) and the ledger table (sparseact.publish.ledger).
#: Not fuzzed: the runtime, report, plotting and file modules (config, report, recompute, ...), which the
#: workflow tests drive.
CORE_MODULES = (
    cube,
    combinatorics,
    analysis,
    networks,
    constructions,
    families,
    sensitivity,
    fitting,
    bounds,
    verdicts,
    records,
    ledger,
    complexity,
    learners,
)
#: Longest a single call may take before it counts as a hang (a call within the memory limit may
#: take half a minute on a loaded 2-core machine).
CALL_SECONDS = 60
#: Functions that read or write files: exercised by the ledger and workflow tests, not fuzzed here.
FILE_IO = {"publish.ledger.load_records", "publish.ledger.write_certificates", "publish.ledger.write_ledger"}


def _record() -> records.CheckRecord:
    return records.CheckRecord(
        claim_id="x",
        check_id="x/y",
        paper_ref="Lemma 0",
        statement="s",
        check="c",
        variant="",
        method="exact",
        instances=1,
        worst_value=0.0,
        worst_value_label="err",
        verdict=verdicts.Verdict.PASS,
    )


def _fit():
    x = np.array([1.0, 2.0, 4.0, 8.0, 16.0])
    return fitting.fit_exponents({"n": x}, 3.0 * x**2 * (1 + 0.01 * np.array([1, -1, 1, -1, 1])))


#: A truth table on {-1, 1}^3 (hypercube order), a small sample in R^2 and signs for it.
TABLE = np.array([1.0, -1.0, -1.0, 1.0, 0.5, 0.0, 2.0, -0.5])
POINTS = np.array([[1.0, 0.0], [0.0, 1.0], [-1.0, -0.5]])
ZETA = np.array([1.0, -1.0, 1.0])
#: A regular simplex of 3 points in the plane (sparseact.complexity.simplex).
SIMPLEX = np.array([[1.0, 0.0], [-0.5, 0.75**0.5], [-0.5, -(0.75**0.5)]])


def _net() -> SparseReLUNetwork:
    return SparseReLUNetwork([1.0, -1.0], [[1.0, 0.0, 1.0], [0.0, 1.0, 1.0]], [0.5, 0.5])


def _exact_networks():
    return complexity.rademacher_exact_networks(POINTS, 2, 1, 1.0, 1.0)


def _low_degree() -> LowDegreeRegressor:
    return LowDegreeRegressor(degree=1).fit(cube.hypercube(3), TABLE)


def _erm(fit: bool = True) -> SparseActivationERM:
    erm = SparseActivationERM(n_neurons=2, k=1, n_restarts=1, max_iter=5, random_state=0)
    return erm.fit(cube.hypercube(3), TABLE) if fit else erm


#: Valid keyword arguments of every public function of :data:`CORE_MODULES` ("module.function").
def _certificate_document() -> dict:
    return {
        "check_id": "x/y",
        "statement_id": "lemma0",
        "paper_ref": "Lemma 0",
        "statement": "s <= 1",
        "finding": "statement-error",
        "counterexample": "s = 2",
        "certificate": {"relation": "<=", "lhs_value": 2.0, "rhs_value": 1.0, "explanation": "2 > 1"},
        "margin": "lhs - rhs in [1, 1] (exact rational arithmetic)",
    }


VALID = {
    "cube.points_from_indices": lambda: dict(indices=[0, 3, 5], n=3),
    "cube.indices_from_points": lambda: dict(X=cube.hypercube(3)),
    "cube.hypercube": lambda: dict(n=3),
    "cube.iter_hypercube": lambda: dict(n=4, chunk=5),
    "combinatorics.monomial_count": lambda: dict(n=10, d=3),
    "constructions.relu": lambda: dict(z=np.array([-1.0, 0.5])),
    "constructions.junta_function": lambda: dict(truth_table=[1.0, -1.0, -1.0, 1.0], variables=[0, 2]),
    "constructions.junta_network": lambda: dict(truth_table=[1.0, -1.0, -1.0, 1.0], variables=[0, 2], n=4, s=4),
    "constructions.parity_truth_table": lambda: dict(p=3),
    "constructions.index_function": lambda: dict(b=2),
    "constructions.index_network": lambda: dict(b=2),
    "constructions.parity01": lambda: dict(Y=cube.hypercube(3), S=[0, 2]),
    "constructions.chi_printed": lambda: dict(Y=cube.hypercube(3), S=[0, 2]),
    "constructions.parity_shifts": lambda: dict(m=3, S=[0, 2], variant="printed"),
    "constructions.parity_identity": lambda: dict(
        Y=cube.hypercube(3), S=[0, 2], shifts=constructions.parity_shifts(3, [0, 2])
    ),
    "constructions.quadratic_lift": lambda: dict(Z=cube.hypercube(3)),
    "constructions.lifted_quadratic_weights": lambda: dict(v=np.array([1.0, -2.0]), a=0.5),
    "constructions.parity_lift_weights": lambda: dict(m=3, S=[0, 2], a=0.5, variant="printed"),
    "constructions.parity_network": lambda: dict(m=3, S=[0, 2], variant="corrected"),
    "constructions.all_subsets": lambda: dict(m=4),
    "constructions.lwr_bits": lambda: dict(q=5),
    "constructions.lwr_function": lambda: dict(w=[1, 3], q=5, p=2),
    "constructions.lwr_encode": lambda: dict(Y=np.array([[0, 4], [3, 1]]), q=5),
    "constructions.lwr_affine_form": lambda: dict(w=[1, 3], q=5),
    "constructions.lwr_linear_form_printed": lambda: dict(w=[1, 3], q=5, Y=constructions.zq_points(5, 2)),
    "constructions.lwr_lambda": lambda: dict(t=np.arange(10), q=5, p=2),
    "constructions.lwr_identity": lambda: dict(t=np.arange(10), q=3, p=2, m=2, variant="corrected"),
    "constructions.lwr_network": lambda: dict(w=[1, 2], q=3, p=2),
    "constructions.zq_points": lambda: dict(q=3, m=2),
    "constructions.appendix_a_network": lambda: dict(y_weights=np.ones((4, 2)), gamma=0.5),
    "constructions.appendix_a_target": lambda: dict(y_weights=np.ones((4, 2))),
    "constructions.unit_gaussian_rows": lambda: dict(rng=np.random.default_rng(0), rows=3, q=4),
    "fitting.fit_exponents": lambda: dict(
        predictors={"n": [1.0, 2.0, 4.0, 8.0]}, response=[1.0, 4.1, 15.9, 64.2], confidence=0.9
    ),
    "fitting.fit_exponents_if_possible": lambda: dict(
        predictors={"n": [1.0, 2.0, 4.0, 8.0]}, response=[1.0, 4.1, 15.9, 64.2], confidence=0.9
    ),
    "fitting.exponent_text": lambda: dict(fit=_fit(), parameter="n"),
    "fitting.factor_status": lambda: dict(ci_low=0.5, ci_high=1.5, claimed=2.0),
    "verify.records.combine_replicates": lambda: dict(replicates=[[_record()], [_record()]]),
    "verify.records.declared_record": lambda: dict(
        declaration={
            "id": "x/y",
            "statement": "toy",
            "says": "a <= b on ${grid}",
            "checks": "a against b",
            "method": "exact",
            "rule": "PASS when a <= b on every instance",
            "finding": None,
            "pinned": False,
        },
        fill={"grid": "n <= 4"},
        claim_id="x",
        paper_ref="Lemma 0",
        variant="",
        instances=1,
        worst_value=0.0,
        worst_value_label="err",
        verdict=verdicts.Verdict.PASS,
    ),
    "verify.verdicts.close": lambda: dict(a=[1.0, 2.0], b=[1.0, 2.0], atol=1e-9, rtol=1e-9),
    "verify.verdicts.verdict_equal": lambda: dict(got=[1.0, 2.0], expected=[1.0, 2.0], atol=1e-9, rtol=1e-9),
    "verify.verdicts.verdict_at_most": lambda: dict(value=1.0, limit=2.0, atol=1e-9, rtol=1e-9),
    "verify.verdicts.verdict_all": lambda: dict(verdicts=[verdicts.Verdict.PASS, verdicts.Verdict.FAIL]),
    "verify.verdicts.loglog_slope": lambda: dict(x=[1.0, 2.0, 4.0], y=[1.0, 4.0, 16.0]),
    "verify.verdicts.has_slope": lambda: dict(x=[1.0, 2.0, 4.0], y=[1.0, 4.0, 16.0]),
    "verify.verdicts.verdict_growth_mc": lambda: dict(
        parameter=[1.0, 2.0, 4.0], ratio_low=[0.9, 0.9, 0.9], ratio_high=[1.1, 1.1, 1.1], slope_tol=0.1
    ),
    "verify.verdicts.verdict_big_o": lambda: dict(parameter=[1.0, 2.0, 4.0], ratios=[1.0, 1.0, 1.0], slope_tol=0.1),
    "publish.ledger.records_to_frame": lambda: dict(records=[_record()]),
    "publish.ledger.certificate_path": lambda: dict(check_id="x/y"),
    "publish.ledger.notebook_path": lambda: dict(claim_id="x"),
    "publish.ledger.certificate_view": lambda: dict(certificate="results/certificates/x/y.json"),
    "publish.ledger.certificate_markdown": lambda: dict(document=_certificate_document()),
    "publish.ledger.certificate_fields": lambda: dict(document=_certificate_document()),
    "publish.ledger.refuted_where": lambda: dict(document=_certificate_document()),
    "publish.ledger.ledger_markdown": lambda: dict(frame=ledger.records_to_frame([_record()]), link_prefix="../"),
    "publish.ledger.severity_order": lambda: dict(record=_record()),
    "bounds.lemma6_halfspace_as": lambda: dict(p=0.3, n=10),
    "bounds.claim21_tail_bound": lambda: dict(ns_rho=0.1, rho=0.5, d=2),
    "bounds.lemma7_sample_complexity": lambda: dict(n=10, d=2, C=1.0, eps=0.1, delta=0.1),
    "bounds.lemma9_terms": lambda: dict(n=10, s=4, k=2, W=1.0, B=1.0),
    "bounds.lemma9_average_sensitivity": lambda: dict(n=10, s=4, k=2, W=1.0, B=1.0),
    "bounds.lemma9_term_U": lambda: dict(k=2, W=1.0),
    "bounds.lemma9_transition_probability": lambda: dict(n=10, s=4, k=2),
    "bounds.lemma10_noise_sensitivity": lambda: dict(rho=0.5, n=10, s=4, k=2, W=1.0, B=1.0),
    "bounds.theorem8_degree": lambda: dict(eps=0.1, n=10, s=4, k=2, W=1.0, B=1.0),
    "bounds.theorem8_one_minus_rho": lambda: dict(eps=0.1, n=10, s=4, k=2, W=1.0, B=1.0),
    "bounds.class_sup_bound": lambda: dict(n=10, k=2, W=1.0, B=1.0),
    "bounds.theorem8_sample_complexity": lambda: dict(eps=0.1, delta=0.1, n=10, s=4, k=2, W=1.0, B=1.0, d=2),
    "bounds.dense_rademacher": lambda: dict(m=100, s=4, W=1.0, B=1.0, R=3.0),
    "bounds.theorem19_rademacher": lambda: dict(m=100, n=9, s=4, W=1.0, B=1.0, R=3.0),
    "bounds.theorem19_proof_terms": lambda: dict(m=100, n=9, s=4, W=1.0, B=1.0, R=3.0, c=1.0),
    "bounds.eq15_rademacher": lambda: dict(m=100, n=9, s=4, k=2, W=1.0, B=1.0, R=3.0),
    "bounds.conjecture20_rademacher": lambda: dict(m=100, s=4, k=2, W=1.0, B=1.0, R=3.0),
    "bounds.theorem17_sample_complexity": lambda: dict(eps=0.1, delta=0.1, n=10, s=4, k=2, W=1.0, B=1.0, R=3.0),
    "bounds.theorem17_covariant_sample_complexity": lambda: dict(
        eps=0.1, delta=0.1, n=10, s=4, k=2, W=1.0, B=1.0, R=3.0
    ),
    "bounds.sign_ambiguity_lower_bound": lambda: dict(p=0.3, delta=0.1),
    "bounds.two_point_sample_lower_bound": lambda: dict(separation=1.0, eps=0.1, delta=0.1),
    "bounds.lemma6_explicit": lambda: dict(p=0.3, n=10),
    "bounds.lemma9_sharp": lambda: dict(k=2, W=1.0),
    "bounds.lemma10_sharp": lambda: dict(rho=0.5, k=2, W=1.0),
    "bounds.theorem8_sharp_degree": lambda: dict(eps=0.1, k=2, W=1.0),
    "bounds.solve_for_m": lambda: dict(a=10.0, b=2.0),
    "bounds.theorem5_rate": lambda: dict(eps=0.1, delta=0.1, n=10, s=4, k=2, C=1.0),
    "bounds.lemma9_proof_V_middle": lambda: dict(n=10, s=4, k=2, W=1.0, B=1.0, c=4.0),
    "bounds.theorem19_rademacher_corrected": lambda: dict(m=100, n=9, s=4, W=1.0, B=1.0, R=3.0),
    "constructions.dense_parity_network": lambda: dict(n=4, S=[0, 2]),
    "constructions.dense_parity01_network": lambda: dict(n=4, S=[0, 2]),
    "constructions.lwr_round": lambda: dict(t=np.arange(6), q=6, p=2),
    "constructions.gf_solve": lambda: dict(A=np.array([[1, 0], [0, 1]]), y=np.array([1, 0]), p=2),
    "constructions.is_prime": lambda: dict(p=97),
    "constructions.affine_fits_zp": lambda: dict(values=np.array([0, 1, 1, 0]), Y=constructions.zq_points(2, 2), p=2),
    "publish.ledger.certificate_document": lambda: dict(record=_record()),
    "bounds.describe": lambda: dict(bound_id=sorted(bounds.BOUNDS)[0]),
    "analysis.fwht": lambda: dict(values=np.array([1.0, -1.0, 2.0, 0.5])),
    "analysis.fwht_reference": lambda: dict(values=np.array([1.0, -1.0, 2.0, 0.5])),
    "analysis.walsh_coefficients": lambda: dict(values=TABLE),
    "analysis.level_weights": lambda: dict(values=TABLE),
    "analysis.fourier_tail": lambda: dict(values=TABLE, d=1),
    "analysis.influences": lambda: dict(values=TABLE),
    "analysis.average_sensitivity": lambda: dict(values=TABLE),
    "analysis.noise_sensitivity_from_level_weights": lambda: dict(weights=[0.25, 0.5, 0.25], rho=0.5),
    "analysis.noise_sensitivity": lambda: dict(values=TABLE, rho=0.5),
    "analysis.average_sensitivity_mc": lambda: dict(
        f=_net(),
        n=3,
        n_samples=50,
        rng=np.random.default_rng(0),
        confidence=0.9,
        method="all_coordinates",
        chunk_size=16,
    ),
    "analysis.noise_sensitivity_mc": lambda: dict(
        f=_net(), n=3, rho=0.5, n_samples=50, rng=np.random.default_rng(0), confidence=0.9, chunk_size=16
    ),
    "networks.SparseReLUNetwork": lambda: dict(u=[1.0, -1.0], W=[[1.0, 0.0, 1.0], [0.0, 1.0, 1.0]], b=[0.5, 0.5]),
    "networks.SparseReLUNetwork.__call__": lambda: dict(self=_net(), X=cube.hypercube(3)),
    "networks.SparseReLUNetwork.preactivations": lambda: dict(self=_net(), X=cube.hypercube(3)),
    "networks.SparseReLUNetwork.active_counts": lambda: dict(self=_net(), X=cube.hypercube(3)),
    "networks.SparseReLUNetwork.evaluate": lambda: dict(self=_net(), X=cube.hypercube(3)),
    "networks.SparseReLUNetwork.scale_W": lambda: dict(self=_net()),
    "networks.SparseReLUNetwork.scale_B": lambda: dict(self=_net()),
    "networks.SparseReLUNetwork.cube_halves": lambda: dict(self=_net()),
    "networks.SparseReLUNetwork.cube_preactivations": lambda: dict(self=_net(), chunk=3),
    "networks.SparseReLUNetwork.cube_preactivation_table": lambda: dict(self=_net(), j=1),
    "networks.check_network": lambda: dict(net=_net()),
    "networks.SparseReLUNetwork.max_active": lambda: dict(self=_net(), n=3),
    "networks.SparseReLUNetwork.truth_table": lambda: dict(self=_net(), n=3, chunk=3),
    "networks.max_active_on": lambda: dict(network=_net(), points=[cube.hypercube(3)]),
    "families.certify_sparsity": lambda: dict(net=_net(), rng=np.random.default_rng(0), n_samples=100),
    "families.rescale": lambda: dict(net=_net(), W=2.0, B=2.0 * 0.5 / math.sqrt(2.0)),
    "families.densest_threshold": lambda: dict(Wmat=_net().W, k=1, points=[cube.hypercube(3)]),
    "families.repair_sparsity": lambda: dict(net=_net(), k=1),
    "families.random_sparse_network": lambda: dict(
        n=3, s=2, k=1, rng=np.random.default_rng(0), weights="gaussian", n_samples=100
    ),
    "families.bucket_network": lambda: dict(n=4, s=4, k=2, rng=np.random.default_rng(0)),
    "families.make_ratio_objective": lambda: dict(kind="lemma10", k=1, rho=0.5),
    "families.adversarial_search": lambda: dict(
        objective=families.make_ratio_objective("edge", 1),
        n=3,
        s=2,
        k=1,
        rng=np.random.default_rng(0),
        restarts=2,
        iterations=3,
        step=0.3,
        init=[families.repair_sparsity(_net(), 1)],
    ),
    "sensitivity.lemma9_decomposition": lambda: dict(net=_net()),
    "sensitivity.lemma9_hoeffding_level": lambda: dict(net=_net(), c=1.0, max_subsets=100),
    "sensitivity.halfspace_indicator": lambda: dict(w=[1.0, -1.0, 0.5], b=0.25),
    "sensitivity.lemma6_measure": lambda: dict(w=[1.0, -1.0, 0.5], b=0.25),
    "sensitivity.lemma6_identity_check": lambda: dict(w=[1.0, -1.0, 0.5], b=0.25),
    "sensitivity.halfspace_family": lambda: dict(
        n=3, rng=np.random.default_rng(0), kind="random-gaussian", thresholds=2, draws=1
    ),
    "sensitivity.bucket_count": lambda: dict(rho=0.5),
    "sensitivity.bucket_coupling_noise_sensitivity": lambda: dict(
        net=_net(), rho=0.5, rng=np.random.default_rng(0), exact=True, n_samples=100, confidence=0.9
    ),
    "complexity.halfspace_cells": lambda: dict(X=POINTS, max_cells=20, homogeneous=False),
    "complexity.simplex.regular_simplex": lambda: dict(m=4),
    "complexity.simplex.simplex_lower_bound": lambda: dict(m=4, W=1.0, B=0.5),
    "complexity.simplex.simplex_networks": lambda: dict(X=SIMPLEX, zetas=[[1.0, -1.0, 1.0]], W=1.0, B=0.5),
    "bounds.memoriser_sample_complexity": lambda: dict(n=2, C=1.0, eps=0.1, delta=0.1),
    "complexity.class_cells": lambda: dict(X=POINTS, W=1.0, B=1.0, max_cells=20),
    "complexity.cells.cover_cell_bound": lambda: dict(m=3, n=2, homogeneous=False),
    "complexity.cells.check_cell_work": lambda: dict(m=3, n=2, homogeneous=False, max_cells=20, what="cells"),
    "complexity.cell_value": lambda: dict(X=POINTS, zeta=ZETA, mask=[True, False, True], W=1.0, B=1.0),
    "complexity.best_assignment": lambda: dict(
        masks=[[True, False, True], [False, True, False]], values=[1.0, 0.5], s=2, k=1
    ),
    "complexity.sup_exact": lambda: dict(X=POINTS, zeta=ZETA, s=2, k=1, W=1.0, B=1.0),
    "complexity.proof_intermediate_quantity": lambda: dict(X=POINTS, zeta=ZETA, s=2, k=1, W=1.0, B=1.0, split=False),
    "complexity.rademacher_exact": lambda: dict(
        X=POINTS, s=2, k=1, W=1.0, B=1.0, n_zeta=2, rng=np.random.default_rng(0), confidence=0.9, max_cells=20
    ),
    "complexity.proof_intermediate": lambda: dict(
        X=POINTS,
        s=2,
        k=1,
        W=1.0,
        B=1.0,
        n_zeta=2,
        rng=np.random.default_rng(0),
        confidence=0.9,
        split=False,
        max_cells=20,
    ),
    "complexity.rademacher_exact_networks": lambda: dict(X=POINTS, s=2, k=1, W=1.0, B=1.0, max_cells=20),
    "complexity.rademacher_brackets": lambda: dict(X=POINTS, classes=[(2, 1)], W=1.0, B=1.0, exact=True, max_cells=20),
    "complexity.exact.ExactNetworks.index": lambda: dict(self=_exact_networks(), zeta=[1.0, 1.0, 1.0]),
    "complexity.sup_lower_bound": lambda: dict(
        X=POINTS,
        zeta=ZETA,
        s=2,
        k=1,
        W=1.0,
        B=1.0,
        rng=np.random.default_rng(0),
        restarts=1,
        iterations=2,
        n_random=1,
        polish=False,
        rounds=1,
    ),
    "complexity.sup_lower_bounds": lambda: dict(
        X=POINTS,
        zetas=[ZETA],
        s=2,
        k=1,
        W=1.0,
        B=1.0,
        rng=np.random.default_rng(0),
        restarts=1,
        iterations=2,
        n_random=1,
        polish=False,
        rounds=1,
    ),
    "complexity.rademacher_lower_bound": lambda: dict(
        X=POINTS,
        s=2,
        k=1,
        W=1.0,
        B=1.0,
        n_zeta=2,
        rng=np.random.default_rng(0),
        restarts=1,
        iterations=2,
        n_random=1,
        confidence=0.9,
        polish=False,
        rounds=1,
        return_networks=False,
    ),
    "complexity.paper_bounds": lambda: dict(m=100, n=9, s=4, k=2, W=1.0, B=1.0, R=3.0),
    "complexity.sample_distribution": lambda: dict(kind="uniform", m=3, n=2, rng=np.random.default_rng(0)),
    "complexity.network_objective": lambda: dict(net=_net(), X=cube.hypercube(3), zeta=np.ones(8)),
    "complexity.in_class": lambda: dict(net=_net(), X=cube.hypercube(3), s=2, k=2, W=2.0, B=1.0),
    "learners.monomials": lambda: dict(n=4, d=2),
    "learners.low_degree.monomial_count": lambda: dict(n=4, d=2),
    "learners.LowDegreeRegressor": lambda: dict(
        degree=2, method="regression", block_size=None, ridge=0.0, moments="auto"
    ),
    "learners.LowDegreeRegressor.fit": lambda: dict(self=LowDegreeRegressor(degree=1), X=cube.hypercube(3), y=TABLE),
    "learners.LowDegreeRegressor.predict": lambda: dict(self=_low_degree(), X=cube.hypercube(3)),
    "learners.LowDegreeRegressor.predict_cube": lambda: dict(self=_low_degree(), n=3),
    "learners.LowDegreeRegressor.exact_test_error": lambda: dict(self=_low_degree(), target_values=TABLE),
    "learners.LowDegreeRegressor.get_params": lambda: dict(self=LowDegreeRegressor(), deep=True),
    "learners.LowDegreeRegressor.set_params": lambda: dict(self=LowDegreeRegressor(), degree=1),
    "learners.SparseActivationERM": lambda: dict(
        n_neurons=2,
        k=1,
        W=1.0,
        B=1.0,
        n_restarts=1,
        max_iter=5,
        learning_rate=0.05,
        batch_size=None,
        random_state=0,
        enforce_sparsity=True,
        sparsity_penalty=0.3,
    ),
    "learners.SparseActivationERM.fit": lambda: dict(
        self=_erm(fit=False), X=cube.hypercube(3), y=TABLE, support=None, sample_weight=None
    ),
    "learners.SparseActivationERM.predict": lambda: dict(self=_erm(), X=cube.hypercube(3)),
    "learners.SparseActivationERM.loss": lambda: dict(self=_erm(), X=cube.hypercube(3), y=TABLE),
    "learners.SparseActivationERM.score": lambda: dict(self=_erm(), X=cube.hypercube(3), y=TABLE),
    "learners.SparseActivationERM.sparsity_on": lambda: dict(self=_erm(), X=cube.hypercube(3)),
    "learners.SparseActivationERM.get_params": lambda: dict(self=_erm(fit=False), deep=True),
    "learners.SparseActivationERM.set_params": lambda: dict(self=_erm(fit=False), max_iter=3),
    "verify.verdicts.Verdict": lambda: dict(value="PASS"),
    "verify.records.CheckRecord.to_dict": lambda: dict(self=_record()),
    "verify.records.CheckRecord.from_dict": lambda: dict(data=_record().to_dict()),
    "verify.records.CheckRecord.with_evidence": lambda: dict(self=_record(), paths=["results/x.csv"]),
}


def _is_result_container(cls) -> bool:
    """Dataclasses and named tuples hold results the library builds; their constructors are not API entry points."""
    return dataclasses.is_dataclass(cls) or issubclass(cls, tuple)


def _public_names(module) -> list[str]:
    """``module.__all__`` (where defined) and every public name defined in ``module`` itself."""
    defined = [
        name
        for name, obj in vars(module).items()
        if not name.startswith("_") and getattr(obj, "__module__", None) == module.__name__
    ]
    return list(dict.fromkeys([*getattr(module, "__all__", []), *defined]))


def _modules(module) -> list:
    """``module`` and, for a package, its public submodules (recursively)."""
    found = [module]
    if hasattr(module, "__path__"):
        for info in pkgutil.iter_modules(module.__path__):
            if not info.name.startswith("_"):
                found += _modules(importlib.import_module(f"{module.__name__}.{info.name}"))
    return found


def _methods(cls) -> dict[str, object]:
    """Public methods of ``cls`` (and ``__call__``) defined in sparseact, inherited ones included.

    Instance methods are taken unbound (``self`` is a keyword argument); class and static methods bound.
    """
    found = {}
    for name in dir(cls):
        if name.startswith("_") and name != "__call__":
            continue
        attr = inspect.getattr_static(cls, name)
        if isinstance(attr, (classmethod, staticmethod)) and (
            getattr(attr.__func__, "__module__", None) or ""
        ).startswith("sparseact."):
            found[name] = getattr(cls, name)
        elif inspect.isfunction(attr) and attr.__module__.startswith("sparseact."):
            found[name] = attr
    return found


def public_functions() -> dict[str, object]:
    """``"module.name"`` -> callable, for every public function, class and method of :data:`CORE_MODULES`.

    Keys are the shortest public path (``complexity.in_class``, not ``complexity._common.in_class``);
    a public class contributes its constructor (unless it is a result container) and its public methods
    (``"networks.SparseReLUNetwork.truth_table"``, called with ``self`` as a keyword argument).
    """
    found, seen = {}, set()
    for top in CORE_MODULES:
        for module in _modules(top):
            short = module.__name__.removeprefix("sparseact.")
            for name in _public_names(module):
                obj = getattr(module, name)
                if id(obj) in seen or not (inspect.isfunction(obj) or inspect.isclass(obj)):
                    continue
                seen.add(id(obj))
                if inspect.isfunction(obj):
                    found[f"{short}.{name}"] = obj
                    continue
                if not _is_result_container(obj):
                    found[f"{short}.{name}"] = obj
                for method_name, method in _methods(obj).items():
                    found[f"{short}.{name}.{method_name}"] = method
    return found


FUNCTIONS = public_functions()
FUZZED = sorted(set(FUNCTIONS) - FILE_IO)

#: Bad and edge values, for any argument.
BAD_VALUES = st.sampled_from(
    [
        float("nan"),
        float("inf"),
        -float("inf"),
        -1,
        0,
        0.5,
        -0.5,
        1e300,
        2**70,
        True,
        None,
        "x",
        [],
        [float("nan")],
        [0.5, 1.5],
        [-1, -2],
        np.array([]),
        np.full((2, 2), np.nan),
        np.zeros((0, 3)),
        {"a": 1},
        10**6,
    ]
)


#: Functions whose results may be +inf by their documentation, with the reason; NaN and -inf stay errors there too.
DOCUMENTED_INF = {
    "bounds.theorem8_one_minus_rho": "a constraint whose denominator is 0 (W = 0, B = 0, s = 1) is absent: +inf",
}


#: Functions whose results may hold NaN by their documentation, with the reason; -inf stays an error.
DOCUMENTED_NAN = {
    "complexity.paper_bounds": "a bound is NaN where the printed formula is not real (eq1 for k > 1, a negative log "
    "under a root); sparseact.claims.theorem19 reads these NaN entries",
}

#: Functions that hold a measured number as it is, NaN and infinities included, with the reason.
PASSED_THROUGH = {
    "verify.records.declared_record": "a record's worst_value is what the assembly measured: NaN when no instance "
    "of the check's regime was measured (an empty column's maximum, sparseact.claims.lemma9.verdicts), infinite "
    "for a ratio over zero (a forced failure, tests/test_claim_lemma9.py)",
}


def assert_finite(result, where: str) -> None:
    """Every number reachable in ``result`` is finite (or +inf, in :data:`DOCUMENTED_INF`; NaN in :data:`DOCUMENTED_NAN`;
    any real number in :data:`PASSED_THROUGH`)."""
    if where.startswith(tuple(PASSED_THROUGH)) and isinstance(result, (float, np.floating)):
        return
    if where.startswith(tuple(DOCUMENTED_NAN)) and isinstance(result, (float, np.floating)):
        assert result != -np.inf, f"{where}: -inf"
        return
    if where.startswith(tuple(DOCUMENTED_INF)) and isinstance(result, (float, np.floating, np.ndarray)):
        values = np.asarray(result, dtype=np.float64)
        assert not np.any(np.isnan(values) | (values == -np.inf)), f"{where}: NaN or -inf"
        return
    if (
        result is None
        or isinstance(result, (str, bool, Path, verdicts.Verdict))
        or (callable(result) and not isinstance(result, SparseReLUNetwork))
    ):
        return
    if isinstance(result, SparseReLUNetwork):
        for array in (result.u, result.W, result.b):
            assert np.all(np.isfinite(array)), where
    elif isinstance(result, (int, float, np.number)):
        assert math.isfinite(float(result)), f"{where}: {result}"
    elif isinstance(result, np.ndarray):
        if result.dtype.kind in "biufc":
            assert np.all(np.isfinite(result)), f"{where}: non-finite entries"
    elif isinstance(result, pd.DataFrame):
        numeric = result.select_dtypes("number")
        assert np.all(np.isfinite(numeric.to_numpy(dtype=float))), f"{where}: non-finite cells"
    elif isinstance(result, dict):
        for value in result.values():
            assert_finite(value, where)
    elif isinstance(result, (list, tuple)):
        for value in result:
            assert_finite(value, where)
    elif dataclasses.is_dataclass(result):
        assert_finite(dataclasses.asdict(result), where)


class _Hang(Exception):
    pass


def _alarm(signum, frame):
    raise _Hang()


def call_with_limit(function, kwargs: dict, where: str):
    """``function(**kwargs)``, failing the test on a hang (over :data:`CALL_SECONDS`) or a MemoryError."""
    previous = signal.signal(signal.SIGALRM, _alarm)
    signal.alarm(CALL_SECONDS)
    try:
        return function(**kwargs)
    except _Hang:
        pytest.fail(f"{where}: no answer within {CALL_SECONDS} s")
    except MemoryError:
        pytest.fail(f"{where}: MemoryError (no size check before allocating)")
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)


@pytest.fixture(scope="module", autouse=True)
def compiled_kernels():
    """Compile (or load) the numba kernels before any call is timed: a first compilation takes minutes."""
    from sparseact import kernels

    kernels.compile_kernels()


def test_every_public_function_has_valid_arguments():
    missing = sorted(set(FUZZED) - set(VALID))
    assert not missing, f"add valid arguments to tests/test_api_fuzz.py VALID for: {', '.join(missing)}"
    assert not set(VALID) - set(FUNCTIONS), "VALID names functions that no longer exist"


def call(name: str, kwargs: dict, where: str):
    """Call the function ``name``, within the limits of :func:`call_with_limit`.

    An estimator class is constructed and then fitted (see :data:`FIT_DATA`); a generator is
    advanced to its first item (a bad argument must be refused by then at the latest).
    """
    function = FUNCTIONS[name]
    if inspect.isclass(function) and hasattr(function, "fit"):
        return call_with_limit(lambda **kw: function(**kw).fit(*FIT_DATA), kwargs, where)

    def first_item(**kw):
        result = function(**kw)
        return next(result, None) if inspect.isgenerator(result) else result

    return call_with_limit(first_item, kwargs, where)


#: Estimators check their parameters on first use, like scikit-learn's: a constructed one is fitted to this.
FIT_DATA = (np.array([[1.0, 1.0, -1.0], [-1.0, 1.0, 1.0], [1.0, -1.0, -1.0]]), np.array([1.0, -1.0, 0.5]))


@pytest.mark.parametrize("name", FUZZED)
def test_valid_arguments_give_finite_results(name):
    assert_finite(call(name, VALID[name](), name), name)


def _has_arguments(name: str) -> bool:
    """Whether ``name`` takes an argument besides ``self`` (one without is driven by the valid-arguments test)."""
    return any(parameter != "self" for parameter in inspect.signature(FUNCTIONS[name]).parameters)


@pytest.mark.parametrize("name", [name for name in FUZZED if _has_arguments(name)])
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_bad_values_are_refused_or_give_finite_results(name, data):
    kwargs = VALID[name]()
    argument = data.draw(st.sampled_from(sorted(set(kwargs) - {"self"})), label="argument")
    kwargs[argument] = data.draw(BAD_VALUES, label="value")
    where = f"{name}({argument}={kwargs[argument]!r})"
    try:
        result = call(name, kwargs, where)
    except (ValueError, TypeError, KeyError):
        return
    assert_finite(result, where)


#: Finite numbers whose arithmetic leaves float64: huge scales and tiny ones (divided by, or squared).
EXTREME = st.floats(1e100, 1.7e308) | st.floats(-1.7e308, -1e100) | st.floats(1e-308, 1e-100)


def _refused_naming(call_it, names, where: str) -> None:
    """``call_it()`` gives a finite result, or a ValueError; an overflow's names every argument in ``names``."""
    try:
        result = call_it()
    except ValueError as exc:
        if "exceeds float64" in str(exc):
            assert "\n" not in str(exc), where
            for name in names:
                assert f"{name}=" in str(exc), f"{where}: the overflow message does not name {name}: {exc}"
        return
    assert_finite(result, where)


@pytest.mark.parametrize("name", [name for name in FUZZED if name.startswith("bounds.") and _has_arguments(name)])
@settings(max_examples=30, deadline=None)
@given(value=EXTREME, data=st.data())
def test_bounds_on_extreme_finite_arguments_refuse_the_overflow_naming_them(name, value, data):
    """A bound whose finite arguments overflow float64 is a one-line ValueError naming them, never inf or NaN."""
    kwargs = VALID[name]()
    argument = data.draw(st.sampled_from(sorted(kwargs)), label="argument")
    kwargs[argument] = value
    _refused_naming(lambda: call(name, kwargs, name), [argument], f"{name}({argument}={value!r})")


@settings(max_examples=60, deadline=None)
@given(u=EXTREME, w=EXTREME, b=EXTREME, x=EXTREME, y=EXTREME)
def test_networks_and_regressors_on_extreme_finite_values_refuse_the_overflow(u, w, b, x, y):
    """A network's output and scales, and a regressor's fit and predictions, on finite values that overflow float64:
    a one-line ValueError naming the arrays, never inf or NaN."""
    net = SparseReLUNetwork([u, 1.0], [[w, w], [1.0, w]], [b, 0.0])
    X = np.array([[x, 1.0], [1.0, -x]])
    for method in ("__call__", "preactivations", "evaluate"):
        _refused_naming(lambda m=method: getattr(net, m)(X), ["u", "W", "b", "X"], method)
    _refused_naming(net.scale_W, ["u", "W"], "scale_W")
    _refused_naming(net.scale_B, ["u", "b"], "scale_B")
    _refused_naming(net.truth_table, ["u", "W", "b"], "truth_table")
    labels = np.array([y, y, -y, y, y, y, -y, y])
    for params in ({}, {"ridge": 0.5}, {"method": "correlation", "moments": "blocks"}):
        model = LowDegreeRegressor(degree=2, **params)
        _refused_naming(
            lambda m=model: m.fit(cube.hypercube(3), labels).predict(cube.hypercube(3)), ["y"], f"{model!r}"
        )


@settings(max_examples=60, deadline=None)
@given(q=st.integers(2, 5), m=st.integers(1, 2), data=st.data())
def test_lwr_network_agrees_with_lwr_function_on_every_input_it_accepts(q, m, data):
    p = data.draw(st.integers(1, q), label="p")
    w = data.draw(st.lists(st.integers(0, q - 1), min_size=m, max_size=m), label="w")
    network, embedding = constructions.lwr_network(w, q, p)
    Y = constructions.zq_points(q, m)
    np.testing.assert_allclose(network(embedding(Y)), constructions.lwr_function(w, q, p)(Y), atol=1e-9)


@pytest.mark.parametrize("w,q,p", [([3, -1], 2, 2), ([0, 0.5], 2, 2), ([1, 1], 2, 0), ([2, 1], 2, 2), ([1, 1], 2, 3)])
def test_lwr_refuses_what_it_cannot_honour(w, q, p):
    for function in (constructions.lwr_function, constructions.lwr_network):
        with pytest.raises(ValueError, match=r"^(w|p) "):
            function(w, q, p)


def _gaussian(m: int, n: int) -> np.ndarray:
    return np.random.default_rng(0).standard_normal((m, n))


#: The issue's probes: each call is refused with ``ValueError`` before any work, the message matching.
PROBES = {
    "lwr_network w outside Z_q": (lambda: constructions.lwr_network([3, -1], 2, 2), r"^w "),
    "lwr_network non-integer w": (lambda: constructions.lwr_network([0, 0.5], 2, 2), r"^w .*not truncated"),
    "lwr_network p = 0": (lambda: constructions.lwr_network([1, 1], 2, 0), r"^p "),
    "points_from_indices non-integer": (lambda: cube.points_from_indices([0.5], 3), r"^indices .*not truncated"),
    "fit_exponents collinear": (
        lambda: fitting.fit_exponents(
            {"a": [1.0, 2.0, 4.0, 8.0], "b": [1.0, 4.0, 16.0, 64.0]}, [3.0, 12.0, 48.0, 192.0]
        ),
        r"collinear",
    ),
    "paper_bounds k > s": (lambda: complexity.paper_bounds(100, 9, 2, 3, 1.0, 1.0, 3.0), r"^k must be <= s"),
    "in_class k > s": (lambda: complexity.in_class(_net(), cube.hypercube(3), 1, 2, 1.0, 1.0), r"^k must be <= s"),
    "adversarial_search NaN objective": (
        lambda: families.adversarial_search(
            lambda net: float("nan"), 3, 2, 1, np.random.default_rng(0), restarts=1, iterations=2
        ),
        r"no finite value",
    ),
    "verdict_equal empty": (lambda: verdicts.verdict_equal([], []), r"empty"),
    "verdict_at_most two infinities": (lambda: verdicts.verdict_at_most(math.inf, math.inf), r"both infinite"),
    "hypercube(28)": (lambda: cube.hypercube(28), r"needs 62 GiB, above the memory limit"),
    "all_subsets(40)": (lambda: constructions.all_subsets(40), r"GiB, above the memory limit"),
    "monomials(60, 30)": (lambda: learners.monomials(60, 30), r"GiB, above the memory limit"),
    # probe11: both allocated the weight matrix first (MemoryError)
    "random_sparse_network 10^5 x 10^4": (
        lambda: families.random_sparse_network(10**5, 10**4, 1, np.random.default_rng(0)),
        r"the 10000 x 100000 weight matrix needs 7.45 GiB, above the memory limit",
    ),
    "bucket_network 10^6 x 10^5": (
        lambda: families.bucket_network(10**6, 10**5, 1, np.random.default_rng(0)),
        r"GiB, above the memory limit",
    ),
    "halfspace_cells 200 x 10": (lambda: complexity.halfspace_cells(_gaussian(200, 10)), r"LPs, above the limit"),
    "rademacher_exact m = 10, n = 60": (
        lambda: complexity.rademacher_exact(_gaussian(10, 60), 2, 1, 1.0, 1.0),
        r"cell solves",
    ),
    "lwr_identity m = 10^6": (lambda: constructions.lwr_identity(np.arange(10), 3, 2, 10**6), r"terms, above the work"),
    # the directions a lower-bound search scores: 10^6 random ones per placement (or s = 10^6 neurons) took 13-40 s on
    # 3 points before they were counted
    "sup_lower_bounds n_random = 10^6": (
        lambda: complexity.sup_lower_bounds(
            POINTS, [ZETA], 2, 1, 1.0, 1.0, np.random.default_rng(0), restarts=1, iterations=2, n_random=10**6
        ),
        r"needs 28000364 candidate directions, above the work limit",
    ),
    "sup_lower_bounds s = 10^6": (
        lambda: complexity.sup_lower_bounds(
            POINTS, [ZETA], 10**6, 1, 1.0, 1.0, np.random.default_rng(0), 1, 2, n_random=1, rounds=1
        ),
        r"needs 98000000 candidate directions, above the work limit",
    ),
    "sup_lower_bounds n_random = 10^6 on n = 1000": (
        lambda: complexity.sup_lower_bounds(
            _gaussian(3, 1000), [ZETA], 1, 1, 1.0, 1.0, np.random.default_rng(0), 1, 1, n_random=10**6, rounds=1
        ),
        r"candidate directions .* GiB, above the memory limit",
    ),
}


@pytest.mark.parametrize("probe", list(PROBES))
def test_issue_probes_are_refused_up_front(probe):
    function, message = PROBES[probe]
    with pytest.raises(ValueError, match=message):
        call_with_limit(function, {}, probe)
