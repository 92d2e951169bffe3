"""The paper as data: its statements, the textbook facts they rest on, and the root causes of its errata.

The YAML files are the project's reading of the paper (format:
``docs/statements-graph.md``):

``sparseact/claims/<claim_id>/statements.yaml``
    The statements the claim ``<claim_id>`` bears on, in paper order (in the claim's folder).
``facts/*.yaml`` (this package)
    Cited textbook facts (Parseval, Hoeffding, Cover's count, ...), each with
    its citation and the exact checks that test it on instances.
``sparseact/claims/<claim_id>/errata.yaml``
    The root causes of the FAILs whose printed statement (``printed``) is one of the claim's: location, printed
    text, correction and the check that verifies the correction (the class, the explanation and the
    counterexample come from the certificates). Their order is no file's: ``errata.csv`` and the note sort them by
    declared keys (:func:`sparseact.publish.statements.errata_by_cause`).

This module only reads and validates them (no numerical code), so that the
claim modules and the workflow can load it cheaply. How statuses follow from
the data and the ledger is :mod:`sparseact.publish.statements`.
"""

from __future__ import annotations

import math
import re
from functools import cache
from pathlib import Path

import yaml

from sparseact._yaml import read_yaml
from sparseact.paper import markup
from sparseact.paper.domains import parse_domain as _parse_domain

__all__ = [
    "APPENDIX_OFFSET",
    "CLAIMS_DIR",
    "DATA_DIR",
    "ERRATA_FILE",
    "ERRATUM_KEYS",
    "FACT_KEYS",
    "FACT_PREFIX",
    "FIRST_ITEM_OF_SECTION",
    "KINDS",
    "MAX_NAME_CHARS",
    "OPEN_KINDS",
    "ORIGINS",
    "PROOF_PRINTED_AFTER",
    "REFUTED_CLASSES",
    "SHARPER_KEYS",
    "STATEMENTS_FILE",
    "STATEMENT_KEYS",
    "SUBSECTION_AFTER",
    "data_files",
    "errata",
    "facts",
    "name",
    "origin",
    "paper_position",
    "paper_ref",
    "premise_kind",
    "statement",
    "statement_files",
    "statements",
]

#: Folder of the facts.
DATA_DIR = Path(__file__).resolve().parent
#: Folder of the claim folders, each with its ``statements.yaml``.
CLAIMS_DIR = DATA_DIR.parent / "claims"
#: A claim's statement file, relative to its folder.
STATEMENTS_FILE = "statements.yaml"
#: A claim's errata file, relative to its folder: the root causes of the FAILs of its printed statements (optional).
ERRATA_FILE = "errata.yaml"

#: What a statement can be.
KINDS = (
    "theorem",
    "lemma",
    "claim",
    "conjecture",
    "remark",
    "equation",
    "construction",
    "proof-step",
    "introduction",
    "discussion",
    "definition",
    "abstract",
    "derived",
    "meta",
)
#: Why a statement can be open: no finite computation settles a conjecture, a lower bound over all
#: algorithms, an O() bound with no explicit constant whose proof is not in the graph, or an
#: observation about models outside the paper's class.
OPEN_KINDS = ("conjecture", "all-algorithms", "hidden-constant", "empirical")
#: Keys a statement entry may have (``id``, ``paper_ref``, ``kind``, ``statement`` are required).
STATEMENT_KEYS = (
    "id",
    "paper_ref",
    "title",
    "kind",
    "statement",
    "quantifiers",
    "main",
    "proof_of",
    "argument",
    "open",
    "open_kind",
    "correction",
    "note",
    "origin",
    "sharper",
    "hypothesis",
    "refuted_by",
    "refuted_class",
    "remark",
    "domain",
    "floored_by",
)
#: The classes a statement refuted by a proof may declare (``refuted_class``; statement-error when it declares none):
#: the finding classes of a FAIL other than the degenerate corner.
REFUTED_CLASSES = ("statement-error", "constant-factor", "proof-slip", "typo")
#: Whose statement it is: printed in the paper, or the project's own (a derived result, a meta-claim about many
#: printed statements). A statement of kind ``derived`` is the project's; any other is the paper's unless it says
#: ``origin: project``.
ORIGINS = ("paper", "project")
#: Keys of a statement's ``sharper`` entry: the paper's statement it sharpens, and (optionally) the ``bound`` of the
#: ``tightness.csv`` row that measures it and the ``gist``, the improvement in one line for the note's summary.
SHARPER_KEYS = ("than", "tightness", "gist")
FACT_KEYS = ("id", "name", "statement", "citation", "checks", "cite")
ERRATUM_KEYS = ("id", "location", "gist", "printed", "correction", "verified_by", "checks")
#: Prefix of a fact id.
FACT_PREFIX = "fact:"


#: The paper's sections (PMLR version) by the first numbered item each holds (items are numbered through the paper:
#: Definitions 1-2 and Theorems 3-5 in Section 1, ..., Theorem 17 to Conjecture 20 in Section 5); Section 6 has none.
FIRST_ITEM_OF_SECTION = {1: 1, 2: 6, 3: 8, 4: 12, 5: 17, 6: 21}
#: Where an appendix comes in :func:`paper_position` (after Section 6).
APPENDIX_OFFSET = 100


#: Proofs printed after a later item: the proof of Theorem 8 follows Lemma 10.
PROOF_PRINTED_AFTER = {8: 10}
#: The paper's unnumbered subsections, by the numbered item they follow.
SUBSECTION_AFTER = {
    "Hardness under arbitrary distributions": 13,
    "Cryptographic hardness": 14,
    "Generalization to k-sparsely activated networks": 19,
}
_ITEM = re.compile(r"(?:Theorem|Lemma|Definition|Conjecture|Remark|Claim|Corollary) (\d+)")
_SECTION = re.compile(r"Sections? (\d+)")
_APPENDIX = re.compile(r"Appendix ([A-Z])")
_EQUATION = re.compile(r"eqs?\. \((\d+)\)")
_PLACE = re.compile(
    r"\((?:[^()]*\b)?(after|before|around) (?:the )?(?:Theorem|Lemma|Definition|Conjecture|Remark) (\d+)"
)


def paper_position(reference: str) -> tuple:
    """Sort key of a paper reference in reading order: (part, place in the part, equation, text).

    The part is the abstract, a section or an appendix (after Section 6: :data:`APPENDIX_OFFSET`). A reference that
    starts with a numbered item (``Lemma 18 (Section 5)``, ``Theorem 19 (proof), eq. (12)``) stands at the item's
    number in the section that holds it (:data:`FIRST_ITEM_OF_SECTION`; Claim 2.1 before Lemma 6; a proof printed
    after a later item, :data:`PROOF_PRINTED_AFTER`, after that item). One that starts with a section (``Section 2.1
    (after Lemma 7)``) stands after the item its subsection follows (:data:`SUBSECTION_AFTER`), just after or before
    the item it names, at the section's opening when it says ``opening`` and at its end otherwise. Within a place,
    the first equation named orders (a proof's last line or final bound after its equations), then the text.
    """
    text = str(reference)
    return (*_paper_place(text), _equation_number(text), text)


def _equation_number(text: str) -> float:
    if "last line" in text or "final bound" in text:
        return math.inf
    equation = _EQUATION.search(text)
    return int(equation.group(1)) if equation else 0


def _paper_place(text: str) -> tuple[int, float]:
    if text.startswith("Abstract"):
        return (0, 0.0)
    appendix = _APPENDIX.match(text)
    if appendix:
        return (APPENDIX_OFFSET + ord(appendix.group(1)), 0.0)
    item = _ITEM.match(text)
    if item:
        number = int(item.group(1))
        if text.startswith("Claim"):  # Claim 2.1, numbered by its section, stands before Lemma 6
            return (2, 5.5)
        section = max(s for s, first in FIRST_ITEM_OF_SECTION.items() if first <= number)
        if "(proof" in text and number in PROOF_PRINTED_AFTER:
            return (section, PROOF_PRINTED_AFTER[number] + 0.5)
        return (section, float(number))
    section = _SECTION.match(text)
    if section:
        where = int(section.group(1))
        subsection = next((after for name, after in SUBSECTION_AFTER.items() if name in text), None)
        if subsection is not None:
            return (where, subsection + 0.5)
        place = _PLACE.search(text)
        if place:
            offset = {"after": 0.5, "before": -0.5, "around": 0.0}[place.group(1)]
            return (where, int(place.group(2)) + offset)
        return (where, 0.0 if "opening" in text else math.inf)
    return (2 * APPENDIX_OFFSET, math.inf)  # anything else last


def premise_kind(identifier: str) -> str:
    """``"check"`` (``<claim>/<name>``), ``"fact"`` (``fact:<name>``) or ``"statement"``."""
    if not isinstance(identifier, str) or not identifier:
        raise TypeError(f"a premise id is a non-empty string, got {identifier!r}")
    if identifier.startswith(FACT_PREFIX):
        return "fact"
    return "check" if "/" in identifier else "statement"


def origin(entry: dict) -> str:
    """Whose statement ``entry`` is (:data:`ORIGINS`): its ``origin``, else ``project`` for kind ``derived`` and
    ``paper`` for any other kind."""
    return entry.get("origin") or ("project" if entry.get("kind") == "derived" else "paper")


def _load(path: Path, name: str) -> list[dict]:
    """The entries of the YAML file ``path``; errors name it as ``name``."""
    try:
        entries = read_yaml(path)
    except yaml.YAMLError as exc:
        raise ValueError(f"{name}: not valid YAML ({exc})") from None
    if not isinstance(entries, list) or not all(isinstance(e, dict) for e in entries):
        raise ValueError(f"{name}: expected a list of entries")
    for position, entry in enumerate(entries):
        markup.check_strings(entry, f"{name}, entry {position + 1} ({entry.get('id', '?')})")
    return entries


def _check_keys(entry: dict, allowed: tuple[str, ...], required: tuple[str, ...], where: str) -> None:
    unknown = sorted(set(entry) - set(allowed))
    if unknown:
        raise ValueError(f"{where}: unknown key {unknown[0]!r} (allowed: {', '.join(allowed)})")
    missing = [k for k in required if not entry.get(k)]
    if missing:
        raise ValueError(f"{where}: missing {missing[0]!r}")


#: The longest ``paper_ref`` or ``title``: a statement's name, wrapped on the graph's nodes and set in headings.
MAX_NAME_CHARS = 200


def _check_statement(entry: dict, where: str) -> None:
    _check_keys(entry, STATEMENT_KEYS, ("id", "paper_ref", "kind", "statement"), where)
    for key in ("id", "paper_ref", "title", "kind", "statement", "quantifiers", "remark", "open"):
        if key in entry and not isinstance(entry[key], str):
            raise ValueError(f"{where}: {key} must be text, got {type(entry[key]).__name__}")
    for key in ("paper_ref", "title"):
        if "$" in str(entry.get(key, "")):
            raise ValueError(f"{where}: {key} is plain text (it is shown where math is not typeset): no '$'")
        if len(str(entry.get(key, ""))) > MAX_NAME_CHARS:
            raise ValueError(f"{where}: {key} is a name of at most {MAX_NAME_CHARS} characters (it titles pages)")
    for key, value in entry.items():
        if isinstance(value, str) and any(ord(char) < 32 and char not in "\n\t" for char in value):
            raise ValueError(f"{where}: {key} holds a control character (TeX and the pages refuse it)")
    if entry["kind"] not in KINDS:
        raise ValueError(f"{where}: kind {entry['kind']!r} is not one of {', '.join(KINDS)}")
    if premise_kind(entry["id"]) != "statement":
        raise ValueError(f"{where}: a statement id has no '/' and does not start with {FACT_PREFIX!r}")
    if bool(entry.get("open")) != bool(entry.get("open_kind")):
        raise ValueError(f"{where}: 'open' (why) and 'open_kind' go together")
    if entry.get("open_kind") and entry["open_kind"] not in OPEN_KINDS:
        raise ValueError(f"{where}: open_kind {entry['open_kind']!r} is not one of {', '.join(OPEN_KINDS)}")
    argument = entry.get("argument")
    if argument is not None:
        if (
            not isinstance(argument, dict)
            or set(argument) - {"uses", "text"}
            or not argument.get("uses")
            or not argument.get("text")
        ):
            raise ValueError(f"{where}: argument needs 'uses' (a list of ids) and 'text'")
        for premise in argument["uses"]:
            premise_kind(premise)
    correction = entry.get("correction")
    if correction is not None:
        if (
            not isinstance(correction, dict)
            or set(correction) - {"text", "verified_by", "unproved"}
            or not correction.get("text")
            or not correction.get("verified_by")
            or not isinstance(correction.get("unproved", ""), str)
        ):
            raise ValueError(
                f"{where}: correction needs 'text' and 'verified_by' (a list of ids), and optionally 'unproved' (what "
                "of the printed statement the verified correction does not recover)"
            )
        if " ".join(correction["text"].split()) == " ".join(entry["statement"].split()):
            raise ValueError(f"{where}: the correction repeats the printed statement")
    if entry.get("origin") is not None and entry["origin"] not in ORIGINS:
        raise ValueError(f"{where}: origin {entry['origin']!r} is not one of {', '.join(ORIGINS)}")
    if entry["kind"] == "derived" and origin(entry) != "project":
        raise ValueError(f"{where}: a statement of kind 'derived' is the project's (origin: project)")
    if entry.get("remark") is not None and (not isinstance(entry["remark"], str) or origin(entry) != "paper"):
        raise ValueError(f"{where}: remark is a text for the authors about a printed statement")
    refuted_by = entry.get("refuted_by")
    if refuted_by is not None:
        if not isinstance(refuted_by, list) or not refuted_by or not all(isinstance(r, str) for r in refuted_by):
            raise ValueError(f"{where}: refuted_by is a list of the project's statements that prove it false")
        if origin(entry) != "paper" or entry.get("open") is not None:
            raise ValueError(f"{where}: only a printed statement is refuted, and a refuted statement is not open")
    if entry.get("refuted_class") is not None and (refuted_by is None or entry["refuted_class"] not in REFUTED_CLASSES):
        raise ValueError(f"{where}: refuted_class is one of {', '.join(REFUTED_CLASSES)}, beside refuted_by")
    floored_by = entry.get("floored_by")
    if floored_by is not None:
        if not isinstance(floored_by, str) or origin(entry) != "paper":
            raise ValueError(
                f"{where}: floored_by names the project's statement that proves a printed one with its logarithms "
                "floored at 1"
            )
        if floored_by not in entry.get("argument", {}).get("uses", ()):
            raise ValueError(f"{where}: floored_by {floored_by!r} must be a premise of its argument")
    domain = entry.get("domain")
    if domain is not None:
        if not isinstance(domain, dict) or not domain:
            raise ValueError(f"{where}: domain maps a variable to its interval, e.g. eps: '(0, 1)'")
        for name, text in domain.items():
            try:
                _parse_domain(text)
            except (TypeError, ValueError) as exc:
                raise ValueError(f"{where}: domain of {name}: {exc}") from None
    if entry.get("hypothesis") is not None and not isinstance(entry["hypothesis"], str):
        raise ValueError(f"{where}: hypothesis names the paper statement (a conjecture) the result is conditional on")
    sharper = entry.get("sharper")
    if sharper is not None:
        if (
            not isinstance(sharper, dict)
            or set(sharper) - set(SHARPER_KEYS)
            or not isinstance(sharper.get("than"), str)
            or not isinstance(sharper.get("tightness", ""), str)
            or not isinstance(sharper.get("gist", ""), str)
        ):
            raise ValueError(
                f"{where}: sharper needs 'than' (a statement id) and optionally 'tightness' (a bound of tightness.csv) and "
                "'gist' (one line)"
            )
        if origin(entry) != "project":
            raise ValueError(f"{where}: only the project's statements are sharper than printed (origin: project)")


def _check_refutations(entries: list[dict]) -> None:
    """Every ``refuted_by`` names a derived statement of the project (a proof of the printed statement's negation)."""
    by_id = {e["id"]: e for e in entries}
    for entry in entries:
        for refutation in entry.get("refuted_by", ()):
            if refutation not in by_id or by_id[refutation]["kind"] != "derived":
                raise ValueError(
                    f"{entry['claim_id']}/{STATEMENTS_FILE} ({entry['id']}): refuted_by {refutation!r} "
                    "names no derived statement of the project"
                )


def _check_floored(entries: list[dict]) -> None:
    """Every ``floored_by`` names a derived statement of the project (the printed one with its logarithms floored)."""
    by_id = {e["id"]: e for e in entries}
    for entry in entries:
        floored = entry.get("floored_by")
        if floored is not None and (floored not in by_id or by_id[floored]["kind"] != "derived"):
            raise ValueError(
                f"{entry['claim_id']}/{STATEMENTS_FILE} ({entry['id']}): floored_by {floored!r} "
                "names no derived statement of the project"
            )


def _check_sharper(entries: list[dict]) -> None:
    """Every ``sharper.than`` names a statement of the paper."""
    by_id = {e["id"]: e for e in entries}
    for entry in entries:
        than = entry.get("sharper", {}).get("than")
        if than is None:
            continue
        if than not in by_id:
            raise ValueError(
                f"{entry['claim_id']}/{STATEMENTS_FILE} ({entry['id']}): sharper.than {than!r} names no statement"
            )
        if origin(by_id[than]) != "paper":
            raise ValueError(
                f"{entry['claim_id']}/{STATEMENTS_FILE} ({entry['id']}): sharper.than {than!r} is the "
                "project's statement, not the paper's"
            )


def _check_titles(entries: list[dict]) -> None:
    """Statements printed at one place (one ``paper_ref``) each say what they are (``title``), so that every statement
    has a name of its own (:func:`name`)."""
    shared: dict[str, list[dict]] = {}
    for entry in entries:
        shared.setdefault(entry["paper_ref"], []).append(entry)
    named: dict[str, str] = {}
    for group in shared.values():
        for entry in group:
            where = f"{entry['claim_id']}/{STATEMENTS_FILE} ({entry['id']})"
            if len(group) > 1 and not entry.get("title"):
                others = ", ".join(e["id"] for e in group if e is not entry)
                raise ValueError(f"{where}: needs a title: its paper_ref {entry['paper_ref']!r} is also {others}'s")
            text = _name(entry)
            if text in named:
                raise ValueError(f"{where}: its name {text!r} is also {named[text]}'s")
            named[text] = entry["id"]


def _name(entry: dict) -> str:
    return f"{entry['paper_ref']}: {entry['title']}" if entry.get("title") else entry["paper_ref"]


def name(statement_id: str) -> str:
    """What a reader calls ``statement_id``: where it is printed and, when that place holds several statements, what
    it is (its ``title``); never its id. Distinct for every statement."""
    return _name(statement(statement_id))


def statement_files() -> list[Path]:
    """Every claim's ``statements.yaml`` (``sparseact/claims/<claim_id>/statements.yaml``), sorted by claim id.

    Raises ``ValueError`` for a YAML file left in this package's folder or in a folder ``errata/`` of it
    (statements and errata live in the claim's folder, facts in the folder ``facts/``).
    """
    stray = sorted([*DATA_DIR.glob("*.yaml"), *DATA_DIR.glob("errata/*.yaml")])
    if stray:
        raise ValueError(
            f"{stray[0].relative_to(DATA_DIR)}: statements and errata live in src/sparseact/claims/<claim_id>/ "
            f"({STATEMENTS_FILE}, {ERRATA_FILE}), facts in the folder facts/, one file per family "
            "(docs/statements-graph.md)"
        )
    return sorted(CLAIMS_DIR.glob(f"[!_]*/{STATEMENTS_FILE}"))


@cache
def statements() -> tuple[dict, ...]:
    """Every statement entry of every claim's ``statements.yaml``, with ``claim_id`` added (claims sorted, paper
    order within).

    Raises ``ValueError`` naming the file and entry for a malformed entry or a repeated id.
    """
    entries, owner = [], {}
    for path in statement_files():
        claim_id = path.parent.name
        name = f"{claim_id}/{STATEMENTS_FILE}"
        for position, entry in enumerate(_load(path, name)):
            where = f"{name}, entry {position + 1} ({entry.get('id', '?')})"
            _check_statement(entry, where)
            if entry["id"] in owner:
                raise ValueError(f"{where}: id {entry['id']!r} is also defined in {owner[entry['id']]}")
            owner[entry["id"]] = name
            entries.append({**entry, "claim_id": claim_id})
    _check_sharper(entries)
    _check_refutations(entries)
    _check_floored(entries)
    _check_titles(entries)
    return tuple(entries)


@cache
def statement(statement_id: str) -> dict:
    """The entry of ``statement_id``; ``KeyError`` naming it otherwise."""
    for entry in statements():
        if entry["id"] == statement_id:
            return entry
    raise KeyError(f"no statement {statement_id!r} in {CLAIMS_DIR}/*/{STATEMENTS_FILE}")


def paper_ref(statement_id: str) -> str:
    """Where ``statement_id`` is printed (PMLR numbering)."""
    return statement(statement_id)["paper_ref"]


def _entries_of(
    folder: Path, pattern: str, allowed: tuple[str, ...], required: tuple[str, ...]
) -> tuple[tuple[str, dict], ...]:
    """``(file's name, entry)`` for the entries of every file ``<folder>/<pattern>``, checked, with unique ids; a file
    is named from ``folder``'s parent (``facts/uniform-chain.yaml``, ``claims/lemma9/errata.yaml``)."""
    entries, owner = [], {}
    for path in sorted(folder.glob(pattern)):
        name = path.relative_to(folder.parent).as_posix()
        for position, entry in enumerate(_load(path, name)):
            where = f"{name}, entry {position + 1} ({entry.get('id', '?')})"
            _check_keys(entry, allowed, required, where)
            if entry["id"] in owner:
                raise ValueError(f"{where}: id {entry['id']!r} is also defined in {owner[entry['id']]}")
            owner[entry["id"]] = name
            entries.append((name, entry))
    return tuple(entries)


@cache
def facts() -> tuple[dict, ...]:
    """Every textbook fact of ``facts/*.yaml``."""
    entries = tuple(entry for _, entry in _entries_of(DATA_DIR / "facts", "*.yaml", FACT_KEYS, FACT_KEYS[:4]))
    for entry in entries:
        if premise_kind(entry["id"]) != "fact":
            raise ValueError(f"facts: {entry['id']!r}: a fact id starts with {FACT_PREFIX!r}")
    return entries


@cache
def errata() -> tuple[dict, ...]:
    """Every root cause of every claim's ``errata.yaml`` (claims sorted, file order within).

    Raises ``ValueError`` naming the file and entry for a malformed entry, a repeated id, or an entry whose printed
    statement (``printed``) is not one of its claim's (an erratum lives in the folder of the claim it corrects).
    """
    located = _entries_of(
        CLAIMS_DIR,
        f"[!_]*/{ERRATA_FILE}",
        (*ERRATUM_KEYS, "refuted_by", "concerns", "carried_by", "restates", "quote"),
        tuple(k for k in ERRATUM_KEYS if k != "checks"),
    )
    owners = {entry["id"]: entry["claim_id"] for entry in statements()}
    for name, entry in located:
        owner, where = owners.get(entry["printed"]), f"{name} ({entry['id']}): printed {entry['printed']!r}"
        if owner is None:
            raise ValueError(f"{where} names no statement")
        if owner != name.split("/")[1]:
            raise ValueError(f"{where} is a statement of {owner}: the erratum belongs in claims/{owner}/{ERRATA_FILE}")
    entries = tuple(entry for _, entry in located)
    for entry in entries:
        if not isinstance(entry.get("checks"), list) or not isinstance(entry["verified_by"], str):
            raise ValueError(f"errata: {entry['id']!r}: 'checks' is a list of check ids, 'verified_by' one check id")
        if not entry["checks"] and not isinstance(entry.get("refuted_by"), str):
            raise ValueError(
                f"errata: {entry['id']!r}: an erratum rests on FAIL checks, or (an asymptotic statement) "
                "on 'refuted_by', the project's statement that proves it false"
            )
        carried = entry.get("carried_by")
        if carried is not None and (
            not isinstance(carried, list)
            or not carried
            or not all(isinstance(c, str) and c for c in carried)
            or not entry["checks"]
        ):
            raise ValueError(
                f"errata: {entry['id']!r}: 'carried_by' lists the project's statements whose proofs carry the finite "
                "instances of its certificates to whole families"
            )
        restates = entry.get("restates")
        if restates is not None and (
            not isinstance(restates, list) or not restates or not all(isinstance(r, str) and r for r in restates)
        ):
            raise ValueError(
                f"errata: {entry['id']!r}: 'restates' lists the open conjectures its correction restates (statement ids)"
            )
    return entries


def data_files() -> list[Path]:
    """The paper as files: every claim's statements, the facts and the errata (the ledger step's inputs besides the
    claims' results)."""
    return sorted([*statement_files(), *DATA_DIR.glob("facts/*.yaml"), *CLAIMS_DIR.glob(f"[!_]*/{ERRATA_FILE}")])
