"""The layers run downhill, and nothing imports in a circle (docs/architecture.md, "Layers").

Every module of ``src/sparseact`` is read with :mod:`ast`, and every import in it counts: at module level, inside a
function, under ``if TYPE_CHECKING``. A module imports only from its own layer or a lower one, in the order

    core -> runtime -> verification -> publishing -> claims -> entry points

and the import graph has no cycle, neither between files nor between packages (a package of ``sparseact`` with its
subfolders taken as one; a module at the top of ``sparseact`` as its own). A claim's pins (``claims/<id>/pins.py``)
are the verifier's, kept in the claim's folder: they are in its layer, and the checker reads them by path.
A module named by a string (``importlib.import_module("sparseact.publish.report")``, a list of dotted names, a
prefix such as ``f"sparseact.claims.{claim}"`` or ``"sparseact."`` that names are appended to) runs downhill too: a
name is an import that the import statements do not show.
An import inside a function says why it is there (a ``#`` comment on its line, or on the line above the run of
imports it opens): a deferred import is a decision, not a habit.
"""

import ast
import functools
import re
import subprocess
import sys
from collections import defaultdict
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "src" / "sparseact"

#: The layers from the ground up; a module's layer is the first whose prefix its dotted name starts with (the core is
#: everything else: sparseact's own modules and the packages cube, networks, families, learners, paper, ...).
LAYERS = (
    ("core", ()),
    ("runtime", ("sparseact.runtime", "sparseact.kernels")),
    ("verification", ("sparseact.verify",)),
    ("publishing", ("sparseact.publish",)),
    ("claims", ("sparseact.claims",)),
    ("entry points", ("sparseact.cli",)),
)


def _module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {_module_name(path): path for path in sorted(PACKAGE.rglob("*.py"))}
#: A claim's pins (``claims/<id>/pins.py``): the verifier's, kept in the claim's folder and read by path.
PINS_MODULE = re.compile(r"sparseact\.claims\.[^._][^.]*\.pins")


def layer(module: str) -> int:
    """The index in :data:`LAYERS` of ``module``'s layer (a claim's pins are the verifier's, :data:`PINS_MODULE`)."""
    if PINS_MODULE.fullmatch(module):
        return LAYERS.index(("verification", ("sparseact.verify",)))
    for index, (_, prefixes) in reversed(list(enumerate(LAYERS))):
        if any(module == prefix or module.startswith(prefix + ".") for prefix in prefixes):
            return index
    return 0


def _target(name: str) -> str | None:
    """The module of this package that an imported dotted name lands in (``None`` outside ``sparseact``)."""
    if name.split(".")[0] != "sparseact":
        return None
    while name not in MODULES:
        name = name.rpartition(".")[0]
    return name


def _imported(module: str, node: ast.Import | ast.ImportFrom) -> list[str]:
    """The dotted names ``node`` imports (``from X import y`` gives ``X.y`` when that is a module, else ``X``)."""
    if isinstance(node, ast.Import):
        return [alias.name for alias in node.names]
    base = node.module or ""
    if node.level:
        package = module.split(".") if MODULES[module].name == "__init__.py" else module.split(".")[:-1]
        base = ".".join(package[: len(package) - node.level + 1] + ([base] if base else []))
    return [f"{base}.{alias.name}" if f"{base}.{alias.name}" in MODULES else base for alias in node.names]


#: The fields of a node that hold statements (an import is a statement: no expression holds one).
_STATEMENT_FIELDS = ("body", "orelse", "finalbody", "handlers", "cases")


def _is_import(node: ast.AST) -> bool:
    return isinstance(node, ast.Import | ast.ImportFrom)


def _statements(statements: list, inside: bool = False):
    """``(statement, its list, its position there, inside a function)`` for every statement among ``statements`` and
    the statements nested in them."""
    for position, node in enumerate(statements):
        yield node, statements, position, inside
        nested = inside or isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
        for field in _STATEMENT_FIELDS:
            block = getattr(node, field, None)
            if isinstance(block, list):
                yield from _statements(block, nested)


@functools.cache
def _source(module: str) -> str:
    """The text of one of this package's modules (read once per process)."""
    return MODULES[module].read_text(encoding="utf-8")


@functools.cache
def _tree(module: str) -> ast.Module:
    """The syntax tree of one of this package's modules (parsed once per process)."""
    return ast.parse(_source(module))


@functools.cache
def imports() -> tuple[tuple[str, str, int], ...]:
    """``(module, imported module, line)`` for every import of this package's modules (read once
    per process, when a test first asks: not at collection, which every worker does)."""
    return tuple(
        (module, target, node.lineno)
        for module in MODULES
        for node, _, _, _ in _statements(_tree(module).body)
        if _is_import(node)
        for name in _imported(module, node)
        if (target := _target(name)) is not None and target != module
    )


#: A string that names modules of this package: a dotted name, or a prefix ending in ``.`` (an f-string's head).
_NAMED = re.compile(r"sparseact(\.[A-Za-z_][A-Za-z0-9_]*)*\.?")


def _named_target(text: str) -> str | None:
    """The module a string names: itself if it is one; for a prefix (``"sparseact.claims."``), the highest-layer
    module below it, as any of them may be appended; ``None`` for any other string."""
    if not _NAMED.fullmatch(text):
        return None
    if not text.endswith("."):
        return text if text in MODULES else None
    below = [module for module in MODULES if module.startswith(text)]
    return max(below, key=lambda module: (layer(module), module)) if below else None


def strings(tree: ast.AST) -> list[ast.Constant]:
    """The string constants of ``tree`` but its docstrings (the pieces of an f-string included)."""
    docstrings = {
        id(node.body[0].value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef)
        and node.body
        and isinstance(node.body[0], ast.Expr)
        and isinstance(node.body[0].value, ast.Constant)
    }
    return [
        node
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docstrings
    ]


def named_modules(tree: ast.Module) -> list[tuple[str, int]]:
    """``(module, line)`` for every string of ``tree`` (docstrings aside) that names modules of this package."""
    return [(target, node.lineno) for node in strings(tree) if (target := _named_target(node.value)) is not None]


@functools.cache
def references() -> tuple[tuple[str, str, int], ...]:
    """:func:`imports` and, as ``(module, named module, line)``, every module a string of this package names."""
    return imports() + tuple(
        (module, target, line)
        for module in MODULES
        for target, line in named_modules(_tree(module))
        if target != module
    )


def _cycles(edges: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one node (Tarjan's algorithm, iterative)."""
    index, low, on_stack, stack, components, counter = {}, {}, set(), [], [], [0]
    for root in sorted(edges):
        if root in index:
            continue
        work = [(root, iter(sorted(edges[root])))]
        index[root] = low[root] = counter[0]
        counter[0] += 1
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = counter[0]
                    counter[0] += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(edges.get(child, ())))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    components.append(sorted(component))
    return components


def test_every_import_runs_downhill():
    uphill = [
        f"{MODULES[a].relative_to(PACKAGE.parent)}:{line}: {a} ({LAYERS[layer(a)][0]}) imports {b} "
        f"({LAYERS[layer(b)][0]})"
        for a, b, line in references()
        if layer(b) > layer(a)
    ]
    assert not uphill, "\n".join(uphill)


def test_the_runtime_and_the_verifier_never_import_the_claims():
    """Stated apart, since it is the rule the layers were built for: the claims hand themselves to the runtime
    (``sparseact.claims.registry()``), and the verifier owns every statement it checks."""
    offending = [(a, b) for a, b, _ in references() if layer(a) in (1, 2) and layer(b) == 4]
    assert not offending


def test_the_checker_reads_the_pins_without_importing_the_claims():
    """The checker reads each claim's pins by path (``claims/<id>/pins.py``): loading them all imports no claim's
    package (its ``__init__``, compute, verdicts), nor ``sparseact.claims`` itself."""
    script = (
        "import sys; from sparseact.verify.checker import PINNED_CLAIMS, PINS; "
        "print(sorted(m for m in sys.modules if m.startswith('sparseact.claims'))); print(sorted(PINNED_CLAIMS))"
    )
    proc = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=300, check=True)
    loaded, claims = map(ast.literal_eval, proc.stdout.splitlines())
    assert {"lemma9", "theorem19"} <= set(claims)
    assert loaded == [f"sparseact.claims.{claim}.pins" for claim in claims]


def test_no_file_imports_itself_through_others():
    edges = defaultdict(set)
    for a, b, _ in imports():
        edges[a].add(b)
    assert _cycles(edges) == []


def _package(module: str) -> str:
    """The package of ``sparseact`` a module belongs to, its subfolders included (``sparseact.claims`` for
    ``sparseact.claims.lemma9.compute``); a module at the top of ``sparseact`` (``cube``, ``networks``, ``cli``, ...)
    is a unit of its own, as the top folder is the whole."""
    return ".".join(module.split(".")[:2])


def test_no_package_imports_itself_through_others():
    edges = defaultdict(set)
    for a, b, _ in imports():
        if _package(a) != _package(b):
            edges[_package(a)].add(_package(b))
    assert _cycles(edges) == []


#: Deferred imports not yet given a reason, as ``path: import`` (none left: pinned_text.py's import of recompute.py
#: moved to the top of the file).
NOT_YET_REASONED: set[str] = set()


def _bare_imports(lines: list[str], tree: ast.Module):
    """Lines of the imports inside a function that state no reason: no comment on the import's own lines, nor on the
    line just above the run of consecutive imports it belongs to."""
    for node, statements, position, inside in _statements(tree.body):
        if not (inside and _is_import(node)):
            continue
        own = any("#" in lines[n - 1] for n in range(node.lineno, node.end_lineno + 1))
        opening = position
        while opening > 0 and _is_import(statements[opening - 1]):
            opening -= 1
        if not (own or lines[statements[opening].lineno - 2].strip().startswith("#")):
            yield node.lineno


def test_every_import_inside_a_function_says_why():
    bare = []
    for module, path in MODULES.items():
        lines = _source(module).splitlines()
        for line in _bare_imports(lines, _tree(module)):
            where = f"{path.relative_to(PACKAGE.parent)}: {lines[line - 1].strip()}"
            if where not in NOT_YET_REASONED:
                bare.append(where)
    assert not bare, f"{len(bare)} imports inside functions without a reason:\n" + "\n".join(sorted(set(bare)))


@pytest.mark.parametrize(
    ("edges", "expected"),
    [
        ({"a": {"b"}, "b": {"c"}, "c": set()}, []),
        ({"a": {"b"}, "b": {"a"}}, [["a", "b"]]),
        ({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}, [["a", "b", "c"]]),
    ],
)
def test_the_cycle_finder_finds_cycles(edges, expected):
    assert _cycles(edges) == expected


@pytest.mark.parametrize(
    ("source", "named"),
    [
        ('importlib.import_module("sparseact.publish.report")', ["sparseact.publish.report"]),
        ('MODULES = ["sparseact.cli", "numpy", "sparseact.cube"]', ["sparseact.cli", "sparseact.cube"]),
        ('importlib.import_module(f"sparseact.claims.{claim}.verdicts")', ["claims"]),
        ('pkgutil.walk_packages(package.__path__, "sparseact.")', ["entry points"]),
        ('"""sparseact.cli"""\nraise ValueError(f"no claim folder sparseact.claims.{claim}")', []),
        ('TEMPLATE = "sparseact.html.j2"', []),
    ],
)
def test_a_module_named_by_a_string_is_found(source, named):
    found = [target for target, _ in named_modules(ast.parse(source))]
    assert [target if target in named else LAYERS[layer(target)][0] for target in found] == named
