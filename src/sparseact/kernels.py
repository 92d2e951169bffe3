"""Compile the library's numba kernels once, ahead of the jobs that use them.

Every compiled kernel of the library is declared with ``cache=True``: numba writes
the machine code next to the source (or under ``NUMBA_CACHE_DIR``) and later
processes load it in a fraction of a second. On a fresh checkout, though, two jobs
that start together would each compile the same kernels (about a minute of CPU for
the Rademacher lower-bound search alone). Importing this module is cheap (no numpy): the
workflow reads :data:`KERNEL_MODULES` at every start-up. :func:`compile_kernels` calls every
compiled code path once on a tiny input, in one process, so the workflow's ``kernels``
job fills the cache before the *runs* stage starts. It compiles under
:func:`compilation_lock`, which every shard takes (shared) before it starts: a shard
that starts while the kernels job compiles waits for it, instead of compiling the same
kernels again. No shard takes the kernels job's output as input, so recompiling reruns no shard.

The tiny inputs go through the public functions, which normalise their arguments
(float64 arrays, Python floats and ints), so the compiled signatures are the ones
the real computations use.
"""

from __future__ import annotations

import fcntl
import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

#: Source files that define compiled kernels; the cache of a kernel is invalidated when its file changes.
KERNEL_MODULES = (
    "sparseact.analysis",
    "sparseact.cube_scan",
    "sparseact.sensitivity.lemma9",
    "sparseact.complexity.assignment",
    "sparseact.complexity.barrier_polish",
    "sparseact.complexity.lower",
)


#: Name of the lock file, in numba's cache directory of the library.
LOCK_NAME = "sparseact-kernels.lock"


def lock_path() -> Path:
    """The lock file beside numba's cache: ``$NUMBA_CACHE_DIR``, else the library's ``__pycache__``."""
    directory = os.environ.get("NUMBA_CACHE_DIR") or Path(__file__).resolve().parent / "__pycache__"
    return Path(directory) / LOCK_NAME


@contextmanager
def compilation_lock(exclusive: bool) -> Iterator[None]:
    """Hold the kernels' lock: ``exclusive`` while compiling, shared to wait for a compilation in progress."""
    path = lock_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "a", encoding="utf-8") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX if exclusive else fcntl.LOCK_SH)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def wait_for_compilation() -> None:
    """Return once no process compiles the kernels under :func:`compilation_lock` (at once if none does)."""
    with compilation_lock(exclusive=False):
        pass


def compile_kernels() -> list[str]:
    """Compile (or load from numba's cache) every kernel of :data:`KERNEL_MODULES`.

    Returns
    -------
    list of str
        ``"<module>.<kernel>"`` for every kernel of :data:`KERNEL_MODULES`, sorted. Only
        names: which signatures numba lists depends on whether a kernel was compiled in
        this process or loaded from the cache (a kernel compiled only inside another
        lists none when loaded), and the record must not depend on the cache.
    """
    # deferred: Snakemake imports this module at start-up (KERNEL_MODULES); the kernels load only to compile
    import importlib

    import numpy as np

    from sparseact import analysis, complexity, families, sensitivity
    from sparseact.complexity.assignment import best_assignment
    from sparseact.networks import SparseReLUNetwork

    rng = np.random.default_rng(0)
    analysis.level_weights(np.arange(16, dtype=float))
    analysis.influences(np.arange(16, dtype=float))
    analysis.influences(np.zeros(1 << analysis._PARSEVAL_MIN_N))  # the eighths' path (2 MiB)
    net = SparseReLUNetwork([1.0, -0.5], [[1.0, 0.5, -1.0], [0.0, 1.0, 1.0]], [0.5, 1.0])
    sensitivity.lemma9_decomposition(net)
    net.max_active()
    families.densest_threshold(net.W, 1)
    best_assignment(np.array([[True, False], [False, True]]), np.array([1.0, 2.0]), 2, 1)
    X = np.where(rng.standard_normal((8, 3)) > 0, 1.0, -1.0)
    complexity.rademacher_lower_bound(X, 2, 1, 1.0, 1.0, 2, rng, restarts=1, iterations=2, rounds=1)
    complexity.rademacher_lower_bound(X, 2, 1, 1.0, 0.0, 2, rng, restarts=1, iterations=2, rounds=1)

    record = []
    for name in KERNEL_MODULES:
        module = importlib.import_module(name)
        for attribute, value in sorted(vars(module).items()):
            if hasattr(value, "signatures") and hasattr(value, "py_func"):
                record.append(f"{name}.{attribute}")
    return sorted(record)
