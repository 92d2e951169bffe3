"""The benchmark scripts that benchmarks/README.md cites still run.

Each answers ``--help`` (it imports what it uses), and ``claim_stages.py`` stages and assembles one claim of the
quick config. ``claim_stages.py`` had called the registry's ``Claim.check``, renamed ``Claim.validate`` in 13b8940,
and failed from then on with no test to say so.
"""

from __future__ import annotations

import runpy
import sys

import pytest

SCRIPTS = [
    "bench_complexity.py",
    "bench_exact_analysis.py",
    "bench_fwht.py",
    "bench_jobserver.py",
    "bench_low_degree.py",
    "bench_workflow.py",
    "claim_stages.py",
    "job_replay.py",
    "pure_computation.py",
]


@pytest.fixture
def benchmarks(repo_root, monkeypatch):
    """The benchmarks folder, importable as the scripts expect when run from it (``_common``)."""
    folder = repo_root / "benchmarks"
    monkeypatch.syspath_prepend(str(folder))
    return folder


def test_every_script_is_listed(benchmarks):
    assert sorted(p.name for p in benchmarks.glob("*.py") if not p.name.startswith("_")) == SCRIPTS


@pytest.mark.parametrize("script", SCRIPTS)
def test_the_script_answers_help(benchmarks, script, monkeypatch, capsys):
    monkeypatch.setattr(sys, "argv", [script, "--help"])
    with pytest.raises(SystemExit) as exit_info:
        runpy.run_path(str(benchmarks / script), run_name="__main__")
    assert exit_info.value.code == 0
    assert "usage:" in capsys.readouterr().out


def test_claim_stages_stages_and_assembles_a_claim(benchmarks, repo_root, tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(repo_root)
    claim_stages = runpy.run_path(str(benchmarks / "claim_stages.py"))
    assert claim_stages["main"](["lemma6", "--config", "config/quick.yaml", "--out", str(tmp_path)]) == 0
    printed = capsys.readouterr().out
    assert "assembly" in printed and "lemma6/" in printed, printed
    assert list((tmp_path / "runs" / "lemma6").glob("*.json"))


#: A script beside the benchmarks that calls :func:`_common.under_job_environment` and prints what it then runs under.
_UNDER_JOB_ENVIRONMENT = """import json, os, sys
sys.path.insert(0, {folder!r})
from _common import under_job_environment
under_job_environment()
print(json.dumps(dict(os.environ)))
"""


def test_a_timing_script_run_by_hand_starts_again_under_the_jobs_environment(benchmarks, tmp_path):
    """Run without the jobs' thread, malloc and CPU-path variables, a timing script starts again, once, with them
    added (a value the user set is kept); run under them, it goes on at once."""
    import json
    import os
    import subprocess

    from sparseact.runtime.provenance import job_environment

    script = tmp_path / "timed.py"
    script.write_text(_UNDER_JOB_ENVIRONMENT.format(folder=str(benchmarks)))
    wanted = job_environment()
    bare = {k: v for k, v in os.environ.items() if k not in wanted}

    def run(env):
        proc = subprocess.run([sys.executable, str(script)], env=env, capture_output=True, text=True, check=True)
        return json.loads(proc.stdout), proc.stderr

    seen, said = run({**bare, "OMP_NUM_THREADS": "2"})
    assert {k: seen.get(k) for k in wanted} == {**wanted, "OMP_NUM_THREADS": "2"}
    assert said.count("starting again with the jobs'") == 1 and "OMP_NUM_THREADS" not in said, said
    seen, said = run({**bare, **wanted})
    assert {k: seen.get(k) for k in wanted} == wanted and not said, said
