"""Snakemake catalog conventions: `snakemake --lint` and `snakefmt --check` are clean."""

import subprocess

import pytest
from test_workflow import copy_repo, snakemake

pytestmark = pytest.mark.workflow


def test_snakemake_lint_is_clean(repo_root, tmp_path):
    work = copy_repo(repo_root, tmp_path / "repo")  # Snakemake writes .snakemake/: never in the checkout
    output = snakemake(work, "--lint")
    assert "Lints for" not in output, output[-3000:]


def test_snakefmt_check_is_clean(repo_root):
    proc = subprocess.run(
        ["snakefmt", "--check", "Snakefile", "workflow"], cwd=repo_root, capture_output=True, text=True, timeout=300
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
