import json

import numpy as np
import pytest

from sparseact.publish.ledger import LEDGER_COLUMNS, load_records, write_certificates, write_ledger
from sparseact.verify.certificates import certificate, formula
from sparseact.verify.records import CheckRecord, combine_replicates
from sparseact.verify.verdicts import (
    Verdict,
    verdict_all,
    verdict_at_most,
    verdict_big_o,
    verdict_equal,
    verdict_growth_mc,
)

#: A certificate of 2 <= 1 (a FAIL needs one).
CERTIFICATE = certificate("<=", formula("a", a=2), formula("b", b=1), 2, 1, "a", "b")


def record(check_id="x/y", verdict=Verdict.PASS, **kw):
    base = dict(
        claim_id="x",
        check_id=check_id,
        paper_ref="Lemma 0",
        statement="s",
        check="c",
        variant="",
        method="exact",
        instances=1,
        worst_value=0.0,
        worst_value_label="err",
        verdict=verdict,
    )
    base.update(kw)
    return CheckRecord(**base)


def test_verdict_equal_detects_and_locates_failures():
    assert verdict_equal([1.0, 2.0], [1.0, 2.0 + 1e-12])[0] is Verdict.PASS
    verdict, err, where = verdict_equal([1.0, 2.0, 3.0], [1.0, 2.5, 3.0])
    assert verdict is Verdict.FAIL and err == pytest.approx(0.5) and where == 1


def test_verdict_at_most_and_all():
    assert verdict_at_most(1, 1) is Verdict.PASS
    assert verdict_at_most(2, 1) is Verdict.FAIL
    assert verdict_all([Verdict.PASS, Verdict.INCONCLUSIVE]) is Verdict.INCONCLUSIVE
    assert verdict_all([Verdict.PASS, Verdict.FAIL, Verdict.INCONCLUSIVE]) is Verdict.FAIL
    assert verdict_all([]) is Verdict.INCONCLUSIVE


def test_big_o_verdicts():
    m = np.array([2, 4, 8, 16, 32])
    assert verdict_big_o(m, 3.0 + 1.0 / m)[0] is Verdict.PASS  # bounded ratio
    verdict, slope = verdict_big_o(m, np.sqrt(m))  # a false O(.) claim: ratio grows like m^0.5
    assert verdict is Verdict.FAIL and slope == pytest.approx(0.5)
    assert verdict_big_o([3, 3], [1.0, 2.0])[0] is Verdict.INCONCLUSIVE
    assert verdict_big_o([2, 4], [1.0, 5.0])[0] is Verdict.INCONCLUSIVE  # two points cannot show growth
    assert verdict_big_o([2, 4, 8, 16], [0.0, 0.0, 1.0, 2.0])[0] is Verdict.INCONCLUSIVE  # zeros carry no slope


def test_monte_carlo_growth_needs_separated_intervals():
    n = np.array([10, 20, 40, 80])
    assert verdict_growth_mc(n, n * 0.9, n * 1.1)[0] is Verdict.FAIL
    assert verdict_growth_mc(n, np.zeros(4), n * 1.0)[0] is Verdict.INCONCLUSIVE
    assert verdict_growth_mc(n, np.ones(4) * 0.5, np.ones(4))[0] is Verdict.PASS


def test_record_requires_computed_verdict_and_known_method():
    with pytest.raises(ValueError, match="verdict"):
        record(verdict="PASS")
    with pytest.raises(ValueError, match="method"):
        record(method="guess")


@pytest.mark.parametrize(
    "field, value, error, message",
    [
        ("claim_id", 1, TypeError, "claim_id must be a str"),
        ("notes", None, TypeError, "notes must be a str"),
        ("instances", -1, ValueError, "instances must be >= 0"),
        ("instances", 2.0, ValueError, "instances must be an integer"),
        ("instances", True, ValueError, "instances must be an integer"),
        ("worst_value", "0.5", ValueError, "worst_value must be a real number"),
        ("certificate", "a=2", TypeError, "certificate must be a dict or None"),
        ("evidence", "figures/a.png", TypeError, "evidence must be a tuple of paths"),
    ],
)
def test_record_refuses_a_field_of_the_wrong_type_or_range(field, value, error, message):
    with pytest.raises(error, match=message):
        record(**{field: value})


def test_record_takes_numpy_numbers_and_a_worst_value_as_measured():
    assert record(instances=np.int64(3), worst_value=np.float32(0.5)).to_dict()["instances"] == 3
    assert np.isnan(record(worst_value=float("nan")).worst_value)  # nothing of the check's regime was measured
    assert record(worst_value=np.inf).worst_value == np.inf  # a ratio over zero


def failing(check_id="x/f", finding="typo", **kw):
    return record(check_id, Verdict.FAIL, finding=finding, certificate=CERTIFICATE, counterexample="a=2", **kw)


def test_fail_needs_finding_and_certificate_and_only_fail_has_them():
    with pytest.raises(ValueError, match="finding"):
        record(verdict=Verdict.FAIL, certificate=CERTIFICATE)
    with pytest.raises(ValueError, match="certificate"):
        record(verdict=Verdict.FAIL, finding="typo")
    with pytest.raises(ValueError, match="only a FAIL"):
        record(finding="typo")
    assert failing().finding == "typo"


def test_combine_replicates_needs_unanimity():
    agree = combine_replicates([[failing()], [failing()], [failing()]])[0]
    assert agree.verdict is Verdict.FAIL and agree.replicates == "3/3" and agree.certificate == CERTIFICATE
    split = combine_replicates([[failing()], [record("x/f", worst_value=1.0)]])[0]
    assert split.verdict is Verdict.INCONCLUSIVE and not split.finding and split.certificate is None
    assert split.replicates == "PASS 1, FAIL 1 of 2" and "per replicate" in split.notes
    with pytest.raises(ValueError, match="replicate 1"):
        combine_replicates([[record("x/a")], [record("x/b")]])


def test_ledger_sorted_by_severity_and_certificates_written(tmp_path):
    recs = [
        record("a/pass"),
        failing("b/typo"),
        failing("c/error", finding="statement-error"),
        record("a/open", Verdict.INCONCLUSIVE),
    ]
    frame = write_ledger(recs, tmp_path / "l.csv", tmp_path / "l.md")
    assert list(frame["check_id"]) == ["c/error", "b/typo", "a/open", "a/pass"]
    assert frame.loc[0, "certificate"] == "results/certificates/c/error.json"
    paths = write_certificates(recs, tmp_path / "certificates")
    assert sorted(paths) == [str(tmp_path / "certificates/b/typo.json"), str(tmp_path / "certificates/c/error.json")]
    assert json.loads((tmp_path / "certificates/c/error.json").read_text())["certificate"] == CERTIFICATE
    view = (tmp_path / "certificates/c/error.md").read_text()  # what a code host shows, with a way back
    assert "[the certificate file (JSON)](error.json)" in view and "[Findings](../../findings.md)" in view
    assert "[the claim's notebook](../../notebooks/c.ipynb)" in view


def test_round_trip_and_ledger_files(tmp_path):
    recs = [record("x/a"), failing("x/b", evidence=("figures/f.pdf",))]
    path = tmp_path / "r.json"
    path.write_text(json.dumps({"claim": "x", "checks": [r.to_dict() for r in recs]}))
    loaded = load_records([path])
    assert loaded == recs
    frame = write_ledger(loaded, tmp_path / "l.csv", tmp_path / "l.md")
    assert list(frame.columns) == LEDGER_COLUMNS
    md = (tmp_path / "l.md").read_text()
    assert "PASS: 1, FAIL: 1" in md and "figures/f.pdf" not in md  # the run's figures are not committed
    assert "[notebook](../results/notebooks/x.ipynb) [certificate](../results/certificates/x/b.md)" in md
    with pytest.raises(ValueError, match="duplicate"):
        write_ledger(recs + recs[:1], tmp_path / "d.csv", tmp_path / "d.md")


def test_load_records_rejects_non_result(tmp_path):
    path = tmp_path / "bad.json"
    path.write_text("{}")
    with pytest.raises(ValueError, match="no 'checks'"):
        load_records([path])


def test_a_ledger_in_another_results_directory_names_its_own_certificates(tmp_path):
    recs = [failing("x/b", evidence=("results/quick/figures/f.pdf",))]
    frame = write_ledger(recs, tmp_path / "l.csv", tmp_path / "l.md", results_dir="results/quick")
    assert frame.loc[0, "certificate"] == "results/quick/certificates/x/b.json"
    assert "[certificate](../../results/quick/certificates/x/b.md)" in (tmp_path / "l.md").read_text()
