"""The claim ``theorem8``: Theorem 8, its proof steps and Lemma 7, on a tiny block, in process."""

import math
from itertools import pairwise
from pathlib import Path

import numpy as np
import pytest
from certified import assert_forced_fail_refused, tamper_constant

from sparseact.analysis import level_weights
from sparseact.claims import generate_point, get_claim, stage_claim
from sparseact.claims import theorem8 as t8
from sparseact.claims._failures import WORST
from sparseact.claims.theorem8 import compute, rho_chain, sharp, verdicts
from sparseact.cube import hypercube
from sparseact.publish.ledger import certificate_document
from sparseact.runtime.config import ConfigError
from sparseact.verify.checker import verify_certificate

TINY = {
    "n": 6,
    "s": 4,
    "k_values": [1, 2],
    "families": ["gaussian", "bucket"],
    "parity_p": 2,
    "degrees": [0, 1, 2],
    "sample_sizes": [60, 200, 800],
    "seeds": 2,
    "eps": 0.05,
    "relative_eps": 0.1,
    "delta": 0.1,
}
SEED = 7


@pytest.fixture(scope="module")
def report(tmp_path_factory):
    return stage_claim("theorem8", TINY, SEED, 2, tmp_path_factory.mktemp("theorem8"))


@pytest.fixture(scope="module")
def records(report):
    return {r.check_id: r for r in report.records}


@pytest.mark.parametrize(
    "check_id,expected",
    [
        ("theorem8/prescription", "PASS"),
        ("theorem8/C_H", "PASS"),
        ("theorem8/rho-choice", "FAIL"),
        ("theorem8/rho-choice-corrected", "PASS"),
        ("theorem8/tail-step", "FAIL"),
        ("theorem8/tail-step-corrected", "PASS"),
        ("theorem8/tail-vs-as", "PASS"),
        ("theorem8/remark11-active", "PASS"),
        ("theorem8/rho-choice-sharp", "PASS"),
        ("theorem8/degree-dominates", "PASS"),
        ("theorem8/monomial-count", "PASS"),
        ("theorem8/C_H-attained", "PASS"),
        ("theorem8/lemma7-projection-printed", "FAIL"),
        ("theorem8/degree-degenerate", "FAIL"),
        ("theorem8/final-line", "PASS"),
        ("theorem8/lemma7-projection", "PASS"),
    ],
)
def test_known_verdicts(records, check_id, expected):
    assert records[check_id].verdict.value == expected, records[check_id]


def test_big_o_checks_never_fail(records):
    for check_id in ("theorem8/prescription", "theorem8/degree-vs-k", "theorem8/lemma7-rate"):
        assert records[check_id].verdict.value != "FAIL"
    assert records["theorem8/lemma7-rate"].worst_value < 1.0


def test_records_follow_the_contract(records):
    for record in records.values():
        assert record.claim_id == "theorem8" and record.check_id.startswith("theorem8/")
        assert record.statement_id in get_claim("theorem8").statements
        assert record.range, record.check_id


@pytest.mark.parametrize(
    "check_id,finding",
    [
        ("theorem8/tail-step", "proof-slip"),
        ("theorem8/lemma7-projection-printed", "proof-slip"),
        ("theorem8/degree-degenerate", "out-of-range"),
        ("theorem8/theorem4-n1", "out-of-range"),
    ],
)
def test_new_fails_are_certified(records, check_id, finding):
    record = records[check_id]
    assert record.verdict.value == "FAIL" and record.finding == finding and record.counterexample
    assert verify_certificate(certificate_document(record)).confirmed, check_id


def test_tail_step_fails_at_the_proofs_own_d_and_rho(report):
    own = report.tables.get("theorem8-tail-printed")
    record = {r.check_id: r for r in report.records}["theorem8/tail-step"]
    assert record.certificate["relation"] == "<=" and "printed d and 1-rho" in record.certificate["explanation"]
    assert own is None or len(own)


def test_tightness_row(report):
    row = report.tables["tightness"].iloc[0]
    assert row["printed_over_proved"] > 1 and row["family_value"] >= 0


def test_rho_choice_certificate_is_verified(records):
    record = records["theorem8/rho-choice"]
    assert record.finding == "proof-slip" and record.counterexample
    cert = record.certificate
    assert cert["lhs_value"] > rho_chain.CERT_MARGIN * cert["rhs_value"]
    assert cert["lhs"]["vars"]["lomr"]["vars"]["c"] == compute.CERT_C
    verification = verify_certificate(certificate_document(record))
    assert verification.confirmed, verification.message


def test_rho_ratio_closed_form_grows_for_every_c():
    # Bias term binding: ratio = 3 sqrt(c) (1 + k W^2 log^2(ns k^6 B^4 log(s)/(c eps^2)) / (B^2 sqrt(log s))).
    n, s, k, W, B = 12, 8, 1, 1.0, 1.0
    for c in (1.0, 1e-6, 1e-12):
        ells = np.array([400.0, 500.0, 650.0])  # large enough for the bias term to bind the min
        got = compute.lemma10_ratio(compute.printed_log_one_minus_rho(ells, n, s, k, W, B, c=c), ells, n, s, k, W, B)
        log_arg = math.log(n * s * k**6 * B**4 * math.log(s) / c) + 2 * ells
        closed = 3 * math.sqrt(c) * (1 + k * W**2 * log_arg**2 / (B**2 * math.sqrt(math.log(s))))
        np.testing.assert_allclose(got, closed, rtol=1e-12)
        assert np.all(np.diff(got) > 0)


def test_corrected_rho_bounds_lemma10_on_random_parameters():
    rng = np.random.default_rng(0)
    for _ in range(300):
        n, s = int(rng.integers(1, 10**6)), int(rng.integers(1, 5000))
        k = int(rng.integers(1, min(s, 16) + 1))
        W, B = float(10 ** rng.uniform(-4, 2)), float(10 ** rng.uniform(-4, 2)) * rng.integers(0, 2)
        ell = rng.uniform(0, 300, size=5)
        ratio = compute.lemma10_ratio(compute.corrected_log_one_minus_rho(ell, n, s, k, W, B), ell, n, s, k, W, B)
        assert np.all(ratio <= 1.0 + 1e-12), (n, s, k, W, B, ell, ratio)


def test_tail_chain_for_the_proofs_d():
    d, x, one_minus = compute.tail_chain(np.array([1.0, 0.95, 0.5, 1e-9]))
    assert d.tolist() == [1.0, 2.0, 2.0, 1e9]
    np.testing.assert_allclose(one_minus[:3], [1.0, 1 - 0.05**2, 0.75])
    assert np.all((x >= 1 - 1e-12) & (x <= 3 * one_minus))
    # The printed chain is false for d the proof does not choose: rho = 0.05, d = 4.
    assert 4 * 0.95 > 3 * (1 - 0.05**4)


def test_degree_needed_closed_forms():
    X = hypercube(6)
    parity3 = X[:, :3].prod(axis=1)
    assert compute.degree_needed(level_weights(parity3), 1e-9) == 3
    assert compute.degree_needed(level_weights(X[:, 0]), 1e-9) == 1
    assert compute.degree_needed(level_weights(np.ones(64)), 1e-9) == 0
    assert compute.degree_needed(level_weights(parity3), 0.1, relative=True) == 3


def test_points_are_independent(tmp_path):
    bigger = dict(TINY, k_values=[1, 2, 3], families=["gaussian", "bucket", "sign"])
    small_points, big_points = t8.points(TINY), t8.points(bigger)
    assert set(small_points) < set(big_points)
    for name in ("target-gaussian-k1", "target-bucket-k2", "target-dense", "target-parity-p2", "proof-steps"):
        assert small_points[name] == big_points[name]
        a, b = tmp_path / f"a-{name}.npz", tmp_path / f"b-{name}.npz"
        generate_point("theorem8", name, small_points[name], SEED, 1, a)
        generate_point("theorem8", name, big_points[name], SEED, 1, b)
        assert a.read_bytes() == b.read_bytes()


def test_samples_are_nested_and_networks_sparse(tmp_path):
    point = t8.points(TINY)["target-gaussian-k2"]
    data = compute.generate(point, np.random.default_rng(1))
    assert data["samples"].shape == (TINY["seeds"], max(TINY["sample_sizes"]))
    assert data["samples"].max() < 2 ** TINY["n"]
    from sparseact.runtime.datafiles import network_from_arrays

    assert network_from_arrays(data, "net").max_active() <= 2


@pytest.mark.parametrize(
    "change,key",
    [
        ({"k_values": [1, 8]}, "claims.theorem8.k_values[1]"),
        ({"degrees": [0, 7]}, "claims.theorem8.degrees[1]"),
        ({"parity_p": 9}, "claims.theorem8.parity_p"),
    ],
)
def test_validate_rejects_bad_blocks(change, key):
    with pytest.raises(ConfigError, match=key.replace("[", r"\[").replace("]", r"\]")):
        get_claim("theorem8").validate(dict(TINY, **change))
    get_claim("theorem8").validate(TINY)


# ---------------------------------------------------------------------------
# Forced violations: a FAIL still carries a finding class and a certificate, which the verifier (pinning the
# paper's statements) refuses
# ---------------------------------------------------------------------------


def _proof_tables():
    return compute._run_proof(t8.points(TINY)["proof-steps"])


def _rho_corrected(tables):
    records = rho_chain.rho_records(
        TINY, tables["theorem8-rho-choice"], tables["theorem8-rho-first-fail"], tables["theorem8-rho-corrected-wide"]
    )
    return {r.check_id: r for r in records}["theorem8/rho-choice-corrected"]


def test_rho_choice_corrected_fail_forced_is_refused(monkeypatch):
    assert _rho_corrected(_proof_tables()).verdict.value == "PASS"
    # Lemma 10's hidden constant C = 10: the 1 - rho* built for C = 1 no longer gives NS_rho <= eps/3.
    tamper_constant(monkeypatch, "theorem8", "LEMMA10_C", 10.0)
    record = _rho_corrected(_proof_tables())
    assert_forced_fail_refused(record, "proof-slip")
    assert record.certificate["lhs_value"] == pytest.approx(record.worst_value)
    assert record.certificate["lhs"]["vars"]["C"] == 10.0


def _tail_table(pairs):
    """A tail-step table whose rows have the given ``(1 - rho, d)`` (fabricated ``d`` allowed)."""
    import pandas as pd

    omr = np.array([p[0] for p in pairs], dtype=float)
    d = np.array([p[1] for p in pairs], dtype=float)
    with np.errstate(divide="ignore"):  # 1 - rho = 1: rho^d = 0
        one_minus_rho_d = -np.expm1(d * np.log1p(-omr))
    return pd.DataFrame(
        dict(
            source=["grid"] * len(pairs),
            one_minus_rho=omr,
            d=d,
            d_one_minus_rho=d * omr,
            one_minus_rho_d=one_minus_rho_d,
            three_one_minus_rho_d=3 * one_minus_rho_d,
        )
    )


def _tail(pairs):
    table = _tail_table(pairs)
    return {r.check_id: r for r in rho_chain.tail_records(table, table)}


def test_tail_steps_pass_for_the_proofs_d():
    omr = np.linspace(1.0, 1e-3, 50)
    records = _tail([(o, float(np.ceil(1 / o))) for o in omr])
    assert {r.verdict.value for r in records.values()} == {"PASS"}


@pytest.mark.parametrize(
    "pairs,relation",
    [
        ([(0.95, 2.0), (0.95, 4.0)], "<="),  # rho = 0.05, d = 4: d(1-rho) = 3.8 > 3(1-rho^4)
        ([(0.95, 2.0), (0.5, 1.0)], ">="),  # d(1-rho) = 0.5 < 1
    ],
)
def test_tail_step_fail_forced_is_refused(pairs, relation):
    record = _tail(pairs)["theorem8/tail-step"]
    assert_forced_fail_refused(record, "proof-slip")
    assert record.certificate["relation"] == relation
    assert record.certificate["lhs"]["vars"] == {"omr": pairs[1][0], "d": int(pairs[1][1])}


def test_tail_step_corrected_fail_forced_is_refused():
    record = _tail([(0.95, 2.0), (0.5, 1.0)])["theorem8/tail-step-corrected"]  # 1 - rho^d = 0.5 < 1 - 1/e
    assert_forced_fail_refused(record, "proof-slip")
    assert record.certificate["lhs_value"] == pytest.approx(0.5)


def _target_run(name):
    point = dict(t8.points(TINY)[name], degrees=[0, 1], sample_sizes=[60], seeds=1)
    return compute._run_target(point, compute.generate(point, np.random.default_rng(3)))


def test_ch_fail_forced_is_refused(monkeypatch):
    from sparseact import bounds

    tables = _target_run("target-gaussian-k1")
    assert (tables[WORST]["excess"] <= 1).all()  # max |h| within C_H
    assert verdicts._ch_record(tables["theorem8-targets"], tables).verdict.value == "PASS"
    # A statement 100 times stricter than the printed C_H, in the check and in the certificate's formula alike.
    monkeypatch.setattr(bounds, "class_sup_bound", lambda n, k, W, B: k * (W * np.sqrt(n) + B) / 100)
    tamper_constant(monkeypatch, "theorem8", "CH_EXPR", "k * (W * sqrt(n) + B) / 100")
    tables = _target_run("target-gaussian-k1")
    assert list(tables[WORST]["measure"]) == ["sup-h-over-C_H"] and (tables[WORST]["excess"] > 1).all()
    record = verdicts._ch_record(tables["theorem8-targets"], tables)
    assert_forced_fail_refused(record, "proof-slip")
    assert record.certificate["lhs_value"] == pytest.approx(tables["theorem8-targets"]["max_abs_h"].iloc[0])
    # The right side is recomputed from the network (k from its active sets, W and B from its weights).
    assert record.certificate["rhs"]["vars"]["k"]["vars"]["a"]["quantity"] == "max_active"


def test_ch_fail_without_a_recorded_instance_is_inconclusive():
    import pandas as pd

    targets = pd.DataFrame(dict(target=["t"], max_abs_h=[2.0], C_H=[1.0]))
    record = verdicts._ch_record(targets, {})
    assert record.verdict.value == "INCONCLUSIVE" and not record.finding and record.certificate is None
    assert "no instance certifies it exactly" in record.notes


@pytest.mark.parametrize("base_seed", [8919, 16838])
def test_verdicts_do_not_depend_on_the_base_seed(tmp_path, monkeypatch, base_seed):
    """The checks on random targets give the same verdicts under other base seeds (brief item 7)."""
    monkeypatch.setitem(globals(), "SEED", base_seed)
    block = {**TINY, "k_values": [1], "sample_sizes": [60, 200]}
    found = {r.check_id: r for r in stage_claim("theorem8", block, SEED, 1, tmp_path).records}
    for check_id in (
        "theorem8/tail-vs-as",
        "theorem8/remark11-active",
        "theorem8/lemma7-rate",
        "theorem8/lemma7-projection",
        "theorem8/C_H",
        "theorem8/prescription",
    ):
        assert found[check_id].verdict.value == "PASS", (base_seed, found[check_id])


def test_two_point_certificates_confirmed(tmp_path):
    """Lemma 7 with C_H = sup h and the proof's last line fail; the verifier confirms both certificates."""
    import json

    from sparseact.publish.ledger import write_certificates
    from sparseact.verify.verdicts import Verdict

    records = {r.check_id: r for r in sharp.two_point_records()}
    assert records["theorem8/lemma7-CH-sign"].verdict is Verdict.FAIL
    assert records["theorem8/lemma7-CH-sign"].finding == "typo"
    assert records["theorem8/final-line-scale"].verdict is Verdict.FAIL
    # the last line of the proof drops the factor that Theorem 8's statement keeps: a proof-slip
    assert records["theorem8/final-line-scale"].finding == "typo"
    assert records["theorem8/final-line-scale-corrected"].verdict is Verdict.PASS
    paths = write_certificates([records["theorem8/lemma7-CH-sign"], records["theorem8/final-line-scale"]], tmp_path)
    assert len(paths) == 2
    for path in paths:
        assert verify_certificate(json.loads(Path(path).read_text())).confirmed, path


def test_final_line_scale_invariance():
    """Along (W, B, eps) -> (lam, lam, 0.1 lam^2) the printed d and the corrected count are invariant; the printed
    last-line count shrinks like lam^-2 (deterministic: no seed enters)."""
    import math

    rows = sharp.final_line_rows()
    assert all(math.isclose(r["d"], rows[0]["d"], rel_tol=1e-12) for r in rows)
    assert all(math.isclose(r["corrected"], rows[0]["corrected"], rel_tol=1e-9) for r in rows)
    for a, b in pairwise(rows):
        assert math.isclose(a["printed"] / b["printed"], (b["lam"] / a["lam"]) ** 2, rel_tol=1e-9)


def test_clamped_rho_in_unit_interval_and_sharp_bound_on_whole_grid():
    """The clamped 1 - rho lies in (0, 1] everywhere (the printed one can be <= 0 or > 2) and the lemma10-sharp bound
    at it is <= eps/3 on the whole wide grid, knsW^2 < eps included (deterministic: no seed enters)."""
    import numpy as np

    ells = np.linspace(0.0, 700.0, 1401)
    lomr = compute.clamped_log_one_minus_rho(ells, 2, 2, 1, 0.1, 0.0, c=compute.C_RHO_SHARP)
    assert np.all(np.isfinite(lomr)) and np.all(lomr <= 0.0)
    printed = compute.printed_log_one_minus_rho(ells, 2, 2, 1, 0.1, 0.0, c=compute.C_RHO_SHARP)
    assert not np.all(np.isfinite(printed))  # the printed 1 - rho is <= 0 for some eps on this grid
    rows = compute._sharp_proof_rows(ells)["theorem8-rho-sharp"]
    assert len(rows) and float(rows["ratio"].max()) <= 1.0
