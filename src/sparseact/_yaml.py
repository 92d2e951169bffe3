"""YAML as the package reads it: safe, and parsed by libyaml where PyYAML has it."""

from __future__ import annotations

from pathlib import Path

import yaml

#: The fastest safe loader available, for the paper's data files the ledger and the report read: libyaml's
#: (``yaml.CSafeLoader``) where PyYAML was built with it, else PyYAML's own. Both build the objects with the same
#: safe constructor and resolver (tests/test_yaml.py compares them on every YAML file of the package and on the
#: configs).
SAFE_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def load_yaml(text: str):
    """The document ``text``, read with :data:`SAFE_LOADER`: what ``yaml.safe_load`` gives.

    Raises
    ------
    yaml.YAMLError
        When ``text`` is not valid YAML.
    """
    return yaml.load(text, Loader=SAFE_LOADER)


def read_yaml(path: str | Path):
    """The document in the UTF-8 file ``path`` (:func:`load_yaml`)."""
    return load_yaml(Path(path).read_text(encoding="utf-8"))
