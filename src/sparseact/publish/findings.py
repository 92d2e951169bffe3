r"""The answer to a reader, in Markdown: ``results/findings.md`` and README's generated block.

Both read the result files of the statements engine (``statements.csv``,
``headline.csv``, ``errata.csv``, ``tightness.csv``, ``sharper.csv``) and ``ledger.csv`` from one
results directory, and type nothing themselves:

* :func:`findings_markdown` opens with the bottom line (:func:`bottom_line`), the counts of the
  paper's printed statements (the project's own counted apart), the headline table (the paper's
  main results, each with its status, what it costs the authors in the paper's notation and its
  errata), the results sharper than printed and the open results by name; then the errata by root
  cause (with the classes legend), tightness, and the statements still open;
* :func:`readme_block` is the same first screen, for README's block between
  :data:`sparseact.publish.statements.README_START` and ``README_END``.

Counts cover the paper's statements only (``origin`` ``paper``); the project's own statements
(sharper forms, corrections, a meta-claim) are counted apart.

Math stays ``$...$`` TeX, written so that a code host's Markdown renderer keeps
it intact (:func:`markdown_math`): ``\{``/``\}`` become ``\lbrace``/``\rbrace``
(a renderer that does not know math strips the backslash before a brace) and
``|``/``\|`` become ``\vert``/``\Vert`` (a pipe ends a table cell).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

import pandas as pd

from sparseact.paper import paper_position
from sparseact.paper import statements as paper_statements
from sparseact.publish.cells import number_parts
from sparseact.publish.ledger import certificate_view
from sparseact.publish.mathtext import markdown_math
from sparseact.publish.notepdf import note_link
from sparseact.publish.site import SITE_ENTRY, SITE_FOLDER, SITE_SERVING
from sparseact.publish.statements import (
    CONJECTURED,
    CONSEQUENCES,
    HOLDS_OUTSIDE_CORNERS,
    STATUS_DEFINITIONS,
    degenerate_corners,
    first_sentence,
    proved_correction,
    short_ref,
    verified_clause,
)
from sparseact.verify.verdicts import FINDING_DEFINITIONS

_NUMBER = re.compile(r"^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$")


@dataclass(frozen=True)
class Results:
    """The result tables of one run (every cell a string; empty when not applicable)."""

    statements: pd.DataFrame
    headline: pd.DataFrame
    errata: pd.DataFrame
    tightness: pd.DataFrame
    ledger: pd.DataFrame
    sharper: pd.DataFrame

    @property
    def printed(self) -> pd.DataFrame:
        """The paper's statements (``origin`` ``paper``): what the counts cover."""
        return self.statements[self.statements["origin"] == "paper"]

    @property
    def own(self) -> pd.DataFrame:
        """The project's own statements, counted apart."""
        return self.statements[self.statements["origin"] != "paper"]


#: The result tables :func:`load_results` reads, in the order of :class:`Results`.
RESULT_TABLES = ("statements", "headline", "errata", "tightness", "ledger", "sharper")


def load_results(results_dir: str | Path) -> Results:
    """Read ``statements.csv``, ``headline.csv``, ``errata.csv``, ``tightness.csv``, ``ledger.csv`` and
    ``sharper.csv``."""
    directory = Path(results_dir)

    def read(name: str) -> pd.DataFrame:
        return pd.read_csv(directory / f"{name}.csv", dtype=str, keep_default_na=False)

    return Results(*(read(name) for name in RESULT_TABLES))


def ids(cell: str) -> list[str]:
    """The ids of a ``; ``-separated cell."""
    return [item.strip() for item in str(cell).split(";") if item.strip()]


def readable(cell) -> str:
    """A table cell as a reader wants it: 4 significant digits (powers of ten as ``10^k``), yes/no, no Python literals."""
    text = str(cell).strip()
    if text in ("True", "False"):
        return "yes" if text == "True" else "no"
    if text.lower() in ("nan", "none"):
        return ""
    if not _NUMBER.match(text):
        return text
    mantissa, exponent = number_parts(float(text))
    if exponent is None:
        return mantissa
    times = r" \times " if mantissa.strip("-") else ""
    return f"${mantissa}{times}10^{{{exponent}}}$"


def _table(header: list[str], rows: list[list[str]]) -> list[str]:
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(markdown_math(cell) for cell in row) + " |" for row in rows]
    return lines


def status_text(status: str, finding_class: str = "", on_range: str = "") -> str:
    """A status as read, its class in words (:data:`FINDING_WORDS`): ``fails as stated (a slip in the proof)``,
    ``holds on range ($n \\le 20$)``."""
    words = status.replace("-", " ")
    detail = FINDING_WORDS.get(finding_class, finding_class) if finding_class else on_range
    return f"{words} ({detail})" if detail else words


def status_clause(status: str, finding_class: str = "", on_range: str = "") -> str:
    """A status as the rest of a sentence about the statement: ``is proved``, ``is open``, ``fails as stated
    (a slip in the proof)``, ``holds on range ($n \\le 20$)`` (:func:`status_text` after "is" only where it is not a verb)."""
    text = status_text(status, finding_class, on_range)
    return text if status in ("fails-as-stated", "holds-on-range") else f"is {text}"


def _statement(results: Results, statement_id: str) -> pd.Series:
    rows = results.statements[results.statements["statement_id"] == statement_id]
    if not len(rows):
        raise ValueError(f"statement {statement_id!r} is not in statements.csv")
    return rows.iloc[0]


def headline_markdown(results: Results, errata_link: str, claim_link: str) -> list[str]:
    """The headline table: one row per main result (``headline.csv``, paper order).

    ``errata_link`` and ``claim_link`` are format strings with ``{id}`` (the erratum id or claim id).
    """
    rows = []
    for _, row in results.headline.iterrows():
        statement = _statement(results, row["statement_id"])
        errata = ", ".join(f"[{e}]({errata_link.format(id=e)})" for e in ids(row["errata"])) or "none"
        rows.append(
            [
                f"**{row['paper_ref']}** ([claim]({claim_link.format(id=row['claim_id'])}))",
                f"**{status_text(row['status'], statement['class'], statement['range'])}**",
                f"{row['cost']} {row['proof']}".strip(),
                errata,
            ]
        )
    return _table(["result", "status", "what it costs the authors", "errata"], rows)


#: How the paper's statements other than its main results are grouped in the counts: (what a reader calls them,
#: the statement kinds of :data:`sparseact.paper.KINDS`).
KIND_GROUPS = (
    ("other theorems, lemmas and claims", ("theorem", "lemma", "claim")),
    ("conjectures", ("conjecture",)),
    ("proof steps", ("proof-step",)),
    ("equations", ("equation",)),
    ("definitions, constructions and remarks", ("definition", "construction", "remark")),
    ("introduction, abstract and discussion sentences", ("introduction", "abstract", "discussion")),
)


def _plural(count: int, word: str, plural: str = "") -> str:
    return f"{count} {word if count == 1 else plural or word + 's'}"


def _statuses(frame: pd.DataFrame) -> str:
    counts = frame["status"].value_counts()
    return ", ".join(f"{int(counts.get(s, 0))} {status_text(s)}" for s in STATUS_DEFINITIONS if counts.get(s, 0))


def _by_class(errata: pd.DataFrame) -> str:
    classes = errata["class"].value_counts()
    return ", ".join(f"{c} {int(classes[c])}" for c in FINDING_DEFINITIONS if c in classes) or "none"


def counts_line(results: Results) -> str:
    """How many of the paper's printed statements have each status (main results and the rest, by kind), how many
    errata (by class) the run found, and the project's own statements counted apart."""
    printed = results.printed
    main = set(results.headline["statement_id"])
    rest = printed[~printed["statement_id"].isin(main)]
    grouped = [(label, int(rest["kind"].isin(kinds).sum())) for label, kinds in KIND_GROUPS]
    other = len(rest) - sum(count for _, count in grouped)
    parts = [f"{len(main)} main results", *(f"{count} {label}" for label, count in grouped if count)]
    if other:
        parts.append(f"{other} other")
    own = results.own
    return (
        f"Of the paper's {len(printed)} printed statements we track ({', '.join(parts)}): "
        f"{_statuses(printed)}. {len(results.errata)} errata by root cause ({_by_class(results.errata)}), "
        f"resting on {len(results.ledger)} checks. Counted apart, the project's own "
        f"{_plural(len(own), 'statement')} (sharper forms, corrected forms, a meta-claim): {_statuses(own)}."
    )


def _names(refs, counted: bool = False) -> str:
    """The short references, each once (with ``counted``, ``Section 1 (5 statements)`` when several share one),
    joined for reading (with semicolons when a name has a comma)."""
    counts = pd.Series([short_ref(r) for r in refs], dtype=str).value_counts()
    names = [
        name if counts[name] == 1 or not counted else f"{name} ({counts[name]} statements)"
        for name in dict.fromkeys(short_ref(r) for r in refs)
    ]
    if len(names) <= 2:
        return " and ".join(names)
    if any("," in name for name in names):
        return "; ".join(names[:-1]) + "; and " + names[-1]
    return ", ".join(names[:-1]) + " and " + names[-1]


def bottom_line(results: Results) -> str:
    """Three or four sentences, composed from the tables: what holds, what fails and what repairing it takes, what is
    open, and what the project proves beyond the paper."""
    printed, main = results.printed, results.headline
    holding = main[main["status"] == "proved"]
    ranged = main[main["status"] == "holds-on-range"]
    failing_main = main[main["status"] == "fails-as-stated"]
    open_main = main[main["status"] == "open"]
    counts = printed["status"].value_counts()
    proved, on_range = int(counts.get("proved", 0)), int(counts.get("holds-on-range", 0))
    sentences = [
        f"Of the paper's {_plural(len(main), 'main result')}, "
        + (
            f"{_names(holding['paper_ref'])} {'is' if len(set(map(short_ref, holding['paper_ref']))) == 1 else 'are'}"
            " proved"
            if len(holding)
            else "none is proved"
        )
        + (
            f", {_names(ranged['paper_ref'])} {'holds' if len(set(map(short_ref, ranged['paper_ref']))) == 1 else 'hold'}"
            " on the instances enumerated"
            if len(ranged)
            else ""
        )
        + f"; in all {proved} of its {len(printed)} printed statements are proved"
        + (f" and {on_range} hold{'s' if on_range == 1 else ''} on the range enumerated" if on_range else "")
        + "."
    ]
    failing = printed[printed["status"] == "fails-as-stated"]
    if len(failing):
        repaired = failing[failing["survives"].str.startswith("yes")]
        unrepaired = failing[~failing["survives"].str.startswith("yes")]
        sentences.append(
            (
                f"{_names(failing_main['paper_ref'])} fail{'s' if len(set(map(short_ref, failing_main['paper_ref']))) == 1 else ''}"
                " as printed, "
                if len(failing_main)
                else "No main result fails; "
            )
            + f"{_plural(len(failing), 'printed statement')} in all, from {_plural(len(results.errata), 'root cause')} "
            f"({_by_class(results.errata)}); {verified_clause(results.errata)}, "
            f"and {len(repaired)} of the {len(failing)} failing statements have a corrected form proved here"
            + (f" (not {_names(unrepaired['paper_ref'])})" if len(unrepaired) else "")
            + "."
        )
    else:
        sentences.append("No printed statement fails.")
    opened = printed[printed["status"] == "open"]
    if len(opened):
        sentences.append(
            f"{_plural(len(opened), 'statement')} {'is' if len(opened) == 1 else 'are'} open, "
            f"no finite computation can settle {'it' if len(opened) == 1 else 'them'}: "
            f"{_names(opened['paper_ref'], counted=True)}"
            + (f" (among the main results {_names(open_main['paper_ref'])})" if len(open_main) else "")
            + "."
        )
    if len(results.sharper):
        sentences.append(
            f"Beyond the paper, the project proves sharper forms of {_names(results.sharper['paper_ref'])}"
            ", listed below with the families that attain them."
        )
    return " ".join(sentences)


def tightness_of(row: pd.Series, text=str) -> str:
    """How tight a sharper result (a ``sharper.csv`` row) is: the family that attains it (or proved / measured on
    it) and printed / proved on the same instances; ``text`` formats the family's description."""
    measured = []
    if row["family"]:
        ratio = readable(row["proved_over_family"])
        measured.append(
            f"attained by {text(row['family'])}"
            if ratio == "1"
            else f"the proved bound is {ratio} times the value on {text(row['family'])}"
        )
    if row["printed_over_proved"]:
        measured.append(f"there the printed bound is {readable(row['printed_over_proved'])} times the proved one")
    return "; ".join(measured)


def sharper_items(results: Results) -> list[tuple[str, str, str]]:
    """The project's results sharper than printed, one per line: (where, the statement with the ratios on the same
    instances, statement id)."""
    items = []
    for _, row in results.sharper.iterrows():
        tightness = tightness_of(row)
        items.append(
            (row["paper_ref"], row["statement"] + (f" ({tightness})" if tightness else ""), row["statement_id"])
        )
    return items


def open_items(results: Results) -> list[tuple[str, str]]:
    """The paper's open statements by name, in paper order, each with why no finite computation settles it (its
    first sentence)."""
    rows = results.printed[results.printed["status"] == "open"]
    return sorted(
        ((r["paper_ref"], first_sentence(r["reason"]) + ".") for _, r in rows.iterrows()),
        key=lambda item: paper_position(item[0]),
    )


def sharper_markdown(results: Results) -> list[str]:
    """:func:`sharper_items` as a Markdown list."""
    return [
        markdown_math(f"- **{where}**, sharper: {text} [`sparseact explain {sid}`]")
        for where, text, sid in sharper_items(results)
    ] or ["None."]


def open_markdown(results: Results) -> list[str]:
    """:func:`open_items` as a Markdown list."""
    return [markdown_math(f"- **{where}**: {why}") for where, why in open_items(results)] or ["None."]


def first_screen_markdown(results: Results, errata_link: str, claim_link: str) -> list[str]:
    """The bottom line, the counts, the headline table, the sharper results and the open results."""
    lines = [f"**Bottom line.** {markdown_math(bottom_line(results), in_table=False)}", "", counts_line(results), ""]
    lines += headline_markdown(results, errata_link=errata_link, claim_link=claim_link)
    lines += [
        "",
        "**Sharper than printed** (the project's own results):",
        "",
        *sharper_markdown(results),
        "",
        "**Open** (why each is open):",
        "",
        *open_markdown(results),
    ]
    return lines


def legend_markdown() -> list[str]:
    """The statuses and the classes of errata, one line each."""
    lines = [
        "**Statuses.** " + "; ".join(f"*{s}*: {d}" for s, d in STATUS_DEFINITIONS.items()) + ".",
        "",
        "**Classes of errata.** " + "; ".join(f"*{c}*: {d}" for c, d in FINDING_DEFINITIONS.items()) + ".",
    ]
    return lines


def erratum_markdown(row: pd.Series, certificate_prefix: str) -> list[str]:
    """One erratum: where, what is printed, why it fails, the certificate's counterexample, the correction."""
    certificates = ", ".join(
        f"[{Path(c).stem}]({certificate_prefix}{certificate_view(c)})" for c in ids(row["certificates"])
    )
    correction = row["correction"] or "none proposed"
    if row["verified_by"]:
        correction += (
            f" (an open conjecture: `{row['verified_by']}` tests instances only, evidence rather than a proof)"
            if row["verified"] == CONJECTURED
            else f" (verified by `{row['verified_by']}`: **{row['verified']}**)"
        )
    refutation = row.get("refuted_by", "")
    why = (
        [
            f"- **Refutation** (proved: `{refutation}`): {markdown_math(row['counterexample'], in_table=False)}",
            f"- **Proof:** {markdown_math(row['explanation'], in_table=False)}",
        ]
        if refutation
        else [
            f"- **Why it fails:** {markdown_math(row['explanation'], in_table=False)}",
            f"- **Counterexample** (from the certificate): {markdown_math(row['counterexample'], in_table=False)}",
        ]
    )
    proofs = certificates or (f"the proof of `{refutation}`" if refutation else "none")
    parts = [
        f'<a id="erratum-{row["erratum_id"]}"></a>',
        f"#### {row['location']} — {row['class']}",
        "",
        f"- **Consequence:** {CONSEQUENCES[row['consequence']]}"
        + (f" ({row['consequence_detail']})" if row.get("consequence_detail") else ""),
        f"- **Printed:** {markdown_math(row['printed'], in_table=False)}",
        *why,
        f"- **Correction:** {markdown_math(correction, in_table=False)}",
        f"- **Statements:** {', '.join(f'`{s}`' for s in ids(row['statements']))}; "
        f"**certificates:** {proofs}; "
        f"erratum id `{row['erratum_id']}`",
        "",
    ]
    return parts


def tightness_rows(results: Results) -> list[tuple[str, str, list[str]]]:
    """The tightness table as read: (where, bound id, [printed, proved, measured on, printed / proved,
    proved / measured, exponents, gap, method]), numbers formatted for reading."""
    rows = []
    for _, row in results.tightness.iterrows():
        exponents = "; ".join(
            f"{label} {row[f'exponents_{label}']}"
            for label in ("printed", "proved", "measured")
            if row[f"exponents_{label}"]
        )
        rows.append(
            (
                row["paper_ref"],
                row["bound"],
                [
                    row["printed"],
                    row["proved"],
                    f"{row['family']}: {readable(row['family_value'])}" if row["family"] else "",
                    readable(row["printed_over_proved"]),
                    readable(row["proved_over_family"]),
                    exponents,
                    row["gap"],
                    row["method"],
                ],
            )
        )
    return rows


TIGHTNESS_HEADER = [
    "bound",
    "printed",
    "proved",
    "measured on",
    "printed / proved",
    "proved / measured",
    "exponents",
    "gap",
    "method",
]


def findings_markdown(results_dir: str | Path) -> str:
    """``findings.md``: headline table, errata by root cause (with the legend), tightness, open statements.

    Links are relative to ``results_dir`` (where findings.md lives).
    """
    results = load_results(results_dir)
    lines = [
        "# Findings",
        "",
        "Generated from the run's result files by `sparseact ledger`; nothing here is typed by hand. The note "
        "for the authors: [erratum/erratum.tex](erratum/erratum.tex) (the report and the README link its PDF "
        "once TeX has compiled it from this note).",
        "",
        "## Headline results",
        "",
    ]
    lines += first_screen_markdown(results, errata_link="#erratum-{id}", claim_link="notebooks/{id}.ipynb")
    lines += ["", *legend_markdown(), "", "## Errata by root cause", ""]
    if len(results.errata):
        for finding_class in FINDING_DEFINITIONS:
            group = results.errata[results.errata["class"] == finding_class]
            if len(group):
                lines += [f"### {finding_class} ({len(group)})", "", f"*{FINDING_DEFINITIONS[finding_class]}*", ""]
                for _, row in group.iterrows():
                    lines += erratum_markdown(row, certificate_prefix="")
    else:
        lines += ["No erratum.", ""]
    lines += ["## Tightness", ""]
    rows = [[f"**{where}** `{bound}`", *cells] for where, bound, cells in tightness_rows(results)]
    lines += _table(TIGHTNESS_HEADER, rows) if rows else ["No bound measured."]
    lines += ["", *remarks_markdown(results)]
    open_rows = results.statements[results.statements["status"] == "open"]
    lines += ["", f"## Open statements ({len(open_rows)})", ""]
    lines += (
        _table(
            ["where", "statement", "what would settle it"],
            [[r["paper_ref"], r["statement"], r["reason"]] for _, r in open_rows.iterrows()],
        )
        if len(open_rows)
        else ["None."]
    )
    return "\n".join(lines) + "\n"


def remarks_markdown(results: Results) -> list[str]:
    """The remarks to the authors (``remark`` in the statement files): a wording, range, citation or derivation of a
    statement that should change although its errata, if any, do not cover the point; in paper order, with status."""
    status = dict(zip(results.statements["statement_id"], results.statements["status"], strict=True))
    remarked = sorted(
        (e for e in paper_statements() if e.get("remark") and e["id"] in status),
        key=lambda e: paper_position(e["paper_ref"]),
    )
    return [
        f"## Remarks to the authors ({len(remarked)})",
        "",
        *(
            markdown_math(f"- **{e['paper_ref']}** ({status[e['id']]}): {e['remark']} [`sparseact explain {e['id']}`]")
            for e in remarked
        ),
    ]


def in_corner(results: Results, sid: str, entry: dict) -> list[str]:
    """The checks that find the statement ``sid`` (its statement file ``entry``) failing only in a degenerate corner,
    where a printed logarithm is below 1 (:func:`sparseact.publish.statements.degenerate_corners`)."""
    ledger = results.ledger
    out_of_range = set(ledger.loc[(ledger["verdict"] == "FAIL") & (ledger["finding"] == "out-of-range"), "check_id"])
    return degenerate_corners(entry, ids(_statement(results, sid)["checks"]), out_of_range)


#: Where a statement holds as printed when it fails only where a printed logarithm is below 1 (the corner rule).
CORNER_PHRASE = "wherever its logarithms are at least 1"


def what_changes(results: Results, row: pd.Series, errata_link: str, corner: str = f" {CORNER_PHRASE}") -> str:
    """One line on what a main result's status means for the authors, in words: whether it holds as printed (and on
    what it rests), how many repairs its printed proof needs, or how it fails and whether a correction is proved.
    ``corner`` stands where it holds only outside the degenerate corners (:data:`CORNER_PHRASE`, or a table's mark)."""
    statement = _statement(results, row["statement_id"])
    errata = ids(row["errata"])
    repairs = (
        f"; its printed proof needs [{_plural(len(errata), 'repair')}]({errata_link.format(id=errata[0])})"
        if errata
        else ""
    )
    if row["status"] == "proved":
        given = re.search(r"given (.+?) \(open\)", row["cost"])
        premise = given.group(1) if given else ""
        premise = f"a corrected {_CORRECTED_GLOSS.sub('', premise)}" if _CORRECTED_GLOSS.search(premise) else premise
        given = f", given {premise}, which is open" if premise else ""
        return f"Holds as printed{corner if row['cost'].startswith(HOLDS_OUTSIDE_CORNERS) else ''}{given}{repairs}."
    if row["status"] == "holds-on-range":
        counted = re.search(r"\((\d+) in \d+ checks?\)", statement["reason"])
        checked = f"{counted.group(1)} instances" if counted else statement["range"].split(";")[0]
        entry = next((e for e in paper_statements() if e["id"] == row["statement_id"]), {})
        corner = corner if in_corner(results, row["statement_id"], entry) else ""
        if proved_correction(entry, results.statements.set_index("statement_id")["status"]):
            return (
                f"A corrected form is proved for every parameter; the printed one holds{corner} on the {checked} "
                f"checked{repairs}."
            )
        return f"Holds{corner} on every instance checked ({checked}); no proof covers every parameter{repairs}."
    if row["status"] == "fails-as-stated":
        link = f"[{FINDING_WORDS.get(statement['class'], statement['class'])}]({errata_link.format(id=errata[0])})"
        return f"Fails as printed ({link}); {repair_words(statement['survives'])}."
    return f"Open: {first_sentence(statement['reason'])}."


#: A corrected premise's gloss, ``Conjecture 16 (corrected: the form ... needs)``, read ``a corrected Conjecture 16``.
_CORRECTED_GLOSS = re.compile(r" \(corrected: [^()]*\)")


def repair_words(survives: str) -> str:
    """What survives of a statement that fails as printed (its ``survives`` column), in words: "a weaker corrected
    form is proved", "a corrected form is proved", "the natural repair is itself a conjecture" or "no corrected form
    is proved"."""
    if survives.startswith("yes, in a weaker form"):
        return "a weaker corrected form is proved"
    if survives.startswith("yes"):
        return "a corrected form is proved"
    if survives.startswith("open"):
        return "the natural repair is itself a conjecture"
    return "no corrected form is proved"


#: A class of errata in a reader's words, for the README's one line.
FINDING_WORDS = {
    "statement-error": "the statement is wrong",
    "constant-factor": "a constant",
    "proof-slip": "a slip in the proof",
    "typo": "a typo",
    "out-of-range": "outside its range",
}


#: A main result's gloss after its first clause: ``Theorem 3 (first part; Section 1, ...)`` -> ``Theorem 3 (first part)``.
_GLOSS_TAIL = re.compile(r" [(]([^;()]*);[^()]*[)]$")


def brief_ref(paper_ref: str) -> str:
    """A place in the paper with its gloss cut after the first clause (:data:`_GLOSS_TAIL`), as the README names it."""
    return _GLOSS_TAIL.sub(r" (\1)", paper_ref)


#: The README table's mark for :data:`CORNER_PHRASE`, said once under the table (:data:`CORNER_NOTE`).
CORNER_MARK = "†"
#: What :data:`CORNER_MARK` stands for, under the README table.
CORNER_NOTE = (
    f"{CORNER_MARK} {CORNER_PHRASE.capitalize()}: one below 1 can make a printed bound vanish or turn negative, "
    "and [one rule](docs/statements-graph.md#degenerate-corners-one-rule-for-every-statement) reads every statement there."
)


def readme_table(results: Results, errata_link: str) -> list[str]:
    """The README's headline: each main result, its status and :func:`what_changes` (the corner phrase a mark, said
    once under the table when a row carries it), with no formula and no id."""
    rows = [
        [
            "**" + brief_ref(row["paper_ref"]) + "**",
            status_text(row["status"]),
            what_changes(results, row, errata_link, corner=CORNER_MARK),
        ]
        for _, row in results.headline.iterrows()
    ]
    marked = any(CORNER_MARK in row[2] for row in rows)
    return _table(["result", "status", "what changes for the authors"], rows) + (["", CORNER_NOTE] if marked else [])


def readme_block(results_dir: str | Path, link_prefix: str = "results/") -> str:
    """README's generated block: the headline table, the results sharper than printed by name, and where to read the
    rest (links relative to the repository root)."""
    results = load_results(results_dir)
    note = note_link(results_dir)
    note_kind = "PDF" if note.endswith(".pdf") else "LaTeX; its PDF is stale or not compiled"
    lines = readme_table(results, errata_link=f"{link_prefix}findings.md#erratum-{{id}}")
    if len(results.sharper):
        lines += [
            "",
            f"**Sharper than printed**: the project proves sharper forms of {_names(results.sharper['paper_ref'])}, "
            f"listed with the families that attain them in [findings]({link_prefix}findings.md#headline-results).",
        ]
    lines += [
        "",
        f"**Read on:** [the note for the authors ({note_kind})]({link_prefix}{note}) · "
        f"[findings]({link_prefix}findings.md) (every erratum with its certificates, tightness, open statements) · "
        f"[every statement]({link_prefix}statements.md) · the rendered report, argument graph, claim and certificate "
        f"pages in [{SITE_FOLDER}]({SITE_FOLDER}) (open `{SITE_ENTRY}` from a clone, or [serve it]({SITE_SERVING})).",
    ]
    return "\n".join(lines) + "\n"
