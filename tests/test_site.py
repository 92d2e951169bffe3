"""The committed site (sparseact.publish.site): the run's pages with every link leading to a page of the site or to a
committed file, the shared style written once, the same bytes from the same pages, an earlier site replaced."""

from pathlib import Path

import pytest

from sparseact.publish.site import RUN_ONLY, SITE_CPU_FEATURES, SITE_REVISION, site_page, write_site

#: A style block two claim pages share, and one only the report has.
SHARED, OWN = "<style>body { margin: 0 }</style>", "<style>h1 { color: red }</style>"


def _results(root: Path, pages=("a", "b")) -> Path:
    """A run's pages: the report and the graph, one certificate page, and claim pages ``pages``."""
    results = root / "results"
    files = {
        "report/index.html": OWN + '<a href="graph.html">graph</a> <a href="../pages/a.html#s">a</a> '
        '<a href="certificates/a/c.html">cert</a> <a class="x" href="../erratum/erratum.pdf">note</a> '
        '<img class="thumb" alt="a figure" src="../../figures/a/f.png"> <a href="../../figures/a/f.pdf">f.pdf</a> '
        '<a href="../tables/a/t.csv">t.csv</a> <a href="../claims/a.json">a.json</a> '
        '<a href="timings.html">timings</a> <a href="https://arxiv.org/abs/2406.17989v1">paper</a> '
        '<a href="#top">top</a> <a href="../findings.md#x">findings</a>',
        "report/graph.html": '<a class="node" href="index.html#statement-a" data-page="../pages/a.html#s">a</a>',
        "report/certificates/a/c.html": '<a href="../../index.html#statement-a">back</a> '
        '<a href="../../../pages/a.html">page</a> <a href="../../../certificates/a/c.json">JSON</a>',
        **{
            f"pages/{name}.html": SHARED + '<a href="../report/index.html">report</a> '
            '<a href="../../docs/statements-graph.md#rule">rule</a> '
            '<a href="../certificates/a/c.json">JSON</a> <a href="../../figures/a/f.pdf"><b>f</b></a>'
            for name in pages
        },
        "tables/a/t.csv": "x\n1\n",  # a data table the pages link: copied, one link away
    }
    for name, text in files.items():
        (results / name).parent.mkdir(parents=True, exist_ok=True)
        (results / name).write_text(text)
    return results


def test_links_lead_to_the_sites_pages_or_to_committed_files(tmp_path):
    results, site = _results(tmp_path), tmp_path / "docs" / "site"
    written = write_site(results, site)
    css = next(name for name in written if name.startswith("style/"))
    assert written == sorted(
        ["index.html", "graph.html", "certificates/a/c.html", "pages/a.html", "pages/b.html", "tables/a/t.csv", css]
    )
    assert (site / "tables/a/t.csv").read_text() == "x\n1\n"
    assert (site / css).read_text() == "body { margin: 0 }"
    assert (site / "index.html").read_text() == (
        OWN + '<a href="graph.html">graph</a> <a href="pages/a.html#s">a</a> '
        '<a href="certificates/a/c.html">cert</a> <a class="x" href="../../results/erratum/erratum.pdf">note</a> '
        ' f.pdf <a href="tables/a/t.csv">t.csv</a> a.json timings '
        '<a href="https://arxiv.org/abs/2406.17989v1">paper</a> <a href="#top">top</a> '
        '<a href="../../results/findings.md#x">findings</a>'
    )
    assert (site / "graph.html").read_text() == (
        '<a class="node" href="index.html#statement-a" data-page="pages/a.html#s">a</a>'
    )
    assert (site / "certificates/a/c.html").read_text() == (
        '<a href="../../index.html#statement-a">back</a> <a href="../../pages/a.html">page</a> '
        '<a href="../../../../results/certificates/a/c.json">JSON</a>'
    )
    assert (site / "pages/b.html").read_text() == (
        f'<link rel="stylesheet" href="../{css}"><a href="../index.html">report</a> '
        '<a href="../../../docs/statements-graph.md#rule">rule</a> '
        '<a href="../../../results/certificates/a/c.json">JSON</a> <b>f</b>'
    )
    assert (site / "SHA256SUMS").read_text().count("\n") == len(written)


def test_the_same_pages_give_the_same_bytes_and_a_page_gone_is_removed(tmp_path):
    results, site = _results(tmp_path), tmp_path / "docs" / "site"
    write_site(results, site)
    first = {p.relative_to(site): p.read_bytes() for p in site.rglob("*") if p.is_file()}
    write_site(results, site)
    assert {p.relative_to(site): p.read_bytes() for p in site.rglob("*") if p.is_file()} == first
    (results / "pages" / "b.html").unlink()  # one claim page left: its style is its own again
    write_site(results, site)
    assert sorted(p.relative_to(site).as_posix() for p in site.rglob("*")) == [
        "SHA256SUMS",
        "certificates",
        "certificates/a",
        "certificates/a/c.html",
        "graph.html",
        "index.html",
        "pages",
        "pages/a.html",
        "tables",
        "tables/a",
        "tables/a/t.csv",
    ]
    assert (site / "pages" / "a.html").read_text().startswith(SHARED)


def test_a_folder_the_site_did_not_write_is_refused(tmp_path):
    results, site = _results(tmp_path), tmp_path / "docs"
    (site / "figures").mkdir(parents=True)
    (site / "figures" / "keep.png").write_bytes(b"png")
    with pytest.raises(ValueError, match=r"docs/figures/keep.png, which no earlier site wrote"):
        write_site(results, site)
    assert (site / "figures" / "keep.png").read_bytes() == b"png"
    assert not (site / "index.html").exists()


def test_a_run_without_its_report_is_named(tmp_path):
    results = _results(tmp_path)
    (results / "report" / "graph.html").unlink()
    with pytest.raises(FileNotFoundError, match=r"results/report/graph.html: no such page"):
        write_site(results, tmp_path / "site")


def test_a_site_page_names_no_git_revision():
    """A committed page cannot name the commit that holds it: a rerun at another commit must give the same bytes."""
    text = "<p>git revision <code>63d708da636f75e14a67e92b0ccfcbfe03f6fd79-dirty</code>, a5ef6dafb6aeba98a3280dfbfedf7a7a3dc912cc</p>"
    page = site_page(text, "report/index.html", {"report/index.html": "index.html"}, "..")
    assert page == f"<p>git revision <code>{SITE_REVISION}</code>, {SITE_REVISION}</p>"


def test_a_site_page_names_no_machines_cpu_features():
    """probe11: the committed report named the AVX-512 features the run switched off, which differ from machine to
    machine (AVX512_SPR on one, not on another) while the code path is the same: a rerun elsewhere gave a diff."""
    for features in ("X86_V4 AVX512_ICL", "X86_V4 AVX512_ICL AVX512_SPR"):
        text = f"<code>NPY_DISABLE_CPU_FEATURES={features}; OPENBLAS_CORETYPE=Haswell</code>"
        page = site_page(text, "report/index.html", {"report/index.html": "index.html"}, "..")
        assert page == f"<code>{SITE_CPU_FEATURES}; OPENBLAS_CORETYPE=Haswell</code>"


def test_an_entry_for_a_page_that_is_not_committed_goes_whole():
    """The report's entry for the timings page (not committed: wall times differ from run to run) is dropped with its
    separator and its section, not left as words that lead nowhere; an entry whose link is committed stays."""
    pages = {"report/index.html": "index.html", "report/graph.html": "graph.html"}
    text = (
        f'<nav><a href="#a">a</a> · <a href="graph.html">graph</a><span class="{RUN_ONLY}"> · '
        f'<a href="timings.html">per-job timings</a></span><span class="{RUN_ONLY}"> · <a href="graph.html">g</a>'
        f'</span></nav><div class="{RUN_ONLY}"><h2 id="timings">Timings</h2><p><a href="timings.html">t</a></p></div>'
    )
    page = site_page(text, "report/index.html", pages, "..")
    assert page == (
        f'<nav><a href="#a">a</a> · <a href="graph.html">graph</a><span class="{RUN_ONLY}"> · <a href="graph.html">g'
        "</a></span></nav>"
    )
