"""config/README.md is generated from the config schemas' descriptions (sparseact.runtime.config_readme), and every
key of the config and of each claim block has a description."""

import subprocess
import sys

from sparseact.runtime.config_readme import COMMAND, render, undescribed_keys


def test_every_key_is_described():
    assert undescribed_keys() == []


def test_the_committed_readme_is_the_generated_one(repo_root):
    committed = (repo_root / "config" / "README.md").read_text(encoding="utf-8")
    assert committed == render(), f"config/README.md is stale: run `{COMMAND}`"


def test_the_readme_lists_every_claim_block_and_key(repo_root):
    import yaml

    text = render()
    config = yaml.safe_load((repo_root / "config" / "config.yaml").read_text())

    def keys(node, prefix=""):
        for key, value in node.items():
            yield f"{prefix}{key}"
            if isinstance(value, dict):
                yield from keys(value, f"{prefix}{key}.")
            elif isinstance(value, list) and value and isinstance(value[0], dict):
                yield from keys(value[0], f"{prefix}{key}[].")

    for claim, block in config["claims"].items():
        assert f"### `claims.{claim}`" in text
        assert all(f"| `{key}` |" in text for key in keys(block)), claim


def test_the_module_writes_the_file(tmp_path):
    out = tmp_path / "README.md"
    subprocess.run([sys.executable, "-m", "sparseact.runtime.config_readme", "--out", str(out)], check=True)
    assert out.read_text(encoding="utf-8") == render()
