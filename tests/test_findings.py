"""findings.md and README's block from the statements engine's tables (fixtures made here, never results/)."""

import re

import pytest
from markdown_it import MarkdownIt
from mdit_py_plugins.dollarmath import dollarmath_plugin

from sparseact.publish.findings import findings_markdown, load_results, readable, readme_block, status_clause
from sparseact.publish.mathtext import markdown_math, tex_to_mathml
from sparseact.verify.verdicts import FINDING_DEFINITIONS, FINDINGS

MATH = re.compile(r"(?<![\\$])\$([^$]+?)(?<![\\$])\$")


def test_every_class_of_findings_is_defined():
    assert tuple(FINDING_DEFINITIONS) == FINDINGS and all(FINDING_DEFINITIONS.values())


def test_findings_open_with_the_headline_then_errata_by_cause_tightness_and_open_statements(result_tables):
    text = findings_markdown(result_tables)
    order = [
        "## Headline results",
        "| **Theorem 1**",
        "**Classes of errata.**",
        "## Errata by root cause",
        "### statement-error (1)",
        "### typo (1)",
        "## Tightness",
        "## Open statements (1)",
    ]
    assert [text.index(h) for h in order] == sorted(text.index(h) for h in order)
    assert "fails as stated (the statement is wrong)" in text and "holds on range ($n \\le 20$)" in text
    assert "n=6, s=1: Pr = 0.3125" in text and "the bound is 0 but a neuron flips" in text  # the certificate's
    assert "verified by `x/a-corrected`: **PASS**" in text and "none proposed" in text
    assert "[a-printed](certificates/x/a-printed.md)" in text and "(#erratum-x-a-printed)" in text
    assert "majority: $10^{6}$" in text and "0.3333" in text  # numbers for reading
    for literal in ("True", "False", "nan", "1e+06"):
        assert literal not in text


def test_readme_block_answers_in_words(result_tables):
    """The README's block: one line per main result in words (its status, what changes, a link to its first
    erratum), the sharper results by name, and where to read on; the counts and the hedges stay in findings."""
    block = readme_block(result_tables)
    assert block.startswith("| result | status | what changes for the authors |")
    assert (
        "| **Theorem 1** | fails as stated | Fails as printed ([the statement is wrong](results/findings.md#erratum-x-a-printed))"
        in block
    )
    assert "| **Lemma 2** | holds on range | Holds on every instance checked ($n \\le 20$)" in block
    # no PDF compiled from this note: the LaTeX source is linked (sparseact.publish.notepdf)
    assert (
        "the project proves sharper forms of Lemma 2" in block
        and "(LaTeX; its PDF is stale or not compiled)](results/erratum/erratum.tex)" in block
    )
    assert "Bottom line" not in block and "printed statements" not in block
    assert len(block.splitlines()) < 12


def test_readable_numbers():
    assert [readable(v) for v in ("True", "nan", "1e+06", "0.333333", "12", "2.5e-07", "word")] == [
        "yes",
        "",
        "$10^{6}$",
        "0.3333",
        "12",
        "$2.5 \\times 10^{-7}$",
        "word",
    ]


def _rendered_math(markdown: str) -> list[str]:
    """The TeX of every math span as a GitHub-flavoured renderer that knows ``$...$`` math hands it to the typesetter."""
    tokens = MarkdownIt("gfm-like", {"linkify": False}).use(dollarmath_plugin, double_inline=True).parse(markdown)
    spans = []
    for token in tokens:
        for child in token.children or []:
            if child.type == "math_inline":
                spans.append(child.content)
    return spans


@pytest.mark.parametrize("writer", [findings_markdown, readme_block])
def test_math_survives_a_code_hosts_markdown_renderer(result_tables, writer):
    text = writer(result_tables)
    source = [m.group(1) for m in MATH.finditer(text)]
    assert source and _rendered_math(text) == source  # every formula reaches the typesetter whole
    html = MarkdownIt("gfm-like", {"linkify": False}).render(
        text
    )  # a renderer that does not know math: braces and bars survive
    assert sorted(MATH.findall(re.sub(r"<[^>]+>", "", html.replace("&amp;", "&")))) == sorted(source)
    for tex in source:
        assert "\\{" not in tex and "|" not in tex, tex
        tex_to_mathml(tex)


def test_markdown_math_rewrites_braces_and_bars():
    assert markdown_math(r"a | $\{x\} \le \|w\|$") == r"a \| $\lbrace x\rbrace \le \Vert w\Vert $"
    assert markdown_math(r"$\{x\}$", in_table=False) == r"$\lbrace x\rbrace $"


def test_load_results_reads_every_table(result_tables):
    results = load_results(result_tables)
    assert (
        len(results.statements),
        len(results.headline),
        len(results.errata),
        len(results.tightness),
        len(results.ledger),
        len(results.sharper),
    ) == (5, 2, 2, 1, 3, 1)
    assert list(results.printed["statement_id"]) == ["thm1", "lem2", "conj3", "eq4"]
    assert list(results.own["statement_id"]) == ["lem2-sharp"]


def test_a_status_reads_as_the_rest_of_a_sentence():
    """ "Why Theorem 17 fails as stated", never "is fails as stated"; "is" before a status that is not a verb."""
    assert status_clause("proved") == "is proved" and status_clause("open") == "is open"
    assert status_clause("fails-as-stated", "statement-error") == "fails as stated (the statement is wrong)"
    assert status_clause("holds-on-range", on_range="n in {2}") == "holds on range (n in {2})"
