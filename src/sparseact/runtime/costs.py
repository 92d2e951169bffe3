"""What a config costs: grid points, CPU time, disk and memory, from the measured per-job costs.

The workflow writes one benchmark file per job (``results/benchmarks/<stage>/...tsv``, the
``benchmark:`` of each rule). :func:`measure_costs` condenses a complete run's benchmark files
and outputs into a small table per claim (CPU seconds and bytes per grid point, the assembly's
CPU seconds, the largest resident memory and wall time of any job of each stage); the table of
the full config's run ships as ``sparseact/data/job_costs.json`` and is rewritten by::

    sparseact cost-table results config/config.yaml --logs logs --out src/sparseact/data/job_costs.json

(after ``snakemake --cores 2 --configfile config/config.yaml --config job_server=False`` in a fresh copy, so that
every job ran in its own process, as a cluster job does, and left its benchmark).

The claims are given, never imported (the runtime lies below the claims layer): each function that prices a grid
takes ``claims``, claim id -> claim (:func:`sparseact.claims.registry`; what is read of a claim is its
``points(block)``, ``shards(block, single)`` and ``work(point)``). A config's shards are the workflow's: one shard
for each claim its ``single_shard_claims`` lists (:func:`sparseact.runtime.sharding.single_shard`), so that the
estimate and the runs jobs' priorities price the jobs the workflow runs.

:func:`estimate_cost` scales that table to any config, shard by shard. Each claim's grid module says what a
point's CPU time grows with (``work(point) -> (kind, units)``, :meth:`sparseact.claims.Claim.work`: ``2^n`` where
the cube is enumerated, samples times features for a fit, ...). A job costs a fixed start-up (``job_overhead_s``:
the cheapest measured data job plus the cheapest runs job, the Python, kernel and notebook start that every shard
pays) plus, for each of its points, the point's units times its kind's measured CPU seconds per unit
(``cpu_s_per_unit``, fitted by non-negative least squares on the claim's shards, in relative error, after their
start-ups). Disk grows with the number of points. :func:`check_cost` applies two rules, both lifted by
``accept_cost_over_limit: true``:

* the whole config (the sum of its jobs, assemblies and the kernels' compilation) is refused above
  :data:`sparseact._validation.CONFIG_CPU_HOURS_LIMIT` CPU hours;
* one job (a shard: the points one runs job computes; a job cannot be split across cores, nor resumed part way) is
  refused above :data:`sparseact._validation.JOB_CPU_HOURS_LIMIT` CPU hours, naming its claim's config key.
  (Before the per-point units, two configs priced at about 0.05 CPU hours in total had single points still
  running after 4 minutes: their points were far larger than the full config's mean point.)

How good the model is, is measured, not assumed: the table keeps each shard's measured CPU seconds
(``shard_cpu_s``), and tests/test_config_guards.py holds the estimate of every shard of the full config within
:data:`SHARD_ESTIMATE_FACTOR` of its measured CPU time, and within :data:`LARGE_SHARD_ESTIMATE_FACTOR` for the shards
above :data:`LARGE_SHARD_CPU_S`. (The model it replaced, each point at its claim's mean CPU seconds per point scaled
by its units over the mean units of its kind, and no start-up, was off by up to a factor of 30 on the full run's
shards: Theorem 19's conj20 shards, measured at 15 s, were priced at 0.8 s, every kind of a claim costing the
claim's mean point, and the start-up of small shards was not priced at all.)

``sparseact check-config`` also warns, in one line naming the claim's key, when the longest job exceeds the SLURM
profile's runtime request (:func:`job_warning`).

A claim the table has no row for (a new claim, before the next measured run) is priced by :func:`claim_cost_row`'s
fallback, the largest measured figure of each column, with a one-line warning on standard error.
"""

from __future__ import annotations

import csv
import json
import math
import sys
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from importlib.resources import files
from pathlib import Path
from typing import Any

from sparseact._validation import CONFIG_CPU_HOURS_LIMIT, JOB_CPU_HOURS_LIMIT
from sparseact.runtime.accel.usage import usage_from_log
from sparseact.runtime.errors import ConfigError
from sparseact.runtime.sharding import single_shard

#: The measured cost table, as package data of ``sparseact``.
COST_TABLE = "data/job_costs.json"
#: The config key that lets a config above the CPU-time limit run on purpose.
OVERRIDE_KEY = "accept_cost_over_limit"
#: Stages with one job per shard (benchmarks under results/benchmarks/<stage>/<claim>/<shard>.tsv).
SHARD_STAGES = ("data", "runs")
#: Margins of the SLURM profile's requests over the largest measured job of each rule.
MEMORY_MARGIN, RUNTIME_MARGIN = 2.0, 3.0
#: How far a shard's estimate may be from its measured CPU seconds in the full run (either way), for every shard,
#: and for the shards that take more than LARGE_SHARD_CPU_S (tests/test_config_guards.py holds the shipped table to
#: them).
SHARD_ESTIMATE_FACTOR = 3.0
LARGE_SHARD_ESTIMATE_FACTOR = 2.0
LARGE_SHARD_CPU_S = 10.0
#: The SLURM profile's smallest requests (sbatch takes whole minutes; Python alone needs ~200 MB).
MIN_MEM_MB, MIN_RUNTIME_MIN = 500, 5


def job_log(benchmark: str | Path, logs: str | Path) -> Path:
    """The log of the job whose Snakemake benchmark file is ``benchmark``: every rule names both alike,
    ``<results>/benchmarks/<name>.tsv`` and ``<logs>/<name>.log``."""
    parts = Path(benchmark).parts
    if "benchmarks" not in parts:
        raise ValueError(f"{benchmark}: not a benchmark file (no benchmarks/ folder in its path)")
    return Path(logs).joinpath(*parts[len(parts) - parts[::-1].index("benchmarks") :]).with_suffix(".log")


def job_resources(benchmark: str | Path, logs: str | Path | None = None) -> dict[str, float]:
    """Wall seconds, CPU seconds and peak resident memory (MB) of one job, and whether the job server ran it.

    Snakemake's benchmark file times the job's own process. A job the job server ran
    (:mod:`sparseact.runtime.accel.jobserver`) spent its CPU time and memory in a forked child, which its log
    reports (:func:`sparseact.runtime.accel.usage.usage_from_log`): with ``logs`` given, those are added.

    Returns
    -------
    dict
        ``wall_s``, ``cpu_s``, ``max_rss_mb``, and ``in_job_server`` (1.0 or 0.0).
    """
    with open(benchmark, encoding="utf-8") as handle:
        row = next(csv.DictReader(handle, delimiter="\t"))

    def number(key: str) -> float:
        return float(row[key]) if row.get(key, "NA") not in ("", "-", "NA") else 0.0

    resources = {"wall_s": number("s"), "cpu_s": number("cpu_time"), "max_rss_mb": number("max_rss")}
    log = job_log(benchmark, logs) if logs is not None else None
    usage = usage_from_log(log.read_text(encoding="utf-8", errors="replace")) if log and log.is_file() else None
    if usage is not None:
        resources["cpu_s"] += usage[0]
        resources["max_rss_mb"] = max(resources["max_rss_mb"], usage[1])
    return {**resources, "in_job_server": float(usage is not None)}


def _stage_summary(files: list[Path]) -> dict[str, float]:
    rows = [job_resources(f) for f in files]
    return {
        "jobs": len(rows),
        "cpu_s": round(sum(r["cpu_s"] for r in rows), 2),
        "max_wall_s": max(r["wall_s"] for r in rows),
        "max_rss_mb": max(r["max_rss_mb"] for r in rows),
    }


def _bytes(paths) -> int:
    return sum(p.stat().st_size for p in paths if p.is_file())


def measure_costs(results: str | Path, config: dict, claims: Mapping[str, Any], logs: str | Path) -> dict:
    """The cost table of a complete run: ``results`` is its results folder, ``config`` its config, ``claims`` the
    claims it ran (claim id -> claim, :func:`sparseact.claims.registry`), ``logs`` its logs folder.

    The run must have started every job in its own process (``job_server: false``), as a cluster job starts:
    a run whose jobs the job server forked is refused (``ValueError``), since their CPU seconds leave out the
    start-up that :data:`job_overhead_s <measure_costs>` prices.

    Returns
    -------
    dict
        ``claims``: per claim ``points``, ``cpu_s_per_point`` (data and runs jobs; the price of a point of a kind
        the table has no rate for), ``cpu_s_per_unit`` (per work kind, :func:`unit_rates`), ``shard_cpu_s`` (each
        shard's measured data and runs CPU seconds), ``bytes_per_point`` (data, run tables, executed run notebooks),
        ``assemble_cpu_s``;
        ``job_overhead_s``: the start-up every shard pays (the cheapest data job plus the cheapest runs job);
        ``stages``: per rule (``kernels``, ``data``, ``runs``, ``assemble``) the jobs, their
        CPU seconds and the largest wall time and resident memory of one job.
    """
    results = Path(results)
    for benchmark in sorted((results / "benchmarks").rglob("*.tsv")):
        if job_resources(benchmark, logs)["in_job_server"]:
            raise ValueError(
                f"{benchmark}: the job server ran this job, so its CPU seconds leave out the start-up a cluster job "
                "pays; measure a run made with --configfile <its config> --config job_server=False"
            )
    rows, stage_files, shard_cpu = {}, {stage: [] for stage in (*SHARD_STAGES, "assemble")}, {}
    for claim_id, claim in claims.items():
        block = config["claims"][claim_id]
        points = len(claim.points(block))
        shard_files = {
            stage: sorted((results / "benchmarks" / stage / claim_id).glob("*.tsv")) for stage in SHARD_STAGES
        }
        assemble = results / "benchmarks" / "assemble" / f"{claim_id}.tsv"
        if not assemble.is_file() or not all(shard_files.values()):
            raise ValueError(f"{results}: no benchmark files for claim {claim_id}; run the whole workflow first")
        for stage, benchmarks in shard_files.items():
            stage_files[stage] += benchmarks
        stage_files["assemble"].append(assemble)
        shard_cpu[claim_id] = {}
        for benchmarks in shard_files.values():
            for path in benchmarks:
                shard_cpu[claim_id][path.stem] = shard_cpu[claim_id].get(path.stem, 0.0) + job_resources(path)["cpu_s"]
        outputs = [
            *(results / "data" / claim_id).glob("*"),
            *(results / "runs" / claim_id).glob("*"),
            *(results / "notebooks" / "runs" / claim_id).glob("*"),
        ]
        rows[claim_id] = {
            "points": points,
            "cpu_s_per_point": round(sum(shard_cpu[claim_id].values()) / points, 3),
            "shard_cpu_s": {shard: round(cpu, 2) for shard, cpu in sorted(shard_cpu[claim_id].items())},
            "bytes_per_point": _bytes(outputs) // points,
            "assemble_cpu_s": job_resources(assemble)["cpu_s"],
        }
    overhead = round(sum(min(job_resources(f)["cpu_s"] for f in stage_files[stage]) for stage in SHARD_STAGES), 2)
    for claim_id, row in rows.items():
        row["cpu_s_per_unit"] = unit_rates(
            claims[claim_id],
            config["claims"][claim_id],
            row["shard_cpu_s"],
            overhead,
            single=single_shard(config, claim_id),
        )
    kernels = sorted((results / "benchmarks" / "kernels").glob("*.tsv"))
    if not kernels:
        raise ValueError(f"{results}: no benchmark files of the kernels jobs; run the whole workflow first")
    stages = {"kernels": _stage_summary(kernels)}
    stages.update({stage: _stage_summary(files) for stage, files in stage_files.items()})
    return {"claims": rows, "job_overhead_s": overhead, "stages": stages}


def shard_units(claim, block: dict, single: bool = False) -> dict[str, dict[str, float]]:
    """Shard name -> {work kind: the units of its points of that kind} (:meth:`sparseact.claims.Claim.work`) of
    ``claim`` under ``block``, its points in one shard if ``single`` (:meth:`sparseact.claims.Claim.shards`)."""
    grid, units = claim.points(block), {}
    for shard, names in claim.shards(block, single=single).items():
        for name in names:
            kind, value = claim.work(grid[name])
            units.setdefault(shard, {}).setdefault(kind, 0.0)
            units[shard][kind] += value
    return units


def unit_rates(
    claim, block: dict, shard_cpu: dict[str, float], overhead: float, single: bool = False
) -> dict[str, float]:
    """CPU seconds per work unit of each kind of ``claim``'s points, from its shards' measured CPU seconds (its points
    in one shard if ``single``, as :func:`shard_units`).

    Non-negative least squares of each shard's CPU seconds after the start-up ``overhead`` on its units of each kind,
    each shard's equation divided by its measured CPU seconds (so that the fit is in relative error, the small
    shards as much as the large). A kind the fit prices at zero while its shards cost more than their start-up (a
    shard of two kinds, one equation) gets an equal share of those shards' CPU seconds after start-up, over its units,
    so that a larger point of it is not priced as free.
    """
    # deferred: scipy loads only where the cost table is measured, not at every Snakemake start (config checks)
    import numpy as np
    from scipy.optimize import nnls

    units = shard_units(claim, block, single=single)
    kinds = sorted({kind for shard in units.values() for kind in shard})
    shards = sorted(units)
    matrix = np.array([[units[shard].get(kind, 0.0) for kind in kinds] for shard in shards])
    measured = np.array([shard_cpu[shard] for shard in shards])
    weight = 1.0 / np.maximum(measured, overhead)
    rates, _ = nnls(matrix * weight[:, None], np.maximum(measured - overhead, 0.0) * weight)
    out = {}
    for column, kind in enumerate(kinds):
        rate = rates[column]
        if rate <= 0.0:
            holding = matrix[:, column] > 0
            shares = np.maximum(measured - overhead, 0.0) / (matrix > 0).sum(axis=1)
            rate = shares[holding].sum() / matrix[holding, column].sum()
        out[kind] = float(f"{rate:.6g}")
    return out


def point_cpu_seconds(claim, point: dict, row: dict) -> float:
    """Estimated CPU seconds of one grid ``point`` of ``claim`` from its cost-table ``row``: its work units times
    its kind's measured CPU seconds per unit (the claim's mean CPU seconds per point for a kind without a rate)."""
    kind, units = claim.work(point)
    rate = row.get("cpu_s_per_unit", {}).get(kind)
    return units * rate if rate is not None else row["cpu_s_per_point"]


def shard_estimates(claim, block: dict, row: dict, overhead: float, single: bool = False) -> dict[str, float]:
    """Estimated CPU seconds of each shard (its data and runs jobs) of ``claim`` under ``block``: the start-up
    ``overhead`` plus its points' :func:`point_cpu_seconds` from the claim's cost-table ``row``.

    ``single``: the claim's points in one shard (:meth:`sparseact.claims.Claim.shards`), as a config's
    ``single_shard_claims`` asks (:func:`sparseact.runtime.sharding.single_shard`).
    """
    grid = claim.points(block)
    return {
        shard: overhead + sum(point_cpu_seconds(claim, grid[name], row) for name in names)
        for shard, names in claim.shards(block, single=single).items()
    }


def cost_table() -> dict:
    """The shipped cost table (the full config's measured run)."""
    return json.loads(files("sparseact").joinpath(COST_TABLE).read_text(encoding="utf-8"))


#: The columns of a claim's row that an estimate reads.
ROW_COLUMNS = ("cpu_s_per_point", "bytes_per_point", "assemble_cpu_s")


@cache
def _warn_unmeasured(claim_id: str) -> None:
    """One line on standard error, once per claim and process."""
    print(
        f"warning: claim {claim_id} has no measured cost row in sparseact/{COST_TABLE}; its cost is estimated "
        "as the most expensive measured claim's (rerun sparseact cost-table after a full run)",
        file=sys.stderr,
    )


def claim_cost_row(table: dict, claim_id: str) -> dict:
    """The cost row of ``claim_id`` in ``table``; for a claim without one, the fallback row (with a warning).

    The fallback takes, column by column, the largest figure of any measured claim: a new claim is priced as
    the most expensive measured one until the table is measured again, so that the cost limit still binds.
    """
    if claim_id in table["claims"]:
        return table["claims"][claim_id]
    _warn_unmeasured(claim_id)
    return {column: max(row[column] for row in table["claims"].values()) for column in ROW_COLUMNS}


@dataclass(frozen=True)
class CostEstimate:
    """What a config is estimated to cost (see :func:`estimate_cost`)."""

    points: int
    largest_n: int | None
    cpu_hours: float
    disk_bytes: int
    peak_memory_mb: float
    #: The most expensive job: ``(claim id, shard name, estimated CPU hours)``.
    largest_job: tuple[str, str, float] = ("", "", 0.0)

    def summary(self) -> str:
        """One line: points, largest dimension, CPU time, disk and the largest job's memory."""
        largest = f"largest n = {self.largest_n}" if self.largest_n is not None else "no n parameter"
        claim_id, shard, hours = self.largest_job
        return (
            f"estimated cost: {self.points} grid points ({largest}); about {self.cpu_hours:.2g} CPU hours, the "
            f"longest job {claim_id}/{shard} about {hours * 60:.2g} CPU minutes; about {self.disk_bytes / 1e6:.3g} "
            f"MB of results; largest job's memory measured at the full config {self.peak_memory_mb:.0f} MB"
        )


def estimate_cost(config: dict, claims: Mapping[str, Any], table: dict | None = None) -> CostEstimate:
    """Estimated cost of a validated ``config`` of ``claims`` (claim id -> claim, :func:`sparseact.claims.registry`)
    from the measured ``table`` (default: :func:`cost_table`).

    Each shard costs :func:`shard_estimates` (the start-up, and each point's units at its kind's rate; the config's
    ``single_shard_claims`` in one shard each), each claim its assembly too, the kernels compile once.
    Disk is the claim's mean bytes per point times its points. ``largest_n`` is the largest ``n`` any point has
    (the input dimension: a ``2^n``-point cube where the claim enumerates it).
    """
    table = cost_table() if table is None else table
    points, cpu_s, disk, ns = 0, table["stages"]["kernels"]["cpu_s"], 0, []
    largest_job = ("", "", 0.0)
    for claim_id, claim in claims.items():
        block = config["claims"][claim_id]
        grid, row = claim.points(block), claim_cost_row(table, claim_id)
        points += len(grid)
        single = single_shard(config, claim_id)
        for shard, job_s in shard_estimates(claim, block, row, table["job_overhead_s"], single=single).items():
            cpu_s += job_s
            if job_s / 3600.0 > largest_job[2]:
                largest_job = (claim_id, shard, job_s / 3600.0)
        cpu_s += row["assemble_cpu_s"]
        disk += len(grid) * row["bytes_per_point"]
        ns += [p["n"] for p in grid.values() if isinstance(p.get("n"), int)]
    peak = max(stage["max_rss_mb"] for stage in table["stages"].values())
    return CostEstimate(points, max(ns) if ns else None, cpu_s / 3600.0, disk, peak, largest_job)


def check_cost(config: dict, claims: Mapping[str, Any]) -> CostEstimate:
    """The estimate of ``config`` (of ``claims``, as in :func:`estimate_cost`); ``ConfigError`` if the whole config
    exceeds :data:`CONFIG_CPU_HOURS_LIMIT` or one job exceeds :data:`JOB_CPU_HOURS_LIMIT` (naming the claim's key),
    unless ``config`` accepts that."""
    estimate = estimate_cost(config, claims)
    if config.get(OVERRIDE_KEY, False):
        return estimate
    if estimate.cpu_hours > CONFIG_CPU_HOURS_LIMIT:
        raise ConfigError(
            f"invalid config: {estimate.points} grid points, about {estimate.cpu_hours:.3g} CPU hours, "
            f"above the limit of {CONFIG_CPU_HOURS_LIMIT:g}; shrink the grid, or set "
            f"{OVERRIDE_KEY}: true to run it on purpose"
        )
    claim_id, shard, hours = estimate.largest_job
    if hours > JOB_CPU_HOURS_LIMIT:
        raise ConfigError(
            f"invalid config: claims.{claim_id}: the job {shard!r} alone is estimated at about "
            f"{hours:.3g} CPU hours (one core, restarted from scratch if interrupted), above the "
            f"per-job limit of {JOB_CPU_HOURS_LIMIT:g}; shrink that point, or set {OVERRIDE_KEY}: true "
            "to run it on purpose"
        )
    return estimate


def job_warning(estimate: CostEstimate, table: dict | None = None) -> str | None:
    """One line naming the claim's key when the estimate's longest job exceeds the SLURM profile's runtime request
    for a runs job (:func:`slurm_resources`, sized by the full config's longest job): under SLURM it would be cut."""
    claim_id, shard, hours = estimate.largest_job
    minutes = slurm_resources(table)["run"]["runtime"]
    if hours * 60 <= minutes:
        return None
    return (
        f"warning: claims.{claim_id}: the job {shard!r} is estimated at about {hours * 60:.3g} CPU minutes, beyond "
        f"the SLURM profile's request of {minutes} minutes per runs job; a local run is fine, a SLURM run needs "
        "a larger runtime for it"
    )


def slurm_resources(table: dict | None = None) -> dict[str, dict[str, int]]:
    """The SLURM profile's requests for the rules that run on the cluster (``kernels``, ``run``).

    Each is the largest measured job of the rule times a margin, in MB and minutes (the workflow's
    other rules, ``data`` and ``assemble`` among them, are ``localrules``: they run where Snakemake runs).

    Memory is :data:`MEMORY_MARGIN` times the largest resident memory, rounded up to 100 MB;
    time is :data:`RUNTIME_MARGIN` times the largest wall time, in whole minutes; never below
    :data:`MIN_MEM_MB` and :data:`MIN_RUNTIME_MIN`.
    """
    table = cost_table() if table is None else table
    rules = {"kernels": "kernels", "run": "runs"}
    out = {}
    for rule, stage in rules.items():
        row = table["stages"][stage]
        out[rule] = {
            "mem_mb": max(MIN_MEM_MB, 100 * math.ceil(MEMORY_MARGIN * row["max_rss_mb"] / 100)),
            "runtime": max(MIN_RUNTIME_MIN, math.ceil(RUNTIME_MARGIN * row["max_wall_s"] / 60)),
            "cpus_per_task": 1,
        }
    return out
