"""One run at a time per results folder: a lock the Snakefile takes before Snakemake builds its DAG.

Snakemake locks a checkout only after building the DAG, and a second run started within seconds of a first can meet a
file the first is replacing while it builds its own: it then stops on "Write-protected output files", which is not
true, rather than on the lock. The run that executes jobs holds an exclusive :func:`fcntl.flock` on its results
folder's record (:func:`sparseact.runtime.config.run_record`) from the Snakefile's first lines to its end; the kernel
drops the lock with the process, so a killed run leaves no stale lock. A second such run is refused in one line; a dry
run or another command that executes no job goes on, as Snakemake lets it.
"""

from __future__ import annotations

import fcntl
import os
from collections.abc import Sequence
from pathlib import Path

from sparseact.runtime.config import run_record
from sparseact.runtime.errors import ConfigError

#: Snakemake's options (``argparse`` destinations) under which it executes no job: a run with one may share the lock.
NO_JOB_OPTIONS = (
    "dryrun",
    "lint",
    "list_rules",
    "list_target_rules",
    "summary",
    "detailed_summary",
    "dag",
    "rulegraph",
    "filegraph",
)

#: The lock held by this process, per lock file (a second Snakemake run in one process keeps it).
_HELD: dict[Path, int] = {}


def hold_run_lock(results_dir: str, argv: Sequence[str], root: str | Path = ".") -> None:
    """Take the lock of the run of ``results_dir`` for the life of this process, unless ``argv`` (Snakemake's command
    line) executes no job.

    Raises
    ------
    ConfigError
        When another process holds it and ``argv`` would execute jobs: one line naming that process.
    """
    path = run_record(results_dir, root).with_suffix(".lock")
    if path in _HELD:
        return
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        descriptor = os.open(path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC | os.O_NOFOLLOW, 0o600)
    except OSError as exc:
        raise ConfigError(f"{path}: cannot open the lock of the run of results_dir {results_dir!r} ({exc})") from None
    try:
        fcntl.flock(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        holder = os.pread(descriptor, 32, 0).decode("ascii", "replace").strip() or "unknown"
        os.close(descriptor)
        if _executes_no_job(argv):
            return
        raise ConfigError(
            f"another run writes results_dir {results_dir!r} (process {holder}, lock {path}); wait for it to "
            "end, or follow it with a dry run (-n)"
        ) from None
    os.ftruncate(descriptor, 0)
    os.pwrite(descriptor, f"{os.getpid()}\n".encode("ascii"), 0)
    _HELD[path] = descriptor


def _executes_no_job(argv: Sequence[str]) -> bool:
    """Whether Snakemake's command line ``argv`` asks for a dry run or another command that executes no job (read
    with Snakemake's own parser; a line it cannot read executes jobs)."""
    from snakemake.cli import get_argument_parser  # read only when another run holds the lock

    try:
        options, _ = get_argument_parser().parse_known_args(list(argv))
    except SystemExit:
        return False
    return any(getattr(options, name, None) for name in NO_JOB_OPTIONS)
