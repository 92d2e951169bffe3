"""End-to-end: a second run of the quick config gives the session's run's files byte for byte, and on a real
one-node SLURM cluster the same results.

The second run is the cluster's where this session runs the cluster test (:func:`second_run`): its jobs go through
sbatch, in another process layout and scheduling order (its kernels jobs too, which load the session's compiled
kernels, as every copy of this suite does), so comparing every file of it with the session's run is the stronger
test, and the quick config is not run a third time. Elsewhere (not root on
a Debian-like system, or the cluster test deselected) the second run is a local one in a temporary copy.

The cluster is started on this machine by .ci/slurm-cluster.sh (Debian's slurm-wlm and munge, one
node, partition ``debug``, no accounting database) and stopped by PID afterwards, so the cluster tests need
root and apt-get; elsewhere they skip and say why. The quick config runs through the profile, with the
partition added on the command line exactly as docs/slurm.md says (and a short status-check interval, as it says
for a small cluster), in a temporary copy of the repository;
the ledger, statements, findings and every claim's result file must be byte-identical to the local run's
(``snakemake --cores 2``: the session's run, ``quick_run`` of tests/test_workflow.py, made meanwhile by
this worker or another). The cluster's tests are marked ``slurm``; the comparison of every file is not.
"""

from __future__ import annotations

import importlib.util
import os
import re
import shutil
import subprocess
import time
from collections import Counter
from pathlib import Path

import pytest
import yaml
from test_workflow import (  # noqa: F401 (the session's run and the fixture it uses)
    compiled_kernels,
    copy_repo,
    digests,
    quick_run,
    snakemake,
)

from sparseact.claims import claim_ids, config_shards
from sparseact.kernels import KERNEL_GROUPS
from sparseact.runtime.accel.usage import USAGE_PREFIX

pytestmark = pytest.mark.workflow

#: Longest either run may take (the quick config: about 2 minutes locally and 6 on the cluster, idle).
RUN_SECONDS = 3600
#: Seconds before the plugin's first status check of submitted jobs, and after each check that saw a job finish
#: (``--slurm-init-seconds-before-status-checks``; the plugin's default, 40, suits a shared cluster's controller).
#: On the one-node test cluster a dependency wave (kernels, then runs) otherwise waits up to 40 s
#: after its last job ends, with the node idle; squeue answers this cluster in milliseconds. The jobs, their
#: submission and their status command (the profile's squeue) are the same.
STATUS_CHECK_SECONDS = 2


def cluster_unavailable() -> str | None:
    """Why this machine cannot start the test cluster, or None."""
    if os.geteuid() != 0:
        return "starting a SLURM cluster needs root"
    if importlib.util.find_spec("snakemake_executor_plugin_slurm") is None:
        return (
            "the SLURM executor plugin is not installed (pip install -e '.[slurm]'; .ci/run does where this test runs)"
        )
    if not Path("/etc/debian_version").exists() or shutil.which("apt-get") is None:
        return "the test cluster is installed from Debian's packages (slurm-wlm, munge): needs a Debian-like system"
    if Path("/etc/slurm/slurm.conf").exists() and not Path("/etc/slurm/slurm.conf").is_symlink():
        return "this machine has its own SLURM (/etc/slurm/slurm.conf); the test does not start a second one"
    return None


@pytest.fixture(scope="module")
def slurm_cluster(repo_root, tmp_path_factory):
    """A running one-node cluster; yields the environment that reaches it."""
    reason = cluster_unavailable()
    if reason:
        pytest.skip(f"real SLURM cluster test skipped: {reason}")
    state = tmp_path_factory.mktemp("slurm")
    script = repo_root / ".ci" / "slurm-cluster.sh"
    started = subprocess.run(["bash", script, "start", state], capture_output=True, text=True, timeout=900)
    assert started.returncode == 0, started.stderr[-3000:]
    try:
        yield dict(os.environ, SLURM_CONF=str(state / "slurm.conf"))
    finally:
        subprocess.run(["bash", script, "stop", state], capture_output=True, text=True, timeout=120)


def start(copy: Path, env: dict, *args: str) -> tuple[subprocess.Popen, float]:
    """Start one Snakemake call in ``copy`` (its own sources and numba cache), its output to ``copy/snakemake.log``."""
    env = dict(env, PYTHONPATH=str(copy / "src"))
    with open(copy / "snakemake.log", "w") as log:
        proc = subprocess.Popen(
            ["snakemake", "--configfile", "config/quick.yaml", *args],
            cwd=copy,
            env=env,
            stdout=log,
            stderr=subprocess.STDOUT,
            text=True,
        )
    return proc, time.perf_counter()


def finish(copy: Path, started: tuple[subprocess.Popen, float]) -> tuple[float, str]:
    """Wall seconds and output of the call :func:`start` began in ``copy``, which must succeed."""
    proc, start_time = started
    proc.wait(timeout=RUN_SECONDS)
    output = (copy / "snakemake.log").read_text()
    assert proc.returncode == 0, output[-5000:]
    return time.perf_counter() - start_time, output


def compared_files(results: Path) -> list[str]:
    names = ["ledger.csv", "ledger.md", "statements.csv", "statements.md", "findings.md"]
    return names + sorted(f"claims/{p.name}" for p in (results / "claims").glob("*.json"))


#: The test whose run :func:`second_run` takes where it runs in this session.
CLUSTER_TEST = "test_quick_config_on_a_real_cluster_matches_the_local_run"


@pytest.fixture(scope="module")
def cluster_run(repo_root, tmp_path_factory, slurm_cluster, request) -> tuple[Path, str]:
    """The quick config through profiles/slurm on the cluster, in a temporary copy with the session's compiled kernels
    (:func:`compiled_kernels`): the copy and Snakemake's output."""
    kernels = request.getfixturevalue("compiled_kernels")
    cluster = copy_repo(repo_root, tmp_path_factory.mktemp("cluster-run") / "cluster", kernels=kernels)
    started = start(
        cluster,
        slurm_cluster,
        "--profile",
        "profiles/slurm",
        "--default-resources",
        "slurm_partition=debug",
        "--slurm-init-seconds-before-status-checks",
        str(STATUS_CHECK_SECONDS),
    )
    try:  # the local run is asked for only now: made meanwhile, while the cluster run mostly waits for the scheduler
        request.getfixturevalue("quick_run")
        cluster_seconds, output = finish(cluster, started)
    finally:  # a failed local run, or a timeout, leaves no Snakemake behind
        if started[0].poll() is None:
            started[0].kill()
            started[0].wait()
    print(f"quick config: {cluster_seconds:.0f} s through profiles/slurm")
    return cluster, output


@pytest.mark.slurm
def test_quick_config_on_a_real_cluster_matches_the_local_run(repo_root, cluster_run, quick_run):
    cluster, output = cluster_run
    config = yaml.safe_load((repo_root / "config" / "quick.yaml").read_text())
    results = config["results_dir"]  # the quick config writes its own results directory
    files = compared_files(quick_run / results)
    assert len(files) > 5
    different = [
        name for name in files if (quick_run / results / name).read_bytes() != (cluster / results / name).read_bytes()
    ]
    assert not different, f"the cluster run differs from the local run in {different}"
    # every job of the cluster rules went through sbatch (the plugin deletes the logs of jobs that succeed,
    # so count its submission lines): one kernels job per group, one run job per shard; and no other job did
    shards = sum(len(config_shards(config, c)) for c in claim_ids())
    submitted = Counter(re.findall(r"slurm_logs/(?:rule|group)_(\w+)/", output))
    assert submitted == {"kernels": len(KERNEL_GROUPS), "run": shards}, submitted
    # the jobs that run where Snakemake runs are forked from its job server; the cluster's jobs, which inherit the
    # server's address and reach it on this one node, are declined and run in their allocations
    logs = cluster / config["logs_dir"]
    cluster_logs = [*logs.glob("kernels/*.log"), *logs.glob("runs/*/*.log")]
    assert len(cluster_logs) == len(KERNEL_GROUPS) + shards
    assert not [p.name for p in cluster_logs if USAGE_PREFIX in p.read_text()]
    assert any("the job server declined this job (a job of the cluster's" in p.read_text() for p in cluster_logs)
    assembly_logs = list(logs.glob("assemble/*.log"))
    assert len(assembly_logs) == len(claim_ids())
    assert all(USAGE_PREFIX in p.read_text() for p in assembly_logs)


@pytest.fixture(scope="module")
def second_run(repo_root, tmp_path_factory, request) -> Path:
    """A second complete run of the quick config: the cluster's (:func:`cluster_run`) where :data:`CLUSTER_TEST` runs
    in this session and the cluster can start here, else a local one in a temporary copy (kernels compiled
    beforehand, as the session's run's are)."""
    if cluster_unavailable() is None and any(item.name == CLUSTER_TEST for item in request.session.items):
        return request.getfixturevalue("cluster_run")[0]
    kernels = request.getfixturevalue("compiled_kernels")
    second = copy_repo(repo_root, tmp_path_factory.mktemp("again") / "repo", kernels=kernels)
    snakemake(second)
    return second


def test_two_runs_are_byte_identical(second_run, quick_run):
    first_digests, second_digests = digests(quick_run), digests(second_run)
    assert first_digests.keys() == second_digests.keys()
    differing = [k for k in first_digests if first_digests[k] != second_digests[k]]
    assert not differing, differing


@pytest.mark.slurm
def test_a_second_cluster_is_refused_and_leaves_the_first_alone(slurm_cluster, repo_root, tmp_path):
    """Two test runs on one machine would share /etc/slurm/slurm.conf and the ports: the second start is refused
    before it touches anything, and its stop leaves the running cluster's link in place."""
    script, other = repo_root / ".ci" / "slurm-cluster.sh", tmp_path / "second"
    other.mkdir()
    started = subprocess.run(["bash", script, "start", other], capture_output=True, text=True, timeout=120)
    assert started.returncode == 1 and "another test cluster is running" in started.stderr, started.stderr
    subprocess.run(["bash", script, "stop", other], capture_output=True, text=True, timeout=120, check=True)
    assert os.readlink("/etc/slurm/slurm.conf") == slurm_cluster["SLURM_CONF"]
    info = subprocess.run(["sinfo", "-h", "-o", "%P %a"], env=slurm_cluster, capture_output=True, text=True, timeout=60)
    assert info.returncode == 0 and "debug" in info.stdout, info.stderr
