"""Compile the library's numba kernels once, ahead of the jobs that use them.

Every compiled kernel of the library is declared with ``cache=True``: numba writes
the machine code next to the source (or under ``NUMBA_CACHE_DIR``) and later
processes load it in a fraction of a second. On a fresh checkout, though, two jobs
that start together would each compile the same kernels (about a minute of CPU for
the Rademacher lower-bound search alone). Importing this module is cheap (no numpy): the
workflow reads :data:`KERNEL_MODULES` at every start-up. :func:`compile_kernels` calls every
compiled code path once on a tiny input, in one process, so the workflow's ``kernels``
job fills the cache before the *runs* stage starts.

The tiny inputs go through the public functions, which normalise their arguments
(float64 arrays, Python floats and ints), so the compiled signatures are the ones
the real computations use.
"""

from __future__ import annotations

#: Source files that define compiled kernels; the cache of a kernel is invalidated when its file changes.
KERNEL_MODULES = (
    "sparseact.analysis",
    "sparseact.cube_scan",
    "sparseact.sensitivity",
    "sparseact.complexity.assignment",
    "sparseact.complexity.lower",
)


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
    import importlib

    import numpy as np

    from sparseact import analysis, complexity, families, sensitivity
    from sparseact.complexity.assignment import best_assignment
    from sparseact.networks import SparseReLUNetwork

    rng = np.random.default_rng(0)
    analysis.level_weights(np.arange(16, dtype=float))
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
