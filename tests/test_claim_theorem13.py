"""Claim ``theorem13``: the stages on a tiny block, the known verdicts, independence, false claims, closed forms."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest

from sparseact import combinatorics, constructions
from sparseact.claims import generate_point, get_claim, stage_claim, theorem13
from sparseact.claims.theorem13 import compute, verdicts
from sparseact.cube import hypercube
from sparseact.learners.low_degree import monomial_count
from sparseact.networks import SparseReLUNetwork
from sparseact.publish.ledger import certificate_document
from sparseact.runtime.config import ConfigError
from sparseact.runtime.datafiles import load_arrays
from sparseact.verify.checker import verify_certificate
from sparseact.verify.verdicts import Verdict

SEED = 7
REPLICATES = 2
BLOCK = {
    "junta": {
        "n_values": [3, 6],
        "s_values": [2, 8],
        "p_values": [1, 2, 3],
        "random_tables": 1,
        "include_parity": True,
    },
    "hardness": {"n_values": [5, 6, 7], "p_values": [2, 3], "degrees": [0, 1, 2, 3], "samples": 300},
}


@pytest.fixture(scope="module")
def report(tmp_path_factory):
    return stage_claim("theorem13", BLOCK, SEED, REPLICATES, tmp_path_factory.mktemp("theorem13"))


@pytest.fixture(scope="module")
def records(report):
    return {r.check_id: r for r in report.records}


@pytest.mark.parametrize(
    "check_id",
    [
        "theorem13/junta-computes",
        "theorem13/junta-indicator",
        "theorem13/junta-sparsity",
        "theorem13/junta-scale",
        "theorem13/parity-floor",
        "theorem13/parity-cliff",
        "theorem13/cost",
    ],
)
def test_known_verdicts(records, check_id):
    assert records[check_id].verdict is Verdict.PASS, records[check_id]
    assert records[check_id].replicates == f"{REPLICATES}/{REPLICATES}"


def test_every_statement_and_check_id(report):
    statements = get_claim("theorem13").statements
    for r in report.records:
        assert r.claim_id == "theorem13" and r.check_id.startswith("theorem13/")
        assert r.statement_id in statements and r.range
    checked = {r.statement_id for r in report.records}
    assert checked <= set(statements)
    # a statement no check bears on is open (with why), rests on other statements' checks (argument) or is refuted
    assert all(
        sid in checked or spec.get("open") or spec.get("argument") or spec.get("refuted_by")
        for sid, spec in statements.items()
    )
    assert statements["conj12"]["open_kind"] == "conjecture" and "conj12-large-p" in statements["conj12"]["remark"]
    assert statements["theorem13"]["argument"]
    assert statements["conj12-log-range"]["open_kind"] == "conjecture"
    assert not any(spec.get("note") for spec in statements.values())
    assert theorem13.RANDOM


def test_junta_table_is_exact_and_complete(report):
    junta = report.tables["theorem13-junta"]
    # every (n, s, p) with p <= min(floor(log2 s), n), parity + 1 random table, per replicate
    cells = [(n, s, p) for n in (3, 6) for s in (2, 8) for p in (1, 2, 3) if p <= min(int(math.log2(s)), n)]
    assert len(junta) == REPLICATES * 2 * len(cells)
    assert (junta["max_abs_error"] == 0).all() and (junta["indicator_error"] == 0).all()
    assert (junta["max_active"] == 1).all() and (junta["min_active"] == 1).all()
    assert np.allclose(junta["W"], np.sqrt(junta["p"]), rtol=0, atol=0)
    assert np.array_equal(junta["B"], junta["p"] - 1.0)


def test_cliff_shape(report):
    hard = report.tables["theorem13-hardness"]
    parity = hard[hard["target"] == "parity"]
    below, at = parity[parity["degree"] < parity["p"]], parity[parity["degree"] >= parity["p"]]
    assert (below["test_error"] >= below["trivial"] - 1e-12).all()  # orthogonality: no degree-<p fit beats 0
    assert (at["test_error"] <= verdicts.CLIFF_AT_ABS).all()
    assert np.allclose(parity["floor"], np.where(parity["degree"] < parity["p"], 0.5, 0.0), rtol=0, atol=1e-12)
    assert (hard["max_active"] == 1).all()


def test_cost_table_closed_forms(report):
    cost = report.tables["theorem13-cost"]
    for row in cost.itertuples():
        assert row.N_p == sum(math.comb(row.n, t) for t in range(row.p + 1)) == monomial_count(row.n, row.p)
        assert row.lower <= row.N_p <= row.upper


# ---------------------------------------------------------------------------
# independence of points and cells
# ---------------------------------------------------------------------------


def test_point_data_does_not_depend_on_other_grid_values(tmp_path):
    small = {
        "junta": {**BLOCK["junta"], "n_values": [6]},
        "hardness": {**BLOCK["hardness"], "n_values": [6], "p_values": [2]},
    }
    a_points, b_points = get_claim("theorem13").points(small), get_claim("theorem13").points(BLOCK)
    for name in ("junta-n6", "hardness-n6-p2"):
        assert a_points[name] == b_points[name]
        generate_point("theorem13", name, a_points[name], SEED, REPLICATES, tmp_path / f"a-{name}.npz")
        generate_point("theorem13", name, b_points[name], SEED, REPLICATES, tmp_path / f"b-{name}.npz")
        assert (tmp_path / f"a-{name}.npz").read_bytes() == (tmp_path / f"b-{name}.npz").read_bytes()


def test_a_cell_does_not_depend_on_the_other_s_and_p_values(tmp_path):
    claim = get_claim("theorem13")
    one = claim.points({"junta": {**BLOCK["junta"], "s_values": [8], "p_values": [2]}, "hardness": BLOCK["hardness"]})[
        "junta-n6"
    ]
    every = claim.points(BLOCK)["junta-n6"]
    generate_point("theorem13", "junta-n6", one, SEED, 1, tmp_path / "one.npz")
    generate_point("theorem13", "junta-n6", every, SEED, 1, tmp_path / "every.npz")
    a, _ = load_arrays(tmp_path / "one.npz")
    b, _ = load_arrays(tmp_path / "every.npz")
    assert a and set(a) < set(b)
    for key, value in a.items():
        assert np.array_equal(value, b[key]), key


def test_large_cubes_get_one_point_per_p():
    block = {"junta": {**BLOCK["junta"], "n_values": [6, theorem13.SPLIT_N]}, "hardness": BLOCK["hardness"]}
    names = [n for n in get_claim("theorem13").points(block) if n.startswith("junta")]
    assert names == ["junta-n6"] + [f"junta-n{theorem13.SPLIT_N}-p{p}" for p in (1, 2, 3)]


# ---------------------------------------------------------------------------
# false claims are caught, with certificates that recompute
# ---------------------------------------------------------------------------


def _one_junta_report(tmp_path):
    block = {
        "junta": {"n_values": [4], "s_values": [4], "p_values": [2], "random_tables": 0, "include_parity": True},
        "hardness": {"n_values": [4], "p_values": [2], "degrees": [1, 2], "samples": 50},
    }
    return {r.check_id: r for r in stage_claim("theorem13", block, SEED, 1, tmp_path).records}


def test_a_wrong_junta_network_fails_with_certificates(monkeypatch, tmp_path):
    original = constructions.junta_network

    def shifted(table, variables, n, s=None):
        good = original(table, variables, n, s)
        return SparseReLUNetwork(good.u, good.W, good.b - 1.5)  # neighbours at distance 1 fire too

    monkeypatch.setattr(constructions, "junta_network", shifted)
    records = _one_junta_report(tmp_path)
    for name in ("junta-computes", "junta-indicator", "junta-sparsity"):
        record = records[f"theorem13/{name}"]
        assert record.verdict is Verdict.FAIL and record.finding == "proof-slip" and record.counterexample, name
        assert verify_certificate(certificate_document(record)).confirmed, name
    # the hardness rows are predictions of the construction: never FAIL
    assert all(records[f"theorem13/{c}"].verdict is not Verdict.FAIL for c in ("parity-floor", "parity-cliff", "cost"))


def test_a_network_above_the_scale_fails_scale(monkeypatch, tmp_path):
    original = constructions.junta_network

    def doubled(table, variables, n, s=None):
        good = original(table, variables, n, s)
        return SparseReLUNetwork(2.0 * good.u, good.W, good.b)

    monkeypatch.setattr(constructions, "junta_network", doubled)
    records = _one_junta_report(tmp_path)
    for name in ("junta-computes", "junta-scale"):
        record = records[f"theorem13/{name}"]
        assert record.verdict is Verdict.FAIL and record.finding == "proof-slip", name
        assert verify_certificate(certificate_document(record)).confirmed, name
    assert records["theorem13/junta-indicator"].verdict is Verdict.PASS
    assert records["theorem13/junta-sparsity"].verdict is Verdict.PASS


def test_a_wrong_truth_table_fails_computes_only(monkeypatch, tmp_path):
    original = constructions.junta_network
    monkeypatch.setattr(
        constructions,
        "junta_network",
        lambda table, variables, n, s=None: original(-np.asarray(table), variables, n, s),
    )
    records = _one_junta_report(tmp_path)
    assert records["theorem13/junta-computes"].verdict is Verdict.FAIL
    assert verify_certificate(certificate_document(records["theorem13/junta-computes"])).confirmed
    for name in ("junta-indicator", "junta-sparsity", "junta-scale"):
        assert records[f"theorem13/{name}"].verdict is Verdict.PASS, name


# ---------------------------------------------------------------------------
# the block's cross-key checks
# ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    "change,key",
    [
        ({"junta": {**BLOCK["junta"], "p_values": [1, 4]}}, "claims.theorem13.junta.p_values[1]"),
        (
            {"junta": {**BLOCK["junta"], "random_tables": 0, "include_parity": False}},
            "claims.theorem13.junta.random_tables",
        ),
        ({"hardness": {**BLOCK["hardness"], "p_values": [2, 9]}}, "claims.theorem13.hardness.p_values[1]"),
        ({"hardness": {**BLOCK["hardness"], "degrees": [0, 1]}}, "claims.theorem13.hardness.degrees"),
        ({"hardness": {**BLOCK["hardness"], "n_values": [16], "degrees": [0, 6]}}, "claims.theorem13.hardness.degrees"),
    ],
)
def test_validate_rejects_bad_blocks(change, key):
    with pytest.raises(ConfigError, match=key.replace(".", r"\.").replace("[", r"\[")):
        get_claim("theorem13").validate({**BLOCK, **change})
    assert not list(theorem13.validate(BLOCK))


# ---------------------------------------------------------------------------
# closed forms and the formulas of the certificates
# ---------------------------------------------------------------------------


def test_monomial_count():
    assert combinatorics.monomial_count(20, 3) == 1 + 20 + 190 + 1140
    assert combinatorics.monomial_count(3, 5) == 8
    for n, d in ((7, 0), (7, 3), (12, 5)):
        assert combinatorics.monomial_count(n, d) == monomial_count(n, d)


@pytest.mark.parametrize("p", [1, 2, 3, 4])
def test_monomial_bounds_and_exponent(p):
    for n in range(p, 60):
        low, high = verdicts.monomial_bounds(n, p)
        assert low <= math.comb(n, p) <= combinatorics.monomial_count(n, p) <= high
    assert abs(verdicts.local_exponent(verdicts.ASYMPTOTIC_N, p) - p) < 1e-3


@pytest.mark.parametrize("variables", [[0], [2, 0], [1, 3, 4]])
def test_junta_on_cube_and_formula_agree_with_junta_function(variables):
    n, p = 5, len(variables)
    table = np.random.default_rng(p).choice([-1.0, 1.0], size=1 << p)
    X = hypercube(n)
    expected = constructions.junta_function(table, variables)(X)
    values, _ = compute.junta_on_cube(table, variables, 0, 1 << n)
    assert np.array_equal(values, expected)
    middle, _ = compute.junta_on_cube(table, variables, 7, 19)
    assert np.array_equal(middle, expected[7:19])


def test_the_junta_network_computes_its_junta_with_its_patterns():
    net = constructions.junta_network(constructions.parity_truth_table(2), [1, 3], 5, s=8)
    X = hypercube(5)
    values = net(X)
    assert np.array_equal(values, constructions.junta_function(constructions.parity_truth_table(2), [1, 3])(X))
    assert compute.neuron_patterns(net, [1, 3]) == [0, 1, 2, 3, -1, -1, -1, -1]


def test_certificates_are_json(records):
    for record in records.values():
        json.dumps(record.to_dict())
