"""YAML as the package reads it: safe, and parsed by libyaml where PyYAML has it; a file's mapping that names a key
twice is refused."""

from __future__ import annotations

import io
from pathlib import Path

import yaml

#: The fastest safe loader available, for the paper's data files the ledger and the report read: libyaml's
#: (``yaml.CSafeLoader``) where PyYAML was built with it, else PyYAML's own. Both build the objects with the same
#: safe constructor and resolver (tests/test_yaml.py compares them on every YAML file of the package and on the
#: configs).
SAFE_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


class DuplicateKeyError(ValueError):
    """A mapping of a YAML file names a key twice, which YAML resolves without a word (the last value wins)."""


def unique_key_mapping(loader: yaml.BaseLoader, node: yaml.MappingNode, deep: bool = False) -> dict:
    """The mapping ``node`` built by ``loader``; :class:`DuplicateKeyError` naming the file, line, column and key
    when a key is repeated."""
    seen: dict = {}
    for key_node in (key for key, _ in node.value if isinstance(key, yaml.ScalarNode)):
        key = loader.construct_object(key_node, deep=deep)
        if key in seen:
            mark = key_node.start_mark
            raise DuplicateKeyError(
                f"{mark.name}:{mark.line + 1}:{mark.column + 1}: duplicated key {key!r} "
                f"(first at line {seen[key] + 1}); YAML would silently keep the last value"
            )
        seen[key] = key_node.start_mark.line
    return loader.construct_mapping(node, deep=deep)


class UniqueKeyLoader(SAFE_LOADER):
    """:data:`SAFE_LOADER` refusing a repeated key (:func:`unique_key_mapping`)."""


UniqueKeyLoader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, unique_key_mapping)


def named_stream(path: str | Path, text: str) -> io.StringIO:
    """``text`` as a stream named ``path`` (YAML's error marks name the file)."""
    stream = io.StringIO(text)
    stream.name = str(path)
    return stream


def load_yaml(text: str):
    """The document ``text``, read with :data:`SAFE_LOADER`: what ``yaml.safe_load`` gives.

    Raises
    ------
    yaml.YAMLError
        When ``text`` is not valid YAML.
    """
    return yaml.load(text, Loader=SAFE_LOADER)


def read_yaml(path: str | Path):
    """The document in the UTF-8 file ``path``, read as :func:`load_yaml` reads it but refusing a repeated key.

    Raises
    ------
    DuplicateKeyError
        One line naming the file, line and key, when a mapping names a key twice.
    yaml.YAMLError
        When the file is not valid YAML.
    """
    return yaml.load(named_stream(path, Path(path).read_text(encoding="utf-8")), Loader=UniqueKeyLoader)
