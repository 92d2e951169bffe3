"""README is a front door: short, the headline answer generated from the committed results, links that resolve,
math that survives a code host's Markdown renderer, the figures it shows committed and listed in the workflow."""

import re

import pytest
from markdown_it import MarkdownIt
from mdit_py_plugins.dollarmath import dollarmath_plugin

from sparseact.publish.browser import SCREEN, WIDTHS, Browser, find_chromium
from sparseact.publish.findings import readme_block
from sparseact.publish.frontdoor import README_TABLE_WORDS, measure_readme
from sparseact.publish.site import SITE_ENTRY
from sparseact.publish.statements import README_END, README_START, readme_with_summary

MATH = re.compile(r"(?<![\\$])\$([^$]+?)(?<![\\$])\$")


def test_readme_block_matches_the_committed_results(repo_root):
    readme = (repo_root / "README.md").read_text(encoding="utf-8")
    assert README_START in readme and README_END in readme
    regenerated = readme_with_summary(readme, readme_block(repo_root / "results"))
    assert readme == regenerated, "README's headline block disagrees with results/: run `sparseact readme-summary`"


def test_the_headline_table_is_short_and_free_of_ids_and_formulas(repo_root):
    """At most README_TABLE_WORDS (250) words in the table, link targets aside; no formula, and no id of a statement, check or erratum."""
    table = [line for line in readme_block(repo_root / "results").splitlines() if line.startswith("|")][2:]
    shown = re.sub(r"\]\([^)]*\)", "]", " ".join(table))
    assert len(re.findall(r"[^\s|*]+", shown)) <= README_TABLE_WORDS
    assert "$" not in shown and "`" not in shown and not re.search(r"\b[a-z0-9]+-[a-z0-9-]+\b", shown), shown


def test_readme_leads_with_the_answer_and_stays_short(repo_root):
    readme = (repo_root / "README.md").read_text(encoding="utf-8")
    headings = re.findall(r"^## (.+)$", readme, flags=re.M)
    assert headings[:4] == ["Which results survive", "Quick start", "Where the outputs are", "How to read a verdict"]
    assert len(readme.splitlines()) <= 160
    assert (
        "pip install -e . && python -m ipykernel install --sys-prefix --name sparseact && snakemake --cores all"
        in readme
    )  # the Quick start commands


def test_readme_links_and_figures_resolve(repo_root):
    readme = (repo_root / "README.md").read_text(encoding="utf-8")
    for target in re.findall(r"\]\(([^)#]+)(?:#[^)]*)?\)", readme):
        if not target.startswith("http") and target != "docs/slurm.md":  # docs/slurm.md: another issue writes it
            assert (repo_root / target).exists(), target
    assert re.search(r"!\[[^\]]+\]\(docs/figures/[^)]+\.png\)", readme)


def test_readme_links_the_note_the_findings_and_the_rendered_report(repo_root):
    readme = (repo_root / "README.md").read_text(encoding="utf-8")
    for target in ("results/erratum/erratum.pdf", "results/findings.md", SITE_ENTRY):
        assert f"]({target})" in readme, target


def test_committed_figures_are_the_ones_the_workflow_copies(repo_root):
    common = (repo_root / "workflow" / "rules" / "common.smk").read_text()
    listed = re.search(r"DOC_FIGURES = \[(.*?)\]", common, flags=re.S).group(1)
    expected = {f"{name.replace('/', '-')}.png" for name in re.findall(r'"([^"]+)"', listed)}
    committed = {p.name for p in (repo_root / "docs" / "figures").glob("*.png")}
    assert committed == expected
    assert all(p.stat().st_size < 300_000 for p in (repo_root / "docs" / "figures").glob("*.png"))


def test_readme_math_survives_a_code_hosts_renderer(repo_root):
    readme = (repo_root / "README.md").read_text(encoding="utf-8")
    source = MATH.findall(readme)
    tokens = MarkdownIt("gfm-like", {"linkify": False}).use(dollarmath_plugin).parse(readme)
    rendered = [c.content for t in tokens for c in (t.children or []) if c.type == "math_inline"]
    assert source and rendered == source
    assert not any("\\{" in tex or "\\}" in tex for tex in source)  # a renderer without math strips the backslash


def test_committed_certificates_match_the_committed_ledger(repo_root):
    import pandas as pd

    ledger = pd.read_csv(repo_root / "results" / "ledger.csv", keep_default_na=False)
    expected = {path for path in ledger["certificate"] if path}
    present = {str(p.relative_to(repo_root)) for p in (repo_root / "results" / "certificates").rglob("*.json")}
    assert expected == present


@pytest.mark.browser
def test_the_headline_answers_in_one_screen_of_a_code_host(repo_root, tmp_path):
    """Rendered as a code host renders a README (math left as source), the headline table ends within the first
    1400 x 900 screen, holds at most 250 words and fits its box, and no width from 1400 down to 390 px scrolls
    sideways (:func:`sparseact.publish.frontdoor.measure_readme`)."""
    if find_chromium() is None:
        pytest.skip("no Chromium installed: the browser checks need one (Debian: apt-get install chromium)")
    with Browser() as browser:
        measured, problems = measure_readme(browser, repo_root / "README.md", tmp_path / "README.html")
    assert not problems, problems
    assert set(measured) == set(WIDTHS) and measured[SCREEN[0]]["words"] > 100, measured
