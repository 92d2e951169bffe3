import json
import re

import pandas as pd
import pytest

from sparseact.certificates import certificate, formula
from sparseact.ledger import ClaimRecord, Verdict, records_to_frame
from sparseact.statements import errata_table, statement_table, summary_markdown

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
STATEMENTS = pd.DataFrame([
    dict(statement_id=i, claim_id="x", paper_ref=f"Eq. {i}", kind="equation", statement=f"statement {i}",
         argument=argument, argument_text=text, unsettled=unsettled)
    for i, argument, text, unsettled in [
        ("a", (), "", ""), ("b", (), "", ""), ("c", (), "", ""), ("d", (), "", ""), ("e", (), "", ""),
        ("f", ("x/step1", "x/step2"), "step 1 and step 2 imply it", ""), ("g", (), "", "needs a lower bound"),
    ]])


def test_statement_status_rules():
    table = statement_table(LEDGER, STATEMENTS).set_index("statement_id")
    assert table.loc["c", "status"] == "fails-as-stated" and table.loc["c", "severity"] == "statement-error"
    assert table.loc["a", "status"] == "fails-as-stated" and table.loc["a", "severity"] == "typo"
    assert table.loc["b", "status"] == "holds" and "outside the range" in table.loc["b", "reason"]
    assert table.loc["d", "status"] == "not-settled" and table.loc["d", "basis"] == "estimate"
    assert table.loc["e", "status"] == "not-settled" and "INCONCLUSIVE" in table.loc["e", "reason"]
    assert table.loc["f", "status"] == "holds" and table.loc["f", "basis"] == "verified argument"
    assert table.loc["g", "status"] == "not-settled" and table.loc["g", "reason"] == "needs a lower bound"
    assert list(statement_table(LEDGER, STATEMENTS)["statement_id"][:2]) == ["c", "a"]  # most severe first


def test_statement_table_rejects_unknown_statement_ids():
    with pytest.raises(ValueError, match="unknown statements"):
        statement_table(LEDGER, STATEMENTS[STATEMENTS["statement_id"] != "a"])


def test_errata_sorted_by_severity_with_corrections():
    errata = errata_table(LEDGER)
    assert list(errata["severity"]) == ["statement-error", "typo", "out-of-range"]
    typo = errata.set_index("check_id").loc["x/a-printed"]
    assert "x/a-corrected: PASS" in typo["correction"] and typo["verified"]
    assert errata.set_index("check_id").loc["x/c", "correction"] == "(none proposed)"


def test_summary_counts_come_from_the_tables():
    text = summary_markdown(statement_table(LEDGER, STATEMENTS), LEDGER)
    assert "**7 quantitative statements**" in text and "**2 hold**" in text and "**2 fail as stated**" in text
    assert "statement-error 1, typo 1, out-of-range 1" in text


def report_inputs(results):
    """One claim result file and one benchmark file beside the fixture tables; the claim page of claim x."""
    result = results / "claims" / "x.json"
    result.parent.mkdir()
    result.write_text(json.dumps({"claims": [], "provenance": {"seed": 1, "config_hash": "ab", "git_revision": "x",
                                                               "python": "3.11", "packages": {"numpy": "2"},
                                                               "cpu_dispatch": {}}}))
    bench = results / "benchmarks" / "runs" / "x" / "n6.tsv"
    bench.parent.mkdir(parents=True)
    pd.DataFrame({"s": [1.5], "h:m:s": ["0:00:01"], "max_rss": [10.0]}).to_csv(bench, sep="\t", index=False)
    return result, bench


def test_report_opens_with_the_headline_and_is_deterministic(result_tables):
    from sparseact.report import build_report

    result, bench = report_inputs(result_tables)
    index, timings = result_tables / "report" / "index.html", result_tables / "report" / "timings.html"
    pages = []
    for seconds in (1.5, 2.5):  # wall times differ from run to run; index.html must not
        pd.DataFrame({"s": [seconds], "h:m:s": ["0:00:01"], "max_rss": [10.0]}).to_csv(bench, sep="\t", index=False)
        build_report(result_tables, [result], [bench], index, timings)
        pages.append(index.read_bytes())
    assert pages[0] == pages[1]
    page = pages[0].decode()
    order = ['id="headline"', 'class="headline"', 'id="classes"', 'id="errata"', 'id="errata-statement-error"',
             'id="errata-typo"', 'id="tightness"', 'id="statements"', 'id="checks"', 'id="provenance"', 'id="timings"']
    assert [page.index(o) for o in order] == sorted(page.index(o) for o in order)
    assert 'href="#erratum-x-a-printed"' in page and 'id="erratum-x-a-printed"' in page
    assert 'href="../certificates/x/a-printed.json"' in page and 'href="../reports/x.html"' in page
    assert "n=6, s=1: Pr = 0.3125" in page and "none proposed" in page
    assert page.count('src="../../figures/x/f.png"') == 1 and page.count('href="../tables/x/t.csv"') == 1  # evidence once per claim
    assert "<b>Lemma 2</b><br><code>lemma2-bound</code>" in page and "**" not in page  # no Markdown in HTML
    assert "Shared by all 1 result files" in page and "<code>ab</code>" in page
    for literal in ("True", "nan", "1e+06", "1e6"):
        assert not re.search(rf"\b{re.escape(literal)}\b", page), literal
    text = timings.read_text()
    assert "<td>x</td><td>runs</td><td>n6</td><td>2.5</td>" in text and 'href="index.html"' in text


def test_report_math_is_typeset_offline(result_tables):
    from sparseact.mathtext import find_unrendered
    from sparseact.report import build_report

    result, bench = report_inputs(result_tables)
    index = result_tables / "report" / "index.html"
    build_report(result_tables, [result], [bench], index, result_tables / "report" / "timings.html")
    page = index.read_text()
    assert find_unrendered(page) == [] and page.count("<math") > 10
    assert not re.search(r"""(?:src|href)\s*=\s*["']?(?:https?:)?//(?!arxiv\.org)|<script|@import|url\(""", page,
                         flags=re.I)


def test_claim_header_states_statuses_verdicts_and_navigation(result_tables):
    from sparseact.report import ARXIV, claim_header_html

    header = claim_header_html("x", result_tables, result_tables / "reports" / "x.html")
    assert header.index("verification report") < header.index(ARXIV) < header.index('class="statements"')
    assert "fails as stated (statement-error)" in header and "PASS</span> 2" in header
    assert 'href="../certificates/x/a-printed.json"' in header


def test_paper_order_lists_every_claim():
    from sparseact.claims import claim_ids
    from sparseact.report import PAPER_ORDER

    assert sorted(PAPER_ORDER) == sorted(claim_ids())


def test_claim_page_puts_the_header_first_in_the_notebook_page(result_tables):
    import nbformat

    from sparseact.report import claim_page

    notebook = result_tables / "x.ipynb"
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_markdown_cell("# Claim x\n\nWhat $k$ is.")])
    nbformat.write(nb, notebook)
    page = result_tables / "reports" / "x.html"
    claim_page(notebook, "x", result_tables, page)
    text = page.read_text()
    assert text.index('<header class="sa-header">') < text.index("<h1") and "fails as stated" in text
