r"""The note for the authors: ``results/erratum/erratum.tex``, generated from the result tables, and its PDF.

:func:`erratum_tex` composes a LaTeX document (standard packages only: amsmath, amssymb, geometry,
hyperref) from ``statements.csv``, ``headline.csv``, ``errata.csv`` and ``sharper.csv`` (read by
:func:`sparseact.publish.findings.load_results`) and the statement files of :mod:`sparseact.paper`
(the argument and ``open`` texts). The prose about results is the data's; the note itself types only
framing sentences. It has:

* a title, the paper's full reference and the numbering it follows (PMLR);
* a summary: one sentence per main result (``headline.csv``), naming the errata that concern it;
* the errata, numbered, grouped by class (most severe first) and in paper order within a class
  (:func:`sparseact.paper.paper_position`), each with location, printed and corrected text, why it
  fails with the certificate's violation and a link to each certificate file (or, for a statement refuted by a
  proof, ``refuted_by``, that proof), and the class;
* remarks on steps that hold but whose citation or derivation should change (``remark`` in the statement files);
* the results sharper than printed (``sharper.csv``) with their proof sketches;
* an appendix of the paper's open statements and why each is open.

Math (``$...$``) passes through unchanged once :func:`sparseact.paper.markup.check_markup` has found nothing in it
that reads a file; text is escaped (:func:`tex_text`). Certificate links are
``<base>/results/certificates/<check>.json`` for a repository URL ``base``, or the certificate attached from
``certificates/<check>.json`` beside the note, where :func:`compile_pdf` copies the results' certificates, when none
is known (:data:`REPOSITORY_URL`). The note is compiled without shell escape and with kpathsea's paranoid file
access (no absolute path, no ``..``) in a folder holding only the note and that copy.

:func:`compile_pdf` runs ``pdflatex`` when one is on the ``PATH`` (reproducibly: a fixed
``SOURCE_DATE_EPOCH`` and no trailer id) and :func:`overfull_boxes` reads its log.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import tempfile
from pathlib import Path

import pandas as pd

from sparseact.paper import errata as paper_errata
from sparseact.paper import paper_position, premise_kind
from sparseact.paper import statements as paper_statements
from sparseact.paper.markup import MATH_MACROS, check_markup
from sparseact.publish.asciimath import typeset_ascii
from sparseact.publish.display import _latex_escape
from sparseact.publish.findings import Results, ids, load_results, short_ref, tightness_of
from sparseact.publish.ledger import certificate_view
from sparseact.publish.links import PAPER_ARXIV, PAPER_PDF
from sparseact.publish.mathtext import split_math
from sparseact.publish.notepdf import SOURCE_KEY, TEX_ENGINE, attached_certificates, source_stamp
from sparseact.publish.statements import (
    CONJECTURED,
    CONSEQUENCES,
    degenerate_corners,
    hypothesis_named,
    verified_clause,
)
from sparseact.runtime.provenance import atomic_write_text
from sparseact.verify.verdicts import FINDING_DEFINITIONS

#: The public repository whose files the certificate links point to (``https://host/owner/repo/blob/<ref>``);
#: empty while none is known: the links are then relative to the note.
REPOSITORY_URL = ""
#: A note file name TeX reads as written (it is passed on its command line).
_PLAIN_NAME = re.compile(r"[A-Za-z0-9_-]+\.tex")
#: Largest overfull box (pt) a compiled note may have.
OVERFULL_LIMIT_PT = 5.0
#: The date a compiled PDF carries (``SOURCE_DATE_EPOCH``), so that two runs give identical files.
SOURCE_DATE_EPOCH = "0"
#: What the paper is, as the note cites it.
PAPER_REFERENCE = (
    r"Pranjal Awasthi, Nishanth Dikkala, Pritish Kamath and Raghu Meka, ``Learning Neural Networks "
    r"with Sparse Activations'', in \emph{Proceedings of Thirty Seventh Conference on Learning Theory "
    r"(COLT 2024)}, \href{" + PAPER_PDF + r"}{PMLR 247:406--425}, 2024 (the version whose numbering this note "
    r"uses); also \href{" + PAPER_ARXIV + r"}{arXiv:2406.17989v1}"
)
#: Text characters that LaTeX's default (OT1) encoding does not print as themselves, beyond the special ones.
_TEXT_SYMBOLS = {
    "<": r"\textless{}",
    ">": r"\textgreater{}",
    "|": r"\textbar{}",
    # the signs sparseact.publish.asciimath writes between words of the prose ("error >= trivial": "\u2265")
    "\u2264": r"$\le$",
    "\u2265": r"$\ge$",
    "\u2260": r"$\ne$",
    "\u2192": r"$\to$",
    "\u00d7": r"$\times$",
}
#: A straight double quote that opens a quotation (at the start, or after a space or an opening bracket).
_QUOTE = re.compile(r'(^|[\s(\[])"')
#: What the note may attach: a certificate file of the results' ``certificates/`` folder, by its path there.
_CERTIFICATE_PATH = re.compile(r"certificates/[A-Za-z0-9_]+/[A-Za-z0-9_.-]+\.json")
_PAGES = re.compile(r"Output written on .*?\((\d+) pages?")
_OVERFULL = re.compile(r"^Overfull \\[hv]box \((?P<pt>[\d.]+)pt too (?:wide|high)\)", re.M)


def tex_text(text: str) -> str:
    r"""``text`` for LaTeX: ``$...$`` math unchanged, prose escaped (``_ % & # { } ~ ^ \ < > |``).

    Math passes only when it names no control sequence outside :data:`sparseact.paper.markup.MATH_MACROS` and
    holds no ``^^`` or ``%`` (:func:`~sparseact.paper.markup.check_markup`: nothing in it can make TeX read a file);
    ``ValueError`` otherwise."""

    def prose(piece: str, first: bool) -> str:
        # a quote opens at the start of the text or after a space or bracket, else it closes (after math too)
        piece = _QUOTE.sub(lambda m: m.group(1) + "``", piece if first else "x" + piece)
        piece = (piece if first else piece[1:]).replace('"', "''")
        return "".join(_TEXT_SYMBOLS.get(ch) or _latex_escape(ch) for ch in piece)

    pieces = split_math(" ".join(str(text).split()))
    for kind, piece in pieces:
        if kind != "text":
            check_markup(f"${piece}$", "a formula of the note for the authors")
    return "".join(
        prose(piece, position == 0) if kind == "text" else (f"${piece}$" if kind == "inline" else f"\\[{piece}\\]")
        for position, (kind, piece) in enumerate(pieces)
    )


#: The note's preamble, through ``\\begin{document}``: what :func:`erratum_tex` writes first and
#: :func:`check_note_source` holds every compiled note to.
NOTE_PREAMBLE = (
    r"\documentclass[11pt]{article}",
    r"\usepackage{amsmath,amssymb}",
    # amssymb has no blackboard digits (its \mathbb{1} prints another glyph): the indicator's 1 is bold
    r"\let\amsmathbb\mathbb\renewcommand{\mathbb}[1]{\if1#1\mathbf{1}\else\amsmathbb{#1}\fi}",
    r"\usepackage[margin=2.5cm]{geometry}",
    r"\usepackage[colorlinks=true,linkcolor=blue,urlcolor=blue]{hyperref}",
    r"\usepackage{attachfile2}",
    r"\attachfilesetup{color=0 0 1}",
    r"\ifdefined\pdftrailerid\pdftrailerid{}\fi",
    r"\tolerance=2000\emergencystretch=3em",
    r"\title{Errata and sharper bounds for\\``Learning Neural Networks with Sparse Activations''}",
    r"\author{The sparseact project}",
    r"\date{}",
    r"\begin{document}",
)


#: The control sequences of the note's body beyond :data:`sparseact.paper.markup.MATH_MACROS`: text structure and
#: links, none of which reads a file but ``\\textattachfile`` (held to a certificate's path by
#: :func:`check_note_source`).
NOTE_MACROS = frozenset(
    [
        "appendix",
        "begin",
        "emph",
        "end",
        "href",
        "hyperref",
        "item",
        "label",
        "maketitle",
        "noindent",
        "nolinkurl",
        "paragraph",
        "phantomsection",
        "ref",
        "section",
        "subsection",
        "textattachfile",
        "textgreater",
        "textless",
        "texttt",
    ]
)
_CONTROL_WORD = re.compile(r"\\([A-Za-z@]+)")
_ATTACHMENT = re.compile(
    r"\\textattachfile\[mimetype=application/json,ucfilespec=\{[\w.-]+\}\]\{certificates/[\w-]+/[\w.-]+\.json\}"
)
_ENVIRONMENT = re.compile(r"\\(?:begin|end)\{([^}]*)\}")
_HREF = re.compile(r"\\href\{([^}]*)\}")


def check_note_source(text: str, where: str = "the note") -> None:
    """Refuse (``ValueError`` naming ``where``) a LaTeX text that is not a note :func:`erratum_tex` could write, before
    TeX sees it: its preamble must be :data:`NOTE_PREAMBLE`, and its body may hold no ``^^``, no control word outside
    :data:`NOTE_MACROS` and the math allow-list, no environment but ``document`` and ``description``, no link but
    ``https://`` ones and no attachment but a certificate's (``certificates/<claim>/<check>.json``). TeX's own file
    sandbox (``openin_any=p``) does not cover pdfTeX's ``\\pdfobj file`` or an attachment by absolute path: this does.
    """
    head = "\n".join(NOTE_PREAMBLE) + "\n"
    if not text.startswith(head):
        raise ValueError(f"{where} does not open on the note's preamble (sparseact.publish.erratum.NOTE_PREAMBLE)")
    body = text[len(head) :]
    if "^^" in body:
        raise ValueError(f"{where} holds '^^', which TeX reads as another character: not compiled")
    allowed = NOTE_MACROS | MATH_MACROS
    unknown = sorted({name for name in _CONTROL_WORD.findall(body) if name not in allowed})
    if unknown:
        raise ValueError(f"{where} uses \\{unknown[0]}, outside the note's control sequences: not compiled")
    if body.count("\\textattachfile") != len(_ATTACHMENT.findall(body)):
        raise ValueError(f"{where} attaches a file that is not a certificate of certificates/<claim>/: not compiled")
    environments = set(_ENVIRONMENT.findall(body)) - {"document", "description"}
    links = [link for link in _HREF.findall(body) if not link.startswith("https://")]
    if environments or links:
        raise ValueError(
            f"{where} uses {(sorted(environments) or links)[0]!r}, which the note never does: not compiled"
        )


def certificate_link(path: str, repository_url: str = REPOSITORY_URL) -> str:
    r"""A link to a certificate (``certificates/<claim>/<check>.json`` as ``errata.csv`` names it), shown as its path in
    the repository.

    With a ``repository_url``, an ``\href`` to its rendered view there (:func:`sparseact.publish.ledger.certificate_view`,
    which a code host shows and which links the file). Without one (no public repository yet), its path followed by
    the file itself attached to the PDF as ``<claim>-<check>.json`` (attachfile2's ``\textattachfile``, the path
    relative to the note, where :func:`compile_pdf` puts a copy of the certificates; the link is one short word, as
    attachfile2 does not break its text across lines): it opens the certificate from the PDF alone, and
    ``pdfdetach -saveall`` extracts every one for ``sparseact verify-certificate``. ``ValueError`` for a ``path``
    that is not a certificate file's (nothing else is attached)."""
    if not _CERTIFICATE_PATH.fullmatch(path):
        raise ValueError(f"{path!r} is not a certificate of results/certificates/<claim>/<check>.json: not attached")
    shown = f"results/{certificate_view(path)}"
    if repository_url:
        return rf"\href{{{repository_url.rstrip('/')}/{shown}}}{{\nolinkurl{{{shown}}}}}"
    name = path.removeprefix("certificates/").replace("/", "-").replace("_", "-")  # TeX drops a bare "_" here
    return (
        rf"\nolinkurl{{results/{path}}} (\textattachfile[mimetype=application/json,ucfilespec={{{name}}}]"
        rf"{{{path}}}{{attached}})"
    )


def _sentence(text: str) -> str:
    text = " ".join(str(text).split())
    return text if not text or text.endswith((".", "?", "!")) else text + "."


def _join(names: list[str]) -> str:
    if len(names) <= 2:
        return " and ".join(names)
    return ", ".join(names[:-1]) + " and " + names[-1]


def numbered_errata(results: Results) -> pd.DataFrame:
    """``errata.csv`` in the note's order, with ``number`` (1, 2, ...) and ``where`` (the paper references of its
    statements): by consequence, most serious first, then by class, then in paper order."""
    refs = dict(zip(results.statements["statement_id"], results.statements["paper_ref"], strict=True))
    rank = {finding: position for position, finding in enumerate(FINDING_DEFINITIONS)}
    frame = results.errata.assign(
        where=results.errata["statements"].map(lambda cell: [refs[s] for s in ids(cell)]),
        _rank=results.errata["class"].map(lambda c: rank.get(c, len(rank))),
    )
    frame = frame.assign(
        _position=frame["where"].map(lambda refs_: min(map(paper_position, refs_))),
        _weight=frame["consequence"].map(list(CONSEQUENCES).index),
    )
    frame = frame.sort_values(["_weight", "_rank", "_position", "erratum_id"], kind="stable").drop(
        columns=["_weight", "_rank", "_position"]
    )
    return frame.reset_index(drop=True).assign(number=lambda f: range(1, len(f) + 1))


def cite(numbers: list[int]) -> str:
    """``Erratum 3`` or ``Errata 3, 5 and 8``."""
    return ("Erratum " if len(numbers) == 1 else "Errata ") + _join([str(n) for n in sorted(numbers)])


def summary_paragraph(results: Results, errata: pd.DataFrame) -> str:
    """One sentence per main result: what happens to it, and the numbers of the errata that concern it."""
    number = dict(zip(errata["erratum_id"], errata["number"], strict=True))
    concerns = {e: ids(cell) for e, cell in zip(errata["erratum_id"], errata["statements"], strict=True)}
    table = results.statements.set_index("statement_id")
    entries = {e["id"]: e for e in paper_statements()}
    hypotheses = {sid: e["hypothesis"] for sid, e in entries.items() if e.get("hypothesis")}
    out_of_range = set(
        results.ledger.loc[
            (results.ledger["verdict"] == "FAIL") & (results.ledger["finding"] == "out-of-range"), "check_id"
        ]
    )

    sentences = []
    for _, row in results.headline.iterrows():
        name = tex_text(row["paper_ref"])
        statement = table.loc[row["statement_id"]]
        own = [number[e] for e in ids(row["errata"]) if row["statement_id"] in concerns[e]]
        steps = [number[e] for e in ids(row["errata"]) if row["statement_id"] not in concerns[e]]
        if row["status"] == "fails-as-stated":
            survives = statement["survives"]
            text = (
                f"{name} fails as printed ({statement['class']}"
                + (f", {cite(own)}" if own else "")
                + "); "
                + (
                    "its corrected form is proved"
                    if survives.startswith("yes")
                    else "its corrected form is itself a conjecture, open (\\hyperref[app:open]{appendix on open statements})"
                    if survives.startswith("open")
                    else "no corrected form of it is proved"
                )
            )
        elif row["status"] == "proved" and hypotheses.get(row["statement_id"]):
            hypothesis = hypotheses[row["statement_id"]]
            fixes = [number[e] for e in errata["erratum_id"] if hypothesis in concerns[e]]
            source = tex_text(short_ref(table.loc[hypothesis, "paper_ref"]))
            text = f"{name} holds as an implication from {source}" + (
                f", as corrected in {cite(fixes)}, a conjecture not established here, in the range stated there "
                + (
                    "(as printed its hypothesis is false, so it holds only vacuously)"
                    if hypothesis_named(statement["statement"], table.loc[hypothesis, "paper_ref"])
                    else f"({source} is how the paper formalises its hypothesis; as printed that formalisation is "
                    "false, while the hypothesis it states in words is not refuted)"
                )
                if fixes
                else f" ({table.loc[hypothesis, 'status']}; the reading and range it needs are in "
                "the \\hyperref[app:open]{appendix on open statements})"
            )
        elif row["status"] == "proved":
            corner = degenerate_corners(entries.get(row["statement_id"], {}), ids(statement["checks"]), out_of_range)
            text = f"{name} holds as printed" + (
                f" wherever its printed logarithms are at least 1 (degenerate corners aside: {tex_text(', '.join(corner))})"
                if corner
                else ""
            )
        elif row["status"] == "open":
            text = f"{name} is open"
        else:
            corner = degenerate_corners(entries.get(row["statement_id"], {}), ids(statement["checks"]), out_of_range)
            proved_form = (entries.get(row["statement_id"], {}).get("correction") or {}).get("verified_by", ())
            proved_form = bool(proved_form) and all(
                premise_kind(p) != "statement" or table.loc[p, "status"] == "proved" for p in proved_form
            )
            text = (
                (
                    f"{name} is proved for every parameter in the form "
                    f"{tex_text(entries[row['statement_id']]['correction']['text'].rstrip('.'))}; as printed it "
                    if proved_form
                    else f"{name} "
                )
                + f"holds on every instance enumerated ({tex_text(statement['range'])}), with no proof of it "
                "as printed"
                + (f"; as printed it fails in a degenerate corner ({tex_text(', '.join(corner))})" if corner else "")
            )
        if steps:
            text += (
                f"{', and' if row['status'] == 'fails-as-stated' else ';'} " + "its printed proof has " + cite(steps)
            )
        if row["statement_id"] in set(results.sharper["than"]):
            text += "; a sharper form is proved (Section~\\ref{sec:sharper})"
        sentences.append(text + ".")
    return " ".join(sentences)


def _erratum(row: pd.Series, repository_url: str, proofs: list[str] = (), families: list[dict] = ()) -> list[str]:
    """One erratum; ``proofs`` are the proved statements of the graph its correction rests on, ``families`` the
    statements (``carried_by``) that carry its finite certificates to whole families, printed with their proofs."""
    certificates = ", ".join(certificate_link(path, repository_url) for path in ids(row["certificates"]))
    names = ", ".join(rf"\texttt{{{tex_text(p)}}}" for p in proofs)
    proved = f" The correction is proved ({names})" if proofs else ""
    verified = (
        f" The correction is an open conjecture; \\texttt{{{tex_text(row['verified_by'])}}} tests "
        f"instances only (evidence, not a proof)."
        if row["verified"] == CONJECTURED
        else (f"{proved} and checked by" if proofs else " The correction is checked by")
        + f" \\texttt{{{tex_text(row['verified_by'])}}}: {row['verified']}."
        if row["verified_by"]
        else proved + ("." if proofs else "")
    )
    return [
        rf"\paragraph{{Erratum {row['number']}.}} {tex_text(_sentence(row['location']))}",
        r"\begin{description}",
        rf"\item[Printed.] {tex_text(row['printed'])}",
        rf"\item[Corrected.] {tex_text(_sentence(row['correction']))}{verified}",
        (
            rf"\item[Why it fails.] {tex_text(_sentence(row['counterexample']))} "
            rf"Proof: {tex_text(_sentence(row['explanation']))} (An asymptotic statement: no finite certificate "
            rf"refutes it; the proof is \texttt{{{tex_text(row.get('refuted_by', ''))}}} of the argument graph.)"
            if row.get("refuted_by")
            else rf"\item[Why it fails.] {tex_text(_sentence(typeset_ascii(row['explanation'])))} "
            rf"Violation: {tex_text(typeset_ascii(row['counterexample']))}. "
            rf"Certificate{'s' if len(ids(row['certificates'])) > 1 else ''}: {certificates}."
        ),
        *(
            rf"\item[For every instance.] {tex_text(_sentence(family['statement']))} "
            rf"Proof (\texttt{{{tex_text(family['id'])}}}): {tex_text(_sentence(family['argument']['text']))}"
            for family in families
        ),
        rf"\item[Consequence.] {tex_text(_sentence(consequence_text(row)))} Class: {tex_text(row['class'])}.",
        r"\end{description}",
        "",
    ]


def consequence_text(row: pd.Series) -> str:
    """An erratum's derived consequence in words (``errata.csv``'s ``consequence`` and ``consequence_detail``)."""
    text = CONSEQUENCES[row["consequence"]].capitalize()
    return text + (f" ({row['consequence_detail']})" if row.get("consequence_detail") else "")


def substantive_sentence(errata: pd.DataFrame) -> str:
    """The errata that change a result or leave a printed proof without its result, one clause each, first."""
    serious = errata[errata["consequence"].isin(["result-false", "proof-gap"])]
    clauses = [
        f"Erratum {row['number']} ({tex_text(', '.join(dict.fromkeys(map(short_ref, row['where']))))}): "
        + tex_text(CONSEQUENCES[row["consequence"]])
        + (f" ({tex_text(row['consequence_detail'])})" if row["consequence"] == "proof-gap" else "")
        for _, row in serious.iterrows()
    ]
    return ("The substantive problems: " + "; ".join(clauses) + ".") if clauses else ""


def consequence_counts(errata: pd.DataFrame) -> str:
    """Which errata have each consequence, most serious first."""
    parts = []
    for level, words in CONSEQUENCES.items():
        numbers = [int(n) for n, c in zip(errata["number"], errata["consequence"], strict=True) if c == level]
        if numbers:
            parts.append(f"{words} in {cite(numbers)}")
    return "; ".join(parts)


def _sharper(row: pd.Series) -> list[str]:
    tightness = tightness_of(row, tex_text)
    return [
        rf"\subsection*{{{tex_text(short_ref(row['paper_ref']))}}}",
        r"\begin{description}",
        rf"\item[Printed.] {tex_text(row['printed'])}",
        rf"\item[Proved.] {tex_text(_sentence(row['statement']))}",
        rf"\item[Proof sketch.] {tex_text(_sentence(row['argument']))}",
        *([rf"\item[Tightness.] {_sentence(tightness[:1].upper() + tightness[1:])}"] if tightness else []),
        rf"\item[Chain.] \texttt{{sparseact explain {tex_text(row['statement_id'])}}} prints the proof down to "
        "the exact checks and cited facts.",
        r"\end{description}",
        "",
    ]


def _open(row: pd.Series, why: str) -> list[str]:
    return [
        rf"\paragraph{{{tex_text(row['paper_ref'])}.}} {tex_text(_sentence(row['statement']))}",
        "",
        rf"\emph{{Why it is open.}} {tex_text(_sentence(why))}",
        "",
    ]


def erratum_tex(results: Results, repository_url: str = REPOSITORY_URL) -> str:
    """The note, a LaTeX document (see the module's docstring)."""
    errata = numbered_errata(results)
    printed = results.printed
    counts = printed["status"].value_counts()
    entries = {e["id"]: e for e in paper_statements()}
    refuted = [int(n) for n, r in zip(errata["number"], errata.get("refuted_by", [""] * len(errata)), strict=True) if r]
    carried_by = {cause["id"]: cause["carried_by"] for cause in paper_errata() if "carried_by" in cause}
    carried = {
        int(n): ", ".join(rf"\texttt{{{tex_text(proof)}}}" for proof in carried_by[e])
        for n, e in zip(errata["number"], errata["erratum_id"], strict=True)
        if e in carried_by
    }
    lines = [
        *NOTE_PREAMBLE,
        r"\maketitle",
        rf"\noindent This note comments on: {PAPER_REFERENCE}. Sections, theorems, lemmas and equations are "
        "numbered as in the PMLR version. Every erratum below comes with a certificate: a counterexample whose "
        "violation is established in exact or rigorous interval arithmetic, stored as a file in the repository "
        r"that \texttt{sparseact verify-certificate} recomputes (from the stored numbers read as the rationals they "
        "denote: class membership, which neurons are active and a sample's radius are decided exactly too)"
        + (
            ""
            if repository_url
            else r"; each file is also attached to this PDF (its link opens it; \texttt{pdfdetach -saveall} extracts "
            "them)"
        )
        + (
            f", except {cite(refuted)}, an asymptotic statement that no finite computation can refute, which comes "
            "with a proof of its negation"
            if refuted
            else ""
        )
        + (
            f"; for {cite(sorted(carried))} (asymptotic statements) the certificate is a finite instance, an "
            "illustration, and a proof carries it to a whole family ("
            + "; ".join(f"Erratum {n}: {proof}" for n, proof in sorted(carried.items()))
            + ")"
            if carried
            else ""
        )
        + r". What the corrections rest on is printed by \texttt{sparseact explain} for every statement.",
        "",
        r"\section{Summary}",
        substantive_sentence(errata),
        "",
        summary_paragraph(results, errata),
        f"In all, of the {len(printed)} statements of the paper we track, {int(counts.get('proved', 0))} are "
        f"proved, {int(counts.get('holds-on-range', 0))} hold on the range enumerated, "
        f"{int(counts.get('fails-as-stated', 0))} fail as printed and {int(counts.get('open', 0))} are open; "
        f"the failures come from {len(errata)} root causes (the errata below), and {verified_clause(errata)}. "
        f"By consequence: {consequence_counts(errata)}.",
        "",
        r"\section{Errata}",
        "The errata are grouped by what they do to the paper, the most serious first, then by class, and in the "
        "paper's order within a class. "
        "Each gives where the error is, the printed text, the corrected text, why the printed text fails with "
        "the violation its certificate establishes, and a link to the certificate.",
        "",
    ]
    status_of = dict(zip(results.statements["statement_id"], results.statements["status"], strict=True))
    # the proved statements each erratum's correction rests on (its printed statement's correction, verified_by)
    proofs_of = {
        cause["id"]: [
            p
            for p in (entries.get(cause["printed"], {}).get("correction") or {}).get("verified_by", ())
            if premise_kind(p) == "statement" and status_of.get(p) == "proved"
        ]
        for cause in paper_errata()
    }
    for level, words in CONSEQUENCES.items():
        group = errata[errata["consequence"] == level]
        if len(group):
            lines += [rf"\subsection{{{tex_text(words.capitalize())} ({len(group)})}}", ""]
            for _, row in group.iterrows():
                lines += _erratum(
                    row,
                    repository_url,
                    proofs_of.get(row["erratum_id"], []),
                    [entries[p] for p in carried_by.get(row["erratum_id"], ())],
                )
    remarked = sorted(
        (e for e in entries.values() if e.get("remark") and e["id"] in status_of),
        key=lambda e: paper_position(e["paper_ref"]),
    )
    remarks = [e for e in remarked if status_of[e["id"]] != "fails-as-stated"]
    failing_remarks = [e for e in remarked if status_of[e["id"]] == "fails-as-stated"]
    lines += [
        r"\section{Remarks on statements that hold or are open}\label{sec:remarks}",
        "Statements that do not fail as printed (status in brackets) whose wording, range, citation or printed "
        "derivation should still change; where a remark names a range in which a printed logarithm is below 1, "
        "the printed step fails there and holds with that logarithm read as at least 1."
        if remarks
        else "None.",
        "",
    ]
    for entry in remarks:
        lines += _remark(entry, status_of[entry["id"]])
    if failing_remarks:
        lines += [
            r"\section{Further remarks on statements that fail}\label{sec:further-remarks}",
            "Remarks on printed statements or steps that fail as stated (their errata are above), on a point the "
            "erratum does not cover.",
            "",
        ]
        for entry in failing_remarks:
            lines += _remark(entry, status_of[entry["id"]])
    lines += [
        r"\section{Sharper than printed}\label{sec:sharper}",
        "Results proved here that are sharper than the paper's statements, each with its proof sketch and the "
        "family that comes closest to it."
        if len(results.sharper)
        else "None.",
        "",
    ]
    for _, row in results.sharper.iterrows():
        lines += _sharper(row)
    opened = printed[printed["status"] == "open"]
    lines += [
        r"\appendix",
        # unnumbered, so that it is never confused with the paper's own Appendix A, which errata cite
        r"\section*{Appendix: open statements}\phantomsection\label{app:open}",
        "Statements of the paper that no finite computation can settle, and why." if len(opened) else "None.",
        "",
    ]
    for _, row in opened.assign(_p=opened["paper_ref"].map(paper_position)).sort_values("_p", kind="stable").iterrows():
        lines += _open(row, entries.get(row["statement_id"], {}).get("open") or row["reason"])
    return "\n".join([*lines, r"\end{document}", ""])


def _remark(entry: dict, status: str) -> list[str]:
    """A statement's remark to the authors, as a paragraph of the note, with its status and how to explain it."""
    return [
        rf"\paragraph{{{tex_text(entry['paper_ref'])}.}} {tex_text(_sentence(entry['remark']))} "
        rf"[{tex_text(status)}; \texttt{{sparseact explain {tex_text(entry['id'])}}}]",
        "",
    ]


def write_erratum(results_dir: str | Path, out: str | Path, repository_url: str = REPOSITORY_URL) -> Path:
    """Write :func:`erratum_tex` of the tables in ``results_dir`` to ``out``."""
    atomic_write_text(out, erratum_tex(load_results(results_dir), repository_url))
    return Path(out)


def overfull_boxes(log: str) -> list[float]:
    """How far (pt) each overfull box of a LaTeX log sticks out."""
    return [float(match.group("pt")) for match in _OVERFULL.finditer(log)]


def compile_summary(pdf: Path, log: str) -> str:
    """One line on a compiled note: its pages and its overfull boxes."""
    pages = _PAGES.search(log)
    boxes = overfull_boxes(log)
    return f"{pdf}: compiled with {TEX_ENGINE}, {pages.group(1) if pages else '?'} pages, " + (
        f"{len(boxes)} overfull boxes (the largest {max(boxes):.1f} pt)" if boxes else "no overfull box"
    )


def compile_pdf(tex: str | Path, engine: str = TEX_ENGINE) -> tuple[Path | None, str]:
    """Compile ``tex`` to the PDF beside it with ``engine`` (twice, in a temporary folder).

    Returns
    -------
    (Path or None, str)
        The PDF (``None`` when no ``engine`` is on the ``PATH``) and the LaTeX log (or one line saying that no
        engine was found). Raises ``RuntimeError`` with the log's error lines when LaTeX fails.
    """
    tex = Path(tex)
    if not tex.is_file():
        raise ValueError(f"no LaTeX file {tex}")
    if not _PLAIN_NAME.fullmatch(tex.name):
        raise ValueError(f"the note's file name {tex.name!r} is not letters, digits, '_', '-' and '.tex'")
    if shutil.which(engine) is None:
        return None, f"no TeX engine ({engine}) on the PATH: {tex.with_suffix('.pdf')} is not rebuilt"
    try:
        check_note_source(tex.read_text(encoding="utf-8"), str(tex))
    except UnicodeDecodeError:
        raise ValueError(f"{tex} is not UTF-8 text: not compiled") from None
    # kpathsea's paranoid file access: TeX opens no file by an absolute path or above its folder, for reading or
    # writing (what the note may attach is held by certificate_link and sparseact.paper.markup)
    env = {
        **os.environ,
        "SOURCE_DATE_EPOCH": SOURCE_DATE_EPOCH,
        "FORCE_SOURCE_DATE": "1",
        "TZ": "UTC",
        "openin_any": "p",
        "openout_any": "p",
    }
    with tempfile.TemporaryDirectory() as scratch:
        # the note in a folder of its own with a copy of the results' certificates, the only files it reads besides
        # TeX's own (its attachments' paths are certificates/..., certificate_link)
        work = Path(scratch) / "erratum"
        work.mkdir()
        # copies dated SOURCE_DATE_EPOCH: attachfile2 records each attached file's modification date, which pdfTeX
        # reads from the file (FORCE_SOURCE_DATE does not reach it), so two runs must see the same date
        certificates = attached_certificates(tex)
        linked = next((p for p in certificates.rglob("*") if p.is_symlink()), None) if certificates.is_dir() else None
        if linked is not None:
            raise ValueError(f"{linked} is a symbolic link: the note attaches only the results' own certificate files")
        if certificates.is_dir():
            copied = shutil.copytree(certificates, work / "certificates")
            for path in [copied, *copied.rglob("*")]:
                os.utime(path, (int(SOURCE_DATE_EPOCH), int(SOURCE_DATE_EPOCH)))
        shutil.copy(tex, work / tex.name)
        # the PDF records what it is compiled from (sparseact.publish.notepdf), so that a stale one is never linked
        first_line = rf"\pdfinfo{{/{SOURCE_KEY} ({source_stamp(tex)})}}\input{{{tex.name}}}"
        for _ in range(2):
            done = subprocess.run(
                [
                    engine,
                    "-no-shell-escape",
                    "-interaction=nonstopmode",
                    "-halt-on-error",
                    f"-jobname={tex.stem}",
                    first_line,
                ],
                cwd=work,
                env=env,
                capture_output=True,
                text=True,
                errors="replace",
            )
            log = (
                (Path(work) / tex.with_suffix(".log").name).read_text(errors="replace")
                if (Path(work) / tex.with_suffix(".log").name).exists()
                else done.stdout
            )
            if done.returncode:
                errors = "\n".join(line for line in log.splitlines() if line.startswith("!"))
                raise RuntimeError(f"{engine} failed on {tex}:\n{errors or done.stdout[-2000:]}")
        pdf = tex.with_suffix(".pdf")
        shutil.copy(Path(work) / pdf.name, pdf)
    return pdf, log
