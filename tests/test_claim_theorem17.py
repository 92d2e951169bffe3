"""Claim ``theorem17``: the stages on a tiny block, the known verdicts, independence, closed forms.

The ERM learner's own tests stay in ``tests/test_erm.py``.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from sparseact import bounds
from sparseact.claims import generate_point, get_claim, stage_claim, theorem17
from sparseact.claims.theorem17 import compute, verdicts
from sparseact.learners import SparseActivationERM
from sparseact.runtime.config import ConfigError
from sparseact.runtime.datafiles import load_arrays
from sparseact.verify.verdicts import Verdict

SEED = 5
REPLICATES = 2
BLOCK = {
    "index_b": [1],
    "junta_n": 4,
    "junta_p": [2],
    "bias": 0.7,
    "sample_sizes": [16, 32],
    "seeds": 2,
    "width_factor": 2,
    "restarts": 1,
    "max_iter": 60,
    "degree": 2,
    "eps": 0.02,
    "delta": 0.2,
    "bound_multiples": [1],
    "bound_seeds": 3,
}


@pytest.fixture(scope="module")
def report(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("theorem17")
    return stage_claim("theorem17", BLOCK, SEED, REPLICATES, tmp)


@pytest.fixture(scope="module")
def records(report):
    return {r.check_id: r for r in report.records}


UNIFORM_CHECKS = (
    "theorem17/relu-degree-one",
    "theorem17/hamming-ball-volume",
    "theorem17/dense-lower-bound-uniform",
)
THEOREM17_CHECKS = {
    "theorem17/erm-in-class",
    "theorem17/samples-needed",
    "theorem17/at-bound",
    "theorem17/exact-erm-coverage",
}


def test_check_ids_and_statement(records):
    assert set(records) == THEOREM17_CHECKS | {
        "theorem17/memoriser-unseen-mass",
        "theorem17/dense-lower-bound-fixed-n",
    } | set(UNIFORM_CHECKS)
    assert all(records[c].statement_id == "theorem17" for c in THEOREM17_CHECKS)
    assert records["theorem17/memoriser-unseen-mass"].statement_id == "memoriser-cube"
    assert records["theorem17/dense-lower-bound-fixed-n"].statement_id == "dense-lower-bound-refuted"
    assert all(records[c].statement_id == "dense-lower-bound-uniform" for c in UNIFORM_CHECKS)
    assert all(r.range for r in records.values())


def test_known_verdicts_and_never_fail(records):
    assert records["theorem17/erm-in-class"].verdict is Verdict.PASS
    assert records["theorem17/exact-erm-coverage"].verdict is Verdict.PASS
    assert all(records[c].verdict is not Verdict.FAIL for c in THEOREM17_CHECKS)


def test_dense_lower_bound_at_fixed_n_is_an_instance_of_its_refutation(records):
    from sparseact import bounds
    from sparseact.verify.checker import PINS

    assert records["theorem17/memoriser-unseen-mass"].verdict is Verdict.PASS
    assert records["theorem17/memoriser-unseen-mass"].worst_value <= 1.0
    record = records["theorem17/dense-lower-bound-fixed-n"]
    # n = s = W = B = 1: C = 2, delta = 1/4, eps = 1e-12: ceil(4 * 2 / (2 e 1e-12 / 4)) samples suffice, below 1e-6/eps^2
    m0 = math.ceil(bounds.memoriser_sample_complexity(1, 2.0, 1e-12, 0.25))
    assert m0 == math.ceil(32 / (2 * math.e * 1e-12))
    assert record.verdict is Verdict.PASS and record.certificate is None
    assert record.worst_value == pytest.approx(m0 / 1e18, rel=1e-12)
    # a PASS of a project statement: the verifier pins no certificate of it
    assert not any(check.startswith("theorem17/dense") for check in PINS)
    # 3 seeds cannot put the Clopper-Pearson upper end below delta = 0.2: INCONCLUSIVE by construction
    assert records["theorem17/at-bound"].verdict is Verdict.INCONCLUSIVE
    assert "scaling/theorem17-printed" in records["theorem17/at-bound"].notes


def test_uniform_lower_bound_checks_pass_exactly(records):
    """The exact steps of dense-lower-bound-uniform PASS, and the witness's range names the computed t and n."""
    from sparseact.claims.theorem17.dense_lower_bound import UNIFORM_INSTANCE, uniform_instance

    assert all(records[c].verdict is Verdict.PASS and records[c].method == "exact" for c in UNIFORM_CHECKS)
    assert records["theorem17/relu-degree-one"].worst_value == 0.0
    assert records["theorem17/hamming-ball-volume"].worst_value <= 1.0
    witness = uniform_instance(**{k: v for k, v in UNIFORM_INSTANCE.items() if k != "B"})
    record = records["theorem17/dense-lower-bound-uniform"]
    assert f"t = {witness['t']}, n = {witness['n']}" in record.range
    assert record.worst_value < 1 - UNIFORM_INSTANCE["delta"]


def test_curves_table(report):
    curves = report.tables["curves"]
    grid = curves[curves["kind"] == "grid"]
    assert set(grid["learner"]) == {"sparse ERM", "unconstrained", "low-degree d=2"}
    assert (curves["test_loss"] >= 0).all()
    sparse = curves[curves["learner"] == "sparse ERM"]
    assert (sparse["max_active_sample"] <= sparse["k"]).all()
    bound = curves[curves["kind"] == "bound"]
    assert set(bound["learner"]) == {"sparse ERM"} and (bound["missed_mass"] == 0).all()
    assert (bound["cube_mass_over_k"] == 0).all()  # the sample covers the cube: sparsity certified everywhere


def test_points_are_independent(tmp_path):
    small = theorem17.points(BLOCK)
    bigger = theorem17.points(dict(BLOCK, sample_sizes=[16, 32, 64], index_b=[1, 2]))
    assert set(small) <= set(bigger)
    name = "index1-m16"
    assert small[name] == bigger[name]
    a, b = tmp_path / "a.npz", tmp_path / "b.npz"
    generate_point("theorem17", name, small[name], SEED, 1, a)
    generate_point("theorem17", name, bigger[name], SEED, 1, b)
    assert a.read_bytes() == b.read_bytes()


def test_validate_rejects_bad_blocks():
    with pytest.raises(ConfigError, match="junta_p"):
        get_claim("theorem17").validate(dict(BLOCK, junta_p=[5]))
    with pytest.raises(ConfigError, match="bound_multiples"):
        get_claim("theorem17").validate(dict(BLOCK, bound_multiples=[0.5]))


def test_product_weights_sum_to_one():
    weights = compute.product_weights(5, 0.3)
    assert weights.sum() == pytest.approx(1.0)
    assert weights[0] == pytest.approx(0.3**5)  # row 0 is the all-ones point


def test_bound_point_sample_size_is_the_expression(tmp_path):
    point = theorem17.points(BLOCK)["index1-bound1"]
    cls = compute.class_parameters(compute.target_network(point))
    expected = bounds.theorem17_sample_complexity(0.02, 0.2, 3, 2, 1, math.sqrt(1.25), 0.5, math.sqrt(3))
    assert compute.bound_sample_size(point) == math.ceil(expected)
    assert cls == dict(n=3, s=2, k=1, W=pytest.approx(math.sqrt(1.25)), B=0.5, R=pytest.approx(math.sqrt(3)))
    generate_point("theorem17", "index1-bound1", point, SEED, 1, tmp_path / "b.npz")
    arrays, _ = load_arrays(tmp_path / "b.npz")
    assert (arrays[next(k for k in arrays if k.endswith("/r0.counts"))].sum(axis=1) == math.ceil(expected)).all()


def test_closed_forms():
    # union bound on missing a point, and the smallest covering m
    weights = np.array([0.5, 0.25, 0.25])
    assert 10 ** verdicts.log10_miss_probability(weights, 3) == pytest.approx(0.5**3 + 2 * 0.75**3)
    m = verdicts.coverage_sample_size(weights, 0.1)
    assert 0.5**m + 2 * 0.75**m <= 0.1 < 0.5 ** (m - 1) + 2 * 0.75 ** (m - 1)
    # Clopper-Pearson, 0 failures: 1 - alpha^(1/N)
    assert verdicts.clopper_pearson_upper(0, 14) == pytest.approx(1 - 0.05 ** (1 / 14))
    assert verdicts.clopper_pearson_upper(3, 3) == 1.0
    # printed expression scales like lambda^-2 (up to the log) under u -> lambda u; a count must not scale
    cls = dict(n=3, s=2, k=1, W=1.0, B=0.5, R=math.sqrt(3))
    assert verdicts.scale_exponent(0.02, 0.2, cls) < -2.0


def test_weighted_erm_equals_the_replicated_sample_loss():
    rng = np.random.default_rng(0)
    X = np.array([[1.0, -1.0], [-1.0, 1.0], [1.0, 1.0]])
    y = np.array([1.0, 0.0, 0.5])
    counts = np.array([3, 1, 2])
    erm = SparseActivationERM(n_neurons=2, k=1, W=2.0, B=1.0, n_restarts=1, max_iter=20, random_state=0)
    erm.fit(X, y, sample_weight=counts)
    rep = np.repeat(np.arange(3), counts)
    assert erm.train_loss_ == pytest.approx(erm.loss(X[rep], y[rep]))
    u, Wm, b = rng.standard_normal(2), rng.standard_normal((2, 2)), rng.standard_normal(2)
    plain = SparseActivationERM._loss_and_grads(X[rep], y[rep], u, Wm, b, 1, True, 0.3)
    weighted = SparseActivationERM._loss_and_grads(X, y, u, Wm, b, 1, True, 0.3, counts / counts.sum())
    for p, w in zip(plain, weighted, strict=True):
        np.testing.assert_allclose(w, p, rtol=1e-12, atol=1e-14)
    with pytest.raises(ValueError, match="sample_weight"):
        erm.fit(X, y, sample_weight=[1.0, -1.0, 1.0])


def test_the_figure_speaks_the_papers_words_and_names_its_zeros_and_bands():
    import matplotlib

    matplotlib.use("Agg")
    import pandas as pd

    from sparseact.claims.theorem17.figures import FLOOR, figures, panel_title
    from sparseact.publish.plotting import FLOOR_MARKERS

    assert panel_title("Index_2") == r"Section 1's $\mathrm{Index}_{2}$"
    assert panel_title("parity p=3, n=6") == "parity of the first $3$ of $n = 6$ bits (Theorem 13)"

    def drawn(losses):
        row = dict(n=3, s=2, k=1, W=1.0, B=0.5, trivial=0.1, kind="grid")
        curves = pd.DataFrame(
            [{**row, "target": "Index_1", "learner": "sparse ERM", "m": m, "test_loss": v} for m, v in losses.items()]
        )
        coverage = pd.DataFrame([dict(target="Index_1", expression=1e3, coverage_m=100.0, eps=0.05)])
        fig = figures({"curves": curves, "theorem17-coverage": coverage})["learning-curves"]
        ax = fig.axes[0]
        labels = {t.get_text() for legend in fig.legends for t in legend.get_texts()}
        floor_tick = ax.yaxis.get_major_formatter()(FLOOR, 0)
        markers = {line.get_marker() for line in ax.get_lines() if list(line.get_ydata()) == [FLOOR]}
        return ax, labels, floor_tick, markers

    ax, labels, floor_tick, markers = drawn({16: 0.0, 32: 0.01})
    assert "Index" in ax.get_title() and "_1" not in ax.get_title().replace("_{1}", "")
    assert "0 (exact), drawn at the axis floor" in labels and "sparse ERM: min-max range" in labels
    assert floor_tick == "0" and markers == {FLOOR_MARKERS["zero"]}  # a zero is marked and labelled as one
    assert not any("below" in label for label in labels)
    _, labels, floor_tick, markers = drawn({16: 0.0, 32: 1e-12, 64: 0.01})  # below the floor but not 0
    assert {"0 (exact), drawn at the axis floor", "below $10^{-10}$, drawn at the axis floor"} <= labels
    assert floor_tick == "$\\leq$ $10^{-10}$" and markers == set(FLOOR_MARKERS.values())
