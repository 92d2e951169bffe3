"""The argument graph as a picture (sparseact.publish.graph) and the links between the pages (sparseact.publish.links).

Every node of the graph page links to an anchor the report has; the layout is integer and byte-identical; ids in an
argument become links, whole ids only, never inside math or an existing link.
"""

import html
import itertools
import re
from html.parser import HTMLParser

import pytest
from hypothesis import given
from hypothesis import strategies as st
from test_report import report_inputs

# at the top: a property test's first example would otherwise pay the import against hypothesis's deadline
from sparseact.publish.graph import (
    NODE_HEIGHT,
    NODE_WIDTH,
    Node,
    graph_svg,
    layout,
    node_height,
    premises,
    subgraph,
    text_width,
    wrap,
)
from sparseact.publish.links import anchor, link_ids


class Refs(HTMLParser):
    def __init__(self):
        super().__init__()
        self.ids, self.hrefs = set(), []

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if "id" in attrs:
            self.ids.add(attrs["id"])
        if "href" in attrs:
            self.hrefs.append((tag, attrs["href"]))


def parse(path):
    parser = Refs()
    parser.feed(path.read_text())
    return parser


def test_every_node_of_the_graph_page_opens_its_row_on_the_report(result_tables):
    from sparseact.paper import facts
    from sparseact.publish.report import build_report

    result, bench = report_inputs(result_tables)
    index = result_tables / "report" / "index.html"
    build_report(result_tables, [result], [bench], index, result_tables / "report" / "timings.html")
    graph = result_tables / "report" / "graph.html"
    first = graph.read_bytes()
    build_report(result_tables, [result], [bench], index, result_tables / "report" / "timings.html")
    assert graph.read_bytes() == first  # byte-identical from run to run
    whole = graph.read_text().split('<section class="graph-sections"', 1)[1].split('<div class="print-only">')[0]
    nodes = re.findall(r'<a class="node [^"]*" href="([^"]*)"', whole)
    anchors = parse(index).ids
    expected = 5 + 2 + len(facts())  # statements, errata, cited facts of the fixture
    assert len(nodes) == expected
    assert all(href.startswith("index.html#") and href.split("#", 1)[1] in anchors for href in nodes), nodes
    page = graph.read_text()
    for words in ("fails as stated", "holds on a range", "open", "proved", "cited", "erratum", "main result"):
        assert words in page  # the legend says every status in words, not colour alone
    assert "http" not in page.replace('xmlns="http://www.w3.org/2000/svg"', "")  # offline: nothing fetched
    # a switch scales the whole graph into the window (an overview at 800 px), without a script; the one script is
    # inline (highlighting), nothing is loaded from elsewhere
    assert 'id="graph-fit"' in page and '<label for="graph-fit">' in page
    assert page.count("<script") == 1 and " src=" not in page and "<link" not in page
    assert ".graph-fit:checked ~ .graph .graph-box svg.argument-graph" in page
    # the report's first screen names the paper's authors, and its navigation leads to what is open
    from sparseact.publish.links import PAPER_AUTHORS

    report = index.read_text()
    assert report.index(PAPER_AUTHORS) < report.index("<nav>") < report.index('href="#open">Open</a>')
    first_screen = report[report.index("<body>") : report.index("<nav>")]  # the title, the byline, then the nav
    for words in ("Learning Neural Networks with Sparse Activations", PAPER_AUTHORS, "2024"):
        assert words in first_screen
    assert 'id="open"' in report


def test_report_anchors_every_statement_fact_erratum_and_check(result_tables):
    import pandas as pd

    from sparseact.paper import facts
    from sparseact.publish.report import build_report

    table = pd.read_csv(result_tables / "statements.csv", dtype=str, keep_default_na=False)
    table.loc[table["statement_id"] == "thm1", "checks"] = "x/a-printed; x/a-corrected"
    table.to_csv(result_tables / "statements.csv", index=False)
    result, bench = report_inputs(result_tables)
    index = result_tables / "report" / "index.html"
    build_report(result_tables, [result], [bench], index, result_tables / "report" / "timings.html")
    anchors = parse(index).ids
    for wanted in (
        "statement-thm1",
        "statement-lem2-sharp",
        "erratum-x-a-printed",
        "check-x/a-printed",
        *(f"fact-{f['id'].split(':', 1)[1]}" for f in facts()),
    ):
        assert wanted in anchors, wanted
    local = [h for _, h in parse(index).hrefs if h.startswith("#")]
    assert "#statement-thm1" in local and all(h[1:] in anchors for h in local)
    # a statement's row lists its own checks, each a link to its row, a FAIL's with a link to its certificate's page
    assert (
        'Its checks: <a href="#check-x/a-printed">x/a-printed</a> (FAIL, <a href="certificates/x/a-printed.html">'
        'certificate</a>), <a href="#check-x/a-corrected">' in index.read_text()
    )


def test_claim_page_links_its_own_rows_and_the_report_for_the_rest(result_tables):
    from sparseact.publish.report import claim_header_html

    page = result_tables / "pages" / "x.html"
    header = claim_header_html("x", result_tables, page)
    assert 'id="statement-thm1"' in header and 'class="argument-graph"' in header
    assert 'href="#statement-thm1"' in header  # a node of this claim: its row on this page
    assert 'href="../report/index.html#erratum-x-a-printed"' in header  # an erratum: its section on the report


def test_layout_is_layered_integer_and_deterministic():
    nodes = [Node(k, k, k, "proved") for k in ("top", "mid", "leaf", "alone")]
    edges = [("top", "mid", "uses"), ("mid", "leaf", "uses"), ("top", "leaf", "uses")]
    position, _width, height = layout(nodes, edges)
    assert position == layout(list(reversed(nodes)), list(reversed(edges)))[0]
    assert position["top"][1] < position["mid"][1] < position["leaf"][1] < position["alone"][1]
    assert all(isinstance(v, int) for xy in position.values() for v in xy) and height >= 4 * NODE_HEIGHT
    with pytest.raises(ValueError, match="cycle: a -> b -> a"):
        layout([Node("a", "a", "a", "proved"), Node("b", "b", "b", "proved")], [("a", "b", "uses"), ("b", "a", "uses")])


def test_a_leaf_sits_just_below_its_lowest_user():
    nodes = [Node(k, k, k, "proved") for k in ("a", "b", "c", "fact")]
    position, _, _ = layout(nodes, [("a", "b", "uses"), ("b", "c", "uses"), ("a", "fact", "uses")])
    assert position["fact"][1] == position["b"][1]  # one layer below a, not at the bottom beside c


def test_subgraph_keeps_one_edge_around():
    nodes = [Node(k, k, k, "proved") for k in "abcd"]
    edges = [("a", "b", "uses"), ("b", "c", "uses"), ("c", "d", "uses")]
    kept, kept_edges = subgraph(nodes, edges, {"b"})
    assert [n.key for n in kept] == ["a", "b", "c"] and kept_edges == edges[:2]


def test_ids_become_links_whole_and_outside_math_and_links():
    targets = {
        "lemma9": "#statement-lemma9",
        "lemma9-sharp": "#statement-lemma9-sharp",
        "fact:parseval": "#fact-parseval",
        "x/a": "#check-x/a",
    }
    text = (
        "by lemma9-sharp and lemma9, fact:parseval, x/a and x/ab; <math><mi>lemma9</mi></math> "
        '<a href="#o">lemma9</a> <span title="lemma9">lemma9x</span>'
    )
    out = link_ids(text, targets)
    assert out.count('href="#statement-lemma9-sharp"') == 1 and out.count('href="#statement-lemma9"') == 1
    assert 'href="#fact-parseval"' in out and out.count('href="#check-x/a"') == 1
    assert "<math><mi>lemma9</mi></math>" in out and '<a href="#o">lemma9</a>' in out and 'title="lemma9"' in out


@given(st.text(alphabet="ab-9 .,<>/$", max_size=40))
def test_link_ids_only_adds_links(text):
    fragment = html.escape(text)
    out = link_ids(fragment, {"a9": "#statement-a9", "a9-b": "#statement-a9-b"})
    assert re.sub(r'<a href="[^"]*">|</a>', "", out) == fragment


def test_anchor_names_each_kind():
    assert [anchor("lemma9"), anchor("fact:parseval"), anchor("x/a"), anchor("lemma9", erratum=True)] == [
        "statement-lemma9",
        "fact-parseval",
        "check-x/a",
        "erratum-lemma9",
    ]
    with pytest.raises(TypeError):
        anchor("")


def test_claim_page_chain_is_collapsed_typeset_linked_and_expands_each_item_once():
    import pandas as pd
    from test_statements import _row

    from sparseact.paper import facts, premise_kind, statements
    from sparseact.publish.findings import Results
    from sparseact.publish.report import chains_html
    from sparseact.publish.statements import derive

    premises = [
        p
        for e in statements()
        for p in [*e.get("argument", {}).get("uses", ()), *(e.get("correction") or {}).get("verified_by", ())]
    ]
    premises += [c for f in facts() for c in f.get("checks", ())]
    ledger = pd.DataFrame([_row(c, "", "PASS") for c in sorted(set(premises)) if premise_kind(c) == "check"])
    table = derive(ledger, strict=False).astype(str)
    results = Results(table, *(pd.DataFrame() for _ in range(3)), ledger.astype(str), pd.DataFrame())
    own = table[table["claim_id"] == "theorem8"]
    block = chains_html(results, own, {"theorem8-sharp": "#statement-theorem8-sharp"})
    assert block.startswith('<details class="chain"><summary><b>Why Theorem 8 is ') and block.count("<details") == 1
    assert '<a href="#statement-theorem8-sharp">theorem8-sharp</a>' in block and "<math" in block and "$" not in block
    first = re.findall(r'<li id="(chain0-[^"]+)"', block)
    assert len(first) == len(set(first))  # each item expanded once
    assert all(f'id="{target[1:]}"' in block for target in re.findall(r'href="(#chain0-[^"]+)"', block))
    assert block.count("<ul>") == block.count("</ul>") and block.count("<li") == block.count("</li>")


def test_a_node_of_no_known_status_is_refused():
    with pytest.raises(ValueError, match=r"no status colour: \['undetermined'\]"):
        graph_svg([Node("a", "a", "a", "undetermined")], [], lambda node: "#a")


@given(
    st.integers(1, 14).flatmap(
        lambda n: st.tuples(
            st.just(n), st.sets(st.tuples(st.integers(0, n - 1), st.integers(0, n - 1)).filter(lambda e: e[0] < e[1]))
        )
    )
)
def test_any_acyclic_graph_is_laid_out_downwards_without_overlap(graph):
    n, pairs = graph
    nodes = [Node(f"n{i}", "", "", "proved") for i in range(n)]
    edges = [(f"n{a}", f"n{b}", "uses") for a, b in sorted(pairs)]
    position, width, height = layout(nodes, edges)
    assert position == layout(nodes[::-1], edges[::-1])[0]  # the order of the input does not matter
    assert all(position[a][1] < position[b][1] for a, b, _ in edges)  # every arrow points down
    assert all(0 <= x <= width - NODE_WIDTH and 0 <= y <= height - NODE_HEIGHT for x, y in position.values())
    rows = sorted({y for _, y in position.values()})
    assert all(b - a >= NODE_HEIGHT for a, b in itertools.pairwise(rows))
    for row in rows:  # side by side on a row, never on top of each other
        xs = sorted(x for x, y in position.values() if y == row)
        assert all(b - a >= NODE_WIDTH for a, b in itertools.pairwise(xs))


def _graph_page(result_tables):
    from sparseact.publish.report import build_report

    result, bench = report_inputs(result_tables)
    index = result_tables / "report" / "index.html"
    build_report(result_tables, [result], [bench], index, result_tables / "report" / "timings.html")
    graph = result_tables / "report" / "graph.html"
    # the claim pages its nodes link (data-page; the workflow's claim-page job writes them), with the rows they name
    rows = {}
    for page, row in re.findall(r'data-page="\.\./pages/([^"#]+)#([^"]+)"', graph.read_text()):
        rows.setdefault(page, set()).add(row)
    (result_tables / "pages").mkdir(exist_ok=True)
    for page, ids in rows.items():
        body = "".join(f'<p id="{row}">{row}</p>' for row in sorted(ids))
        (result_tables / "pages" / page).write_text(f"<!DOCTYPE html><html><head><title>x</title></head><body>{body}")
    return graph


def test_each_main_result_has_a_view_of_what_it_rests_on_with_full_titles(result_tables):
    """A view per main result (headline.csv), in its order: its premises and the errata that make them fail, the
    result on top; each view starts a printed page; titles are whole (no "…"); the whole graph is framed by
    section."""
    import pandas as pd

    from sparseact.publish.findings import load_results
    from sparseact.publish.graph import graph_edges

    page = _graph_page(result_tables).read_text()
    headline = pd.read_csv(result_tables / "headline.csv", dtype=str)
    views = re.findall(r'<section class="graph-view" id="view-([^"]+)">(.*?)</section>', page)
    assert [key for key, _ in views] == list(headline["statement_id"])
    results = load_results(result_tables)
    edges = graph_edges(results.statements, results.errata)
    for key, view in views:
        keys = re.findall(r'<a class="node [^"]*" href="[^"]*" data-key="([^"]+)"', view)
        assert set(keys) == premises(key, edges) | {key}, key
        tops = {
            k: int(y) for k, y in re.findall(r'data-key="([^"]+)"[^>]*>.*?<rect class="box" x="\d+" y="(\d+)"', view)
        }
        assert tops[key] == min(tops.values())  # the result on top
        assert f'href="#view-{key}"' in page  # listed in the contents
    assert "erratum:x-a-printed" in premises("thm1", edges)  # what makes it fail is below it
    assert "…" not in page and "..." not in page
    assert ".graph-view { break-before: page; break-inside: avoid; }" in page
    screen, printed = page.split('<div class="print-only">')
    sections = re.findall(r'<g class="section">.*?font-weight="700" fill="#24292f">([^<]+)</text>', screen)
    assert sections[-1] == "Cited textbook facts (not proved here)" and len(sections) == len(set(sections))
    # printed, a picture per section (each kept on a page) instead of the one picture
    assert re.findall(
        r'<div class="section-print"><svg.*?font-weight="700" fill="#24292f">([^<]+)</text>', printed
    ) == (sections)


def test_the_committed_graph_page_shares_the_reports_style_file(result_tables, tmp_path):
    """In the committed site the graph page links the report's style file and keeps inline only its own rules."""
    from sparseact.publish.site import write_site

    _graph_page(result_tables)
    site = tmp_path / "site"
    write_site(result_tables, site)
    index, graph = ((site / name).read_text() for name in ("index.html", "graph.html"))
    shared = re.findall(r'<link rel="stylesheet" href="(style/[0-9a-f]+\.css)">', index)
    assert len(shared) == 1 and f'href="{shared[0]}"' in graph
    inline = "".join(re.findall(r"<style>(.*?)</style>", graph, re.S))
    assert ".graph-view" in inline and "font-family: system-ui" not in inline


@given(st.text(alphabet=st.sampled_from("aiWM0 -/(\u03c1\u2264"), max_size=80), st.integers(40, 300))
def test_wrap_keeps_every_character_and_each_line_fits(text, width):
    lines = wrap(text, width, 12.5)
    assert "".join(lines).replace(" ", "") == text.replace(" ", "")
    assert all(text_width(line, 12.5) <= width or len(line) == 1 for line in lines)


def test_a_long_title_makes_a_taller_node_not_a_cut_one():
    short, long = Node("a", "Lemma 9", "a", "proved"), Node("b", "Theorem 8 (proof, choice of rho; " * 3, "b", "proved")
    assert node_height(short) == NODE_HEIGHT < node_height(long)
    svg = graph_svg([long], [], lambda node: "#b")
    assert "…" not in svg and svg.count('class="title"') == len(wrap(long.label, NODE_WIDTH - 16, 12.5))


@pytest.mark.browser
def test_the_graph_page_in_a_browser_highlights_fits_and_prints_a_page_per_view(result_tables):
    """Headless Chromium: at 1400, 1024, 800 and 390 px and printed the graph page has no problem of
    :func:`sparseact.publish.browser.page_problems` (no node's title cut or out of its box, each view on a printed
    page of its own); selecting a node frames what it rests on and what rests on it and names them in the panel
    with a link to its row; the check finds a cut title and a view that does not start a page."""
    from sparseact.publish.browser import Browser, check_page, find_chromium, measure_page

    if find_chromium() is None:
        pytest.skip("no Chromium installed: the browser checks need one (Debian: apt-get install chromium)")
    graph = _graph_page(result_tables)
    with Browser() as browser:
        assert check_page(browser, graph, first_screen=False) == []
        browser.load(graph)
        state = browser.evaluate(
            """(() => {
  const view = document.getElementById('view-thm1');
  const node = key => view.querySelector(`a.node[data-key="${key}"]`);
  node('thm1').dispatchEvent(new MouseEvent('click', {bubbles: true, cancelable: true}));
  const classes = Array.from(view.querySelectorAll('a.node'), a => [a.dataset.key, a.getAttribute('class')]);
  return {url: location.href, classes: Object.fromEntries(classes),
          panel: view.querySelector('.graph-panel').innerText,
          links: Array.from(view.querySelectorAll('.graph-panel a'), a => a.getAttribute('href'))};
})()"""
        )
        assert state["url"].endswith("graph.html")  # the first click selects, it does not leave the page
        assert "selected" in state["classes"]["thm1"] and "below" in state["classes"]["erratum:x-a-printed"]
        assert state["panel"].startswith("Theorem 1 (thm1): fails as stated. Its row on the report · its claim page.")
        assert "It rests on 1: Theorem 1 (proof)." in state["panel"]
        assert state["links"] == ["index.html#statement-thm1", "../pages/x.html#statement-thm1"]
        # the check finds what it should: a title cut, a view that does not start a printed page
        text = graph.read_text()
        graph.write_text(
            text.replace(">Theorem 1</text>", ">Theorem 1 " + "W" * 40 + "</text>", 1).replace(
                ".graph-view { break-before: page;", ".graph-view { break-before: auto;"
            )
        )
        browser.load(graph)
        found = measure_page(browser, graph)
        assert found.cut_nodes == ["thm1"]
        browser.set_screen(794, media="print")
        assert measure_page(browser, graph, printed=True).views_off_page == ["view-thm1", "view-lem2"]


@given(
    st.integers(2, 12).flatmap(
        lambda n: st.tuples(
            st.just(n), st.sets(st.tuples(st.integers(0, n - 1), st.integers(0, n - 1)).filter(lambda e: e[0] < e[1]))
        )
    ),
    st.integers(1, 4),
)
def test_an_edge_never_runs_behind_a_node(graph, row_nodes):
    """Every straight stretch of an edge's path that crosses a row runs through a gap of that row, and every curve
    stays between two rows: an edge spanning several layers passes beside the nodes between its ends."""
    from sparseact.publish.graph import _route, _rows

    n, pairs = graph
    nodes = [Node(f"n{i}", "Lemma " * (i % 3 + 1), f"n{i}", "proved") for i in range(n)]
    by_key = {node.key: node for node in nodes}
    position, _, _ = layout(nodes, [(f"n{a}", f"n{b}", "uses") for a, b in pairs], row_nodes=row_nodes)
    rows = _rows(position, by_key)
    boxes = [(x, y, x + NODE_WIDTH, y + node_height(by_key[k])) for k, (x, y) in position.items()]
    for a, b in sorted(pairs):
        a, b = f"n{a}", f"n{b}"
        path = _route(position[a], node_height(by_key[a]), position[b], node_height(by_key[b]), rows)
        numbers = [int(v) for v in re.findall(r"-?\d+", path)]
        points = [tuple(numbers[i : i + 2]) for i in range(0, len(numbers), 2)]
        ends = {position[a][0] + NODE_WIDTH // 2, position[b][0] + NODE_WIDTH // 2}
        for (xa, ya), (xb, yb) in itertools.pairwise(points):
            if xa == xb and xa not in ends:  # a straight stretch through a row: beside every node in it
                low, high = sorted((ya, yb))
                assert not any(x0 < xa < x1 and y0 < high and low < y1 for x0, y0, x1, y1 in boxes), (a, b, path)


def test_every_node_of_the_papers_graph_and_of_each_view_has_a_title_of_its_own():
    """Statements printed at one place (seven nodes once read "Section 4 (Hardness under arbitrary distributions)")
    and errata at one place are told apart by what they are, in words, never by their ids: no two nodes of the whole
    graph, nor of a main result's view, share a title."""
    import pandas as pd

    from sparseact.paper import errata, statements
    from sparseact.publish.graph import graph_edges, graph_nodes, view_svg

    table = pd.DataFrame(
        [
            dict(
                statement_id=e["id"],
                claim_id=e["claim_id"],
                paper_ref=e["paper_ref"],
                status="proved",
                uses="; ".join(e.get("argument", {}).get("uses", ())),
            )
            for e in statements()
        ]
    )
    causes = pd.DataFrame(
        [dict(erratum_id=e["id"], statements="", location=e["location"], gist=e["gist"]) for e in errata()]
    )
    nodes, edges = graph_nodes(table, causes), graph_edges(table, causes)
    labels = [n.label for n in nodes]
    assert len(labels) == len(set(labels)), sorted(label for label in labels if labels.count(label) > 1)
    assert all(n.key not in n.label for n in nodes if n.key.startswith("section4-"))
    parity = [n.label for n in nodes if n.label.startswith("Section 4 (Hardness under arbitrary distributions)")]
    assert len(parity) == 7 and "Section 4 (Hardness under arbitrary distributions): the lifted weights" in parity
    for entry in (e for e in statements() if e.get("main")):
        names = [html.unescape(n) for n in re.findall(r'data-name="([^"]*)"', view_svg(nodes, edges, entry["id"], str))]
        assert len(names) == len(set(names)) > 0, entry["id"]


def test_statements_printed_at_one_place_need_titles_that_tell_them_apart(monkeypatch):
    from sparseact import paper

    entries = [
        dict(id="a", paper_ref="Section 4", claim_id="x"),
        dict(id="b", paper_ref="Section 4", claim_id="x", title="the lift"),
    ]
    with pytest.raises(
        ValueError, match=r"x/statements.yaml \(a\): needs a title: its paper_ref 'Section 4' is also b's"
    ):
        paper._check_titles(entries)
    entries[0]["title"] = "the lift"
    with pytest.raises(ValueError, match=r"\(b\): its name 'Section 4: the lift' is also a's"):
        paper._check_titles(entries)
    entries[0]["title"] = "the identity"
    paper._check_titles(entries)


@pytest.mark.browser
def test_a_view_reads_on_a_phone_in_a_box_that_scrolls_sideways(tmp_path):
    """Headless Chromium at 390 px: a main result's three-column view is drawn at no less than LEGIBLE_SCALE (titles
    of 10 px, where fitting the window gave 4 px) in its own box, which scrolls sideways and is shaded where more is
    hidden, while the page does not scroll; at 1400 px it is drawn whole at its own size."""
    from sparseact.publish.browser import Browser, find_chromium, measure_page
    from sparseact.publish.graph import GRAPH_CSS, LEGIBLE_SCALE, TITLE_SIZE, graph_figure, view_svg

    if find_chromium() is None:
        pytest.skip("no Chromium installed: the browser checks need one (Debian: apt-get install chromium)")
    nodes = [Node("top", "Theorem 1", "top", "proved", main=True)]
    nodes += [Node(f"p{i}", f"Lemma {i}", f"p{i}", "proved") for i in range(6)]
    edges = [("top", f"p{i}", "uses") for i in range(6)]
    svg = view_svg(nodes, edges, "top", lambda node: "#")
    page = tmp_path / "view.html"
    page.write_text(
        '<!DOCTYPE html><html><head><meta charset="utf-8"><meta name="viewport" content="width=device-width">'
        f"<style>{GRAPH_CSS}</style></head><body>{graph_figure(svg, 'graph-box view-box')}</body></html>"
    )
    measure = """(() => { const svg = document.querySelector('svg.argument-graph'), box = svg.parentElement;
  return {scale: svg.getBoundingClientRect().width / svg.viewBox.baseVal.width,
          box_scrolls: box.scrollWidth > box.clientWidth + 1,
          page_scrolls: document.documentElement.scrollWidth > document.documentElement.clientWidth,
          shaded: getComputedStyle(box).backgroundImage.split('radial-gradient').length - 1}; })()"""
    fitted = tmp_path / "fitted.html"  # the view as it was: fitted to the window whatever its width
    fitted.write_text(page.read_text().replace(" min-width: var(--legible-width, 0);", ""))
    with Browser() as browser:
        browser.set_screen(390)
        browser.load(page)
        phone = browser.evaluate(measure)
        assert measure_page(browser, page).small_nodes == []
        browser.load(fitted)
        assert len(measure_page(browser, fitted).small_nodes) == 5  # the check finds it (the first five named)
        browser.set_screen(1400)
        browser.load(page)
        desktop = browser.evaluate(measure)
    assert 3 * NODE_WIDTH * LEGIBLE_SCALE > 390  # the view is wider than the phone even at the least scale
    assert phone["scale"] >= LEGIBLE_SCALE - 0.005 and TITLE_SIZE * phone["scale"] >= 9.9
    assert phone["box_scrolls"] and not phone["page_scrolls"] and phone["shaded"] == 2
    assert desktop == {"scale": 1, "box_scrolls": False, "page_scrolls": False, "shaded": 2}
