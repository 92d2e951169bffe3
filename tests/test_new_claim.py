"""``sparseact new-claim``: the recipe of docs/architecture.md ("Adding a claim") is this command, and it works.

A toy claim is scaffolded in a temporary copy of the repository (a git checkout of its own, so that the copy's test
session can hold its files as this one does): Snakemake plans its jobs under both configs (its assembly's code stamp
listing its pins), ``sparseact check-config`` prices it (by the fallback row, with a warning), the verifier and the
paper read its pins and errata stubs, the generated files are lint-clean, and the generated test passes.
"""

import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from test_workflow import copy_repo, environment, snakemake

from sparseact.claims._scaffold import CONFIG_BLOCKS, CONFIG_SCHEMA, FILES, new_claim
from sparseact.paper import errata

TOY = "toyclaim"
REPO = Path(__file__).resolve().parents[1]


def _run(work, *command, timeout=900):
    proc = subprocess.run(
        command, cwd=work, capture_output=True, text=True, timeout=timeout, env=environment(work), check=False
    )
    assert proc.returncode == 0, f"{' '.join(command)}:\n{proc.stdout[-3000:]}{proc.stderr[-3000:]}"
    return proc.stdout + proc.stderr


@pytest.fixture(scope="module")
def scaffolded(tmp_path_factory):
    """A copy of the repository with its tests, a git checkout, and the toy claim written by the command."""
    root = tmp_path_factory.mktemp("new-claim")
    work = copy_repo(REPO, root / "repo")
    shutil.copytree(REPO / "tests", work / "tests", ignore=shutil.ignore_patterns("__pycache__"))
    _run(work, "git", "init", "-q")
    _run(work, "git", "add", "-A")
    _run(work, "git", "-c", "user.name=test", "-c", "user.email=test@example.org", "commit", "-qm", "copy")
    output = _run(work, sys.executable, "-m", "sparseact.cli", "new-claim", TOY, "--paper-ref", "Lemma 11 (Section 3)")
    return work, output


def test_the_command_writes_every_file_the_recipe_names(scaffolded):
    work, output = scaffolded
    for target in FILES.values():
        assert (work / target.format(id=TOY)).is_file() and f"wrote {target.format(id=TOY)}" in output
    for config in CONFIG_BLOCKS:
        assert f"\n  {TOY}:\n" in (work / config).read_text()
    assert f'      {TOY}: {{$ref: "../claims/{TOY}/schema.yaml"}}\n' in (work / CONFIG_SCHEMA).read_text()
    assert f"### `claims.{TOY}`" in (work / "config" / "README.md").read_text()


def test_snakemake_plans_the_new_claims_jobs(scaffolded):
    work, _ = scaffolded
    for config in ("config/quick.yaml", "config/config.yaml"):
        output = snakemake(work, "-n", configfile=config)  # the copy's own library, as _run's commands
        assert f"claim={TOY}, shard=all" in output and f"warning: claim {TOY} has no measured cost row" in output
        assert f"sparseact.claims.{TOY}.pins" in output  # its assembly verifies with its own pins


def test_the_verifier_and_the_paper_read_its_pins_and_errata(scaffolded):
    """The claim is one folder: the checker reads its pins by path and the paper its errata, from the copy."""
    work, _ = scaffolded
    script = (
        "from sparseact.paper import errata; from sparseact.verify.checker import PINNED_CLAIMS; "
        f"print({TOY!r} in PINNED_CLAIMS, len(errata()))"
    )
    assert f"True {len(errata())}\n" in _run(work, sys.executable, "-c", script)


def test_check_config_prices_the_new_claim(scaffolded):
    work, _ = scaffolded
    output = _run(work, sys.executable, "-m", "sparseact.cli", "check-config", "config/quick.yaml")
    assert "config/quick.yaml: valid" in output


def test_the_generated_files_are_lint_clean(scaffolded):
    work, _ = scaffolded
    generated = [target.format(id=TOY) for target in FILES.values() if target.endswith(".py")]
    config = str(REPO / "pyproject.toml")
    _run(work, "ruff", "check", "--no-cache", "--config", config, *generated)
    _run(work, "ruff", "format", "--check", "--no-cache", "--config", config, *generated)


def test_the_generated_test_passes(scaffolded):
    work, _ = scaffolded
    output = _run(work, sys.executable, "-m", "pytest", f"tests/test_claim_{TOY}.py", "-q", "-n0")
    assert "4 passed" in output


@pytest.mark.parametrize(
    ("claim_id", "message"),
    [
        ("Lemma11", "a lower-case Python identifier"),
        ("lemma-11", "a lower-case Python identifier"),
        ("_hidden", "a lower-case Python identifier"),
        ("class", "not a keyword"),
        ("match", "not a keyword"),
        ("all", "reserved"),
        ("lemma9", "exists already: src/sparseact/claims/lemma9"),
    ],
)
def test_a_bad_or_taken_id_is_refused_before_anything_is_written(claim_id, message, tmp_path):
    work = tmp_path / "repo"
    for name in ("src", "config"):
        shutil.copytree(REPO / name, work / name)
    before = {path: path.read_bytes() for path in work.rglob("*") if path.is_file()}
    with pytest.raises(ValueError, match=message):
        new_claim(claim_id, work)
    assert {path: path.read_bytes() for path in work.rglob("*") if path.is_file()} == before


@pytest.mark.parametrize("paper_ref", ["Lemma 11 $x$", "Lemma 11\nSection 3", r"\input{/etc/passwd}", "Lemma ^^5c 78"])
def test_a_paper_ref_that_is_not_plain_text_is_refused(paper_ref, tmp_path):
    work = tmp_path / "repo"
    for name in ("src", "config"):
        shutil.copytree(REPO / name, work / name)
    with pytest.raises(ValueError, match="one line of plain text"):
        new_claim("lemma11", work, paper_ref)
    assert not (work / "src" / "sparseact" / "claims" / "lemma11").exists()


def test_a_failure_part_way_leaves_the_checkout_as_it_was(tmp_path):
    """probe7: with a claim schema the config schema names removed by hand, new-claim failed after writing the claim's
    files, and a retry said the claim existed; now it removes what it wrote and restores what it edited."""
    work = tmp_path / "repo"
    for name in ("src", "config"):
        shutil.copytree(REPO / name, work / name)
    (work / "notebooks").mkdir()
    (work / "tests").mkdir()
    (work / "src" / "sparseact" / "claims" / "lemma6" / "schema.yaml").unlink()
    before = {path: path.read_bytes() for path in work.rglob("*") if path.is_file()}
    with pytest.raises(FileNotFoundError):
        new_claim("lemma11", work)
    assert {path: path.read_bytes() for path in work.rglob("*") if path.is_file()} == before
    assert not (work / "src" / "sparseact" / "claims" / "lemma11").exists()


def test_the_recipe_in_the_architecture_document_is_the_command(repo_root):
    text = (repo_root / "docs" / "architecture.md").read_text()
    assert "sparseact new-claim lemma11" in text
    for target in FILES.values():
        assert target.format(id="lemma11").removeprefix("src/sparseact/claims/lemma11/") in text
