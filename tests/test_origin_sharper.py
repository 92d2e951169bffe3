"""Whose statement it is (origin) and the results sharper than printed: validated data, errata that name the paper's
statements only, sharper.csv derived (proved rows only), and the committed tables agree."""

from pathlib import Path

import pandas as pd
import pytest

import sparseact.publish.statements as st
from sparseact.paper import _check_refutations, _check_sharper, _check_statement, origin, paper_position
from sparseact.paper import statements as paper_statements

ROOT = Path(__file__).resolve().parents[1]


def _entry(statement_id, kind="lemma", **extra):
    """A statement as :func:`sparseact.paper.statements` returns it (with its claim)."""
    return dict(
        id=statement_id, claim_id="x", paper_ref="Lemma 1", kind=kind, statement=f"printed {statement_id}", **extra
    )


def _file_entry(statement_id, kind="lemma", **extra):
    """A statement as a statement file has it."""
    return {k: v for k, v in _entry(statement_id, kind, **extra).items() if k != "claim_id"}


def _row(check_id, statement_id, verdict, finding=""):
    return dict(
        claim_id="x",
        check_id=check_id,
        statement_id=statement_id,
        paper_ref="Lemma 1",
        statement="s",
        check="c",
        variant="",
        method="exact",
        instances=1,
        range="",
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


def test_origin_defaults_from_the_kind_and_is_validated():
    assert origin(_entry("a")) == "paper" and origin(_entry("a", kind="derived")) == "project"
    assert origin(_entry("a", kind="meta", origin="project")) == "project"
    with pytest.raises(ValueError, match="origin 'ours' is not one of paper, project"):
        _check_statement(_file_entry("a", origin="ours"), "here")
    with pytest.raises(ValueError, match="kind 'derived' is the project's"):
        _check_statement(_file_entry("a", kind="derived", origin="paper"), "here")


@pytest.mark.parametrize(
    "sharper, message",
    [
        ("lemma9", "sharper needs 'than'"),
        (dict(than="a", measured="x"), "sharper needs 'than'"),
        (dict(tightness="Lemma 9"), "sharper needs 'than'"),
        (dict(than="a", tightness=3), "sharper needs 'than'"),
    ],
)
def test_a_malformed_sharper_entry_is_refused(sharper, message):
    with pytest.raises(ValueError, match=message):
        _check_statement(_file_entry("b", kind="derived", sharper=sharper), "here")


def test_sharper_is_the_projects_and_names_a_statement_of_the_paper():
    with pytest.raises(ValueError, match="only the project's statements are sharper"):
        _check_statement(_file_entry("b", sharper=dict(than="a")), "here")
    _check_statement(_file_entry("b", kind="derived", sharper=dict(than="a", tightness="Lemma 1")), "here")
    with pytest.raises(ValueError, match=r"sharper\.than 'zzz' names no statement"):
        _check_sharper([_entry("a"), _entry("b", kind="derived", sharper=dict(than="zzz"))])
    with pytest.raises(ValueError, match=r"sharper\.than 'c' is the project's statement"):
        _check_sharper([_entry("c", kind="derived"), _entry("b", kind="derived", sharper=dict(than="c"))])
    _check_sharper([_entry("a"), _entry("b", kind="derived", sharper=dict(than="a"))])


def test_the_paper_data_says_whose_each_statement_is():
    entries = {e["id"]: e for e in paper_statements()}
    assert origin(entries["scaling-covariance"]) == "project"  # the meta-claim is the project's
    assert all(origin(e) == "project" for e in entries.values() if e["kind"] == "derived")
    sharper = {e["id"]: e["sharper"]["than"] for e in entries.values() if e.get("sharper")}
    assert {
        "lemma9-sharp": "lemma9",
        "lemma10-sharp": "lemma10",
        "theorem8-sharp": "theorem8",
    }.items() <= sharper.items()


def _graph(monkeypatch, entries):
    monkeypatch.setattr(st, "paper_statements", lambda: entries)
    monkeypatch.setattr(st, "paper_facts", lambda: [])


def test_an_erratum_names_the_papers_statements_only(monkeypatch):
    entries = [
        _entry("thm", correction=dict(text="fixed", verified_by=["x/ok"])),
        _entry("meta", kind="meta", origin="project", correction=dict(text="fixed meta", verified_by=["x/ok"])),
    ]
    _graph(monkeypatch, entries)
    ledger = pd.DataFrame(
        [
            _row("x/thm", "thm", "FAIL", "statement-error"),
            _row("x/meta", "meta", "FAIL", "statement-error"),
            _row("x/ok", "thm", "PASS"),
        ]
    )
    certificates = {"x/thm": {"explanation": "why"}, "x/meta": {"explanation": "why meta"}}
    cause = dict(
        id="cause",
        location="Lemma 1",
        gist="a one-line reason",
        printed="thm",
        correction="fixed",
        verified_by="x/ok",
        checks=["x/thm", "x/meta"],
    )
    errata = st.errata_by_cause(ledger, certificates, [cause])
    assert errata.loc[0, "statements"] == "thm"  # the meta-claim's FAIL is evidence, not a statement sent
    assert errata.loc[0, "certificates"] == "certificates/x/thm.json; certificates/x/meta.json"
    with pytest.raises(ValueError, match="bear on no statement of the paper"):
        st.errata_by_cause(
            ledger, certificates, [{**cause, "checks": ["x/meta"]}, {**cause, "id": "c2", "checks": ["x/thm"]}]
        )
    table = st.derive(ledger, entries=entries, facts=[])
    corrected = st.corrected_statements(table, ledger)
    assert list(corrected["statement_id"]) == ["thm"]  # the project's statement is never sent as a correction


def test_a_refutation_is_a_derived_statement_of_the_project_and_its_erratum_names_it(monkeypatch):
    with pytest.raises(ValueError, match="refuted_by is a list"):
        _check_statement(_file_entry("a", refuted_by="r"), "here")
    for bad in (dict(refuted_class="typo"), dict(refuted_by=["r"], refuted_class="out-of-range")):
        with pytest.raises(ValueError, match="refuted_class is one of"):  # a class beside a refutation, never a corner
            _check_statement(_file_entry("a", **bad), "here")
    with pytest.raises(ValueError, match="not open"):
        _check_statement(_file_entry("a", refuted_by=["r"], open="why", open_kind="conjecture"), "here")
    with pytest.raises(ValueError, match="only a printed statement"):
        _check_statement(_file_entry("a", kind="derived", refuted_by=["r"]), "here")
    with pytest.raises(ValueError, match="names no derived statement"):
        _check_refutations([_entry("a", refuted_by=["r"]), _entry("r")])
    _check_refutations([_entry("a", refuted_by=["r"]), _entry("r", kind="derived")])
    entries = [
        _entry("conj", kind="conjecture", refuted_by=["r"]),
        {
            **_entry("r", kind="derived", argument=dict(uses=["x/ok"], text="the proof")),
            "statement": "conj fails for large p",
        },
    ]
    _graph(monkeypatch, entries)
    ledger = pd.DataFrame([_row("x/ok", "r", "PASS")])
    cause = dict(
        id="cause",
        location="Conjecture 1",
        gist="a one-line reason",
        printed="conj",
        correction="state a range",
        verified_by="x/ok",
        checks=[],
        refuted_by="r",
    )
    errata = st.errata_by_cause(ledger, {}, [cause])
    row = errata.loc[0]
    assert (row["class"], row["statements"], row["certificates"], row["refuted_by"]) == (
        "statement-error",
        "conj",
        "",
        "r",
    )
    assert (row["explanation"], row["counterexample"]) == ("the proof", "conj fails for large p")


def test_sharper_csv_lists_proved_statements_only_with_the_tightness_row(monkeypatch):
    entries = [
        _entry("lem"),
        _entry(
            "lem-sharp",
            kind="derived",
            sharper=dict(than="lem", tightness="Lemma 1"),
            argument=dict(uses=["x/ok"], text="By $a \\le b$."),
        ),
        _entry(
            "lem-weak",
            kind="derived",
            sharper=dict(than="lem"),
            argument=dict(uses=["x/est"], text="an estimate"),
            open="no proof",
            open_kind="hidden-constant",
        ),
    ]
    _graph(monkeypatch, entries)
    ledger = pd.DataFrame(
        [
            _row("x/ok", "lem-sharp", "PASS"),
            _row("x/lem", "lem", "PASS"),
            {**_row("x/est", "lem-weak", "PASS"), "method": "estimate"},
        ]
    )
    table = st.derive(ledger, entries=entries, facts=[])
    tightness = pd.DataFrame(
        [dict(bound="Lemma 1", family="majority", proved_over_family=1.0, printed_over_proved=92.2)]
    )
    sharper = st.sharper_than_printed(table, ledger, tightness)
    assert list(sharper["statement_id"]) == ["lem-sharp"]  # lem-weak is not proved: left out, never typed in
    row = sharper.iloc[0]
    assert (row["than"], row["printed"], row["argument"]) == ("lem", "printed lem", "By $a \\le b$.")
    assert row["chain"] == "lem-sharp is proved from x/ok (PASS, exact)"
    assert (row["family"], row["proved_over_family"], row["printed_over_proved"]) == ("majority", 1.0, 92.2)
    with pytest.raises(ValueError, match=r"sharper\.tightness 'Lemma 1' is no bound of tightness\.csv"):
        st.sharper_than_printed(table, ledger, tightness.assign(bound="Lemma 2"))


def test_the_committed_tables_keep_the_papers_statements_and_the_projects_apart():
    def read(name):
        return pd.read_csv(ROOT / "results" / f"{name}.csv", dtype=str, keep_default_na=False)

    statements, errata, sharper = read("statements"), read("errata"), read("sharper")
    whose = dict(zip(statements["statement_id"], statements["origin"], strict=True))
    assert {whose[s] for cell in errata["statements"] for s in cell.split("; ")} == {"paper"}
    assert whose["scaling-covariance"] == "project"
    assert "scaling-covariance" not in (ROOT / "results" / "corrected-statements.md").read_text()
    status = dict(zip(statements["statement_id"], statements["status"], strict=True))
    expected = [e["id"] for e in paper_statements() if e.get("sharper") and status[e["id"]] == "proved"]
    assert sorted(sharper["statement_id"]) == sorted(expected) and set(sharper["status"]) == {"proved"}
    assert {"lemma9-sharp", "lemma10-sharp", "theorem8-sharp"} <= set(sharper["statement_id"])


def test_paper_position_reads_sections_items_and_appendices():
    refs = [
        "Appendix A",
        "Theorem 19, eq. (1)",
        "Lemma 18 (Section 5)",
        "Abstract",
        "Section 1 (around Theorem 5)",
        "Lemma 6 (Kane 2014)",
        "Conjecture 12 (Section 4)",
        "Appendix B (proof of Lemma 10)",
    ]
    assert sorted(refs, key=paper_position) == [
        "Abstract",
        "Section 1 (around Theorem 5)",
        "Lemma 6 (Kane 2014)",
        "Conjecture 12 (Section 4)",
        "Lemma 18 (Section 5)",
        "Theorem 19, eq. (1)",
        "Appendix A",
        "Appendix B (proof of Lemma 10)",
    ]


@pytest.mark.parametrize("value", [42, ["a", "b"], {"a": 1}])
def test_a_statement_that_is_not_text_is_refused_in_one_line(value):
    """A number or a list where the statement's text belongs is refused where the file is read, naming the key (not a
    traceback from the typesetting of the ledger)."""
    with pytest.raises(ValueError, match=r"^here: statement must be text, got \w+$"):
        _check_statement({**_file_entry("a"), "statement": value}, "here")


@pytest.mark.parametrize(
    ("key", "value", "said"),
    [
        ("paper_ref", "L" * 20_000, "at most 200 characters"),
        ("title", "t" * 201, "at most 200 characters"),
        ("paper_ref", "Lemma 6 \0", "control character"),
        ("statement", "x \x1b[2J", "control character"),
    ],
)
def test_a_name_too_long_to_wrap_or_a_control_character_is_refused(key, value, said):
    """probe9: a 20 KB paper_ref took the graph's word wrap minutes, and a NUL in one reached erratum.tex and the
    pages; both are refused where the file is read."""
    with pytest.raises(ValueError, match=f"^here: {key} .*{said}"):
        _check_statement({**_file_entry("a"), key: value}, "here")
