"""``config/README.md``, generated from the config schema's descriptions.

Every key of the config (``sparseact/schemas/config.schema.yaml``) and of each claim block (the claim folders'
``schema.yaml``, which it pulls in by ``$ref``) has a ``description``; this module renders them, with each key's
type and range, as one table per block, so that the reference a reader opens cannot drift from what the workflow
validates. Regenerate it after editing a schema::

    python -m sparseact.runtime.config_readme --out config/README.md

``tests/test_config_readme.py`` holds the committed file equal to the generated one and every key described.
"""

from __future__ import annotations

import argparse
import re
from importlib.resources import files
from pathlib import Path

from sparseact._yaml import read_yaml
from sparseact.runtime.provenance import atomic_write_text

#: The command that writes the committed file (named in its header).
COMMAND = "python -m sparseact.runtime.config_readme --out config/README.md"


class _Schemas:
    """The schema files, each read once; ``resolve`` follows a node's ``$ref`` (relative file and/or ``#`` pointer)."""

    def __init__(self) -> None:
        self._documents: dict[Path, dict] = {}

    def document(self, path: Path) -> dict:
        path = path.resolve()
        if path not in self._documents:
            self._documents[path] = read_yaml(path)
        return self._documents[path]

    def resolve(self, node: dict, path: Path) -> tuple[dict, Path]:
        """``node`` with its ``$ref`` followed and merged under the node's own keys, and the file it came from."""
        while "$ref" in node:
            target, _, pointer = node["$ref"].partition("#")
            where = (path.parent / target).resolve() if target else path
            referred = self.document(where)
            for part in (p for p in pointer.split("/") if p):
                referred = referred[part]
            own = {key: value for key, value in node.items() if key != "$ref"}
            node, path = {**referred, **own}, where
        return node, path


def _bounds(node: dict) -> str:
    low = (
        f">= {node['minimum']}"
        if "minimum" in node
        else f"> {node['exclusiveMinimum']}"
        if "exclusiveMinimum" in node
        else ""
    )
    high = (
        f"<= {node['maximum']}"
        if "maximum" in node
        else f"< {node['exclusiveMaximum']}"
        if "exclusiveMaximum" in node
        else ""
    )
    return ", ".join(part for part in (low, high) if part)


def _type(node: dict, schemas: _Schemas, path: Path) -> str:
    """A short reading of a (resolved) node's type and range, for the table's middle column."""
    if "enum" in node:
        return "one of " + ", ".join(f"`{value}`" for value in node["enum"])
    kind = node.get("type", "")
    if kind == "array":
        items, _ = schemas.resolve(node.get("items", {}), path)
        size = "non-empty list" if node.get("minItems", 0) >= 1 else "list"
        if node.get("uniqueItems"):
            size += " of distinct"
        return f"{size} ({_type(items, schemas, path)})"
    text = {
        "integer": "integer",
        "number": "number",
        "boolean": "`true` or `false`",
        "string": "string",
        "object": "block (keys below)",
    }.get(kind, kind or "any")
    if kind == "string" and "pattern" in node:
        text += f" matching `{node['pattern']}`"
    bounds = _bounds(node)
    return f"{text} {bounds}" if bounds else text


def _one_line(text: str) -> str:
    """``text`` on one line, as Markdown shows it literally: ``<b>`` is no tag, ``*`` no emphasis, ``|`` no cell."""
    text = re.sub(r"<(?=[A-Za-z/!?])", "&lt;", " ".join(str(text).split()))
    return text.replace("*", "\\*").replace("|", "\\|")


def _rows(node: dict, path: Path, schemas: _Schemas, prefix: str = "") -> list[tuple[str, str, str]]:
    """(key, type, description) of every key under ``node``, nested keys dotted, in the schema's order."""
    rows = []
    required = set(node.get("required", ()))
    for key, child in node.get("properties", {}).items():
        resolved, where = schemas.resolve(child, path)
        name = f"{prefix}{key}"
        description = _one_line(resolved.get("description", ""))
        if key not in required:
            description = f"(optional) {description}"
        rows.append((name, _type(resolved, schemas, where), description))
        if resolved.get("type") == "object":
            rows += _rows(resolved, where, schemas, prefix=f"{name}.")
        elif resolved.get("type") == "array":  # a list of blocks: the keys of each, as <key>[].<its key>
            items, items_file = schemas.resolve(resolved.get("items", {}), where)
            rows += _rows(items, items_file, schemas, prefix=f"{name}[].")
    return rows


def _table(rows: list[tuple[str, str, str]]) -> list[str]:
    lines = ["| Key | Type | Description |", "| --- | --- | --- |"]
    lines += [f"| `{key}` | {kind} | {description} |" for key, kind, description in rows]
    return lines


def undescribed_keys(schema_file: str | Path | None = None) -> list[str]:
    """Every key (dotted, claim blocks as ``claims.<id>.<key>``) whose schema gives no description."""
    schema_file, schemas = _schema_file(schema_file), _Schemas()
    root = schemas.document(schema_file)
    keys = [
        key
        for key, _, description in _top_rows(root, schema_file, schemas)
        if not description.removeprefix("(optional) ")
    ]
    for claim, block, where in _blocks(root, schema_file, schemas):
        if not block.get("description"):
            keys.append(f"claims.{claim}")  # the block itself
        keys += [
            f"claims.{claim}.{key}"
            for key, _, description in _rows(block, where, schemas)
            if not description.removeprefix("(optional) ")
        ]
    return keys


def _schema_file(schema_file: str | Path | None) -> Path:
    if schema_file is not None:
        return Path(schema_file).resolve()
    return Path(str(files("sparseact").joinpath("schemas/config.schema.yaml"))).resolve()


def _top_rows(root: dict, schema_file: Path, schemas: _Schemas) -> list[tuple[str, str, str]]:
    """The rows of the top-level keys but the claim blocks (each has its own table)."""
    rows = _rows(root, schema_file, schemas)
    return [row for row in rows if row[0] != "claims" and not row[0].startswith("claims.")] + [
        row for row in rows if row[0] == "claims"
    ]


def _blocks(root: dict, schema_file: Path, schemas: _Schemas):
    """(claim id, its block's resolved schema, the file it came from), in the schema's order."""
    for claim, reference in root["properties"]["claims"]["properties"].items():
        block, where = schemas.resolve(reference, schema_file)
        yield claim, block, where


def render(schema_file: str | Path | None = None) -> str:
    """The text of ``config/README.md`` from the schema (default: the package's)."""
    schema_file, schemas = _schema_file(schema_file), _Schemas()
    root = schemas.document(schema_file)
    top = _top_rows(root, schema_file, schemas)
    lines = [
        "# The configuration",
        "",
        f"<!-- Generated by `{COMMAND}` from the schemas' descriptions: edit those, not this file. -->",
        "",
        "`config/config.yaml` is the full run's configuration and `config/quick.yaml` a small one (`snakemake "
        "--configfile config/quick.yaml`); `sparseact check-config FILE` validates a file and prints its estimated "
        "cost. The schema is `src/sparseact/schemas/config.schema.yaml`; each claim's block has its own, "
        "`src/sparseact/claims/<id>/schema.yaml`.",
        "",
        _one_line(root.get("description", "")).replace("\\|", "|"),
        "",
        "## Top-level keys",
        "",
        *_table(top),
        "",
        "## The claim blocks",
        "",
        "Nested keys are dotted (`noise.s` is the key `s` of the block's `noise`); `instances[].q` is the key `q` "
        "of each block of the list `instances`.",
    ]
    for claim, block, where in _blocks(root, schema_file, schemas):
        lines += [
            "",
            f"### `claims.{claim}`",
            "",
            _one_line(block.get("description", "")).replace("\\|", "|"),
            "",
            *_table(_rows(block, where, schemas)),
        ]
    return "\n".join(lines) + "\n"


def main(argv=None) -> int:
    """``python -m sparseact.runtime.config_readme [--out FILE]``: write (or print) ``config/README.md``."""
    parser = argparse.ArgumentParser(prog="python -m sparseact.runtime.config_readme", description=main.__doc__)
    parser.add_argument("--out", help="the file to write (default: print to standard output)")
    args = parser.parse_args(argv)
    text = render()
    if args.out is None:
        print(text, end="")
    else:
        atomic_write_text(args.out, text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
