"""``sparseact new-claim ID``: a new claim's folder, notebook, config blocks and test, written from templates.

The templates (``sparseact/claims/_template/*.tmpl``) make a claim that runs as it stands, the worked example of
docs/architecture.md: a grid of random ``k``-sparse networks on which Parseval's identity is checked exactly. A
newcomer replaces the example with the claim and keeps the layout. :func:`new_claim` writes, in a checkout:

* ``src/sparseact/claims/<id>/``: ``__init__.py`` (the grid), ``compute.py``, ``verdicts.py``, ``figures.py``,
  ``statements.yaml``, ``checks.yaml`` (the checks, declared once), ``schema.yaml``, and the stubs of the verifier's
  ``pins.py`` and of ``errata.yaml`` (nothing pinned, no erratum);
* ``notebooks/<id>.py`` (the assembly notebook, beside the other claims' in the top-level ``notebooks/``) and
  ``tests/test_claim_<id>.py``;
* the block ``claims.<id>`` in ``config/config.yaml`` and ``config/quick.yaml``, and the claim's ``$ref`` line in
  ``src/sparseact/schemas/config.schema.yaml``, each in the claims' sorted order;
* ``config/README.md``, generated again from the schemas (:mod:`sparseact.runtime.config_readme`).

It is all or nothing: a failure part-way (a schema missing, a full disk) removes what it wrote and restores the
files it edited. Nothing is overwritten: a claim id that is taken, not a lower-case Python identifier, or a keyword (``class``) or soft
keyword (``match``) of Python, is refused before any file is written. Until a full run measures it, the new claim is
priced by the cost table's fallback row, with a warning (:func:`sparseact.runtime.costs.claim_cost_row`).
"""

from __future__ import annotations

import keyword
import re
import shutil
from pathlib import Path

from sparseact.paper import statements
from sparseact.runtime.config_readme import render
from sparseact.runtime.provenance import atomic_write_text

#: The templates, beside this module.
TEMPLATES = Path(__file__).resolve().parent / "_template"
#: A claim id: a lower-case Python identifier (it names a package, a config key and a Snakemake wildcard); upper-case
#: letters may follow the first character, as in ``appendixA``.
CLAIM_ID = re.compile(r"^[a-z][A-Za-z0-9_]*$")
#: The id ``sparseact explain`` reads as every statement: no claim may take it.
ALL = "all"
#: Template -> the file it becomes, relative to the checkout (``{id}`` is the claim id).
FILES = {
    "__init__.py.tmpl": "src/sparseact/claims/{id}/__init__.py",
    "compute.py.tmpl": "src/sparseact/claims/{id}/compute.py",
    "verdicts.py.tmpl": "src/sparseact/claims/{id}/verdicts.py",
    "figures.py.tmpl": "src/sparseact/claims/{id}/figures.py",
    "statements.yaml.tmpl": "src/sparseact/claims/{id}/statements.yaml",
    "checks.yaml.tmpl": "src/sparseact/claims/{id}/checks.yaml",
    "schema.yaml.tmpl": "src/sparseact/claims/{id}/schema.yaml",
    "pins.py.tmpl": "src/sparseact/claims/{id}/pins.py",
    "errata.yaml.tmpl": "src/sparseact/claims/{id}/errata.yaml",
    "notebook.py.tmpl": "notebooks/{id}.py",
    "test.py.tmpl": "tests/test_claim_{id}.py",
}
#: Config file -> the template of the claim's block in it.
CONFIG_BLOCKS = {"config/config.yaml": "config.yaml.tmpl", "config/quick.yaml": "quick.yaml.tmpl"}
#: The config schema, which names every claim's block schema by a ``$ref`` line.
CONFIG_SCHEMA = "src/sparseact/schemas/config.schema.yaml"


def _fill(text: str, claim_id: str, statement_id: str, paper_ref: str) -> str:
    return (
        text.replace("__CLAIM__", claim_id).replace("__STATEMENT__", statement_id).replace("__PAPER_REF__", paper_ref)
    )


def _insert_sorted(text: str, parent: str, indent: str, claim_id: str, entry: str, where: str) -> str:
    """``text`` with ``entry`` (lines at ``indent``, starting with ``<claim_id>:``) among the keys at ``indent`` of the
    mapping that the line ``parent`` opens, before the first key that sorts after ``claim_id``."""
    lines = text.splitlines(keepends=True)
    try:
        start = next(i for i, line in enumerate(lines) if line.rstrip("\n") == parent) + 1
    except StopIteration:
        raise ValueError(f"{where}: no line {parent.strip()!r} to add the claim under") from None
    key = re.compile(rf"^{indent}([A-Za-z0-9_]+):")
    position = len(lines)
    for i in range(start, len(lines)):
        line = lines[i]
        if line.strip() and not line.startswith(indent):  # the mapping ends at the next line indented less
            position = i
            break
        match = key.match(line)
        if match and match.group(1) > claim_id:
            position = i
            break
    while position > start and not lines[position - 1].strip():  # before the blank lines that close the mapping
        position -= 1
    return "".join(lines[:position]) + entry + "".join(lines[position:])


def new_claim(claim_id: str, root: str | Path = ".", paper_ref: str | None = None) -> list[str]:
    """Write the claim ``claim_id`` into the checkout ``root``; return the files written, relative to ``root``.

    Parameters
    ----------
    claim_id : str
        The claim's id (:data:`CLAIM_ID`, no keyword of Python), e.g. ``"lemma11"``; its statement's id is the same with ``-`` for ``_``.
    root : path
        The repository's root (it holds ``src/sparseact/claims`` and ``config/``).
    paper_ref : str, optional
        Where the paper prints the statement (plain text, PMLR numbering); default ``"<claim_id> (to be placed)"``.

    Raises
    ------
    ValueError
        When ``claim_id`` is malformed or taken (a claim folder, a statement id, a notebook, a test or a config
        block of that name exists), or ``root`` is not a checkout; nothing is written then.
    """
    root = Path(root)
    if not isinstance(claim_id, str) or not CLAIM_ID.match(claim_id) or claim_id in keyword.kwlist + keyword.softkwlist:
        raise ValueError(
            f"claim id {claim_id!r}: a lower-case Python identifier, not a keyword, is needed, e.g. 'lemma11'"
        )
    if claim_id == ALL:
        raise ValueError(f"claim id {claim_id!r} is reserved: 'sparseact explain all' lists every statement")
    if not (root / "src" / "sparseact" / "claims").is_dir() or not (root / "config").is_dir():
        raise ValueError(f"{root}: not a sparseact checkout (no src/sparseact/claims or config/)")
    paper_ref = paper_ref or f"{claim_id} (to be placed)"
    if any(char in paper_ref for char in "$\\^\n"):
        raise ValueError(f"paper_ref {paper_ref!r}: one line of plain text (no '$', '^' or backslash)")
    statement_id = claim_id.replace("_", "-")
    targets = {template: Path(target.format(id=claim_id)) for template, target in FILES.items()}
    taken = [str(path) for path in targets.values() if (root / path).exists()]
    if (root / "src" / "sparseact" / "claims" / claim_id).exists():
        taken.insert(0, f"src/sparseact/claims/{claim_id}")
    if statement_id in {entry["id"] for entry in statements()}:
        taken.append(f"statement id {statement_id!r}")
    for config in (*CONFIG_BLOCKS, CONFIG_SCHEMA):
        if re.search(rf"^ +{re.escape(claim_id)}:", (root / config).read_text(encoding="utf-8"), re.MULTILINE):
            taken.append(f"{config} (claims.{claim_id})")
    if taken:
        raise ValueError(f"claim {claim_id!r} exists already: {', '.join(taken)}")
    edits = {}
    for config, template in CONFIG_BLOCKS.items():
        block = _fill((TEMPLATES / template).read_text(encoding="utf-8"), claim_id, statement_id, paper_ref)
        edits[config] = _insert_sorted(
            (root / config).read_text(encoding="utf-8"), "claims:", "  ", claim_id, block, config
        )
    reference = f'      {claim_id}: {{$ref: "../claims/{claim_id}/schema.yaml"}}\n'
    schema = (root / CONFIG_SCHEMA).read_text(encoding="utf-8")
    claims_at = schema.index("\n  claims:\n") if "\n  claims:\n" in schema else -1
    if claims_at < 0 or "\n    properties:\n" not in schema[claims_at:]:
        raise ValueError(f"{CONFIG_SCHEMA}: no claims.properties to add the claim's $ref line to")
    head, tail = schema[: claims_at + 1], schema[claims_at + 1 :]
    edits[CONFIG_SCHEMA] = head + _insert_sorted(tail, "    properties:", "      ", claim_id, reference, CONFIG_SCHEMA)
    readme = root / "config" / "README.md"
    originals = {root / path: (root / path).read_text(encoding="utf-8") for path in edits}
    originals[readme] = readme.read_text(encoding="utf-8") if readme.exists() else None
    try:
        for template, path in targets.items():
            text = _fill((TEMPLATES / template).read_text(encoding="utf-8"), claim_id, statement_id, paper_ref)
            atomic_write_text(root / path, text)
        for path, text in edits.items():
            atomic_write_text(root / path, text)
        atomic_write_text(readme, render(root / CONFIG_SCHEMA))
    except BaseException:  # all or nothing: a retry must not meet half a claim
        for path in targets.values():
            (root / path).unlink(missing_ok=True)
        shutil.rmtree(root / "src" / "sparseact" / "claims" / claim_id, ignore_errors=True)
        for path, text in originals.items():
            if text is None:
                path.unlink(missing_ok=True)
            else:
                atomic_write_text(path, text)
        raise
    return [str(path) for path in targets.values()] + list(edits) + ["config/README.md"]
