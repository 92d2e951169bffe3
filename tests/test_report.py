import json

import pandas as pd

from sparseact.ledger import ClaimRecord, Verdict, records_to_frame
from sparseact.report import build_report, errata, tightness


def rec(check_id, verdict, variant="", statement="s", label="max abs error", **kw):
    return ClaimRecord(claim_id=check_id.split("/")[0], check_id=check_id, paper_ref="Lemma 1", statement=statement,
                       check="c", variant=variant, method="exact", instances=1, worst_value=0.5,
                       worst_value_label=label, verdict=verdict, **kw)


LEDGER = records_to_frame([
    rec("x/a-printed", Verdict.FAIL, "as printed", counterexample="y=1"),
    rec("x/a-corrected", Verdict.PASS, "corrected", statement="fixed a"),
    rec("x/b", Verdict.PASS, "rho >= 0", statement="restricted b"),
    rec("x/b-all-rho", Verdict.FAIL, "as printed", counterexample="rho=-1/2"),
    rec("x/c", Verdict.FAIL, "as printed", counterexample="z"),
    rec("x/bound", Verdict.PASS, statement="f <= O(g)", label="max ratio (observed constant)", notes="n^0.5"),
])


def test_errata_pairs_corrections():
    table = errata(LEDGER).set_index("counterexample")
    assert "fixed a" in table.loc["y=1", "correction"]
    assert "restricted b" in table.loc["rho=-1/2", "correction"]
    assert table.loc["z", "correction"] == "(none verified)"


def test_tightness_lists_ratio_bounds():
    assert list(tightness(LEDGER)["check"]) == ["x/bound"]


def test_build_report(tmp_path):
    ledger = tmp_path / "ledger.csv"
    LEDGER.to_csv(ledger, index=False)
    result = tmp_path / "r.json"
    result.write_text(json.dumps({"claims": [], "provenance": {"seed": 1, "config_hash": "ab", "git_revision": "x",
                                                               "python": "3.11", "packages": {"numpy": "2"}}}))
    bench = tmp_path / "job.tsv"
    pd.DataFrame({"s": [1.5], "h:m:s": ["0:00:01"], "max_rss": [10.0]}).to_csv(bench, sep="\t", index=False)
    index, timings = tmp_path / "report" / "index.html", tmp_path / "report" / "timings.html"
    build_report(ledger, [result], [bench], index, timings)
    page = index.read_text()
    assert "Errata" in page and "Tightness" in page and "Provenance" in page and 'class="FAIL"' in page
    assert "1.5" in timings.read_text()
