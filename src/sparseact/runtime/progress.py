"""Progress lines for long computations, written to a log file (never to stdout).

A workflow job calls :func:`configure` with its ``log:`` file; loops then wrap
their iterables in :func:`track`, which appends lines such as::

    lemma9 n16: 12/48 done, 31.2 s elapsed, about 93 s left

at most every :data:`INTERVAL` seconds (and at the end). Nothing is printed to
the notebook, so executed notebooks stay identical from run to run. Without
:func:`configure`, :func:`track` is a plain pass-through.
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Iterator
from pathlib import Path

from sparseact.runtime.provenance import full_disk

#: Shortest time between two progress lines, in seconds.
INTERVAL = 5.0

_log_path: Path | None = None


def configure(log_path: str | Path | None) -> None:
    """Send progress lines to ``log_path`` (appended); ``None`` switches them off."""
    global _log_path
    _log_path = Path(log_path) if log_path else None


def message(text: str) -> None:
    """Append one line to the progress log (if configured); a full disk is one line naming the log."""
    if _log_path is not None:
        try:
            with open(_log_path, "a", encoding="utf-8") as handle:
                handle.write(text + "\n")
        except OSError as exc:
            raise full_disk(exc, _log_path, "the job's progress log, its last line may be cut") from None


def track(items: Iterable, label: str, total: int | None = None) -> Iterator:
    """Yield ``items``, logging ``done/total``, elapsed time and an estimate of the rest."""
    if _log_path is None:
        yield from items
        return
    if total is None:
        try:
            total = len(items)  # type: ignore[arg-type]
        except TypeError:
            total = None
    start = last = time.monotonic()
    message(f"{label}: started, {total if total is not None else '?'} items")
    for done, item in enumerate(items, start=1):
        yield item
        now = time.monotonic()
        if now - last >= INTERVAL or done == total:
            last = now
            elapsed = now - start
            rest = f", about {elapsed / done * (total - done):.0f} s left" if total else ""
            message(f"{label}: {done}/{total if total is not None else '?'} done, {elapsed:.1f} s elapsed{rest}")
