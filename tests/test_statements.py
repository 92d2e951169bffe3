"""The statement catalogue covers the paper, and the committed statement files follow from it and the ledger."""

import re
from pathlib import Path

import pandas as pd
import pytest

from sparseact.publish.statements import UNDETERMINED, UndeterminedError, catalogue, derive, explain

ROOT = Path(__file__).resolve().parents[1]

#: Every numbered item of the paper (PMLR numbering) that states something; Definitions 1 and 2 define the class
#: every statement uses and carry no claim of their own.
NUMBERED = [
    "Claim 2.1",
    "Theorem 3",
    "Theorem 4",
    "Theorem 5",
    "Lemma 6",
    "Lemma 7",
    "Theorem 8",
    "Lemma 9",
    "Lemma 10",
    "Remark 11",
    "Conjecture 12",
    "Theorem 13",
    "Theorem 14",
    "Definition 15",
    "Conjecture 16",
    "Theorem 17",
    "Lemma 18",
    "Theorem 19",
    "Conjecture 20",
    "Appendix A",
    "Appendix B",
]
#: Numbered equations (1)-(17).
EQUATIONS = range(1, 18)


@pytest.fixture(scope="module")
def refs():
    return catalogue()["paper_ref"].tolist()


@pytest.mark.parametrize("item", NUMBERED)
def test_every_numbered_item_has_a_statement(refs, item):
    pattern = re.compile(rf"\b{re.escape(item)}(?![\d.])")
    assert any(pattern.search(ref) for ref in refs), f"no statement has paper_ref naming {item}"


@pytest.mark.parametrize("number", EQUATIONS)
def test_every_numbered_equation_has_a_statement(refs, number):
    assert any("eq" in ref and f"({number})" in ref for ref in refs), (
        f"no statement has paper_ref naming eq. ({number})"
    )


def _row(check_id, statement_id, verdict, method="exact", finding="", range_=""):
    return dict(
        claim_id="x",
        check_id=check_id,
        statement_id=statement_id,
        paper_ref="Lemma 1",
        statement="s",
        check="c",
        variant="",
        method=method,
        instances=1,
        range=range_,
        worst_value=0.0,
        worst_value_label="w",
        verdict=verdict,
        finding=finding,
        counterexample=f"cex of {check_id}",
        certificate="",
        evidence="",
        replicates="1/1",
        notes="",
    )


def _entry(statement_id, uses=(), **extra):
    entry = dict(id=statement_id, claim_id="x", paper_ref="Lemma 1", kind="lemma", statement=f"printed {statement_id}")
    if uses:
        entry["argument"] = dict(uses=list(uses), text=f"argument of {statement_id}")
    return {**entry, **extra}


FACTS = [dict(id="fact:cs", name="Cauchy-Schwarz", statement="...", citation="any textbook", checks=["x/cs"])]


def _derive(rows, entries, strict=True):
    return derive(pd.DataFrame(rows), strict=strict, entries=entries, facts=FACTS).set_index("statement_id")


def test_an_argument_of_exact_checks_facts_and_proved_statements_proves():
    rows = [_row("x/cs", "a", "PASS"), _row("x/a1", "a", "PASS", range_="n <= 4"), _row("x/b1", "b", "PASS")]
    table = _derive(rows, [_entry("a"), _entry("b", ["x/b1", "fact:cs"]), _entry("c", ["b", "x/a1"])])
    assert table.loc["b", "status"] == "proved" and table.loc["c", "status"] == "proved"
    assert table.loc["a", "status"] == "holds-on-range" and table.loc["a", "range"] == "n <= 4"
    assert table.loc["c", "uses"] == "b; x/a1"


def test_a_premise_on_a_range_bounds_the_conclusion_to_that_range():
    rows = [_row("x/cs", "a", "PASS", range_="n <= 4"), _row("x/a1", "a", "PASS", range_="n <= 6")]
    table = _derive(rows, [_entry("a"), _entry("c", ["a"])])
    assert table.loc["c", "status"] == "holds-on-range" and table.loc["c", "range"] == "n <= 4; n <= 6"


def test_estimates_inconclusive_checks_and_failing_premises_prove_nothing():
    rows = [
        _row("x/cs", "f", "PASS"),
        _row("x/mc", "a", "PASS", method="monte-carlo"),
        _row("x/i", "b", "INCONCLUSIVE"),
    ]
    entries = [_entry("a"), _entry("b"), _entry("c", ["x/mc"]), _entry("f")]
    with pytest.raises(UndeterminedError, match=r"a .*x/mc is PASS \(monte-carlo\)"):
        _derive(rows, entries)
    table = _derive(rows, entries, strict=False)
    assert set(table.loc[["a", "b", "c"], "status"]) == {UNDETERMINED}
    assert "x/mc, which is check PASS (monte-carlo)" in table.loc["c", "reason"]


def test_a_certified_fail_decides_and_says_whether_the_result_survives():
    rows = [
        _row("x/cs", "a", "PASS"),
        _row("x/p", "a", "FAIL", finding="proof-slip"),
        _row("x/q", "a", "FAIL", finding="typo"),
        _row("x/ok", "b", "PASS"),
        _row("x/bad", "b", "FAIL", finding="statement-error"),
    ]
    entries = [
        _entry("a", ["x/cs"], correction=dict(text="fixed a", verified_by=["x/cs"])),
        _entry("b", correction=dict(text="fixed b", verified_by=["x/bad"])),
    ]
    table = _derive(rows, entries)
    assert table.loc["a", "status"] == "fails-as-stated" and table.loc["a", "class"] == "proof-slip"
    assert table.loc["a", "survives"] == "yes: corrected form verified by x/cs"
    assert table.loc["a", "reason"] == "cex of x/p"
    assert table.loc["b", "survives"].startswith("no: its correction is not verified (x/bad")


def test_a_correction_that_is_a_conjecture_leaves_survival_open():
    rows = [_row("x/bad", "a", "FAIL", finding="constant-factor"), _row("x/e", "c", "PASS", method="estimate")]
    entries = [
        _entry("a", correction=dict(text="fixed a", verified_by=["c"])),
        _entry("c", open="a conjecture over all samples.", open_kind="conjecture"),
    ]
    table = _derive(rows, entries)
    assert table.loc["a", "survives"] == "open: its correction is a conjecture (c), neither proved nor refuted"


def test_a_weaker_correction_says_what_it_does_not_recover():
    rows = [
        _row("x/bad", "a", "FAIL", finding="typo"),
        _row("x/ok", "b", "PASS"),
        _row("x/bad2", "b", "FAIL", "exact", "typo"),
    ]
    entries = [
        _entry("a", correction=dict(text="fixed a", verified_by=["x/ok"], unproved="the printed  run time")),
        _entry("b", correction=dict(text="fixed b", verified_by=["x/ok"])),
    ]
    table = _derive(rows, entries)
    assert table.loc["a", "survives"] == (
        "yes, in a weaker form: corrected form verified by x/ok; not proved: the printed run time"
    )
    assert table.loc["b", "survives"] == "yes: corrected form verified by x/ok"


def test_a_proved_refutation_fails_the_printed_statement_and_an_unproved_one_does_not():
    rows = [_row("x/cs", "r", "PASS"), _row("x/e", "c", "PASS", method="estimate")]
    entries = [
        _entry("a", refuted_by=["r"], correction=dict(text="fixed a", verified_by=["c"])),
        _entry("b", refuted_by=["u"], open_kind="conjecture"),
        _entry("r", ["x/cs"], kind="derived", statement="a is false for large p"),
        _entry("u", ["x/e"], kind="derived", statement="b is false (an estimate only)"),
        _entry("c", open="a conjecture over all samples.", open_kind="conjecture"),
    ]
    table = _derive(rows, entries, strict=False)
    assert table.loc["a", "status"] == "fails-as-stated" and table.loc["a", "class"] == "statement-error"
    assert table.loc["a", "reason"] == "Refuted by a proof in the graph (r: a is false for large p)."
    assert table.loc["a", "survives"].startswith("open: its correction is a conjecture (c)")
    assert "r" in table.loc["a", "uses"]
    # a refutation resting on an estimate proves nothing: the printed statement is not decided by it
    assert table.loc["b", "status"] != "fails-as-stated"


def test_out_of_range_fails_do_not_decide_and_open_needs_its_reason():
    rows = [
        _row("x/cs", "a", "PASS"),
        _row("x/oor", "a", "FAIL", finding="out-of-range"),
        _row("x/e", "c", "PASS", method="estimate"),
    ]
    entries = [_entry("a"), _entry("c", open="a conjecture over all samples.", open_kind="conjecture")]
    table = _derive(rows, entries)
    assert (
        table.loc["a", "status"] == "holds-on-range"
        and "outside the range the paper uses (x/oor)" in table.loc["a", "reason"]
    )
    assert table.loc["c", "status"] == "open" and "Evidence: x/e: PASS" in table.loc["c", "reason"]


def test_unknown_premises_cycles_and_orphan_rows_are_errors():
    with pytest.raises(ValueError, match="names no check"):
        _derive([_row("x/cs", "a", "PASS")], [_entry("a", ["x/none"])])
    with pytest.raises(ValueError, match="cycle: a -> b -> a"):
        _derive([_row("x/cs", "a", "PASS")], [_entry("a", ["b"]), _entry("b", ["a"])])
    with pytest.raises(ValueError, match="does not define"):
        _derive([_row("x/cs", "zzz", "PASS")], [_entry("a")])


def test_explain_walks_down_to_checks_and_facts():
    from sparseact.paper import statements

    some = statements()[0]["id"]
    ledger = pd.DataFrame([], columns=list(_row("x/a", "a", "PASS")))
    text = explain(some, ledger.assign(statement_id=[]))
    assert text.startswith(f"- {some} [")
    with pytest.raises(ValueError, match="no statement 'nope'"):
        explain("nope", ledger)


def test_explain_wraps_and_refers_back_to_what_it_printed():
    from sparseact.paper import facts, premise_kind, statements
    from sparseact.publish.statements import explain, explain_chain

    premises = [
        p
        for e in statements()
        for p in [*e.get("argument", {}).get("uses", ()), *(e.get("correction") or {}).get("verified_by", ())]
    ]
    premises += [c for f in facts() for c in f.get("checks", ())]
    ledger = pd.DataFrame([_row(c, "", "PASS") for c in sorted(set(premises)) if premise_kind(c) == "check"])
    chain = explain_chain("theorem8", ledger)
    expanded = [item.identifier for item in chain if not item.again]
    assert len(expanded) == len(set(expanded))  # each statement, check and fact is expanded once
    assert any(item.again for item in chain)  # theorem8's chain meets some premise twice
    text = explain("theorem8", ledger, width=60)
    assert text.count("(see above)") == sum(item.again for item in chain)
    assert max(map(len, text.splitlines())) <= 60 or all(
        " " not in line.strip() for line in text.splitlines() if len(line) > 60
    )  # only one unbreakable word
    assert explain("theorem8", ledger).count("\n") < text.count("\n")  # unwrapped: fewer, longer lines
    with pytest.raises(ValueError, match="width must be >= 40"):
        explain("theorem8", ledger, width=5)


def _shown_texts():
    """(statement id, field, text) of every text of sparseact.paper a reader sees: the statement, its argument,
    why it is open, its correction, and the errata's and facts' texts."""
    from sparseact.paper import errata, facts, statements

    for entry in statements():
        for field, text in (
            ("statement", entry["statement"]),
            ("argument", entry.get("argument", {}).get("text")),
            ("open", entry.get("open")),
            ("correction", entry.get("correction", {}).get("text")),
            ("note", entry.get("note")),
        ):
            if text:
                yield entry["id"], field, text
    for entry in (*errata(), *facts()):
        for field in ("location", "correction", "statement", "name"):
            if entry.get(field):
                yield entry["id"], field, entry[field]


def test_statement_texts_render():
    """Every shown field of every claim's ``STATEMENTS`` renders to MathML: TeX the converter knows, paired ``$``,
    and no raw ``$`` (unrendered math) left in the HTML."""
    from sparseact.publish.mathtext import render_text

    rendered = 0
    for statement_id, field, text in _shown_texts():
        html = render_text(text)  # raises MathRenderError on unknown macros or unpaired $
        assert "$" not in html, (statement_id, field, html)
        rendered += 1
    assert rendered > 100


def test_statement_math_is_tex_not_ascii():
    """The statements show the paper's math as TeX, not as ASCII stand-ins (``H_{n,s,k}``, ``sqrt(n)``, ``<w, x>``)."""
    from sparseact.publish.mathtext import split_math

    ascii_math = re.compile(r"H_\{|sqrt\(|<=|>=|\|\||<[a-z]|\bE_[xz]|\(\+\)|\beps\b|\brho\b|\blambda\b")
    for statement_id, field, text in _shown_texts():
        prose = "".join(piece for kind, piece in split_math(text) if kind == "text")
        prose = re.sub(r"\b[a-z0-9_]+/[a-z0-9-]+", "", prose)  # check ids such as theorem8/rho-choice
        assert not ascii_math.search(prose), (statement_id, field, ascii_math.search(prose).group(0))


def test_a_shortened_reason_never_cuts_a_formula():
    from sparseact.publish.mathtext import split_math
    from sparseact.publish.statement_files import _shorten

    text = "word " * 40 + r"$\mathcal{H}_{n,s,k}^{W,B} \le \sqrt{n \log(ns)}$ " * 20
    short = _shorten(text, 240)
    assert short.endswith("...") and len(short) < len(text)
    assert all(
        tex.startswith(r"\mathcal{H}") and tex.endswith(r"\log(ns)}")
        for kind, tex in split_math(short)
        if kind != "text"
    )
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

    found = {
        (statement_id, number)
        for statement_id, field, text in _shown_texts()
        if field != "statement"
        for number in re.findall(
            r"(?<![\w^_{.])(?<!Claim )(?<!Section )\d+\.\d+", text
        )  # "Claim 2.1", "Section 2.1": names
        if number not in EXACT_DECIMALS
    }
    assert not found, f"typed decimals (refer to the check's worst value instead): {sorted(found)}"


def test_corrected_statements_need_a_correction(monkeypatch):
    import sparseact.publish.statements as st
    from sparseact.publish.statement_files import corrected_markdown

    entries = [_entry("a", correction=dict(text=r"fixed: $\sqrt{n}$ & 50% of x_1", verified_by=["x/ok"])), _entry("b")]
    rows = [
        _row("x/bad", "a", "FAIL", finding="typo"),
        _row("x/ok", "a", "PASS"),
        _row("x/bad2", "b", "FAIL", finding="proof-slip"),
    ]
    monkeypatch.setattr(st, "paper_statements", lambda: entries)
    ledger = pd.DataFrame(rows)
    table = derive(ledger, entries=entries, facts=[])
    with pytest.raises(ValueError, match="no correction: b"):
        st.corrected_statements(table, ledger)
    entries[1]["correction"] = dict(text="fixed b", verified_by=["a"])
    corrected = st.corrected_statements(table, ledger).set_index("statement_id")
    assert corrected.loc["a", "verified"] == "PASS" and corrected.loc["b", "verified"] == "fails-as-stated"
    assert "**Corrected.** fixed b" in corrected_markdown(corrected.reset_index())


def test_a_corner_decided_by_argument_reads_like_a_corner_certificate(monkeypatch):
    """A printed statement proved through its floored form (``floored_by``) and one whose only FAIL is a corner
    certificate get the same status and the same headline cost: holds except in degenerate corners."""
    import sparseact.publish.statements as st

    rows = [
        _row("x/step", "f", "PASS"),
        _row("x/step2", "c", "PASS"),
        _row("x/oor", "c", "FAIL", finding="out-of-range"),
        _row("x/step3", "plain", "PASS"),
    ]
    entries = [
        _entry("f", ["x/step"], kind="derived"),
        _entry("a", ["f"], main=True, floored_by="f"),
        _entry("c", ["x/step2"], main=True),
        _entry("plain", ["x/step3"], main=True),
    ]
    table = _derive(rows, entries)
    assert table.loc["a", "status"] == table.loc["c", "status"] == "proved"
    corners = "Corners: where a printed logarithm is below 1, f proves it with that logarithm floored at 1"
    assert corners + " (the corner rule)." in (table.loc["a", "reason"])
    assert "outside the range the paper uses (x/oor) (the corner rule)." in table.loc["c", "reason"]
    assert st.degenerate_corners(entries[1], [], []) == ["f"]
    assert st.degenerate_corners(entries[2], ["x/step2", "x/oor"], {"x/oor"}) == ["x/oor"]
    monkeypatch.setattr(st, "paper_statements", lambda: entries)
    unrelated = pd.DataFrame([{**dict.fromkeys(st.ERRATA_COLUMNS, ""), "erratum_id": "e", "statements": "zzz"}])
    costs = st.headline(table.reset_index(), unrelated, pd.DataFrame(rows)).set_index("statement_id")
    assert costs.loc["a", "cost"] == costs.loc["c", "cost"] == st.HOLDS_OUTSIDE_CORNERS
    assert costs.loc["plain", "cost"] == st.HOLDS


def test_floored_by_is_a_premise_naming_a_derived_statement():
    from sparseact.paper import _check_floored, _check_statement

    entry = {k: v for k, v in _entry("a", floored_by="f").items() if k != "claim_id"}
    with pytest.raises(ValueError, match="floored_by 'f' must be a premise of its argument"):
        _check_statement(entry, "here")
    with pytest.raises(ValueError, match="floored_by names the project's statement"):
        _check_statement({**entry, "floored_by": 3, "argument": dict(uses=["f"], text="t")}, "here")
    _check_statement({**entry, "argument": dict(uses=["f"], text="t")}, "here")
    with pytest.raises(ValueError, match="floored_by 'f' names no derived statement"):
        _check_floored([_entry("a", floored_by="f"), _entry("f")])
    _check_floored([_entry("a", floored_by="f"), _entry("f", kind="derived")])


def test_a_correction_counts_as_proved_only_when_every_statement_verifying_it_is():
    """A statement that holds on a range is told first as proved for every parameter in its corrected form only when
    every statement verifying the correction is proved (Theorem 19, eq. (1) and its all-parameter form)."""
    from sparseact.publish.statements import proved_correction

    entry = {"correction": {"text": "x", "verified_by": ["a", "b"]}}
    assert proved_correction(entry, {"a": "proved", "b": "proved"})
    assert not proved_correction(entry, {"a": "proved", "b": "holds-on-range"})
    assert not proved_correction(entry, {"a": "proved"})
    assert not proved_correction({"correction": {"text": "x"}}, {}) and not proved_correction({}, {})


def test_explain_answers_all_every_statement_and_every_claim(capsys):
    """`sparseact explain` on the committed ledger: 'all' lists every statement's status and class, a statement id
    prints its chain, a claim id that names no statement lists its statements (exit 0, nothing on standard error)."""
    from sparseact.claims import claim_ids
    from sparseact.cli import main
    from sparseact.paper import statements

    results = str(ROOT / "results")
    table = derive(pd.read_csv(ROOT / "results" / "ledger.csv", keep_default_na=False), strict=False)
    assert main(["explain", "all", "--results", results]) == 0
    listed = capsys.readouterr()
    assert listed.err == "" and len(listed.out.splitlines()) == len(table)
    first = table.iloc[0]  # a failure: its class is named
    assert first["class"] and listed.out.startswith(f"{first['statement_id']}: {first['status']} ({first['class']}) -")
    identifiers = {entry["id"] for entry in statements()}
    for identifier in [*claim_ids(), *sorted(identifiers)]:
        assert main(["explain", identifier, "--results", results, "--width", "100"]) == 0, identifier
        shown = capsys.readouterr()
        assert shown.err == "" and shown.out, identifier
        if identifier not in identifiers:
            assert len(shown.out.splitlines()) == (table["claim_id"] == identifier).sum(), identifier


@pytest.fixture
def claims_copy(tmp_path, monkeypatch):
    """A copy of every claim's statements.yaml and errata.yaml that sparseact.paper reads instead of the package's
    (its caches cleared before and after)."""
    from sparseact import paper

    cached = (paper.statements, paper.statement, paper.errata)
    for claim in paper.CLAIMS_DIR.glob("[!_]*/"):
        for name in (paper.STATEMENTS_FILE, paper.ERRATA_FILE):
            if (claim / name).is_file():
                (tmp_path / "claims" / claim.name).mkdir(parents=True, exist_ok=True)
                (tmp_path / "claims" / claim.name / name).write_bytes((claim / name).read_bytes())
    monkeypatch.setattr(paper, "CLAIMS_DIR", tmp_path / "claims")
    monkeypatch.setattr(paper, "DATA_DIR", tmp_path)
    for function in cached:
        function.cache_clear()
    yield tmp_path / "claims"
    for function in cached:
        function.cache_clear()


def test_an_erratum_lives_in_the_folder_of_the_claim_it_corrects(claims_copy):
    """Each claim's errata.yaml holds the errata of its own printed statements: an entry moved to another claim's
    file, or one left in a file of the former folder sparseact/paper/errata/, is refused naming the file."""
    from sparseact import paper

    assert [e["id"] for e in paper.errata()]  # the copy reads as the package does
    lemma6, lemma9 = claims_copy / "lemma6" / paper.ERRATA_FILE, claims_copy / "lemma9" / paper.ERRATA_FILE
    lemma9.write_text(lemma9.read_text() + lemma6.read_text().split("\n", 3)[3])
    lemma6.write_text("[]\n")
    paper.errata.cache_clear()
    with pytest.raises(
        ValueError,
        match=r"^claims/lemma9/errata\.yaml \(lemma6-pairing-monotonicity\): printed 'lemma6-proof-identity' is a "
        r"statement of lemma6: the erratum belongs in claims/lemma6/errata\.yaml$",
    ):
        paper.errata()
    (claims_copy.parent / "errata").mkdir()
    (claims_copy.parent / "errata" / "uniform-chain.yaml").write_text("[]\n")
    paper.statements.cache_clear()
    with pytest.raises(ValueError, match=r"^errata/uniform-chain\.yaml: statements and errata live in src/sparseact"):
        paper.statements()
