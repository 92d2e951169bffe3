"""The erratum note for the authors: generated from the result tables (never typed), text escaped and math passed
through, every erratum with its certificates linked, and (with a TeX engine) it compiles with no LaTeX error and no
overfull box over 5 pt."""

import json
import os
import re
import shutil
from pathlib import Path

import pandas as pd
import pytest
from hypothesis import given
from hypothesis import strategies as hs

from sparseact.paper import errata
from sparseact.paper import statements as paper_statements
from sparseact.publish.erratum import (
    NOTE_PREAMBLE,
    OVERFULL_LIMIT_PT,
    SUBSTANTIVE,
    TEX_ENGINE,
    PaperWords,
    _superseded,
    certificate_link,
    compile_pdf,
    erratum_tex,
    numbered_errata,
    overfull_boxes,
    printed_certificates,
    printed_tex,
    tex_text,
)
from sparseact.publish.findings import load_results
from sparseact.publish.notepdf import current_pdf, note_link, recorded_stamp, source_stamp
from sparseact.publish.statements import CONSEQUENCES, errata_by_cause

ROOT = Path(__file__).resolve().parents[1]
needs_tex = pytest.mark.skipif(
    shutil.which(TEX_ENGINE) is None, reason=f"no TeX engine ({TEX_ENGINE}); .ci/run installs one"
)


def test_text_is_escaped_and_math_passes_through():
    assert tex_text(r'a_b 50% & #1 "x" <w, y> |h| ~ ^ $\{x\} \le \|w\|_2$') == (
        r"a\_b 50\% \& \#1 ``x'' \textless{}w, y\textgreater{} \textbar{}h\textbar{} \textasciitilde{} \^{} "
        r"$\{x\} \le \|w\|_2$"
    )


@given(hs.text(alphabet=hs.characters(min_codepoint=32, max_codepoint=126, blacklist_characters="$")))
def test_no_special_character_reaches_latex_raw(text):
    out = tex_text(text)
    assert not re.search(r"(?<!\\)[#%&_]|[<>|]", out)
    assert not re.search(r"(?<!\\)[~^](?!\{\})", out.replace(r"\^{}", "").replace(r"\textasciitilde{}", ""))


def test_the_prose_signs_of_the_typesetter_reach_latex_as_math():
    """pdflatex's default input has no U+2265 and the like: the signs typeset_ascii writes between words are math."""
    assert tex_text("error \u2265 trivial, (fraction recovered) \u00d7 rank, a \u2260 b") == (
        r"error $\ge$ trivial, (fraction recovered) $\times$ rank, a $\ne$ b"
    )


def test_quotes_open_and_close_around_math():
    assert tex_text('"a $x$" and "b" $y$ "c"') == "``a $x$'' and ``b'' $y$ ``c''"


def test_certificate_links_use_one_base_or_attach_the_file_to_the_note():
    path = "certificates/section4_lwr/a-printed.json"
    assert certificate_link(path) == (
        r"\textattachfile[mimetype=application/json,ucfilespec={section4-lwr-a-printed.json}]"
        r"{certificates/section4_lwr/a-printed.json}{certificate}"
    )
    path = "certificates/lemma9/a-printed.json"
    assert certificate_link(path, "https://example.org/repo/blob/main/", "1") == (
        r"\href{https://example.org/repo/blob/main/results/certificates/lemma9/a-printed.md}{1}"
    )


def test_the_note_is_generated_from_the_tables(result_tables):
    results = load_results(result_tables)
    tex = erratum_tex(results)
    order = [
        r"\title{",
        "PMLR 247:406--425",
        "arXiv:2406.17989",
        r"\section{Summary}",
        "The main results, as printed.",
        r"\section{Errata that change a result, a definition or a proof}",
        r"\paragraph{Erratum 1.}",
        r"\section{The improvement}",
        r"\section{Smaller errata}",
        r"\section{Re-checking and replying}",
        r"\appendix",
    ]
    assert [tex.index(o) for o in order] == sorted(tex.index(o) for o in order)
    assert r"Theorem 1 & fails; no corrected form is proved & 1 \\" in tex
    assert (
        r"Lemma 2 & unproved, with no counterexample among the instances computed; a sharper form is proved & -- \\"
        in tex
    )
    # the gist names the project's statement by its paper reference, never by its id
    assert r"it is $2\sqrt{n}$ (Lemma 2, our sharper bound)." in tex and "lem2-sharp" not in tex
    assert (
        r"{certificates/x/a-printed.json}{1}" in tex
    )  # attached where its erratum cites it and r"$\Pr \le 2\sqrt{n}$" in tex
    assert r"By Cauchy-Schwarz, $|S| \le k W$." in tex and tex.endswith("\\end{document}\n")
    # the errata counted by what they change, each group named
    assert (
        "Of the 2 errata, 1 changes a result (Erratum 1) and 1 is notation or a typo (Erratum 2) (Sections~\\ref{sec:substantive} "
        "and~\\ref{sec:slips})." in tex
    )


def test_errata_are_numbered_by_consequence_then_class_then_in_paper_order():
    errata = numbered_errata(load_results(ROOT / "results"))
    assert list(errata["number"]) == list(range(1, len(errata) + 1))
    weights = errata["consequence"].map(list(CONSEQUENCES).index)
    assert weights.is_monotonic_increasing
    classes = ["statement-error", "constant-factor", "proof-slip", "typo"]
    for _, group in errata.groupby("consequence"):
        assert group["class"].map(classes.index).is_monotonic_increasing


def test_the_committed_note_is_the_one_the_committed_results_give():
    committed = (ROOT / "results" / "erratum" / "erratum.tex").read_text(encoding="utf-8")
    assert committed == erratum_tex(load_results(ROOT / "results")), (
        "results/erratum/erratum.tex disagrees with results/: rerun the ledger step"
    )
    errata = pd.read_csv(ROOT / "results" / "errata.csv", dtype=str, keep_default_na=False)
    results = load_results(ROOT / "results")
    for cell, refutation in zip(errata["certificates"], errata["refuted_by"], strict=True):
        assert cell or refutation, "an erratum links its certificates, or names the proof that refutes the statement"
        for path in printed_certificates(results, cell):  # a project statement's certificate stays in the findings
            attached = certificate_link(path, "", "WORD").removesuffix("{WORD}")  # whatever its link's text
            assert attached in committed and (ROOT / "results" / path).is_file()
    # a substantive erratum whose certificate is one instance of a family, or whose statement a proof refutes, has that
    # proof in the appendix, besides its paragraph, unless the improvement replaces the printed proof it lies in
    families = committed[committed.index("Appendix: proofs for whole families") :]
    results = load_results(ROOT / "results")
    numbered = numbered_errata(results)
    superseded = set(_superseded(results, numbered, {e["id"]: e for e in paper_statements()})[1])
    for _, row in numbered[numbered["consequence"].isin(SUBSTANTIVE)].iterrows():
        if (row["carried_by"] or row["refuted_by"]) and int(row["number"]) not in superseded:
            assert re.search(rf"\\paragraph\{{Erratum {row['number']}[ .]", families), row["number"]
    assert (ROOT / "results" / "erratum" / "erratum.pdf").is_file()


def test_overfull_boxes_are_read_from_the_log():
    log = "Overfull \\hbox (80.46234pt too wide) in paragraph\nUnderfull \\hbox\nOverfull \\vbox (2.5pt too high) x\n"
    assert overfull_boxes(log) == [80.46234, 2.5]


@needs_tex
def test_the_note_compiles_without_error_or_overfull_box(tmp_path):
    shutil.copytree(ROOT / "results" / "certificates", tmp_path / "certificates")  # the attachments, as in results/
    tex = tmp_path / "erratum" / "erratum.tex"
    tex.parent.mkdir()
    tex.write_text(erratum_tex(load_results(ROOT / "results")), encoding="utf-8")
    pdf, log = compile_pdf(tex)
    assert pdf.is_file() and pdf.read_bytes().startswith(b"%PDF")
    boxes = overfull_boxes(log)
    assert max(boxes, default=0.0) <= OVERFULL_LIMIT_PT, f"overfull boxes (pt): {boxes}"
    first = pdf.read_bytes()
    compile_pdf(tex)
    assert pdf.read_bytes() == first  # reproducible: a fixed date and no trailer id


def note(body: str) -> str:
    """A note with the note's own preamble and ``body``."""
    return "\n".join([*NOTE_PREAMBLE, body, r"\end{document}", ""])


@needs_tex
def test_a_latex_error_fails_with_the_error(tmp_path):
    tex = tmp_path / "bad.tex"
    tex.write_text(note(r"\begin{description}\item x"))
    with pytest.raises(RuntimeError, match="ended by"):
        compile_pdf(tex)


@needs_tex
def test_a_line_beyond_texs_buffer_fails_with_texs_line(tmp_path):
    """A 4 MB line stops TeX before its log holds an error (it says so on stderr): the failure is that one line, not
    35 lines of TeX's output (issue 60, probe 5, case 19)."""
    tex = tmp_path / "long.tex"
    tex.write_text(note("x " * 2_000_000))
    with pytest.raises(RuntimeError) as info:
        compile_pdf(tex)
    message = str(info.value)
    assert message.startswith(f"pdflatex failed on {tex}: !") and "\n" not in message and len(message) < 300, message


def test_without_an_engine_the_pdf_is_left_and_one_line_says_so(tmp_path):
    tex = tmp_path / "erratum.tex"
    tex.write_text("x")
    pdf, message = compile_pdf(tex, engine="no-such-tex-engine")
    assert (
        pdf is None
        and message == f"no TeX engine (no-such-tex-engine) on the PATH: {tmp_path / 'erratum.pdf'} is not rebuilt"
    )
    with pytest.raises(ValueError, match="no LaTeX file"):
        compile_pdf(tmp_path / "missing.tex")


def _erratum_pdf_without_engine(tex, status):
    """The workflow step ``sparseact erratum-pdf`` on ``tex`` with no TeX engine on the PATH."""
    import os
    import subprocess
    import sys

    env = {**os.environ, "PATH": os.path.dirname(sys.executable)}  # python, no pdflatex
    return subprocess.run(
        [sys.executable, "-m", "sparseact.cli", "erratum-pdf", str(tex), "--status", str(status)],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
    )


def test_the_workflow_step_says_so_in_one_line_without_an_engine(tmp_path):
    tex, status = tmp_path / "erratum.tex", tmp_path / "pdf-status.txt"
    tex.write_text("x")
    done = _erratum_pdf_without_engine(tex, status)
    line = f"no TeX engine (pdflatex) on the PATH: {tmp_path / 'erratum.pdf'} is not rebuilt"
    assert done.returncode == 0 and done.stdout == line + "\n" and status.read_text() == line + "\n"
    assert not (tmp_path / "erratum.pdf").exists()


@needs_tex
def test_the_pdf_records_its_sources_and_a_stale_one_is_never_linked(tmp_path):
    """The compiled PDF records the digest of the note and the certificates it attaches; once either changes the PDF
    is stale, and the link is the note's LaTeX source until TeX compiles the PDF again."""
    certificate = tmp_path / "certificates" / "c" / "a.json"
    certificate.parent.mkdir(parents=True)
    certificate.write_text('{"check_id": "c/a"}\n')
    tex = tmp_path / "erratum" / "erratum.tex"
    tex.parent.mkdir()
    tex.write_text(note("x"))
    pdf, _ = compile_pdf(tex)
    assert recorded_stamp(pdf) == source_stamp(tex) and current_pdf(tex) == pdf
    assert note_link(tmp_path) == "erratum/erratum.pdf"
    for edited in (tex, certificate):
        edited.write_text(edited.read_text().replace("\nx\n", "\ny\n") + ("" if edited == tex else " "))
        assert current_pdf(tex) is None and note_link(tmp_path) == "erratum/erratum.tex"
        compile_pdf(tex)
        assert current_pdf(tex) == pdf


def test_the_committed_pdf_is_compiled_from_the_committed_note():
    assert current_pdf(ROOT / "results" / "erratum" / "erratum.tex") is not None


def test_without_an_engine_a_stale_pdf_is_named_and_not_linked(tmp_path):
    tex, status = tmp_path / "erratum" / "erratum.tex", tmp_path / "pdf-status.txt"
    tex.parent.mkdir()
    tex.write_text("x")
    tex.with_suffix(".pdf").write_bytes(b"%PDF-1.5 a PDF of some other note\n")
    done = _erratum_pdf_without_engine(tex, status)
    assert done.returncode == 0 and done.stdout.count("\n") == 1, done.stdout + done.stderr
    assert "compiled from another note" in done.stdout and note_link(tmp_path) == "erratum/erratum.tex"


@pytest.mark.parametrize("name", ["x y.tex", "a\\input.tex", "note.txt", "{x}.tex"])
def test_a_note_whose_name_tex_would_read_as_code_is_refused(tmp_path, name):
    tex = tmp_path / name
    tex.write_text("x")
    with pytest.raises(ValueError, match="file name"):
        compile_pdf(tex)


def test_the_committed_pdf_carries_every_erratum_certificate_attached():
    """Without a public repository the note's certificate links are attachments: the committed PDF embeds exactly the
    certificate files its errata name against the paper's statements, byte for byte (each an /EmbeddedFile stream,
    Flate-compressed)."""
    import zlib

    pdf = (ROOT / "results" / "erratum" / "erratum.pdf").read_bytes()
    embedded = re.compile(rb"/Type\s*/EmbeddedFile\b.*?/Length (\d+)\s*/Filter\s*/FlateDecode\s*>>\s*stream\r?\n", re.S)
    attached = set()
    for match in embedded.finditer(pdf):
        start = match.end()
        attached.add(zlib.decompress(pdf[start : start + int(match.group(1))]))
    errata = pd.read_csv(ROOT / "results" / "errata.csv", dtype=str, keep_default_na=False)
    results = load_results(ROOT / "results")  # the certificates refuting a printed statement; not a project one's
    named = {path for cell in errata["certificates"] for path in printed_certificates(results, cell)}
    assert attached == {(ROOT / "results" / path).read_bytes() for path in named}


@pytest.mark.parametrize("path", ["/etc/passwd", "../certificates/x/a.json", "certificates/x/../../a.json", "x.json"])
def test_only_a_certificate_file_is_attached(path):
    with pytest.raises(ValueError, match="not attached"):
        certificate_link(path)


@pytest.mark.parametrize(
    "formula",
    [r"$x^^5cinput{/etc/hostname}$", r"$\input{/etc/hostname}$", r"$\textattachfile{/etc/passwd}{x}$", r"$x % y$"],
)
def test_a_formula_that_could_read_a_file_never_reaches_latex(formula):
    with pytest.raises(ValueError, match="not allowed"):
        tex_text(f"text {formula} text")


@pytest.mark.parametrize(
    "body",
    [
        r"\input{SECRET}",
        r"\immediate\pdfobj file{SECRET}",
        r"\textattachfile{SECRET}{x}",
        r"\textattachfile[mimetype=application/json,ucfilespec={a.json}]{certificates/x/../../SECRET}{x}",
        r"x^^5cinput{SECRET}",
        r"\csname input\endcsname{SECRET}",
        r"\href{file://SECRET}{x}",
        # the second probe: a space, a line end or a comment between the control word and its argument
        r"\begin {textattachfile}{SECRET}{x}\end {textattachfile}",
        "\\begin\n{textattachfile}{SECRET}{x}\\end\n{textattachfile}",
        "\\begin%\n{textattachfile}{SECRET}{x}\\end%\n{textattachfile}",
        r"\href {run:SECRET}{x}",
        # the third probe: hyperref's URL form
        r"\hyperref{run:SECRET}{a}{b}{x}",
        r"\hyperref{file://SECRET}{a}{b}{x}",
        r"\hyperref {run:SECRET}{a}{b}{x}",
    ],
)
def test_a_note_that_could_read_a_file_never_reaches_tex(tmp_path, body):
    """TeX's own sandbox (openin_any=p) does not stop pdfTeX's \\pdfobj file or an attachment by absolute path: a
    note is held to what erratum_tex writes before TeX sees it (the probe's injections)."""
    secret = tmp_path / "secret.txt"
    secret.write_text("SECRET-TEXT\n")
    tex = tmp_path / "erratum" / "erratum.tex"
    tex.parent.mkdir()
    tex.write_text(note(body.replace("SECRET", str(secret))))
    with pytest.raises(ValueError, match=r"not compiled|preamble"):
        compile_pdf(tex)
    assert not tex.with_suffix(".pdf").exists()
    bare = tmp_path / "bare.tex"  # any other preamble
    bare.write_text("\\documentclass{article}\\begin{document}x\\end{document}\n")
    with pytest.raises(ValueError, match="preamble"):
        compile_pdf(bare)


@pytest.mark.parametrize("linked", ["certificates", "certificates/lemma6/a.json"])
def test_a_certificate_or_its_folder_that_is_a_symbolic_link_is_not_attached(tmp_path, linked):
    """Neither a certificate file nor the certificates folder itself may point elsewhere (the probes' T-N16)."""
    elsewhere = tmp_path / "elsewhere" / "lemma6" / "a.json"
    elsewhere.parent.mkdir(parents=True)
    elsewhere.write_text("SECRET-TEXT\n")
    (tmp_path / linked).parent.mkdir(parents=True, exist_ok=True)
    (tmp_path / linked).symlink_to(tmp_path / "elsewhere" / linked.removeprefix("certificates").lstrip("/"))
    tex = tmp_path / "erratum" / "erratum.tex"
    tex.parent.mkdir()
    tex.write_text(note("x"))
    with pytest.raises(ValueError, match="symbolic link"):
        compile_pdf(tex)


@pytest.mark.parametrize("kind", ["hard link", "other file", "other check", "pipe"])
def test_a_certificate_that_is_not_the_ledgers_is_not_attached(tmp_path, kind):
    """A hard link to another file, or any file that is not the certificate its path names, never reaches the PDF
    (probe5: a certificate replaced by a hard link to an unrelated file was attached and extractable)."""
    certificate = tmp_path / "certificates" / "lemma6" / "a.json"
    certificate.parent.mkdir(parents=True)
    if kind == "hard link":
        secret = tmp_path / "secret.json"
        secret.write_text('{"check_id": "lemma6/a"}')
        os.link(secret, certificate)
    elif kind == "pipe":  # read, it would never end
        os.mkfifo(certificate)
    else:
        certificate.write_text("SECRET-TEXT\n" if kind == "other file" else '{"check_id": "lemma6/b"}')
    tex = tmp_path / "erratum" / "erratum.tex"
    tex.parent.mkdir()
    tex.write_text(note("x"))
    with pytest.raises(ValueError, match="attaches only the ledger's certificate files"):
        compile_pdf(tex)


@pytest.mark.skipif(shutil.which(TEX_ENGINE) is None, reason=f"needs {TEX_ENGINE}")
def test_only_the_certificate_files_are_copied_for_tex(tmp_path):
    """probe6: a device beside the certificates (here a pipe, which a copy would read forever) is never read."""
    folder = tmp_path / "certificates" / "lemma6"
    folder.mkdir(parents=True)
    os.mkfifo(folder / "device.md")
    tex = tmp_path / "erratum" / "erratum.tex"
    tex.parent.mkdir()
    tex.write_text(note("x"))
    pdf, _ = compile_pdf(tex)
    assert pdf is not None and pdf.is_file()


def test_the_summary_names_the_substantive_errata_only(result_tables):
    tex = erratum_tex(load_results(result_tables))
    summary = tex[tex.index(r"\section{Summary}") : tex.index(r"\section{Errata that change")]
    assert r"\item[Erratum 1] (Theorem 1) the bound is $0$ where a neuron flips" in summary
    assert r"\item[Erratum 2]" not in summary and r"\textbf{The improvement}" not in summary  # a typo; no gist


def test_a_long_printed_formula_is_displayed_one_relation_a_line():
    formula = (
        r"$(\mathrm{U}) = \mathbb{E}_x \left[\sum_{i=1}^n (a = b) \cdot \mathbb{1}\{R_x = R_y\} \right] \leq "
        + (r"\mathbb{E}_x \left[\frac{1}{4} \|w^{R_x}\|^2 \right] \le \frac{k^2 W^2}{4} + " * 2)
        + "0$"
    )
    shown = printed_tex(formula)
    assert shown.startswith(r"\[\begin{aligned}(\mathrm{U}) &= \mathbb{E}_x \left[") and shown.endswith(
        r"\end{aligned}\]"
    )
    assert shown.count(r"\\ &") == 3  # = at the top, then \leq and two \le; none inside \left[ ... \right] or braces
    assert printed_tex("$a = b$") == "$a = b$" and printed_tex("text $a = b$") == "text $a = b$"


def test_the_papers_italics_in_a_printed_quote_are_set_in_italics():
    assert printed_tex("we show that *parities* on $k$ variables") == r"we show that \emph{parities} on $k$ variables"
    assert printed_tex("at $m^*$ and $n^*$, 2*3*4, a * b") == "at $m^*$ and $n^*$, 2*3*4, a * b"


def test_paper_words_replace_ids_in_prose_only(result_tables):
    words = PaperWords(load_results(result_tables))
    assert words("by lem2-sharp and x/a-printed; not lem2-sharpest") == (
        "by Lemma 2 (our sharper bound) and the certificate of Erratum 1; not lem2-sharpest"
    )
    assert words("$lem2$ and lem2") == "$lem2$ and Lemma 2"
    assert words("by it (lem2-sharp)") == "by it (Lemma 2, our sharper bound)"  # no parenthesis inside another
    # a lower-case name that begins a sentence is capitalised there, and only there
    assert words("Done. Then x/a-corrected holds; x/a-corrected too") == (
        "Done. Then an exact check of Theorem 1 holds; an exact check of Theorem 1 too"
    )
    assert words("Done. x/a-corrected holds.") == "Done. An exact check of Theorem 1 holds."
    # an erratum's certificate is named by its erratum, the words "the certificate" before it absorbed
    assert words("The certificate x/a-printed is one instance; see x/a-printed") == (
        "The certificate of Erratum 1 is one instance; see the certificate of Erratum 1"
    )


def _committed_pages() -> list[str]:
    """The text of each page of the committed PDF."""
    from pypdf import PdfReader

    return [page.extract_text() for page in PdfReader(ROOT / "results" / "erratum" / "erratum.pdf").pages]


def test_the_committed_note_is_short_and_in_the_papers_words():
    """Main text at most 6 pages (the first appendix opens by page 6), under 10 in all; page 1 names the substantive
    errata and the improvement; the main text has no internal id (statement, check or erratum) and no tool word."""
    pages = _committed_pages()
    heading = "Appendix: proofs for whole families"
    opening = next(i for i, text in enumerate(pages, 1) if heading in text)
    assert opening <= 6 and len(pages) < 10, f"main text to page {opening}, {len(pages)} pages"
    main = "\n".join([*pages[: opening - 1], pages[opening - 1].split(heading)[0]])
    results = load_results(ROOT / "results")
    errata = numbered_errata(results)
    for number in errata.loc[errata["consequence"].isin(SUBSTANTIVE), "number"]:
        assert f"Erratum {number}" in pages[0]
    assert "The improvement" in pages[0]
    internal = {*results.statements["statement_id"], *results.ledger["check_id"], *results.errata["erratum_id"]}
    found = sorted(i for i in internal if re.search(rf"(?<![\w-]){re.escape(i)}(?![\w-])", main))
    assert not found, f"internal ids in the note's main text: {found}"
    tool_words = ("PASS", "FAIL", "ledger", "graph", "row", "sparseact explain", "snakemake")
    used = [w for w in tool_words if re.search(rf"\b{w}\b", main)]
    assert not used, f"tool words in the note's main text: {used}"


@pytest.mark.parametrize(
    ("name", "prose"),
    [
        ("Theorem 8 (proof)", "the proof of Theorem 8"),
        ("Theorem 8 (proof, the tail step repaired)", "the tail step repaired of the proof of Theorem 8"),
        ("Lemma 7 (corrected)", "Lemma 7 as corrected here"),
        ("Theorem 19 (proof), eq. (8) with strict cells", "eq. (8) of the proof of Theorem 19, with strict cells"),
        ("Lemma 9 (our sharper bound)", "Lemma 9 (our sharper bound)"),
    ],
)
def test_prose_cites_a_proof_step_as_part_of_its_proof(name, prose):
    from sparseact.publish.erratum import prose_name

    assert prose_name(name) == prose


def test_errata_in_a_proof_our_sharper_bound_replaces_are_named_superseded():
    """A proved result whose argument rests on our sharper statement of it no longer needs its printed proof: the
    errata lying only in that proof are superseded; one that also names another statement is not."""
    from types import SimpleNamespace

    results = SimpleNamespace(
        statements=pd.DataFrame(
            {
                "statement_id": ["lem9", "lem9-sharp", "thm5"],
                "paper_ref": ["Lemma 9", "Lemma 9 (our sharper bound)", "Theorem 5"],
                "status": ["proved", "proved", "proved"],
            }
        ),
        sharper=pd.DataFrame({"statement_id": ["lem9-sharp"], "than": ["lem9"]}),
    )
    entries = {
        "lem9": {"argument": {"uses": ["lem9-floored"]}},
        "lem9-floored": {"argument": {"uses": ["lem9-sharp"]}},
        "step-a": {"proof_of": "lem9"},
        "step-b": {"proof_of": "thm5"},
    }
    errata = pd.DataFrame(
        {
            "number": [1, 2, 3, 4],
            "statements": ["step-a", "step-a; step-b", "step-b", "lem9"],
            "consequence": ["step", "step", "typo", "result-false"],
        }
    )
    assert _superseded(results, errata, entries) == (["Lemma 9"], [1])


def test_the_errata_order_is_no_files_order(repo_root):
    """The errata reach ``errata.csv``, and from it the note (:func:`numbered_errata`), sorted by declared keys (class,
    then id), never in the order the claims' ``errata.yaml`` files list them: the committed ledger's root causes, in
    reverse, give the same table."""
    results = repo_root / "results"
    ledger = pd.read_csv(results / "ledger.csv")
    certificates = {
        document["check_id"]: document
        for document in (json.loads(path.read_text()) for path in (results / "certificates").rglob("*.json"))
    }
    causes = errata()
    table = errata_by_cause(ledger, certificates, causes)
    assert len(table) == len(causes) > 1
    pd.testing.assert_frame_equal(errata_by_cause(ledger, certificates, causes[::-1]), table)


def test_an_erratum_in_a_replaced_proof_is_one_line_of_the_table():
    """The note weighs by consequence: an erratum in a printed proof that the improvement replaces is one row of the
    smaller errata's table, under the proofs it lies in, never a paragraph; a gap in any other printed proof is one
    paragraph with its correction, without the printed text."""
    tex = (ROOT / "results" / "erratum" / "erratum.tex").read_text(encoding="utf-8")
    results = load_results(ROOT / "results")
    errata = numbered_errata(results)
    replaced, superseded = _superseded(results, errata, {e["id"]: e for e in paper_statements()})
    table = tex[tex.index(r"\section{Smaller errata}") : tex.index(r"\section{Re-checking and replying}")]
    heading = table.index(f"In the printed proofs of {replaced[0]}")
    for number in superseded:
        assert rf"\paragraph{{Erratum {number}.}}" not in tex
        assert heading < table.index(f"\n{number} & ") < table.index("Elsewhere")
    for number in errata.loc[errata["consequence"].eq("proof-gap") & ~errata["number"].isin(superseded), "number"]:
        paragraph = tex[tex.index(rf"\paragraph{{Erratum {number}.}}") :].split("\n\n")[0]
        assert r"\emph{Correction:}" in paragraph and r"\emph{Printed:}" not in paragraph
