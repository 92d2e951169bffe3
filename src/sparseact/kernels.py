"""Compile the library's numba kernels once, ahead of the jobs that use them.

Every compiled kernel of the library is declared with ``cache=True``: numba writes
the machine code next to the source (or under ``NUMBA_CACHE_DIR``) and later
processes load it in a fraction of a second. On a fresh checkout, though, two jobs
that start together would each compile the same kernels. Importing this module is cheap (no numpy): the
workflow reads :data:`KERNEL_GROUPS` at every start-up. :func:`compile_kernels` calls every
compiled code path of a group once on a tiny input, in one process, so the workflow's ``kernels``
jobs, one per group and side by side on two cores, fill the cache before the *runs* stage starts. Each
compiles under its group's :func:`compilation_lock`, which every shard takes (shared) before it starts
(:func:`wait_for_compilation`): a shard that starts while a kernels job compiles waits for it, instead of
compiling the same kernels again. No shard takes a kernels job's output as input, so recompiling reruns no
shard.

The tiny inputs go through the public functions, which normalise their arguments
(float64 arrays, Python floats and ints), so the compiled signatures are the ones
the real computations use.
"""

from __future__ import annotations

import fcntl
import os
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path

#: The source files that define compiled kernels (a kernel's cache is invalidated when its file changes), in two
#: groups that the workflow compiles in two jobs side by side: the Rademacher lower-bound search (``search``) and the
#: cube's transforms and scans (``cube``). One job compiling both would keep the other core waiting for it once the
#: data jobs are done.
KERNEL_GROUPS = {
    "cube": ("sparseact.analysis", "sparseact.cube_scan", "sparseact.sensitivity.lemma9"),
    "search": ("sparseact.complexity.assignment", "sparseact.complexity.barrier_polish", "sparseact.complexity.lower"),
}

#: Every module of :data:`KERNEL_GROUPS`.
KERNEL_MODULES = tuple(module for modules in KERNEL_GROUPS.values() for module in modules)


def lock_path(group: str) -> Path:
    """The group's lock file beside numba's cache: ``$NUMBA_CACHE_DIR``, else the library's ``__pycache__``."""
    directory = os.environ.get("NUMBA_CACHE_DIR") or Path(__file__).resolve().parent / "__pycache__"
    return Path(directory) / f"sparseact-kernels-{_known_group(group)}.lock"


def _known_group(group: str) -> str:
    if group not in KERNEL_GROUPS:
        raise ValueError(f"unknown kernel group {group!r}; the groups are {', '.join(KERNEL_GROUPS)}")
    return group


@contextmanager
def compilation_lock(group: str, exclusive: bool, wait: bool = True) -> Iterator[bool]:
    """Hold ``group``'s lock: ``exclusive`` while compiling, shared to wait for a compilation in progress. Yields
    whether the lock is held: always, unless ``wait`` is false and another process holds it in the other mode."""
    path = lock_path(group)
    path.parent.mkdir(parents=True, exist_ok=True)
    # readable by its owner only: another local user who could open it could hold the lock and stall every run
    descriptor = os.open(path, os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW, 0o600)
    os.fchmod(descriptor, 0o600)
    with os.fdopen(descriptor, "a", encoding="utf-8") as handle:
        try:
            fcntl.flock(handle, (fcntl.LOCK_EX if exclusive else fcntl.LOCK_SH) | (0 if wait else fcntl.LOCK_NB))
        except BlockingIOError:
            yield False
            return
        try:
            yield True
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def wait_for_compilation(groups: Iterable[str] | None = None) -> None:
    """Return once no process compiles one of ``groups`` (``None``: every group of :data:`KERNEL_GROUPS`) under
    :func:`compilation_lock` (at once if none does).

    A shard waits only for the groups its claim's code imports (:func:`sparseact.claims.kernel_groups`): on a fresh
    cache, the shards that need only the cube's kernels start once those are compiled, beside the longer compilation
    of the lower-bound search.
    """
    for group in KERNEL_GROUPS if groups is None else [_known_group(group) for group in groups]:
        with compilation_lock(group, exclusive=False):
            pass


class CompilationRefused(RuntimeError):
    """What :func:`load_compiled_kernels` stops at: numba was about to compile a kernel the cache did not hold."""


def load_compiled_kernels(group: str) -> bool:
    """Load ``group``'s kernels from numba's cache into this process, compiling none.

    The warm job server (:mod:`sparseact.runtime.accel.jobserver`) calls this before it forks a job, so that the jobs
    forked once a group's kernels job is done start with its kernels loaded instead of each loading them itself.
    It never compiles: a kernel missing from the cache, or stale (its file edited since),
    stops the load at numba's ``numba:compile`` event, before the compiler starts; and while a kernels job compiles
    the group (its :func:`compilation_lock` held), nothing is loaded at all.

    Returns
    -------
    bool
        ``True`` when every kernel of the group is loaded; ``False`` when the group is being compiled or one of its
        kernels is not in the cache (those loaded before it stay loaded, and a later call loads the rest).

    Raises
    ------
    ValueError
        When ``group`` is not a key of :data:`KERNEL_GROUPS`.
    """
    _known_group(group)
    # deferred: Snakemake imports this module at start-up (KERNEL_MODULES); numba loads only to load kernels
    from numba.core import event

    class RefuseCompilation(event.Listener):
        def on_start(self, event):
            raise CompilationRefused(f"{event.data['dispatcher'].py_func.__qualname__} is not in numba's cache")

        def on_end(self, event):
            pass

    with compilation_lock(group, exclusive=False, wait=False) as held:
        if not held:
            return False
        try:
            with event.install_listener("numba:compile", RefuseCompilation()):
                compile_kernels(group)
        except CompilationRefused:
            return False
    return True


def compile_kernels(group: str | None = None) -> list[str]:
    """Compile (or load from numba's cache) every kernel of ``group`` of :data:`KERNEL_GROUPS` (``None``: all).

    Returns
    -------
    list of str
        ``"<module>.<kernel>"`` for every kernel of the group's modules, sorted. Only
        names: which signatures numba lists depends on whether a kernel was compiled in
        this process or loaded from the cache (a kernel compiled only inside another
        lists none when loaded), and the record must not depend on the cache.

    Raises
    ------
    ValueError
        When ``group`` is not a key of :data:`KERNEL_GROUPS`.
    """
    groups = list(KERNEL_GROUPS) if group is None else [_known_group(group)]
    # deferred: Snakemake imports this module at start-up (KERNEL_MODULES); the kernels load only to compile
    import importlib

    import numpy as np

    from sparseact import analysis, complexity, cube_scan, families, sensitivity
    from sparseact.complexity.assignment import best_assignment
    from sparseact.networks import SparseReLUNetwork

    if "cube" in groups:
        analysis.level_weights(np.arange(16, dtype=float))
        analysis.influences(np.arange(16, dtype=float))
        analysis.influences(np.zeros(1 << analysis._PARSEVAL_MIN_N))  # the eighths' path (2 MiB)
        net = SparseReLUNetwork([1.0, -0.5], [[1.0, 0.5, -1.0], [0.0, 1.0, 1.0]], [0.5, 1.0])
        sensitivity.lemma9_decomposition(net)
        net.max_active()
        net.truth_table()
        cube_scan.threshold_edge_counts(np.arange(16, dtype=float), 7.5)
        cube_scan.gaussian_tail_ratio(np.arange(16, dtype=float) - 7.5, 2.0)
        families.densest_threshold(net.W, 1)
    if "search" in groups:
        rng = np.random.default_rng(0)
        best_assignment(np.array([[True, False], [False, True]]), np.array([1.0, 2.0]), 2, 1)
        X = np.where(rng.standard_normal((8, 3)) > 0, 1.0, -1.0)
        complexity.rademacher_lower_bound(X, 2, 1, 1.0, 1.0, 2, rng, restarts=1, iterations=2, rounds=1)
        complexity.rademacher_lower_bound(X, 2, 1, 1.0, 0.0, 2, rng, restarts=1, iterations=2, rounds=1)

    record = []
    for name in (module for group in groups for module in KERNEL_GROUPS[group]):
        module = importlib.import_module(name)
        for attribute, value in sorted(vars(module).items()):
            if hasattr(value, "signatures") and hasattr(value, "py_func"):
                record.append(f"{name}.{attribute}")
    return sorted(record)
