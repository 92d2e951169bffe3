"""Data and runs stages of the claim ``section1_index``: ``generate(point, rng)`` and ``run(point, data, rng)``.

The grid and what the claim checks: :mod:`sparseact.claims.section1_index`.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from sparseact import constructions
from sparseact.claims._failures import with_worst, worst_instance
from sparseact.cube import hypercube, iter_hypercube
from sparseact.runtime.datafiles import network_arrays, network_from_arrays


def generate(point: dict, rng) -> dict:
    return network_arrays(constructions.index_network(point["b"]), "net")


def run(point: dict, data: dict, rng) -> dict:
    b = point["b"]
    net, target = network_from_arrays(data, "net"), constructions.index_function(b)
    n = b + (1 << b)
    contribution = np.zeros(net.n_neurons)  # max_x |u_j sigma(<w_j, x> - b_j)| = max |h - h_{-j}|
    err, max_active, one_active, first_failure = 0.0, -1, 0, ""
    worst_error, worst_active = None, None  # the first inputs where |h - Index_b| / the active count is largest
    for X in iter_hypercube(n, 1 << 16):
        values, active = net.evaluate(X)
        contribution = np.maximum(contribution, np.abs(np.maximum(net.preactivations(X), 0.0) * net.u).max(axis=0))
        expected = target(X)
        gap = np.abs(values - expected)
        differs = np.flatnonzero(gap)
        if len(differs) and not first_failure:
            bad = int(differs[0])
            z = "(" + ", ".join(f"{v:g}" for v in X[bad]) + ")"
            first_failure = f"b={b}, z={z}: h={values[bad]:g}, Index={expected[bad]:g}"
        if gap.max(initial=0.0) > err:
            worst_error = X[int(np.argmax(gap))]
        if active.max(initial=0) > max_active:
            worst_active = X[int(np.argmax(active))]
        err, max_active = max(err, float(gap.max(initial=0.0))), max(max_active, int(active.max(initial=0)))
        one_active += int(np.count_nonzero(active == 1))
    row = dict(
        b=b,
        n=n,
        s=net.n_neurons,
        max_abs_error=err,
        max_active=max_active,
        fraction_one_active=one_active / 2**n,
        W=net.scale_W(),
        B=net.scale_B(),
        first_failure=first_failure,
    )
    deletion = [
        dict(
            network="Index_b",
            b=b,
            p=b,
            n=n,
            s=net.n_neurons,
            neuron=j,
            change=float(contribution[j]),
            nonzero_weights=int(np.count_nonzero(net.W[j])),
            expected_nonzero=b + 1,
        )
        for j in range(net.n_neurons)
    ]
    deletion += _junta_deletions(b)
    return with_worst(
        {"index": pd.DataFrame([row]), "deletion": pd.DataFrame(deletion)}, worst(net, b, worst_error, worst_active)
    )


#: Irrelevant coordinates added to the p-junta networks of the deletion check (n = p + JUNTA_EXTRA).
JUNTA_EXTRA = 4


def _junta_deletions(p: int) -> list[dict]:
    """Theorem 13's network of two p-juntas on ``n = p + JUNTA_EXTRA`` variables with ``s = 2^p`` neurons (the
    parity of the first p bits and the table ``f_j = 1`` iff ``j = 0 (mod 3)``, else ``-1``): for every neuron j,
    ``max_x |h(x) - h_{-j}(x)| = max_x |u_j sigma(<w_j, x> - p + 1)|`` over the whole cube, and its non-zero
    weights."""
    n = p + JUNTA_EXTRA
    X = hypercube(n)
    tables = {
        "parity junta": constructions.parity_truth_table(p),
        "mod-3 junta": np.where(np.arange(2**p) % 3 == 0, 1.0, -1.0),
    }
    rows = []
    for name, table in tables.items():
        net = constructions.junta_network(table, list(range(p)), n)
        contribution = np.abs(np.maximum(net.preactivations(X), 0.0) * net.u).max(axis=0)
        rows += [
            dict(
                network=name,
                b=p,
                p=p,
                n=n,
                s=net.n_neurons,
                neuron=j,
                change=float(contribution[j]),
                nonzero_weights=int(np.count_nonzero(net.W[j])),
                expected_nonzero=p,
            )
            for j in range(net.n_neurons)
        ]
    return rows


def worst(net, b: int, worst_error, worst_active) -> list[dict]:
    """The worst instances of the construction on the network of one ``b``: whether it computes ``Index_b`` and how
    sparse it is, with the raw data of their certificates.

    Parameters
    ----------
    net : SparseReLUNetwork
        The network the runs stage evaluated.
    b : int
        The address length.
    worst_error : ndarray or None
        The first input where ``|h - Index_b|`` is largest, when the network differs from ``Index_b`` somewhere.
    worst_active : ndarray
        The first input with the most active neurons.

    Returns
    -------
    list of dict
        :func:`sparseact.claims._failures.worst_instance` rows: measure ``"index-error"`` (``|h - Index_b|``) at
        ``worst_error`` (data ``u, W, b`` of the network, the address length ``bits``, the input ``z`` and ``h(z)``,
        ``Index_b(z)``), ``"active-count"`` (active neurons beyond one) at ``worst_active`` (``count``: its active
        neurons) and ``"neuron-count"`` (``s`` beyond ``2^b``).
    """
    spec = dict(u=net.u, W=net.W, b=net.b)
    rows = []
    if worst_error is not None:
        z = [float(v) for v in worst_error]
        h, index = float(net(np.asarray([z]))[0]), float(constructions.index_function(b)(np.asarray([z]))[0])
        where = f"b={b}, z={tuple(int(v) for v in z)}"
        rows.append(
            worst_instance("index-error", abs(h - index), where, kind="value", bits=b, z=z, h=h, index=index, **spec)
        )
    z = [float(v) for v in worst_active]
    count = int(net.evaluate(np.asarray([z]))[1][0])
    where = f"b={b}, z={tuple(int(v) for v in z)}"
    rows.append(worst_instance("active-count", count - 1, where, kind="active", bits=b, z=z, count=count, **spec))
    rows.append(
        worst_instance("neuron-count", net.n_neurons - 2**b, f"b={b}", kind="size", bits=b, s=net.n_neurons, **spec)
    )
    return rows
