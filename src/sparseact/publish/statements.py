"""Statement statuses derived from the argument graph: proved, holds on a range, fails as stated, or open.

The paper's statements, the textbook facts they rest on and the root causes of its
errata are data (:mod:`sparseact.paper`, format in ``docs/statements-graph.md``); the
checks are the ledger's rows. :func:`derive` joins them, statement by statement, in
this order:

``fails-as-stated``
    For an asymptotic statement that no finite certificate can refute, a proved statement of the
    project proves it false (``refuted_by``): the class is the one it declares (``refuted_class``), else
    :data:`REFUTED_FINDING`, and the
    refutation is its certificate (its FAIL checks, if any, are finite instances of it). Otherwise
    some check of the statement FAILs with a class other than ``out-of-range`` (every FAIL carries
    a certificate). The class is its most severe finding
    (:data:`sparseact.verify.verdicts.FINDINGS`); ``survives`` says whether its correction
    is verified, and by what.
``proved``
    Its ``argument`` has every premise *established*: a proved statement, an exact
    check that PASSes, or a cited textbook fact (citation given, its instance checks
    PASS). A premise that only holds on a range makes the conclusion hold on that
    range.
``open``
    It says why no finite computation can settle it (``open``, ``open_kind``: a
    conjecture, a lower bound over all algorithms, an O() bound with no explicit
    constant and no proof in the graph, an observation about other models); the
    reason adds the strongest evidence its checks computed.
``holds-on-range``
    Every check of it is exact and PASSes (out-of-range FAILs aside) and no
    argument closes it: it holds on the range its checks enumerated, stated in
    ``range``.

Anything else is *undetermined*, and :func:`derive` refuses it (``UndeterminedError``
naming every such statement and why): "not computed yet" is never a status.
"""

from __future__ import annotations

import re
import textwrap
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

import pandas as pd

from sparseact._validation import check_int
from sparseact.paper import errata as paper_errata
from sparseact.paper import facts as paper_facts
from sparseact.paper import origin as paper_origin
from sparseact.paper import paper_position, premise_kind
from sparseact.paper import statements as paper_statements
from sparseact.verify.verdicts import FINDINGS

STATUSES = ("fails-as-stated", "proved", "holds-on-range", "open")
#: What each status means for a reader (the report's and findings' legend).
STATUS_DEFINITIONS = {
    "proved": "holds for every parameter: an argument whose every premise is a proved statement, an exact check "
    "that passes or a cited textbook fact",
    "holds-on-range": "holds on everything enumerated (the range says where); no argument covers every parameter",
    "fails-as-stated": "false as printed, shown by a certificate that an independent implementation recomputes, or "
    "(an asymptotic statement) by a proof of its negation in the graph",
    "open": "no finite computation can settle it (a conjecture, a lower bound over all algorithms, a hidden "
    "constant, an observation about other models); the reason says why and gives the strongest evidence",
}
#: The class of a printed statement that a proof in the graph refutes (``refuted_by``): false for some of the parameters
#: it quantifies over, which its statement does not exclude.
REFUTED_FINDING = "statement-error"
#: Not a status: what :func:`derive` refuses (with ``strict=False`` it is reported in the table instead).
UNDETERMINED = "undetermined"
STATEMENT_COLUMNS = [
    "statement_id",
    "claim_id",
    "paper_ref",
    "kind",
    "origin",
    "statement",
    "quantifiers",
    "status",
    "class",
    "survives",
    "range",
    "reason",
    "uses",
    "checks",
]
HEADLINE_COLUMNS = ["statement_id", "paper_ref", "claim_id", "status", "cost", "proof", "errata"]
ERRATA_COLUMNS = [
    "erratum_id",
    "class",
    "location",
    "printed",
    "explanation",
    "counterexample",
    "correction",
    "gist",
    "verified_by",
    "verified",
    "statements",
    "certificates",
    "refuted_by",
    "carried_by",
    "consequence",
    "consequence_detail",
]
#: What an erratum does to the paper, most serious first (``errata.csv``'s ``consequence``, derived by
#: :func:`consequence` from the statements it names, never typed).
CONSEQUENCES = {
    "result-false": "a printed result is false",
    "definition": "a definition is not the one the paper cites, and results rest on it",
    "proof-gap": "a printed proof does not prove its result",
    "informal": "an informal sentence misstates a result",
    "step": "a step is wrong, and corrected the printed proof goes through",
    "typo": "notation or typo",
    "conjecture-remark": "a remark on a conjecture, not an erratum of a result",
}
#: The kinds of statement that summarise a numbered result informally (the introduction's and the discussion's
#: sentences): a false one misstates a result, which is not the result being false.
INFORMAL_KINDS = ("abstract", "introduction", "discussion")
#: ``sharper.csv``: the project's proved statements that are sharper than a printed one (``sharper`` in the statement
#: files), each with the printed statement, its proof and how close an extremal family comes.
SHARPER_COLUMNS = [
    "statement_id",
    "than",
    "paper_ref",
    "statement",
    "printed",
    "status",
    "uses",
    "chain",
    "argument",
    "tightness",
    "family",
    "proved_over_family",
    "printed_over_proved",
]
TIGHTNESS_COLUMNS = [
    "bound",
    "paper_ref",
    "printed",
    "proved",
    "family",
    "family_value",
    "printed_over_proved",
    "proved_over_family",
    "exponents_printed",
    "exponents_proved",
    "exponents_measured",
    "gap",
    "method",
]


class UndeterminedError(ValueError):
    """Some statement has no status: no certificate, no closed argument, no reason to be open, no exact checks."""


def catalogue(claim_ids: Iterable[str] | None = None) -> pd.DataFrame:
    """Every statement of :mod:`sparseact.paper` (optionally only those of ``claim_ids``), one row each."""
    wanted = None if claim_ids is None else set(claim_ids)
    rows = [
        dict(
            statement_id=e["id"],
            claim_id=e["claim_id"],
            paper_ref=e["paper_ref"],
            kind=e["kind"],
            statement=e["statement"],
        )
        for e in paper_statements()
        if wanted is None or e["claim_id"] in wanted
    ]
    return pd.DataFrame(rows, columns=["statement_id", "claim_id", "paper_ref", "kind", "statement"])


def _severity_rank(finding: str) -> int:
    return FINDINGS.index(finding) if finding in FINDINGS else len(FINDINGS)


class _Graph:
    """The statements, facts and ledger rows, and the memoised status of every node."""

    def __init__(self, ledger: pd.DataFrame, entries: Sequence[Mapping], facts: Sequence[Mapping]):
        self.ledger = ledger.fillna("")
        self.entries = {e["id"]: e for e in entries}
        self.facts = {f["id"]: f for f in facts}
        self.rows = {row["check_id"]: row for row in self.ledger.to_dict("records")}
        self.by_statement: dict[str, list[dict]] = {}
        for row in self.rows.values():
            self.by_statement.setdefault(row["statement_id"], []).append(row)
        orphans = sorted(set(self.by_statement) - set(self.entries) - {""})
        if orphans:
            raise ValueError(f"ledger rows name statements that sparseact.paper does not define: {orphans}")
        self.memo: dict[str, dict] = {}
        self.stack: list[str] = []

    # -- premises -------------------------------------------------------------------------------------------------
    def premise(self, identifier: str) -> dict:
        """``{"level": "proved" | "holds-on-range" | None, "range": ..., "why": ...}`` of one premise."""
        kind = premise_kind(identifier)
        if kind == "check":
            row = self.rows.get(identifier)
            if row is None:
                raise ValueError(f"premise {identifier!r} names no check of the ledger")
            if row["verdict"] == "PASS" and row["method"] == "exact":
                return dict(level="proved", range="", why=f"exact check, PASS ({row['range'] or 'no range'})")
            return dict(level=None, range="", why=f"check {row['verdict']} ({row['method']})")
        if kind == "fact":
            fact = self.facts.get(identifier)
            if fact is None:
                raise ValueError(f"premise {identifier!r} names no fact of facts.yaml")
            failing = [c for c in fact.get("checks", ()) if self.premise(c)["level"] != "proved"]
            if failing:
                return dict(
                    level=None, range="", why=f"cited, but its instance check {failing[0]} does not PASS exactly"
                )
            return dict(level="proved", range="", why=f"cited: {fact['citation']}")
        if identifier not in self.entries:
            raise ValueError(f"premise {identifier!r} names no statement of sparseact.paper")
        node = self.status(identifier)
        level = node["status"] if node["status"] in ("proved", "holds-on-range") else None
        return dict(level=level, range=node["range"], why=node["status"])

    # -- statements -----------------------------------------------------------------------------------------------
    def status(self, statement_id: str) -> dict:
        if statement_id in self.memo:
            return self.memo[statement_id]
        if statement_id in self.stack:
            cycle = " -> ".join([*self.stack[self.stack.index(statement_id) :], statement_id])
            raise ValueError(f"the argument graph has a cycle: {cycle}")
        self.stack.append(statement_id)
        try:
            node = self._decide(self.entries[statement_id])
        finally:
            self.stack.pop()
        self.memo[statement_id] = node
        return node

    def _survives(self, entry: Mapping) -> str:
        """Whether a failing statement's correction is verified, open (a conjecture) or not verified."""
        correction = entry.get("correction")
        if not correction:
            return "no correction verified"
        weak = [p for p in correction["verified_by"] if self.premise(p)["level"] is None]
        conjectured = [p for p in weak if premise_kind(p) == "statement" and self.premise(p)["why"] == "open"]
        if weak and len(conjectured) == len(weak):
            return f"open: its correction is a conjecture ({', '.join(conjectured)}), neither proved nor refuted"
        if weak:
            return f"no: its correction is not verified ({weak[0]}: {self.premise(weak[0])['why']})"
        verified = "corrected form verified by " + ", ".join(correction["verified_by"])
        if correction.get("unproved"):
            return f"yes, in a weaker form: {verified}; not proved: {' '.join(correction['unproved'].split())}"
        return f"yes: {verified}"

    def _decide(self, entry: Mapping) -> dict:
        own = self.by_statement.get(entry["id"], [])
        checks = [r["check_id"] for r in own]
        uses = list(entry.get("argument", {}).get("uses", ()))
        node = dict(status=UNDETERMINED, cls="", survives="", range="", reason="", uses=uses, checks=checks)
        out_of_range = [r["check_id"] for r in own if r["verdict"] == "FAIL" and r["finding"] == "out-of-range"]
        corners = (
            [f"it fails only in a degenerate corner or outside the range the paper uses ({', '.join(out_of_range)})"]
            if out_of_range
            else []
        )
        if entry.get("floored_by"):
            corners.append(
                f"where a printed logarithm is below 1, {entry['floored_by']} proves it with that logarithm floored at 1"
            )
        # the corners in one line, after the argument (the corner rule: docs/statements-graph.md)
        caveat = f" Corners: {'; '.join(corners)} (the corner rule)." if corners else ""
        fails = [r for r in own if r["verdict"] == "FAIL" and r["finding"] != "out-of-range"]
        refutations = {p: self.premise(p) for p in entry.get("refuted_by", ())}
        if refutations and all(v["level"] == "proved" for v in refutations.values()):
            # an asymptotic statement, false by a proof of its negation; its finite FAILs are instances of that proof
            proofs = "; ".join(f"{p}: {self.entries[p]['statement']}" for p in refutations)
            instances = (
                f" Its FAIL checks are finite illustrations, not the refutation: "
                f"{', '.join(r['check_id'] for r in fails)}."
                if fails
                else ""
            )
            return {
                **node,
                "status": "fails-as-stated",
                "cls": entry.get("refuted_class", REFUTED_FINDING),
                "survives": self._survives(entry),
                "uses": [*uses, *refutations],
                "reason": f"Refuted by a proof in the graph ({proofs}).{instances}",
            }
        if fails:
            worst = min(fails, key=lambda r: _severity_rank(r["finding"]))
            return {
                **node,
                "status": "fails-as-stated",
                "cls": worst["finding"],
                "survives": self._survives(entry),
                "reason": worst["counterexample"] or worst["check"],
            }
        if uses:
            premises = {p: self.premise(p) for p in uses}
            missing = [p for p, v in premises.items() if v["level"] is None]
            if not missing:
                ranged = [v["range"] for v in premises.values() if v["level"] == "holds-on-range"]
                status = "holds-on-range" if ranged else "proved"
                return {
                    **node,
                    "status": status,
                    "range": "; ".join(dict.fromkeys(ranged)),
                    "reason": entry["argument"]["text"] + caveat,
                }
            node["reason"] = f"its argument needs {missing[0]}, which is {premises[missing[0]]['why']}"
        if entry.get("open"):
            evidence = "; ".join(
                f"{r['check_id']}: {r['verdict']}, {r['worst_value_label']} = {_number(r['worst_value'])}" for r in own
            )
            return {
                **node,
                "status": "open",
                "reason": f"{entry['open']}" + (f" Evidence: {evidence}." if evidence else "") + caveat,
            }
        passing = [r for r in own if r["verdict"] == "PASS"]
        if (
            own
            and len(passing) + len(out_of_range) == len(own)
            and passing
            and all(r["method"] == "exact" for r in passing)
        ):
            # the range of the printed statement: its checks of the printed form (a check of a corrected variant
            # says nothing about where the printed one holds)
            printed = [r for r in passing if r.get("variant", "") != "corrected"] or passing
            ranges = [r["range"] for r in printed if r["range"]]
            instances = sum(int(r["instances"]) for r in passing)
            return {
                **node,
                "status": "holds-on-range",
                "range": "; ".join(dict.fromkeys(ranges)),
                "reason": f"PASS on every enumerated instance ({instances} in {len(passing)} checks); "
                f"no argument in the graph covers every parameter.{caveat}",
            }
        if not node["reason"]:
            other = [r for r in own if r["verdict"] != "PASS" or r["method"] != "exact"]
            node["reason"] = (
                f"{other[0]['check_id']} is {other[0]['verdict']} ({other[0]['method']})"
                if other
                else "no check, no argument and no reason to be open"
            )
        return node


def _number(value) -> str:
    try:
        return f"{float(value) + 0.0:.4g}"  # + 0.0: a negative zero reads 0
    except (TypeError, ValueError):
        return str(value)


def derive(
    ledger: pd.DataFrame,
    strict: bool = True,
    entries: Sequence[Mapping] | None = None,
    facts: Sequence[Mapping] | None = None,
) -> pd.DataFrame:
    """The statements table: one row per statement of :mod:`sparseact.paper`, status derived from the graph.

    Parameters
    ----------
    ledger : DataFrame
        The ledger (:data:`sparseact.publish.ledger.LEDGER_COLUMNS`).
    strict : bool, default True
        Raise :class:`UndeterminedError` naming every statement without a status; with ``False`` such
        rows carry the status ``"undetermined"`` (for diagnosis only:
        :func:`sparseact.publish.statement_files.write_statement_files` is strict).
    entries, facts : sequences of mappings, optional
        The statements and facts (default: :mod:`sparseact.paper`'s).

    Returns
    -------
    DataFrame
        Columns :data:`STATEMENT_COLUMNS`, sorted by status (failures first, by class), then claim and id.
    """
    graph = _Graph(
        ledger, paper_statements() if entries is None else entries, paper_facts() if facts is None else facts
    )
    rows = []
    for entry in graph.entries.values():
        node = graph.status(entry["id"])
        rows.append(
            dict(
                statement_id=entry["id"],
                claim_id=entry.get("claim_id", ""),
                paper_ref=entry["paper_ref"],
                kind=entry["kind"],
                origin=paper_origin(entry),
                statement=entry["statement"],
                quantifiers=" ".join(str(entry.get("quantifiers", "")).split()),
                status=node["status"],
                **{"class": node["cls"]},
                survives=node["survives"],
                range=node["range"],
                reason=" ".join(node["reason"].split()),
                uses="; ".join(node["uses"]),
                checks="; ".join(node["checks"]),
            )
        )
    frame = pd.DataFrame(rows, columns=STATEMENT_COLUMNS)
    undetermined = frame[frame["status"] == UNDETERMINED]
    if strict and len(undetermined):
        listed = "; ".join(f"{r.statement_id} ({r.reason})" for r in undetermined.itertuples())
        raise UndeterminedError(f"{len(undetermined)} statements have no status: {listed}")
    order = frame["status"].map(lambda s: STATUSES.index(s) if s in STATUSES else len(STATUSES)) * 10 + frame[
        "class"
    ].map(_severity_rank)
    return (
        frame.assign(_order=order)
        .sort_values(["_order", "claim_id", "statement_id"], kind="stable")
        .drop(columns="_order")
        .reset_index(drop=True)
    )


@dataclass(frozen=True)
class ChainItem:
    """One line of the chain :func:`explain_chain` walks: a statement, a check or a fact, ``depth`` levels down.

    ``head`` says what it is and its status; ``why`` (a statement's reason), ``corrected`` (the correction of the
    statement explained) and ``again`` (``True`` when the item was printed above, so that it is not expanded twice)
    complete it.
    """

    depth: int
    identifier: str
    kind: str
    head: str
    why: str = ""
    corrected: str = ""
    again: bool = False


def explain_chain(statement_id: str, ledger: pd.DataFrame) -> list[ChainItem]:
    """The chain behind ``statement_id``'s status, down to checks and cited facts, each with its status; a statement,
    check or fact met a second time is listed once more as ``again`` and not expanded."""
    graph = _Graph(ledger, paper_statements(), paper_facts())
    if statement_id not in graph.entries:
        raise ValueError(f"no statement {statement_id!r}; known: {', '.join(sorted(graph.entries))}")
    items: list[ChainItem] = []
    printed: set[str] = set()

    def walk(identifier: str, depth: int) -> None:
        kind = premise_kind(identifier)
        again = identifier in printed
        printed.add(identifier)
        if again and kind != "statement":
            items.append(ChainItem(depth, identifier, kind, f"{kind} {identifier} (see above)", again=True))
            return
        if kind == "check":
            row = graph.rows.get(identifier)
            head = (
                f"check {identifier}: not in this ledger"
                if row is None
                else f"check {identifier}: {row['verdict']} ({row['method']}, {row['instances']} instances"
                + (f", {row['range']}" if row["range"] else "")
                + ")"
            )
            items.append(ChainItem(depth, identifier, kind, head))
            return
        if kind == "fact":
            fact = graph.facts[identifier]
            level = graph.premise(identifier)["level"]
            items.append(
                ChainItem(
                    depth,
                    identifier,
                    kind,
                    f"fact {identifier} [{'cited' if level else 'not established'}]: "
                    f"{fact['name']} ({fact['citation']})",
                )
            )
            for check in fact.get("checks", ()):
                walk(check, depth + 1)
            return
        entry, node = graph.entries[identifier], graph.status(identifier)
        detail = node["cls"] and f", {node['cls']}; survives: {node['survives']}"
        head = (
            f"{identifier} [{node['status']}{detail}] {entry['paper_ref']}"
            + (f" (range: {node['range']})" if node["range"] else "")
            + (" (see above)" if again else "")
        )
        correction = entry.get("correction") if depth == 0 else None
        items.append(
            ChainItem(
                depth,
                identifier,
                kind,
                head,
                why=" ".join(node["reason"].split()) if not again else "",
                corrected=" ".join(correction["text"].split()) if correction else "",
                again=again,
            )
        )
        if again:
            return
        for check in node["checks"]:
            walk(check, depth + 1)
        for premise in node["uses"]:
            walk(premise, depth + 1)
        if correction:
            for premise in correction["verified_by"]:
                walk(premise, depth + 1)

    walk(statement_id, 0)
    return items


#: Narrowest width :func:`explain` wraps to (an indented item needs room for a few words).
EXPLAIN_MIN_WIDTH = 40


def explain(statement_id: str, ledger: pd.DataFrame, width: int | None = None) -> str:
    """:func:`explain_chain` as text, one item a line (``width``: wrapped to that many characters, continuation lines
    indented under their item); an item met again says so instead of repeating itself."""
    if width is not None:
        width = check_int(width, "width", minimum=EXPLAIN_MIN_WIDTH)
    lines = []
    for item in explain_chain(statement_id, ledger):
        pad = "  " * item.depth
        parts = [(f"- {item.head}", pad, pad + "    ")]
        if item.why:
            parts.append((f"why: {item.why}", pad + "    ", pad + "      "))
        if item.corrected:
            parts.append((f"corrected: {item.corrected}", pad + "  ", pad + "    "))
        for text, first, rest in parts:
            if width is None:
                lines.append(first + text)
            else:
                lines += textwrap.wrap(
                    text,
                    width=width,
                    initial_indent=first,
                    subsequent_indent=rest,
                    break_long_words=False,
                    break_on_hyphens=False,
                )
    return "\n".join(lines) + "\n"


def proof_chain(statement_id: str, ledger: pd.DataFrame) -> str:
    """The chain :func:`explain` walks, on one line: for ``statement_id`` and every statement premise below it, its
    status and its premises, each with its verdict (a check), ``cited`` (a fact) or its status (a statement)."""
    graph = _Graph(ledger, paper_statements(), paper_facts())
    if statement_id not in graph.entries:
        raise ValueError(f"no statement {statement_id!r}")
    links, queue, seen = [], [statement_id], set()
    while queue:
        identifier = queue.pop(0)
        if identifier in seen:
            continue
        seen.add(identifier)
        node = graph.status(identifier)
        premises = []
        for premise in node["uses"]:
            kind = premise_kind(premise)
            if kind == "check":
                premises.append(f"{premise} ({graph.rows[premise]['verdict']}, {graph.rows[premise]['method']})")
            elif kind == "fact":
                premises.append(f"{premise} ({'cited' if graph.premise(premise)['level'] else 'not established'})")
            else:
                premises.append(f"{premise} ({graph.status(premise)['status']})")
                queue.append(premise)
        links.append(f"{identifier} is {node['status']}" + (" from " + ", ".join(premises) if premises else ""))
    return "; ".join(links)


def _certificate_quote(certificate: Mapping) -> tuple[str, str]:
    """The one-sentence explanation and the counterexample, with the certificate's own numbers and, where its sides
    name their variables, the instance they take."""
    cert = certificate.get("certificate", certificate)
    negation = {"<=": ">", ">=": "<", "==": "!="}.get(cert.get("relation", ""), "violates")
    quote = (  # "(here x)", not "= x": a label that ends in a variable must not read as its value
        f"{cert.get('lhs_label', 'lhs')} (here {_number(cert.get('lhs_value'))}) {negation} "
        f"{cert.get('rhs_label', 'rhs')} (here {_number(cert.get('rhs_value'))})"
    )
    instance = _instance(cert)
    return cert.get("explanation", ""), f"at {instance}: {quote}" if instance else quote


#: How a certificate's formula variables that are not the paper's own symbols are named to a reader.
VARIABLE_WORDS = {"omr": "1-rho", "lomr": "log(1-rho)", "ell": "log(1/eps)"}
#: A certificate's variables that are sets of coordinates (0-based, as its formulas index), read as the paper's subsets
#: of ``[m] = {1, ..., m}``: ``S = [0, 1]`` reads ``S = {1, 2}``.
INDEX_SETS = frozenset({"S"})


def _instance(cert: Mapping) -> str:
    """``"m = 2, p = 2, q = 3, w = (0, 1)"``: the numbers and vectors the certificate's two sides are evaluated at,
    each named in the paper's symbols (:data:`VARIABLE_WORDS`)."""
    values: dict[str, str] = {}
    for side in (cert.get("lhs"), cert.get("rhs")):
        for name, value in (side.get("vars") or {}).items() if isinstance(side, Mapping) else ():
            if name in INDEX_SETS and isinstance(value, list) and all(type(v) is int for v in value):
                values.setdefault(name, "{" + ", ".join(str(v + 1) for v in value) + "}")
            elif isinstance(value, list) and all(isinstance(v, (int, float)) for v in value):
                values.setdefault(name, "(" + ", ".join(_number(v) for v in value) + ")")
            elif isinstance(value, (int, float)) and not isinstance(value, bool):
                values.setdefault(name, _number(value))
    return ", ".join(f"{VARIABLE_WORDS.get(name, name)} = {value}" for name, value in values.items())


def errata_by_cause(
    ledger: pd.DataFrame, certificates: Mapping[str, Mapping], causes: Sequence[Mapping] | None = None
) -> pd.DataFrame:
    """``errata.csv``: one row per root cause of :mod:`sparseact.paper`'s ``errata.yaml``.

    The class is the most severe finding among the cause's FAILs; the explanation and the
    counterexample are read from the certificate of its first check; ``verified`` is the verdict of the
    correction's check. Every FAIL of the ledger other than ``out-of-range`` must belong to exactly one cause.

    Parameters
    ----------
    ledger : DataFrame
        The ledger.
    certificates : mapping
        check id -> certificate (the JSON object of ``results/certificates/<check_id>.json``).
    causes : sequence of mappings, optional
        The errata entries (default: ``errata.yaml``).
    """
    ledger = ledger.fillna("")
    causes = paper_errata() if causes is None else causes
    rows_by_id = {row["check_id"]: row for row in ledger.to_dict("records")}
    failing = {c for c, r in rows_by_id.items() if r["verdict"] == "FAIL" and r["finding"] != "out-of-range"}
    claimed: dict[str, str] = {}
    rows = []
    entries = {e["id"]: e for e in paper_statements()}
    for cause in causes:
        for check in cause["checks"]:
            if check not in failing:
                raise ValueError(f"erratum {cause['id']}: {check} is not a FAIL of the ledger")
            if check in claimed:
                raise ValueError(f"{check} belongs to errata {claimed[check]} and {cause['id']}")
            claimed[check] = cause["id"]
        if cause["checks"]:
            first = rows_by_id[cause["checks"][0]]
            explanation, counterexample = _certificate_quote(certificates[first["check_id"]])
        else:  # refuted by a proof in the graph: the proof is the certificate
            refutation = entries[cause["refuted_by"]]
            explanation, counterexample = refutation["argument"]["text"], refutation["statement"]
        for carried in cause.get("carried_by", ()):
            if entries.get(carried, {}).get("kind") != "derived":
                raise ValueError(f"erratum {cause['id']}: carried_by {carried!r} names no derived statement")
        # a verbatim excerpt of the paper where the erratum gives one (tests/test_erratum_quotes.py), else the statement
        printed = cause.get("quote") or (
            entries[cause["printed"]]["statement"] if cause["printed"] in entries else cause["printed"]
        )
        if " ".join(cause["correction"].split()) == " ".join(printed.split()):
            raise ValueError(f"erratum {cause['id']}: the correction repeats the printed text")
        verifier = rows_by_id.get(cause["verified_by"])
        if verifier is None:
            raise ValueError(f"erratum {cause['id']}: verified_by {cause['verified_by']!r} is no check of the ledger")
        worst = min(
            [rows_by_id[c]["finding"] for c in cause["checks"]]
            + ([entries[cause["printed"]].get("refuted_class", REFUTED_FINDING)] if cause.get("refuted_by") else []),
            key=_severity_rank,
        )
        # what reaches the authors names the paper's statements only (a FAIL of the project's meta-claim stays evidence)
        named = [
            s
            for s in dict.fromkeys(
                [
                    *(rows_by_id[c]["statement_id"] for c in cause["checks"]),
                    *([cause["printed"]] if cause.get("refuted_by") else []),
                    *cause.get("concerns", ()),
                ]
            )
            if paper_origin(entries[s]) == "paper"
        ]
        if not named:
            raise ValueError(f"erratum {cause['id']}: its checks bear on no statement of the paper")
        rows.append(
            dict(
                erratum_id=cause["id"],
                **{"class": worst},
                location=cause["location"],
                printed=printed,
                explanation=explanation,
                counterexample=counterexample,
                correction=cause["correction"],
                gist=cause["gist"],
                verified_by=cause["verified_by"],
                verified=_verified(cause, entries, verifier["verdict"]),
                statements="; ".join(named),
                certificates="; ".join(f"certificates/{c}.json" for c in cause["checks"]),
                refuted_by=cause.get("refuted_by", ""),
                carried_by="; ".join(cause.get("carried_by", ())),
                **dict(zip(("consequence", "consequence_detail"), consequence(worst, named, entries), strict=True)),
            )
        )
    unclaimed = sorted(failing - set(claimed))
    if unclaimed:
        raise ValueError(f"FAILs with no root cause in errata.yaml: {', '.join(unclaimed)}")
    frame = pd.DataFrame(rows, columns=ERRATA_COLUMNS)
    return (
        frame.assign(_rank=frame["class"].map(_severity_rank))
        .sort_values(["_rank", "erratum_id"], kind="stable")
        .drop(columns="_rank")
        .reset_index(drop=True)
    )


#: What ``errata.csv``'s ``verified`` says of a correction that is itself a conjecture (its check only excludes
#: attacks or evaluates instances: a conjecture is never verified).
CONJECTURED = "conjecture (open)"
#: How ``errata.csv``'s ``verified`` begins for a correction whose check PASSes and which also restates an open
#: conjecture (``restates`` in ``errata.yaml``): verified apart from the conjecture, which is named after it.
RESTATES = "PASS; restates "


def consequence(finding: str, named: Sequence[str], entries: Mapping[str, Mapping]) -> tuple[str, str]:
    """What an erratum of class ``finding`` naming the paper's statements ``named`` does to the paper (a key of
    :data:`CONSEQUENCES`), and for a proof that no longer proves its result, which result and what proves it now.

    Derived from the graph: every named statement a conjecture -> a remark; class ``typo`` -> a typo; the named
    results (no ``proof_of``) all informal sentences (:data:`INFORMAL_KINDS`: an introduction's or a discussion's
    summary of a numbered result) -> an informal misstatement; the named results all definitions (which have no
    truth value: the definition is not the one it cites) -> a definition; a named statement that is a result -> that
    result is false; otherwise the named statements are steps
    of printed proofs: the proof does not prove its result when a step's correction rests, through the arguments of
    the graph, on a statement sharper than a printed one (a lemma the paper does not have: a new argument, not the
    printed one repaired) or when the corrected step declares what stays ``unproved`` (the repaired proof gives a weaker
    result), else the step is wrong and the printed proof goes through with the corrected step (a local repair: a
    constant, a sign, an encoding).
    """
    named_entries = [entries[s] for s in named]
    if all(e["kind"] == "conjecture" for e in named_entries):
        return "conjecture-remark", ""
    if finding == "typo":
        return "typo", ""
    results = [e for e in named_entries if not e.get("proof_of")]
    if results and all(e["kind"] in INFORMAL_KINDS for e in results):
        return "informal", "; ".join(dict.fromkeys(short_ref(e["paper_ref"]) for e in results))
    if results and all(e["kind"] == "definition" for e in results):
        return "definition", "; ".join(dict.fromkeys(short_ref(e["paper_ref"]) for e in results))
    if results:
        return "result-false", "; ".join(dict.fromkeys(short_ref(e["paper_ref"]) for e in results))
    routes = {
        (e["proof_of"], premise)
        for e in named_entries
        for premise in _rests_on((e.get("correction") or {}).get("verified_by", ()), entries)
        if "sharper" in entries[premise]
    }
    if routes:
        return "proof-gap", "; ".join(
            f"{short_ref(entries[result]['paper_ref'])} survives by {entries[route]['paper_ref']}"
            for result, route in sorted(routes)
        )
    weaker = sorted({e["proof_of"] for e in named_entries if (e.get("correction") or {}).get("unproved")})
    if weaker:
        return "proof-gap", "; ".join(
            f"the repaired proof gives a weaker form of {short_ref(entries[result]['paper_ref'])}" for result in weaker
        )
    return "step", ""


def _rests_on(premises: Sequence[str], entries: Mapping[str, Mapping]) -> list[str]:
    """The statements of ``entries`` that ``premises`` name or rest on through the arguments of the project's own
    statements (kind ``derived``), up to the first sharper one on each path: a printed result is the paper's to use,
    however the graph proves it, and what a sharper statement rests on is its own proof's business."""
    seen: dict[str, None] = {}
    stack = [p for p in premises if p in entries]
    while stack:
        current = stack.pop()
        if current not in seen:
            seen[current] = None
            if entries[current]["kind"] == "derived" and "sharper" not in entries[current]:
                stack.extend(p for p in (entries[current].get("argument") or {}).get("uses", ()) if p in entries)
    return list(seen)


def verified_clause(errata: pd.DataFrame) -> str:
    """``"22 of the 24 corrections are verified (1 is a conjecture itself, open; 1 more is verified apart from the
    open conjecture it restates)"``, counted from ``errata.csv``'s ``verified``."""
    verified = int((errata["verified"] == "PASS").sum())
    conjectured = int((errata["verified"] == CONJECTURED).sum())
    restating = int(errata["verified"].str.startswith(RESTATES).sum())
    notes = []
    if conjectured:
        notes.append(
            f"{conjectured} {'is a conjecture itself' if conjectured == 1 else 'are conjectures themselves'}, open"
        )
    if restating:
        notes.append(
            f"{restating} more {'is' if restating == 1 else 'are'} verified apart from the open conjecture "
            f"{'it restates' if restating == 1 else 'they restate'}"
        )
    return f"{verified} of the {len(errata)} corrections are verified" + (f" ({'; '.join(notes)})" if notes else "")


def _verified(cause: Mapping, entries: Mapping[str, Mapping], verdict: str) -> str:
    """The verdict of the erratum's check; :data:`CONJECTURED` when the printed statement's correction rests on an
    open conjecture of the graph; ``PASS; restates <ids> (open)`` when the check PASSes and the correction also
    restates open conjectures (the erratum's ``restates``)."""
    correction = entries.get(cause["printed"], {}).get("correction") or {}
    conjectured = [
        p
        for p in correction.get("verified_by", ())
        if premise_kind(p) == "statement" and entries.get(p, {}).get("open_kind") == "conjecture"
    ]
    restated = cause.get("restates", ())
    not_conjectures = [p for p in restated if entries.get(p, {}).get("open_kind") != "conjecture"]
    if not_conjectures:
        raise ValueError(f"erratum {cause['id']}: 'restates' names no open conjecture: {', '.join(not_conjectures)}")
    if conjectured:
        return CONJECTURED
    return f"{RESTATES}{', '.join(restated)} (open)" if restated and verdict == "PASS" else verdict


def degenerate_corners(entry: Mapping, checks: Iterable[str], out_of_range: Iterable[str]) -> list[str]:
    """What confines a printed statement's failures to degenerate corners (the corner rule): its ``out-of-range``
    FAIL checks among ``checks``, then the project statement that proves it with its logarithms floored at 1
    (``floored_by``)."""
    corner = set(out_of_range)
    return [c for c in checks if c in corner] + ([entry["floored_by"]] if entry.get("floored_by") else [])


#: The headline's cost of a proved statement, and of one that can fail only in degenerate corners.
HOLDS = "Nothing: it holds as printed."
HOLDS_OUTSIDE_CORNERS = (
    "Nothing: it holds as printed wherever its printed logarithms are at least 1 (degenerate corners aside)."
)


def headline(statements: pd.DataFrame, errata: pd.DataFrame, ledger: pd.DataFrame | None = None) -> pd.DataFrame:
    """``headline.csv``: the paper's main results (``main: true``) in paper order, each with what it costs the authors.

    The cost is what the authors would change in the statement, in the paper's notation: the corrected statement of
    a failure (and whether it is verified), or the first sentence of an open reason; ``proof`` is the correction of
    every erratum of its printed proof's steps (``proof_of``), and whether it fails only in degenerate corners
    (:func:`degenerate_corners`, from the ``out-of-range`` FAILs of ``ledger`` and ``floored_by``). Never a check id
    of the project's own.
    """
    out_of_range = (
        set(ledger.loc[(ledger["verdict"] == "FAIL") & (ledger["finding"] == "out-of-range"), "check_id"])
        if ledger is not None
        else set()
    )
    table = statements.set_index("statement_id")
    entries = paper_statements()
    by_id = {e["id"]: e for e in entries}
    steps: dict[str, list[str]] = {}
    for entry in entries:
        if entry.get("proof_of"):
            steps.setdefault(entry["proof_of"], []).append(entry["id"])
    rows = []
    for entry in sorted((e for e in entries if e.get("main")), key=lambda e: paper_position(e["paper_ref"])):
        sid, row = entry["id"], table.loc[entry["id"]]
        family = [sid, *steps.get(sid, [])]
        related = errata[errata["statements"].map(lambda s, family=family: any(x in family for x in s.split("; ")))]
        slips = [r for r in related.itertuples() if sid not in r.statements.split("; ")]
        if row["status"] == "fails-as-stated":
            correction = entry.get("correction")
            cost = f"Replace by: {_sentence(correction['text'])}" if correction else "No correction is proved."
            if correction and not row["survives"].startswith("yes"):
                cost += " This correction is not proved; do not rely on it."
        elif row["status"] == "open":
            cost = f"Open: {_sentence(first_sentence(entry['open']))}"
        elif row["status"] == "proved" and entry.get("hypothesis"):
            hypothesis = table.loc[entry["hypothesis"]]
            corrected = (
                [
                    table.loc[p]
                    for p in (by_id[entry["hypothesis"]].get("correction") or {}).get("verified_by", ())
                    if p in table.index
                ]
                if hypothesis["status"] == "fails-as-stated"
                else []
            )
            cost = (
                (
                    f"Vacuous as printed ({short_ref(hypothesis['paper_ref'])} fails as stated); holds given "
                    if hypothesis_named(entry["statement"], hypothesis["paper_ref"])
                    else f"The paper's formalisation of its hypothesis ({short_ref(hypothesis['paper_ref'])}) fails as "
                    "stated; holds given "
                )
                + ", ".join(f"{c['paper_ref']} ({c['status']})" for c in corrected)
                + ", in its range."
                if corrected
                else f"Nothing, given {hypothesis['paper_ref']} ({hypothesis['status']})."
            )
        elif row["status"] == "proved":
            cost = (
                HOLDS_OUTSIDE_CORNERS
                if degenerate_corners(entry, str(row["checks"]).split("; "), out_of_range)
                else HOLDS
            )
        elif proved_correction(entry, table["status"]):
            cost = (
                f"Proved for every parameter in this form: {_sentence(entry['correction']['text'])} As printed, it "
                f"holds on the enumerated range ({row['range']}), which no argument extends."
            )
        else:
            cost = f"Nothing on the enumerated range ({row['range']}); no argument covers every parameter."
        proof = (
            (
                "Its printed proof needs: "
                + " ".join(f"({number}) {_sentence(r.correction)}" for number, r in enumerate(slips, 1))
            )
            if slips
            else ""
        )
        rows.append(
            dict(
                statement_id=sid,
                paper_ref=entry["paper_ref"],
                claim_id=entry["claim_id"],
                status=row["status"],
                cost=cost,
                proof=proof,
                errata="; ".join(related["erratum_id"]),
            )
        )
    return pd.DataFrame(rows, columns=HEADLINE_COLUMNS)


def proved_correction(entry: Mapping, status: Mapping[str, str]) -> bool:
    """Whether the statement file ``entry`` has a correction whose every verifying statement is proved (``status``:
    statement id -> status): a statement that only holds on a range is then proved for every parameter in that
    corrected form, which is what a reader is told first."""
    verified = (entry.get("correction") or {}).get("verified_by") or []
    return bool(verified) and all(status.get(v) == "proved" for v in verified)


def hypothesis_named(statement: str, hypothesis_ref: str) -> bool:
    """Whether a conditional ``statement`` names its hypothesis (Theorem 13: "Assuming Conjecture 12"), or states it in
    words that the paper formalises elsewhere (Theorem 3: "the hardness of learning with rounding", Conjecture 16)."""
    return short_ref(hypothesis_ref) in statement


def short_ref(paper_ref: str) -> str:
    """A paper reference without its trailing gloss: ``Theorem 3 (first part; ...)`` -> ``Theorem 3``
    (an equation number such as ``eq. (1)`` stays)."""
    return re.sub(r"\s+\((?!\d+\)$)[^()]*(\([^()]*\)[^()]*)*\)$", "", str(paper_ref).strip())


def _sentence(text: str) -> str:
    """``text`` on one line, ending with a full stop."""
    text = " ".join(str(text).split()).rstrip()
    return text if text.endswith((".", "?", "!")) else text + "."


def sharper_than_printed(statements: pd.DataFrame, ledger: pd.DataFrame, tightness: pd.DataFrame) -> pd.DataFrame:
    """``sharper.csv``: every proved statement of the project with a ``sharper`` entry, in the paper order of the
    statement it sharpens.

    Each row has the statement and the printed one it sharpens (both in the paper's notation), its status and proof
    (direct premises, the chain :func:`explain` prints on one line, the argument's text), and from the
    ``tightness.csv`` row it names: the family that comes closest, proved / measured on it, and printed / proved on
    the same instances. A statement that is not proved is left out (the list is derived, never typed); a
    ``tightness`` naming no row of ``tightness`` is an error.
    """
    entries = {e["id"]: e for e in paper_statements()}
    status = dict(zip(statements["statement_id"], statements["status"], strict=True))
    measured = {row["bound"]: row for row in tightness.fillna("").to_dict("records")}
    rows = []
    for entry in entries.values():
        sharper = entry.get("sharper")
        if not sharper or status.get(entry["id"]) != "proved":
            continue
        than = entries[sharper["than"]]
        bound = sharper.get("tightness", "")
        if bound and bound not in measured:
            raise ValueError(f"{entry['id']}: sharper.tightness {bound!r} is no bound of tightness.csv")
        row = measured.get(bound, {})
        chain = proof_chain(entry["id"], ledger)
        rows.append(
            dict(
                statement_id=entry["id"],
                than=than["id"],
                paper_ref=than["paper_ref"],
                statement=entry["statement"],
                printed=than["statement"],
                status=status[entry["id"]],
                uses="; ".join(entry["argument"]["uses"]),
                chain=chain,
                argument=" ".join(entry["argument"]["text"].split()),
                tightness=bound,
                family=row.get("family", ""),
                proved_over_family=row.get("proved_over_family", ""),
                printed_over_proved=row.get("printed_over_proved", ""),
            )
        )
    frame = pd.DataFrame(rows, columns=SHARPER_COLUMNS)
    return (
        frame.assign(_order=frame["paper_ref"].map(paper_position))
        .sort_values(["_order", "statement_id"], kind="stable")
        .drop(columns="_order")
        .reset_index(drop=True)
    )


def first_sentence(text: str, limit: int = 0) -> str:
    """The first sentence of ``text`` (without its full stop), and the sentences after it while the whole stays within
    ``limit`` characters."""
    text = " ".join(text.split())
    ends = [m.start() for m in re.finditer(r"(?<!\be\.g)(?<!\bi\.e)(?<!\bal)\.(\s|$)", text)]
    if not ends:
        return text
    return text[: max([ends[0], *(end for end in ends if end <= limit)])]


def collect_tightness(table_dirs: Iterable[str | Path]) -> pd.DataFrame:
    """``tightness.csv``: every claim's ``tightness`` table (``<table_dir>/tightness.csv``), in paper order."""
    frames = []
    for directory in table_dirs:
        path = Path(directory) / "tightness.csv"
        if path.exists():
            frame = pd.read_csv(path, keep_default_na=False)
            if list(frame.columns) != TIGHTNESS_COLUMNS:
                raise ValueError(f"{path}: columns {list(frame.columns)}, expected {TIGHTNESS_COLUMNS}")
            frames.append(frame)
    frame = pd.concat(frames, ignore_index=True) if frames else pd.DataFrame(columns=TIGHTNESS_COLUMNS)
    return (
        frame.assign(_order=frame["paper_ref"].map(paper_position))
        .sort_values("_order", kind="stable")
        .drop(columns="_order")
        .reset_index(drop=True)
    )


def status_counts(statements: pd.DataFrame) -> dict[str, int]:
    """How many statements have each status."""
    counts = statements["status"].value_counts()
    return {status: int(counts.get(status, 0)) for status in STATUSES}


CORRECTED_COLUMNS = ["statement_id", "paper_ref", "class", "printed", "corrected", "verified_by", "verified"]


def corrected_statements(statements: pd.DataFrame, ledger: pd.DataFrame) -> pd.DataFrame:
    """Every statement of the paper (origin ``paper``) that fails as printed, with its corrected form and the checks
    that verify it (the project's own statements are never sent as corrections).

    Raises ``ValueError`` naming the statements that fail as printed and give no ``correction``.
    """
    entries = {e["id"]: e for e in paper_statements()}
    verdicts = dict(zip(ledger["check_id"], ledger["verdict"], strict=True))
    table = statements.set_index("statement_id")
    failing = [
        sid
        for sid in table.index
        if table.loc[sid, "status"] == "fails-as-stated" and paper_origin(entries[sid]) == "paper"
    ]
    missing = [sid for sid in failing if not entries[sid].get("correction")]
    if missing:
        raise ValueError(f"statements that fail as printed with no correction: {', '.join(missing)}")
    rows = []
    for sid in sorted(failing, key=lambda i: (paper_position(entries[i]["paper_ref"]), i)):
        correction = entries[sid]["correction"]
        rows.append(
            dict(
                statement_id=sid,
                paper_ref=entries[sid]["paper_ref"],
                **{"class": table.loc[sid, "class"]},
                printed=entries[sid]["statement"],
                corrected=correction["text"],
                verified_by="; ".join(correction["verified_by"]),
                verified="; ".join(_premise_state(p, verdicts, table) for p in correction["verified_by"]),
            )
        )
    return pd.DataFrame(rows, columns=CORRECTED_COLUMNS)


def _premise_state(identifier: str, verdicts: Mapping[str, str], table: pd.DataFrame) -> str:
    """What a correction's premise is: a check's verdict, a statement's status, or ``cited`` for a fact."""
    kind = premise_kind(identifier)
    if kind == "check":
        return verdicts.get(identifier, "not in the ledger")
    return "cited" if kind == "fact" else table.loc[identifier, "status"]


#: Markers around the generated summary in README.md.
README_START = "<!-- findings:start (generated by `sparseact readme-summary`; do not edit) -->"
README_END = "<!-- findings:end -->"


def readme_with_summary(readme: str, summary: str) -> str:
    """``readme`` with the text between :data:`README_START` and :data:`README_END` replaced by ``summary``."""
    if README_START not in readme or README_END not in readme:
        raise ValueError("README has no generated-summary markers")
    head, rest = readme.split(README_START, 1)
    _, tail = rest.split(README_END, 1)
    return f"{head}{README_START}\n{summary}{README_END}{tail}"
