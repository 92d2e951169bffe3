"""Section 4 parity lift (claim ``section4_parity``): known FAILs with certificates, corrections PASS."""

import numpy as np
import pandas as pd
import pytest

from sparseact import constructions as C
from sparseact.claims import generate_point, get_claim
from sparseact.publish.ledger import certificate_document
from sparseact.verify.checker import verify_certificate
from sparseact.verify.verdicts import Verdict

BLOCK = {"m_values": [2, 3], "full_cube_max_m": 2, "scale_m_values": [2, 4, 8, 16]}
EXPECTED = {
    "chi-printed": "FAIL",
    "chi-corrected": "PASS",
    "identity-vs-printed-chi": "PASS",
    "identity-printed": "FAIL",
    "identity-corrected": "PASS",
    "identity-one-active": "PASS",
    "lift-printed": "FAIL",
    "lift-corrected": "PASS",
    "network-printed": "FAIL",
    "network-corrected": "PASS",
    "sparsity-printed": "FAIL",
    "sparsity-corrected": "PASS",
    "scale": "PASS",
    "weight-ranges": "PASS",
    "neurons": "PASS",
    "rescaled-norm": "PASS",
    "definition2-W": "PASS",
    "dense-parity": "PASS",
    "dense-parity-k-neurons": "PASS",
    "parseval-queries": "PASS",
    "class": "PASS",
}
FINDINGS = {
    "chi-printed": "proof-slip",
    "identity-printed": "proof-slip",
    "lift-printed": "typo",
    "network-printed": "proof-slip",
    "sparsity-printed": "typo",
}


def _tables(block=BLOCK, tamper=None):
    claim = get_claim("section4_parity")
    parts = {}
    for name, point in claim.points(block).items():
        data = claim.generate(point, None)
        if tamper:
            tamper(name, data)
        for key, frame in claim.run(point, data, None).items():
            parts.setdefault(key, []).append(frame.assign(point=name))
    return {key: pd.concat(frames, ignore_index=True) for key, frames in parts.items()}


@pytest.fixture(scope="module")
def records():
    report = get_claim("section4_parity").assemble(BLOCK, _tables())
    return {r.check_id.split("/", 1)[1]: r for r in report.records}


def test_known_verdicts(records):
    assert {name: r.verdict.value for name, r in records.items()} == EXPECTED


def test_fails_carry_certificates_that_violate_the_relation(records):
    for name, finding in FINDINGS.items():
        record = records[name]
        assert record.finding == finding and record.counterexample
        outcome = verify_certificate(certificate_document(record))
        assert outcome.confirmed, (name, outcome.message)


def test_known_counterexamples(records):
    # m = 2, S = {1} (0-based {0}), y = (1, 1): the printed chi_S is 0, the parity 1
    chi = records["chi-printed"].certificate
    assert (chi["lhs_value"], chi["rhs_value"]) == (0.0, 1.0)
    # m = 2, S = {1}, a = -2, y = (1, 1): printed lift -14.5, true value -8.5
    lift = records["lift-printed"].certificate
    assert (lift["lhs_value"], lift["rhs_value"]) == (-8.5, -14.5)
    assert lift["lhs"]["vars"]["a"] == -2 and lift["lhs"]["vars"]["S"] == [0] and lift["lhs"]["vars"]["y"] == [1, 1]


def test_every_check_has_a_known_statement(records):
    statements = get_claim("section4_parity").statements
    assert all(r.statement_id in statements and r.method == "exact" for r in records.values())


def test_broken_corrected_network_fails_with_a_certificate():
    def tamper(name, data):
        if name == "m2":
            data["corrected.2.b"] = data["corrected.2.b"] - 10.0  # S = {0, 1}: both shifts fire at t = 0

    report = get_claim("section4_parity").assemble(BLOCK, _tables(tamper=tamper))
    rows = {r.check_id.split("/", 1)[1]: r for r in report.records}
    for name in ("network-corrected", "sparsity-corrected", "class"):
        assert rows[name].verdict is not Verdict.PASS, name
    assert rows["network-corrected"].verdict is Verdict.FAIL
    assert verify_certificate(certificate_document(rows["network-corrected"])).confirmed


def test_points_are_independent(tmp_path):
    claim = get_claim("section4_parity")
    small = claim.points(BLOCK)
    large = claim.points({**BLOCK, "m_values": [1, 2, 3, 4], "scale_m_values": [2, 4, 8, 16, 32]})
    for name in ("m2", "scale-m8"):
        assert small[name] == large[name]
        generate_point("section4_parity", name, small[name], 5, 1, tmp_path / "a.npz")
        generate_point("section4_parity", name, large[name], 5, 1, tmp_path / "b.npz")
        assert (tmp_path / "a.npz").read_bytes() == (tmp_path / "b.npz").read_bytes()


def test_validate_rejects_a_short_scale_sweep():
    from sparseact.runtime.config import ConfigError

    with pytest.raises(ConfigError, match=r"claims\.section4_parity\.scale_m_values"):
        get_claim("section4_parity").validate({**BLOCK, "scale_m_values": [2, 4]})


@pytest.mark.parametrize("m", [1, 2, 5, 13])
def test_scale_closed_forms(m):
    """||w_{[m],a}||^2 = m(m-1) + 4a^2 m and b = m + a^2 - 1/2, largest at |a| = m."""
    norms = [np.linalg.norm(C.lifted_quadratic_weights(np.ones(m), a)[0]) for a in range(-m, m + 1)]
    biases = [C.lifted_quadratic_weights(np.ones(m), a)[1] for a in range(-m, m + 1)]
    np.testing.assert_allclose(norms, [np.sqrt(m * (m - 1) + 4 * a * a * m) for a in range(-m, m + 1)])
    assert max(norms) == pytest.approx(np.sqrt(4 * m**3 + m * m - m))
    assert max(biases) == pytest.approx(m * m + m - 0.5)


def test_corrected_weights_are_dominated_by_the_printed_ones():
    """The reason S = [m] is the worst case of the scale check."""
    m = 4
    for S in C.all_subsets(m):
        for a in range(-m, m + 1):
            printed, b_printed = C.parity_lift_weights(m, S, a, "printed")
            corrected, b_corrected = C.parity_lift_weights(m, S, a, "corrected")
            assert np.all(np.abs(corrected) <= np.abs(printed)) and b_corrected == b_printed


def test_network_printed_certificate_sits_at_the_full_set(records):
    """At S = [m] the printed weights are right, so the network's FAIL is the encoding erratum's alone."""
    assert records["network-printed"].counterexample.startswith("m=2, S=[0, 1]")
    assert verify_certificate(certificate_document(records["network-printed"])).confirmed


def test_every_record_has_a_range(records):
    assert all(r.range for r in records.values())
    assert "m <= 16" in records["scale"].range or "16" in records["scale"].range


@pytest.mark.parametrize("n,S", [(1, (0,)), (5, (0, 2, 4)), (6, tuple(range(6)))])
def test_dense_parity_network(n, S):
    from sparseact.cube import hypercube

    net = C.dense_parity_network(n, S)
    X = hypercube(n)
    np.testing.assert_array_equal(net(X), np.prod(X[:, list(S)], axis=1))
    assert net.n_neurons == len(S) + 1 and np.all(net.u == np.round(net.u))


def test_parseval_and_rescaling(records):
    from sparseact.claims.section4_parity.compute import _parseval_queries

    table = _parseval_queries(3)
    np.testing.assert_allclose(table["sum_squares"], table["second_moment"], atol=1e-12)
    assert (table["distinguished"] <= table["limit"]).all()
    assert records["rescaled-norm"].worst_value <= 1.0 and records["rescaled-norm"].statement_id == "intro-parity-norm"


def test_tightness_table_columns():
    from sparseact.publish.statements import TIGHTNESS_COLUMNS

    report = get_claim("section4_parity").assemble(BLOCK, _tables())
    table = report.tables["tightness"]
    assert list(table.columns) == TIGHTNESS_COLUMNS and len(table) == 3
    assert table["proved_over_family"].tolist() == pytest.approx([1.0, 1.0, 1.0])
    assert table["printed_over_proved"].isna().tolist() == [True, True, False]


def test_verdicts_do_not_depend_on_the_generator():
    """The claim is deterministic (RANDOM = False): any generator gives the same data and verdicts."""
    claim = get_claim("section4_parity")
    for seed in (0, 1, 99):
        parts = {}
        for name, point in claim.points(BLOCK).items():
            data = claim.generate(point, np.random.default_rng(seed))
            for key, frame in claim.run(point, data, np.random.default_rng(seed)).items():
                parts.setdefault(key, []).append(frame.assign(point=name))
        tables = {key: pd.concat(frames, ignore_index=True) for key, frames in parts.items()}
        verdicts = {r.check_id.split("/", 1)[1]: r.verdict.value for r in claim.assemble(BLOCK, tables).records}
        assert verdicts == EXPECTED


@pytest.mark.parametrize("k", range(1, 10))
def test_dense_parity01_network_k_neurons(k):
    """Section 4's {0,1}-valued parity on k variables by k neurons, no output bias (intro-dense-parity: min(n, s))."""
    from sparseact.cube import hypercube

    X = hypercube(k)
    net = C.dense_parity01_network(k, range(k))
    values, _ = net.evaluate(X)
    assert net.n_neurons == k
    np.testing.assert_array_equal(values, (1 + np.prod(X, axis=1)) / 2)


def test_identity_printed_is_about_the_network(records):
    """The printed identity holds with the printed chi_S; the even-shift failure is the network's (erratum
    parity-encoding), not the identity's."""
    assert records["identity-vs-printed-chi"].verdict.value == "PASS"
    assert records["identity-printed"].statement_id == "section4-parity-network"
    assert {r.verdict.value for r in records.values() if r.statement_id == "section4-parity-identity"} == {"PASS"}


def test_the_identity_active_certificate_builds_from_its_recorded_data():
    """The identity's active-count certificate (a FAIL the grid never meets: integer shifts fire one ReLU at most)
    builds from the data the runs stage records for it (builder ``active``: ``m, S, y, shifts``); a repeated shift
    makes two ReLUs fire."""
    from sparseact.claims.section4_parity.certificates import certify

    failure = certify(dict(builder="active", m=2, S=[0], y=[1, 1], shifts=[1, 1]))
    assert failure["counterexample"] == "m=2, S=[0], y=(1, 1): 2 active"
    assert failure["certificate"]["lhs_value"] == 2 and failure["variant"] == ""
