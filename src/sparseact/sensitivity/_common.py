"""Shared by the modules of :mod:`sparseact.sensitivity`: the exact computations' size limits, the network check."""

from __future__ import annotations

from sparseact._validation import max_cube_dim
from sparseact.networks import check_network

#: Bytes the exact whole-cube computations here hold per cube point: the truth table and the active sets
#: (float64 and uint64) and the transform's working copies of the table (:mod:`sparseact.analysis`).
CUBE_BYTES_PER_POINT = 32
#: Largest input dimension for the exact whole-cube computations here: what the memory limit allows
#: (:data:`sparseact._validation.MEMORY_LIMIT_BYTES`) at :data:`CUBE_BYTES_PER_POINT`.
MAX_EXACT_DIM = max_cube_dim(CUBE_BYTES_PER_POINT)
#: Largest number of neurons: active sets are packed into one uint64 per point.
MAX_NEURONS = 64
#: float64 entries per chunk of preactivations (16 MiB): below the jobs' mmap threshold
#: (:data:`sparseact.runtime.provenance.JOB_MALLOC`), so the allocator reuses a chunk's pages instead of faulting
#: fresh ones for every chunk.
_CHUNK_ENTRIES = 1 << 21


def _check_net(net, max_dim: int = MAX_EXACT_DIM) -> tuple[int, int]:
    check_network(net)
    n, s = net.n_inputs, net.n_neurons
    if n < 1 or n > max_dim:
        raise ValueError(
            f"the network's input dimension must be in [1, {max_dim}] for exact enumeration of the cube, got n={n}"
        )
    if s < 1 or s > MAX_NEURONS:
        raise ValueError(
            f"the network must have between 1 and {MAX_NEURONS} neurons (active sets are "
            f"packed into uint64 bitmasks), got s={s}"
        )
    return n, s
