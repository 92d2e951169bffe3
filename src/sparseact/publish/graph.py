"""The argument graph as a picture: one node per statement, cited fact and erratum root cause, laid out in layers.

A node is a statement of :mod:`sparseact.paper` (coloured by its derived status), a cited textbook fact or a root
cause of an erratum. An edge says *uses* (a statement's argument rests on a statement or a fact), *proof step* (a
step of a statement's printed proof) or *root cause* (an erratum's root cause makes a statement fail as printed).
Checks are not nodes: they are the leaves every page lists under its statement.

:func:`graph_nodes` and :func:`graph_edges` read the graph from a run's result tables; :func:`layout` places it;
:func:`graph_svg` draws it as inline SVG whose every node is a link, each with its full title wrapped onto as many
lines as it needs (:func:`wrap`). :func:`view_svg` draws what one result rests on, down to the cited facts and the
root causes, as a layered tree with the result on top; :func:`sections_svg` draws the whole graph with a frame
around each of the paper's sections. :data:`GRAPH_SCRIPT` (inline, offline) highlights, when a node is selected,
what it rests on and what rests on it, and names both with links to the node's rows. The layout is computed here,
in integers, by a layered (Sugiyama-style) method, and not by Graphviz, so that the picture needs no program beyond
the pip-installed package and is byte-identical on every machine (``docs/statements-graph.md`` says why):

1. layers: a node sits one layer above its highest successor (the longest path down to a node that uses nothing;
   an erratum counts as what the statement it makes fail rests on, so it sits below it); a node with no successor
   sits one layer below its lowest predecessor, so that a fact or a leaf sits just under the statement that uses
   it; nodes with no edge at all go to a last block;
2. order within a layer: claims in paper order first, then barycentre sweeps (down and up, :data:`SWEEPS` times)
   that move each node towards the mean position of its neighbours in the layer above or below, ties by id;
3. a layer wider than ``row_nodes`` nodes wraps onto several rows; rows are centred; a row is as tall as its
   tallest node.
"""

from __future__ import annotations

import html
import itertools
import math
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from sparseact.paper import facts as paper_facts
from sparseact.paper import name as statement_name
from sparseact.paper import paper_position, premise_kind
from sparseact.paper import statements as paper_statements
from sparseact.publish.links import anchor
from sparseact.publish.mathtext import SCROLL_CUE, tex_to_unicode
from sparseact.publish.palette import STATUS_COLOURS

#: The key of an erratum's node: ``erratum:<erratum_id>`` (an erratum id may equal a statement id).
ERRATUM_PREFIX = "erratum:"

#: What a node's status says in words (a theorist's words: a proof in the graph is a written argument whose
#: premises are proved here, checked exactly or cited).
STATUS_WORDS = {
    "proved": "proved",
    "holds-on-range": "holds on a range",
    "fails-as-stated": "fails as stated",
    "open": "open",
    "cited": "cited",
    "erratum": "erratum",
}
#: Edge kinds: (stroke dash pattern, legend text).
EDGE_STYLES = {
    "uses": ("", "uses (its argument rests on)"),
    "step": ("6 4", "a step of its printed proof"),
    "cause": ("2 3", "root cause of (the erratum makes it fail)"),
}
NODE_WIDTH = 236
H_GAP = 24
V_GAP = 46
MARGIN = 12
#: Inner padding of a node, and the font size and line height of its title, its id and its status line.
PAD = 8
TITLE_SIZE, TITLE_LINE = 12.5, 16
ID_SIZE, ID_LINE = 10.5, 14
STATUS_SIZE, STATUS_LINE = 11, 15
#: Height of a node with a one-line title and id: the least any node has.
NODE_HEIGHT = 2 * PAD + TITLE_LINE + ID_LINE + STATUS_LINE
#: Most nodes on one row of the whole graph: a wider layer wraps (six nodes fit a 1,600 px box).
ROW_NODES = 6
#: Most nodes on one row of a result's view: three fit an 800 px window.
VIEW_ROW_NODES = 3
#: The least scale a result's view is drawn at (its title then 10 px): a narrower window scrolls it sideways in its
#: box (shaded where more is hidden) rather than shrink it past reading.
LEGIBLE_SCALE = 0.8
#: Barycentre sweeps (each one down and one up) of the crossing reduction.
SWEEPS = 4
#: A section's frame in :func:`sections_svg`: the height of its heading and the gap between two frames.
SECTION_HEAD, SECTION_GAP = 26, 18

#: The paper's sections by the number :func:`sparseact.paper.paper_position` gives them (its headings, PMLR version);
#: cited facts form a group of their own (:data:`FACTS_SECTION`).
SECTION_TITLES = {
    0: "Abstract",
    1: "1. Introduction",
    2: "2. Preliminaries",
    3: "3. Learning over Uniform Distribution",
    4: "4. Lower Bounds for Learning H_{n,s,1}",
    5: "5. Learning under General Distributions",
    6: "6. Discussion & Future Directions",
    100 + ord("A"): "Appendix A. Example of a Sparsely Activated Network without Weight Sparsity",
    100 + ord("B"): "Appendix B. Proof of Lemma 10",
}
#: The group of the cited textbook facts (after every section and appendix).
FACTS_SECTION = 1000
#: The group of what names no section of the paper.
OTHER_SECTION = 999

#: Upper bounds on the advance widths of DejaVu Sans (the widest common sans-serif, Linux's default for
#: ``system-ui``), in ems, by class of character: wrapping by them leaves every line inside its node in any font
#: at most as wide. Bold is at most :data:`BOLD` times as wide; monospace (ids) :data:`MONO` ems a character.
_NARROW = frozenset(" .,:;'!|()[]{}ijlrtf/-`\"")
_WIDE = frozenset("mwMW@%&")
EM_NARROW, EM_LOWER, EM_UPPER, EM_WIDE = 0.42, 0.64, 0.80, 1.0
BOLD = 1.12
MONO = 0.62


@dataclass(frozen=True)
class Node:
    """One node: ``key`` (a statement id, ``fact:...`` or ``erratum:...``), its title (``label``), its id
    (``detail``), its status, its claim, whether it is a main result, the section of the paper it belongs to
    (:data:`SECTION_TITLES`) and a longer note (an erratum's full location and gist) for its tooltip."""

    key: str
    label: str
    detail: str
    status: str
    claim: str = ""
    main: bool = False
    section: int = OTHER_SECTION
    note: str = ""


def node_anchor(key: str) -> str:
    """The ``id`` of a node's row on the report (:func:`sparseact.publish.links.anchor`)."""
    if key.startswith(ERRATUM_PREFIX):
        return anchor(key[len(ERRATUM_PREFIX) :], erratum=True)
    return anchor(key)


def _section(reference: str) -> int:
    part = paper_position(reference)[0]
    return part if part in SECTION_TITLES else OTHER_SECTION


def graph_nodes(statements, errata) -> list[Node]:
    """The nodes of the run's graph: every statement (``statements.csv``), every cited fact, every erratum root (in
    the section of the first statement it makes fail, in paper order)."""
    entries = {e["id"]: e for e in paper_statements()}
    nodes = [
        Node(
            key=r["statement_id"],
            label=_plain(statement_name(r["statement_id"]) if r["statement_id"] in entries else r["paper_ref"]),
            detail=r["statement_id"],
            status=r["status"],
            claim=r["claim_id"],
            main=bool(entries.get(r["statement_id"], {}).get("main")),
            section=_section(r["paper_ref"]),
        )
        for r in statements.to_dict("records")
    ]
    where = {n.key: n.label for n in nodes}
    nodes += [
        Node(key=f["id"], label=_plain(f["name"]), detail=f["id"], status="cited", section=FACTS_SECTION)
        for f in paper_facts()
    ]
    records = errata.to_dict("records")
    taken = {n.label for n in nodes}
    places = Counter(p for r in records for p in {_plain(r["location"]), _heading(_plain(r["location"]))})
    for r in records:
        broken = sorted((where[s] for s in _split(r["statements"]) if s in where), key=paper_position)
        location = _plain(r["location"])
        nodes.append(
            Node(
                key=ERRATUM_PREFIX + r["erratum_id"],
                label=_erratum_title(location, _plain(r.get("gist") or ""), taken, places),
                detail=r["erratum_id"],
                status="erratum",
                section=_section(broken[0] if broken else str(r["location"])),
                note=f"{location}. {_plain(r['gist'])}" if r.get("gist") else location,
            )
        )
    return nodes


def _plain(text) -> str:
    """``text`` with its TeX math in Unicode (:func:`sparseact.publish.mathtext.tex_to_unicode`), on one line."""
    return " ".join(tex_to_unicode(str(text)).split())


def _heading(location: str) -> str:
    """``location`` up to the first colon that ends a phrase (the place, not what is printed there)."""
    head, colon, _ = location.partition(": ")
    return head if colon else location


def _erratum_title(location: str, gist: str, taken: set[str], places: Counter) -> str:
    """An erratum's title: its place (:func:`_heading`) where no other node has that title, else its whole location,
    else its location and the head of its gist (what goes wrong there)."""
    for title in (_heading(location), location):
        if title not in taken and places[title] == 1:
            return title
    return f"{location}: {_heading(gist)}" if gist else location


def _split(cell) -> list[str]:
    return [s for s in (p.strip() for p in str(cell).split(";")) if s]


def graph_edges(statements, errata) -> list[tuple[str, str, str]]:
    """``(from, to, kind)``: a statement to each statement or fact it uses, to each step of its printed proof, and
    an erratum root to each statement it makes fail; checks are left out (they are no nodes)."""
    edges = []
    for row in statements.to_dict("records"):
        for premise in _split(row["uses"]):
            if premise_kind(premise) != "check":
                edges.append((row["statement_id"], premise, "uses"))
    known = set(statements["statement_id"])
    for entry in paper_statements():
        if entry.get("proof_of") and entry["id"] in known:
            edges.append((entry["proof_of"], entry["id"], "step"))
    for row in errata.to_dict("records"):
        for statement in _split(row["statements"]):
            edges.append((ERRATUM_PREFIX + row["erratum_id"], statement, "cause"))
    return sorted(set(edges))


def rests_on(edge: tuple[str, str, str]) -> tuple[str, str]:
    """``(node, what it rests on)`` of an edge: a statement rests on what it uses and on its proof's steps, and a
    statement that fails rests on the erratum that makes it fail."""
    a, b, kind = edge
    return (b, a) if kind == "cause" else (a, b)


def subgraph(nodes: Sequence[Node], edges: Sequence[tuple[str, str, str]], keys) -> tuple[list[Node], list]:
    """The nodes ``keys`` with every node one edge away from them, and the edges among those."""
    keys = set(keys)
    near = keys | {b for a, b, _ in edges if a in keys} | {a for a, b, _ in edges if b in keys}
    return [n for n in nodes if n.key in near], [e for e in edges if e[0] in near and e[1] in near]


def premises(key: str, edges: Sequence[tuple[str, str, str]]) -> set[str]:
    """Everything ``key`` rests on (:func:`rests_on`), transitively: its premises down to the cited facts, its
    proof's steps, and the errata that make any of them fail."""
    below: dict[str, list[str]] = {}
    for edge in edges:
        on, under = rests_on(edge)
        below.setdefault(on, []).append(under)
    found, todo = set(), [key]
    while todo:
        for under in below.get(todo.pop(), ()):
            if under not in found:
                found.add(under)
                todo.append(under)
    return found - {key}


def _em(char: str) -> float:
    if char in _NARROW:
        return EM_NARROW
    if char in _WIDE or not char.isascii():
        return EM_WIDE
    return EM_UPPER if char.isupper() or char.isdigit() else EM_LOWER


def text_width(text: str, size: float, bold: bool = False, mono: bool = False) -> float:
    """An upper bound on the width of ``text`` in CSS pixels at font ``size`` (see :data:`EM_LOWER`)."""
    if mono:
        return len(text) * MONO * size
    return sum(map(_em, text)) * size * (BOLD if bold else 1.0)


def wrap(text: str, width: float, size: float, bold: bool = False, mono: bool = False) -> list[str]:
    """``text`` on as few lines as fit ``width`` pixels (:func:`text_width`), broken between words, a word too long
    for a line after a hyphen or a slash, else anywhere; every character kept, none added."""
    lines: list[str] = []
    for word in text.split():
        line = f"{lines[-1]} {word}" if lines else word
        if lines and text_width(line, size, bold, mono) <= width:
            lines[-1] = line
            continue
        while text_width(word, size, bold, mono) > width:
            fits = max((i for i in range(1, len(word)) if text_width(word[:i], size, bold, mono) <= width), default=1)
            cut = max((i + 1 for i in range(fits) if word[i] in "-/"), default=fits)
            lines.append(word[:cut])
            word = word[cut:]
        lines.append(word)
    return lines or [""]


def _lines(node: Node) -> tuple[list[str], list[str]]:
    inner = NODE_WIDTH - 2 * PAD
    return wrap(node.label, inner, TITLE_SIZE, bold=node.main), wrap(node.detail, inner, ID_SIZE, mono=True)


def node_height(node: Node) -> int:
    """A node's height: its title and id, each on as many lines as they need, and its status line."""
    title, detail = _lines(node)
    return 2 * PAD + len(title) * TITLE_LINE + len(detail) * ID_LINE + STATUS_LINE


def _layers(keys: Sequence[str], edges: Sequence[tuple[str, str]]) -> dict[str, int]:
    """Layer of every connected node (0 at the bottom): one above its highest successor; a node with no successor
    one below its lowest predecessor."""
    down: dict[str, list[str]] = {k: [] for k in keys}
    up: dict[str, list[str]] = {k: [] for k in keys}
    for a, b in edges:
        down[a].append(b)
        up[b].append(a)
    height: dict[str, int] = {}

    def measure(key: str, path: tuple) -> int:
        if key in path:
            raise ValueError(f"the argument graph has a cycle: {' -> '.join((*path[path.index(key) :], key))}")
        if key not in height:
            height[key] = 1 + max((measure(k, (*path, key)) for k in down[key]), default=-1)
        return height[key]

    for key in keys:
        measure(key, ())
    for key in keys:
        if not down[key] and up[key]:
            height[key] = min(height[k] for k in up[key]) - 1
    return {k: h for k, h in height.items() if down[k] or up[k]}


def layout(
    nodes: Sequence[Node],
    edges: Sequence[tuple[str, str, str]],
    claim_order: Callable[[str], int] = lambda claim: 0,
    row_nodes: int = ROW_NODES,
) -> tuple[dict[str, tuple[int, int]], int, int]:
    """Top-left corner of every node (integers, CSS pixels) and the picture's width and height.

    Parameters
    ----------
    nodes, edges : sequences
        :func:`graph_nodes` and :func:`graph_edges` (or a :func:`subgraph`).
    claim_order : callable
        Rank of a claim id (the paper's order); nodes start ordered by it, then by key.
    row_nodes : int
        Most nodes on one row; a wider layer wraps.
    """
    if row_nodes < 1:
        raise ValueError(f"row_nodes must be at least 1, got {row_nodes!r}")
    keys = sorted(n.key for n in nodes)
    known = set(keys)
    oriented = [rests_on(e) for e in edges if e[0] in known and e[1] in known]
    layer = _layers(keys, oriented)
    by_key = {n.key: n for n in nodes}
    start = {k: (claim_order(by_key[k].claim) if by_key[k].claim else -1, k) for k in keys}
    levels = sorted(set(layer.values()), reverse=True)
    rows = [sorted((k for k in keys if layer.get(k) == level), key=start.get) for level in levels]
    neighbours: dict[str, list[str]] = {k: [] for k in keys}
    for a, b in oriented:
        neighbours[a].append(b)
        neighbours[b].append(a)
    for _ in range(SWEEPS):
        for sweep in (range(1, len(rows)), range(len(rows) - 2, -1, -1)):
            for i in sweep:
                other = rows[i - 1] if sweep.step == 1 else rows[i + 1]
                place = {k: p for p, k in enumerate(other)}
                rows[i] = sorted(rows[i], key=lambda k: (_barycentre(k, neighbours, place, rows[i].index(k)), k))
    loose = sorted((k for k in keys if k not in layer), key=start.get)
    wrapped = [
        row[i : i + row_nodes] for row in rows + ([loose] if loose else []) for i in range(0, len(row), row_nodes)
    ]
    width = 2 * MARGIN + max((len(r) for r in wrapped), default=0) * (NODE_WIDTH + H_GAP) - H_GAP
    position, top = {}, MARGIN
    for row in wrapped:
        left = (width - len(row) * (NODE_WIDTH + H_GAP) + H_GAP) // 2
        for c, key in enumerate(row):
            position[key] = (left + c * (NODE_WIDTH + H_GAP), top)
        top += max(node_height(by_key[k]) for k in row) + V_GAP
    height = top - V_GAP + MARGIN if wrapped else 0
    return position, max(width, 0), max(height, 0)


def _barycentre(key: str, neighbours: Mapping[str, list[str]], place: Mapping[str, int], own: int) -> int:
    """Mean position of ``key``'s neighbours in the adjacent row (in thousandths, an integer), or its own place when
    it has none there."""
    placed = [place[k] for k in neighbours[key] if k in place]
    return sum(placed) * 1000 // len(placed) if placed else own * 1000


def _check_statuses(nodes: Sequence[Node]) -> None:
    unknown = sorted({n.status for n in nodes} - set(STATUS_COLOURS))
    if unknown:
        raise ValueError(f"graph nodes with no status colour: {unknown}; known: {sorted(STATUS_COLOURS)}")


def graph_svg(
    nodes: Sequence[Node],
    edges: Sequence[tuple[str, str, str]],
    href: Callable[[Node], str],
    claim_order: Callable[[str], int] = lambda claim: 0,
    title: str = "the argument graph",
    page: Callable[[Node], str] = lambda node: "",
    row_nodes: int = ROW_NODES,
) -> str:
    """The graph as inline SVG: a link per node (``href(node)``; ``page(node)``, when not empty, its row on its
    claim page), its full title and its status in words, main results framed twice.

    The SVG is as wide as its layout (a page shows it in a box that scrolls, and scales it to the paper in print).
    """
    _check_statuses(nodes)
    position, width, height = layout(nodes, edges, claim_order, row_nodes)
    return _draw(nodes, edges, position, width, height, href, page, title, [])


def view_svg(
    nodes: Sequence[Node],
    edges: Sequence[tuple[str, str, str]],
    key: str,
    href: Callable[[Node], str],
    claim_order: Callable[[str], int] = lambda claim: 0,
    page: Callable[[Node], str] = lambda node: "",
) -> str:
    """What the node ``key`` rests on (:func:`premises`) as a layered tree with ``key`` on top, at most
    :data:`VIEW_ROW_NODES` nodes a row (it fits an 800 px window)."""
    keep = premises(key, edges) | {key}
    by_key = {n.key: n for n in nodes}
    if key not in by_key:
        raise ValueError(f"no node {key!r} in the graph")
    title = f"what {by_key[key].label} rests on"
    return graph_svg(
        [n for n in nodes if n.key in keep],
        [e for e in edges if e[0] in keep and e[1] in keep],
        href,
        claim_order,
        title,
        page,
        VIEW_ROW_NODES,
    )


def sections_svg(
    nodes: Sequence[Node],
    edges: Sequence[tuple[str, str, str]],
    href: Callable[[Node], str],
    claim_order: Callable[[str], int] = lambda claim: 0,
    page: Callable[[Node], str] = lambda node: "",
) -> str:
    """The whole graph grouped by the paper's sections: a frame per section (:data:`SECTION_TITLES`, paper order;
    then what names no section, then the cited facts), each laid out in layers by the edges inside it; an edge
    between two sections is drawn faint (selecting a node draws its own dark)."""
    _check_statuses(nodes)
    laid = []
    for members in by_section(nodes):
        inside = {n.key for n in members}
        edges_inside = [e for e in edges if e[0] in inside and e[1] in inside]
        laid.append((members[0].section, *layout(members, edges_inside, claim_order)))
    width = max(w for _, _, w, _ in laid) + 2 * MARGIN
    position, frames, top = {}, [], MARGIN
    for section, local, w, h in laid:
        frames.append((section, top, h + SECTION_HEAD))
        left = MARGIN + (width - 2 * MARGIN - w) // 2
        for key, (x, y) in local.items():
            position[key] = (left + x, top + SECTION_HEAD + y)
        top += h + SECTION_HEAD + SECTION_GAP
    return _draw(
        nodes, edges, position, width, top - SECTION_GAP + MARGIN, href, page, "the argument graph by section", frames
    )


def by_section(nodes: Sequence[Node]) -> list[list[Node]]:
    """The nodes in groups by section, in the order of :func:`sections_svg`."""
    groups: dict[int, list[Node]] = {}
    for node in nodes:
        groups.setdefault(node.section, []).append(node)
    return [groups[section] for section in sorted(groups)]


def section_title(section: int) -> str:
    """The heading of a group of :func:`sections_svg`."""
    if section == FACTS_SECTION:
        return "Cited textbook facts (not proved here)"
    return SECTION_TITLES.get(section, "Not tied to one section")


def _draw(nodes, edges, position, width, height, href, page, title, frames) -> str:
    section = {n.key: n.section for n in nodes}
    parts = [
        f'<svg class="argument-graph" xmlns="http://www.w3.org/2000/svg" role="img" width="{width}" '
        f'height="{height}" viewBox="0 0 {width} {height}" font-family="system-ui, sans-serif" '
        f'style="--legible-width: {math.ceil(width * LEGIBLE_SCALE)}px">'
        f"<title>{html.escape(title)}</title>"
        '<defs><marker id="arrow" viewBox="0 0 10 10" refX="10" refY="5" markerWidth="7" markerHeight="7" '
        'orient="auto-start-reverse"><path d="M 0 0 L 10 5 L 0 10 z" fill="#555"/></marker></defs>'
    ]
    for group, top, tall in frames:
        parts.append(
            f'<g class="section"><rect x="{MARGIN // 2}" y="{top}" width="{width - MARGIN}" height="{tall}" rx="8" '
            f'fill="#f6f8fa" stroke="#8c959f"/><text x="{MARGIN + 4}" y="{top + 18}" font-size="14" '
            f'font-weight="700" fill="#24292f">{html.escape(section_title(group))}</text></g>'
        )
    by_key = {n.key: n for n in nodes}
    rows = _rows(position, by_key)
    for edge in edges:
        a, b, kind = edge
        if a not in position or b not in position:
            continue
        path = _route(position[a], node_height(by_key[a]), position[b], node_height(by_key[b]), rows)
        dash = EDGE_STYLES[kind][0]
        on, under = rests_on(edge)
        cross = " cross" if frames and section[a] != section[b] else ""
        parts.append(
            f'<path class="edge {kind}{cross}" data-on="{html.escape(on)}" data-under="{html.escape(under)}" '
            f'd="{path}" fill="none" stroke="#777" '
            'stroke-width="1.1"' + (f' stroke-dasharray="{dash}"' if dash else "") + ' marker-end="url(#arrow)"/>'
        )
    for node in sorted(nodes, key=lambda n: n.key):
        if node.key in position:
            parts.append(_node_svg(node, *position[node.key], href(node), page(node)))
    parts.append("</svg>")
    return "".join(parts)


def _rows(position: Mapping[str, tuple[int, int]], by_key: Mapping[str, Node]) -> dict[int, tuple[int, list[int]]]:
    """Each row's top: its bottom (its tallest node's) and the x of the gaps an edge may pass through (beside and
    between its nodes)."""
    rows: dict[int, list[str]] = {}
    for key, (_, y) in position.items():
        rows.setdefault(y, []).append(key)
    found = {}
    for top, keys in rows.items():
        xs = sorted(position[k][0] for k in keys)
        gaps = [xs[0] - H_GAP // 2, *(x + NODE_WIDTH + H_GAP // 2 for x in xs)]
        found[top] = (top + max(node_height(by_key[k]) for k in keys), gaps)
    return found


def _route(a: tuple[int, int], a_height: int, b: tuple[int, int], b_height: int, rows) -> str:
    """The path of an edge from the node at ``a`` to the node at ``b`` (top-left corners, heights): out of the side
    that faces the other node, straight along its own column to its row's edge, then through the gap of each row
    between them nearest to the straight line, so that it never runs behind a node; integers only."""
    (ax, ay), (bx, by) = a, b
    x1, x2 = ax + NODE_WIDTH // 2, bx + NODE_WIDTH // 2
    down = ay < by
    if down:  # from a's bottom to b's top
        start, first, last, end = ay + a_height, rows[ay][0], by, by
    else:  # from a's top to b's bottom
        start, first, last, end = ay, ay, rows[by][0], by + b_height
    low, high = sorted((first, last))
    between = sorted((t for t, (bottom, _) in rows.items() if low < t and bottom < high), reverse=not down)
    points = [(x1, first)]
    for top in between:
        bottom, gaps = rows[top]
        aim = x1 + (x2 - x1) * ((top + bottom) // 2 - first) // (last - first)
        gap = min(gaps, key=lambda g: (abs(g - aim), g))
        points += [(gap, top - 4), (gap, bottom + 4)] if down else [(gap, bottom + 4), (gap, top - 4)]
    points.append((x2, last))
    d = [f"M {x1} {start}"] + ([f"L {x1} {first}"] if first != start else [])
    for (xa, ya), (xb, yb) in itertools.pairwise(points):
        bend = (yb - ya) // 2
        d.append(f"L {xb} {yb}" if xa == xb else f"C {xa} {ya + bend} {xb} {yb - bend} {xb} {yb}")
    return " ".join(d + ([f"L {x2} {end}"] if end != last else []))


def _node_svg(node: Node, x: int, y: int, link: str, page: str) -> str:
    fill, stroke = STATUS_COLOURS[node.status]
    words = STATUS_WORDS[node.status] + (", main result" if node.main else "")
    tall = node_height(node)
    frame = (
        (
            f'<rect x="{x - 3}" y="{y - 3}" width="{NODE_WIDTH + 6}" height="{tall + 6}" rx="7" '
            f'fill="none" stroke="{stroke}" stroke-width="2"/>'
        )
        if node.main
        else ""
    )
    dash = ' stroke-dasharray="5 3"' if node.status in ("cited", "erratum") else ""
    title, detail = _lines(node)
    text, line = [], y + PAD + TITLE_LINE - 4
    for words_line in title:
        text.append(
            f'<text class="title" x="{x + PAD}" y="{line}" font-size="{TITLE_SIZE}" '
            f'font-weight="{700 if node.main else 400}" fill="#111">{html.escape(words_line)}</text>'
        )
        line += TITLE_LINE
    line += ID_LINE - TITLE_LINE
    for id_line in detail:
        text.append(
            f'<text x="{x + PAD}" y="{line}" font-size="{ID_SIZE}" font-family="monospace" fill="#333">'
            f"{html.escape(id_line)}</text>"
        )
        line += ID_LINE
    line += STATUS_LINE - ID_LINE
    text.append(
        f'<text x="{x + PAD}" y="{line}" font-size="{STATUS_SIZE}" font-style="italic" fill="#222">'
        f"{html.escape(words)}</text>"
    )
    tooltip = f"{node.label} ({node.detail}): {words}" + (f". {node.note}" if node.note else "")
    data = f' data-key="{html.escape(node.key)}" data-name="{html.escape(node.label)}"'
    data += f' data-status="{html.escape(words)}"' + (f' {PAGE_ATTRIBUTE}="{html.escape(page)}"' if page else "")
    return (
        f'<a class="node node-{html.escape(node.status)}" href="{html.escape(link)}"{data}>'
        f"<title>{html.escape(tooltip)}</title>{frame}"
        f'<rect class="box" x="{x}" y="{y}" width="{NODE_WIDTH}" height="{tall}" rx="5" fill="{fill}" '
        f'stroke="{stroke}" stroke-width="{3 if node.main else 1.5}"{dash}/>' + "".join(text) + "</a>"
    )


def legend_svg() -> str:
    """The legend: a swatch and its words for every status, and a line of every edge kind (no colour alone)."""
    items = []
    for status, (fill, stroke) in STATUS_COLOURS.items():
        dash = ' stroke-dasharray="5 3"' if status in ("cited", "erratum") else ""
        items.append(
            f'<span class="key"><svg width="26" height="14" aria-hidden="true"><rect x="1" y="1" '
            f'width="24" height="12" rx="3" fill="{fill}" stroke="{stroke}" stroke-width="1.5"{dash}/></svg> '
            f"{html.escape(STATUS_WORDS[status])}</span>"
        )
    items.append(
        '<span class="key"><svg width="26" height="14" aria-hidden="true"><rect x="2" y="2" width="22" '
        'height="10" rx="3" fill="#fff" stroke="#333" stroke-width="3"/></svg> <b>main result</b> '
        "(framed twice)</span>"
    )
    for dash, text in EDGE_STYLES.values():
        pattern = f' stroke-dasharray="{dash}"' if dash else ""
        items.append(
            f'<span class="key"><svg width="34" height="10" aria-hidden="true"><line x1="1" y1="5" x2="33" '
            f'y2="5" stroke="#555" stroke-width="1.5"{pattern}/></svg> {html.escape(text)}</span>'
        )
    return '<p class="graph-legend">' + " ".join(items) + "</p>"


#: The attribute of a node that holds its row on its claim page (a link :data:`GRAPH_SCRIPT` builds when the node is
#: selected: a copy of the page that moves it, such as the committed site, relocates it as it does ``href``).
PAGE_ATTRIBUTE = "data-page"

#: What a selected node's panel says before anything is selected (and without scripts).
PANEL_HINT = (
    "Select a node to frame what it rests on (solid black) and what rests on it (dashed black), and to list both "
    "here with links to its rows; select it again to open its row on the report."
)


def graph_figure(svg: str, box: str = "graph-box") -> str:
    """A graph's SVG in its box (class ``box``), with the panel :data:`GRAPH_SCRIPT` fills when a node is selected."""
    return (
        f'<div class="graph"><div class="{box}">{svg}</div>'
        f'<p class="graph-panel" aria-live="polite">{html.escape(PANEL_HINT)}</p></div>'
    )


#: Styles of the graph's box, legend, views and panel (on the graph page and the claim pages). A box that scrolls is
#: shaded where more is hidden (:data:`~sparseact.publish.mathtext.SCROLL_CUE`); a view fits its box down to
#: :data:`LEGIBLE_SCALE` (``--legible-width``, set on the picture), then scrolls. In print, each view
#: (``.graph-view``) starts a page and is scaled to fit it.
GRAPH_CSS = (
    """
.print-only { display: none; }
.graph-box { overflow: auto; max-width: 100%; max-height: 85vh; border: 1px solid #ccc; margin-bottom: 0.3em; """
    + SCROLL_CUE
    + """ }
.graph-box.view-box { max-height: none; overflow-x: auto; overflow-y: hidden; border: none; }
.view-box svg.argument-graph { max-width: 100%; min-width: var(--legible-width, 0); height: auto; }
.graph-legend { font-size: 0.85em; line-height: 1.9; }
.graph-legend .key { white-space: nowrap; margin-right: 1em; }
.graph-legend svg { vertical-align: middle; }
.graph-panel { font-size: 0.9em; background: #f6f8fa; border-left: 4px solid #8c959f; padding: 0.3em 0.6em;
  margin: 0 0 1em; position: sticky; bottom: 0; }
svg.argument-graph a:hover rect.box, svg.argument-graph a:focus rect.box { stroke-width: 3.5; }
svg.argument-graph .edge.cross { opacity: 0.3; }
svg.argument-graph.selecting a.node, svg.argument-graph.selecting .edge { opacity: 0.25; }
svg.argument-graph.selecting a.node.on, svg.argument-graph.selecting .edge.on { opacity: 1; }
svg.argument-graph a.node.below rect.box, svg.argument-graph a.node.above rect.box { stroke: #111;
  stroke-width: 3.5; stroke-dasharray: none; }
svg.argument-graph a.node.above rect.box { stroke-dasharray: 9 4; }
svg.argument-graph a.node.selected rect.box { stroke: #111; stroke-width: 5; stroke-dasharray: none; }
svg.argument-graph .edge.on { stroke: #111; stroke-width: 2.2; }
.graph-fit { margin-right: 0.4em; }
.graph-fit:checked ~ .graph .graph-box svg.argument-graph { width: 100%; height: 80vh; }
@media print { .graph-box { overflow: visible; max-height: none; border: none; background: none; }
  .view-box svg.argument-graph { min-width: 0; }
  .graph-fit, .graph-fit + label, .graph-panel, .screen-only { display: none; }
  svg.argument-graph { width: 100%; height: auto; }
  .graph-view { break-before: page; break-inside: avoid; }
  .graph-view svg.argument-graph { max-height: 8.4in; }
  .graph-sections { break-before: page; }
  .graph-sections .graph { display: none; }
  .print-only { display: block; }
  .section-print { break-inside: avoid; margin-bottom: 0.5em; }
  .section-print svg.argument-graph { width: auto; max-width: 100%; } }
"""
)
#: A switch above a graph's box (CSS only): the whole graph scaled into the window, or at its own size in a box that
#: scrolls.
GRAPH_FIT = (
    '<input type="checkbox" id="graph-fit" class="graph-fit">'
    '<label for="graph-fit">Fit the whole graph into the window</label>'
)

#: Selecting a node (a click, or Enter on a node reached by Tab) frames what it rests on and what rests on it in its
#: picture, fades the rest and names both in the picture's panel, with links to the node's row on the report and on
#: its claim page; selecting it again follows its link; Escape or a click beside the nodes clears. Inline, so that
#: the page works offline; without scripts every node is a plain link.
GRAPH_SCRIPT = """<script>
(() => {
  for (const svg of document.querySelectorAll('svg.argument-graph')) {
    const panel = svg.closest('.graph') && svg.closest('.graph').querySelector('.graph-panel');
    if (!panel) continue;
    const hint = panel.textContent, nodes = new Map(), below = new Map(), above = new Map();
    for (const a of svg.querySelectorAll('a.node')) {
      nodes.set(a.dataset.key, a); below.set(a.dataset.key, []); above.set(a.dataset.key, []);
    }
    const edges = Array.from(svg.querySelectorAll('.edge'));
    for (const e of edges) { below.get(e.dataset.on).push(e.dataset.under); above.get(e.dataset.under).push(e.dataset.on); }
    const reach = (key, next) => {
      const seen = new Set(), todo = [key];
      while (todo.length) for (const k of next.get(todo.pop())) if (!seen.has(k)) { seen.add(k); todo.push(k); }
      seen.delete(key);
      return seen;
    };
    const names = keys => Array.from(keys, k => nodes.get(k).dataset.name).sort().join('; ');
    const link = (href, text) => { const a = document.createElement('a'); a.href = href; a.textContent = text; return a; };
    let selected = null;
    const select = key => {
      selected = key;
      const down = key ? reach(key, below) : new Set(), up = key ? reach(key, above) : new Set();
      svg.classList.toggle('selecting', key !== null);
      for (const [k, a] of nodes) {
        a.classList.toggle('selected', k === key);
        a.classList.toggle('below', down.has(k));
        a.classList.toggle('above', up.has(k));
        a.classList.toggle('on', k === key || down.has(k) || up.has(k));
      }
      for (const e of edges) {
        const on = e.dataset.on, under = e.dataset.under;
        e.classList.toggle('on', ((on === key || down.has(on)) && down.has(under)) || ((under === key || up.has(under)) && up.has(on)));
      }
      panel.textContent = key ? '' : hint;
      if (!key) return;
      const a = nodes.get(key), b = document.createElement('b');
      b.textContent = a.dataset.name;
      panel.append(b, ` (${key}): ${a.dataset.status}. `, link(a.getAttribute('href'), 'Its row on the report'));
      if (a.dataset.page) panel.append(' · ', link(a.dataset.page, 'its claim page'));
      panel.append(`. It rests on ${down.size}${down.size ? ': ' + names(down) : ''}. `
        + `${up.size} rest${up.size === 1 ? 's' : ''} on it${up.size ? ': ' + names(up) : ''}.`);
    };
    for (const [k, a] of nodes) a.addEventListener('click', ev => { if (selected !== k) { ev.preventDefault(); select(k); } });
    svg.addEventListener('click', ev => { if (!ev.target.closest('a.node')) select(null); });
    document.addEventListener('keydown', ev => { if (ev.key === 'Escape') select(null); });
  }
})();
</script>"""
