"""Section 4 LWR lift (claim ``section4_lwr``): known FAILs with certificates, corrections PASS."""

import re
from fractions import Fraction

import numpy as np
import pandas as pd
import pytest
from hypothesis import given
from hypothesis import strategies as st

from sparseact import constructions as C
from sparseact.claims import generate_point, get_claim
from sparseact.claims.section4_lwr import compute, verdicts
from sparseact.claims.section4_lwr.compute import decode_label, margin_attack, rounding_margin, scale_polynomials
from sparseact.publish.ledger import certificate_document
from sparseact.verify.checker import verify_certificate
from sparseact.verify.verdicts import Verdict

BLOCK = {
    "instances": [
        {"q": 2, "m": 2, "p": 2},
        {"q": 3, "m": 2, "p": 2},
        {"q": 5, "m": 2, "p": 3},
        {"q": 4, "m": 2, "p": 2},
    ],
    "max_secrets": 16,
}
EXPECTED = {
    "linear-encoding": "FAIL",
    "affine-encoding": "PASS",
    "identity-printed": "FAIL",
    "identity-corrected": "PASS",
    "lifted-weights-pm1": "FAIL",
    "lift-corrected": "PASS",
    "scale": "PASS",
    "network": "PASS",
    "def15-rounding": "FAIL",
    "conj16-linear-attack": "PASS",
    "gaussian-elimination": "PASS",
    "rounding-not-affine": "PASS",
    "network-rounding": "PASS",
    "conj16-kernel-attack": "PASS",
    "kernel-attack-excluded": "PASS",
    "reduction-margin": "PASS",
}
FINDINGS = {
    "linear-encoding": "proof-slip",
    "identity-printed": "typo",
    "lifted-weights-pm1": "typo",
    "def15-rounding": "statement-error",
}


def _tables(block=BLOCK, seed=3, tamper=None):
    claim = get_claim("section4_lwr")
    parts = {}
    for name, point in claim.points(block).items():
        data = claim.generate(point, np.random.default_rng(seed))
        if tamper:
            tamper(name, data)
        for key, frame in claim.run(point, data, None).items():
            parts.setdefault(key, []).append(frame.assign(point=name))
    return {key: pd.concat(frames, ignore_index=True) for key, frames in parts.items()}


def _records(tables, block=BLOCK):
    return {r.check_id.split("/", 1)[1]: r for r in get_claim("section4_lwr").assemble(block, tables).records}


@pytest.fixture(scope="module")
def records():
    return _records(_tables())


def test_known_verdicts(records):
    assert {name: r.verdict.value for name, r in records.items()} == EXPECTED


def test_fails_carry_certificates_that_violate_the_relation(records):
    for name, finding in FINDINGS.items():
        record = records[name]
        assert record.finding == finding and record.counterexample
        outcome = verify_certificate(certificate_document(record))
        assert outcome.confirmed, (name, outcome.message)
    assert records["linear-encoding"].certificate["lhs"]["quantity"] == "orthogonal_residual"


def test_printed_identity_value_at_q3_t0():
    """q = 3, m = 2, p = 2, t = 0: the printed sum is 1287, lambda(0) = 0."""
    values, active = C.lwr_identity(np.array([0]), 3, 2, 2, "printed")
    assert values[0] == 1287.0 and active[0] == 18
    corrected, active = C.lwr_identity(np.arange(18), 3, 2, 2, "corrected")
    np.testing.assert_array_equal(corrected, C.lwr_lambda(np.arange(18), 3, 2))
    assert active.max() == 1


def test_no_pm1_certificate_without_a_power_of_two():
    """The uniqueness argument needs z(y) to cover the cube (q = 2^L): otherwise INCONCLUSIVE, never FAIL."""
    block = {"instances": [{"q": 3, "m": 2, "p": 2}], "max_secrets": 9}
    rows = _records(_tables(block), block)
    assert rows["lifted-weights-pm1"].verdict is Verdict.INCONCLUSIVE
    assert rows["linear-encoding"].verdict is Verdict.FAIL


def test_broken_network_fails_with_a_certificate():
    def tamper(name, data):
        if name == "q3-m2-p2":
            data["net4.u"] = data["net4.u"] + 1.0

    rows = _records(_tables(tamper=tamper))
    assert rows["network"].verdict is Verdict.FAIL
    assert verify_certificate(certificate_document(rows["network"])).confirmed


def test_points_are_independent(tmp_path):
    claim = get_claim("section4_lwr")
    small = claim.points(BLOCK)
    large = claim.points({**BLOCK, "instances": BLOCK["instances"] + [{"q": 4, "m": 3, "p": 2}]})
    for name in ("q3-m2-p2", "q5-m2-p3"):  # q5-m2-p3 draws random secrets (25 > 9)
        assert small[name] == large[name]
        generate_point("section4_lwr", name, small[name], 5, 2, tmp_path / "a.npz")
        generate_point("section4_lwr", name, large[name], 5, 2, tmp_path / "b.npz")
        assert (tmp_path / "a.npz").read_bytes() == (tmp_path / "b.npz").read_bytes()


@pytest.mark.parametrize(
    "instance, key", [({"q": 3, "m": 2, "p": 5}, "instances[0].p"), ({"q": 16, "m": 4, "p": 2}, "instances[0]")]
)
def test_validate_rejects_bad_instances(instance, key):
    from sparseact.runtime.config import ConfigError

    with pytest.raises(ConfigError, match=re.escape(f"claims.section4_lwr.{key}:")):
        get_claim("section4_lwr").validate({"instances": [instance], "max_secrets": 9})


def test_scale_polynomials_bound_all_small_cases():
    for q in range(2, 8):
        for m in (1, 2, 3):
            for p in (2, q):
                W_bound, B_bound = scale_polynomials(q, m, p)
                for w in C.zq_points(q, m)[:: max(1, q**m // 20)]:
                    net, _ = C.lwr_network(w, q, p)
                    assert net.scale_W() <= W_bound and net.scale_B() <= B_bound


@pytest.mark.parametrize("seed", [0, 7, 20260101])
def test_verdicts_and_ranges_do_not_depend_on_the_seed(seed):
    """Secrets beyond max_secrets and the attack's samples are random; no verdict may depend on them."""
    rows = _records(_tables(seed=seed))
    assert {name: r.verdict.value for name, r in rows.items()} == EXPECTED
    assert all(r.range for r in rows.values())


def test_gaussian_elimination_solves_lwr_with_definition_15s_map():
    """LWR_{2,4,2}: Definition 15's map is linear over Z_2, so Gaussian elimination recovers every secret: a PASS of
    conj16-linear-family's attack, with no certificate (it refutes nothing printed, read uniformly)."""
    record = _records(_tables())["conj16-linear-attack"]
    assert record.verdict is Verdict.PASS and record.statement_id == "conj16-linear-family"
    assert record.certificate is None and record.worst_value > 2 / 3


def test_gf_solve_and_rounding_map():
    assert C.gf_solve([[1, 0], [1, 0]], [1, 1], 2) is None  # rank 1 < 2
    assert C.gf_solve([[1, 0], [0, 1], [1, 1]], [1, 0, 0], 2) is None  # inconsistent
    assert C.gf_solve([[2, 1], [1, 1]], [1, 2], 3).tolist() == [2, 0]
    np.testing.assert_array_equal(C.lwr_round(np.arange(4), 4, 2), [0, 1, 1, 0])
    with pytest.raises(ValueError, match="p must be <= q"):
        C.lwr_round(3, q=3, p=5)  # as lwr_lambda refuses it
    Y = C.zq_points(4, 2)
    assert C.affine_fits_zp(C.lwr_function(np.array([1, 3]), 4, 2)(Y), Y, 2)
    assert not C.affine_fits_zp(C.lwr_round(Y @ np.array([1, 3]), 4, 2), Y, 2)


def test_rounding_network_computes_the_rounding_map():
    rows = _records(_tables())
    assert rows["network-rounding"].verdict is Verdict.PASS and rows["network-rounding"].statement_id == "theorem3-lwr"
    assert rows["rounding-not-affine"].worst_value < 2 / 3


def test_no_attack_when_p_equals_q():
    """p = q is linear algebra mod q, not rounding: the attack is not run there (INCONCLUSIVE)."""
    block = {"instances": [{"q": 2, "m": 2, "p": 2}], "max_secrets": 4}
    rows = _records(_tables(block), block)
    assert rows["conj16-linear-attack"].verdict is Verdict.INCONCLUSIVE


def test_kernel_attack_breaks_lwr_2_3_for_every_seed():
    """LWR_{2,3,m} with the rounding map: label 0 iff <w, y> = 0 (mod 3); the exact success bound (a PASS of
    conj16-kernel-family's attack) does not depend on the seed, and for q >= 2p the attack has nothing to solve."""
    block = {
        "instances": [{"q": 3, "m": 2, "p": 2}, {"q": 3, "m": 3, "p": 2}, {"q": 7, "m": 2, "p": 3}],
        "max_secrets": 27,
    }
    values = set()
    for seed in (0, 1, 12345):
        rows = _records(_tables(block, seed=seed), block)
        assert rows["conj16-kernel-attack"].verdict is Verdict.PASS
        assert rows["conj16-kernel-attack"].statement_id == "conj16-kernel-family"
        assert rows["conj16-kernel-attack"].certificate is None
        assert rows["kernel-attack-excluded"].verdict is Verdict.PASS
        values.add(rows["conj16-kernel-attack"].worst_value)
    assert len(values) == 1 and values.pop() > 0.99


def test_reduction_margin_checks_the_constants_of_the_paper_loss(records):
    """theorem3-lwr-reduction: margin 1/2, so a wrong prediction costs (1/2)(1/2)^2 = 1/8 of paper loss; at
    eps = 1/48 the worst hypothesis is wrong on at most 8 eps = 1/6 of the y, and delta + 8 eps = 1/3."""
    row = records["reduction-margin"]
    assert row.statement_id == "theorem3-lwr-reduction" and row.method == "exact"
    assert 0 < row.worst_value <= 1 / 6
    assert compute.REDUCTION_DELTA + 8 * compute.REDUCTION_EPS == compute.SOLVE_ERROR


def test_reduction_margin_is_violated_by_the_previous_constant(monkeypatch):
    """eps = 1/12 (the loss read as (g - f)^2): delta + 8 eps = 5/6 > 1/3, a violation without a certificate."""
    monkeypatch.setattr(compute, "REDUCTION_EPS", compute.PREVIOUS_EPS)
    monkeypatch.setattr(verdicts, "REDUCTION_EPS", compute.PREVIOUS_EPS)
    assert _records(_tables())["reduction-margin"].verdict is Verdict.INCONCLUSIVE


@pytest.mark.parametrize("p", range(2, 17))
def test_rounding_margin_is_one_half(p):
    assert rounding_margin(p) == Fraction(1, 2)
    labels = np.arange(p)
    assert np.array_equal(decode_label(labels + 0.5 - 2.0**-20, p), labels)
    assert np.array_equal(decode_label(labels - 0.5, p), labels)
    assert np.array_equal(decode_label(labels[:-1] + 0.5, p), labels[1:])  # the tie decodes up: a wrong label


@given(st.integers(2, 12), st.lists(st.integers(0, 11), min_size=1, max_size=200), st.integers(1, 96))
def test_margin_attack_stays_within_the_markov_bound(p, raw, denominator):
    """Any labels and any eps = 1/d: the constructed hypothesis has paper loss <= eps and is wrong on at most
    eps / (1/8) of the inputs; every move is exactly the margin."""
    labels = np.array(raw) % p
    eps = Fraction(1, denominator)
    wrong, deviation = margin_attack(labels, p, eps)
    assert Fraction(deviation, 8 * len(labels)) <= eps
    assert Fraction(wrong, len(labels)) <= 8 * eps
    assert deviation == wrong  # each wrong input moved by exactly 1/2: (2 * 1/2)^2 = 1
