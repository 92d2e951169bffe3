"""The full run's jobs replayed in process: every job's own command, over the machine's cores, no start-up.

Usage::

    python benchmarks/job_replay.py --config config/config.yaml --out /tmp/replay

Asks Snakemake (``snakemake -n -p -F``, outside the clock) for every job of the config and its shell command, then
runs those commands in ``--workers`` processes at a time, each job in a fresh fork of a process that imported the
library, papermill, nbclient, ipykernel, nbconvert and matplotlib and loaded numba's kernels before the clock
starts. Each ``python -m sparseact.cli ...`` command is called as :func:`sparseact.cli.main` in its fork, its
standard output and error going to the job's log, in the working folder ``--out`` (a copy of the repository's
sources): the jobs' own work, with none of the interpreter's start-up, the imports or Snakemake's scheduling. The
order is the DAG's: each shard's data job and then its run job (the longest shards first, by the cost table
:mod:`sparseact.runtime.costs` ships), a claim's assembly once its last shard is done, then the ledger, the claim
pages and the note's PDF, the report, its screenshots and the copies of the README's figures. The kernels job is
left out: it compiles numba's kernels, which the full run counts as overhead (:mod:`bench_workflow` replays with the
kernels compiled). The report reads the jobs' benchmark files, which Snakemake writes and a replay does not: stand-ins of
zero seconds are written first, outside the clock.

This is what the full run computes, counted the way its jobs count it: where :mod:`pure_computation` calls the
claims' stage functions (data, runs, assembly verdicts), the replay also draws the figures, writes the tables and
executes the notebooks, and runs the ledger, the pages, the note's PDF and the report. Prints
``replayed jobs: <seconds> s``.
"""

from __future__ import annotations

import argparse
import contextlib
import importlib
import multiprocessing
import os
import re
import shlex
import shutil
import subprocess
import sys
import time
from pathlib import Path

from _common import under_job_environment

from sparseact.claims.shards import read_shard_manifest
from sparseact.cli import main as sparseact_main
from sparseact.kernels import compile_kernels
from sparseact.runtime.costs import cost_table

#: What the jobs read from the checkout (the replay's working folder is a copy; src/ is the one on PYTHONPATH).
COPIED = ("Snakefile", "config", "profiles", "workflow", "notebooks", "environment.yml", "pyproject.toml")
#: Modules a job imports, loaded before the clock so that the forked workers share them.
PRELOADED = ("sparseact.cli", "papermill", "nbclient", "nbformat", "nbconvert", "ipykernel.inprocess", "matplotlib")
#: The first line of a job's block in ``snakemake -n -p``: its rule.
JOB = re.compile(r"^(?:local)?(?:rule|checkpoint) (\w+):$")
#: A job's command: ``python -m sparseact.cli ARGS``, several joined by ``&&`` inside parentheses, and the log.
REDIRECT = re.compile(r"^\(?(.*?)\)? > (\S+) 2>&1$")


def planned_jobs(work: Path, configfile: str) -> list[dict]:
    """Every job of ``configfile``: ``{"rule", "wildcards", "commands", "log"}`` in the dry run's order."""
    plan = subprocess.run(
        ["snakemake", "-n", "-p", "-F", "--cores", "2", "--configfile", configfile],
        cwd=work,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    blocks, jobs = [], []
    for line in plan.splitlines():
        header = JOB.match(line)
        if header:
            blocks.append({"rule": header.group(1), "wildcards": {}, "shell": None})
        elif blocks and line.startswith("    wildcards: "):
            blocks[-1]["wildcards"] = dict(part.split("=", 1) for part in line.split(": ", 1)[1].split(", "))
        elif blocks and line.startswith("Shell command: "):
            blocks[-1]["shell"] = line.split(": ", 1)[1]
    for block in blocks:
        if block["shell"] in (None, "None"):  # rule all: no command (the dry run may print "None")
            continue
        if block["rule"] == "stamp":  # Snakemake's bookkeeping (the full run wrote them), no part of the computation
            continue
        redirect = REDIRECT.match(block["shell"].strip())
        if redirect is None:
            raise SystemExit(f"job_replay.py: a {block['rule']} job's command has no log redirect: {block['shell']}")
        commands = [shlex.split(part) for part in redirect.group(1).split(" && ")]
        jobs.append(
            {"rule": block["rule"], "wildcards": block["wildcards"], "commands": commands, "log": redirect.group(2)}
        )
    return jobs


#: A benchmark file as Snakemake writes it, of a job that took no time (the report's timings read them).
BENCHMARK_STAND_IN = (
    "s\th:m:s\tmax_rss\tmax_vms\tmax_uss\tmax_pss\tio_in\tio_out\tmean_load\tcpu_time\n"
    "0.00\t0:00:00\t0.00\t0.00\t0.00\t0.00\t0.00\t0.00\t0.00\t0.00\n"
)


def write_benchmark_stand_ins(jobs: list[dict]) -> None:
    """Write a zero-second stand-in for every benchmark file the report's command reads."""
    for job in jobs:
        for command in job["commands"]:
            if "--benchmarks" not in command:
                continue
            for name in command[command.index("--benchmarks") + 1 :]:
                if name.startswith("--"):
                    break
                Path(name).parent.mkdir(parents=True, exist_ok=True)
                Path(name).write_text(BENCHMARK_STAND_IN)


def _run_job(job: dict) -> str:
    """Run ``job``'s commands in this process, their output in its log; raise when one fails."""
    log = Path(job["log"])
    log.parent.mkdir(parents=True, exist_ok=True)
    with (
        open(log, "w", encoding="utf-8") as handle,
        contextlib.redirect_stdout(handle),
        contextlib.redirect_stderr(handle),
    ):
        for command in job["commands"]:
            if command[:3] == ["python", "-m", "sparseact.cli"]:
                code = sparseact_main(command[3:])
            elif command[0] == "cp":  # docs_figure: cp -v SOURCE TARGET
                Path(command[-1]).parent.mkdir(parents=True, exist_ok=True)
                shutil.copy(command[-2], command[-1])
                code = 0
            else:
                raise SystemExit(f"job_replay.py: no in-process form for {command[:4]}")
            if code:
                raise RuntimeError(f"{job['rule']} {job['wildcards']} exited with {code}; see {log}")
    return job["rule"]


def _claim_page_slice(job: dict) -> dict:
    """A claim page's command with its slice: the dry run, made before the ledger (a checkpoint), names a stand-in."""
    claim = job["wildcards"]["claim"]
    for command in job["commands"]:
        command[command.index("--slice") + 1] = f"{_results_dir(job)}/slices/{claim}.json"
    return job


def _results_dir(job: dict) -> str:
    command = job["commands"][0]
    return str(Path(command[command.index("--out") + 1]).parent.parent)


def replay(jobs: list[dict], workers: int) -> float:
    """Wall seconds of ``jobs`` (but the kernels job) run in DAG order on ``workers`` forked processes."""
    by_rule: dict[str, list[dict]] = {}
    for job in jobs:
        by_rule.setdefault(job["rule"], []).append(job)
    costs = cost_table()["claims"]
    shards = {}
    for job in by_rule.get("data", []):
        shards[(job["wildcards"]["claim"], job["wildcards"]["shard"])] = [job]
    for job in by_rule.get("run", []):
        shards[(job["wildcards"]["claim"], job["wildcards"]["shard"])].append(job)
    pending = {}
    for claim, _ in shards:
        pending[claim] = pending.get(claim, 0) + 1
    assemble = {job["wildcards"]["claim"]: job for job in by_rule.get("assemble", [])}
    order = sorted(shards, key=lambda key: -_shard_cost(shards[key][0], costs))
    context = multiprocessing.get_context("fork")
    start = time.perf_counter()
    # one fresh fork of this pre-warmed process per job, as the workflow gives every job a process of its own
    with context.Pool(workers, maxtasksperchild=1) as pool:
        for job in by_rule.get("run_template", []):
            pool.apply(_run_job, (job,))
        assemblies = []
        for claim, _ in pool.imap_unordered(_run_shard, [(key, shards[key]) for key in order]):
            pending[claim] -= 1
            if pending[claim] == 0:
                assemblies.append(pool.apply_async(_run_job, (assemble[claim],)))
        for result in assemblies:
            result.get()
        for job in by_rule.get("ledger", []):
            pool.apply(_run_job, (job,))
        after = [_claim_page_slice(job) for job in by_rule.get("claim_page", [])] + by_rule.get("erratum_pdf", [])
        pool.map(_run_job, after, chunksize=1)
        tail = ("report", "screenshots", "docs_figure", "site")
        for job in [job for rule in tail for job in by_rule.get(rule, [])]:
            pool.apply(_run_job, (job,))
    return time.perf_counter() - start


def shard_manifest_path(data_job: dict) -> str:
    """The shard manifest a data job's command reads."""
    command = data_job["commands"][0]
    return command[command.index("generate") + 1]


def _shard_cost(data_job: dict, costs: dict) -> float:
    """The shard's expected CPU time, as :mod:`pure_computation` orders shards: the claim's seconds per point
    times its points and replicates (from the shard's manifest)."""
    shard = read_shard_manifest(shard_manifest_path(data_job))
    per_point = costs.get(data_job["wildcards"]["claim"], {}).get("cpu_s_per_point", 1.0)
    return per_point * len(shard["points"]) * shard["replicates"]


def _run_shard(item: tuple) -> tuple[str, str]:
    (claim, shard), jobs = item
    for job in jobs:
        _run_job(job)
    return claim, shard


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--config", default="config/config.yaml", help="config file, relative to the repository")
    parser.add_argument("--repo", default=".", help="the repository whose jobs are replayed (its sources are copied)")
    parser.add_argument("--out", required=True, help="working folder of the replay (created; must not exist)")
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args(argv)
    if argv is None:  # from the command line: time what the jobs would
        under_job_environment()
    if args.workers < 1:
        parser.error("--workers must be at least 1")
    repo, out = Path(args.repo).resolve(), Path(args.out)
    if out.exists():
        parser.error(f"--out {out} exists")
    out.mkdir(parents=True)
    for name in COPIED:
        (shutil.copytree if (repo / name).is_dir() else shutil.copy2)(repo / name, out / name)
    jobs = planned_jobs(out, args.config)
    manifests = [shard_manifest_path(job) for job in jobs if job["rule"] == "data"]
    # the shard manifests (written in Snakemake's process, no command to replay) and the code stamps they name
    subprocess.run(["snakemake", *manifests, "--cores", "2", "-q", "--configfile", args.config], cwd=out, check=True)
    os.chdir(out)
    write_benchmark_stand_ins(jobs)
    for name in PRELOADED:  # imports outside the clock, shared by the forked workers
        importlib.import_module(name)
    compile_kernels()  # numba's kernels loaded from its cache (compiled first when it is empty), before the clock
    from sparseact.claims import claim_ids, get_claim

    for claim_id in claim_ids():
        get_claim(claim_id)
        importlib.import_module(f"sparseact.claims.{claim_id}.compute")
        importlib.import_module(f"sparseact.claims.{claim_id}.verdicts")
    seconds = replay([job for job in jobs if job["rule"] not in ("kernels", "all")], args.workers)
    print(f"replayed jobs: {seconds:.1f} s ({len(jobs)} jobs, {args.workers} workers, {args.config})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
