"""Conditions on grid points that several claims share.

Plain Python: claims' grids call these in ``points``, which the workflow reads
without loading the numerical layers.
"""

from __future__ import annotations


def bucket_feasible(n: int, s: int, k: int) -> bool:
    """Whether :func:`sparseact.families.bucket_network` exists for ``(n, s, k)``.

    It needs ``s >= 2k`` (at least one pattern bit per block, ``p = floor(log2(s/k)) >= 1``)
    and ``n >= k p`` (the ``k`` blocks use disjoint coordinates).

    Parameters
    ----------
    n, s, k : int
        Input dimension, neurons, active neurons.

    Returns
    -------
    bool
    """
    return s >= 2 * k and n >= k * ((s // k).bit_length() - 1)
