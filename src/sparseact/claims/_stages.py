"""The three stages of a claim: data and runs (per shard of grid points), assembly (per claim).

Seeds: every point draws from its own streams, derived from the config seed, the
claim id, the point name, the replicate and the stage (:func:`point_rng`), so
adding, removing or reordering points never changes another point's numbers.
A random claim is computed in as many independent replicates as the config's ``replicates``
says; deterministic claims have one.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd

from sparseact._validation import check_int
from sparseact.claims._failures import WORST
from sparseact.claims._registry import get_claim
from sparseact.runtime import progress
from sparseact.runtime.datafiles import REGENERATE, load_arrays, save_arrays
from sparseact.runtime.provenance import atomic_write_json, derive_rng
from sparseact.verify.records import ClaimReport, combine_replicates

#: Column added to every run table: which replicate (seed) produced the row.
REPLICATE = "replicate"
#: The summary table the ledger step collects (columns ``sparseact.publish.statements.TIGHTNESS_COLUMNS``): kept from
#: replicate 0 only, without a ``replicate`` column.
TIGHTNESS = "tightness"
#: Column added to every run table: which grid point produced the row.
POINT = "point"


def point_rng(seed: int, claim_id: str, point_name: str, replicate: int, stage: str) -> np.random.Generator:
    """The stream of one (claim, point, replicate, stage); independent of every other point."""
    return derive_rng(seed, claim_id, point_name, f"replicate-{replicate}", stage)


def _prefix(point_name: str, replicate: int) -> str:
    """Key prefix of one point's replicate in a data file: ``<point>/r<replicate>.``."""
    return f"{point_name}/r{replicate}."


def _meta(claim_id: str, shard: str, points: dict[str, dict], seed: int, replicates: int) -> dict:
    return json.loads(
        json.dumps(dict(claim=claim_id, shard=shard, points=points, seed=int(seed), replicates=int(replicates)))
    )


def generate_shard(
    claim_id: str,
    shard: str,
    points: dict[str, dict],
    seed: int,
    replicates: int,
    out: str | Path,
    log: str | Path | None = None,
) -> None:
    """Data stage: write the data of a shard's points (all replicates) to one file ``out``.

    Point ``p``'s arrays for replicate ``r`` are stored under ``<p>/r<r>.<key>``
    (:mod:`sparseact.runtime.datafiles`; :func:`point_data` reads them back). Each point
    draws from its own stream, so its arrays do not depend on the shard.
    ``log``, if given, receives one line per point.
    """
    if not isinstance(points, dict) or not points or not all(isinstance(p, dict) for p in points.values()):
        raise ValueError(
            f"points must map each point's name to its parameters (a non-empty JSON object), got {points!r:.80}"
        )
    seed, replicates = check_int(seed, "seed", 0), check_int(replicates, "replicates", 1)
    claim = get_claim(claim_id)
    progress.configure(log)
    arrays = {}
    for name, point in progress.track(list(points.items()), f"{claim_id} data {shard}"):
        for r in range(replicates):
            data = claim.generate(point, point_rng(seed, claim_id, name, r, "data"))
            arrays.update({_prefix(name, r) + key: value for key, value in data.items()})
    save_arrays(out, arrays, _meta(claim_id, shard, points, seed, replicates))
    progress.message(f"{claim_id} {shard}: wrote {out} ({len(points)} points, {len(arrays)} arrays)")


def point_data(arrays: dict, point_name: str, replicate: int) -> dict:
    """The arrays one point's ``generate`` returned for ``replicate``, from a shard's data file."""
    prefix = _prefix(point_name, replicate)
    return {key[len(prefix) :]: value for key, value in arrays.items() if key.startswith(prefix)}


def run_shard(
    data_path: str | Path,
    claim_id: str | None = None,
    shard: str | None = None,
    seed: int | None = None,
    replicates: int | None = None,
    points: dict | str | None = None,
) -> tuple[dict, dict[str, pd.DataFrame]]:
    """Runs stage: every point's result tables, every replicate, with ``point`` and ``replicate`` columns.

    The shard is the one its data file describes (:func:`generate_shard` stores its claim, shard name, points,
    seed and replicate count there), so a run job is named by its data file alone; ``claim_id``, ``shard``,
    ``seed``, ``replicates`` and ``points`` (the config's; ``points`` as a dict or its JSON), if given, must be the
    file's (``ValueError`` otherwise: a data file made with another seed, replicate count or grid is refused, not
    run under provenance that records the config's). Progress (points done, elapsed, estimate) goes
    to the job's log (:mod:`sparseact.runtime.progress`).

    Returns
    -------
    meta : dict
        ``claim``, ``shard``, ``points`` (name -> parameters), ``seed`` and ``replicates`` of the data file.
    tables : dict of str to pandas.DataFrame
    """
    arrays, meta = load_arrays(data_path)
    for key, expected in (
        ("claim", claim_id),
        ("shard", shard),
        ("seed", None if seed is None else int(seed)),
        ("replicates", None if replicates is None else int(replicates)),
    ):
        if expected is not None and meta[key] != expected:
            raise ValueError(f"{data_path} holds {key} {meta[key]!r}, not {expected!r}; {REGENERATE}")
    if points is not None:
        expected = json.loads(points) if isinstance(points, str) else points
        if json.dumps(meta["points"], sort_keys=True) != json.dumps(expected, sort_keys=True):
            differ = sorted(set(meta["points"]) ^ set(expected)) or sorted(
                name for name in expected if meta["points"].get(name) != expected[name]
            )
            raise ValueError(
                f"{data_path} holds other points than the config's (first differing: {differ[0]!r}); {REGENERATE}"
            )
    claim_id, seed, replicates = meta["claim"], meta["seed"], meta["replicates"]
    claim = get_claim(claim_id)
    tables: dict[str, list[pd.DataFrame]] = {}
    for name, point in progress.track(list(meta["points"].items()), f"{claim_id} runs {meta['shard']}"):
        for r in range(replicates):
            rng = point_rng(seed, claim_id, name, r, "run")
            for table, frame in claim.run(point, point_data(arrays, name, r), rng).items():
                frame = frame.reset_index(drop=True)
                frame.insert(0, REPLICATE, r)
                frame.insert(0, POINT, name)
                tables.setdefault(table, []).append(frame)
    return meta, {table: pd.concat(parts, ignore_index=True) for table, parts in tables.items()}


def generate_point(claim_id: str, point_name: str, point: dict, seed: int, replicates: int, out: str | Path) -> None:
    """:func:`generate_shard` for a shard of the one point ``point_name`` (for use outside the workflow);
    :func:`run_shard` runs it."""
    generate_shard(claim_id, point_name, {point_name: point}, seed, replicates, out)


def write_run(path: str | Path, claim_id: str, shard: str, tables: dict[str, pd.DataFrame]) -> None:
    """Write a shard's run tables as JSON (columns in order, floats exact)."""
    payload = dict(
        claim=claim_id,
        shard=shard,
        tables={
            name: dict(columns=list(frame.columns), data={str(c): frame[c].tolist() for c in frame.columns})
            for name, frame in tables.items()
        },
    )
    atomic_write_json(path, payload)


def load_run(path: str | Path) -> dict[str, pd.DataFrame]:
    """The tables of a run file written by :func:`write_run` (with ``point`` and ``replicate`` columns)."""
    try:
        with open(path, encoding="utf-8") as handle:
            payload = json.load(handle)
        return {name: pd.DataFrame(spec["data"], columns=spec["columns"]) for name, spec in payload["tables"].items()}
    except (ValueError, KeyError, TypeError, AttributeError) as exc:
        raise ValueError(
            f"{path} is truncated or corrupt ({type(exc).__name__}: {exc}); delete it and rerun the "
            "workflow, which rebuilds it (the runs stage)"
        ) from None


def merge_runs(paths) -> dict[str, pd.DataFrame]:
    """Concatenate the tables of several run files (in the given order), table by table."""
    parts: dict[str, list[pd.DataFrame]] = {}
    for path in paths:
        for name, frame in load_run(path).items():
            parts.setdefault(name, []).append(frame)
    return {name: pd.concat(frames, ignore_index=True) for name, frames in parts.items()}


def assemble_claim(claim_id: str, block: dict, run_paths, replicates: int) -> ClaimReport:
    """Assembly stage: merge the points' tables, decide each replicate's verdicts, combine the replicates.

    Each replicate is assembled on its own rows; a verdict stands when every
    replicate agrees and is INCONCLUSIVE otherwise
    (:func:`sparseact.verify.records.combine_replicates`). The returned tables are the
    merged run tables and the claim's summary tables, with a ``replicate`` column.
    """
    claim = get_claim(claim_id)
    merged = merge_runs(run_paths)
    reports = []
    for r in range(replicates):
        part = {
            name: frame[frame[REPLICATE] == r].drop(columns=[REPLICATE]).reset_index(drop=True)
            for name, frame in merged.items()
        }
        reports.append(claim.assemble(block, part))
    tables = {name: frame for name, frame in merged.items() if name != WORST}  # raw data of the certificates
    for name in reports[0].tables:
        if name in merged:
            continue
        # one row per bound, as sparseact.publish.statements.collect_tightness reads it: replicate 0's
        if name == TIGHTNESS:
            tables[name] = reports[0].tables[name].reset_index(drop=True)
            continue
        frames = []
        for r, report in enumerate(reports):
            frame = report.tables[name].reset_index(drop=True)
            frame.insert(0, REPLICATE, r)
            frames.append(frame)
        tables[name] = pd.concat(frames, ignore_index=True)
    return ClaimReport(combine_replicates([report.records for report in reports]), tables)


# ---------------------------------------------------------------------------
# the three stages in process (tests, benchmarks), without Snakemake or papermill
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class StagedShard:
    """A shard that :func:`stage_shard` computed: its two files and the wall time of each stage.

    Attributes
    ----------
    shard : str
        The shard's name.
    data_path, run_path : pathlib.Path
        The data file (:func:`generate_shard`) and the run file (:func:`write_run`).
    data_seconds, run_seconds : float
        Wall time of the data stage and of the runs stage (including writing the run file).
    """

    shard: str
    data_path: Path
    run_path: Path
    data_seconds: float
    run_seconds: float


def staged_paths(out: str | Path, claim_id: str, shard: str) -> tuple[Path, Path]:
    """The data file and the run file of a shard below ``out``, laid out as the workflow's ``data/`` and ``runs/``."""
    out = Path(out)
    return out / "data" / claim_id / f"{shard}.npz", out / "runs" / claim_id / f"{shard}.json"


def stage_shard(
    claim_id: str, shard: str, points: dict[str, dict], seed: int, replicates: int, out: str | Path
) -> StagedShard:
    """The data and runs stages of one shard, in process: its data file, then its run file (:func:`staged_paths`).

    Parameters
    ----------
    claim_id : str
    shard : str
        The shard's name (a file name).
    points : dict
        The shard's points: name -> parameters (as :meth:`Claim.points` gives them).
    seed, replicates : int
        The config seed and the claim's replicate count (:func:`sparseact.claims.replicate_count`).
    out : path
        Folder below which the files are written.
    """
    data_path, run_path = staged_paths(out, claim_id, shard)
    start = time.perf_counter()
    generate_shard(claim_id, shard, points, seed, replicates, data_path)
    middle = time.perf_counter()
    write_run(run_path, claim_id, shard, run_shard(data_path, claim_id, shard)[1])
    return StagedShard(shard, data_path, run_path, middle - start, time.perf_counter() - middle)


def stage_claim(claim_id: str, block: dict, seed: int, replicates: int, out: str | Path) -> ClaimReport:
    """All three stages of a claim on ``block``, in process: every grid point as its own shard, then the assembly.

    A point's numbers do not depend on its shard, so the verdicts are those of the workflow's
    shards; the point's files are :func:`staged_paths` of its name below ``out``.

    Parameters
    ----------
    claim_id : str
    block : dict
        The claim's config block (not checked with :meth:`Claim.check`).
    seed, replicates : int
        The config seed and the number of replicates to compute and combine.
    out : path
        Folder for the data and run files.

    Returns
    -------
    ClaimReport
        As :func:`assemble_claim` returns it.
    """
    staged = [
        stage_shard(claim_id, name, {name: point}, seed, replicates, out)
        for name, point in get_claim(claim_id).points(block).items()
    ]
    return assemble_claim(claim_id, block, [str(shard.run_path) for shard in staged], replicates)
