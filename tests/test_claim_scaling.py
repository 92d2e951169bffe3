"""The dimensional analysis of every bound formula (claim ``scaling``)."""

import numpy as np
import pytest

from sparseact import bounds
from sparseact.claims import get_claim
from sparseact.claims.scaling.compute import QUANTITY_EXPONENT, UNSCALED, local_exponents, sign_ambiguity_instance
from sparseact.publish.ledger import certificate_document
from sparseact.verify.checker import verify_certificate

BLOCK = {"scales": [1e-3, 1e3], "sign_ambiguity": {"eps0_values": [1e-2, 1e-5], "delta": 1e-12, "constant": 1000.0}}


def _report(block=BLOCK):
    claim = get_claim("scaling")
    tables = {}
    for point in claim.points(block).values():
        for key, frame in claim.run(point, claim.generate(point, None), None).items():
            tables.setdefault(key, []).append(frame)
    import pandas as pd

    return claim.assemble(block, {k: pd.concat(v, ignore_index=True) for k, v in tables.items()})


@pytest.fixture(scope="module")
def report():
    """The claim's report on :data:`BLOCK`, made once for the tests that only read it."""
    return _report()


def test_every_bound_formula_has_a_scaling_rule():
    """Each formula of sparseact.bounds is transformed by the claim or left out with a reason, never both."""
    formulas = {name for name in bounds.__all__ if callable(getattr(bounds, name)) and name != "describe"}
    assert set(QUANTITY_EXPONENT) | set(UNSCALED) == formulas and not set(QUANTITY_EXPONENT) & set(UNSCALED)


def test_covariant_and_non_covariant_formulas():
    lemma9 = local_exponents("lemma9_average_sensitivity", {"W": 1, "B": 1}, [1e-3, 1e3])
    assert all(abs(r["exponent"] - 2) < 1e-9 for r in lemma9)
    t17 = local_exponents("theorem17_sample_complexity", {"W": 1, "B": 1, "eps": 2}, [1e-6])
    assert t17[0]["exponent"] == pytest.approx(-4, abs=1e-3)


def test_sign_ambiguity_instance_is_a_valid_lower_bound():
    instance = sign_ambiguity_instance(1e-4, 1e-12)
    assert instance["p"] * instance["lam"] ** 2 > 2 * instance["eps"]  # h and -h are eps-far apart
    # Monte Carlo is not needed: the probability that m samples all miss the mass p is exactly (1-p)^m.
    m = int(np.floor(instance["lower_bound"]))
    assert (1 - instance["p"]) ** m / 2 > instance["delta"]
    assert instance["printed"] < instance["lower_bound"] / 1000


def test_theorem17_fails_with_a_certificate_and_the_correction_is_covariant(report):
    records = {r.check_id: r for r in report.records}
    printed = records["scaling/theorem17-printed"]
    assert printed.verdict.value == "FAIL" and printed.finding == "statement-error"
    assert verify_certificate(certificate_document(printed)).confirmed
    assert records["scaling/theorem17-corrected"].verdict.value == "PASS"
    # "every printed bound is covariant" is false while Theorem 17's is certified not to be (the same instance);
    # the verdict changed from PASS: the statement said "each printed bound" and one is refuted
    covariance = records["scaling/covariance"]
    assert covariance.verdict.value == "FAIL" and covariance.finding == "statement-error"
    assert verify_certificate(certificate_document(covariance)).confirmed
    assert records["scaling/covariance-corrected"].verdict.value == "PASS"


def test_lemma18_fails_with_a_certificate_and_the_correction_is_consistent(report):
    from sparseact.claims.scaling.compute import LEMMA18_CONSTANT, expected_rademacher_two_point, lemma18_instance

    records = {r.check_id: r for r in report.records}
    printed = records["scaling/lemma18-printed"]
    assert printed.verdict.value == "FAIL" and printed.finding == "statement-error" and printed.range
    assert verify_certificate(certificate_document(printed)).confirmed
    assert printed.worst_value > 100 * LEMMA18_CONSTANT
    # the certificate is the most moderate instance: a class scaled by 10 at delta = e^-10
    witness = certificate_document(printed)["certificate"]["lhs"]["vars"]
    assert (witness["lam"], witness["L"], witness["c"]) == (10.0, 10.0, LEMMA18_CONSTANT)
    assert records["scaling/lemma18-corrected"].verdict.value == "PASS"
    # the refuted constant grows with log(1/delta): no constant saves the printed lemma
    constants = [lemma18_instance(1e6, L)["refuted_constant"] for L in (1e2, 1e3, 1e4)]
    assert constants == sorted(constants) and constants[-1] > 3 * constants[0]
    # E_S R_H(S) of {h, -h}: the closed form against direct enumeration of the sample and the sign vectors
    import itertools
    import math

    m, p, lam = 5, 0.3, 2.0
    direct = 0.0
    for xs in itertools.product((0, 1), repeat=m):
        weight = math.prod(p if x else 1 - p for x in xs)
        a = sum(xs)
        mean_abs = sum(math.comb(a, j) * abs(2 * j - a) for j in range(a + 1)) / 2**a
        direct += weight * lam / m * mean_abs
    assert expected_rademacher_two_point(m, p, lam) == pytest.approx(direct, rel=1e-12)


def test_theorem5_cube_rate_is_ksn2_at_fixed_w_b(report):
    """At fixed W, B Theorem 17's printed count on the cube is below (4ksn^2 log + log(1/delta))/eps^2 and grows like
    n/log n over ksn log^2: the measurement behind the remark on Theorem 5 (no FAIL: the O~ hides the scale)."""
    record = {r.check_id: r for r in report.records}["scaling/theorem5-cube-rate"]
    assert record.verdict.value == "PASS" and record.statement_id == "theorem5"
    ratios = [float(part.split(": ")[1]) for part in record.notes.split(" (grows")[0].split(": ", 1)[1].split(", ")]
    assert ratios == sorted(ratios) and ratios[-1] > 1e3 * ratios[0]


def test_every_record_has_a_range_and_the_tightness_table_its_columns(report):
    from sparseact.publish.statements import TIGHTNESS_COLUMNS

    assert all(r.range for r in report.records)
    assert list(report.tables["tightness"].columns) == TIGHTNESS_COLUMNS


def test_no_fail_when_the_constant_is_not_refuted():
    block = {**BLOCK, "sign_ambiguity": {**BLOCK["sign_ambiguity"], "eps0_values": [1e-2], "constant": 1e6}}
    assert {r.check_id: r for r in _report(block).records}["scaling/theorem17-printed"].verdict.value == "INCONCLUSIVE"


def test_validate_rejects_unit_scale():
    from sparseact.runtime.config import ConfigError

    with pytest.raises(ConfigError, match=r"claims\.scaling\.scales"):
        get_claim("scaling").validate({**BLOCK, "scales": [1.0, 10.0]})


def test_sign_ambiguity_bound_closed_form():
    assert float(bounds.sign_ambiguity_lower_bound(0.5, 0.25)) == pytest.approx(np.log(2) / np.log(2))
    with pytest.raises(ValueError, match="delta"):
        bounds.sign_ambiguity_lower_bound(0.5, 0.6)


def test_solve_for_m_step_and_corrected_theorem17_chain_pass_on_the_grid(report):
    from sparseact.claims.scaling.chain import chain_rows

    records = {r.check_id: r for r in report.records}
    solve, chain = records["scaling/theorem17-solve-for-m"], records["scaling/theorem17-corrected-chain"]
    assert solve.verdict.value == "PASS" and solve.worst_value > 1 and solve.range
    assert chain.verdict.value == "PASS" and chain.worst_value <= 1 and chain.range
    rows = chain_rows()
    # the grid covers eps > k(R+B), where the printed log is negative, and the corrected bound stays positive
    negative = rows[rows["printed_log_negative"]]
    assert len(negative) and (negative["printed"] < 0).any() and (rows["corrected"] > 0).all()


def test_solve_for_m_small_cases_by_hand():
    # ab <= e: m0 = 2a; ab = 100: m0 = 2a log(100), and a log(b m0) = a log(200 log 100) < m0
    assert float(bounds.solve_for_m(3.0, 0.1)) == pytest.approx(6.0)
    m0 = float(bounds.solve_for_m(1.0, 100.0))
    assert m0 == pytest.approx(2 * np.log(100.0)) and np.log(100.0 * m0) <= m0


def test_referee_instance_corrected_theorem17_positive_printed_negative():
    # n = s = k = 1, R = 1, B = 0, W = 1e3, eps = 1e3, delta = 0.1: the printed log(k(R+B)/eps) < 0
    assert float(bounds.theorem17_sample_complexity(1e3, 0.1, 1, 1, 1, 1e3, 0.0, 1.0)) < 0
    assert float(bounds.theorem17_covariant_sample_complexity(1e3, 0.1, 1, 1, 1, 1e3, 0.0, 1.0)) > 160


def test_theorem17_certificate_records_B_and_its_value(report):
    records = {r.check_id: r for r in report.records}
    printed = records["scaling/theorem17-printed"]
    B = printed.certificate["rhs"]["vars"]["B"]
    assert "B = " in printed.counterexample and B > 0
    # the constant multiplies the printed bound in words: an ASCII "x C" typesets as a product of variables x and C
    assert (
        f"(times C = {printed.certificate['rhs']['vars']['C']:g}: " in printed.counterexample
        and "x C" not in printed.counterexample
    )
    v = printed.certificate["rhs"]["vars"]
    expected = v["C"] * float(bounds.theorem17_sample_complexity(v["eps"], v["delta"], 1, 1, 1, v["W"], B, v["R"]))
    assert printed.certificate["rhs_value"] == pytest.approx(expected) and expected > 0


def test_uniform_no_constant_formulas_are_those_of_bounds():
    """The mpmath forms of the four uniform-chain families are sparseact.bounds' formulas (where float64 suffices)."""
    import mpmath

    from sparseact.claims.scaling import uniform_families as uf

    n, s, k, W, B, eps, c, C = 5, 7, 2, 0.7, 0.4, 0.05, 3.0, 2.0
    with mpmath.workdps(uf.DIGITS):
        omr = uf.printed_one_minus_rho(c, eps, n, s, k, W, B)
        assert float(omr) == pytest.approx(c * float(bounds.theorem8_one_minus_rho(eps, n, s, k, W, B)), rel=1e-12)
        assert float(uf.lemma10_bound(C, omr, n, s, k, W, B)) == pytest.approx(
            C * float(bounds.lemma10_noise_sensitivity(1 - float(omr), n, s, k, W, B)), rel=1e-9
        )
        assert float(uf.printed_degree(c, eps, n, s, k, W, B)) == np.ceil(
            c * bounds.theorem8_degree(eps, n, s, k, W, B)
        )
        middle, last = uf.lemma9_v_sides(c, C, n, s, k, W, B)
        assert float(middle) == pytest.approx(bounds.lemma9_proof_V_middle(n, s, k, W, B, c), rel=1e-12)
        assert float(last) == pytest.approx(C * sum(map(float, bounds.lemma9_terms(n, s, k, W, B))), rel=1e-12)


def test_uniform_no_constant_families_pass_on_the_grid():
    """The families of theorem8-final-line-, theorem8-rho-, theorem8-tail- and lemma9-V-no-constant hold at every
    constant of the grid; the two-point lower bound (3 samples) and the invariance of the printed degree hold on the first."""
    from sparseact.claims.scaling import uniform_families as uf

    records = {r.check_id: r for r in uf.uniform_no_constant_records()}
    assert {str(r.verdict) for r in records.values()} == {"PASS"}
    assert records["scaling/theorem8-final-line-no-constant"].worst_value < 1
    assert records["scaling/theorem8-rho-no-constant"].worst_value > 2
    assert records["scaling/theorem8-tail-no-constant"].worst_value > 1
    assert records["scaling/lemma9-V-no-constant"].worst_value > 1
    row = uf.final_line_family(1.0, 1.0, 3, 3)
    assert row["d"] == row["D"] and row["needed"] == 3 and row["count"] < 1


@pytest.mark.filterwarnings("ignore:The set_bad function:PendingDeprecationWarning")  # seaborn's heatmap, center=0
def test_a_cell_without_an_exponent_is_hatched_says_why_and_is_in_the_legend():
    import pandas as pd
    from matplotlib.patches import Rectangle

    from sparseact.claims.scaling.figures import figures

    row = dict(transform="output", expected=0.0, component=0)
    exponents = pd.DataFrame(
        [
            {**row, "formula": "lemma9_term_U", "scale": 1e-3, "exponent": 0.0, "defined": True, "note": ""},
            {
                **row,
                "formula": "lemma9_term_U",
                "scale": 1e3,
                "exponent": np.nan,
                "defined": False,
                "note": "value <= 0 at this scale",
            },
        ]
    )
    sign = pd.DataFrame(dict(eps0=[1.0, 0.1], lower_bound=[1.0, 2.0], printed=[1.0, 1.0], corrected=[1.0, 2.0]))
    fig = figures({"exponents": exponents, "sign_ambiguity": sign})["exponents"]
    ax = fig.axes[0]
    assert [p.get_hatch() for p in ax.patches if isinstance(p, Rectangle) and p.get_hatch()] == ["///"]
    assert "$\\leq 0$" in [t.get_text() for t in ax.texts]
    legend = fig.axes[0].get_legend()
    assert legend and "no exponent" in legend.get_texts()[0].get_text()
