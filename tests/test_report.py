import json
import re
from pathlib import Path

import pandas as pd


def report_inputs(results):
    """One claim result file and one benchmark file beside the fixture tables; the claim page of claim x."""
    result = results / "claims" / "x.json"
    result.parent.mkdir()
    provenance = {
        "seed": 1,
        "config_hash": "ab",
        "git_revision": "x",
        "python": "3.11",
        "packages": {"numpy": "2"},
        "cpu_dispatch": {},
    }
    result.write_text(json.dumps({"claim": "x", "checks": [], "provenance": provenance}))
    bench = results / "benchmarks" / "runs" / "x" / "n6.tsv"
    bench.parent.mkdir(parents=True)
    pd.DataFrame({"s": [1.5], "h:m:s": ["0:00:01"], "max_rss": [10.0]}).to_csv(bench, sep="\t", index=False)
    return result, bench


def test_report_opens_with_the_headline_and_is_deterministic(result_tables):
    from sparseact.publish.report import build_report

    result, bench = report_inputs(result_tables)
    index, timings = result_tables / "report" / "index.html", result_tables / "report" / "timings.html"
    pages = []
    for seconds in (1.5, 2.5):  # wall times differ from run to run; index.html must not
        pd.DataFrame({"s": [seconds], "h:m:s": ["0:00:01"], "max_rss": [10.0]}).to_csv(bench, sep="\t", index=False)
        build_report(result_tables, [result], [bench], index, timings, root=result_tables.parent)
        pages.append(index.read_bytes())
    assert pages[0] == pages[1]
    page = pages[0].decode()
    order = [
        'id="headline"',
        'class="sa-cards headline sa-print-whole"',  # a table that becomes cards on narrow screens
        'id="classes"',
        'id="errata"',
        'id="errata-statement-error"',
        'id="errata-typo"',
        'id="tightness"',
        'id="statements"',
        'id="checks"',
        'id="provenance"',
        'id="timings"',
    ]
    assert [page.index(o) for o in order] == sorted(page.index(o) for o in order)
    first = [
        'class="sa-cards headline sa-print-whole"',  # a table that becomes cards on narrow screens
        'class="bottom-line"',
        "Of the paper&#x27;s 4 printed statements",
        'id="sharper"',
        'id="open"',
    ]  # the headline table, the bottom line, the counts, the sharper and the open results
    assert "<details><summary>its printed proof needs 0 corrections</summary>" in page
    assert [page.index(o) for o in first] == sorted(page.index(o) for o in first)
    assert "<code>sparseact explain lem2-sharp</code>" in page and "a lower bound would settle it." in page
    assert 'href="../erratum/erratum.tex"' in page  # no PDF in the fixture: the LaTeX source
    assert 'href="#erratum-x-a-printed"' in page and 'id="erratum-x-a-printed"' in page
    # the certificate's page (and not its JSON) from the erratum and the checks table
    assert page.count('href="certificates/x/a-printed.html"') == 2 and 'href="../pages/x.html"' in page
    # under each headline status, a link to the reasons: the claim page's top for its first statement, else its row
    assert '<a href="../pages/x.html">why it fails</a>' in page
    assert '<a href="../pages/x.html#statement-lem2">why it holds on this range</a>' in page
    certificate = (result_tables / "report" / "certificates" / "x" / "a-printed.html").read_text()
    assert (
        "Theorem 1</code>" not in certificate
        and '<b><a href="../../../pages/x.html#statement-thm1">Theorem 1</a></b>: ' in certificate
    )
    assert "<dt>Finding</dt><dd>the statement is wrong</dd>" in certificate and "thm1<" not in certificate
    for link in ('href="../../index.html"', 'href="../../../pages/x.html#statement-thm1"', "a-printed.json"):
        assert link in certificate, link
    assert "<dt>The violation</dt>" in certificate and "<dt>Margin the checker proved</dt>" in certificate
    assert "<msup><mn>10</mn><mrow><mn>6</mn></mrow></msup>" in certificate  # 2.5e+06 typeset as 2.5 x 10^6
    # the counterexample's ASCII formula typeset: n=6, s=1: Pr = 0.3125
    assert "n=6, s=1" not in page and "<mn>0.3125</mn>" in page and "none proposed" in page
    assert (
        page.count('src="../../figures/x/f.png"') == 1 and page.count('href="../tables/x/t.csv"') == 1
    )  # evidence once per claim
    assert "<b>Lemma 2</b><br>lemma2-bound" in page and "**" not in page  # no Markdown in HTML
    assert "Shared by all 1 result files" in page and "<code>ab</code>" in page
    for literal in ("True", "nan", "1e+06", "1e6"):
        assert not re.search(rf"\b{re.escape(literal)}\b", page), literal
    text = timings.read_text()
    assert '<td data-label="claim">x</td><td data-label="stage">runs</td>' in text and 'href="index.html"' in text


def test_report_math_is_typeset_offline(result_tables):
    from sparseact.publish.mathtext import find_unrendered
    from sparseact.publish.report import build_report

    result, bench = report_inputs(result_tables)
    index = result_tables / "report" / "index.html"
    build_report(result_tables, [result], [bench], index, result_tables / "report" / "timings.html")
    page = index.read_text()
    assert find_unrendered(page) == [] and page.count("<math") > 10
    assert not re.search(
        r"""(?:src|href)\s*=\s*["']?(?:https?:)?//(?!arxiv\.org|proceedings\.mlr\.press)|<script|@import|url\(""",
        page,
        flags=re.I,
    )


def test_claim_header_states_statuses_verdicts_and_navigation(result_tables):
    from sparseact.publish.links import PAPER_PDF
    from sparseact.publish.report import claim_header_html

    header = claim_header_html("x", result_tables, result_tables / "pages" / "x.html")
    assert header.index("verification report") < header.index(PAPER_PDF) < header.index('class="statements')
    assert "fails as stated (the statement is wrong)" in header and "PASS</span> 2" in header
    assert 'href="../report/certificates/x/a-printed.html"' in header  # the certificate's page
    # the argument leads: the refuting certificate is named before the chain and the statements table
    argument = header.index('<p class="argument">')
    assert argument < header.index('class="statements') and "Refuted by <a " in header[argument:]


def test_paper_order_lists_every_claim():
    from sparseact.claims import claim_ids
    from sparseact.publish.report import PAPER_ORDER

    assert sorted(PAPER_ORDER) == sorted(claim_ids())


def test_claim_page_puts_the_header_first_in_the_notebook_page(result_tables):
    import nbformat

    from sparseact.publish.report import claim_page, claim_slice_path, write_slices

    notebook = result_tables / "x.ipynb"
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_markdown_cell("# Claim x\n\nWhat $k$ is.")])
    nbformat.write(nb, notebook)
    page = result_tables / "pages" / "x.html"
    write_slices(result_tables, ["x"])
    committed = result_tables / "notebooks" / "x.ipynb"
    claim_page(notebook, claim_slice_path(result_tables, "x"), page, committed)
    text = page.read_text()
    assert text.index('<header class="sa-header">') < text.index("<h1") and "fails as stated" in text
    # the committed notebook opens on the statuses, under its title
    first = nbformat.read(committed, as_version=4).cells[0].source
    assert first.startswith("# Claim x\n\n* **") and "fails as stated" in first.split("What $k$ is.")[0]


def test_the_papers_italics_in_a_quote_are_set_in_italics(result_tables):
    """An erratum's printed text quotes the paper, whose italics its text writes as ``*word*``."""
    from sparseact.publish.findings import load_results
    from sparseact.publish.report import errata_html

    results = load_results(result_tables)
    results.errata.loc[results.errata.index[0], "printed"] = "we show that *parities* with $m^*$ and $n^*$"
    shown = errata_html(results, result_tables, result_tables / "report")
    assert "we show that <em>parities</em> with <math" in shown and "*parities*" not in shown


def test_a_long_correction_folds_under_what_survives_of_the_result(result_tables):
    """A main result that fails as stated, with a long correction: the fold's summary says what survives of it (the
    README's words), not "Replace by"."""
    from sparseact.publish.findings import load_results
    from sparseact.publish.report import FOLDED_COST_CHARS, headline_html

    results = load_results(result_tables)
    results.headline.loc[0, "cost"] = "Replace by: " + "a longer bound " * (FOLDED_COST_CHARS // 10)
    results.statements.loc[results.statements["statement_id"] == "thm1", "survives"] = "yes, in a weaker form"
    shown = headline_html(results, result_tables, result_tables / "report")
    assert "<details><summary>A weaker corrected form is proved …</summary>Replace by: a longer bound" in shown


def test_the_committed_site_has_no_entry_without_its_link(result_tables, tmp_path):
    """The run's report links its timings page from the navigation and a section; the committed site, which has no
    timings page, has neither, and every entry of its navigation is a link."""
    from sparseact.publish.report import build_report
    from sparseact.publish.site import write_site

    result, bench = report_inputs(result_tables)
    index = result_tables / "report" / "index.html"
    build_report(result_tables, [result], [bench], index, result_tables / "report" / "timings.html")
    assert index.read_text().count('href="timings.html"') == 2
    write_site(result_tables, tmp_path / "site")
    page = (tmp_path / "site" / "index.html").read_text()
    nav = re.search(r"<nav>(.*?)</nav>", page, re.S).group(1)
    entries = re.sub(r"</?span[^>]*>", "", nav).split(" · ")
    assert len(entries) > 5 and all(re.fullmatch(r"\s*<a [^>]*>[^<]*</a>\s*", e) for e in entries), entries
    assert "timings" not in page.lower()


def test_the_provenance_layout_does_not_depend_on_the_revisions(tmp_path):
    """Claims assembled at one revision or at several give the committed site the same bytes: one line names the
    report's revision, each file's own is in a fold either way."""
    from sparseact.publish.report import provenance_html
    from sparseact.publish.site import SITE_REVISION, site_page

    def shown(revisions):
        paths = []
        for name, revision in zip("ab", revisions, strict=True):
            provenance = dict(seed=1, config_hash=name, git_revision=revision, python="3", packages={}, cpu_dispatch={})
            paths.append(tmp_path / f"{name}.json")
            paths[-1].write_text(json.dumps({"provenance": provenance}))
        page = provenance_html(paths, tmp_path, "c" * 40)
        return site_page(page, "report/index.html", {"report/index.html": "index.html"}, "..")

    one, two = shown(["a" * 40, "a" * 40]), shown(["a" * 40, "b" * 40 + "-dirty"])
    assert one == two and f"Written at git revision <code>{SITE_REVISION}</code>." in one
    assert one.count(f"<code>{SITE_REVISION}</code>") == 3 and "<details><summary>" in one


def test_a_claim_pages_reasons_name_statements_and_classes_in_words():
    """The first screens of a claim page (navigation, statuses, argument, chain, statements table, verdicts) read a
    statement or a claim as its name, a link to its row, and a class in words: no statement id and no class id in
    their visible text (the claim's id, the command `sparseact explain <id>` and check ids, in code, aside; the
    graph's nodes show their ids under their names)."""
    import dataclasses
    import html as html_module

    from sparseact.publish.findings import FINDING_WORDS, load_results
    from sparseact.publish.report import claim_header_html
    from sparseact.publish.statements import derive

    committed = Path(__file__).resolve().parents[1] / "results"  # the paper's statements, as the run found them
    results = load_results(committed)
    results = dataclasses.replace(results, statements=derive(results.ledger).fillna(""))  # reasons as worded now
    statement_ids = set(results.statements["statement_id"])
    for claim in ("theorem8", "theorem17", "lemma9", "theorem13", "scaling"):
        header = claim_header_html(claim, committed, committed / "pages" / f"{claim}.html", results)
        if claim == "theorem8":
            assert ">previous: Lemma 6</a>" in header and ">next: Lemma 9</a>" in header
            floored = '<a href="#statement-theorem8-floored">Theorem 8 (with its printed logarithm floored at 1)</a>'
            assert floored in header
        shown = re.sub(r"<svg\b.*?</svg>|<math\b.*?</math>|<code>.*?</code>", " ", header, flags=re.S)
        found = set(
            re.findall(r"(?<![\w:/.-])([\w.-]+)(?![\w/]|-\w)", html_module.unescape(re.sub(r"<[^>]+>", " ", shown)))
        )
        assert not statement_ids & found, (claim, sorted(statement_ids & found))
        assert not (set(FINDING_WORDS) - {"typo"}) & found, claim  # "a typo" is its words


def test_every_mention_of_the_corner_rule_links_its_section(tmp_path, monkeypatch):
    """A page's mentions of the corner rule (its file named in brackets or not) link the rule's section of the docs,
    relative to the page; not inside math, a link or a picture; and not at all outside the repository."""
    from sparseact.publish.links import CORNER_RULE, CORNER_RULE_SECTION, link_corner_rule

    root = Path(__file__).resolve().parents[1]
    slugs = {
        re.sub(r"[^\w\- ]", "", line.lstrip("#").strip().lower()).replace(" ", "-")
        for line in (root / CORNER_RULE).read_text(encoding="utf-8").splitlines()
        if line.startswith("#")
    }
    assert CORNER_RULE_SECTION in slugs
    page = (
        "<p>floored at 1 under the corner rule (docs/statements-graph.md); by the degenerate-corner rule.</p>"
        '<math><mi>the corner rule</mi></math><a href="x">the corner rule</a><svg><title>the corner rule</title></svg>'
    )
    monkeypatch.chdir(root)
    href = f"../../{CORNER_RULE}#{CORNER_RULE_SECTION}"
    assert link_corner_rule(page, "results/pages/theorem8.html") == (
        f'<p>floored at 1 under <a href="{href}">the corner rule</a>; by <a href="{href}">the degenerate-corner '
        'rule</a>.</p><math><mi>the corner rule</mi></math><a href="x">the corner rule</a><svg><title>the corner '
        "rule</title></svg>"
    )
    monkeypatch.chdir(tmp_path)
    assert link_corner_rule(page, "results/pages/theorem8.html") == page


def test_a_claim_pages_argument_leads_with_the_proof_or_the_refutation():
    """The first screen's argument: Theorem 8 rests first on its proof, the floor of its printed logarithm after it
    in one sentence; Theorem 17 is refuted by the graph's proof, named in words, its certificate a finite instance
    linked by words, not by the check's id."""
    import dataclasses

    from sparseact.publish.findings import load_results
    from sparseact.publish.report import claim_header_html
    from sparseact.publish.statements import derive

    committed = Path(__file__).resolve().parents[1] / "results"
    results = load_results(committed)
    results = dataclasses.replace(results, statements=derive(results.ledger).fillna(""))

    def argument(claim, ref):
        header = claim_header_html(claim, committed, committed / "pages" / f"{claim}.html", results)
        return next(a for a in re.findall(r'<p class="argument">(.*?)</p>', header) if f"for {ref}.</b>" in a)

    theorem8 = argument("theorem8", "Theorem 8")
    assert theorem8.startswith(
        '<b>The argument for Theorem 8.</b> Rests on <a href="#statement-theorem8-sharp">Theorem 8 (our proof)</a>'
    )
    floor = theorem8.index("Where a printed logarithm is below 1, it is floored at 1 under the corner rule (")
    assert theorem8.index("Theorem 8 (with its printed logarithm floored at 1)") > floor
    theorem17 = argument("theorem17", "Theorem 17")
    assert theorem17.startswith(
        '<b>The argument for Theorem 17.</b> Refuted by <a href="#statement-theorem17-no-constant">Theorem 17 (our '
        "refutation: no constant in"
    )
    assert ">its certificate</a>: a finite instance)" in theorem17 and "theorem17-printed<" not in theorem17
