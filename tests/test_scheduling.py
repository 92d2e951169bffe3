"""The Snakefile's ``onstart`` drops Snakemake's default job-rate limiter on local runs, and only there; and the
Snakefile keeps what Snakemake's process has loaded out of the garbage collector's later passes."""

from __future__ import annotations

import gc
import subprocess
import sys
import textwrap
from pathlib import Path
from types import SimpleNamespace

import pytest

from sparseact.runtime.accel.scheduling import DEFAULT_LIMIT, drop_default_local_rate_limit, freeze_loaded_objects

SRC = Path(__file__).resolve().parents[1] / "src"


def fake_workflow(*, local: bool, limit: tuple[int, float] = DEFAULT_LIMIT, limiter: object | None = "limiter"):
    settings = SimpleNamespace(max_jobs_per_timespan=SimpleNamespace(max_jobs=limit[0], timespan=limit[1]))
    return SimpleNamespace(
        local_exec=local, scheduling_settings=settings, scheduler=SimpleNamespace(job_rate_limiter=limiter)
    )


def test_local_run_at_the_default_limit_loses_its_limiter():
    workflow = fake_workflow(local=True)
    assert drop_default_local_rate_limit(workflow) is True
    assert workflow.scheduler.job_rate_limiter is None


@pytest.mark.parametrize(
    "workflow",
    [
        fake_workflow(local=False),
        fake_workflow(local=True, limit=(5, 1.0)),
        fake_workflow(local=True, limit=(100, 60.0)),
    ],
    ids=["cluster", "user-count", "user-timespan"],
)
def test_cluster_runs_and_chosen_limits_keep_theirs(workflow):
    assert drop_default_local_rate_limit(workflow) is False
    assert workflow.scheduler.job_rate_limiter == "limiter"


def test_no_limiter_no_change():
    assert drop_default_local_rate_limit(fake_workflow(local=True, limiter=None)) is False
    assert drop_default_local_rate_limit(SimpleNamespace(local_exec=True)) is False


@pytest.mark.parametrize(("extra", "dropped"), [([], True), (["--max-jobs-per-timespan", "5/1s"], False)])
def test_real_snakemake_run(tmp_path, extra, dropped):
    """Against the installed Snakemake: the hook sees its scheduler, and the run completes either way."""
    (tmp_path / "Snakefile").write_text(
        textwrap.dedent("""
        from sparseact.runtime.accel.scheduling import drop_default_local_rate_limit
        onstart:
            print("dropped:", drop_default_local_rate_limit(workflow))
        rule all:
            input: expand("out/{i}.txt", i=range(4))
        rule one:
            output: "out/{i}.txt"
            shell: "echo {wildcards.i} > {output}"
        """)
    )
    proc = subprocess.run(
        [sys.executable, "-m", "snakemake", "--cores", "2", *extra],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        env={"PYTHONPATH": str(SRC), "PATH": "/usr/bin:/bin", "HOME": str(tmp_path)},
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert f"dropped: {dropped}" in proc.stdout + proc.stderr
    assert sorted(p.name for p in (tmp_path / "out").iterdir()) == [f"{i}.txt" for i in range(4)]


def test_every_object_alive_when_frozen_is_out_of_the_collected_generations():
    alive = [[index] for index in range(1000)]  # lists: objects the collector tracks
    freeze_loaded_objects()
    assert gc.get_freeze_count() >= len(alive)
    collected = {id(obj) for obj in gc.get_objects()}  # the collected generations only, not the permanent one
    assert not collected & {id(item) for item in alive}
    assert gc.isenabled()  # the collector still runs for what comes after


def test_the_snakefile_freezes_before_its_rules_are_read(repo_root):
    """The call is the Snakefile's first statement after its imports (before the config, the rules and the DAG)."""
    lines = (repo_root / "Snakefile").read_text().splitlines()
    statements = [line for line in lines if line and not line.startswith(("#", " ", ")"))]
    first_after_imports = next(line for line in statements if not line.startswith(("from ", "import ")))
    assert first_after_imports == 'min_version("9.0")'
    assert statements[statements.index(first_after_imports) + 1] == "freeze_loaded_objects()"
