"""Each package's ``__all__`` (and each module's that declares one) is exactly its public names.

A module's public names are the names it binds at top level (``def``, ``class``, assignment) that do not start with
an underscore; a package's are those and the names it imports from its own modules (its re-exports). ``__all__``
lists every public name, and besides them only names the module serves on first use (``sparseact.claims``'s stage
functions, through a module ``__getattr__``). A claim folder
(``sparseact.claims.<id>``) is exempt: the registry (:mod:`sparseact.claims`) reads its names one by one
(``points``, ``shard``, ``PAPER_REF``, ...), and nothing imports it with ``*``.
"""

import ast
import importlib
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "src" / "sparseact"


def _module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _is_claim_folder(path: Path) -> bool:
    return path.name == "__init__.py" and path.parent.parent == PACKAGE / "claims"


def _declared_all(tree: ast.Module) -> list[str] | None:
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == "__all__" for t in node.targets):
            return list(ast.literal_eval(node.value))
    return None


def _public_names(tree: ast.Module, module: str, package: bool) -> set[str]:
    names = set()
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, (ast.Assign, ast.AnnAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            names |= {t.id for t in targets if isinstance(t, ast.Name)}
        elif package and isinstance(node, ast.ImportFrom):
            own = node.level > 0 or (node.module or "").startswith(module + ".")
            names |= {alias.asname or alias.name for alias in node.names} if own else set()
    return {name for name in names if not name.startswith("_")}


def _modules():
    for path in sorted(PACKAGE.rglob("*.py")):
        if _is_claim_folder(path):
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        package = path.name == "__init__.py"
        declared = _declared_all(tree)
        public = _public_names(tree, _module_name(path), package)
        if declared is not None or (package and public):
            yield pytest.param(_module_name(path), declared, public, id=_module_name(path))


@pytest.mark.parametrize("module,declared,public", list(_modules()))
def test_all_is_the_public_names(module, declared, public):
    assert declared is not None, f"{module} has public names but no __all__: {sorted(public)}"
    assert len(declared) == len(set(declared)), f"{module}.__all__ names a name twice"
    assert public <= set(declared), f"{module}.__all__ misses {sorted(public - set(declared))}"
    # beyond its own names, __all__ may list only what the module serves on first use (a module __getattr__)
    imported = importlib.import_module(module)
    missing = [name for name in declared if name not in public and not hasattr(imported, name)]
    assert not missing, f"{module}.__all__ names {missing}, which {module} does not define"


def test_the_packages_are_found():
    found = {param.values[0] for param in _modules()}
    assert {"sparseact.bounds", "sparseact.complexity", "sparseact.families", "sparseact.sensitivity"} <= found
