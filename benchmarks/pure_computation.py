"""The workflow's pure computation: every claim's stages in process, over the machine's cores, no start-up.

Usage::

    python benchmarks/pure_computation.py --config config/config.yaml --out /tmp/pure --workers 2

Runs what the workflow's *data*, *runs* and *assemble* jobs compute — ``generate``, ``run`` and ``assemble``
of every shard and claim of the config, through :func:`sparseact.claims.stage_shard` and
:func:`sparseact.claims.assemble_claim` — in ``--workers`` forked processes that imported every claim
before the clock starts (so no interpreter start-up, import, notebook, kernel or Snakemake time is
counted). Shards go longest first by the cost table :mod:`sparseact.runtime.costs` ships; each claim is
assembled once its last shard is done. Prints the wall seconds, the form
:mod:`bench_workflow` reads: ``pure computation: <seconds> s``. With numba's cache filled (by the
workflow's kernels job, or the full run) no kernel is compiled; with an empty one each worker compiles the
kernels it calls, on the clock (:mod:`bench_workflow` measures both).
"""

from __future__ import annotations

import argparse
import importlib
import multiprocessing
import time
from pathlib import Path

import yaml
from _common import under_job_environment

from sparseact.claims import (
    assemble_claim,
    claim_ids,
    config_shards,
    get_claim,
    replicate_count,
    stage_shard,
    staged_paths,
)
from sparseact.runtime.costs import cost_table


def _shard_job(job: tuple) -> tuple[str, str]:
    claim, shard, points, seed, replicates, out = job
    stage_shard(claim, shard, points, seed, replicates, out)
    return claim, shard


def _assemble_job(job: tuple) -> str:
    claim, block, run_paths, replicates = job
    assemble_claim(claim, block, run_paths, replicates)
    return claim


def pure_computation(config: dict, out: Path, workers: int) -> float:
    """Wall seconds of every shard's data and runs stages and every claim's assembly on ``workers`` processes."""
    seed = int(config["seed"])
    costs = cost_table()["claims"]
    shard_jobs, run_paths, pending, replicates = [], {}, {}, {}
    for claim_id in claim_ids():
        claim, block = get_claim(claim_id), config["claims"][claim_id]
        replicates[claim_id] = replicate_count(claim_id, config["replicates"])
        grid, shards = claim.points(block), config_shards(config, claim_id)  # the workflow's shards
        per_point = costs.get(claim_id, {}).get("cpu_s_per_point", 1.0)
        for shard, names in shards.items():
            points = {name: grid[name] for name in names}
            shard_jobs.append(
                (
                    per_point * len(names) * replicates[claim_id],
                    (claim_id, shard, points, seed, replicates[claim_id], out),
                )
            )
        run_paths[claim_id] = [str(staged_paths(out, claim_id, shard)[1]) for shard in shards]
        pending[claim_id] = len(shards)
    shard_jobs.sort(key=lambda job: -job[0])
    context = multiprocessing.get_context("fork")
    start = time.perf_counter()
    with context.Pool(workers) as pool:
        assemblies = []
        for claim_id, _ in pool.imap_unordered(_shard_job, [job for _, job in shard_jobs]):
            pending[claim_id] -= 1
            if pending[claim_id] == 0:
                block = config["claims"][claim_id]
                assemblies.append(
                    pool.apply_async(_assemble_job, ((claim_id, block, run_paths[claim_id], replicates[claim_id]),))
                )
        for result in assemblies:
            result.get()
    return time.perf_counter() - start


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--config", default="config/config.yaml")
    parser.add_argument("--out", default="/tmp/pure-computation")
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args(argv)
    if argv is None:  # from the command line: time what the jobs would
        under_job_environment()
    if args.workers < 1:
        parser.error("--workers must be at least 1")
    config = yaml.safe_load(Path(args.config).read_text(encoding="utf-8"))
    for claim_id in claim_ids():  # imports outside the clock, shared by the forked workers
        get_claim(claim_id)
        importlib.import_module(f"sparseact.claims.{claim_id}.compute")
        importlib.import_module(f"sparseact.claims.{claim_id}.verdicts")
    seconds = pure_computation(config, Path(args.out), args.workers)
    print(f"pure computation: {seconds:.1f} s ({args.workers} workers, {args.config})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
