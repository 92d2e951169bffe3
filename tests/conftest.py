"""Shared fixtures: closed-form Boolean functions and small networks; and the suite's promise to the checkout.

The suite never writes the checkout: every test that runs Snakemake runs it in a temporary
copy (tests/test_workflow.py: ``copy_repo``). :func:`pytest_sessionfinish` holds it to that:
it compares the checkout's tracked files and everything under ``results/`` with what they
were when the session started, and fails the session, naming the files, when any differs.
"""

import hashlib
import subprocess
from pathlib import Path

import numpy as np
import pytest

REPO = Path(__file__).resolve().parents[1]
_STATE = pytest.StashKey[dict]()


def checkout_state(root: Path = REPO) -> dict[str, str]:
    """SHA-256 of every file git tracks in ``root`` and of every file under ``root/results`` (tracked or not)."""
    listed = subprocess.run(["git", "ls-files", "-z"], cwd=root, capture_output=True, check=True).stdout
    paths = {root / name for name in listed.decode().split("\0") if name}
    paths |= {path for path in (root / "results").rglob("*") if path.is_file()}
    return {str(path.relative_to(root)): hashlib.sha256(path.read_bytes()).hexdigest() if path.is_file() else "missing"
            for path in sorted(paths)}


def pytest_sessionstart(session):
    session.config.stash[_STATE] = checkout_state()


def pytest_sessionfinish(session, exitstatus):
    before = session.config.stash.get(_STATE, None)
    if before is None:
        return
    after = checkout_state()
    changed = sorted(path for path in before.keys() | after.keys() if before.get(path) != after.get(path))
    if changed:
        reporter = session.config.pluginmanager.get_plugin("terminalreporter")
        message = (f"the test session changed {len(changed)} file(s) of the checkout (tracked or under results/): "
                   + ", ".join(changed[:20]) + (" ..." if len(changed) > 20 else ""))
        if reporter is not None:
            reporter.write_line(f"FAILED: {message}", red=True, bold=True)
        session.exitstatus = pytest.ExitCode.TESTS_FAILED


@pytest.fixture(scope="session")
def repo_root() -> Path:
    return REPO


@pytest.fixture
def rng() -> np.random.Generator:
    return np.random.default_rng(12345)
