"""The three stages of a claim: data (per point), runs (per point), assembly (per claim).

Seeds: every point draws from its own streams, derived from the config seed, the
claim id, the point name, the replicate and the stage (:func:`point_rng`), so
adding, removing or reordering points never changes another point's numbers.
A random claim is computed under ``verdict_seeds`` replicates; deterministic
claims have one.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pandas as pd

from sparseact.claims._registry import get_claim
from sparseact.datafiles import load_arrays, save_arrays
from sparseact.ledger import CheckReport, combine_replicates
from sparseact.provenance import atomic_write_json, derive_rng

#: Column added to every run table: which replicate (seed) produced the row.
REPLICATE = "replicate"
#: Column added to every run table: which grid point produced the row.
POINT = "point"


def point_rng(seed: int, claim_id: str, point_name: str, replicate: int, stage: str) -> np.random.Generator:
    """The stream of one (claim, point, replicate, stage); independent of every other point."""
    return derive_rng(seed, claim_id, point_name, f"replicate-{replicate}", stage)


def _prefix(replicate: int) -> str:
    return f"r{replicate}."


def generate_point(claim_id: str, point_name: str, point: dict, seed: int, replicates: int, out: str | Path) -> None:
    """Data stage: write the data of one point (all replicates) to ``out`` (see :mod:`sparseact.datafiles`)."""
    claim = get_claim(claim_id)
    arrays = {}
    for r in range(replicates):
        data = claim.generate(point, point_rng(seed, claim_id, point_name, r, "data"))
        arrays.update({_prefix(r) + key: value for key, value in data.items()})
    meta = dict(claim=claim_id, point=point_name, params=point, seed=int(seed), replicates=int(replicates))
    save_arrays(out, arrays, meta)


def run_point(claim_id: str, point_name: str, point: dict, seed: int, replicates: int,
              data_path: str | Path) -> dict[str, pd.DataFrame]:
    """Runs stage: the point's result tables, every replicate, with ``point`` and ``replicate`` columns."""
    claim = get_claim(claim_id)
    arrays, meta = load_arrays(data_path)
    expected = dict(claim=claim_id, point=point_name, params=point, seed=int(seed), replicates=int(replicates))
    if json.loads(json.dumps(expected)) != meta:
        raise ValueError(f"{data_path} was generated for different parameters; regenerate it (the data stage)")
    tables: dict[str, list[pd.DataFrame]] = {}
    for r in range(replicates):
        prefix = _prefix(r)
        data = {key[len(prefix):]: value for key, value in arrays.items() if key.startswith(prefix)}
        for name, frame in claim.run(point, data, point_rng(seed, claim_id, point_name, r, "run")).items():
            frame = frame.reset_index(drop=True)
            frame.insert(0, REPLICATE, r)
            frame.insert(0, POINT, point_name)
            tables.setdefault(name, []).append(frame)
    return {name: pd.concat(parts, ignore_index=True) for name, parts in tables.items()}


def write_run(path: str | Path, claim_id: str, point_name: str, point: dict, tables: dict[str, pd.DataFrame]) -> None:
    """Write a point's run tables as JSON (columns in order, floats exact)."""
    payload = dict(claim=claim_id, point=point_name, params=point,
                   tables={name: dict(columns=list(frame.columns),
                                      data={str(c): frame[c].tolist() for c in frame.columns})
                           for name, frame in tables.items()})
    atomic_write_json(path, payload)


def load_run(path: str | Path) -> dict[str, pd.DataFrame]:
    """The tables of a run file written by :func:`write_run`."""
    with open(path, encoding="utf-8") as handle:
        payload = json.load(handle)
    return {name: pd.DataFrame(spec["data"], columns=spec["columns"]) for name, spec in payload["tables"].items()}


def merge_runs(paths) -> dict[str, pd.DataFrame]:
    """Concatenate the tables of several run files (in the given order), table by table."""
    parts: dict[str, list[pd.DataFrame]] = {}
    for path in paths:
        for name, frame in load_run(path).items():
            parts.setdefault(name, []).append(frame)
    return {name: pd.concat(frames, ignore_index=True) for name, frames in parts.items()}


def assemble_claim(claim_id: str, block: dict, run_paths, replicates: int) -> CheckReport:
    """Assembly stage: merge the points' tables, decide each replicate's verdicts, combine the replicates.

    Each replicate is assembled on its own rows; a verdict stands when every
    replicate agrees and is INCONCLUSIVE otherwise
    (:func:`sparseact.ledger.combine_replicates`). The returned tables are the
    merged run tables and the claim's summary tables, with a ``replicate`` column.
    """
    claim = get_claim(claim_id)
    merged = merge_runs(run_paths)
    reports = []
    for r in range(replicates):
        part = {name: frame[frame[REPLICATE] == r].drop(columns=[REPLICATE]).reset_index(drop=True)
                for name, frame in merged.items()}
        reports.append(claim.assemble(block, part))
    tables = dict(merged)
    for name in reports[0].tables:
        if name in merged:
            continue
        frames = []
        for r, report in enumerate(reports):
            frame = report.tables[name].reset_index(drop=True)
            frame.insert(0, REPLICATE, r)
            frames.append(frame)
        tables[name] = pd.concat(frames, ignore_index=True)
    return CheckReport(combine_replicates([report.records for report in reports]), tables)
