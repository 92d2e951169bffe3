"""YAML as the package reads it (sparseact._yaml): libyaml's parser where PyYAML has it, the same objects as PyYAML's
own safe loader."""

from pathlib import Path

import pytest
import yaml

from sparseact._yaml import SAFE_LOADER, load_yaml

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
