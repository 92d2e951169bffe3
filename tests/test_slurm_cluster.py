"""The quick config through profiles/slurm on a real one-node SLURM cluster gives the local run's results.

The cluster is started on this machine by .ci/slurm-cluster.sh (Debian's slurm-wlm and munge, one
node, partition ``debug``, no accounting database) and stopped by PID afterwards, so the test needs
root and apt-get; elsewhere it skips and says why. The workflow runs twice, each in its own
temporary copy of the repository: locally (``snakemake --cores 2``) and through the profile with
the partition added on the command line exactly as docs/slurm.md says; the ledger, statements,
findings and every claim's result file must be byte-identical.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import time
from pathlib import Path

import pytest
import yaml

from sparseact.claims import claim_ids, get_claim

pytestmark = [pytest.mark.workflow, pytest.mark.slurm]

#: What a run needs from the checkout (results, logs and figures are made in the copy).
COPIED = ("Snakefile", "config", "profiles", "workflow", "notebooks", "src", "environment.yml", "pyproject.toml")
#: Longest either run may take (the quick config: about 2 minutes locally and 6 on the cluster, idle).
RUN_SECONDS = 3600


def cluster_unavailable() -> str | None:
    """Why this machine cannot start the test cluster, or None."""
    if os.geteuid() != 0:
        return "starting a SLURM cluster needs root"
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


def workflow_copy(repo_root: Path, where: Path) -> Path:
    where.mkdir()
    for name in COPIED:
        source = repo_root / name
        if source.is_dir():
            shutil.copytree(source, where / name, ignore=shutil.ignore_patterns("__pycache__", "*.egg-info"))
        else:
            shutil.copy2(source, where / name)
    return where


def run(copy: Path, env: dict, *args: str) -> tuple[float, str]:
    """Wall seconds and output of one Snakemake call in ``copy`` (its own sources, numba cache), which must succeed."""
    env = dict(env, PYTHONPATH=str(copy / "src"), NUMBA_CACHE_DIR=str(copy / ".numba"))
    start = time.perf_counter()
    proc = subprocess.run(["snakemake", "--configfile", "config/quick.yaml", *args], cwd=copy, env=env,
                          capture_output=True, text=True, timeout=RUN_SECONDS)
    assert proc.returncode == 0, (proc.stdout + proc.stderr)[-5000:]
    return time.perf_counter() - start, proc.stdout + proc.stderr


def compared_files(results: Path) -> list[str]:
    names = ["ledger.csv", "ledger.md", "statements.csv", "statements.md", "findings.md"]
    return names + sorted(f"claims/{p.name}" for p in (results / "claims").glob("*.json"))


def test_quick_config_on_a_real_cluster_matches_the_local_run(repo_root, tmp_path, slurm_cluster):
    local = workflow_copy(repo_root, tmp_path / "local")
    cluster = workflow_copy(repo_root, tmp_path / "cluster")
    local_seconds, _ = run(local, dict(os.environ), "--cores", "2")
    cluster_seconds, output = run(cluster, slurm_cluster, "--profile", "profiles/slurm",
                                  "--default-resources", "slurm_partition=debug")
    print(f"quick config: {local_seconds:.0f} s locally, {cluster_seconds:.0f} s through profiles/slurm")
    config = yaml.safe_load((repo_root / "config" / "quick.yaml").read_text())
    results = config["results_dir"]  # the quick config writes its own results directory
    files = compared_files(local / results)
    assert len(files) > 5
    different = [name for name in files
                 if (local / results / name).read_bytes() != (cluster / results / name).read_bytes()]
    assert not different, f"the cluster run differs from the local run in {different}"
    # every job of the cluster rules went through sbatch (the plugin deletes the logs of jobs that succeed,
    # so count its submission lines): one kernels job, one run job per shard, one assemble job per claim
    shards = sum(len(get_claim(c).shards(config["claims"][c])) for c in claim_ids())
    for rule, jobs in (("kernels", 1), ("run", shards), ("assemble", len(claim_ids()))):
        assert output.count(f"slurm_logs/rule_{rule}/") == jobs, rule


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
