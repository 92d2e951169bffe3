"""End-to-end: a run of the quick config under another base seed gives the session's run's verdicts.

The run goes as far as the ledger (``ledger.csv`` and what it needs: every claim's data, runs and assembly), which
holds every check's verdict; the pages, the report and the note's PDF only present them. It is a file of its own so
that pytest-xdist (``--dist loadfile``) runs it on a worker of its own, beside tests/test_reproducibility.py's
second run. It starts from the session's compiled kernels (``compiled_kernels``) and asks for the session's run
(``quick_run`` of tests/test_workflow.py) only to compare with it: the run does not wait for the session's.
"""

import pandas as pd
import pytest
from test_workflow import (  # noqa: F401 (the session's run and the fixture it uses)
    QUICK,
    compiled_kernels,
    copy_repo,
    edited_config,
    quick_run,
    snakemake,
)

pytestmark = pytest.mark.workflow


def test_another_seed_gives_the_same_verdicts(compiled_kernels, repo_root, tmp_path, request):
    other = copy_repo(repo_root, tmp_path / "seed", kernels=compiled_kernels)
    configfile = edited_config(other, lambda c: c.update(seed=c["seed"] + 7919))
    snakemake(other, f"{QUICK}/ledger.csv", configfile=configfile)
    quick_run = request.getfixturevalue("quick_run")
    columns = ["check_id", "verdict"]
    first = pd.read_csv(quick_run / QUICK / "ledger.csv")[columns].sort_values("check_id").reset_index(drop=True)
    second = pd.read_csv(other / QUICK / "ledger.csv")[columns].sort_values("check_id").reset_index(drop=True)
    pd.testing.assert_frame_equal(first, second)
