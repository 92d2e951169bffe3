"""Files a job writes that Snakemake does not see: the members of its ``directory()`` outputs, and the erratum's PDF;
and files changed behind Snakemake's back.

Snakemake checks that a directory output exists, not what it holds, so a figure deleted from ``figures/<claim>/``
left the plan at "Nothing to be done". The job that writes such a folder therefore lists what it wrote in the
folder's manifest (:data:`MANIFEST_NAME`, :func:`write_manifest`: the assembly's figures and tables, the ledger's
certificates, the erratum job's PDF), and the workflow gives the job one more input, its completeness stamp
(:func:`completeness_stamp`, ``results/stamps/<job>.txt``), evaluated once each time Snakemake starts: while every
listed file is present the stamp is left alone; when one is missing, or a folder has no manifest (a job
interrupted, or a run older than the manifests), the stamp is rewritten with the missing files' names and the time,
so that it is newer than the job's outputs and differs from the content the job last read (Snakemake reruns a job
whose small input is newer only when its content changed), and the job is planned again.

Snakemake compares modification times, never contents: a file truncated or overwritten with its time kept (a
restored backup, a copy tool, a full disk) left the plan at "Nothing to be done". :func:`check_run_files` keeps a
record of the run's files (their size, times, inode and SHA-256; ``results/stamps/files.json``), refreshed at each
start and at the end of each run: a file whose content differs from its record while its modification time is the
one recorded was changed by no job, since a job's write always gives a new time. It is removed, so that the job
that writes it is planned again (rule all requests every output; a member of a directory output is missing,
:func:`missing_members`). Setting its time back is not enough: Snakemake reruns a job whose small input is newer
only when that input's content changed.
"""

from __future__ import annotations

import hashlib
import json
import time
from collections.abc import Iterable
from pathlib import Path

from sparseact._validation import MANIFEST_NAME, manifest_lines
from sparseact.runtime.provenance import atomic_write_text

#: Largest move of a file's modification time, in nanoseconds, that still counts as the time kept: a time restored
#: through float seconds (``os.utime(path, (atime, mtime))`` with ``stat``'s floats) lands within a microsecond of
#: the nanosecond one, while a job's write gives a new time.
TIME_KEPT_NS = 1000
#: Files of a directory output that are Snakemake's, not the job's (its time stamp of the folder).
SNAKEMAKE_FILES = (".snakemake_timestamp",)


def write_manifest(directory: str | Path, names: Iterable[str] | None = None) -> Path:
    """Write ``<directory>/SHA256SUMS`` listing ``names`` (paths relative to ``directory``), by default every file
    under it but the manifest and Snakemake's own files; return the manifest's path."""
    folder = Path(directory)
    if names is None:
        names = [
            path.relative_to(folder).as_posix()
            for path in folder.rglob("*")
            if path.is_file() and path.name != MANIFEST_NAME and path.name not in SNAKEMAKE_FILES
        ]
    manifest = folder / MANIFEST_NAME
    atomic_write_text(manifest, manifest_lines({name: (folder / name).read_bytes() for name in names}))
    return manifest


def missing_members(directory: str | Path) -> list[str]:
    """The files ``directory``'s manifest lists that are missing, as ``<directory>/<name>``; the manifest itself when
    the folder exists without one; nothing when the folder is missing (Snakemake sees that itself)."""
    folder = Path(directory)
    if not folder.is_dir():
        return []
    manifest = folder / MANIFEST_NAME
    if not manifest.is_file():
        return [manifest.as_posix()]
    return [(folder / name).as_posix() for name in manifest_names(folder) if not (folder / name).is_file()]


def manifest_names(directory: str | Path) -> list[str]:
    """The files ``directory``'s manifest lists (relative to it); none when it has no manifest."""
    manifest = Path(directory) / MANIFEST_NAME
    if not manifest.is_file():
        return []
    return [line.split("  ", 1)[1] for line in manifest.read_text(encoding="utf-8").splitlines() if "  " in line]


def completeness_stamp(path: str | Path, *directories: str | Path) -> str:
    """The stamp ``path`` of a job that writes ``directories``' members (see the module's docstring): rewritten,
    with what is missing and the time, when a member a manifest lists is missing; created when absent; else left.

    Returns
    -------
    str
        ``path``, as given.
    """
    missing = [name for directory in directories for name in missing_members(directory)]
    target = Path(path)
    if missing:
        atomic_write_text(target, f"incomplete at {time.time_ns()}: {' '.join(missing)}\n")
    elif not target.is_file():
        atomic_write_text(target, "complete\n")
    return str(path)


def recorded_files(results: str | Path, folders: Iterable[str | Path]) -> list[Path]:
    """The files :func:`check_run_files` records: those directly in ``results`` and every file under ``folders``
    (each left out when missing), but hidden ones (Snakemake's time stamps, writers' scratch files)."""
    files = [path for path in Path(results).glob("*") if path.is_file()]
    for folder in map(Path, folders):
        files += [path for path in folder.rglob("*") if path.is_file()]
    return sorted(path for path in files if not path.name.startswith("."))


def check_run_files(record: str | Path, files: Iterable[Path]) -> list[str]:
    """The ``files`` changed since the record ``record`` last saw them with their modification time kept (see the
    module's docstring), each removed so that its job rebuilds it; the record refreshed.

    A file the record does not hold, or holds with another modification time (a job's write, a ``touch``; one within
    :data:`TIME_KEPT_NS` is the same time set back through float seconds), is recorded as it is. A file with its
    recorded time is read only when its size, inode or change time differs from the record's (a copy of the results
    with ``cp -a``), so a start reads a few ``stat`` s per file.
    """
    path = Path(record)
    try:
        old = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        old = {}
    old = old if isinstance(old, dict) else {}
    new, changed = {}, []
    for file in files:
        status = file.stat()
        name = file.as_posix()
        seen = old.get(name)
        now = [status.st_size, status.st_mtime_ns, status.st_ino, status.st_ctime_ns]
        if isinstance(seen, list) and len(seen) == 5 and seen[:4] == now:
            new[name] = seen
            continue
        with open(file, "rb") as handle:
            digest = hashlib.file_digest(handle, "sha256").hexdigest()
        kept = isinstance(seen, list) and len(seen) == 5 and abs(seen[1] - status.st_mtime_ns) < TIME_KEPT_NS
        if kept and seen[4] != digest:
            file.unlink()
            changed.append(name)
            continue
        new[name] = [*now, digest]
    if new != old:
        atomic_write_text(path, json.dumps(new, indent=0, sort_keys=True) + "\n")
    return changed
