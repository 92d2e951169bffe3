import json

import pandas as pd
import pytest

from sparseact.certificates import certificate, formula
from sparseact.ledger import ClaimRecord, Verdict, records_to_frame
from sparseact.report import build_report, tightness
from sparseact.statements import derive, errata_by_cause

CERTIFICATE = certificate("<=", formula("a", a=2), formula("b", b=1), 2, 1, "a", "b")


def rec(check_id, verdict, statement_id, variant="", method="exact", label="max abs error", **kw):
    if verdict is Verdict.FAIL:
        kw = dict(certificate=CERTIFICATE, counterexample="y=1", **kw)
    return ClaimRecord(claim_id=check_id.split("/")[0], check_id=check_id, statement_id=statement_id,
                       paper_ref="Lemma 1", statement="s " + check_id, check="c", variant=variant, method=method,
                       instances=2, worst_value=0.5, worst_value_label=label, verdict=verdict, **kw)


LEDGER = records_to_frame([
    rec("x/a-printed", Verdict.FAIL, "a", "as printed", finding="typo"),
    rec("x/a-corrected", Verdict.PASS, "a", "corrected"),
    rec("x/b", Verdict.PASS, "b"),
    rec("x/b-negative-rho", Verdict.FAIL, "b", finding="out-of-range"),
    rec("x/c", Verdict.FAIL, "c", finding="statement-error"),
    rec("x/bound", Verdict.PASS, "d", method="estimate", label="max ratio (observed constant)", notes="n^0.5"),
    rec("x/open", Verdict.INCONCLUSIVE, "e"),
    rec("x/step1", Verdict.PASS, "f", method="estimate"),
    rec("x/step2", Verdict.PASS, "f", method="monte-carlo"),
])
ENTRIES = [dict(id=i, claim_id="x", paper_ref=f"Eq. {i}", kind="equation", statement=f"statement {i}", **extra)
           for i, extra in [("a", {}), ("b", {}), ("c", {}), ("d", dict(open="needs a bound.", open_kind="conjecture")),
                            ("e", dict(open="needs a lower bound.", open_kind="all-algorithms")),
                            ("f", dict(argument=dict(uses=["x/b"], text="b implies it")))]]
ERRATA = [dict(id="cause-a", location="Eq. a", printed="a", correction="fixed a", verified_by="x/a-corrected",
               checks=["x/a-printed"]),
          dict(id="cause-c", location="Eq. c", printed="c", correction="fixed c", verified_by="x/b", checks=["x/c"])]
STATEMENTS = derive(LEDGER, entries=ENTRIES, facts=[])


def test_tightness_lists_ratio_bounds():
    assert list(tightness(LEDGER)["check"]) == ["x/bound"]


def report_inputs(tmp_path, statements=None):
    """The ledger, statements table and one claim result file that :func:`build_report` reads."""
    ledger, table = tmp_path / "ledger.csv", tmp_path / "statements.csv"
    LEDGER.to_csv(ledger, index=False)
    (STATEMENTS if statements is None else statements).to_csv(table, index=False)
    certificates = {row.check_id: {"certificate": CERTIFICATE} for row in LEDGER.itertuples() if row.certificate}
    errata_by_cause(LEDGER, certificates, ERRATA).to_csv(tmp_path / "errata.csv", index=False)
    result = tmp_path / "r.json"
    result.write_text(json.dumps({"claims": [], "provenance": {"seed": 1, "config_hash": "ab", "git_revision": "x",
                                                               "python": "3.11", "packages": {"numpy": "2"},
                                                               "cpu_dispatch": {}}}))
    return ledger, table, result


def test_build_report(tmp_path):
    ledger, statements, result = report_inputs(tmp_path)
    bench = tmp_path / "job.tsv"
    pd.DataFrame({"s": [1.5], "h:m:s": ["0:00:01"], "max_rss": [10.0]}).to_csv(bench, sep="\t", index=False)
    index, timings = tmp_path / "report" / "index.html", tmp_path / "report" / "timings.html"
    build_report(ledger, statements, [result], [bench], index, timings)
    page = index.read_text()
    assert page.index("Statements") < page.index("Errata") < page.index("Checks by claim") < page.index("Provenance")
    assert 'class="fails-as-stated"' in page and "timings.html" in page
    assert "1.5" in timings.read_text() and "index.html" in timings.read_text()


def test_report_layout_and_determinism(tmp_path):
    ledger, statements, result = report_inputs(tmp_path)
    pages = []
    for seconds in (1.5, 2.5):  # wall times differ from run to run; index.html must not
        bench = tmp_path / "job.tsv"
        pd.DataFrame({"s": [seconds], "h:m:s": ["0:00:01"], "max_rss": [10.0]}).to_csv(bench, sep="\t", index=False)
        index, timings = tmp_path / "report" / "index.html", tmp_path / "report" / "timings.html"
        build_report(ledger, statements, [result], [bench], index, timings)
        pages.append(index.read_bytes())
    assert pages[0] == pages[1]
    page = pages[0].decode()
    # first screen: the errata counted by severity (linking each severity's table) before the statements
    assert page.index('id="errata-summary"') < page.index('class="statements"') < page.index('id="errata"')
    for severity in ("statement-error", "typo"):
        assert f'href="#errata-{severity}"' in page and f'id="errata-{severity}"' in page
    assert page.index("statement-error") < page.index("typo")
    assert page.count("<details>") == 1  # one claim, "x"
    # provenance and timings last; the two pages link each other
    assert page.index('id="provenance"') < page.index('id="timings"')
    assert 'href="timings.html"' in page and 'href="index.html"' in timings.read_text()


def test_report_renders_statement_math_offline(tmp_path):
    import re

    from sparseact.mathtext import find_unrendered

    statements = STATEMENTS.copy()
    statements.loc[0, "statement"] = r"AS$(h) \le k^2 W^2 \sqrt{n}$ for all $h \in \mathcal{H}_{n,s,k}$"
    ledger, table, result = report_inputs(tmp_path, statements)
    index = tmp_path / "report" / "index.html"
    build_report(ledger, table, [result], [], index, tmp_path / "report" / "timings.html")
    page = index.read_text()
    # the first formula is rendered in two pieces, broken after its relation, so that it can wrap in the column
    assert page.count("<math") == 3 and page.count("<wbr>") == 1 and "<msqrt>" in page and find_unrendered(page) == []
    assert not re.search(r"""(?:src|href)\s*=\s*["']?(?:https?:)?//|<script|@import|url\(""", page, flags=re.I)
