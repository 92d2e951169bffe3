"""The argument graph as a picture: one node per statement, cited fact and erratum root cause, laid out in layers.

A node is a statement of :mod:`sparseact.paper` (coloured by its derived status), a cited textbook fact or a root
cause of an erratum. An edge says *uses* (a statement's argument rests on a statement or a fact), *proof step* (a
step of a statement's printed proof) or *root cause* (an erratum's root cause makes a statement fail as printed).
Checks are not nodes: they are the leaves every page lists under its statement.

:func:`graph_nodes` and :func:`graph_edges` read the graph from a run's result tables; :func:`layout` places it;
:func:`graph_svg` draws it as inline SVG whose every node is a link. The layout is computed here, in integers, by a
layered (Sugiyama-style) method, and not by Graphviz, so that the picture needs no program beyond the pip-installed
package and is byte-identical on every machine (``docs/statements-graph.md`` says why):

1. layers: a node sits one layer above its highest successor (the longest path down to a node that uses nothing);
   a node with no successor sits one layer below its lowest predecessor, so that a fact or a leaf sits just under
   the statement that uses it; nodes with no edge at all go to a last block;
2. order within a layer: claims in paper order first, then barycentre sweeps (down and up, :data:`SWEEPS` times)
   that move each node towards the mean position of its neighbours in the layer above or below, ties by id;
3. a layer wider than :data:`ROW_NODES` nodes wraps onto several rows; rows are centred.
"""

from __future__ import annotations

import html
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from sparseact.paper import facts as paper_facts
from sparseact.paper import premise_kind
from sparseact.paper import statements as paper_statements
from sparseact.publish.links import anchor
from sparseact.publish.mathtext import tex_to_unicode
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
NODE_HEIGHT = 58
H_GAP = 24
V_GAP = 46
MARGIN = 12
#: Most nodes on one row: a wider layer wraps (six nodes fit a 1,600 px box).
ROW_NODES = 6
#: Barycentre sweeps (each one down and one up) of the crossing reduction.
SWEEPS = 4


@dataclass(frozen=True)
class Node:
    """One node: ``key`` (a statement id, ``fact:...`` or ``erratum:...``), what it says and its status."""

    key: str
    label: str
    detail: str
    status: str
    claim: str = ""
    main: bool = False


def node_anchor(key: str) -> str:
    """The ``id`` of a node's row on the report (:func:`sparseact.publish.links.anchor`)."""
    if key.startswith(ERRATUM_PREFIX):
        return anchor(key[len(ERRATUM_PREFIX) :], erratum=True)
    return anchor(key)


def graph_nodes(statements, errata) -> list[Node]:
    """The nodes of the run's graph: every statement (``statements.csv``), every cited fact, every erratum root."""
    entries = {e["id"]: e for e in paper_statements()}
    nodes = [
        Node(
            key=r["statement_id"],
            label=r["paper_ref"],
            detail=r["statement_id"],
            status=r["status"],
            claim=r["claim_id"],
            main=bool(entries.get(r["statement_id"], {}).get("main")),
        )
        for r in statements.to_dict("records")
    ]
    nodes += [Node(key=f["id"], label=f["name"], detail=f["id"], status="cited") for f in paper_facts()]
    nodes += [
        Node(
            key=ERRATUM_PREFIX + r["erratum_id"],
            label=_first_words(r["location"]),
            detail=r["erratum_id"],
            status="erratum",
        )
        for r in errata.to_dict("records")
    ]
    return nodes


def _first_words(text: str, width: int = 34) -> str:
    """``text`` with its TeX math in Unicode (:func:`sparseact.publish.mathtext.tex_to_unicode`), cut at a word to
    about ``width`` characters."""
    text = " ".join(tex_to_unicode(str(text)).split())
    return text if len(text) <= width else text[:width].rsplit(" ", 1)[0] + "…"


def graph_edges(statements, errata) -> list[tuple[str, str, str]]:
    """``(from, to, kind)``: a statement to each statement or fact it uses, to each step of its printed proof, and
    an erratum root to each statement it makes fail; checks are left out (they are no nodes)."""
    edges = []
    for row in statements.to_dict("records"):
        for premise in filter(None, (p.strip() for p in str(row["uses"]).split(";"))):
            if premise_kind(premise) != "check":
                edges.append((row["statement_id"], premise, "uses"))
    known = set(statements["statement_id"])
    for entry in paper_statements():
        if entry.get("proof_of") and entry["id"] in known:
            edges.append((entry["proof_of"], entry["id"], "step"))
    for row in errata.to_dict("records"):
        for statement in filter(None, (s.strip() for s in str(row["statements"]).split(";"))):
            edges.append((ERRATUM_PREFIX + row["erratum_id"], statement, "cause"))
    return sorted(set(edges))


def subgraph(nodes: Sequence[Node], edges: Sequence[tuple[str, str, str]], keys) -> tuple[list[Node], list]:
    """The nodes ``keys`` with every node one edge away from them, and the edges among those."""
    keys = set(keys)
    near = keys | {b for a, b, _ in edges if a in keys} | {a for a, b, _ in edges if b in keys}
    return [n for n in nodes if n.key in near], [e for e in edges if e[0] in near and e[1] in near]


def _layers(keys: Sequence[str], edges: Sequence[tuple[str, str, str]]) -> dict[str, int]:
    """Layer of every connected node (0 at the bottom): one above its highest successor; a node with no successor
    one below its lowest predecessor."""
    down: dict[str, list[str]] = {k: [] for k in keys}
    up: dict[str, list[str]] = {k: [] for k in keys}
    for a, b, _ in edges:
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
    nodes: Sequence[Node], edges: Sequence[tuple[str, str, str]], claim_order: Callable[[str], int] = lambda claim: 0
) -> tuple[dict[str, tuple[int, int]], int, int]:
    """Top-left corner of every node (integers, CSS pixels) and the picture's width and height.

    Parameters
    ----------
    nodes, edges : sequences
        :func:`graph_nodes` and :func:`graph_edges` (or a :func:`subgraph`).
    claim_order : callable
        Rank of a claim id (the paper's order); nodes start ordered by it, then by key.
    """
    keys = sorted(n.key for n in nodes)
    edges = [e for e in edges if e[0] in set(keys) and e[1] in set(keys)]
    layer = _layers(keys, edges)
    by_key = {n.key: n for n in nodes}
    start = {k: (claim_order(by_key[k].claim) if by_key[k].claim else -1, k) for k in keys}
    levels = sorted(set(layer.values()), reverse=True)
    rows = [sorted((k for k in keys if layer.get(k) == level), key=start.get) for level in levels]
    neighbours: dict[str, list[str]] = {k: [] for k in keys}
    for a, b, _ in edges:
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
        row[i : i + ROW_NODES] for row in rows + ([loose] if loose else []) for i in range(0, len(row), ROW_NODES)
    ]
    width = 2 * MARGIN + max((len(r) for r in wrapped), default=0) * (NODE_WIDTH + H_GAP) - H_GAP
    position = {}
    for r, row in enumerate(wrapped):
        left = (width - len(row) * (NODE_WIDTH + H_GAP) + H_GAP) // 2
        for c, key in enumerate(row):
            position[key] = (left + c * (NODE_WIDTH + H_GAP), MARGIN + r * (NODE_HEIGHT + V_GAP))
    height = 2 * MARGIN + len(wrapped) * (NODE_HEIGHT + V_GAP) - V_GAP
    return position, max(width, 0), max(height, 0)


def _barycentre(key: str, neighbours: Mapping[str, list[str]], place: Mapping[str, int], own: int) -> int:
    """Mean position of ``key``'s neighbours in the adjacent row (in thousandths, an integer), or its own place when
    it has none there."""
    placed = [place[k] for k in neighbours[key] if k in place]
    return sum(placed) * 1000 // len(placed) if placed else own * 1000


def graph_svg(
    nodes: Sequence[Node],
    edges: Sequence[tuple[str, str, str]],
    href: Callable[[Node], str],
    claim_order: Callable[[str], int] = lambda claim: 0,
    title: str = "the argument graph",
) -> str:
    """The graph as inline SVG: a link per node (``href(node)``), its status in words, main results framed twice.

    The SVG is as wide as its layout (a page shows it in a box that scrolls, and scales it to the paper in print).
    """
    unknown = sorted({n.status for n in nodes} - set(STATUS_COLOURS))
    if unknown:
        raise ValueError(f"graph nodes with no status colour: {unknown}; known: {sorted(STATUS_COLOURS)}")
    position, width, height = layout(nodes, edges, claim_order)
    parts = [
        f'<svg class="argument-graph" xmlns="http://www.w3.org/2000/svg" role="img" width="{width}" '
        f'height="{height}" viewBox="0 0 {width} {height}" font-family="system-ui, sans-serif">'
        f"<title>{html.escape(title)}</title>"
        '<defs><marker id="arrow" viewBox="0 0 10 10" refX="10" refY="5" markerWidth="7" markerHeight="7" '
        'orient="auto-start-reverse"><path d="M 0 0 L 10 5 L 0 10 z" fill="#555"/></marker></defs>'
    ]
    for a, b, kind in edges:
        if a not in position or b not in position:
            continue
        (ax, ay), (bx, by) = position[a], position[b]
        x1, x2 = ax + NODE_WIDTH // 2, bx + NODE_WIDTH // 2
        y1, y2 = (ay + NODE_HEIGHT, by) if ay < by else (ay, by + NODE_HEIGHT)
        bend = (y2 - y1) // 2
        dash = EDGE_STYLES[kind][0]
        parts.append(
            f'<path class="edge {kind}" d="M {x1} {y1} C {x1} {y1 + bend} {x2} {y2 - bend} {x2} {y2}" '
            f'fill="none" stroke="#777" stroke-width="1.1"'
            + (f' stroke-dasharray="{dash}"' if dash else "")
            + ' marker-end="url(#arrow)"/>'
        )
    for node in sorted(nodes, key=lambda n: n.key):
        if node.key not in position:
            continue
        x, y = position[node.key]
        fill, stroke = STATUS_COLOURS[node.status]
        words = STATUS_WORDS[node.status] + (", main result" if node.main else "")
        frame = (
            (
                f'<rect x="{x - 3}" y="{y - 3}" width="{NODE_WIDTH + 6}" height="{NODE_HEIGHT + 6}" rx="7" '
                f'fill="none" stroke="{stroke}" stroke-width="2"/>'
            )
            if node.main
            else ""
        )
        dash = ' stroke-dasharray="5 3"' if node.status in ("cited", "erratum") else ""
        parts.append(
            f'<a class="node node-{html.escape(node.status)}" href="{html.escape(href(node))}">'
            f"<title>{html.escape(node.label)} ({html.escape(node.detail)}): {html.escape(words)}</title>{frame}"
            f'<rect x="{x}" y="{y}" width="{NODE_WIDTH}" height="{NODE_HEIGHT}" rx="5" fill="{fill}" '
            f'stroke="{stroke}" stroke-width="{3 if node.main else 1.5}"{dash}/>'
            f'<text x="{x + 8}" y="{y + 17}" font-size="12.5" font-weight="{700 if node.main else 400}" '
            f'fill="#111">{html.escape(_first_words(node.label, 30))}</text>'
            f'<text x="{x + 8}" y="{y + 33}" font-size="10.5" font-family="monospace" fill="#333">'
            f"{html.escape(_first_words(node.detail, 34))}</text>"
            f'<text x="{x + 8}" y="{y + 50}" font-size="11" font-style="italic" fill="#222">'
            f"{html.escape(words)}</text></a>"
        )
    parts.append("</svg>")
    return "".join(parts)


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


#: Styles of the graph's box and legend (on the graph page and the claim pages).
GRAPH_CSS = """
.graph-box { overflow: auto; max-width: 100%; max-height: 85vh; border: 1px solid #ccc; margin-bottom: 1em; }
.graph-legend { font-size: 0.85em; line-height: 1.9; }
.graph-legend .key { white-space: nowrap; margin-right: 1em; }
.graph-legend svg { vertical-align: middle; }
svg.argument-graph a:hover rect, svg.argument-graph a:focus rect { stroke-width: 3.5; }
.graph-fit { margin-right: 0.4em; }
.graph-fit:checked ~ .graph-box svg.argument-graph { width: 100%; height: 80vh; }
@media print { .graph-box { overflow: visible; max-height: none; border: none; }
  .graph-fit, .graph-fit + label { display: none; }
  svg.argument-graph { width: 100%; height: auto; } }
"""
#: A switch above a graph's box (CSS only, so that the page works offline and without scripts): the whole graph
#: scaled into the window, or at its own size in a box that scrolls.
GRAPH_FIT = (
    '<input type="checkbox" id="graph-fit" class="graph-fit">'
    '<label for="graph-fit">Fit the whole graph into the window</label>'
)
