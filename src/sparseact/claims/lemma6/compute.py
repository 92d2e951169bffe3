"""Data and runs stages of the claim ``lemma6``: ``generate(point, rng)`` and ``run(point, data, rng)``.

The grid and what the claim checks: :mod:`sparseact.claims.lemma6`.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from sparseact import bounds, sensitivity
from sparseact.claims._buffers import work_array
from sparseact.claims._failures import with_worst, worst_instance
from sparseact.claims.lemma6 import CORRECTED_FACTOR
from sparseact.cube_scan import gaussian_tail_ratio, threshold_edge_counts, threshold_words
from sparseact.networks import SparseReLUNetwork

#: Halfspace families, in the order they are stored (:func:`sparseact.sensitivity.halfspace_family`).
KINDS = ("majority-like", "random-gaussian", "random-positive")


def generate(point: dict, rng):
    """The halfspaces ``(w, b)`` of the point: arrays ``w`` (m, n), ``b`` (m,), ``kind`` (m,) strings."""
    ws, bs, kinds = [], [], []
    for kind in KINDS:
        for w, b in sensitivity.halfspace_family(
            point["n"], rng, kind, thresholds=point["thresholds"], draws=point["random_draws"]
        ):
            ws.append(w)
            bs.append(b)
            kinds.append(kind)
    return {"w": np.asarray(ws, dtype=float), "b": np.asarray(bs, dtype=float), "kind": np.asarray(kinds)}


def run(point: dict, data: dict, rng):
    r"""Per halfspace: ``p``, ``AS(g) = (1/4) sum_i Pr[g(x) != g(x^{(+)i})]`` and ``E[g sum_i x_i]``, exactly.

    ``<w, x>`` is enumerated once per weight vector (:meth:`SparseReLUNetwork.cube_preactivations`)
    and ``g = 1{<w, x> <= b}`` is read off it for each threshold; AS is counted edge by
    edge from its definition (Section 2.1), independently of the identity under test.
    """
    n = point["n"]
    N = 1 << n
    rows, weights, key, hoeffding = [], [], None, []
    # one array each for <w, x> on the cube, the sorted |<w, x>| (two rows) and a threshold's packed table, reused
    values, scratch = work_array("lemma6.values", N), work_array("lemma6.sorted", (2, N))
    words = work_array("lemma6.words", threshold_words(N), np.uint64)
    for j, (w, b, kind) in enumerate(zip(data["w"], data["b"], data["kind"], strict=True)):
        if w.tobytes() != key:
            key = w.tobytes()
            SparseReLUNetwork([1.0], w[None, :], [0.0]).cube_preactivation_table(out=values)
            hoeffding.append(dict(n=n, kind=str(kind), index=j, ratio=hoeffding_ratio(values, w, scratch)))
        ones, sums, flips = threshold_edge_counts(values, b, words)  # g = 1{<w, x> <= b}
        p = float(ones) / N
        as_value = float(flips.sum()) / (4.0 * N)
        correlation = float(sums.sum()) / N  # E[g(x) sum_i x_i]
        expression = float(bounds.lemma6_halfspace_as(p, n)) if 0 < p <= 1 else float("nan")
        corrected_rhs = CORRECTED_FACTOR * correlation
        rows.append(
            dict(
                n=n,
                kind=str(kind),
                index=j,
                b=float(b),
                positive=bool(np.all(w > 0)),
                p=p,
                AS=as_value,
                expression=expression,
                ratio=as_value / expression if 0 < p < 1 else float("nan"),
                correlation_with_sum=correlation,
                printed_rhs=correlation / 4.0,
                corrected_rhs=corrected_rhs,
                printed_error=abs(as_value - correlation / 4.0),
                corrected_error=abs(as_value - corrected_rhs),
            )
        )
        weights.append(w)
    return with_worst(
        {
            "lemma6": pd.DataFrame(rows),
            "lemma6-hoeffding": pd.DataFrame(hoeffding),
            "lemma6-pm1": pd.DataFrame(pm1_rows(min(n, PM1_MAX_N))),
        },
        worst_corrected(rows, weights),
    )


def hoeffding_ratio(values, w, scratch: np.ndarray | None = None) -> float:
    """``max_{u > 0} Pr_x[|<w, x>| >= u] / (2 exp(-u^2 / (2 ||w||^2)))`` over the values ``u`` taken, exactly.

    ``values`` holds ``<w, x>`` for every ``x`` of the cube (Hoeffding 1963, Thm 2: the ratio is at most 1).
    ``scratch``: float64, shape ``(2, values.size)``, reused across calls (:func:`sparseact.cube_scan.gaussian_tail_ratio`).
    """
    norm2 = float(np.dot(w, w))
    if norm2 == 0:
        return 0.0
    return gaussian_tail_ratio(np.ascontiguousarray(values, dtype=float).reshape(-1), norm2, scratch)


#: Largest ``n`` at which every ``f : {-1, 1}^n -> {-1, 1}`` is enumerated (``2^(2^n)`` functions).
PM1_MAX_N = 3


def pm1_rows(n_max: int) -> list[dict]:
    """For every ``f : {-1,1}^n -> {-1,1}``, ``n <= n_max``: max over ``x`` of ``|sen_f(x) - #{i : f(x) != f(x^i)}|``.

    ``sen_f(x) = (1/4) sum_i (f(x) - f(x^{(+)i}))^2`` (Section 2.1); exact.
    """
    rows = []
    for n in range(1, n_max + 1):
        N = 1 << n
        worst = 0.0
        for code in range(1 << N):
            f = np.array([1.0 if (code >> x) & 1 else -1.0 for x in range(N)])
            sen = sum(0.25 * (f - f[np.arange(N) ^ (1 << i)]) ** 2 for i in range(n))
            flips = sum((f != f[np.arange(N) ^ (1 << i)]).astype(float) for i in range(n))
            worst = max(worst, float(np.abs(sen - flips).max()))
        rows.append(dict(n=n, functions=1 << N, max_error=worst))
    return rows


def worst_corrected(rows: list[dict], weights: list) -> list[dict]:
    """The worst instance of the identity ``AS = CORRECTED_FACTOR E[g sum_i x_i]`` among the point's halfspaces
    (measure ``"corrected-error"``), with its raw data.

    The identity's range is ``w > 0`` and ``0 < p < 1``; among those halfspaces, the first with the largest
    ``|AS - CORRECTED_FACTOR E[g sum_i x_i]|``.

    Parameters
    ----------
    rows : list of dict
        The halfspaces' rows of the ``lemma6`` table.
    weights : list of ndarray
        Their weights ``w``.

    Returns
    -------
    list of dict
        No row when no halfspace is in range, else one :func:`sparseact.claims._failures.worst_instance` row
        (data: ``w``, the threshold ``b``, ``AS``, the right side ``rhs``, ``kind`` and ``n``).
    """
    in_range = [j for j, row in enumerate(rows) if row["positive"] and 0 < row["p"] < 1]
    if not in_range:
        return []
    j = max(in_range, key=lambda i: rows[i]["corrected_error"])
    row = rows[j]
    return [
        worst_instance(
            "corrected-error",
            row["corrected_error"],
            f"{row['kind']} halfspace {row['index']}, n={row['n']}, b={row['b']:g}, p={row['p']:.4g}",
            w=[float(v) for v in weights[j]],
            b=row["b"],
            AS=row["AS"],
            rhs=row["corrected_rhs"],
            kind=row["kind"],
            n=row["n"],
        )
    ]
