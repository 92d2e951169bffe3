"""Work arrays a runs stage keeps from one grid point to the next of its shard.

An array above glibc's mmap threshold (the jobs' ``MALLOC_MMAP_THRESHOLD_``, 32 MiB: a table of ``2**22`` float64
and up) is mapped afresh by every allocation and its pages faulted in again, a cost in system time that grows
with the cube. A stage whose points tabulate cubes of the same size takes its arrays from here instead: one per
name, reallocated only when the shape or type changes. The contents are undefined on return (whatever the last
point left), and an array must not outlive the point that asked for it: the next point overwrites it.
"""

from __future__ import annotations

import numpy as np

_ARRAYS: dict[str, np.ndarray] = {}


def work_array(name: str, shape: int | tuple[int, ...], dtype=np.float64) -> np.ndarray:
    """The array kept under ``name`` with ``shape`` and ``dtype`` (C-contiguous, uninitialised), allocated when the
    kept one differs.

    ``name`` is the caller's own (a module and a role, ``"lemma6.values"``): two live uses of one name would share
    memory.
    """
    shape = (shape,) if isinstance(shape, (int, np.integer)) else tuple(shape)
    dtype = np.dtype(dtype)
    kept = _ARRAYS.get(name)
    if kept is None or kept.shape != shape or kept.dtype != dtype:
        _ARRAYS.pop(name, None)  # the old array freed before the new one is mapped
        kept = _ARRAYS[name] = np.empty(shape, dtype=dtype)
    return kept
