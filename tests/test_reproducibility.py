"""End-to-end: a second run of the quick config gives the same files, and a run under another base seed the same
verdicts (two more runs of the quick config, each in its own temporary copy).

These compare fresh runs with the session's run (``quick_run`` of tests/test_workflow.py) and read it only. They are
a file of their own so that pytest-xdist (``--dist loadfile``) runs them on one worker while the other runs
tests/test_workflow.py's tests of that run: in that file they waited behind them. Each run starts from the session's
compiled kernels (``compiled_kernels``) and asks for the session's run only to compare with it, as the cluster test
does: a run does not wait for the session's run to finish before it starts.
"""

import pandas as pd
import pytest
from test_workflow import (  # noqa: F401 (the session's run and the fixture it uses)
    QUICK,
    compiled_kernels,
    copy_repo,
    digests,
    edited_config,
    quick_run,
    snakemake,
)

pytestmark = pytest.mark.workflow


def test_two_runs_are_byte_identical(compiled_kernels, repo_root, tmp_path, request):
    second = copy_repo(repo_root, tmp_path / "again", kernels=compiled_kernels)
    snakemake(second)
    quick_run = request.getfixturevalue("quick_run")
    first_digests, second_digests = digests(quick_run), digests(second)
    assert first_digests.keys() == second_digests.keys()
    differing = [k for k in first_digests if first_digests[k] != second_digests[k]]
    assert not differing, differing


def test_another_seed_gives_the_same_verdicts(compiled_kernels, repo_root, tmp_path, request):
    other = copy_repo(repo_root, tmp_path / "seed", kernels=compiled_kernels)
    configfile = edited_config(other, lambda c: c.update(seed=c["seed"] + 7919))
    snakemake(other, configfile=configfile)
    quick_run = request.getfixturevalue("quick_run")
    columns = ["check_id", "verdict"]
    first = pd.read_csv(quick_run / QUICK / "ledger.csv")[columns].sort_values("check_id").reset_index(drop=True)
    second = pd.read_csv(other / QUICK / "ledger.csv")[columns].sort_values("check_id").reset_index(drop=True)
    pd.testing.assert_frame_equal(first, second)
