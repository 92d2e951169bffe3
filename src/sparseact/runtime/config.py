"""Configuration: strict YAML reading, schema validation and the claims' own relations.

The Snakefile calls :func:`validate_workflow_config` before anything else, and
``sparseact check-config FILE`` calls :func:`load_config`; both reject a bad
config before any job runs, in one or two lines that name the key (or the file,
line and column of a YAML error):

* files that are not UTF-8 text, or hold control or binary characters;
* YAML syntax errors and duplicated keys (which YAML would resolve silently,
  the last value winning); anchors and aliases; plain scalars that YAML 1.1 (PyYAML, the workflow's reader) and
  YAML 1.2 read differently (``y``, ``on``, ``0777``, ``1:40``, ``1e3``, a date), naming the key;
* NaN and infinite numbers, under any key;
* the schema ``sparseact/schemas/config.schema.yaml`` (the Snakefile's ``workflow/schemas/config.schema.yaml``
  refers to it), which pulls in each claim block's schema (``sparseact/claims/<id>/schema.yaml``) by a relative
  ``$ref``, with integers strict (``3.0`` is not an integer);
* the output directories (:func:`check_output_dirs`): relative, inside the repository, distinct, and clear of
  the folders the shipped configs' runs write (``results/claims``, ``figures``, ``results/quick/tables``...) and
  those of every other run recorded in the checkout (:func:`record_output_dirs`);
* each claim's relations between keys (``check(block)`` of the claim's grid module,
  e.g. ``k <= s``) and its grid (:func:`check_claim_blocks`);
* the claims ``single_shard_claims`` lists, each one of the claims
  (:func:`sparseact.runtime.sharding.check_single_shard_claims`).

The claims are given, never imported (the runtime lies below the claims layer): :func:`validate_config`,
:func:`load_config` and :func:`validate_workflow_config` take ``claims``, claim id -> claim
(:func:`sparseact.claims.registry`).
"""

from __future__ import annotations

import hashlib
import json
import math
import os
import re
from collections.abc import Iterable, Mapping
from functools import cache
from importlib.resources import files
from pathlib import Path
from typing import Any
from urllib.parse import urlparse
from urllib.request import url2pathname

import jsonschema
import yaml
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT202012

from sparseact._validation import read_regular_file
from sparseact._yaml import (
    SAFE_LOADER,
    DuplicateKeyError,
    UniqueKeyLoader,
    load_yaml,
    named_stream,
    read_yaml,
    unique_key_mapping,
)
from sparseact.runtime.costs import check_cost
from sparseact.runtime.errors import ConfigError
from sparseact.runtime.provenance import write_text_if_changed
from sparseact.runtime.sharding import check_single_shard_claims

#: The schema as package data of ``sparseact`` (the Snakefile's ``workflow/schemas/config.schema.yaml`` refers to
#: it), beside the claim folders whose ``schema.yaml`` it refers to, so that ``sparseact check-config`` works from
#: any install.
PACKAGED_SCHEMA = "schemas/config.schema.yaml"
#: Config keys naming an output directory.
OUTPUT_DIR_KEYS = ("results_dir", "figures_dir", "logs_dir")
#: The folders the workflow writes inside results_dir (its rules' ``in_results("<folder>/...")``): figures_dir and
#: logs_dir may lie inside results_dir, but not in one of these.
RESULTS_SUBFOLDERS = (
    "benchmarks",
    "certificates",
    "claims",
    "code",
    "data",
    "erratum",
    "kernels",
    "notebooks",
    "report",
    "pages",
    "runs",
    "shards",
    "slices",
    "stamps",
    "tables",
)
#: The repository's own top-level entries (every tracked one but results/, and the tools' folders): no output folder
#: may lie in one, where the workflow's files would mix with the sources (tests/test_config_hostile.py holds this list
#: to the tracked files).
SOURCE_ENTRIES = (
    ".ci",
    ".git",
    ".gitignore",
    ".nojekyll",
    ".pre-commit-config.yaml",
    ".snakemake",
    ".venv",
    "benchmarks",
    "CITATION.cff",
    "config",
    "docs",
    "environment.yml",
    "LICENSE",
    "notebooks",
    "profiles",
    "pyproject.toml",
    "README.md",
    "Snakefile",
    "src",
    "tests",
    "tools",
    "workflow",
)
#: The output folders of the shipped configs: config/config.yaml's (the full run, whose ledger, statements, findings
#: and certificates are committed) and config/quick.yaml's (tests/test_config_hostile.py holds this to the files).
#: Another config's output folder may not equal, lie in or contain a folder their runs write
#: (:func:`check_output_dirs`): its files would mix with theirs, and their rules would overwrite or delete them.
SHIPPED_OUTPUT_DIRS = {
    "config/config.yaml": {"results_dir": "results", "figures_dir": "figures", "logs_dir": "logs"},
    "config/quick.yaml": {
        "results_dir": "results/quick",
        "figures_dir": "results/quick/figures",
        "logs_dir": "results/quick/logs",
    },
}
#: Where each run records its output folders when it starts (:func:`record_output_dirs`), one file per results_dir,
#: in Snakemake's own folder of the checkout: another config may not take a folder a recorded run writes, as it may
#: not take a shipped run's, while that run's results folder is there (:func:`_check_other_runs`).
RUN_RECORDS = ".snakemake/sparseact-runs"
#: Largest record of a run read (bytes): one is about 100.
MAX_RECORD_BYTES = 4096
#: Longest path component (bytes of UTF-8) the file systems the workflow runs on accept.
MAX_NAME_BYTES = 255
#: Longest schema message shown (the rest of a long message is cut, never the key).
MESSAGE_WIDTH = 200


class _StrictLoader(UniqueKeyLoader):
    """A safe loader that refuses duplicated mapping keys and keys that are not scalars."""


def _construct_mapping(loader: _StrictLoader, node: yaml.MappingNode, deep: bool = False) -> dict:
    for key_node, _ in node.value:
        if not isinstance(key_node, yaml.ScalarNode):
            mark = key_node.start_mark
            raise ConfigError(
                f"{mark.name}:{mark.line + 1}:{mark.column + 1}: a key must be a plain name, not a list or map"
            )
    try:
        return unique_key_mapping(loader, node, deep)
    except DuplicateKeyError as exc:
        raise ConfigError(str(exc)) from None


_StrictLoader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, _construct_mapping)


#: YAML 1.2's core schema (how a YAML 1.2 reader, or a reader of the YAML 1.2 specification, types a plain scalar),
#: against which the workflow's YAML 1.1 reading (PyYAML's) is compared: a plain scalar the two read differently is
#: refused, since a reader cannot tell which one the workflow uses (``0777`` is 511 in YAML 1.1, ``1:40`` is 100,
#: ``yes`` and ``on`` are true, ``2024-06-30`` is a date and ``1e3`` a string; YAML 1.2 reads 777, a string, a string,
#: a string and 1000).
_YAML12_CORE = (
    ("null", re.compile(r"null|Null|NULL|~|")),
    ("bool", re.compile(r"true|True|TRUE|false|False|FALSE")),
    ("int", re.compile(r"[-+]?[0-9]+|0o[0-7]+|0x[0-9a-fA-F]+")),
    (
        "float",
        re.compile(r"[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?|[-+]?\.(inf|Inf|INF)|\.(nan|NaN|NAN)"),
    ),
)
#: YAML 1.1's booleans (its specification's list, of which PyYAML omits the one-letter ones): ``kernel: y`` is the
#: string 'y' to PyYAML and YAML 1.2, and true to a YAML 1.1 reader.
_YAML11_BOOLEANS = re.compile(r"y|Y|yes|Yes|YES|n|N|no|No|NO|true|True|TRUE|false|False|FALSE|on|On|ON|off|Off|OFF")
#: How each reading of a plain scalar is named in an error.
_READINGS = {
    "null": "null (no value)",
    "bool": "a boolean",
    "int": "an integer",
    "float": "a number",
    "str": "a string",
    "timestamp": "a date",
    "merge": "a merge key",
    "value": "a value key",
}


def _yaml12_type(value: str) -> str:
    return next((name for name, pattern in _YAML12_CORE if pattern.fullmatch(value)), "str")


def _yaml11_type(value: str, is_key: bool) -> str:
    if not is_key and _YAML11_BOOLEANS.fullmatch(value):
        return "bool"
    return SAFE_LOADER.resolve(SAFE_LOADER, yaml.ScalarNode, value, (True, False)).rsplit(":", 1)[-1]


def _yaml11_reading(value: str, is_key: bool = False) -> str | None:
    """What YAML 1.1 reads the plain scalar ``value`` as, and YAML 1.2 otherwise, in words; None if they agree.

    Integers are compared by value too: YAML 1.1 reads ``0777`` in base 8, YAML 1.2 in base 10. A mapping's key is
    compared as PyYAML reads it (the config's keys ``n`` and ``y`` are names the schema knows, not booleans).
    """
    old, new = _yaml11_type(value, is_key), _yaml12_type(value)
    if old == new == "int":
        read = load_yaml(value)
        meant = int(value, 8) if value.startswith("0o") else int(value, 0) if value.startswith("0x") else int(value)
        if read == meant:
            return None
        return f"the integer {read} in YAML 1.1 and {meant} in YAML 1.2"
    if old == new:
        return None
    return f"{_READINGS.get(old, old)} in YAML 1.1 and {_READINGS.get(new, new)} in YAML 1.2"


#: Largest config file read (bytes): the committed ones are about 10 kB.
MAX_CONFIG_BYTES = 2**20
#: Deepest nesting of mappings and lists in a config, the top-level mapping's being 1: the config schema's is 5
#: (``claims.lemma9.adversarial.n_values``, ``claims.section4_lwr.instances.0``); much deeper, Python's recursion
#: limit stops YAML's reader and the schema's validator with a traceback.
MAX_NESTING = 10
_TOO_DEEP = f"nested deeper than {MAX_NESTING} levels of mappings and lists, which no config key needs"


def _join(parent: str, name) -> str:
    return f"{parent}.{name}" if parent else str(name)


def _key_paths(events):
    """Each YAML event with the dotted key it belongs to (lists index as ``key.0``; a mapping's key names itself),
    and whether it is a mapping's key."""
    stack = []  # one dict per open mapping or list: its dotted key, and where in it the next node goes
    for event in events:
        closing = isinstance(event, (yaml.MappingEndEvent, yaml.SequenceEndEvent))
        is_key = bool(stack) and not closing and stack[-1]["kind"] == "mapping" and stack[-1]["wants_key"]
        if not stack:
            key = ""
        elif closing:
            key = stack[-1]["key"]
        elif stack[-1]["kind"] == "list":
            key = _join(stack[-1]["key"], stack[-1]["index"])
        elif stack[-1]["wants_key"]:
            key = _join(stack[-1]["key"], event.value if isinstance(event, yaml.ScalarEvent) else "?")
        else:
            key = _join(stack[-1]["key"], stack[-1]["name"])
        yield event, key or "<top level>", is_key
        if isinstance(event, (yaml.MappingStartEvent, yaml.SequenceStartEvent)):
            kind = "mapping" if isinstance(event, yaml.MappingStartEvent) else "list"
            stack.append({"kind": kind, "key": key, "index": 0, "name": "?", "wants_key": True})
            continue
        if closing:
            stack.pop()
        elif not isinstance(event, (yaml.ScalarEvent, yaml.AliasEvent)):
            continue
        if not stack:
            continue
        parent = stack[-1]  # a node of the parent is complete
        if parent["kind"] == "list":
            parent["index"] += 1
        elif parent["wants_key"]:
            parent["name"] = event.value if isinstance(event, yaml.ScalarEvent) else "?"
            parent["wants_key"] = False
        else:
            parent["wants_key"] = True


def _check_structure(path: Path, text: str) -> None:
    """Refuse, from the YAML events and before any value is built, what a config never needs and a reader would
    misread: anchors and aliases (an alias bomb expands exponentially), nesting deeper than MAX_NESTING (YAML's
    reader builds values by recursion), and plain scalars that YAML 1.1 (the workflow's reader) and YAML 1.2 read
    differently (:func:`_yaml11_reading`), naming the key."""
    depth = 0
    try:
        for event, key, is_key in _key_paths(yaml.parse(named_stream(path, text), Loader=SAFE_LOADER)):
            mark = event.start_mark
            where = f"{path}:{mark.line + 1}:{mark.column + 1}"
            if isinstance(event, (yaml.MappingStartEvent, yaml.SequenceStartEvent)):
                depth += 1
                if depth > MAX_NESTING:
                    raise ConfigError(f"{where}: {key}: {_TOO_DEEP}")
            elif isinstance(event, (yaml.MappingEndEvent, yaml.SequenceEndEvent)):
                depth -= 1
            if isinstance(event, yaml.AliasEvent) or getattr(event, "anchor", None):
                raise ConfigError(
                    f"{where}: {key}: YAML anchors and aliases are not allowed in a config (write each value out)"
                )
            if isinstance(event, yaml.ScalarEvent) and not event.style and event.implicit[0]:
                reading = _yaml11_reading(event.value, is_key)
                if reading:
                    raise ConfigError(
                        f"{where}: {key}: {event.value!r} is {reading}; quote it for a string, or write the "
                        "value meant plainly (true or false, a decimal number)"
                    )
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark
        where = f"{path}:{mark.line + 1}:{mark.column + 1}" if mark else str(path)
        raise ConfigError(f"{where}: YAML syntax error: {exc.problem}") from None
    except yaml.reader.ReaderError as exc:
        code = exc.character if isinstance(exc.character, int) else ord(exc.character)
        raise ConfigError(
            f"{path}: character U+{code:04X} at offset {exc.position} is not allowed in YAML "
            "(a control or binary character)"
        ) from None


def _read_text(path: Path) -> str:
    """The text of a config file: a regular file (a FIFO or device would block) of at most MAX_CONFIG_BYTES."""
    try:
        data = read_regular_file(path, MAX_CONFIG_BYTES, "config file", follow_symlinks=True)
    except ValueError as exc:
        raise ConfigError(str(exc)) from None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ConfigError(
            f"{path}: not a UTF-8 text file (byte 0x{exc.object[exc.start]:02x} at offset "
            f"{exc.start}); a config file is UTF-8 YAML"
        ) from None


def read_yaml_strict(path: str | Path) -> dict:
    """Read a YAML config; a syntax error or a duplicated key is a :class:`ConfigError` with file, line, column.

    The file must be a regular file; anchors, aliases and YAML 1.1's octal and base-60 integers are refused from
    the event stream before anything is constructed (:func:`_check_structure`).
    """
    path = Path(path)
    text = _read_text(path)
    _check_structure(path, text)
    try:
        data = yaml.load(named_stream(path, text), Loader=_StrictLoader)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark
        where = f"{path}:{mark.line + 1}:{mark.column + 1}" if mark else str(path)
        raise ConfigError(f"{where}: YAML syntax error: {exc.problem}") from None
    except yaml.reader.ReaderError as exc:
        code = exc.character if isinstance(exc.character, int) else ord(exc.character)
        raise ConfigError(
            f"{path}: character U+{code:04X} at offset {exc.position} is not allowed in YAML "
            "(a control or binary character)"
        ) from None
    if not isinstance(data, dict):
        raise ConfigError(f"{path}: a config file must be a YAML mapping of keys to values")
    return data


def _validator(schema: dict):
    """A strict-integer validator of ``schema``, whose relative ``$ref`` s name files beside its ``$id`` (resolved as
    snakemake's ``validate`` resolves them).

    A referenced file's ``$schema`` (which snakemake needs) is dropped: jsonschema validates a subschema that
    names its dialect with that dialect's stock validator, which would accept ``3.0`` as an integer.
    """

    def is_integer(_checker, instance) -> bool:
        return isinstance(instance, int) and not isinstance(instance, bool)

    def retrieve(uri: str) -> Resource:
        contents = read_yaml(url2pathname(urlparse(uri).path))
        contents.pop("$schema", None)
        return Resource.from_contents(contents, default_specification=DRAFT202012)

    strict = jsonschema.validators.extend(
        jsonschema.Draft202012Validator,
        type_checker=jsonschema.Draft202012Validator.TYPE_CHECKER.redefine("integer", is_integer),
    )
    return strict(schema, registry=Registry(retrieve=retrieve))


def _schema(schema_path: str | Path | None) -> dict:
    """The schema, with its file's URI (links resolved) as ``$id``: its ``$ref`` s resolve against that file."""

    schema_file = Path(schema_path) if schema_path else Path(str(files("sparseact").joinpath(PACKAGED_SCHEMA)))
    return {**read_yaml(schema_file), "$id": schema_file.resolve().as_uri()}


@cache
def config_schema() -> dict:
    """The packaged config schema (:data:`PACKAGED_SCHEMA`), read once."""
    return _schema(None)


def _check_values(node) -> None:
    """Refuse, naming the dotted key (lists index as ``key.0``), the first NaN or infinite number in ``node`` and the
    first mapping or list nested deeper than MAX_NESTING.

    Iterative, and each container is visited once (a shared one is not walked again), so neither deep nesting nor
    a structure of shared references costs more than its size.
    """
    stack, seen = [(node, "", 1)], set()
    while stack:
        value, where, depth = stack.pop()
        if isinstance(value, float) and not math.isfinite(value):
            raise ConfigError(
                f"invalid config: {where or '<top level>'}: NaN and infinity are not allowed (a finite number is "
                "needed)"
            )
        if isinstance(value, (dict, list)):
            if depth > MAX_NESTING:
                raise ConfigError(f"invalid config: {where}: {_TOO_DEEP}")
            if id(value) in seen:
                continue
            seen.add(id(value))
            items = list(value.items() if isinstance(value, dict) else enumerate(value))
            stack.extend((child, _join(where, name), depth + 1) for name, child in reversed(items))


def validate_config(config: dict, claims: Mapping[str, Any], schema_path: str | Path | None = None) -> dict:
    """Validate a parsed ``config`` against the schema (strict integers), then the block of each of ``claims``
    (claim id -> claim, :func:`sparseact.claims.registry`; :func:`check_claim_blocks`) and the claims its
    ``single_shard_claims`` lists (:func:`sparseact.runtime.sharding.check_single_shard_claims`).

    NaN and infinite numbers are refused first, whatever the key: the schema's bounds
    cannot catch NaN (every comparison with it is false); and nesting deeper than MAX_NESTING, which the schema's
    validator would walk by recursion.

    Raises
    ------
    ConfigError
        ``invalid config: <dotted key>: <what is wrong>``, one line.
    """
    _check_values(config)
    error = _most_specific(list(_validator(_schema(schema_path)).iter_errors(config)))
    if error is not None:
        key = ".".join(str(p) for p in error.absolute_path) or "<top level>"
        message = error.message if len(error.message) <= MESSAGE_WIDTH else error.message[:MESSAGE_WIDTH] + "..."
        if error.validator == "type" and error.validator_value == "boolean" and isinstance(error.instance, str):
            message += " (Snakemake's --config reads True and False, not true and false)"
        elif error.validator == "type" and isinstance(error.instance, str) and len(error.absolute_path) > 1:
            message += (
                " (Snakemake's --config reads every value inside a {...} or [...] as a string: give nested values in a "
                "--configfile)"
            )
        raise ConfigError(f"invalid config: {key}: {message}")
    check_output_dirs(config)
    check_claim_blocks(config, claims)
    check_single_shard_claims(config, claims)
    return config


def _most_specific(errors: list) -> jsonschema.ValidationError | None:
    """jsonschema's best match, or the best match among the errors inside the value it names, if any: a value out
    of range in a list is named, not only the list's length (``[2.5]`` where two values in (0, 1] are needed)."""
    best = jsonschema.exceptions.best_match(errors)
    while best is not None:
        path = list(best.absolute_path)
        inner = [
            error for error in errors if list(error.absolute_path)[: len(path)] == path != list(error.absolute_path)
        ]
        if not inner:
            return best
        best = jsonschema.exceptions.best_match(inner)
    return best


def check_claim_blocks(config: dict, claims: Mapping[str, Any]) -> None:
    """Every one of ``claims`` (claim id -> claim) has a config block, no block lacks a claim, and each block passes
    its claim's checks (``check(block)``) and names a grid (``points(block)``)."""
    blocks = config.get("claims", {})
    missing = [c for c in claims if c not in blocks]
    unknown = [c for c in blocks if c not in claims]
    if missing:
        raise ConfigError(f"invalid config: claims: no block for claim {missing[0]!r} (claims: {', '.join(claims)})")
    if unknown:
        raise ConfigError(f"invalid config: claims.{unknown[0]}: no claim folder sparseact.claims.{unknown[0]}")
    for claim_id, claim in claims.items():
        claim.validate(blocks[claim_id])
        claim.points(blocks[claim_id])


def check_output_dirs(config: dict, root: str | Path = ".") -> None:
    """The output directories of a schema-valid ``config``: relative paths inside the repository ``root`` (the
    working folder; a symbolic link on the way is followed, and where it leads is checked), pairwise distinct, and
    clear of every folder a shipped config's run, or another run recorded in ``root`` (:func:`record_output_dirs`),
    writes (:func:`_check_other_runs`). (The full run's config writes
    ``results/``, whose ledger, statements, findings and certificates are committed; config/quick.yaml writes
    ``results/quick/``, so it never overwrites them.)

    Raises
    ------
    ConfigError
        Naming the key.
    """
    directories = {key: config[key] for key in OUTPUT_DIR_KEYS}
    _check_dir_names(directories)
    resolved = {key: _resolved(key, directory, Path(root)) for key, directory in directories.items()}
    if resolved != directories:
        _check_dir_names(resolved)
    _check_other_runs(directories, Path(root))


def _resolved(key: str, directory: str, root: Path) -> str:
    """``directory`` as the file system reaches it from ``root``, symbolic links followed, relative to ``root``: a link
    in a loop, or to nothing, is refused (the run could create no folder through it)."""
    try:
        target = _where(directory, root)
    except RuntimeError:  # pathlib's "Symlink loop"
        raise ConfigError(f"invalid config: {key}: {directory!r} is a symbolic-link loop; name a folder") from None
    inside = [root / directory, *(root / directory).parents]
    link = next((p for p in inside if p.is_relative_to(root) and p != root and p.is_symlink()), None)
    if link is not None and not link.exists():
        raise ConfigError(
            f"invalid config: {key}: {directory!r} passes through {link.relative_to(root).as_posix()}, a symbolic "
            "link to nothing; remove it or name another folder"
        )
    if target == "." or Path(target).is_absolute():
        raise ConfigError(
            f"invalid config: {key}: {directory!r} leads outside the repository (to {target}) through a symbolic "
            "link; name a folder inside it"
        )
    return target


def _check_dir_names(directories: dict[str, str]) -> None:
    """The names of the output folders: each inside the repository and outside its sources, the three distinct,
    one inside another only as figures_dir or logs_dir inside results_dir."""
    for key, directory in directories.items():
        parts = directory.split("/")
        if any(part in (".", "..") for part in parts):
            raise ConfigError(
                f"invalid config: {key}: {directory!r} must stay inside the repository (no '.' or '..' components)"
            )
        if any(part.startswith("-") for part in parts):
            raise ConfigError(
                f"invalid config: {key}: {directory!r} has a component starting with '-', which the "
                "workflow's commands would read as an option"
            )
        if any(part.lower() == ".git" or part == "" for part in parts):
            raise ConfigError(f"invalid config: {key}: {directory!r} must not be inside .git or have empty components")
        if parts[0].lower() in {entry.lower() for entry in SOURCE_ENTRIES}:
            raise ConfigError(
                f"invalid config: {key}: {directory!r} lies in the repository's own {parts[0]!r}, where "
                "the workflow's files would mix with the sources (use results/... or a new folder)"
            )
        long = next((part for part in parts if len(part.encode("utf-8")) > MAX_NAME_BYTES), None)
        if long is not None:
            raise ConfigError(
                f"invalid config: {key}: a component of {len(long.encode('utf-8'))} bytes, beyond the "
                f"{MAX_NAME_BYTES} a file system allows in one name"
            )
    if len(set(directories.values())) < len(directories):
        raise ConfigError(
            f"invalid config: {', '.join(OUTPUT_DIR_KEYS)} must be three different directories, got {directories}"
        )
    for key, directory in directories.items():
        parts = directory.split("/")
        for other, container in directories.items():
            outer = container.split("/")
            if other == key or parts[: len(outer)] != outer:
                continue
            if other != "results_dir" or parts[len(outer)] in RESULTS_SUBFOLDERS:
                raise ConfigError(
                    f"invalid config: {key}: {directory!r} lies inside {other} {container!r} (only "
                    "figures_dir and logs_dir may lie inside results_dir, outside the folders the "
                    f"workflow writes there: {', '.join(RESULTS_SUBFOLDERS)})"
                )


def _written_folders(directories: Mapping[str, str]) -> list[tuple[str, str, bool]]:
    """Every folder a run with the output ``directories`` writes, as (key, folder, whether a folder inside it is the
    run's too): each output folder, and each of RESULTS_SUBFOLDERS in its results_dir. A results_dir's other entries
    are its own files and other configs' folders (results/quick)."""
    folders = [(key, directory, key != "results_dir") for key, directory in directories.items()]
    return folders + [("results_dir", f"{directories['results_dir']}/{sub}", True) for sub in RESULTS_SUBFOLDERS]


def _check_other_runs(directories: dict[str, str], root: Path) -> None:
    """Refuse a folder this run writes (``directories``, or a folder of RESULTS_SUBFOLDERS in its results_dir)
    where it equals, lies in or contains a folder a shipped config's run, or a recorded run (:func:`_recorded_runs`),
    writes, unless the two are one folder of one key and this run is that run (its results_dir, as written, that
    run's). Both sides are compared
    where the file system leads (symbolic links followed: a results/<new> that links to results/quick, or whose
    claims/ does, is the quick run's folder) and in lower case (a case-insensitive file system reads
    ``Results/Claims`` as ``results/claims``)."""
    other_folders = [
        (name, directories["results_dir"] == other["results_dir"], key, _where(folder, root).lower(), whole)
        for name, other in {**SHIPPED_OUTPUT_DIRS, **_recorded_runs(root)}.items()
        for key, folder, whole in _written_folders(other)
    ]
    for key, folder, whole in _written_folders(directories):
        target = _resolved(key, folder, root)
        parts = target.lower().split("/")
        for name, same_run, other_key, other, other_whole in other_folders:
            theirs = other.split("/")
            common = min(len(parts), len(theirs))
            if parts[:common] != theirs[:common] or (same_run and key == other_key and parts == theirs):
                continue
            if (len(parts) > len(theirs) and not other_whole) or (len(parts) < len(theirs) and not whole):
                continue
            where = (
                "is" if parts == theirs else f"{'lies inside' if len(parts) > len(theirs) else 'contains'} {other!r},"
            )
            through = f" (through a symbolic link, {target!r})" if target != folder else ""
            another = (
                f", and results_dir {directories['results_dir']!r} is another run's"
                if key == other_key != "results_dir" and not same_run
                else ""
            )
            raise ConfigError(
                f"invalid config: {key}: {folder!r}{through} {where} a folder that {other_key} of {name} writes"
                f"{another}: one folder for two runs, or two keys, would mix the output folders (choose a new "
                "folder, such as results/<name>)"
            )


def _recorded_runs(root: Path) -> dict[str, dict[str, str]]:
    """The output folders of the runs recorded in ``root``/RUN_RECORDS (:func:`record_output_dirs`) whose results
    folder is still there, each named for an error; a record that is not one is refused, naming its file."""
    records = root / RUN_RECORDS
    runs = {}
    for path in sorted(records.glob("*.json")) if records.is_dir() else ():
        try:
            directories = json.loads(read_regular_file(path, MAX_RECORD_BYTES, "record of a run"))
        except (ValueError, RecursionError) as exc:
            raise ConfigError(f"{path}: not a record of a run's output folders ({exc}); delete it") from None
        if not (
            isinstance(directories, dict)
            and sorted(directories) == sorted(OUTPUT_DIR_KEYS)
            and all(isinstance(folder, str) and folder for folder in directories.values())
        ):
            raise ConfigError(
                f"{path}: not a record of a run's output folders ({', '.join(OUTPUT_DIR_KEYS)}); delete it"
            )
        if (root / directories["results_dir"]).is_dir():
            runs[f"the run of results_dir {directories['results_dir']!r} (recorded in {path.relative_to(root)})"] = (
                directories
            )
    return runs


def record_output_dirs(config: dict, root: str | Path = ".") -> None:
    """Record, in ``root``/RUN_RECORDS, the output folders of the run of ``config`` that starts (the Snakefile's
    ``onstart``): while its results folder is there, another config may not write into them (:func:`check_output_dirs`).
    One record per results_dir, named by where it leads: the run's next start with other folders replaces it."""
    directories = {key: config[key] for key in OUTPUT_DIR_KEYS}
    path = run_record(directories["results_dir"], root).with_suffix(".json")
    path.parent.mkdir(parents=True, exist_ok=True)
    write_text_if_changed(path, json.dumps(directories, sort_keys=True) + "\n")


def run_record(results_dir: str, root: str | Path = ".") -> Path:
    """``root``/RUN_RECORDS/<name>, without suffix: the files of the run of ``results_dir``, named by where it leads
    (its record of output folders, :func:`record_output_dirs`; its lock, :mod:`sparseact.runtime.runlock`)."""
    name = hashlib.sha256(_where(results_dir, Path(root)).lower().encode("utf-8")).hexdigest()[:16]
    return Path(root) / RUN_RECORDS / name


def _where(directory: str, root: Path) -> str:
    """``directory`` where the file system leads from ``root`` (symbolic links followed), relative to ``root`` when it
    stays inside, else absolute."""
    base = root.resolve()
    target = (base / directory).resolve()
    return target.relative_to(base).as_posix() if target.is_relative_to(base) else target.as_posix()


def load_config(path: str | Path, claims: Mapping[str, Any], schema_path: str | Path | None = None) -> dict:
    """Read a config file strictly and validate it for ``claims`` (:func:`validate_config`): the checks the Snakefile
    runs, outside Snakemake."""
    return validate_config(read_yaml_strict(path), claims, schema_path)


#: What an invalid config read from ``--config`` alone adds to its error: the profile's ``replace-workflow-config``
#: (kept so that ``--configfile config/quick.yaml`` replaces the full config instead of merging with it) makes
#: ``--config`` replace the config file too.
CONFIG_REPLACED_HINT = (
    "--config alone replaces config/config.yaml, since profiles/default sets replace-workflow-config: name the file "
    "too, as in --configfile config/config.yaml --config KEY=VALUE"
)


def validate_workflow_config(
    config: dict, configfiles: Iterable[str | Path], claims: Mapping[str, Any], command_line_only: bool = False
) -> dict:
    """What the Snakefile runs first: every config file read strictly, the merged ``config`` validated for ``claims``
    (claim id -> claim, :func:`sparseact.claims.registry`), its cost.

    A config whose estimated CPU time exceeds the limit is refused unless it sets
    ``accept_cost_over_limit: true`` (:func:`sparseact.runtime.costs.check_cost`). ``command_line_only``: the config
    is ``--config``'s alone (no config file was read); an invalid one's error then says how to name the file
    (:data:`CONFIG_REPLACED_HINT`).
    """
    for path in configfiles:
        read_yaml_strict(path)
    try:
        validate_config(config, claims)
    except ConfigError as error:
        if command_line_only:
            raise ConfigError(f"{error} ({CONFIG_REPLACED_HINT})") from None
        raise
    check_cost(config, claims)
    check_writable(config)
    check_config_kernel(config)
    return config


def check_config_kernel(config: dict) -> None:
    """Refuse, naming the key, a ``kernel`` that is not a registered Jupyter kernel: every notebook job would fail."""
    # deferred: the Jupyter stack loads only where a config is checked
    from sparseact.runtime.notebooks import check_kernel

    try:
        check_kernel(config["kernel"])
    except ValueError as error:
        raise ConfigError(f"invalid config: kernel: {error}") from None


def check_writable(config: dict, root: str | Path = ".") -> None:
    """Refuse, naming the key, an output folder the run cannot write (a read-only file system or folder), before
    the start-up writes its first stamp there: the nearest folder of its path that exists must be writable."""
    for key in OUTPUT_DIR_KEYS:
        folder = Path(root) / config[key]
        while not folder.exists():
            folder = folder.parent
        if not os.access(folder, os.W_OK | os.X_OK):
            raise ConfigError(
                f"invalid config: {key}: {config[key]!r} cannot be written ({folder} is read-only): make it writable "
                "or name another folder"
            )
