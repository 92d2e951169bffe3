"""Claim ``appendixA``: the stages on a tiny block, the known verdicts, the certificate, independence, closed forms."""

from __future__ import annotations

import math

import numpy as np
import pytest

from sparseact import constructions as C
from sparseact.claims import appendixA, generate_point, get_claim, stage_claim
from sparseact.claims.appendixA import compute, verdicts
from sparseact.cube import hypercube
from sparseact.publish.ledger import certificate_document
from sparseact.runtime.config import ConfigError
from sparseact.verify.checker import verify_certificate
from sparseact.verify.verdicts import Verdict

SEED = 7
REPLICATES = 2
BLOCK = {
    "b_values": [2, 3],
    "q": 8,
    "weight_draws": 1,
    "gamma_points": 5,
    "whp": {"q": 8, "b_values": [2, 3, 4], "c_values": [0.5, 1.0]},
}
EXPECTED = {
    "sparse-sqrt-q-printed": "FAIL",
    "sparse-sqrt-q-corrected": "PASS",
    "sparse-sqrt-q-l1": "PASS",
    "computes": "PASS",
    "computes-printed": "FAIL",
    "dense-weights": "PASS",
    "whp-printed-ones": "PASS",
    "whp-hoeffding": "PASS",
    "whp-sparse": "PASS",
    "whp-printed-split": "FAIL",
}


@pytest.fixture(scope="module")
def report(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("appendixA")
    return stage_claim("appendixA", BLOCK, SEED, REPLICATES, tmp)


@pytest.fixture(scope="module")
def records(report):
    return {r.check_id.split("/", 1)[1]: r for r in report.records}


def test_known_verdicts(records):
    assert {name: r.verdict.value for name, r in records.items()} == EXPECTED
    assert all(r.replicates == f"{REPLICATES}/{REPLICATES}" for r in records.values())


def test_every_statement_and_check_id(report):
    for r in report.records:
        assert r.claim_id == "appendixA" and r.check_id.startswith("appendixA/")
        assert r.statement_id in get_claim("appendixA").statements
    checked = {r.statement_id for r in report.records}
    assert checked <= set(get_claim("appendixA").statements)
    # a statement no check bears on says why (unsettled) or rests on other statements' checks (argument)
    assert all(
        sid in checked or spec.get("note") or spec.get("open") or spec.get("argument")
        for sid, spec in get_claim("appendixA").statements.items()
    )


def test_printed_fail_is_all_ones_with_a_certificate(records):
    record = records["sparse-sqrt-q-printed"]
    assert record.finding == "typo" and "all-ones" in record.counterexample
    certificate = record.certificate
    assert certificate["relation"] == "<=" and certificate["lhs"]["quantity"] == "active_count"
    # b = 3, q = 8: 2 sqrt(8) < ||1||_1 = 8 < 4 sqrt(8), so x and its b = 3 neighbours fire
    assert (certificate["lhs_value"], certificate["rhs_value"]) == (4.0, 1.0)
    network = certificate["lhs"]["network"]
    assert np.asarray(network["W"]).shape == (8, 11) and np.allclose(np.asarray(network["W"])[:, 3:], 1.0)
    outcome = verify_certificate(certificate_document(record))
    assert outcome.confirmed, outcome.message
    assert "survives" in record.notes


@pytest.mark.parametrize("b", [2, 3, 4])
@pytest.mark.parametrize("q", [1, 2, 5])
@pytest.mark.parametrize("c", [0.25, 1.0, 3.0])
def test_split_rows_fire_half_the_neurons_on_every_input(b, q, c):
    s = 1 << b
    gamma = c * math.sqrt(math.log(s))
    rows = compute.split_rows(s, gamma, q)
    counts = C.appendix_a_network(rows, gamma).active_counts(hypercube(b + q))
    assert (counts == s // 2).all()
    assert compute.excess_fraction(rows, [gamma])[0] == 1.0


def test_whp_printed_fail_is_certified_at_the_largest_s(records):
    record = records["whp-printed-split"]
    certificate = record.certificate
    assert record.statement_id == "appendixA-whp" and record.finding == "typo"
    assert certificate["relation"] == ">=" and certificate["lhs"]["quantity"] == "sparse_probability"
    assert (certificate["lhs_value"], certificate["rhs_value"]) == (0.0, 1 - 1 / 16)  # b = 4, s = 16
    outcome = verify_certificate(certificate_document(record))
    assert outcome.confirmed, outcome.message
    # the verifier owns the statement: a network that is not Appendix A's F (an output weight changed) is refused
    tampered = certificate_document(record)
    tampered["certificate"]["lhs"]["network"]["u"][0] = 2.0
    assert not verify_certificate(tampered).confirmed


def test_corrected_variants_cover_unit_rows(report, records):
    sq = report.tables["sqrt_q"]
    sq = sq[sq["replicate"] == 0]
    unit = sq[sq["family"].isin(verdicts.UNIT_FAMILIES)]
    assert (unit["max_active"] == 1).all() and records["sparse-sqrt-q-corrected"].instances == len(unit)
    assert (sq.loc[sq["family"] == "all-ones", "max_active"] == 1 + sq.loc[sq["family"] == "all-ones", "b"]).all()
    assert records["computes"].worst_value < 1e-12


def test_whp_below_hoeffding_and_decays(report, records):
    whp = report.tables["whp"]
    assert (whp["excess_fraction"] <= whp["hoeffding_bound"]).all()
    assert records["whp-hoeffding"].worst_value < 1.0
    assert "log-log slope" in records["whp-sparse"].notes


def test_a_trend_is_never_a_fail():
    import pandas as pd

    rows = [
        dict(
            b=b,
            s=2**b,
            q=8,
            c=1.0,
            gamma=1.0,
            draw=0,
            max_w_norm2=1.0,
            excess_fraction=0.01 * b,
            hoeffding_bound=1.0,
            poly_bound=1.0,
        )
        for b in (2, 3, 4)
    ]
    slopes = verdicts.whp_slopes(pd.DataFrame(rows))
    assert not bool(slopes["decays"].iloc[0]) and slopes["slope"].iloc[0] > 0


# ---------------------------------------------------------------------------
# closed forms and the fast count
# ---------------------------------------------------------------------------


def test_excess_fraction_matches_active_counts(rng):
    for b, q in ((2, 5), (3, 4)):
        for Wy in (C.unit_gaussian_rows(rng, 1 << b, q), rng.standard_normal((1 << b, q)), np.ones((1 << b, q))):
            gammas = [0.0, 0.3, 0.8, 2.0]
            fast = compute.excess_fraction(Wy, gammas)
            X = hypercube(b + q)
            slow = [np.mean(C.appendix_a_network(Wy, g).active_counts(X) > 1) for g in gammas]
            np.testing.assert_allclose(fast, slow)


def test_hoeffding_bound_closed_forms():
    assert compute.hoeffding_bound(4, 0.0) == pytest.approx(15.0)
    for b, c in ((3, 0.5), (6, 1.0)):
        s = 2**b
        gamma = c * math.sqrt(math.log(s))
        assert compute.hoeffding_bound(b, gamma) <= (1 + s ** (-2 * c * c)) ** b - 1 + 1e-15


def test_all_ones_rows_fire_one_plus_b():
    b, q = 2, 12
    net = C.appendix_a_network(np.ones((1 << b, q)), math.sqrt(q))
    assert net.max_active(b + q) == 1 + b


# ---------------------------------------------------------------------------
# independence of points, and the block's cross-key checks
# ---------------------------------------------------------------------------


def test_point_data_does_not_depend_on_other_grid_values(tmp_path):
    small = {**BLOCK, "b_values": [2], "whp": {**BLOCK["whp"], "b_values": [2, 3], "c_values": [0.5]}}
    points_small, points_big = get_claim("appendixA").points(small), get_claim("appendixA").points(BLOCK)
    for name in ("b2-d0", "b2-ones", "whp-b2-c0.5"):
        assert points_small[name] == points_big[name]
        generate_point("appendixA", name, points_small[name], SEED, REPLICATES, tmp_path / f"a-{name}.npz")
        generate_point("appendixA", name, points_big[name], SEED, REPLICATES, tmp_path / f"b-{name}.npz")
        assert (tmp_path / f"a-{name}.npz").read_bytes() == (tmp_path / f"b-{name}.npz").read_bytes()


@pytest.mark.parametrize(
    "change,key",
    [
        ({"b_values": [2, 15]}, "claims.appendixA.b_values[1]"),
        ({"whp": {**BLOCK["whp"], "q": 16, "b_values": [2, 7]}}, "claims.appendixA.whp.b_values[1]"),
    ],
)
def test_validate_rejects_a_bad_block(change, key):
    with pytest.raises(ConfigError, match=key.replace(".", r"\.").replace("[", r"\[")):
        get_claim("appendixA").validate({**BLOCK, **change})
    assert not list(appendixA.validate(BLOCK))


def test_a_broken_network_fails_with_certificates():
    """Unit-norm rows but biases lowered by 2 Gamma: neighbours fire, F != sigma(<w_x, y>); both checks FAIL."""
    import pandas as pd

    claim, parts = get_claim("appendixA"), {}
    block = {**BLOCK, "b_values": [2]}
    for name, point in claim.points(block).items():
        data = claim.generate(point, np.random.default_rng(0))
        if point["kind"] == "draw":
            data["F.unit-gaussian.b"] = data["F.unit-gaussian.b"] - 2 * math.sqrt(point["q"])
        for key, frame in claim.run(point, data, None).items():
            parts.setdefault(key, []).append(frame.assign(point=name))
    tables = {key: pd.concat(frames, ignore_index=True) for key, frames in parts.items()}
    found = {r.check_id.split("/", 1)[1]: r for r in claim.assemble(block, tables).records}
    for name in ("sparse-sqrt-q-corrected", "computes"):
        assert found[name].verdict is Verdict.FAIL and "unit-gaussian" in found[name].counterexample
    assert verify_certificate(certificate_document(found["computes"])).confirmed
    # the lowered biases make the network something other than Appendix A's F (bias Gamma b): the corrected
    # statement, which the verifier pins on F with ||w_alpha||_2 <= 1, does not apply, so the forced FAIL is refused
    outcome = verify_certificate(certificate_document(found["sparse-sqrt-q-corrected"]))
    assert not outcome.confirmed and "not Appendix A's F" in outcome.message, outcome.message


@pytest.mark.parametrize("seed", [0, 11, 20240630])
def test_verdicts_and_ranges_do_not_depend_on_the_seed(seed, tmp_path, monkeypatch):
    """Random unit-norm rows: every verdict is the same under any base seed; every row states its range."""
    import sys

    monkeypatch.setattr(sys.modules[__name__], "SEED", seed)
    assert SEED == seed
    report = stage_claim("appendixA", BLOCK, SEED, REPLICATES, tmp_path)
    rows = {r.check_id.split("/", 1)[1]: r for r in report.records}
    assert {name: r.verdict.value for name, r in rows.items()} == EXPECTED
    assert all(r.range for r in rows.values())
    tightness = report.tables["tightness"]
    assert "replicate" not in tightness.columns and (tightness["proved_over_family"] >= 1).all()


def test_computes_as_printed_fails_with_a_certificate(records):
    """Arbitrary rows (as printed): F differs from sigma(<w_x, y>); the certificate recomputes both sides."""
    record = records["computes-printed"]
    assert record.finding == "typo" and record.statement_id == "appendixA-computes"
    assert verify_certificate(certificate_document(record)).confirmed


def test_all_ones_violation_probability_is_the_closed_form(records):
    from sparseact.claims.appendixA.compute import ones_tail

    assert records["whp-printed-ones"].statement_id == "appendixA-whp"
    assert records["whp-hoeffding"].statement_id == "appendixA-whp-corrected"
    # grows with q towards 1/2 at fixed s (b = 3, c = 1)
    values = [ones_tail(q, (3 * np.log(2)) ** 0.5) for q in (8, 64, 1024)]
    assert values == sorted(values) and values[-1] < 0.5


def test_gamma_tightness_row(report):
    """With unit rows sqrt(q)/2 suffices, and for sign/sqrt(q) rows it is the exact threshold: factor 2 slack."""
    table = report.tables["tightness"]
    row = table[table["bound"].str.startswith("Gamma making F 1-sparse")].iloc[0]
    assert row["printed_over_proved"] == pytest.approx(2.0) and row["proved_over_family"] == pytest.approx(1.0)
