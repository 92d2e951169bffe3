"""The Python code's style, kept by ruff (configured in pyproject.toml): `ruff check` and `ruff format --check` are
clean, so the README's test command holds the style that .ci/run and pre-commit check."""

import subprocess
import sys

import pytest


@pytest.mark.parametrize("arguments", [["check", "--no-cache", "."], ["format", "--no-cache", "--check", "."]])
def test_ruff_is_clean(repo_root, arguments):
    proc = subprocess.run(
        [sys.executable, "-m", "ruff", *arguments], cwd=repo_root, capture_output=True, text=True, timeout=300
    )
    assert proc.returncode == 0, (proc.stdout + proc.stderr)[-3000:]
