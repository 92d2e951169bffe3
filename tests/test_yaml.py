"""YAML as the package reads it (sparseact._yaml): libyaml's parser where PyYAML has it, the same objects as PyYAML's
own safe loader."""

import re
from pathlib import Path

import pytest
import yaml

from sparseact._yaml import SAFE_LOADER, DuplicateKeyError, load_yaml, read_yaml

REPO = Path(__file__).resolve().parents[1]
#: The package's data (the paper's statements, facts and errata, the claims' checks and schemas) and the configs.
FILES = sorted([*(REPO / "src" / "sparseact").rglob("*.yaml"), *(REPO / "config").glob("*.yaml")])


def test_libyaml_is_used_where_pyyaml_has_it():
    assert SAFE_LOADER is (yaml.CSafeLoader if yaml.__with_libyaml__ else yaml.SafeLoader)


@pytest.mark.parametrize("path", FILES, ids=lambda path: str(path.relative_to(REPO)))
def test_every_yaml_file_reads_as_pyyamls_safe_loader_reads_it(path):
    text = path.read_text(encoding="utf-8")
    assert load_yaml(text) == yaml.safe_load(text)


def test_invalid_yaml_raises_yamls_error():
    with pytest.raises(yaml.YAMLError):
        load_yaml("a: [1, 2\n")


@pytest.mark.parametrize("path", FILES, ids=lambda path: str(path.relative_to(REPO)))
def test_every_yaml_file_reads_without_a_repeated_key(path):
    assert read_yaml(path) == yaml.safe_load(path.read_text(encoding="utf-8"))


def _repeat_key(source: Path, folder: Path, after: str, line: str) -> Path:
    """A copy of ``source`` in ``folder`` (beside a claim folder of its name) with ``line`` inserted after the first
    line that starts with ``after``."""
    target = folder / source.parent.name / source.name
    target.parent.mkdir(parents=True, exist_ok=True)
    text = source.read_text(encoding="utf-8")
    at = text.index("\n", text.index(after)) + 1
    target.write_text(text[:at] + line + "\n" + text[at:], encoding="utf-8")
    return target


@pytest.mark.parametrize(
    "reader,source,after,line,key",
    [
        ("statements", "claims/lemma6/statements.yaml", "  kind: lemma", "  kind: proof-step", "kind"),
        ("checks", "claims/lemma6/checks.yaml", "  method: exact", "  method: monte-carlo", "method"),
        ("errata", "claims/lemma9/errata.yaml", "- id: ", "  id: other", "id"),
        ("schema", "claims/lemma6/schema.yaml", "type: object", "type: array", "type"),
    ],
)
def test_every_reader_of_the_package_data_refuses_a_repeated_key(tmp_path, reader, source, after, line, key):
    """A repeated key (YAML would keep the last value without a word) is one line naming the file, line and key, in
    every reader of the paper's data and the claims' declarations and schemas."""
    from sparseact import paper
    from sparseact.runtime.config import load_config
    from sparseact.verify.declarations import read_checks

    path = _repeat_key(REPO / "src" / "sparseact" / source, tmp_path, after, line)
    read = {
        "statements": lambda: paper._load(path, "lemma6/statements.yaml"),
        "errata": lambda: paper._load(path, "claims/lemma9/errata.yaml"),
        "checks": lambda: read_checks("lemma6", tmp_path),
        "schema": lambda: load_config(REPO / "config" / "quick.yaml", {}, path),
    }[reader]
    with pytest.raises(DuplicateKeyError) as refused:
        read()
    message = str(refused.value)
    assert re.fullmatch(rf"{re.escape(str(path))}:\d+:\d+: duplicated key '{key}' \(first at line \d+\).*", message)
    assert len(message.splitlines()) == 1
