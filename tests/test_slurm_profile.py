"""The opt-in SLURM profile builds the same DAG with per-rule resources (dry run: no sbatch needed)."""

import pytest
import warm_snakemake
import yaml
from test_workflow import copy_repo, environment

from sparseact.claims import claim_ids, config_shards
from sparseact.runtime.costs import slurm_resources

pytestmark = pytest.mark.workflow


def test_slurm_profile_dry_run(repo_root, tmp_path):
    pytest.importorskip(
        "snakemake_executor_plugin_slurm", reason="the SLURM executor plugin: pip install -e '.[slurm]'"
    )
    # in a fresh copy: a dry run plans only missing outputs, so in the checkout its count would depend on what is there
    work = copy_repo(repo_root, tmp_path / "repo")
    # the command line docs/slurm.md gives, less the account and partition, in a process that has imported Snakemake
    argv = ["--profile", "profiles/slurm", "-n", "--configfile", "config/quick.yaml"]
    code, out = warm_snakemake.run(work, argv, environment(work), timeout=300)
    assert code == 0, out[-3000:]
    run = slurm_resources()["run"]
    assert f"mem_mb={run['mem_mb']}" in out and f"runtime={run['runtime']}" in out
    assert "This was a dry-run" in out
    # one runs job per shard of every claim, so the shards spread over nodes
    config = yaml.safe_load((repo_root / "config" / "quick.yaml").read_text())
    shards = sum(len(config_shards(config, c)) for c in claim_ids())
    assert out.count("rule run:") == shards


def test_slurm_profile_is_opt_in(repo_root):
    default = yaml.safe_load((repo_root / "profiles" / "default" / "config.yaml").read_text())
    slurm = yaml.safe_load((repo_root / "profiles" / "slurm" / "config.yaml").read_text())
    assert "executor" not in default
    assert slurm["executor"] == "slurm"
    for rule, resources in slurm["set-resources"].items():
        assert {"mem_mb", "runtime"} <= set(resources), rule


def test_slurm_requests_are_the_measured_costs_with_a_margin(repo_root):
    """Every rule that runs on the cluster has its requests in set-resources (so that
    --default-resources slurm_account=... slurm_partition=... on the command line discards nothing), and
    they are sparseact.runtime.costs.slurm_resources() of the shipped cost table."""
    slurm = yaml.safe_load((repo_root / "profiles" / "slurm" / "config.yaml").read_text())
    assert slurm["set-resources"] == slurm_resources()
    snakefile = (repo_root / "Snakefile").read_text()
    local = set(snakefile.split("localrules:")[1].split("rule all:")[0].replace(",", " ").split())
    rules = {
        line.split()[1].rstrip(":")
        for path in (repo_root / "workflow" / "rules").glob("*.smk")
        for line in path.read_text().splitlines()
        if line.startswith("rule ")
    }
    assert rules - local == set(slurm["set-resources"])
    assert slurm["slurm-status-command"] == "squeue"
