"""Configuration: strict YAML reading, schema validation and the claims' own relations.

The Snakefile calls :func:`validate_workflow_config` before anything else, and
``sparseact check-config FILE`` calls :func:`load_config`; both reject a bad
config before any job runs, in one or two lines that name the key (or the file,
line and column of a YAML error):

* files that are not UTF-8 text, or hold control or binary characters;
* YAML syntax errors and duplicated keys (which YAML would resolve silently,
  the last value winning);
* NaN and infinite numbers, under any key;
* the schema ``sparseact/schemas/config.schema.yaml`` (the Snakefile's ``workflow/schemas/config.schema.yaml``
  refers to it), which pulls in each claim block's schema (``sparseact/claims/<id>/schema.yaml``) by a relative
  ``$ref``, with integers strict (``3.0`` is not an integer);
* the output directories (:func:`check_output_dirs`): relative, inside the repository, distinct;
* each claim's relations between keys (``check(block)`` of the claim's grid module,
  e.g. ``k <= s``) and its grid (:func:`sparseact.claims.check_claim_blocks`).
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from pathlib import Path
from urllib.parse import urlparse
from urllib.request import url2pathname

import yaml

from sparseact.runtime.errors import ConfigError

#: The schema as package data of ``sparseact`` (the Snakefile's ``workflow/schemas/config.schema.yaml`` refers to
#: it), beside the claim folders whose ``schema.yaml`` it refers to, so that ``sparseact check-config`` works from
#: any install.
PACKAGED_SCHEMA = "schemas/config.schema.yaml"
#: Config keys naming an output directory.
OUTPUT_DIR_KEYS = ("results_dir", "figures_dir", "logs_dir")
#: Longest schema message shown (the rest of a long message is cut, never the key).
MESSAGE_WIDTH = 200


#: The fastest safe loader available (libyaml's when installed).
_SAFE_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


class _StrictLoader(_SAFE_LOADER):
    """A safe loader that refuses duplicated mapping keys."""


def _construct_mapping(loader: _StrictLoader, node: yaml.MappingNode, deep: bool = False) -> dict:
    seen = {}
    for key_node, _ in node.value:
        key = loader.construct_object(key_node, deep=deep)
        if key in seen:
            mark = key_node.start_mark
            raise ConfigError(f"{mark.name}:{mark.line + 1}:{mark.column + 1}: duplicated key {key!r} "
                              f"(first at line {seen[key] + 1}); YAML would silently keep the last value")
        seen[key] = key_node.start_mark.line
    return loader.construct_mapping(node, deep=deep)


_StrictLoader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, _construct_mapping)


def read_yaml_strict(path: str | Path) -> dict:
    """Read a YAML config; a syntax error or a duplicated key is a :class:`ConfigError` with file, line, column."""
    path = Path(path)
    try:
        with open(path, encoding="utf-8") as handle:
            data = yaml.load(handle, Loader=_StrictLoader)  # noqa: S506 (a safe loader)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark
        where = f"{path}:{mark.line + 1}:{mark.column + 1}" if mark else str(path)
        raise ConfigError(f"{where}: YAML syntax error: {exc.problem}") from None
    except UnicodeDecodeError as exc:
        raise ConfigError(f"{path}: not a UTF-8 text file (byte 0x{exc.object[exc.start]:02x} at offset "
                          f"{exc.start}); a config file is UTF-8 YAML") from None
    except yaml.reader.ReaderError as exc:
        code = exc.character if isinstance(exc.character, int) else ord(exc.character)
        raise ConfigError(f"{path}: character U+{code:04X} at offset {exc.position} is not allowed in YAML "
                          "(a control or binary character)") from None
    except OSError as exc:
        raise ConfigError(f"{path}: cannot read the config file ({exc.strerror})") from None
    if not isinstance(data, dict):
        raise ConfigError(f"{path}: a config file must be a YAML mapping of keys to values")
    return data


def _validator(schema: dict):
    """A strict-integer validator of ``schema``, whose relative ``$ref`` s name files beside its ``$id`` (resolved as
    snakemake's ``validate`` resolves them).

    A referenced file's ``$schema`` (which snakemake needs) is dropped: jsonschema validates a subschema that
    names its dialect with that dialect's stock validator, which would accept ``3.0`` as an integer.
    """
    import jsonschema
    from referencing import Registry, Resource
    from referencing.jsonschema import DRAFT202012

    def is_integer(_checker, instance) -> bool:
        return isinstance(instance, int) and not isinstance(instance, bool)

    def retrieve(uri: str) -> Resource:
        contents = _read_schema(Path(url2pathname(urlparse(uri).path)))
        contents.pop("$schema", None)
        return Resource.from_contents(contents, default_specification=DRAFT202012)

    strict = jsonschema.validators.extend(
        jsonschema.Draft202012Validator,
        type_checker=jsonschema.Draft202012Validator.TYPE_CHECKER.redefine("integer", is_integer))
    return strict(schema, registry=Registry(retrieve=retrieve))


def _read_schema(path: Path) -> dict:
    with path.open(encoding="utf-8") as handle:
        return yaml.load(handle, Loader=_SAFE_LOADER)  # noqa: S506 (a safe loader)


def _schema(schema_path: str | Path | None) -> dict:
    """The schema, with its file's URI (links resolved) as ``$id``: its ``$ref`` s resolve against that file."""
    from importlib.resources import files

    schema_file = Path(schema_path) if schema_path else Path(str(files("sparseact").joinpath(PACKAGED_SCHEMA)))
    return {**_read_schema(schema_file), "$id": schema_file.resolve().as_uri()}


def _non_finite_key(node, key: str = "") -> str | None:
    """Dotted key of the first NaN or infinite number in ``node`` (lists index as ``key.0``), else None."""
    if isinstance(node, float) and not math.isfinite(node):
        return key or "<top level>"
    items = node.items() if isinstance(node, dict) else enumerate(node) if isinstance(node, list) else ()
    for name, value in items:
        found = _non_finite_key(value, f"{key}.{name}" if key else str(name))
        if found is not None:
            return found
    return None


def validate_config(config: dict, schema_path: str | Path | None = None) -> dict:
    """Validate a parsed ``config`` against the schema (strict integers), then every claim's block.

    NaN and infinite numbers are refused first, whatever the key: the schema's bounds
    cannot catch NaN (every comparison with it is false).

    Raises
    ------
    ConfigError
        ``invalid config: <dotted key>: <what is wrong>``, one line.
    """
    import jsonschema

    from sparseact.claims import check_claim_blocks

    non_finite = _non_finite_key(config)
    if non_finite is not None:
        raise ConfigError(f"invalid config: {non_finite}: NaN and infinity are not allowed (a finite number is needed)")
    error = jsonschema.exceptions.best_match(_validator(_schema(schema_path)).iter_errors(config))
    if error is not None:
        key = ".".join(str(p) for p in error.absolute_path) or "<top level>"
        message = error.message if len(error.message) <= MESSAGE_WIDTH else error.message[:MESSAGE_WIDTH] + "..."
        raise ConfigError(f"invalid config: {key}: {message}")
    check_output_dirs(config)
    check_claim_blocks(config)
    return config


def check_output_dirs(config: dict) -> None:
    """The output directories of a schema-valid ``config``: relative paths inside the repository, pairwise
    distinct. (The full run's config writes ``results/``, whose ledger, statements, findings and certificates are
    committed; config/quick.yaml writes ``results/quick/``, so it never overwrites them.)

    Raises
    ------
    ConfigError
        Naming the key.
    """
    directories = {key: config[key] for key in OUTPUT_DIR_KEYS}
    for key, directory in directories.items():
        if any(part in (".", "..") for part in directory.split("/")):
            raise ConfigError(f"invalid config: {key}: {directory!r} must stay inside the repository "
                              "(no '.' or '..' components)")
    if len(set(directories.values())) < len(directories):
        raise ConfigError(f"invalid config: {', '.join(OUTPUT_DIR_KEYS)} must be three different directories, "
                          f"got {directories}")


def load_config(path: str | Path, schema_path: str | Path | None = None) -> dict:
    """Read a config file strictly and validate it: the checks the Snakefile runs, outside Snakemake."""
    return validate_config(read_yaml_strict(path), schema_path)


def validate_workflow_config(config: dict, configfiles: Iterable[str | Path]) -> dict:
    """What the Snakefile runs first: every config file read strictly, the merged ``config`` validated, its cost.

    A config whose estimated CPU time exceeds the limit is refused unless it sets
    ``accept_cost_over_limit: true`` (:func:`sparseact.runtime.costs.check_cost`).
    """
    from sparseact.runtime.costs import check_cost

    for path in configfiles:
        read_yaml_strict(path)
    validate_config(config)
    check_cost(config)
    return config
