"""Data and runs stages of the claim ``section1_index``: ``generate(point, rng)`` and ``run(point, data, rng)``.

The grid and what the claim checks: :mod:`sparseact.claims.section1_index`.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from sparseact import constructions
from sparseact.claims._failures import violation, with_violations
from sparseact.cube import hypercube, iter_hypercube
from sparseact.runtime.datafiles import network_arrays, network_from_arrays
from sparseact.verify import certificates as cert
from sparseact.verify.verdicts import verdict_equal

#: ``Index_b(z)`` in {0, 1} from the input list ``z`` (a certificate formula); the address has bit i set iff z_i < 0.
INDEX_EXPR = "(z[b + sum(2**i for i in range(b) if z[i] < 0)] + 1) / 2"


def generate(point: dict, rng) -> dict:
    return network_arrays(constructions.index_network(point["b"]), "net")


def run(point: dict, data: dict, rng) -> dict:
    b = point["b"]
    net, target = network_from_arrays(data, "net"), constructions.index_function(b)
    n = b + (1 << b)
    contribution = np.zeros(net.n_neurons)  # max_x |u_j sigma(<w_j, x> - b_j)| = max |h - h_{-j}|
    err, max_active, one_active, first_failure = 0.0, 0, 0, ""
    worst_error, worst_active = None, None  # inputs where the error / the active count is largest, if violated
    for X in iter_hypercube(n, 1 << 16):
        values, active = net.evaluate(X)
        contribution = np.maximum(contribution, np.abs(np.maximum(net.preactivations(X), 0.0) * net.u).max(axis=0))
        expected = target(X)
        _, e, bad = verdict_equal(values, expected)
        if bad is not None and not first_failure:
            z = "(" + ", ".join(f"{v:g}" for v in X[bad]) + ")"
            first_failure = f"b={b}, z={z}: h={values[bad]:g}, Index={expected[bad]:g}"
        if bad is not None and e > err:
            worst_error = X[int(np.argmax(np.abs(values - expected)))]
        if active.max(initial=0) > max(max_active, 1):
            worst_active = X[int(np.argmax(active))]
        err, max_active = max(err, e), max(max_active, int(active.max(initial=0)))
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
    return with_violations(
        {"index": pd.DataFrame([row]), "deletion": pd.DataFrame(deletion)},
        violations(net, b, worst_error, worst_active),
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


def violations(net, b: int, worst_error, worst_active) -> list[dict]:
    """Certified violations of the two checks by the network of one ``b`` (normally none).

    Parameters
    ----------
    net : SparseReLUNetwork
        The network the runs stage evaluated.
    b : int
        The address length.
    worst_error : ndarray or None
        An input where ``|h - Index_b|`` is largest, when the network differs from ``Index_b`` somewhere.
    worst_active : ndarray or None
        An input with the most active neurons, when some input has more than one.

    Returns
    -------
    list of dict
        :func:`sparseact.claims._failures.violation` rows: ``h(z) == Index_b(z)`` violated at
        ``worst_error``; ``#active(z) <= 1`` violated at ``worst_active``; ``s <= 2^b`` violated.
    """
    spec, rows = cert.network_spec(net), []
    if worst_error is not None:
        z = [float(v) for v in worst_error]
        h, index = float(net(np.asarray([z]))[0]), float(constructions.index_function(b)(np.asarray([z]))[0])
        rows.append(
            violation(
                "section1_index/computes",
                abs(h - index),
                f"b={b}, z={tuple(int(v) for v in z)}",
                cert.certificate(
                    "==",
                    cert.quantity("value", function={"network": spec}, x=z),
                    cert.formula(INDEX_EXPR, z=z, b=b),
                    h,
                    index,
                    "h(z)",
                    "Index_b(z)",
                    "the network differs from Index_b on this input",
                ),
            )
        )
    if worst_active is not None:
        z = [float(v) for v in worst_active]
        count = int(net.evaluate(np.asarray([z]))[1][0])
        rows.append(
            violation(
                "section1_index/sparsity",
                count - 1,
                f"b={b}, z={tuple(int(v) for v in z)}",
                cert.certificate(
                    "<=",
                    cert.quantity("active_count", network=spec, x=z),
                    cert.formula("k", k=1),
                    count,
                    1,
                    "active neurons at z",
                    "k",
                    "more than one neuron fires on this input",
                ),
            )
        )
    if net.n_neurons > 2**b:
        rows.append(
            violation(
                "section1_index/sparsity",
                net.n_neurons - 2**b,
                f"b={b}",
                cert.certificate(
                    "<=",
                    cert.formula("sum(1 for a in u)", u=spec["u"]),
                    cert.formula("2**b", b=b),
                    net.n_neurons,
                    2**b,
                    "s",
                    "2^b",
                    "the network has more than 2^b neurons",
                ),
            )
        )
    return rows
