"""Shared by the modules of :mod:`sparseact.sensitivity`: the exact computations' size limits, the network check."""

from __future__ import annotations

from sparseact.networks import check_network

#: Largest input dimension for the exact whole-cube computations here.
MAX_EXACT_DIM = 22
#: Largest number of neurons: active sets are packed into one uint64 per point.
MAX_NEURONS = 64
#: float64 entries per chunk of preactivations (32 MiB).
_CHUNK_ENTRIES = 1 << 22


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
