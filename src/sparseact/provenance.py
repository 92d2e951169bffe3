"""Seeds, provenance and crash-safe writing of result files.

Every result file records its parameters, seed, package versions and git
revision (:func:`provenance`), and is written atomically (temporary file in the
same folder, then ``os.replace``) so an interrupted run never leaves a partial
file that looks complete.
"""

from __future__ import annotations

import hashlib
import json
import os
import platform
import subprocess
import tempfile
import zlib
from importlib import metadata
from pathlib import Path

import numpy as np

#: Packages whose versions are recorded in every result file.
RECORDED_PACKAGES = (
    "sparseact",
    "numpy",
    "scipy",
    "pandas",
    "matplotlib",
    "seaborn",
    "numba",
    "snakemake",
    "papermill",
    "jupytext",
    "nbconvert",
)


def derive_rng(seed: int, *labels: str | int) -> np.random.Generator:
    """A generator determined by the config ``seed`` and a path of labels.

    Labels (e.g. the construction name, a grid point) are hashed with CRC-32, so
    each experiment gets an independent stream that does not move when other
    parts of the config change.
    """
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or seed < 0:
        raise ValueError(f"seed must be a non-negative integer, got {seed!r}")
    keys = [zlib.crc32(str(label).encode("utf-8")) for label in labels]
    return np.random.default_rng(np.random.SeedSequence(int(seed), spawn_key=tuple(keys)))


def package_versions(packages=RECORDED_PACKAGES) -> dict[str, str]:
    """Installed versions of ``packages`` (``"not installed"`` where missing)."""
    out = {}
    for name in packages:
        try:
            out[name] = metadata.version(name)
        except metadata.PackageNotFoundError:
            out[name] = "not installed"
    return out


def git_revision(path: str | Path = ".") -> str:
    """``git rev-parse HEAD`` of the checkout containing ``path``, with ``-dirty`` when
    tracked files have uncommitted changes; ``"unknown"`` outside a checkout."""
    try:
        rev = subprocess.run(
            ["git", "rev-parse", "HEAD"], cwd=path, capture_output=True, text=True, check=True
        ).stdout.strip()
        dirty = subprocess.run(
            ["git", "status", "--porcelain", "--untracked-files=no"],
            cwd=path,
            capture_output=True,
            text=True,
            check=True,
        ).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "unknown"
    return rev + ("-dirty" if dirty else "")


def config_hash(parameters: dict) -> str:
    """SHA-256 of the canonical JSON of ``parameters`` (first 16 hex digits)."""
    canonical = json.dumps(parameters, sort_keys=True, separators=(",", ":"), default=str)
    return hashlib.sha256(canonical.encode("utf-8")).hexdigest()[:16]


def provenance(parameters: dict, seed: int) -> dict:
    """The provenance block of a result file: parameters, seed, versions, git revision.

    Deliberately holds no time stamps or host names, so two runs of the same
    revision and config write identical files.
    """
    return {
        "parameters": parameters,
        "seed": int(seed),
        "config_hash": config_hash(parameters),
        "python": platform.python_version(),
        "packages": package_versions(),
        "git_revision": git_revision(Path(__file__).resolve().parent),
    }


def _current_umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


_UMASK = _current_umask()


def atomic_write_bytes(path: str | Path, data: bytes) -> None:
    """Write ``data`` to ``path`` atomically (parents created)."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.chmod(tmp, 0o666 & ~_UMASK)  # mkstemp creates 0600; give the usual permissions
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def atomic_write_text(path: str | Path, text: str) -> None:
    """Write ``text`` (UTF-8) to ``path`` atomically."""
    atomic_write_bytes(path, text.encode("utf-8"))


def _json_default(value):
    if isinstance(value, np.integer):
        return int(value)
    if isinstance(value, np.floating):
        return float(value)
    if isinstance(value, np.ndarray):
        return value.tolist()
    if hasattr(value, "value"):
        return value.value
    raise TypeError(f"cannot serialise {type(value).__name__} to JSON")


def atomic_write_json(path: str | Path, data) -> None:
    """Write ``data`` as indented, key-sorted JSON atomically."""
    atomic_write_text(path, json.dumps(data, indent=2, sort_keys=True, default=_json_default) + "\n")
