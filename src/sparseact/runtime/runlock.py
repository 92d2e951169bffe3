"""One run at a time per results folder: a lock the Snakefile takes before Snakemake builds its DAG.

Snakemake locks a checkout only after building the DAG, and a second run started within seconds of a first can meet a
file the first is replacing while it builds its own: it then stops on "Write-protected output files", which is not
true, rather than on the lock. The run that executes jobs holds an exclusive :func:`fcntl.flock` on its results
folder's record (:func:`sparseact.runtime.config.run_record`) from the Snakefile's first lines to its end; the kernel
drops the lock with the process, so a killed run leaves no stale lock. A second such run is refused in one line; a dry
run or another command that executes no job neither takes the lock nor waits for it, as Snakemake lets it go on.
"""

from __future__ import annotations

import fcntl
import os
import stat
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

#: The option strings of :data:`NO_JOB_OPTIONS` (tests/test_runlock.py holds them to Snakemake's parser), and their
#: short letters: a command line with none of them, nor an abbreviation of one, runs jobs without being parsed.
NO_JOB_FLAGS = (
    "--dry-run",
    "--dryrun",
    "--lint",
    "--list-rules",
    "--list",
    "--list-target-rules",
    "--lt",
    "--summary",
    "--detailed-summary",
    "--dag",
    "--rulegraph",
    "--filegraph",
)
NO_JOB_LETTERS = "nlSD"

#: The lock held by this process, per lock file (a second Snakemake run in one process keeps it).
_HELD: dict[Path, int] = {}


def hold_run_lock(results_dir: str, argv: Sequence[str], root: str | Path = ".") -> None:
    """Take the lock of the run of ``results_dir`` for the life of this process, unless ``argv`` (Snakemake's command
    line) executes no job: a dry run neither takes it nor waits for it.

    Raises
    ------
    ConfigError
        When another process holds it, or the lock is not a regular file it can open: one line naming either.
    """
    path = run_record(results_dir, root).with_suffix(".lock")
    if path in _HELD or _executes_no_job(argv):
        return
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        descriptor = os.open(path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC | os.O_NOFOLLOW | os.O_NONBLOCK, 0o600)
    except OSError as exc:
        raise ConfigError(f"{path}: cannot open the lock of the run of results_dir {results_dir!r} ({exc})") from None
    if not stat.S_ISREG(os.fstat(descriptor).st_mode):
        os.close(descriptor)
        raise ConfigError(
            f"{path}: the lock of the run of results_dir {results_dir!r} is not a regular file; delete it"
        )
    try:
        fcntl.flock(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        holder = os.pread(descriptor, 32, 0).decode("ascii", "replace").strip() or "unknown"
        os.close(descriptor)
        raise ConfigError(
            f"another run writes results_dir {results_dir!r} (process {holder}, lock {path}); wait for it to "
            "end, or follow it with a dry run (-n)"
        ) from None
    os.ftruncate(descriptor, 0)
    os.pwrite(descriptor, f"{os.getpid()}\n".encode("ascii"), 0)
    _HELD[path] = descriptor


def _executes_no_job(argv: Sequence[str]) -> bool:
    """Whether Snakemake's command line ``argv`` asks for a dry run or another command that executes no job (read
    with Snakemake's own parser where a token may name one of :data:`NO_JOB_FLAGS`; a line it cannot read executes
    jobs)."""
    if not any(_may_name_no_job(token) for token in argv):
        return False
    from snakemake.cli import get_argument_parser  # built only for a line that may name a command without jobs

    try:
        options, _ = get_argument_parser().parse_known_args(list(argv))
    except SystemExit:
        return False
    return any(getattr(options, name, None) for name in NO_JOB_OPTIONS)


def _may_name_no_job(token: str) -> bool:
    """Whether ``token`` of a command line may be one of :data:`NO_JOB_FLAGS` (or an abbreviation of it) or a cluster
    of short options holding one of :data:`NO_JOB_LETTERS`."""
    if token.startswith("--"):
        name = token.split("=", 1)[0]
        return len(name) > 2 and any(flag.startswith(name) for flag in NO_JOB_FLAGS)
    return token.startswith("-") and any(letter in NO_JOB_LETTERS for letter in token[1:])
