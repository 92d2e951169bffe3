"""Every public function of the core modules, driven with bad and edge values (hypothesis).

Each call either returns a finite result (every number in it finite) or raises ``ValueError``,
``TypeError`` or ``KeyError`` (for lookups by name), within :data:`CALL_SECONDS` and without a
``MemoryError``. The functions are found by introspection; :data:`VALID` gives each one valid
arguments, and one argument at a time is replaced by a bad or edge value. A new public function
without an entry in :data:`VALID` fails :func:`test_every_public_function_has_valid_arguments`.
"""

from __future__ import annotations

import dataclasses
import inspect
import math
import signal
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sparseact import bounds, combinatorics, constructions, cube, fitting, ledger
from sparseact.networks import SparseReLUNetwork

CORE_MODULES = (cube, combinatorics, constructions, fitting, ledger, bounds)
#: Longest a single call may take before it counts as a hang (a call within the memory limit may
#: take half a minute on a loaded 2-core machine, e.g. lwr_identity on 10 values times 9e6 shifts).
CALL_SECONDS = 60
#: Functions that read or write files: exercised by the ledger and workflow tests, not fuzzed here.
FILE_IO = {"ledger.load_records", "ledger.write_certificates", "ledger.write_ledger"}


def _record() -> ledger.ClaimRecord:
    return ledger.ClaimRecord(claim_id="x", check_id="x/y", paper_ref="Lemma 0", statement="s", check="c",
                              variant="", method="exact", instances=1, worst_value=0.0, worst_value_label="err",
                              verdict=ledger.Verdict.PASS)


def _fit():
    x = np.array([1.0, 2.0, 4.0, 8.0, 16.0])
    return fitting.fit_exponents({"n": x}, 3.0 * x**2 * (1 + 0.01 * np.array([1, -1, 1, -1, 1])))


#: Valid keyword arguments of every public function of :data:`CORE_MODULES` ("module.function").
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
    "constructions.parity_identity": lambda: dict(Y=cube.hypercube(3), S=[0, 2],
                                                  shifts=constructions.parity_shifts(3, [0, 2])),
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
    "fitting.fit_exponents": lambda: dict(predictors={"n": [1.0, 2.0, 4.0, 8.0]}, response=[1.0, 4.1, 15.9, 64.2],
                                          confidence=0.9),
    "fitting.fit_exponents_if_possible": lambda: dict(predictors={"n": [1.0, 2.0, 4.0, 8.0]},
                                                      response=[1.0, 4.1, 15.9, 64.2], confidence=0.9),
    "fitting.exponent_text": lambda: dict(fit=_fit(), parameter="n"),
    "fitting.factor_status": lambda: dict(ci_low=0.5, ci_high=1.5, claimed=2.0),
    "ledger.combine_replicates": lambda: dict(replicates=[[_record()], [_record()]]),
    "ledger.close": lambda: dict(a=[1.0, 2.0], b=[1.0, 2.0], atol=1e-9, rtol=1e-9),
    "ledger.verdict_equal": lambda: dict(got=[1.0, 2.0], expected=[1.0, 2.0], atol=1e-9, rtol=1e-9),
    "ledger.verdict_at_most": lambda: dict(value=1.0, limit=2.0, atol=1e-9, rtol=1e-9),
    "ledger.verdict_all": lambda: dict(verdicts=[ledger.Verdict.PASS, ledger.Verdict.FAIL]),
    "ledger.loglog_slope": lambda: dict(x=[1.0, 2.0, 4.0], y=[1.0, 4.0, 16.0]),
    "ledger.verdict_growth_mc": lambda: dict(parameter=[1.0, 2.0, 4.0], ratio_low=[0.9, 0.9, 0.9],
                                             ratio_high=[1.1, 1.1, 1.1], slope_tol=0.1),
    "ledger.verdict_big_o": lambda: dict(parameter=[1.0, 2.0, 4.0], ratios=[1.0, 1.0, 1.0], slope_tol=0.1),
    "ledger.records_to_frame": lambda: dict(records=[_record()]),
    "ledger.certificate_path": lambda: dict(check_id="x/y"),
    "ledger.ledger_markdown": lambda: dict(frame=ledger.records_to_frame([_record()]), link_prefix="../"),
    "ledger.severity_order": lambda: dict(record=_record()),
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
    "bounds.theorem17_covariant_sample_complexity": lambda: dict(eps=0.1, delta=0.1, n=10, s=4, k=2, W=1.0, B=1.0,
                                                                 R=3.0),
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
    "constructions.affine_fits_zp": lambda: dict(values=np.array([0, 1, 1, 0]), Y=constructions.zq_points(2, 2), p=2),
    "ledger.certificate_document": lambda: dict(record=_record()),
    "bounds.describe": lambda: dict(bound_id=sorted(bounds.BOUNDS)[0]),
}


def public_functions() -> dict[str, object]:
    """``"module.function"`` -> function, for every public function defined in :data:`CORE_MODULES`."""
    found = {}
    for module in CORE_MODULES:
        short = module.__name__.rpartition(".")[2]
        for name, obj in vars(module).items():
            if inspect.isfunction(obj) and not name.startswith("_") and obj.__module__ == module.__name__:
                found[f"{short}.{name}"] = obj
    return found


FUNCTIONS = public_functions()
FUZZED = sorted(set(FUNCTIONS) - FILE_IO)

#: Bad and edge values, for any argument.
BAD_VALUES = st.sampled_from([
    float("nan"), float("inf"), -float("inf"), -1, 0, 0.5, -0.5, 1e300, 2**70, True, None, "x", [], [float("nan")],
    [0.5, 1.5], [-1, -2], np.array([]), np.full((2, 2), np.nan), np.zeros((0, 3)), {"a": 1}, 10**6,
])


#: Modules whose numbers may be +inf by their documentation: sparseact.bounds returns +inf where a
#: bound overflows float64 (``n**d``, huge ``W`` or ``B``) or is vacuous (theorem8_one_minus_rho at
#: W = B = 0), and tests/test_bounds.py expects it; NaN and -inf stay errors there too.
INF_MODULES = ("bounds.",)


def assert_finite(result, where: str) -> None:
    """Every number reachable in ``result`` is finite (or +inf, in :data:`INF_MODULES`)."""
    if where.startswith(INF_MODULES) and isinstance(result, (float, np.floating, np.ndarray)):
        values = np.asarray(result, dtype=np.float64)
        assert not np.any(np.isnan(values) | (values == -np.inf)), f"{where}: NaN or -inf"
        return
    if result is None or isinstance(result, (str, bool, Path, ledger.Verdict)) or callable(result) \
            and not isinstance(result, SparseReLUNetwork):
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
    elif inspect.isgenerator(result):
        assert_finite(next(result, None), where)
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


def test_every_public_function_has_valid_arguments():
    missing = sorted(set(FUZZED) - set(VALID))
    assert not missing, f"add valid arguments to tests/test_api_fuzz.py VALID for: {', '.join(missing)}"
    assert not set(VALID) - set(FUNCTIONS), "VALID names functions that no longer exist"


@pytest.mark.parametrize("name", FUZZED)
def test_valid_arguments_give_finite_results(name):
    assert_finite(call_with_limit(FUNCTIONS[name], VALID[name](), name), name)


#: Not yet guarded (issue 24 left open): skipped with the reason, so pytest -ra lists them.
NOT_YET_GUARDED = {
    "constructions.lwr_identity": "work grows as len(t) q^2 m within the memory limit: m = 10^6 takes over a minute "
                                  "on a loaded machine, and there is no time limit yet",
    "ledger.loglog_slope": "returns NaN for fewer than two usable points, which verdict_big_o turns into INCONCLUSIVE",
}


@pytest.mark.parametrize("name", [pytest.param(name, marks=pytest.mark.skip(reason=f"not yet guarded: {NOT_YET_GUARDED[name]}"))
                                  if name in NOT_YET_GUARDED else name for name in FUZZED])
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_bad_values_are_refused_or_give_finite_results(name, data):
    kwargs = VALID[name]()
    argument = data.draw(st.sampled_from(sorted(kwargs)), label="argument")
    kwargs[argument] = data.draw(BAD_VALUES, label="value")
    where = f"{name}({argument}={kwargs[argument]!r})"
    try:
        result = call_with_limit(FUNCTIONS[name], kwargs, where)
    except (ValueError, TypeError, KeyError):
        return
    assert_finite(result, where)


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
