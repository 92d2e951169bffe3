"""The statement catalogue covers the paper, and the committed statement files follow from it and the ledger."""

import re
from pathlib import Path

import pandas as pd
import pytest

from sparseact.statements import catalogue, statement_table

ROOT = Path(__file__).resolve().parents[1]

#: Every numbered item of the paper (PMLR numbering) that states something; Definitions 1 and 2 define the class
#: every statement uses and carry no claim of their own.
NUMBERED = ["Claim 2.1", "Theorem 3", "Theorem 4", "Theorem 5", "Lemma 6", "Lemma 7", "Theorem 8", "Lemma 9",
            "Lemma 10", "Remark 11", "Conjecture 12", "Theorem 13", "Theorem 14", "Definition 15", "Conjecture 16",
            "Theorem 17", "Lemma 18", "Theorem 19", "Conjecture 20", "Appendix A", "Appendix B"]
#: Numbered equations (1)-(17).
EQUATIONS = range(1, 18)


@pytest.fixture(scope="module")
def refs():
    return catalogue()["paper_ref"].tolist()


@pytest.fixture(scope="module")
def ledger():
    return pd.read_csv(ROOT / "results" / "ledger.csv", keep_default_na=False)


@pytest.mark.parametrize("item", NUMBERED)
def test_every_numbered_item_has_a_statement(refs, item):
    pattern = re.compile(rf"\b{re.escape(item)}(?![\d.])")
    assert any(pattern.search(ref) for ref in refs), f"no statement has paper_ref naming {item}"


@pytest.mark.parametrize("number", EQUATIONS)
def test_every_numbered_equation_has_a_statement(refs, number):
    assert any("eq" in ref and f"({number})" in ref for ref in refs), f"no statement has paper_ref naming eq. ({number})"


def test_every_statement_without_checks_says_why(ledger):
    checked = set(ledger["statement_id"])
    silent = [row.statement_id for row in catalogue().itertuples()
              if row.statement_id not in checked and not row.unsettled and not row.argument]
    assert not silent, f"statements with no check, no argument and no 'unsettled' reason: {silent}"


def test_committed_statements_follow_from_the_catalogue_and_the_ledger(ledger):
    committed = pd.read_csv(ROOT / "results" / "statements.csv", keep_default_na=False)
    fresh = statement_table(ledger).fillna("").astype(str)
    pd.testing.assert_frame_equal(committed.astype(str), fresh, check_dtype=False)


def _row(check_id, statement_id, verdict):
    return dict(claim_id="x", check_id=check_id, statement_id=statement_id, paper_ref="Lemma 1", statement="s",
                check="c", variant="", method="exact", instances=1, worst_value=0.0, worst_value_label="w",
                verdict=verdict, finding="", counterexample="", certificate="", evidence="", seeds="1/1", notes="")


def _statement(statement_id, argument=(), unsettled=""):
    return dict(statement_id=statement_id, claim_id="x", paper_ref="Lemma 1", kind="lemma", statement="s",
                argument=tuple(argument), argument_text="restates a" if argument else "", unsettled=unsettled)


def test_an_argument_may_rest_on_the_checks_of_another_statement():
    ledger = pd.DataFrame([_row("x/a1", "a", "PASS"), _row("x/a2", "a", "PASS"), _row("x/b1", "b", "FAIL")])
    statements = pd.DataFrame([_statement("a"), _statement("b"), _statement("intro-a", ["x/a1", "x/a2"]),
                               _statement("intro-b", ["x/b1"], unsettled="rests on b")])
    table = statement_table(ledger, statements).set_index("statement_id")
    assert table.loc["intro-a", "status"] == "holds" and table.loc["intro-a", "basis"] == "verified argument"
    assert table.loc["intro-a", "checks"] == "x/a1; x/a2"
    assert table.loc["intro-b", "status"] == "not-settled"  # an argument with a FAILing step proves nothing
    with pytest.raises(ValueError, match="not in the ledger"):
        statement_table(ledger.iloc[0:0], pd.DataFrame([_statement("c", ["x/missing"])]))


#: The fields of a statement that readers see: the statement (statements table, report), and the argument text and
#: the 'unsettled' reason (the ``reason`` column they become).
SHOWN_FIELDS = ("statement", "argument_text", "unsettled")


def test_statement_texts_render():
    """Every shown field of every claim's ``STATEMENTS`` renders to MathML: TeX the converter knows, paired ``$``,
    and no raw ``$`` (unrendered math) left in the HTML."""
    from sparseact.mathtext import render_text

    rendered = 0
    for row in catalogue().itertuples():
        for field in SHOWN_FIELDS:
            text = getattr(row, field)
            if not text:
                continue
            html = render_text(text)  # raises MathRenderError on unknown macros or unpaired $
            assert "$" not in html, (row.statement_id, field, html)
            rendered += 1
    assert rendered > 100


def test_statement_math_is_tex_not_ascii():
    """The statements show the paper's math as TeX, not as ASCII stand-ins (``H_{n,s,k}``, ``sqrt(n)``, ``<w, x>``)."""
    from sparseact.mathtext import split_math

    ascii_math = re.compile(r"H_\{|sqrt\(|<=|>=|\|\||<[a-z]|\bE_[xz]|\(\+\)|\beps\b|\brho\b|\blambda\b")
    for row in catalogue().itertuples():
        for field in SHOWN_FIELDS:
            prose = "".join(piece for kind, piece in split_math(getattr(row, field)) if kind == "text")
            prose = re.sub(r"\b[a-z0-9_]+/[a-z0-9-]+", "", prose)  # check ids such as theorem8/rho-choice
            assert not ascii_math.search(prose), (row.statement_id, field, ascii_math.search(prose).group(0))


def test_a_shortened_reason_never_cuts_a_formula():
    from sparseact.mathtext import split_math
    from sparseact.statements import _shorten

    text = "word " * 40 + r"$\mathcal{H}_{n,s,k}^{W,B} \le \sqrt{n \log(ns)}$ " * 20
    short = _shorten(text, 240)
    assert short.endswith("...") and len(short) < len(text)
    assert all(tex.startswith(r"\mathcal{H}") and tex.endswith(r"\log(ns)}") for kind, tex in split_math(short)
               if kind != "text")
    plain = "x" * 300
    assert _shorten(plain, 240) == "x" * 237 + "..."  # plain text: cut as before
    assert _shorten(r"short with $\sqrt{n}$", 240) == r"short with $\sqrt{n}$"


#: Decimals a statement's argument or open question may type: exact arithmetic, not measurements.
EXACT_DECIMALS = {
    "4.08": "4 / (sqrt(2) log 2), the factor between 4 k^2 W^2 and Lemma 9's expression at n = 2",
    "0.75": "E max at n = s = 1, x = (1, -1) (eq. (12), hand computed)",
    "0.5": "max E in the same example",
    "0.03": "the paper's 3 %",
    "33.3": "1 / 0.03",
}


def test_statement_texts_type_no_measured_number():
    """A measured value belongs to the ledger (a check's worst value), not to a typed argument or open question."""
    import re

    texts = catalogue()[["statement_id", "argument_text", "unsettled"]].fillna("")
    found = {(row.statement_id, number) for row in texts.itertuples()
             for text in (row.argument_text, row.unsettled)
             for number in re.findall(r"(?<![\w^_{.])\d+\.\d+", text) if number not in EXACT_DECIMALS}
    assert not found, f"typed decimals (refer to the check's worst value instead): {sorted(found)}"
