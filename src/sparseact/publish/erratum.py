r"""The note for the authors: ``results/erratum/erratum.tex``, generated from the result tables, and its PDF.

:func:`erratum_tex` composes a LaTeX document (standard packages only: amsmath, amssymb, geometry, array, longtable,
hyperref) from ``statements.csv``, ``headline.csv``, ``errata.csv`` and ``sharper.csv`` (read by
:func:`sparseact.publish.findings.load_results`) and the statement files of :mod:`sparseact.paper`
(the argument and ``open`` texts). The prose about results is the data's; the note itself types only
framing sentences. It has:

* a summary: the substantive errata (:data:`SUBSTANTIVE`) one line each (their ``gist``), the improvement (the
  ``gist`` of each sharper result), and the main results as printed (``headline.csv``) with the errata that concern
  them;
* the errata that change a result or a definition, one paragraph each (printed text, correction, violation,
  certificate), and the gaps in printed proofs the improvement does not replace, one sentence each;
* the improvement: the results sharper than a main result (``sharper.csv``) with their proofs and tightness, then the
  paper's discussions and remarks that rest on them;
* the other errata in one table, one line each (those in the printed proofs the improvement replaces first), and how
  to re-check and reply;
* appendices: the proofs that carry a finite certificate of a substantive erratum to its whole family, and the
  project's results the note cites (the other errata in full are in the findings).

The main text names no internal id: :class:`PaperWords` puts the paper's words for a statement, check or fact the
data's prose cites. The errata are numbered by consequence, then class, then paper order (:func:`numbered_errata`).
Remarks on statements that hold and the open statements are in the report, which the note points to.

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

import json
import os
import re
import shutil
import stat
import subprocess
import tempfile
from pathlib import Path

import pandas as pd

from sparseact.paper import facts as paper_facts
from sparseact.paper import paper_position
from sparseact.paper import statements as paper_statements
from sparseact.paper.markup import MATH_MACROS, check_markup
from sparseact.publish.asciimath import typeset_ascii
from sparseact.publish.display import _latex_escape
from sparseact.publish.findings import CORNER_PHRASE, Results, ids, in_corner, load_results, readable, short_ref
from sparseact.publish.ledger import certificate_view
from sparseact.publish.links import PAPER_ARXIV, PAPER_PDF
from sparseact.publish.mathtext import EMPHASIS, split_math
from sparseact.publish.notepdf import SOURCE_KEY, TEX_ENGINE, attached_certificates, source_stamp
from sparseact.publish.statements import CONSEQUENCES, first_sentence, proved_correction
from sparseact.runtime.provenance import atomic_write_text
from sparseact.verify.verdicts import FINDING_DEFINITIONS

#: The public repository whose files the certificate links point to (``https://host/owner/repo/blob/<ref>``);
#: empty while none is known: the links are then relative to the note.
REPOSITORY_URL = ""
#: The consequences that make an erratum substantive: a printed result is false, a printed proof does not prove its
#: result, or a definition results rest on is not the one cited (the note's summary names these, one sentence each,
#: and gives each a paragraph).
SUBSTANTIVE = ("result-false", "definition", "proof-gap")
#: A note file name TeX reads as written (it is passed on its command line).
_PLAIN_NAME = re.compile(r"[A-Za-z0-9_-]+\.tex")
#: Largest overfull box (pt) a compiled note may have.
OVERFULL_LIMIT_PT = 5.0
#: The date a compiled PDF carries (``SOURCE_DATE_EPOCH``), so that two runs give identical files.
SOURCE_DATE_EPOCH = "0"
#: What the paper is, as the note cites it.
PAPER_REFERENCE = (
    r"Pranjal Awasthi, Nishanth Dikkala, Pritish Kamath and Raghu Meka, ``Learning Neural Networks "
    r"with Sparse Activations'', COLT 2024, \href{" + PAPER_PDF + r"}{PMLR 247:406--425} (whose numbering this note "
    r"uses; \href{" + PAPER_ARXIV + r"}{arXiv:2406.17989} numbers some results otherwise: its Theorem 3.1 is "
    r"Theorem 8 here)"
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
    r"\documentclass[10pt]{article}",
    r"\usepackage{amsmath,amssymb}",
    # amssymb has no blackboard digits (its \mathbb{1} prints another glyph): the indicator's 1 is bold
    r"\let\amsmathbb\mathbb\renewcommand{\mathbb}[1]{\if1#1\mathbf{1}\else\amsmathbb{#1}\fi}",
    r"\usepackage[margin=2cm]{geometry}",
    r"\usepackage[colorlinks=true,linkcolor=blue,urlcolor=blue]{hyperref}",
    r"\usepackage{attachfile2}",
    r"\usepackage{array,longtable}",
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
        "arraybackslash",
        "begin",
        "dagger",
        "emph",
        "end",
        "endhead",
        "href",
        "hline",
        "hyperref",
        "item",
        "label",
        "maketitle",
        "multicolumn",
        "noindent",
        "nolinkurl",
        "paragraph",
        "phantomsection",
        "raggedright",
        "ref",
        "section",
        "small",
        "smallskip",
        "footnotesize",
        "scriptsize",
        "subsection",
        "textasciitilde",
        "textattachfile",
        "textbackslash",
        "textbar",
        "textbf",
        "textgreater",
        "textless",
        "texttt",
        "textwidth",
    ]
)
_CONTROL_WORD = re.compile(r"\\([A-Za-z@]+)")
_ATTACHMENT = re.compile(
    r"\\textattachfile\[mimetype=application/json,ucfilespec=\{[\w.-]+\}\]\{certificates/[\w-]+/[\w.-]+\.json\}"
)
_ENVIRONMENT = re.compile(r"\\(?:begin|end)\{([^}]*)\}")
_HREF = re.compile(r"\\href\{([^}]*)\}")
#: A control word that takes a name or a path not followed at once by its brace (a space, a line end or a comment
#: between them hides the argument from the checks above, not from TeX), and ``\hyperref`` in any form but its
#: label one, ``\hyperref[label]{text}`` (its four-argument form takes a URL, ``run:`` and ``file:`` included).
_DETACHED = re.compile(r"\\(?:begin|end|href)(?![A-Za-z@{])|\\hyperref(?![A-Za-z@\[])")


def check_note_source(text: str, where: str = "the note") -> None:
    """Refuse (``ValueError`` naming ``where``) a LaTeX text that is not a note :func:`erratum_tex` could write, before
    TeX sees it: its preamble must be :data:`NOTE_PREAMBLE`, and its body may hold no ``^^``, no control word outside
    :data:`NOTE_MACROS` and the math allow-list, no comment, no ``\\begin``, ``\\end`` or ``\\href`` apart from its
    argument, no environment but those the note writes, no link but ``https://`` ones and no attachment but a
    certificate's (``certificates/<claim>/<check>.json``). TeX's own file
    sandbox (``openin_any=p``) does not cover pdfTeX's ``\\pdfobj file`` or an attachment by absolute path: this does.
    """
    head = "\n".join(NOTE_PREAMBLE) + "\n"
    if not text.startswith(head):
        raise ValueError(f"{where} does not open on the note's preamble (sparseact.publish.erratum.NOTE_PREAMBLE)")
    body = text[len(head) :]
    if "^^" in body:
        raise ValueError(f"{where} holds '^^', which TeX reads as another character: not compiled")
    if "%" in re.sub(r"\\[\\%]", "", body):
        raise ValueError(f"{where} holds a TeX comment ('%'), which the note never does: not compiled")
    detached = _DETACHED.search(body)
    if detached:
        raise ValueError(
            f"{where} separates {detached.group(0)} from its argument, which the note never does: not compiled"
        )
    allowed = NOTE_MACROS | MATH_MACROS
    unknown = sorted({name for name in _CONTROL_WORD.findall(body) if name not in allowed})
    if unknown:
        raise ValueError(f"{where} uses \\{unknown[0]}, outside the note's control sequences: not compiled")
    if body.count("\\textattachfile") != len(_ATTACHMENT.findall(body)):
        raise ValueError(f"{where} attaches a file that is not a certificate of certificates/<claim>/: not compiled")
    environments = set(_ENVIRONMENT.findall(body)) - {"document", "description", "longtable", "aligned"}
    links = [link for link in _HREF.findall(body) if not link.startswith("https://")]
    if environments or links:
        raise ValueError(
            f"{where} uses {(sorted(environments) or links)[0]!r}, which the note never does: not compiled"
        )


def certificate_link(path: str, repository_url: str = REPOSITORY_URL, word: str = "certificate") -> str:
    r"""A link to a certificate (``certificates/<claim>/<check>.json`` as ``errata.csv`` names it) whose text is ``word``.

    With a ``repository_url``, an ``\href`` to its rendered view there (:func:`sparseact.publish.ledger.certificate_view`,
    which a code host shows and which links the file). Without one (no public repository yet), the file itself
    attached to the PDF as ``<claim>-<check>.json`` (attachfile2's ``\textattachfile``, the path relative to the note,
    where :func:`compile_pdf` puts a copy of the certificates; ``word`` is one short word, as attachfile2 does not break
    its text across lines): it opens the certificate from the PDF alone, and ``pdfdetach -saveall`` extracts every one
    for ``sparseact verify-certificate``. ``ValueError`` for a ``path`` that is not a certificate file's (nothing else
    is attached)."""
    if not _CERTIFICATE_PATH.fullmatch(path):
        raise ValueError(f"{path!r} is not a certificate of results/certificates/<claim>/<check>.json: not attached")
    if repository_url:
        return rf"\href{{{repository_url.rstrip('/')}/results/{certificate_view(path)}}}{{{word}}}"
    name = path.removeprefix("certificates/").replace("/", "-").replace("_", "-")  # TeX drops a bare "_" here
    return rf"\textattachfile[mimetype=application/json,ucfilespec={{{name}}}]{{{path}}}{{{word}}}"


def _sentence(text: str) -> str:
    text = " ".join(str(text).split())
    return text if not text or text.endswith((".", "?", "!")) else text + "."


def _join(names: list[str]) -> str:
    if len(names) <= 2:
        return " and ".join(names)
    return ", ".join(names[:-1]) + " and " + names[-1]


def numbered_errata(results: Results) -> pd.DataFrame:
    """``errata.csv`` in the note's order, with ``number`` (1, 2, ...) and ``where`` (the paper references of its
    statements): by consequence, most serious first, then by class, then those that concern a main result (one of
    ``headline.csv``, or a step of its proof) first, then those that name more printed results (not proof steps)
    first, then in paper order."""
    refs = dict(zip(results.statements["statement_id"], results.statements["paper_ref"], strict=True))
    main = set(results.headline["statement_id"])
    proof_of = {e["id"]: e.get("proof_of") for e in paper_statements()}
    rank = {finding: position for position, finding in enumerate(FINDING_DEFINITIONS)}
    frame = results.errata.assign(
        where=results.errata["statements"].map(lambda cell: [refs[s] for s in ids(cell)]),
        _rank=results.errata["class"].map(lambda c: rank.get(c, len(rank))),
    )
    frame = frame.assign(
        _position=frame["where"].map(lambda refs_: min(map(paper_position, refs_))),
        _weight=frame["consequence"].map(list(CONSEQUENCES).index),
        _minor=frame["statements"].map(lambda cell: not any({s, proof_of.get(s)} & main for s in ids(cell))),
        _results=frame["statements"].map(lambda cell: -sum(not proof_of.get(s) for s in ids(cell))),
    )
    frame = frame.sort_values(
        ["_weight", "_rank", "_minor", "_results", "_position", "erratum_id"], kind="stable"
    ).drop(columns=["_weight", "_rank", "_minor", "_results", "_position"])
    return frame.reset_index(drop=True).assign(number=lambda f: range(1, len(f) + 1))


def cite(numbers: list[int]) -> str:
    """``Erratum 3``, ``Errata 3, 5 and 8`` or, for a run of three or more, ``Errata 7--18``."""
    runs: list[list[int]] = []
    for number in sorted(numbers):
        if runs and number == runs[-1][-1] + 1:
            runs[-1].append(number)
        else:
            runs.append([number])
    words = [f"{run[0]}--{run[-1]}" if len(run) > 2 else ", ".join(map(str, run)) for run in runs]
    return ("Erratum " if len(numbers) == 1 else "Errata ") + _join(", ".join(words).split(", "))


def printed_certificates(results: Results, cell: str) -> list[str]:
    """The certificates of an erratum (``errata.csv``'s cell) that refute a statement of the paper: the note sends
    those; one of the project's own statements (the covariance of every bound, which an erratum also breaks) stays in
    the findings."""
    statement = dict(zip(results.ledger["check_id"], results.ledger["statement_id"], strict=True))
    origin = dict(zip(results.statements["statement_id"], results.statements["origin"], strict=True))
    return [
        path
        for path in ids(cell)
        if origin.get(statement.get(path.removeprefix("certificates/").removesuffix(".json"))) == "paper"
    ]


def note_name(paper_ref: str) -> str:
    """A statement's name in the note: its paper reference without the gloss after a ``;``
    (``Theorem 3 (first part; Section 1, ...)`` -> ``Theorem 3 (first part)``)."""
    return re.sub(r";[^()]*(\([^()]*\)[^()]*)*\)$", ")", str(paper_ref).strip())


def prose_name(name: str) -> str:
    """How prose cites a statement named ``name`` (:func:`note_name`): a proof step as part of its proof ("the proof
    of Theorem 8", "eq. (8) of the proof of Theorem 19, with strict cells"), a corrected statement as "Lemma 7 as
    corrected here"."""
    equations = re.fullmatch(r"(.+?) \(proof\), (eqs?\. (?:\(\d+\)(?:, )?)+)(.*)", name)
    if equations is not None:
        result, cited, rest = equations.groups()
        return f"{cited.rstrip(', ')} of the proof of {result}" + (f",{rest}" if rest else "")
    match = re.fullmatch(r"(.+?) \((proof|corrected)(?:[,:] (.+))?\)", name)
    if match is None:
        return name
    result, kind, detail = match.groups()
    if kind == "proof":
        return f"the {detail.removeprefix('the ')} of the proof of {result}" if detail else f"the proof of {result}"
    return f"{result} as corrected here" + (f" ({detail})" if detail else "")


def _shown_elsewhere(results: Results, errata: pd.DataFrame) -> set[str]:
    """The project's statements the note states outside the appendix of cited results: the sharper results
    (Section 2) and the proofs for whole families (their appendix)."""
    return set(results.sharper["statement_id"]) | {
        proof
        for _, row in errata.iterrows()
        for proof in [*ids(row.get("carried_by", "")), *([row["refuted_by"]] if row.get("refuted_by") else [])]
    }


#: A main result printed in parts: "Theorem 3 (second part)".
PART = re.compile(r"^(.*) \((first|second|third) part\)$")
#: A name's closing parenthetical, said after a comma where the name itself stands in parentheses.
UNNESTED = re.compile(r" \(([^()]*)\)$")


class PaperWords:
    """Replaces, in the prose of a text, the project's names of statements, checks and facts by the paper's words:
    a statement by its paper reference (:func:`prose_name`), an erratum's certificate ``<claim>/<check>`` (with the words "the
    certificate" before it, if any) by "the certificate of Erratum N", any other check by "an exact check of" its
    statement, a fact by its name. The project's results that the appendix of cited results states are numbered in the
    order they are first named, "Proposition A.1", .... The note's main text prints no internal
    id (tests/test_erratum.py greps the PDF)."""

    def __init__(self, results: Results):
        names = {
            sid: prose_name(note_name(ref))
            for sid, ref in zip(results.statements["statement_id"], results.statements["paper_ref"], strict=True)
        }
        names.update(
            (check, f"an exact check of {short_ref(ref)}")
            for check, ref in zip(results.ledger["check_id"], results.ledger["paper_ref"], strict=True)
        )
        errata = numbered_errata(results)
        names.update(
            (path.removeprefix("certificates/").removesuffix(".json"), f"the certificate of Erratum {number}")
            for number, cell in zip(errata["number"], errata["certificates"], strict=True)
            for path in ids(cell)
        )
        # a fact by its name and its short citation: "symmetrization (Shalev-Shwartz and Ben-David 2014, Lemma 26.2)"
        names.update(
            (fact["id"], UNNESTED.sub("", fact["name"]) + (f" ({fact['cite']})" if fact.get("cite") else ""))
            for fact in paper_facts()
        )
        self.names = names
        self.statements = dict(zip(results.statements["statement_id"], results.statements["statement"], strict=True))
        self.kinds = dict(zip(results.statements["statement_id"], results.statements["kind"], strict=True))
        #: the project's own statements named so far, in order (the note's appendix states those of the main text)
        self.cited: dict[str, None] = {}
        #: the appendix's number of each cited result it states, in the order first named
        self.numbers: dict[str, int] = {}
        self.numbering = set(results.statements.loc[results.statements["kind"] == "derived", "statement_id"]) - (
            _shown_elsewhere(results, numbered_errata(results))
        )
        self.pattern = re.compile(
            r"(?<![\w/:.-])((?:[Tt]he )?certificates? )?("
            + "|".join(re.escape(name) for name in sorted(names, key=len, reverse=True))
            + r")(?![\w-]|/\w)"
        )
        #: a name that begins with a lower-case word, where it begins a sentence (capitalised there)
        self.sentence_start = re.compile(
            r"(^|[.!?]\s+)("
            + "|".join(re.escape(v) for v in sorted(set(names.values()), key=len, reverse=True) if v[:1].islower())
            + ")"
        )

    def _name(self, match: re.Match) -> str:
        sid = match.group(2)
        said, name = match.group(1) or "", self.names[sid]
        if self.kinds.get(sid) == "derived":
            self.cited.setdefault(sid, None)
        if sid in self.numbering:
            return f"{said}of {self.number(sid)}" if said else self.number(sid)
        if name.startswith("the certificate of"):
            return ("T" if said.startswith("T") else "t") + name[1:]
        before = match.string[: match.start()]
        if before.count("(") > before.count(")"):  # inside parentheses: "(Theorem 17, with outputs at most 1)"
            name = UNNESTED.sub(r", \1", name)
        return f"{said}of {name}" if said else name

    def number(self, sid: str) -> str:
        """``Proposition A.n`` of a cited result, numbered when first named."""
        return f"Proposition A.{self.numbers.setdefault(sid, len(self.numbers) + 1)}"

    def proof(self, text: str) -> str:
        """A proof's ``text`` in the paper's words, without the project's exact checks (the note gives proofs; the
        repository's table of statements adds the checks): a sentence that opens with one, or with "The exact
        check", is dropped, and a check cited in a list or in parentheses is left out of it; a certificate stays."""
        checks = [name for name, said in self.names.items() if said.startswith("an exact check of ")]
        check = "(?:" + "|".join(re.escape(name) for name in sorted(checks, key=len, reverse=True)) + ")"
        kept = " ".join(
            sentence
            for sentence in re.split(r"(?:(?<=\.)|(?<=\.\))) (?=\S)", " ".join(str(text).split()))
            if not re.match(rf"(?:(?:The|An) exact checks? |{check}(?![\w-]|/\w))", sentence)
        )
        cited = rf"(?<![\w/:.-]){check}(?![\w-]|/\w)"
        # a parenthesis that a check opens, formulas and parentheses inside it included
        kept = re.sub(rf"\(\s*{cited}(?:[^()$]|\$[^$]*\$|\([^()]*\))*\)", "", kept)
        lists = (  # in prose only: a formula's "O()" stays
            (rf"(?:[;,] (?:and )?)?{cited}", ""),  # a check in a list
            (r"\(\s*(?:[;,]\s*)?\)", ""),
            (r"\(\s*[;,]\s*", "("),
            (r" +(?=[,.;)])", ""),
        )
        pieces = []
        for kind, piece in split_math(kept):
            if kind == "text":
                for pattern, said in lists:
                    piece = re.sub(pattern, said, piece)
            pieces.append(piece if kind == "text" else f"${piece}$" if kind == "inline" else f"$${piece}$$")
        return self(_sentence("".join(pieces)))

    def __call__(self, text: str) -> str:
        named = "".join(
            self.pattern.sub(self._name, piece)
            if kind == "text"
            else (f"${piece}$" if kind == "inline" else f"$${piece}$$")
            for kind, piece in split_math(" ".join(str(text).split()))
        )
        return self.sentence_start.sub(lambda m: m.group(1) + m.group(2)[0].upper() + m.group(2)[1:], named)


def _main_result_line(row: pd.Series, results: Results, errata: pd.DataFrame, entries: dict) -> tuple[str, str]:
    """What the summary's table says of one main result (``headline.csv``'s row): as printed, and its errata."""
    number = dict(zip(errata["erratum_id"], errata["number"], strict=True))
    concerns = {e: ids(cell) for e, cell in zip(errata["erratum_id"], errata["statements"], strict=True)}
    table = results.statements.set_index("statement_id")
    status_of = dict(zip(results.statements["statement_id"], results.statements["status"], strict=True))
    sid, entry = row["statement_id"], entries.get(row["statement_id"], {})
    statement = table.loc[sid]
    corner = in_corner(results, sid, entry)
    fixes = []  # the errata that correct the hypothesis of an implication
    if row["status"] == "fails-as-stated":
        survives = statement["survives"]
        classes = set(errata.loc[errata["statements"].map(lambda cell: sid in ids(cell)), "class"])
        constant = classes == {"constant-factor"}  # only its printed constant fails
        said = ("its printed constant fails; " if constant else "fails; ") + (
            ("up to a constant, proved" if constant else "a corrected form is proved")
            if survives.startswith("yes")
            else ("up to a constant, open" if constant else "its corrected form is a conjecture, open")
            if survives.startswith("open")
            else "no corrected form is proved"
        )
    elif row["status"] == "proved" and entry.get("hypothesis"):
        hypothesis = entry["hypothesis"]
        fixes = [
            number[e]
            for e, verified in zip(errata["erratum_id"], errata["verified"], strict=True)
            if hypothesis in concerns[e] or f"restates {hypothesis} " in verified
        ]
        said = f"holds, as an implication from {tex_text(short_ref(table.loc[hypothesis, 'paper_ref']))}" + (
            f" as corrected in {cite(fixes)} (a conjecture)" if fixes else f" ({status_of[hypothesis]})"
        )
    elif row["status"] == "proved":
        said = "holds" + (CORNER_MARK if corner else "")
    elif row["status"] == "open":
        said = "open"
    else:
        said = (
            f"a corrected form is proved for every parameter; as printed it is {UNPROVED}"
            + (CORNER_MARK if corner else "")
            if proved_correction(entry, status_of)
            else UNPROVED + (CORNER_MARK if corner else "")
        )
    if sid in set(results.sharper["than"]):
        said += "; a sharper form is proved"
    own = [number[e] for e in ids(row["errata"]) if sid in concerns[e]] + fixes
    steps = [number[e] for e in ids(row["errata"]) if sid not in concerns[e]]
    cited = ", ".join(
        part
        for part in (
            ", ".join(map(str, sorted(own))),
            ("proof: " + ", ".join(map(str, sorted(steps)))) if steps else "",
        )
        if part
    )
    return said, cited


def _summary(results: Results, errata: pd.DataFrame, entries: dict, words: PaperWords) -> list[str]:
    """The summary: the substantive errata one line each, the improvement, then the main results in a table."""
    rows = [
        rf"{tex_text(note_name(row['paper_ref']))} & {said} & {cited or '--'} \\"
        for _, row in results.headline.iterrows()
        for said, cited in [_main_result_line(row, results, errata, entries)]
    ]
    serious = errata[errata["consequence"].isin(SUBSTANTIVE)]
    sharper = [
        (row, entries[row["statement_id"]]["sharper"]["gist"])
        for _, row in results.sharper.iterrows()
        if (entries.get(row["statement_id"], {}).get("sharper") or {}).get("gist")
    ]
    problems = [
        rf"\item[Erratum {row['number']}] ({tex_text(', '.join(dict.fromkeys(map(short_ref, row['where']))))}) "
        + tex_text(words(_sentence(row["gist"])))
        for _, row in serious.iterrows()
    ]
    improvements = [
        rf"\item[{tex_text(short_ref(row['paper_ref']))}] {tex_text(words(_sentence(gist)))}" for row, gist in sharper
    ]
    replaced, superseded = _superseded(results, errata, entries)
    kind = dict(zip(results.statements["statement_id"], results.statements["kind"], strict=True))
    theorems = results.headline[results.headline["statement_id"].map(kind) != "conjecture"]
    names = list(dict.fromkeys(theorems["paper_ref"].map(short_ref)))
    holding = list(dict.fromkeys(theorems.loc[theorems["status"] == "proved", "paper_ref"].map(short_ref)))
    conditional = [
        (short_ref(ref), note_name(ref))
        for sid, ref in zip(results.headline["statement_id"], results.headline["paper_ref"], strict=True)
        if entries.get(sid, {}).get("hypothesis")
    ]
    given = list(
        dict.fromkeys(
            name
            if sum(short_ref(r) == name for r in results.headline["paper_ref"]) == 1
            else PART.sub(r"the \2 part of \1", full)
            for name, full in conditional
        )
    )
    return [
        r"\section{Summary}",
        rf"\noindent {len(holding)} of the paper's {len(names)} main theorems and lemmas hold"
        + (f", {len(given)} only given a conjecture ({tex_text(', '.join(given))})" if given else "")
        + f": {tex_text(_join(holding))}. "
        + " ".join(_the_others(results, errata, entries, kind)),
        "",
        *_described(r"\noindent\textbf{The substantive problems} (Section~\ref{sec:substantive}).", problems),
        *_described(r"\noindent\textbf{The improvement} (Section~\ref{sec:improvement}).", improvements),
        *(
            [
                rf"\noindent It replaces the printed proofs of {tex_text(_join(replaced))}, and with them "
                f"{cite(superseded)}.",
                "",
            ]
            if superseded
            else []
        ),
        r"\smallskip\noindent\textbf{The main results, as printed.}",
        "",
        r"\begin{longtable}{" + _columns(0.22, 0.57, 0.15) + "}",
        r"\hline Result & As printed & Errata \\ \hline",
        r"\endhead",
        *rows,
        r"\hline",
        r"\end{longtable}",
        "",
        *([rf"\noindent {CORNER_MEANING}", "", r"\smallskip"] if any(CORNER_MARK in row for row in rows) else []),
        _errata_by_consequence(errata),
        "",
    ]


def _the_others(results: Results, errata: pd.DataFrame, entries: dict, kind: dict) -> list[str]:
    """The summary's sentences on the main results that do not hold as printed, grouped by how they stand, then on
    the conjectures among the main statements (a conjecture is not a result: it is said apart, as in the table)."""
    status_of = dict(zip(results.statements["statement_id"], results.statements["status"], strict=True))
    survives = dict(zip(results.statements["statement_id"], results.statements["survives"], strict=True))
    groups: dict[str, list[str]] = {}
    conjectures = []
    for _, row in results.headline.iterrows():
        sid, status = row["statement_id"], row["status"]
        if kind[sid] == "conjecture":
            said = _main_result_line(row, results, errata, entries)[0]
            conjectures.append(rf"{tex_text(short_ref(row['paper_ref']))}, a conjecture: {said}.")
        elif status == "holds-on-range":
            group = "constant" if proved_correction(entries.get(sid, {}), status_of) else "range"
            corner = " corner" if in_corner(results, sid, entries.get(sid, {})) else ""
            groups.setdefault(group + corner, []).append(row)
        elif status == "fails-as-stated":
            kept = str(survives[sid])
            group = "failing" if not kept.startswith("yes") else "weaker" if "weaker form" in kept else "corrected"
            groups.setdefault(group, []).append(row)
        elif status == "open":
            groups.setdefault("open", []).append(row)
    said = {  # (one result, several)
        "constant": (
            f"has a corrected form proved for every parameter; as printed it is {UNPROVED}",
            f"have corrected forms proved for every parameter; as printed they are {UNPROVED}",
        ),
        "constant corner": (
            f"has a corrected form proved for every parameter; as printed it is {UNPROVED} {CORNER_PHRASE}",
            f"have corrected forms proved for every parameter; as printed they are {UNPROVED} {CORNER_PHRASE}",
        ),
        "range": (f"is {UNPROVED}", f"are {UNPROVED}"),
        "range corner": (f"is {UNPROVED} {CORNER_PHRASE}", f"are {UNPROVED} {CORNER_PHRASE}"),
        "corrected": ("fails as printed; a corrected form is proved", "fail as printed; corrected forms are proved"),
        "weaker": (
            "fails as printed; a weaker corrected form is proved",
            "fail as printed; weaker corrected forms are proved",
        ),
        "failing": ("fails as printed, and no corrected form is proved", "fail as printed, and no corrected form is"),
        "open": ("is open", "are open"),
    }
    sentences = []
    ranges = dict(zip(results.statements["statement_id"], results.statements["range"], strict=True))
    for group, rows in groups.items():
        refs = list(dict.fromkeys(short_ref(row["paper_ref"]) for row in rows))
        computed = [
            (f"{short_ref(row['paper_ref'])}: " if len(rows) > 1 else "") + typeset_ascii(ranges[row["statement_id"]])
            for row in rows
        ]
        named = f" (computed: {'; '.join(computed)})" if group.split()[0] in UNPROVEN else ""
        sentences.append(tex_text(f"{_join(refs)} {said[group][len(refs) > 1]}{named}."))
    return sentences + conjectures


def _superseded(results: Results, errata: pd.DataFrame, entries: dict) -> tuple[list[str], list[int]]:
    """The results whose proof in the argument graph rests on one of our sharper statements of them, and the numbers
    of the errata that lie only in the printed proofs of those results (each named statement a step of one)."""
    status = dict(zip(results.statements["statement_id"], results.statements["status"], strict=True))

    def premises(sid: str) -> set[str]:
        seen, todo = set(), [sid]
        while todo:
            for premise in (entries.get(todo.pop(), {}).get("argument") or {}).get("uses", ()):
                if premise not in seen:
                    seen.add(premise)
                    todo.append(premise)
        return seen

    replaced = {
        than
        for than, group in results.sharper.groupby("than")
        if status.get(than) == "proved" and premises(than) & set(group["statement_id"])
    }
    superseded = [
        int(number)
        for number, cell, consequence in zip(errata["number"], errata["statements"], errata["consequence"], strict=True)
        if consequence in PROOF_CONSEQUENCES
        and ids(cell)
        and all(entries.get(sid, {}).get("proof_of") in replaced for sid in ids(cell))
    ]
    proofs = {entries.get(sid, {}).get("proof_of") for cell in errata["statements"] for sid in ids(cell)}
    names = sorted(
        (
            ref
            for sid, ref in zip(results.statements["statement_id"], results.statements["paper_ref"], strict=True)
            if sid in replaced & proofs
        ),
        key=paper_position,
    )
    return [short_ref(ref) for ref in names], superseded


#: What the note says of a printed statement that holds on every instance computed and has no proof.
UNPROVED = "unproved, with no counterexample among the instances computed"
#: The summary's groups of such statements (:func:`_the_others`), whose instances it names.
UNPROVEN = ("constant", "range")
#: The summary table's mark on "holds" where a result holds :data:`sparseact.publish.findings.CORNER_PHRASE`.
CORNER_MARK = r"$^\dagger$"
#: What the mark means, said once under the table.
CORNER_MEANING = (
    f"{CORNER_MARK}\\,{CORNER_PHRASE.capitalize()}: where one is below 1 ($\\log(ns)$ at $n = s = 1$; "
    "$\\log(m(R+B))$ at a small scale) the printed bound can vanish; we read each printed $\\log$ as "
    "$\\max\\{1, \\log\\}$, for every statement alike."
)
#: How the note counts the errata, per consequence (:data:`CONSEQUENCES`, most serious first).
ERRATA_PHRASES = {
    "result-false": ("changes a result", "change a result"),
    "definition": ("changes a definition", "change a definition"),
    "proof-gap": ("leaves a printed proof short of its result", "leave a printed proof short of its result"),
    "informal": ("corrects an informal sentence", "correct an informal sentence"),
    "step": ("is a step that a local correction repairs", "are steps that a local correction repairs"),
    "typo": ("is notation or a typo", "are notation or typos"),
    "conjecture-remark": ("is a remark on a conjecture", "are remarks on conjectures"),
}
#: The consequences of an erratum that lies in a proof.
PROOF_CONSEQUENCES = ("proof-gap", "step", "typo")


def _errata_by_consequence(errata: pd.DataFrame) -> str:
    """The errata counted by what they change, each group named by its numbers."""
    rank = list(CONSEQUENCES).index
    parts = [
        _count(len(group), *ERRATA_PHRASES[key]) + f" ({cite(list(group['number']))})"
        for key, group in sorted(errata.groupby("consequence"), key=lambda item: rank(item[0]))
    ]
    return (
        rf"\noindent Of the {len(errata)} errata, {_join(parts)} (Sections~\ref{{sec:substantive}} "
        rf"and~\ref{{sec:slips}})."
    )


def _columns(*fractions: float) -> str:
    """A table's columns: ragged-right paragraphs of these fractions of the text width."""
    return "@{}" + "".join(rf">{{\raggedright\arraybackslash}}p{{{f}\textwidth}}" for f in fractions) + "@{}"


def _described(title: str, items: list[str]) -> list[str]:
    """A bold ``title`` over a description list of ``items`` (nothing when there is none)."""
    return [title, r"\begin{description}", *items, r"\end{description}", ""] if items else []


def _count(number: int, singular: str, plural: str) -> str:
    """``1 is proved``, ``3 are proved``."""
    return f"{number} {singular if number == 1 else plural}"


def _improvement(results: Results, words: PaperWords) -> list[str]:
    """The results sharper than a main result, each with its proof (after the sharper results it uses), then what they
    give: the paper's discussions and remarks whose proofs rest on them."""
    rows = results.sharper[results.sharper["than"].isin(set(results.headline["statement_id"]))]
    uses = dict(zip(results.statements["statement_id"], results.statements["uses"].map(ids), strict=True))
    sharper, placed = list(rows["statement_id"]), []
    while len(placed) < len(sharper):
        ready = [s for s in sharper if s not in placed and set(uses.get(s, ())) & set(sharper) <= set(placed)]
        placed.append((ready or [s for s in sharper if s not in placed])[0])
    lines = [
        r"\section{The improvement}\label{sec:improvement}",
        "Results sharper than the paper's, each proved for every parameter. The new ingredient is a sharper bound on "
        "the average sensitivity; the Fourier tail then follows from the total influence (O'Donnell 2014, "
        "Chapter 3), with no detour through noise sensitivity.",
        "",
    ]
    for _, row in rows.set_index("statement_id").loc[placed].reset_index().iterrows():
        # the note keeps a family that attains the bound, once: the ratios to an O() read with constant 1 stay in
        # findings.md, and an argument that names its extremal family needs no second mention
        attained = row["family"] and readable(row["proved_over_family"]) == "1" and "attained" not in row["argument"]
        lines += [
            rf"\paragraph{{{tex_text(words.names[row['statement_id']])}.}} "
            + tex_text(words(_sentence(row["statement"]))),
            "",
            rf"\emph{{Proof.}} {tex_text(words.proof(row['argument']))}"
            + (rf" \emph{{Tightness.}} Attained by {tex_text(row['family'])}." if attained else ""),
            "",
        ]
    printed = results.printed
    gives = printed[
        (printed["status"] == "proved")
        & printed["kind"].isin(["discussion", "remark"])
        & printed["uses"].map(lambda cell: bool(set(ids(cell)) & set(sharper)))
    ]
    for _, row in gives.assign(_p=gives["paper_ref"].map(paper_position)).sort_values("_p", kind="stable").iterrows():
        lines += [
            rf"\paragraph{{What it gives: {tex_text(note_name(row['paper_ref']))}.}} "
            + tex_text(words(_sentence(first_sentence(row["reason"], 600)))),
            "",
        ]
    return lines


#: A printed text that is one formula longer than this (characters of TeX) is displayed, broken at its relations.
_DISPLAY_CHARS = 120
_RELATION = re.compile(r"\\(?:leq?|geq?)(?![A-Za-z])|=")


def printed_tex(text: str) -> str:
    """The printed text for the note: prose escaped, the paper's italics (``*word*``) set in italics and math passed
    (:func:`tex_text`); a text that is one long formula is displayed, one line per top-level relation, so that it
    never runs off the page."""
    formula = " ".join(str(text).split())
    if not (formula.startswith("$") and formula.endswith("$") and formula.count("$") == 2):
        return EMPHASIS.sub(r"\\emph{\1}", tex_text(text))
    body = tex_text(formula)[1:-1]  # checked by tex_text
    if len(body) <= _DISPLAY_CHARS:
        return tex_text(text)
    pieces, depth, start = [], 0, 0
    for match in re.finditer(r"\\left\b|\\right\b|(?<!\\)[{}]|" + _RELATION.pattern, body):
        token = match.group(0)
        if token in ("{", "\\left"):
            depth += 1
        elif token in ("}", "\\right"):
            depth -= 1
        elif depth == 0 and match.start() > 0:
            pieces.append(body[start : match.start()])
            start = match.start()
    pieces = [piece.strip() for piece in [*pieces, body[start:]]]
    lines = pieces[0] + (" &" + r" \\ &".join(pieces[1:]) if len(pieces) > 1 else "")
    return rf"\[\begin{{aligned}}{lines}\end{{aligned}}\]"


def _substantive(row: pd.Series, repository_url: str, words: PaperWords) -> list[str]:
    """An erratum that changes a result or a definition: one paragraph with the printed text, the correction and the
    violation (what is wrong, its ``gist``, is the summary's line for it, not repeated here); the proof of its family
    is in the appendix. A gap in a printed proof is one sentence: where, and the correction's first sentence."""
    certificates = _certificates(row, repository_url)
    if row["consequence"] not in ("result-false", "definition"):
        return [
            rf"\paragraph{{Erratum {row['number']}.}} {tex_text(words(_sentence(row['location'])))} "
            rf"\emph{{Correction:}} {tex_text(words(_sentence(first_sentence(row['correction']))))}"
            + (f" {certificates}" if certificates else ""),
            "",
        ]
    families = ids(row.get("carried_by", ""))
    if row.get("refuted_by"):
        violation = ""
    elif families:  # the family's statement, in the paper's notation; the certificate is one of its instances
        statement = words.statements[families[0]]
        violation = rf"\emph{{Violation:}} {tex_text(words(_sentence(statement)))} "
    else:
        violation = rf"\emph{{Violation:}} {tex_text(words(_sentence(typeset_ascii(row['counterexample']))))} "
    return [
        rf"\paragraph{{Erratum {row['number']}.}} {tex_text(words(_sentence(row['location'])))} "
        rf"\emph{{Printed:}} {printed_tex(row['printed'])} "
        rf"\emph{{Correction:}} {tex_text(words(_sentence(row['correction'])))} "
        + violation.strip()
        + (f" {certificates}" if certificates else "")
        + (
            r" The proof of the violation for every instance of the family is in the \hyperref[app:families]{appendix}."
            if row.get("carried_by") or row.get("refuted_by")
            else ""
        ),
        "",
    ]


def _certificates(row: pd.Series, repository_url: str) -> str:
    """The links to an erratum's certificates, as one short sentence (the link text names no file)."""
    paths = ids(row["certificates"])
    if not paths:
        return ""
    where = "" if repository_url else " (attached to this PDF)"
    return (
        ("Counterexample" if len(paths) == 1 else "Counterexamples")
        + f"{where}: "
        + _certificate_words(paths, repository_url)
        + "."
    )


def _certificate_words(paths: list[str], repository_url: str) -> str:
    """ "1, 2, ..." each linked to one certificate (the main text names no file)."""
    return ", ".join(certificate_link(path, repository_url, str(i)) for i, path in enumerate(paths, 1))


def _slips(errata: pd.DataFrame, replaced: list[str], repository_url: str, words: PaperWords) -> list[str]:
    """The errata after which every result stands, in one table, one line each: first those in the printed proofs
    that the improvement replaces (``errata["superseded"]``; ``replaced`` names those proofs), then the others."""

    def rows(group: pd.DataFrame) -> list[str]:
        return [
            rf"{row['number']} & {tex_text(words(short_location(row)))} & {tex_text(words(_sentence(row['gist'])))} & "
            + (_certificate_words(ids(row["certificates"]), repository_url) or "--")
            + r" \\"
            for _, row in group.iterrows()
        ]

    def heading(text: str) -> list[str]:
        return [rf"\multicolumn{{4}}{{@{{}}l}}{{\emph{{{text}}}}} \\[2pt]"]

    superseded, rest = errata[errata["superseded"]], errata[~errata["superseded"]]
    return [
        r"\section{Smaller errata}\label{sec:slips}",
        "Errata after which every result stands, one line each: those in the printed proofs that "
        r"Section~\ref{sec:improvement} replaces, then steps whose constants change, typos and a remark on a "
        "conjecture. The certificates are attached.",
        "",
        r"{\small",
        r"\begin{longtable}{" + _columns(0.03, 0.21, 0.54, 0.14) + "}",
        r"\hline No. & Where & What is wrong, and what is right & Counterexample \\ \hline",
        r"\endhead",
        *(
            heading(tex_text(f"In the printed proofs of {_join(replaced)}")) + rows(superseded)
            if len(superseded)
            else []
        ),
        *(heading("Elsewhere") if len(superseded) else []),
        *rows(rest),
        r"\hline",
        r"\end{longtable}",
        "}",
        "",
    ]


def short_location(row: pd.Series) -> str:
    """Where an erratum is, in a few words: its location up to the first ``:``, else the paper references it names."""
    location = " ".join(str(row["location"]).split())
    head = re.split(r": |(?<!eq)\. (?=[A-Z])", location)[0]
    return head if len(head) <= 90 else "; ".join(dict.fromkeys(map(short_ref, row["where"])))


def _families(errata: pd.DataFrame, entries: dict, words: PaperWords) -> list[str]:
    """For each erratum of ``errata`` (those that change a result or a definition) whose certificate is one instance of
    a family, or whose statement is refuted by a proof, the proof that carries it to every instance (the family's
    statement, the first family's, is the erratum's violation, stated in its paragraph)."""
    lines = []
    for _, row in errata.iterrows():
        proofs = [*ids(row.get("carried_by", "")), *([row["refuted_by"]] if row.get("refuted_by") else [])]
        for proof in proofs:
            entry = entries[proof]
            # an erratum with several families names each by the statement it refutes: "Erratum 1 (Lemma 18)"
            name = f"Erratum {row['number']}" + (f" ({short_ref(entry['paper_ref'])})" if len(proofs) > 1 else "")
            stated = not row.get("refuted_by") and proof == proofs[0]  # the paragraph's violation (_substantive)
            lines += [
                rf"\paragraph{{{tex_text(name)}.}} "
                + ("" if stated else f"{tex_text(words(_sentence(entry['statement'])))} ")
                + rf"\emph{{Proof.}} {tex_text(words.proof(entry['argument']['text']))}",
                "",
            ]
    heading = [
        r"\section*{Appendix: proofs for whole families}\phantomsection\label{app:families}",
        "A certificate is one finite instance. Where an erratum is about an asymptotic statement (a hidden constant, "
        "every $k$), the proof below carries the violation its paragraph states to the whole family.",
        "",
    ]
    return heading + lines if lines else []


def _cited(cited: list[str], results: Results, errata: pd.DataFrame, words: PaperWords) -> list[str]:
    """The project's results that the note cites and does not state elsewhere (Section 2 states the sharper ones, the
    family appendix the refutations), each with its proof: a reader checks a correction or a refutation against what
    it rests on, from the note alone."""
    rest = [sid for sid in cited if sid not in _shown_elsewhere(results, errata)]
    if not rest:
        return []
    lines = [
        r"\section*{Appendix: our results the note cites}\phantomsection\label{app:cited}",
        "The results the note cites, each with its proof; the repository's table of statements adds the exact "
        "checks of each.",
        "",
    ]
    reasons = dict(zip(results.statements["statement_id"], results.statements["reason"], strict=True))
    shown = _shown_elsewhere(results, errata)
    for sid in rest:  # a result first cited by a proof here is stated after the others, with its own proof
        statement, proof = words(_sentence(words.statements[sid])), words.proof(reasons[sid])
        rest += [cited for cited in words.cited if cited not in rest and cited not in shown]
        name = words.names[sid]
        if sid in words.numbers:  # "Proposition A.4 (Theorem 17 as corrected here, with outputs at most 1)"
            name = words.number(sid) + " (" + UNNESTED.sub(r", \1", name) + ")"
        else:
            name = name[:1].upper() + name[1:]
        lines += [
            rf"\paragraph{{{tex_text(name)}.}} {tex_text(statement)}"
            + (rf" \emph{{Proof.}} {tex_text(proof)}" if proof else ""),
            "",
        ]
    return lines


def erratum_tex(results: Results, repository_url: str = REPOSITORY_URL) -> str:
    """The note, a LaTeX document (see the module's docstring)."""
    errata = numbered_errata(results)
    entries = {e["id"]: e for e in paper_statements()}
    words = PaperWords(results)
    replaced, superseded = _superseded(results, errata, entries)
    errata = errata.assign(
        superseded=errata["number"].astype(int).isin(superseded),
        certificates=errata["certificates"].map(lambda cell: "; ".join(printed_certificates(results, cell))),
    )
    serious = errata[errata["consequence"].isin(SUBSTANTIVE) & ~errata["superseded"]]
    slips = errata[~errata["number"].isin(serious["number"])]
    lines = [
        *NOTE_PREAMBLE,
        r"\maketitle",
        rf"\noindent On {PAPER_REFERENCE}. We checked the paper's statements by exact computation and proof; this "
        r"note gives what we found wrong and the sharper bounds we proved. Section~\ref{sec:reply} says how to re-check "
        "it and how to reply.",
        "",
        *_summary(results, errata, entries, words),
        r"\section{Errata that change a result, a definition or a proof}\label{sec:substantive}",
        "What is wrong is said in the summary. For a result or a definition we give the printed text, the correction, "
        "proved for every parameter it names, and the violation its counterexample establishes; for a gap in a "
        "printed proof, the correction.",
        "",
    ]
    for _, row in serious.iterrows():
        lines += _substantive(row, repository_url, words)
    lines += _improvement(results, words)
    cited_in_main = list(words.cited)  # by the substantive errata and the improvement
    lines += _slips(slips, replaced, repository_url, words)
    lines += [
        r"\section{Re-checking and replying}\label{sec:reply}",
        "Each counterexample is a file of numbers, its certificate. The repository's checker recomputes the "
        "violation in exact rational arithmetic, or in rigorous interval arithmetic where a logarithm or a root "
        "enters, taking the statement, its formula and its variables from its own code, never from the file"
        + (
            rf"; the files are in the repository, \href{{{repository_url}}}{{\nolinkurl{{{repository_url}}}}}"
            if repository_url
            else "; each file is attached to this PDF (its link opens it)"
        )
        + ". The repository's report has every statement we checked, with its argument and its checks; its findings "
        "add our remarks on statements that hold but whose wording, range or citation should change. Please send "
        "replies, objections and corrections as an issue of the repository"
        + (
            rf" (\href{{{repository_url}}}{{\nolinkurl{{{repository_url}}}}})"
            if repository_url
            else " the note came with (sparseact), or to whoever sent it to you"
        )
        + ".",
        "",
        r"\appendix",
        r"\footnotesize",
    ]
    lines += _families(serious, entries, words)
    cited_in_main += [sid for sid in words.cited if sid not in cited_in_main]  # by the slips and the family proofs
    lines += _cited(cited_in_main, results, errata, words)
    return "\n".join([*lines, r"\end{document}", ""])


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


def _check_attachable(path: Path, certificates: Path) -> None:
    """``ValueError`` unless ``path`` is a certificate the ledger wrote: a file of its own (not a hard link to another
    file) holding the certificate of the check its path names, so that no other file's contents reach the PDF."""
    check_id = path.relative_to(certificates).with_suffix("").as_posix()
    try:
        info = path.lstat()
        if not stat.S_ISREG(info.st_mode):
            raise ValueError("not a regular file")
        if info.st_nlink != 1:
            raise ValueError("a hard link")
        data = json.loads(path.read_text(encoding="utf-8"))
        if not isinstance(data, dict) or data.get("check_id") != check_id:
            raise ValueError(f"not the certificate of {check_id}")
    except (OSError, UnicodeDecodeError, ValueError, RecursionError) as exc:
        raise ValueError(f"{path}: {exc}: the note attaches only the ledger's certificate files") from None


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
        linked = (
            certificates
            if certificates.is_symlink()
            else next((p for p in certificates.rglob("*") if p.is_symlink()), None)
            if certificates.is_dir()
            else None
        )
        if linked is not None:
            raise ValueError(f"{linked} is a symbolic link: the note attaches only the results' own certificate files")
        copied = work / "certificates"
        for path in sorted(certificates.rglob("*.json")) if certificates.is_dir() else []:
            _check_attachable(path, certificates)
            target = copied / path.relative_to(certificates)  # the certificate files alone, never another entry
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(path, target)
        for path in [copied, *copied.rglob("*")] if copied.is_dir() else []:
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
                # TeX's error lines: in its log, or on stderr when it stopped before writing them there (a line
                # beyond its buffer); else the last line it printed
                said = [line.strip() for line in (log + "\n" + done.stderr).splitlines() if line.startswith("!")]
                last = [line.strip() for line in done.stdout.splitlines() if line.strip()][-1:] or ["no output"]
                raise RuntimeError(f"{engine} failed on {tex}: {' '.join(said or last)}")
        pdf = tex.with_suffix(".pdf")
        shutil.copy(Path(work) / pdf.name, pdf)
    return pdf, log
