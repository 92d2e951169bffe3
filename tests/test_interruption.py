"""A run killed at any moment resumes to completion in one command, and never says it is done when it is not.

Each test kills a quick run (SIGKILL to the whole process group: no clean-up chance at all) at one
point, then follows the README's recovery (``snakemake --unlock``, then the same command once) and
checks that the resume exits 0, leaves no partial file and that a dry run then plans nothing. The run and the resume
are the ``snakemake`` command itself, as a user types it; the unlock and the dry run are the same command lines in a
process that has imported Snakemake already (tests/warm_snakemake.py).

Each copy starts from the session's compiled kernels (``compiled_kernels``).
"""

import json
import os
import signal
import subprocess
import time

import pytest
import warm_snakemake
from test_workflow import QUICK, compiled_kernels, copy_repo, environment  # noqa: F401 (a fixture)

from sparseact.kernels import KERNEL_GROUPS

pytestmark = pytest.mark.workflow

#: The kernels jobs and one claim with several shards: enough jobs to be cut off mid-way, cheap enough for CI.
TARGETS = [*(f"{QUICK}/kernels/{group}.txt" for group in KERNEL_GROUPS), f"{QUICK}/claims/lemma9.json"]
COMMAND = ["snakemake", *TARGETS, "--cores", "2", "--configfile", "config/quick.yaml"]
#: The kernels rule's command in workflow/rules/runs.smk, and the same followed by a long pause: a kill during
#: the pause hits a kernels job after its output file exists, before Snakemake records the job as complete.
KERNELS_COMMAND = '"python -m sparseact.cli compile-kernels --group {wildcards.group} --out {output} > {log} 2>&1"'
PAUSED_KERNELS_COMMAND = KERNELS_COMMAND[:-1] + ' && sleep 600"'


def wait_for(predicate, timeout=600.0):
    deadline = time.time() + timeout
    while not predicate():
        assert time.time() < deadline, "the run never reached the point where the test kills it"
        time.sleep(0.2)


def jobs_running_for_a_while(work):
    """Three seconds after the first job log appears: jobs are running, none of the notebooks has finished."""
    if not any((work / QUICK / "logs").rglob("*.log")):
        return False
    time.sleep(3)
    return True


def kernels_output(work):
    return any((work / QUICK / "kernels").glob("*.txt"))


def some_shard_result(work):
    return any((work / QUICK / "runs").rglob("*.json"))


def kill_and_resume(work, kill_point, pause_in_kernels=False):
    """Start the run, SIGKILL it once ``kill_point(work)`` holds, unlock, resume once; return the resume's output."""
    rules = work / "workflow" / "rules" / "runs.smk"
    original = rules.read_text()
    if pause_in_kernels:
        assert KERNELS_COMMAND in original
        rules.write_text(original.replace(KERNELS_COMMAND, PAUSED_KERNELS_COMMAND))
    env = environment(work)
    proc = subprocess.Popen(
        COMMAND, cwd=work, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True, env=env
    )
    try:
        wait_for(lambda: kill_point(work) or proc.poll() is not None)
        assert proc.poll() is None, "the run finished before the kill point"
    finally:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()
    rules.write_text(original)
    assert not (work / TARGETS[-1]).exists()

    # after a hard kill Snakemake keeps its lock: the README's recovery is --unlock, then rerun
    code, output = warm_snakemake.run(work, ["--unlock", *COMMAND[1:]], env, timeout=300)
    assert code == 0, output[-3000:]
    resumed = subprocess.run(COMMAND, cwd=work, capture_output=True, text=True, timeout=1800, env=env)
    output = resumed.stdout + resumed.stderr
    assert resumed.returncode == 0, output[-3000:]
    leftovers = [p for p in (work / "results").rglob("*.tmp")]
    assert not leftovers, leftovers
    for result in (work / "results").rglob("*.json"):
        json.loads(result.read_text())  # every result file is complete
    code, dry = warm_snakemake.run(work, ["-n", *COMMAND[1:]], env, timeout=300)
    assert code == 0 and "Nothing to be done" in dry, dry[-3000:]
    return output


def test_killed_early_resumes(repo_root, tmp_path, compiled_kernels):
    work = copy_repo(repo_root, tmp_path / "repo", kernels=compiled_kernels)
    kill_and_resume(work, jobs_running_for_a_while)


def test_killed_inside_the_kernels_job_after_its_output_exists_resumes(repo_root, tmp_path, compiled_kernels):
    """A kernels job is incomplete but its output exists: the resume reruns it and every shard after it
    (with the shards taking the kernels' output through ancient(), Snakemake used to rerun only the kernels job,
    exit 0).
    The kill comes in the pause after the job's command, so whether the command compiled the kernels or loaded the
    session's (as here) makes no difference to it; the cluster run (tests/test_reproducibility.py) and the README's
    reproduction compile them in the kernels job, as on a fresh clone."""
    work = copy_repo(repo_root, tmp_path / "repo", kernels=compiled_kernels)
    output = kill_and_resume(work, kernels_output, pause_in_kernels=True)
    assert "rule kernels:" in output and "rule run:" in output and "rule assemble:" in output, output[-3000:]


def test_killed_between_shards_resumes(repo_root, tmp_path, compiled_kernels):
    work = copy_repo(repo_root, tmp_path / "repo", kernels=compiled_kernels)
    kill_and_resume(work, some_shard_result)
