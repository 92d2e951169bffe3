"""Claim ``theorem19``: the stages on a tiny block, the known verdicts, point independence, the block checks."""

import copy
import math

import numpy as np
import pytest
from certified import assert_forced_fail_refused, tamper_constant
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from sparseact import complexity as cx
from sparseact.claims import get_claim, theorem19
from sparseact.claims._stages import point_rng
from sparseact.claims.theorem19 import RANGE_EXACT_M, bounds, certificates, compute, steps, tightness, verdicts
from sparseact.publish.ledger import certificate_document
from sparseact.verify import corners
from sparseact.verify.checker import verify_certificate
from sparseact.verify.verdicts import Verdict

CLAIM = get_claim("theorem19")
BLOCK = {
    "distributions": ["uniform"],
    "n": 4,
    "m_values": [10, 20, 40],
    "s_values": [1, 2, 4],
    "k_values": [1],
    "W": 1.0,
    "B": 1.0,
    "n_zeta": 3,
    "confirm_zeta": 6,
    "dimension": {"n_values": [2, 4, 8], "m": 12, "s": 1, "k": 1},
    "exact": {"m": 5, "n": 2, "s_values": [1, 2], "k_values": [1]},
    "range": {"samples": [[1, 4], [2, 4], [2, 10]], "s_values": [1, 2], "B_values": [0.0, 1.0]},
    "scale": {"m": 8, "n": 2, "R_values": [1.0, 0.2, 0.13]},
    "conj20_simplex": {"m": 10, "B": 0.4, "exact_m": 5},
}


def _tables(block, replicate=0, seed=7):
    import pandas as pd

    parts = {}
    for name, point in CLAIM.points(block).items():
        data = CLAIM.generate(point, point_rng(seed, "theorem19", name, replicate, "data"))
        for table, frame in CLAIM.run(point, data, point_rng(seed, "theorem19", name, replicate, "run")).items():
            frame = frame.copy()
            frame.insert(0, "point", name)
            parts.setdefault(table, []).append(frame)
    return {name: pd.concat(frames, ignore_index=True) for name, frames in parts.items()}


@pytest.fixture(scope="module")
def tables():
    return _tables(BLOCK)


@pytest.fixture(scope="module")
def report(tables):
    return CLAIM.assemble(BLOCK, tables)


#: The checks of the proof's steps and of the facts they cite (all exact, PASS on every seed).
STEP_CHECKS = {
    "theorem19/cover-count",
    "theorem19/sauer-shelah",
    "theorem19/cells-count",
    "theorem19/hoeffding",
    "theorem19/eq5-tails",
    "theorem19/eq9-tails",
    "theorem19/eq10-union",
    "theorem19/eq6-second-term",
    "theorem19/eq7-corrected",
    "theorem19/eq8-second-term",
    "theorem19/eq13-first-term",
    "theorem19/eq14-first-term",
    "theorem19/combine-corrected",
    "theorem19/classical-bound",
    "theorem19/cells-km",
    "theorem19/sparsity-exponent",
    "theorem19/contraction",
    "theorem19/linear-class",
    "theorem19/uniform-maximum",
    "theorem19/uniform-bound",
    "theorem19/constant-tight",
}
#: The printed steps certified false, with their finding class.
PRINTED_FAILS = {
    "theorem19/eq12-printed": "proof-slip",
    "theorem19/eq7-printed": "proof-slip",
    "theorem19/km-printed": "proof-slip",
    "theorem19/combine-printed": "constant-factor",
    "theorem19/eq8-printed-cells": "proof-slip",
    "theorem19/eq14-printed-cells": "proof-slip",
}


def test_known_verdicts(report):
    from sparseact.paper import statements

    rows = {r.check_id: r for r in report.records}
    assert set(rows) == {
        "theorem19/estimators",
        "theorem19/bound",
        "theorem19/eq15-bound",
        "theorem19/conj20-bound",
        "theorem19/scale",
        "theorem19/scale-corrected",
        "theorem19/sparse-vs-dense",
        "theorem19/conj20-dimension",
        "theorem19/eq15-scale",
        "theorem19/conj20-exact-lower",
    } | STEP_CHECKS | set(PRINTED_FAILS)
    assert rows["theorem19/estimators"].verdict is Verdict.PASS  # lower <= exact <= proof quantity, per zeta
    assert rows["theorem19/scale-corrected"].verdict is Verdict.PASS
    for check_id in STEP_CHECKS | {"theorem19/bound", "theorem19/eq15-bound"}:
        assert rows[check_id].verdict is Verdict.PASS and rows[check_id].method == "exact", check_id
    known = {entry["id"] for entry in statements()}
    for row in report.records:
        assert row.statement_id in known
        assert row.range, row.check_id  # every record states the parameters its instances cover
        # trends and Monte Carlo lower bounds never FAIL
        if row.method != "exact":
            assert row.verdict is not Verdict.FAIL or row.certificate


@pytest.mark.parametrize("check_id", sorted(PRINTED_FAILS))
def test_printed_steps_fail_with_certificates_that_verify(report, check_id):
    row = next(r for r in report.records if r.check_id == check_id)
    assert row.verdict is Verdict.FAIL and row.finding == PRINTED_FAILS[check_id] and row.counterexample
    assert verify_certificate(certificate_document(row)).confirmed


def test_eq12_certificate_values():
    """n = s = 1, x = (1, -1), B >= W: E max of the first term is 0.75 W, the printed max E is 0.5 W."""
    from sparseact.claims.theorem19 import steps as st

    instance = st.eq12_instance()
    assert instance["lhs"] == pytest.approx(0.75 * st.EQ12_W) and instance["rhs"] == pytest.approx(0.5 * st.EQ12_W)


def test_cover_count_formula_small_cases():
    from sparseact.claims.theorem19 import steps as st

    assert st.cover_count(4, 2) == 8  # 4 points on a line (affine, d = 2): 2 (1 + 3)
    assert st.cover_count(5, 3) == 2 * (1 + 4 + 6)
    assert st.sauer_shelah(5, 2) == 1 + 5 + 10


def test_tightness_table_columns(report):
    from sparseact.publish.statements import TIGHTNESS_COLUMNS

    table = report.tables["tightness"]
    assert list(table.columns) == TIGHTNESS_COLUMNS
    assert set(table["bound"]) == {tightness.TIGHTNESS_LABELS[k] for k in ("eq1", "eq15", "conj20", "dense")}
    assert (table["printed_over_proved"] <= 1).all()


def test_verdicts_do_not_depend_on_the_seed(report):
    """Every verdict (exact, Monte Carlo or estimate) is the same under other base seeds."""
    reference = {r.check_id: r.verdict for r in report.records}
    for seed in (11, 2024):
        other = CLAIM.assemble(BLOCK, _tables(BLOCK, seed=seed))
        assert {r.check_id: r.verdict for r in other.records} == reference, seed


@pytest.mark.parametrize("check_id", ["theorem19/scale", "theorem19/eq15-scale"])
def test_eq1_scale_fail_has_a_certificate_that_verifies(report, check_id):
    # out-of-range by the degenerate-corner rule: every violation is at m(R+B) < e, and flooring the printed
    # log(m(R+B)) at 1 removes it (sparseact.verify.corners)
    row = next(r for r in report.records if r.check_id == check_id)
    assert row.verdict is Verdict.FAIL and row.finding == "out-of-range" and row.counterexample
    assert corners.certificate_in_corner(row.certificate)
    cert = row.certificate
    assert cert["lhs"]["quantity"] == "rademacher_lower_bound" and cert["rhs"]["quantity"] == "formula"
    assert len(cert["lhs"]["zetas"]) == 2 ** BLOCK["scale"]["m"]  # all sign vectors
    assert cert["lhs_value"] > cert["rhs_value"]
    assert verify_certificate(certificate_document(row)).confirmed


def test_points_are_independent():
    small = copy.deepcopy(BLOCK)
    small["m_values"] = [10]
    small["s_values"] = [2]
    name = "sweep-uniform-m10-s2-k1"
    assert name in CLAIM.points(small) and CLAIM.points(small)[name] == CLAIM.points(BLOCK)[name]
    point = CLAIM.points(BLOCK)[name]
    a = CLAIM.generate(point, point_rng(3, "theorem19", name, 0, "data"))
    b = CLAIM.generate(CLAIM.points(small)[name], point_rng(3, "theorem19", name, 0, "data"))
    assert a["X"].tobytes() == b["X"].tobytes()
    ra = CLAIM.run(point, a, point_rng(3, "theorem19", name, 0, "run"))["sweep"]
    rb = CLAIM.run(point, b, point_rng(3, "theorem19", name, 0, "run"))["sweep"]
    assert ra.equals(rb)


def test_dense_class_is_added_and_named():
    pts = CLAIM.points(BLOCK)
    assert pts["sweep-uniform-m10-s4-k4"]["cls"] == "dense"
    assert pts["sweep-uniform-m10-s1-k1"]["cls"] == "sparse"


@pytest.mark.parametrize(
    "edit, key",
    [
        (lambda b: b["dimension"].update(k=3, s=2), "dimension.k"),
        (lambda b: b.update(distributions=["lifted-parity"], n=10), "n"),
        (lambda b: b["exact"].update(s_values=[1], k_values=[2]), "exact.k_values"),
    ],
)
def test_check_names_the_key(edit, key):
    from sparseact.runtime.config import ConfigError

    block = copy.deepcopy(BLOCK)
    edit(block)
    assert key in {k for k, _ in theorem19.validate(block)}
    with pytest.raises(ConfigError, match=f"claims.theorem19.{key}"):
        CLAIM.validate(block)
    CLAIM.validate(BLOCK)


def test_lower_bound_batch_matches_class_and_dense_shortcut():
    X, _ = cx.sample_distribution("uniform", 15, 3, np.random.default_rng(4))
    zetas = 1.0 - 2.0 * np.random.default_rng(5).integers(0, 2, size=(3, 15))
    for s, k in ((3, 1), (3, 3)):
        for res in cx.sup_lower_bounds(X, zetas, s, k, 1.0, 1.0, np.random.default_rng(6)):
            assert cx.in_class(res.network, X, s, k, 1.0, 1.0)
    single = cx.sup_lower_bounds(X, zetas, 1, 1, 1.0, 1.0, np.random.default_rng(6))
    dense = cx.sup_lower_bounds(X, zetas, 3, 3, 1.0, 1.0, np.random.default_rng(6))
    for a, b in zip(single, dense, strict=True):  # k >= s: s copies of the best single neuron
        assert b.value == pytest.approx(3 * a.value, rel=1e-9)


def test_exact_networks_certify_the_exact_value():
    X = np.random.default_rng(8).standard_normal((5, 2))
    ex = cx.rademacher_exact_networks(X, 2, 1, 1.0, 0.5)
    assert ex.zetas.shape == (32, 5) and len(ex.networks) == 32
    assert ex.exact == pytest.approx(cx.rademacher_exact(X, 2, 1, 1.0, 0.5).estimate, rel=1e-9)
    assert all(cx.in_class(net, X, 2, 1, 1.0, 0.5) for net in ex.networks)
    assert np.all(ex.values <= ex.uppers + 1e-9)


def test_eq1_closed_form_at_the_counterexample():
    m, n, W, R = 8, 2, 1.0, 0.13
    eq1 = cx.paper_bounds(m, n, 1, 1, W, 0.0, R)["eq1"]
    assert eq1 == pytest.approx(W * R * math.sqrt(n * math.log(m * R)) / math.sqrt(m))


def _rerun(tables, name, replace=()):
    """``tables`` with the run of point ``name`` redone (under the test's patches): its violations, and the rows of
    the tables in ``replace`` swapped for the new ones."""
    import pandas as pd

    from sparseact.claims._failures import WORST

    point = CLAIM.points(BLOCK)[name]
    data = CLAIM.generate(point, point_rng(7, "theorem19", name, 0, "data"))
    out = {
        table: frame.assign(point=name)
        for table, frame in CLAIM.run(point, data, point_rng(7, "theorem19", name, 0, "run")).items()
    }
    new = dict(tables)
    for table in replace:
        new[table] = pd.concat([tables[table][tables[table]["point"] != name], out[table]], ignore_index=True)
    new[WORST] = out[WORST]
    return new


def test_estimators_fail_forced_by_a_tolerance_is_refused(tables, monkeypatch):
    from sparseact.claims._failures import WORST

    assert (tables[WORST][tables[WORST]["measure"] == "estimator-order"]["excess"] <= 0).all()  # PASS on the data
    tamper_constant(
        monkeypatch, "theorem19", "ORDER_TOL", -0.01
    )  # demand lower <= exact - 0.01 and exact <= proof - 0.01
    row = next(
        r
        for r in CLAIM.assemble(BLOCK, _rerun(tables, "exact-uniform-s1-k1")).records
        if r.check_id == "theorem19/estimators"
    )
    assert row.certificate["lhs"]["quantity"] == "rademacher_lower_bound" and len(row.certificate["lhs"]["zetas"]) == 1
    assert_forced_fail_refused(row, "proof-slip")


def test_scale_corrected_fail_forced_by_a_made_up_bound_is_refused(tables, monkeypatch):
    monkeypatch.setitem(compute.BOUND_EXPRS, "eq1_corrected", compute.EQ1_CORRECTED_EXPR + "/100")
    row = next(
        r
        for r in CLAIM.assemble(BLOCK, _rerun(tables, "scale", replace=("scale",))).records
        if r.check_id == "theorem19/scale-corrected"
    )
    cert = row.certificate
    assert cert["rhs"]["expr"].endswith("/100") and len(cert["lhs"]["zetas"]) == 2 ** BLOCK["scale"]["m"]
    assert_forced_fail_refused(row, "out-of-range")


def test_conj20_exact_lower_bound_uses_every_sign_vector(tables, report):
    from sparseact.claims.theorem19 import CONJ20_M
    from sparseact.verify.recompute import MAX_RADEMACHER_M

    row = next(r for r in report.records if r.check_id == "theorem19/conj20-exact-lower")
    low = tables["conj20"]
    assert CONJ20_M <= MAX_RADEMACHER_M and (low["sign_vectors"] == 2 ** low["m"]).all()
    assert row.method == "exact" and row.range and row.instances == len(low)
    # the regular simplex with s = 2, k = 1 (explicit networks) refutes the constant 1 of (16); the certificate is
    # re-checked by the verifier, which recomputes both sides from the sample and the 2^m networks
    simplex = low[low["distribution"] == "simplex"].iloc[0]
    assert (simplex["m"], simplex["s"], simplex["k"], simplex["B"]) == (10, 2, 1, 0.4)
    assert simplex["lower"] == pytest.approx(simplex["closed_form"], abs=1e-8) and simplex["ratio"] > 1.03
    assert row.verdict is Verdict.FAIL and row.finding == "constant-factor" and "simplex" in row.counterexample
    assert verify_certificate(certificate_document(row)).confirmed


def test_corrected_eq1_expression_is_the_bound_the_verifier_pins():
    """theorem19/scale-corrected's certificates state EQ1_CORRECTED_EXPR; the verifier recomputes the side from
    sparseact.bounds.theorem19_rademacher_corrected: the two agree."""
    from sparseact import bounds

    for m, n, s, W, B, R in ((8, 2, 1, 1.0, 0.0, 0.13), (400, 9, 8, 1.0, 1.0, 3.0), (3, 1, 2, 0.5, 0.2, 0.01)):
        value = compute.bound_value("eq1_corrected", dict(m=m, n=n, s=s, W=W, B=B, R=R, k=1))
        assert bounds.theorem19_rademacher_corrected(m, n, s, W, B, R) == pytest.approx(value, rel=1e-15)


def test_conj20_forced_fail_is_refused_by_the_pinned_statement(monkeypatch):
    """A tolerance forced below -1/2 makes theorem19/conj20-exact-lower build a certificate for a lower bound that
    is below (16): the verifier (pinned eq. (16)) recomputes both sides and does not confirm it."""
    import json

    import numpy as np

    from sparseact.complexity import sample_distribution

    tamper_constant(monkeypatch, "theorem19", "EXACT_RTOL", -0.9)
    X, _ = sample_distribution("uniform", 8, 4, np.random.default_rng(3))
    point = dict(distribution="uniform", s=1, k=1, W=1.0, B=1.0)
    table, certs, _ = compute._run_conj20(point, X, np.random.default_rng(4))
    assert table["above_conj20"].iloc[0] and table["lower"].iloc[0] < table["conj20"].iloc[0]
    data = json.loads(certs[0]["data"])
    lhs, rhs = certificates.rademacher_sides(data)
    certificate = dict(relation="<=", lhs=lhs, rhs=rhs, lhs_value=data["lhs_value"], rhs_value=data["rhs_value"])
    document = dict(check_id="theorem19/conj20-exact-lower", statement_id="conj20", certificate=certificate)
    outcome = verify_certificate(document)
    assert not outcome.confirmed and "holds" in outcome.message, outcome.message
    assert outcome.lhs == pytest.approx(table["lower"].iloc[0]) and outcome.rhs == pytest.approx(
        table["conj20"].iloc[0]
    )


#: A tiny sample per bound of theorem19/bound, eq15-bound and conj20-bound whose exact R_H(S) (all 2^m sign vectors,
#: one optimal network each) exceeds it: (1) and (15) in the degenerate corner, m(R+B) = 1.1 and km(R+B) = 1.2 (two
#: points on a line, B = 0; (15) with s = k = 2), where flooring the log at 1 removes the violation (out-of-range);
#: (16) on the regular simplex of 6 points (s = 2, k = 1, B = 0.45: exact 0.83828 > 0.83716; constant-factor, as
#: theorem19/conj20-exact-lower at m = 10).
BOUND_FAILS = {
    "theorem19/bound": ("eq1", [[0.55], [-0.55]], 1, 1, 0.0, "out-of-range"),
    "theorem19/eq15-bound": ("eq15", [[0.3], [-0.3]], 2, 2, 0.0, "out-of-range"),
    "theorem19/conj20-bound": ("conj20", "simplex", 2, 1, 0.45, "constant-factor"),
}


def _bound_fail(check_id):
    """The record _bound_record writes for the exact point (the runs stage's _run_exact) of BOUND_FAILS[check_id]."""
    import pandas as pd

    from sparseact.complexity.simplex import regular_simplex

    column, X, s, k, B, _ = BOUND_FAILS[check_id]
    X = regular_simplex(6) if X == "simplex" else np.asarray(X, dtype=float)
    point = dict(distribution="uniform", s=s, k=k, W=1.0, B=B, zetas=theorem19.ORDER_ZETAS)
    exact, certs, _ = compute._run_exact(point, X, np.random.default_rng(0))
    sweep = pd.DataFrame(columns=["eq1", "eq15", "conj20", "k", "cls", "ci_low", "ci_high", "estimate"])
    sweep = sweep.assign(distribution=[], confirmed=[])
    certs = pd.DataFrame(certs).assign(point="p")
    return bounds.bound_record(verdicts.assembly(), column, sweep, exact.assign(point="p"), certs, pd.DataFrame())


@pytest.mark.parametrize("check_id", sorted(BOUND_FAILS))
def test_a_bound_fail_on_a_tiny_sample_is_confirmed_and_a_tampered_field_refused(check_id):
    from certified import assert_certified_fail

    record = _bound_fail(check_id)
    assert_certified_fail(record, BOUND_FAILS[check_id][-1])
    assert len(record.certificate["lhs"]["zetas"]) == 2 ** len(record.certificate["lhs"]["X"])  # all sign vectors
    document = certificate_document(record)
    for edit, reason in (
        (lambda d: d["certificate"].update(rhs_label="bound"), "certificate.rhs_label"),
        (lambda d: d["certificate"]["rhs"]["vars"].update(s=3), "rhs: s = 3 in the file"),
        (lambda d: d.update(finding="statement-error"), "field 'finding'"),
        (lambda d: d.update(statement="R_H(S) <= anything"), "field 'statement'"),
    ):
        tampered = copy.deepcopy(document)
        edit(tampered)
        outcome = verify_certificate(tampered)
        assert not outcome.confirmed and reason in outcome.message, outcome.message


def test_eq1_refuses_a_class_with_k_above_1():
    """(1) is stated for H_{n,s,1}: a lower bound on R_H of a class with k = 2 refutes nothing of it, in either pass."""
    from sparseact.verify.checker import PINS

    document = certificate_document(_bound_fail("theorem19/bound"))
    for side in (document["certificate"]["lhs"], document["certificate"]["rhs"]["vars"]):
        side["k"] = 2
    outcome = verify_certificate(document)
    assert not outcome.confirmed and "H_{n,s,1}^{W,B}: the instance's class has k = 2" in outcome.message
    with pytest.raises(Exception, match="k = 2"):
        PINS["theorem19/bound"].rigorous(document["certificate"])


def test_a_corner_pin_expects_the_class_the_rule_gives():
    """The pinned finding (statement-error, out-of-range) of theorem19/bound is out-of-range for its corner instance
    and statement-error for a violation that survives flooring the log at 1 (here a made-up lhs value)."""
    from sparseact.verify.checker import PINS, _pinned_finding

    pin = PINS["theorem19/bound"].pinned_text["finding"]
    certificate = _bound_fail("theorem19/bound").certificate
    assert _pinned_finding(pin, certificate) == "out-of-range"
    assert _pinned_finding(pin, {**certificate, "lhs_value": 10.0}) == "statement-error"


def test_range_points_extend_eq1_and_conj20(tables, report):
    """The unit-sphere samples: exact values up to RANGE_EXACT_M, upper bounds beyond, counted by (1)'s check, their
    tightest instance named; an upper bound above (1) leaves the check undecided (INCONCLUSIVE), never PASS."""
    ranged = tables["range"]
    assert set(zip(ranged["n"], ranged["m"], strict=True)) == {(1, 4), (2, 4), (2, 10)}
    small, large = ranged[ranged["m"] <= RANGE_EXACT_M], ranged[ranged["m"] > RANGE_EXACT_M]
    assert small["exact"].notna().all() and large["exact"].isna().all()
    assert (small["exact"] <= small["upper"] + 1e-9).all() and (ranged["upper"] <= ranged["proof_upper"]).all()
    assert (ranged["eq1_floor"] <= ranged["eq1"]).all()  # m (R + B) >= e on every sample here
    rows = {r.check_id: r for r in report.records}
    bound = rows["theorem19/bound"]
    assert "(n, m) in {(1, 4), (2, 4), (2, 10)}" in bound.range and "tightest upper / that value" in bound.notes
    assert "C = " in rows["theorem19/conj20-bound"].notes
    broken = dict(tables)
    broken["range"] = ranged.assign(upper=ranged["eq1_floor"] * 1.5)  # above (1) at log(m(R+B)) = 1
    again = {r.check_id: r for r in CLAIM.assemble(BLOCK, broken).records}["theorem19/bound"]
    # an upper bound above the deciding value decides nothing: those samples leave the range, the exact ones decide
    assert "unit-sphere" not in again.range and "decide nothing" in again.notes and again.instances < bound.instances
    assert again.verdict is Verdict.PASS


def test_range_points_shard_exact_ones_by_dimension():
    pts = {name: p for name, p in CLAIM.points(BLOCK).items() if p["kind"] == "range"}
    assert {theorem19.shard(name, p) for name, p in pts.items()} == {"range-n1", "range-n2", "range-upper"}


@pytest.mark.parametrize(("samples", "key"), [([[2, 10]], "range.samples"), ([[1, 2], [2, 4]], "range.samples[0]")])
def test_range_block_needs_an_exact_sample_and_no_degenerate_corner(samples, key):
    block = copy.deepcopy(BLOCK)
    block["range"] = dict(samples=samples, s_values=[1], B_values=[0.0])
    assert key in {k for k, _ in theorem19.validate(block)}


def test_exact_simplex_networks_refute_16_at_m_7_with_a_certificate_that_verifies():
    """The optimal networks of the 7-point simplex (s = 2, k = 1, B = 0.4) beat the closed-form ones and (16); the
    certificate (one exact network per sign vector) is confirmed by the checker."""
    import pandas as pd

    block = copy.deepcopy(BLOCK)
    block["conj20_simplex"]["exact_m"] = 7
    point = CLAIM.points(block)["conj20-simplex-exact"]
    table, certs, _ = compute._run_conj20(point, CLAIM.generate(point, np.random.default_rng(0))["X"], None)
    row = table.iloc[0]
    assert row["above_conj20"] and row["lower"] > row["closed_form"] and len(certs) == 1
    low = table.assign(point="p")
    record = verdicts._conj20_lower_record(verdicts.assembly(), {"conj20": low}, pd.DataFrame(certs).assign(point="p"))
    assert record.verdict is Verdict.FAIL and "exact optimal networks" in record.notes
    assert verify_certificate(certificate_document(record)).confirmed


def test_the_constant_of_eq1_is_attained_where_m_r_plus_b_is_e():
    """theorem19-constant-sharp: on both samples with m(R + B) = e the exact R_H(S) equals WR + B and (1)."""
    for row in steps.tight_rows(1.0):
        for value in (row["exact"], row["exact_upper"]):
            assert value == pytest.approx(row["sup_bound"], rel=1e-6) == pytest.approx(row["eq1"], rel=1e-6)
        assert row["m"] * (row["R"] + row["B"]) == pytest.approx(math.e, rel=1e-15)


def test_an_instance_where_the_bound_exceeds_the_sup_bound_tests_nothing(tables, report):
    """A sample is decided where log(m(R+B)) = 1, at (WR+B) sqrt(sn/m); where that is at least k(WR+B), which R_H(S)
    never exceeds (m <= sn), the instance is set aside: not counted, and with every instance set aside there is
    nothing to PASS on (INCONCLUSIVE)."""
    rows = {r.check_id: r for r in report.records}
    assert "set aside" in rows["theorem19/bound"].notes
    lifted = dict(tables)
    for name in ("exact", "range"):
        frame = tables[name]
        lifted[name] = frame.assign(s=frame["m"] * frame["n"])
    again = {r.check_id: r for r in CLAIM.assemble(BLOCK, lifted).records}
    assert again["theorem19/bound"].instances == 0 and again["theorem19/bound"].verdict is Verdict.INCONCLUSIVE


@given(
    st.lists(st.floats(-3, 3, allow_nan=False), min_size=1, max_size=4),
    st.lists(st.lists(st.floats(-2, 2, allow_nan=False), min_size=3, max_size=3), min_size=1, max_size=4),
    st.floats(0.01, 4),
)
@settings(max_examples=60, deadline=None)
def test_a_certificate_network_is_exactly_in_the_class(u, weights, bias):
    """author16 and author18: a stored network of the Conjecture 20 certificate exceeded W by 4e-16 read exactly.
    in_class scales u to the bound (W taken as the network's own double norm, the worst case) and then by at most
    2^-20, so the stored doubles satisfy the class's norms exactly."""
    from fractions import Fraction

    from sparseact.claims.theorem19.certificates import in_class

    b = [bias] * len(u)
    norm = max(abs(x) for x in u)
    W = norm * max(math.sqrt(sum(x * x for x in row)) for row in weights)  # the float norm: over by a rounding
    assume(W > 1e-150 or not any(map(any, weights)))  # not a norm that underflows to 0 (no factor reaches it)
    network = in_class({"u": u, "W": weights, "b": b}, W, norm * bias)
    shrunk = max(abs(Fraction(x)) for x in network["u"])
    assert shrunk**2 * max(sum(Fraction(x) ** 2 for x in row) for row in weights) <= Fraction(W) ** 2
    assert shrunk * Fraction(bias) <= Fraction(norm * bias)
    assert all(abs(a - b) <= 2.0**-19 * abs(b) for a, b in zip(network["u"], u, strict=True))
