"""The checks a claim can FAIL, read from the claims' source (src/sparseact/claims/<id>/*.py) without running them.

A check can FAIL when its record can carry a certificate (a FAIL without one is INCONCLUSIVE). The call sites that
attach one, and how each names its check:

* ``certified_worst(tables, "claim/check", build)`` (the worst instance the runs stage recorded, certified);
* ``CheckRecord(check_id=..., certificate=...)`` or ``CheckRecord(check_id=..., **fail)`` with ``fail`` from
  ``fail_fields(...)`` / ``certificate(...)`` / ``certificate_if_violated(...)`` / ``_corrected(...)`` /
  ``degenerate_point_fields(...)`` (a literal
  check id, or the literals of the tuples a loop binds it to);
* a claim's record helper ``def record(name, ...)`` building ``check_id=f"claim/{name}"``: with ``failure=`` (or a
  ``cert_col``, or a certificate ``build`` function) at the call, or, for the helpers reading a failure table, when
  ``FINDING`` (the class of a FAIL) has
  the name (an ``f"network-{variant}"`` name is expanded over the loop's literals).
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

FAIL_SITES = {"certificate", "certificate_if_violated", "fail_fields", "_corrected", "degenerate_point_fields"}


def _name(func):
    return func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else None


def _builds_certificate(node) -> bool:
    """A keyword value or ** argument that can carry a certificate (a call site of a certificate builder)."""
    if isinstance(node, ast.Constant):
        return node.value is not None and node.value != ""
    return True


def _claim_tree(folder: Path) -> ast.Module:
    """Every module of a claim folder as one syntax tree (a helper, its finding classes and its calls may sit in
    different modules of the folder: the grid, compute.py, verdicts.py)."""
    body = []
    for path in sorted(folder.glob("*.py")):
        body += ast.parse(path.read_text(encoding="utf-8")).body
    return ast.Module(body=body, type_ignores=[])


def can_fail_check_ids(claims_dir: Path) -> dict[str, str]:
    """Check id -> claim folder, for every check whose record can carry a FAIL certificate, read from the claims'
    source."""
    folders = sorted(
        p for p in claims_dir.iterdir() if p.is_dir() and (p / "__init__.py").is_file() and not p.name.startswith("_")
    )
    names = "|".join(re.escape(folder.name) for folder in folders)
    pattern = re.compile(rf"^({names})/[\w.-]+$")
    found: dict[str, str] = {}
    for path in folders:
        tree = _claim_tree(path)
        parents = {child: node for node in ast.walk(tree) for child in ast.iter_child_nodes(node)}
        findings = set()
        for node in tree.body:  # FINDING = {name: class}: the names a failure-table record helper can FAIL
            if (
                isinstance(node, ast.Assign)
                and any(isinstance(t, ast.Name) and t.id in ("FINDING", "FAIL_FINDINGS") for t in node.targets)
                and isinstance(node.value, ast.Dict)
            ):
                findings |= {k.value for k in node.value.keys if isinstance(k, ast.Constant)}
        helpers = {}  # def record(name, ...): check_id=f"<claim>/{name}"
        for fn in ast.walk(tree):
            if isinstance(fn, ast.FunctionDef) and fn.args.args:
                for sub in ast.walk(fn):
                    if (
                        isinstance(sub, ast.JoinedStr)
                        and len(sub.values) == 2
                        and isinstance(sub.values[0], ast.Constant)
                        and str(sub.values[0].value).endswith("/")
                        and isinstance(sub.values[1], ast.FormattedValue)
                        and isinstance(sub.values[1].value, ast.Name)
                        and sub.values[1].value.id == fn.args.args[0].arg
                    ):
                        helpers[fn.name] = (sub.values[0].value, fn)

        def enclosing_function(node, parents=parents):
            while node in parents:
                node = parents[node]
                if isinstance(node, ast.FunctionDef):
                    return node
            return None

        def assigned_from_fail_site(name: str, fn) -> bool:
            for sub in ast.walk(fn) if fn is not None else ():
                if isinstance(sub, ast.Assign) and any(isinstance(t, ast.Name) and t.id == name for t in sub.targets):
                    calls = [c for c in ast.walk(sub.value) if isinstance(c, ast.Call)]
                    if any(_name(c.func) in FAIL_SITES for c in calls) or any(
                        isinstance(k, ast.keyword) and k.arg == "certificate" for c in calls for k in c.keywords
                    ):
                        return True
            return False

        def ids_of(value, node, parents=parents):
            if isinstance(value, ast.Constant) and isinstance(value.value, str) and pattern.match(value.value):
                return {value.value}
            if isinstance(value, ast.Name):  # for (..., check_id, ...) in ((..., "claim/x", ...), ...)
                loop = node
                while loop in parents and not isinstance(loop, ast.For):
                    loop = parents[loop]
                if isinstance(loop, ast.For):
                    return {
                        c.value
                        for c in ast.walk(loop.iter)
                        if isinstance(c, ast.Constant) and isinstance(c.value, str) and pattern.match(c.value)
                    }
            return set()

        for node in ast.walk(tree):
            if not isinstance(node, ast.Call):
                continue
            name = _name(node.func)
            if name == "certified_worst" and len(node.args) > 1:  # the worst recorded instance, certified
                for check_id in ids_of(node.args[1], node):
                    found.setdefault(check_id, path.name)
            elif name == "CheckRecord":
                keywords = {k.arg: k.value for k in node.keywords}
                if "check_id" not in keywords:
                    continue
                fn = enclosing_function(node)
                carries = ("certificate" in keywords and _builds_certificate(keywords["certificate"])) or any(
                    k.arg is None
                    and (
                        (isinstance(k.value, ast.Call) and _name(k.value.func) in FAIL_SITES)
                        or (isinstance(k.value, ast.Name) and assigned_from_fail_site(k.value.id, fn))
                    )
                    for k in node.keywords
                )
                if carries:
                    for check_id in ids_of(keywords["check_id"], node):
                        found.setdefault(check_id, path.name)
            elif name in helpers and node.args and isinstance(node.args[0], ast.JoinedStr) and findings:
                # record(f"network-{variant}", ...) in a loop over the variants: the names FINDING knows
                prefix, _ = helpers[name]
                loop = node
                while loop in parents and not isinstance(loop, ast.For):
                    loop = parents[loop]
                words = (
                    {c.value for c in ast.walk(loop.iter) if isinstance(c, ast.Constant) and isinstance(c.value, str)}
                    if isinstance(loop, ast.For)
                    else set()
                )
                parts = node.args[0].values
                for word in words:
                    check_name = "".join(v.value if isinstance(v, ast.Constant) else word for v in parts)
                    if check_name in findings:
                        found.setdefault(prefix + check_name, path.name)
            elif name in helpers and node.args and isinstance(node.args[0], ast.Constant):
                prefix, fn = helpers[name]
                check_name = node.args[0].value
                params = [a.arg for a in fn.args.args]
                keywords = {k.arg: k.value for k in node.keywords}
                if "failure" in params:  # record(..., failure=...): FAIL only with a failure
                    carries = "failure" in keywords and _builds_certificate(keywords["failure"])
                elif "cert_col" in params or "build" in params:  # a certificate's column, or its builder
                    key = "cert_col" if "cert_col" in params else "build"
                    index = params.index(key)
                    value = keywords.get(key, node.args[index] if len(node.args) > index else None)
                    carries = value is not None and _builds_certificate(value)
                else:  # failure-table helpers: FINDING[name] is the FAIL's class
                    carries = check_name in findings
                if carries:
                    found.setdefault(prefix + check_name, path.name)
    return found
