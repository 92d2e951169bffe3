"""An interrupted run resumes and leaves no partial output that looks complete."""

import json
import os
import signal
import subprocess
import time

import pytest

from test_workflow import copy_repo, environment

pytestmark = pytest.mark.workflow


#: One claim with several shards: enough jobs to be cut off mid-way, cheap enough for CI.
TARGET = "results/claims/lemma9.json"


def test_killed_run_resumes_cleanly(repo_root, tmp_path):
    work = copy_repo(repo_root, tmp_path / "repo")
    cmd = ["snakemake", TARGET, "--cores", "2", "--configfile", "config/quick.yaml"]
    env = environment(work)
    proc = subprocess.Popen(cmd, cwd=work, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                            start_new_session=True, env=env)
    deadline = time.time() + 120
    while time.time() < deadline and not list((work / "logs").rglob("*.log")):
        time.sleep(0.2)
    time.sleep(3)  # let some jobs run, none of the notebooks has finished yet
    os.killpg(proc.pid, signal.SIGKILL)  # no clean-up chance at all
    proc.wait()
    assert not (work / TARGET).exists()

    # after a hard kill Snakemake keeps its lock: the README's recovery is --unlock, then rerun
    subprocess.run(["snakemake", "--unlock", *cmd[1:]], cwd=work, capture_output=True, timeout=300, check=True, env=env)
    resumed = subprocess.run(cmd, cwd=work, capture_output=True, text=True, timeout=1200, env=env)
    assert resumed.returncode == 0, resumed.stdout[-3000:] + resumed.stderr[-3000:]
    leftovers = [p for d in ("results", "figures") for p in (work / d).rglob("*.tmp")]
    assert not leftovers, leftovers
    for result in (work / "results").rglob("*.json"):
        json.loads(result.read_text())  # every result file is complete
    dry = subprocess.run(["snakemake", "-n", *cmd[1:]], cwd=work, capture_output=True, text=True, timeout=300, env=env)
    assert "Nothing to be done" in dry.stdout + dry.stderr
