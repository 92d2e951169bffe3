"""Claim ``lemma10``: the stages on a tiny block, the known verdicts, certificates, independence, closed forms."""

from __future__ import annotations

import itertools
import json
import math

import numpy as np
import pandas as pd
import pytest
from certified import assert_forced_fail_refused

from sparseact import analysis, sensitivity
from sparseact.claims import generate_point, get_claim, lemma10, stage_claim
from sparseact.claims._failures import WORST, with_worst
from sparseact.claims.lemma10 import claim21, compute, eq17
from sparseact.cube import hypercube
from sparseact.publish.ledger import certificate_document
from sparseact.runtime.config import ConfigError
from sparseact.verify.checker import verify_certificate
from sparseact.verify.verdicts import Verdict

SEED = 11
REPLICATES = 2
BLOCK = {
    "noise": {"n_values": [5, 6, 7], "s": 4, "k_values": [1, 2], "instances": 1, "one_minus_rho": [0.01, 0.1, 1.0]},
    "appendixB": {"n": 3, "s": 2, "k": 1, "rho_values": [0.3, 0.5], "instances": 1},
}


@pytest.fixture(scope="module")
def report(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("lemma10")
    return stage_claim("lemma10", BLOCK, SEED, REPLICATES, tmp)


@pytest.fixture(scope="module")
def records(report):
    return {r.check_id: r for r in report.records}


@pytest.mark.parametrize(
    "check_id,expected",
    [
        ("lemma10/claim21-parseval", "PASS"),
        ("lemma10/claim21-ns-formula", "PASS"),
        ("lemma10/claim21-tail", "PASS"),
        ("lemma10/claim21-tail-negative-rho", "FAIL"),
        ("lemma10/eq17-printed", "FAIL"),
        ("lemma10/eq17-coupling", "FAIL"),
        ("lemma10/eq17-corrected", "PASS"),
    ],
)
def test_known_verdicts(records, check_id, expected):
    assert records[check_id].verdict.value == expected, records[check_id]


def test_lemma10_is_never_failed_for_its_constant(records):
    bound = records["lemma10/bound"]
    assert bound.verdict is not Verdict.FAIL and bound.worst_value < 1.0
    assert "slope of NS in (1-rho)" in bound.notes


def test_fails_carry_findings_and_certificates_that_recompute(records):
    findings = {r.check_id: r.finding for r in records.values() if r.verdict is Verdict.FAIL}
    assert findings == {
        # Claim 2.1 prints no range of rho, and N_rho and the proof of Lemma 10 take rho in [-1, 1] (referee10 S2)
        "lemma10/claim21-tail-negative-rho": "typo",
        "lemma10/eq17-printed": "typo",
        "lemma10/eq17-coupling": "proof-slip",
        "lemma10/bound-degenerate": "out-of-range",
    }
    for check_id in findings:
        record = records[check_id]
        assert record.counterexample
        assert verify_certificate(certificate_document(record)).confirmed, check_id


def test_negative_rho_certificate_is_x1x2(records):
    certificate = records["lemma10/claim21-tail-negative-rho"].certificate
    assert certificate["lhs"]["function"] == {"monomial": [0, 1], "n": 2}
    assert certificate["rhs"]["vars"]["ns"]["quantity"] == "noise_sensitivity"
    assert {k: v for k, v in certificate["rhs"]["vars"].items() if k != "ns"} == {"rho": -0.5, "d": 1}
    assert verify_certificate(certificate_document(records["lemma10/claim21-tail-negative-rho"])).confirmed
    assert certificate["lhs_value"] == pytest.approx(1.0) and certificate["rhs_value"] == pytest.approx(0.5)


def test_eq17_members(report):
    table = report.tables["lemma10-eq17"]
    assert np.allclose(table["printed_left"], 4 * table["NS_rho"], rtol=1e-12)
    assert np.allclose(table["middle"], 4 * table["right"], rtol=1e-12)
    assert np.allclose(table["right"], table["NS_rho_effective"], rtol=1e-9)
    dictator = table[table["family"] == "dictator"]
    assert np.allclose(dictator["NS_rho"], (1 - dictator["rho"]) / 2, rtol=1e-12)
    assert np.allclose(dictator["right"], 1 / dictator["r"], rtol=1e-12)


def test_coupling_holds_where_two_over_one_minus_rho_is_an_integer(tmp_path):
    block = {
        **BLOCK,
        "noise": {**BLOCK["noise"], "n_values": [5]},
        "appendixB": {**BLOCK["appendixB"], "rho_values": [0.0, 0.5]},
    }
    found = {r.check_id: r for r in stage_claim("lemma10", block, SEED, 1, tmp_path).records}
    assert found["lemma10/eq17-coupling"].verdict is Verdict.PASS
    assert found["lemma10/eq17-printed"].verdict is Verdict.FAIL  # the dropped 1/4 remains
    assert found["lemma10/eq17-corrected"].verdict is Verdict.PASS


def test_every_statement_and_check_id(report):
    from sparseact.paper import statements

    ids = {s["id"] for s in statements()}
    for r in report.records:
        assert r.claim_id == "lemma10" and r.check_id.startswith("lemma10/") and r.statement_id in ids
        assert r.range, r.check_id
    produced = {r.check_id for r in report.records}
    for statement in statements():
        for premise in [
            *statement.get("argument", {}).get("uses", []),
            *statement.get("correction", {}).get("verified_by", []),
        ]:
            if premise.startswith("lemma10/"):
                assert premise in produced, (statement["id"], premise)


def test_explicit_constant_and_sharp_bound_pass(records):
    assert records["lemma10/bound"].verdict is Verdict.PASS and records["lemma10/sharp"].verdict is Verdict.PASS
    assert records["lemma10/sharp"].worst_value <= 1.0


def test_degenerate_point_certificate_is_relu_x1(records):
    record = records["lemma10/bound-degenerate"]
    assert record.certificate["lhs_value"] == pytest.approx(0.125) and record.certificate["rhs_value"] == 0.0
    assert verify_certificate(certificate_document(record)).confirmed


def test_tightness_row(report):
    row = report.tables["tightness"].iloc[0]
    assert row["proved_over_family"] == pytest.approx(1.0)


# ---------------------------------------------------------------------------
# independence of points
# ---------------------------------------------------------------------------


def test_point_data_does_not_depend_on_other_grid_values(tmp_path):
    small = {
        "noise": {**BLOCK["noise"], "n_values": [6], "k_values": [2]},
        "appendixB": {**BLOCK["appendixB"], "rho_values": [0.5]},
    }
    points_small, points_big = get_claim("lemma10").points(small), get_claim("lemma10").points(BLOCK)
    for name in ("noise-n6-k2", "appendixB-rho0.5", "claim21-parity"):
        assert points_small[name] == points_big[name]
        generate_point("lemma10", name, points_small[name], SEED, REPLICATES, tmp_path / f"a-{name}.npz")
        generate_point("lemma10", name, points_big[name], SEED, REPLICATES, tmp_path / f"b-{name}.npz")
        assert (tmp_path / f"a-{name}.npz").read_bytes() == (tmp_path / f"b-{name}.npz").read_bytes()


# ---------------------------------------------------------------------------
# the block's cross-key checks
# ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    "change,key",
    [
        ({"noise": {**BLOCK["noise"], "k_values": [1, 8]}}, "claims.lemma10.noise.k_values[1]"),
        ({"appendixB": {**BLOCK["appendixB"], "k": 3}}, "claims.lemma10.appendixB.k"),
        (
            {"appendixB": {**BLOCK["appendixB"], "n": 6, "rho_values": [0.3, 0.7]}},
            "claims.lemma10.appendixB.rho_values[1]",
        ),
    ],
)
def test_validate_rejects_a_bad_block(change, key):
    with pytest.raises(ConfigError, match=key.replace(".", r"\.").replace("[", r"\[")):
        get_claim("lemma10").validate({**BLOCK, **change})
    assert not list(lemma10.validate(BLOCK))


# ---------------------------------------------------------------------------
# closed forms
# ---------------------------------------------------------------------------


def test_noise_sensitivity_by_definition_matches_closed_form():
    parity = hypercube(4).prod(axis=1)
    for rho in (-0.5, 0.0, 0.3, 0.9):
        assert compute.noise_sensitivity_by_definition(parity, rho) == pytest.approx((1 - rho**4) / 2)
        assert compute.noise_sensitivity_by_definition(parity, rho) == pytest.approx(
            float(analysis.noise_sensitivity(parity, rho))
        )


@pytest.mark.parametrize("rho,r", [(0.0, 2), (0.3, 2), (1 / 3, 3), (0.5, 4), (0.6, 5), (-0.5, 1)])
def test_bucket_count(rho, r):
    assert lemma10.bucket_count(rho) == r == sensitivity.bucket_count(rho)
    assert r * (1 - rho) >= 1 or rho < 0  # 1/sqrt(r) <= sqrt(1 - rho) on [0, 1)


def test_dictator_network_is_x1_and_one_sparse():
    net = compute.dictator_network(4)
    X = hypercube(4)
    values, active = net.evaluate(X)
    assert np.array_equal(values, X[:, 0]) and active.max() == 1
    res = sensitivity.bucket_coupling_noise_sensitivity(net, 0.3, exact=True)
    assert res.right == pytest.approx(0.5) and res.left == pytest.approx(0.35)
    assert math.isclose(res.left_unnormalised, 1.4)


# ---------------------------------------------------------------------------
# Forced violations: a FAIL carries a finding class and a certificate the verifier confirms
# ---------------------------------------------------------------------------


def _x1x2_network():
    """``x1 x2 = 2 relu(x1 + x2 - 1) + 2 relu(-x1 - x2 - 1) - relu(1)`` on ``{-1,1}^2`` (all weight at level 2)."""
    from sparseact.networks import SparseReLUNetwork

    return SparseReLUNetwork([2.0, 2.0, -1.0], [[1.0, 1.0], [-1.0, -1.0], [0.0, 0.0]], [1.0, 1.0, -1.0])


def _replicate0(report, name):
    table = report.tables[name]
    return table[table["replicate"] == 0].drop(columns=["replicate"]).reset_index(drop=True)


def _claim21(report, parity=None, extra_tail_rows=(), instances=()):
    parity = _replicate0(report, "lemma10-parity") if parity is None else parity
    tail = pd_concat([_replicate0(report, "lemma10-tail"), pd.DataFrame(list(extra_tail_rows))])
    records = claim21.claim21_records(
        _replicate0(report, "lemma10-ns-formula"), tail, parity, with_worst({}, list(instances))
    )
    return {r.check_id: r for r in records}["lemma10/claim21-tail"]


def test_claim21_tail_passes_on_the_real_tables(report):
    assert _claim21(report).verdict is Verdict.PASS


def test_claim21_tail_fail_forced_on_a_monomial_is_refused(report):
    parity = _replicate0(report, "lemma10-parity")
    parity["in_range"] = parity["in_range"] | np.isclose(parity["rho"], -0.5)  # fabricated: rho = -0.5 counted in
    record = _claim21(report, parity=parity)
    assert_forced_fail_refused(record, "statement-error")  # rho = -0.5 is outside Claim 2.1's [0, 1)
    assert record.certificate["lhs"]["function"] == {"monomial": [0, 1], "n": 2}
    assert record.certificate["rhs"]["vars"]["rho"] == -0.5


def test_claim21_tail_fail_forced_on_a_network_at_run_time_is_refused(report):
    net = _x1x2_network()
    assert np.array_equal(net.truth_table(), hypercube(2).prod(axis=1))
    rows = compute._tail_rows("x1x2-net", analysis.level_weights(net.truth_table()), [-0.5, 0.5], 2)
    (inside,) = compute.worst_tail("x1x2-net", net, rows)  # rho = 0.5 only: in [0, 1) nothing to certify
    assert inside["excess"] <= 0 and claim21.network_tail_certificate(json.loads(inside["data"])) is None
    rows = [dict(row, in_range=True) for row in rows]  # fabricated: every rho counted in range
    instances = compute.worst_tail("x1x2-net", net, rows)
    assert [(f["measure"], f["instance"]) for f in instances] == [("tail", "network x1x2-net, rho = -0.5, d = 1")]
    record = _claim21(report, extra_tail_rows=rows, instances=instances)
    assert_forced_fail_refused(record, "statement-error")  # rho = -0.5 is outside Claim 2.1's [0, 1)
    assert "network" in record.certificate["lhs"]["function"]


def _eq17(table, tables=None):
    return {r.check_id: r for r in eq17.eq17_records(table, tables or {})}["lemma10/eq17-corrected"]


def test_eq17_corrected_fail_of_r_forced_is_refused(report):
    table = _replicate0(report, "lemma10-eq17")
    assert _eq17(table).verdict is Verdict.PASS
    bad = table[table["family"] == "dictator"].iloc[[0]].assign(rho=-3.0, r=0)  # fabricated: r = floor(2/4) = 0
    with np.errstate(divide="ignore"):
        record = _eq17(pd_concat([table, bad]))
    assert_forced_fail_refused(record, "proof-slip")
    assert record.certificate["relation"] == ">=" and record.certificate["lhs_value"] == 0.0


def test_eq17_corrected_fail_of_monotonicity_forced_at_run_time_is_refused():
    """rho = -0.5 (outside [0, 1)): NS_rho(x1 x2) = 3/8 > NS_{1-2/r}(x1 x2) = NS_{-1}(x1 x2) = 0."""
    from sparseact.runtime.datafiles import network_arrays

    point = {"kind": "appendixB", "n": 2, "s": 3, "k": 2, "rho": -0.5, "instances": 1}
    data = {
        **network_arrays(_x1x2_network(), "net.gaussian.0"),
        **network_arrays(compute.dictator_network(2), "net.dictator.0"),
    }
    tables = compute.run(point, data, np.random.default_rng(0))
    assert list(tables[WORST]["measure"]) == ["monotone"]
    assert list(tables[WORST]["instance"]) == ["network gaussian-0, rho = -0.5"]
    record = _eq17(tables["lemma10-eq17"], tables)
    assert_forced_fail_refused(record, "proof-slip")
    assert record.certificate["lhs_value"] == pytest.approx(0.375) and record.certificate["rhs_value"] == 0.0


def pd_concat(frames):
    return pd.concat(frames, ignore_index=True)


@pytest.mark.parametrize("base_seed", [8919, 16838, 3])
def test_bound_verdicts_do_not_depend_on_the_base_seed(tmp_path, monkeypatch, base_seed):
    """lemma10/bound (explicit constant) and lemma10/sharp are PASS under any base seed (brief item 7)."""
    block = {**BLOCK, "noise": {**BLOCK["noise"], "n_values": [5, 6]}}
    monkeypatch.setitem(globals(), "SEED", base_seed)
    found = {r.check_id: r for r in stage_claim("lemma10", block, SEED, REPLICATES, tmp_path).records}
    for check_id in ("lemma10/bound", "lemma10/sharp", "lemma10/claim21-tail", "lemma10/claim21-ns-formula"):
        assert found[check_id].verdict is Verdict.PASS, (base_seed, found[check_id])


def test_the_noise_figure_shows_one_network_against_both_bounds_and_the_rest_as_ranges():
    import matplotlib

    matplotlib.use("Agg")
    import pandas as pd

    from sparseact.claims.lemma10.figures import ns_vs_rho

    rows = []
    for instance, scale in (("gaussian-a", 0.01), ("bucket-b", 0.1), ("bucket-c", 0.0)):
        for o in (0.01, 0.1, 1.0):
            ns, sharp, expression = scale * o, 2.0 * o, 10.0 * o**0.5
            rows.append(
                dict(
                    replicate=0,
                    instance=instance,
                    family=instance.split("-")[0],
                    n=8,
                    s=4,
                    k=1,
                    W=1.0,
                    B=1.0,
                    one_minus_rho=o,
                    NS=ns,
                    AS=2.0 * scale,
                    expression=expression,
                    sharp=sharp,
                    ratio=ns / expression,
                    ratio_sharp=ns / sharp,
                )
            )
    fig = ns_vs_rho({"lemma10-noise": pd.DataFrame(rows)})
    left, right = fig.axes[:2]
    assert len(left.get_lines()) == 4  # the printed bound, ours, its first step and the measured NS: no more
    measured = next(line for line in left.get_lines() if "measured" in line.get_label())
    assert list(measured.get_ydata()) == [0.1 * o for o in (0.01, 0.1, 1.0)]  # bucket-b, the closest to our bound
    assert "k junta blocks" in left.get_title() and "all 2 networks" in right.get_title()
    labels = {t.get_text() for t in fig.legends[0].get_texts()}
    assert {"Lemma 10 as printed (constant 1)", "1: the bound attained"} <= labels
    assert "1 constant networks" in fig._suptitle.get_text()


def test_the_level_weights_figure_keeps_its_tick_labels_apart():
    """Six certified k at n = 24: no two x tick labels of a panel touch, and no panel's y tick labels ("<= 10^-16")
    reach into the panel on its left."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from sparseact.claims.lemma10.figures import level_weights
    from sparseact.publish.plotting import finish, setup_style

    rows = [
        dict(replicate=0, instance=f"{family}-{k}-{j}", family=family, n=24, k=k, level=t, weight_fraction=w)
        for k in range(1, 7)
        for family in ("gaussian", "bucket")
        for j in range(2)
        for t in range(25)
        for w in [0.0 if family == "bucket" and t > 2 else 2.0 ** -(t + 1)]
    ]
    setup_style()
    fig = finish({"level-weights": level_weights({"lemma10-level-weights": pd.DataFrame(rows)})})["level-weights"]
    fig.canvas.draw()
    renderer = fig.canvas.get_renderer()
    panels = [ax for ax in fig.axes if ax.get_xlabel()]
    assert len(panels) == 6
    for ax in panels:
        boxes = [t.get_window_extent(renderer) for t in ax.get_xticklabels() if t.get_text() and t.get_visible()]
        assert all(a.x1 < b.x0 for a, b in itertools.pairwise(boxes)), [t.get_text() for t in ax.get_xticklabels()]
        frame = ax.get_window_extent(renderer)
        for other in panels:
            left = other.get_window_extent(renderer)
            if other is not ax and left.x1 < frame.x0 and left.y0 < frame.y1 and frame.y0 < left.y1:
                labels = [t.get_window_extent(renderer) for t in ax.get_yticklabels() if t.get_text()]
                assert all(label.x0 > left.x1 for label in labels)
    plt.close(fig)
