"""A shard manifest: the one file that says what a shard's jobs compute.

The workflow writes ``results/shards/<claim>/<shard>.json`` (rule ``shard_manifest``) with the claim, the shard's name,
its points (name -> parameters), the config seed, the replicate count and the digest of the claim's compute code;
the data job and the run job read it by path, so their command lines carry names and paths only. A changed point,
seed or code rewrites the shard manifest, and through it reruns the shard's data and run jobs.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

from sparseact._validation import check_int, read_regular_file
from sparseact.runtime.config import config_schema
from sparseact.runtime.provenance import atomic_write_json

#: A shard's name: it names files.
SHARD_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]*")
#: A shard manifest's keys, in the order written.
KEYS = ("claim", "shard", "points", "seed", "replicates", "code")
#: The largest shard manifest read (the full config's are a few kilobytes).
MAX_BYTES = 1 << 24


def shard_manifest(claim: str, shard: str, points: dict, seed: int, replicates: int, code: str) -> dict:
    """The shard manifest of one shard, checked (``ValueError`` in one line naming the field)."""
    manifest = dict(zip(KEYS, (claim, shard, points, seed, replicates, code), strict=True))
    _check(manifest, "the shard manifest")
    return manifest


def write_shard_manifest(path: str | Path, manifest: dict) -> None:
    """Write a shard manifest (:func:`shard_manifest`) atomically, keys sorted."""
    _check(manifest, str(path))
    atomic_write_json(path, manifest)


def read_shard_manifest(path: str | Path) -> dict:
    """The shard manifest at ``path``, checked: ``ValueError`` in one line for a missing, truncated or altered file
    (or one that is no regular file)."""
    data = read_regular_file(path, MAX_BYTES, "shard manifest")
    try:
        manifest = json.loads(data)
    except (ValueError, RecursionError) as exc:
        raise ValueError(f"{path}: not a shard manifest ({type(exc).__name__}); rerun the workflow") from None
    _check(manifest, str(path))
    return manifest


def _check(manifest, where: str) -> None:
    """Every field of a shard manifest has its type and range (``ValueError`` in one line naming the field otherwise)."""
    if not isinstance(manifest, dict) or sorted(manifest) != sorted(KEYS):
        raise ValueError(f"{where}: a shard manifest has exactly the keys {', '.join(KEYS)}")
    claim, shard, points, code = manifest["claim"], manifest["shard"], manifest["points"], manifest["code"]
    if not isinstance(claim, str) or not SHARD_NAME.fullmatch(claim):
        raise ValueError(f"{where}: claim must be a claim's name, got {claim!r:.60}")
    if not isinstance(shard, str) or not SHARD_NAME.fullmatch(shard):
        raise ValueError(f"{where}: shard must be a shard's name (letters, digits, '-' and '_'), got {shard!r:.60}")
    if not isinstance(points, dict) or not points or not all(isinstance(p, dict) for p in points.values()):
        raise ValueError(f"{where}: points must map each point's name to its parameters (a non-empty JSON object)")
    # within the config schema's ranges (a deterministic claim's one replicate aside): no more work than a config names
    for key, least in (("seed", 0), ("replicates", 1)):
        value, most = check_int(manifest[key], f"{where}: {key}", least), config_schema()["properties"][key]["maximum"]
        if value > most:
            raise ValueError(f"{where}: {key} must be <= {most} (the config's limit), got {value}")
    if not isinstance(code, str):
        raise ValueError(f"{where}: code must be the digest of the claim's code, got {code!r:.60}")
