"""Files a job writes that Snakemake does not see: the members of its ``directory()`` outputs, and the erratum's PDF.

Snakemake checks that a directory output exists, not what it holds, so a figure deleted from ``figures/<claim>/``
left the plan at "Nothing to be done". The job that writes such a folder therefore lists what it wrote in the
folder's manifest (:data:`MANIFEST_NAME`, :func:`write_manifest`: the assembly's figures and tables, the ledger's
certificates, the erratum job's PDF), and the workflow gives the job one more input, its completeness stamp
(:func:`completeness_stamp`, ``results/stamps/<job>.txt``), evaluated once each time Snakemake starts: while every
listed file is present the stamp is left alone; when one is missing, or a folder has no manifest (a job
interrupted, or a run older than the manifests), the stamp is rewritten with the missing files' names and the time,
so that it is newer than the job's outputs and differs from the content the job last read (Snakemake reruns a job
whose small input is newer only when its content changed), and the job is planned again.
"""

from __future__ import annotations

import time
from collections.abc import Iterable
from pathlib import Path

from sparseact._validation import MANIFEST_NAME, manifest_lines
from sparseact.runtime.provenance import atomic_write_text

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
    names = [line.split("  ", 1)[1] for line in manifest.read_text(encoding="utf-8").splitlines() if "  " in line]
    return [(folder / name).as_posix() for name in names if not (folder / name).is_file()]


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
