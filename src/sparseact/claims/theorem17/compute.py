"""Data and runs stages of the claim ``theorem17``: ``generate(point, rng)`` and ``run(point, data, rng)``.

The grid and what the claim checks: :mod:`sparseact.claims.theorem17`.
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd

from sparseact import bounds, constructions
from sparseact.cube import hypercube
from sparseact.learners import LowDegreeRegressor, SparseActivationERM
from sparseact.runtime.datafiles import network_arrays, network_from_arrays

#: Learner names as they appear in the tables.
SPARSE, DENSE = "sparse ERM", "unconstrained"
#: Ridge of the low-degree baseline.
LOW_DEGREE_RIDGE = 1e-9


# ---------------------------------------------------------------------------
# data
# ---------------------------------------------------------------------------


def target_network(point: dict):
    """The realisable target: ``Index_b`` (Section 1) or the parity junta on the first ``p`` of ``n`` bits."""
    if point["target"] == "index":
        return constructions.index_network(point["b"])
    p = point["p"]
    return constructions.junta_network(constructions.parity_truth_table(p), list(range(p)), point["n"], s=2**p)


def target_label(point: dict) -> str:
    return f"Index_{point['b']}" if point["target"] == "index" else f"parity p={point['p']}, n={point['n']}"


def product_weights(n: int, bias: float):
    """Probabilities of the cube's points (hypercube order) under independent coordinates with Pr[x_i = 1] = bias."""
    ones = (hypercube(n) > 0).sum(axis=1)
    return bias**ones * (1 - bias) ** (n - ones)


def class_parameters(net, k: int = 1) -> dict:
    """``n, s, k, W, B, R`` of the class ``H_{n,s,k}^{W,B}`` the target is taken in (``R = sqrt(n)`` on the cube)."""
    n = net.n_inputs
    return dict(n=n, s=net.n_neurons, k=k, W=float(net.scale_W()), B=float(net.scale_B()), R=math.sqrt(n))


def expression(eps: float, delta: float, cls: dict) -> float:
    """Theorem 17's expression with hidden constant 1 (:func:`sparseact.bounds.theorem17_sample_complexity`)."""
    return float(
        bounds.theorem17_sample_complexity(eps, delta, cls["n"], cls["s"], cls["k"], cls["W"], cls["B"], cls["R"])
    )


def bound_sample_size(point: dict) -> int:
    """``ceil(multiple * expression)`` of a bound point."""
    cls = class_parameters(target_network(point))
    return math.ceil(point["multiple"] * expression(point["eps"], point["delta"], cls))


def generate(point: dict, rng) -> dict:
    """The target network and the samples: indices into the cube (grid) or multinomial counts (bound)."""
    net = target_network(point)
    weights = product_weights(net.n_inputs, point["bias"])
    data = network_arrays(net, "target")
    if point["kind"] == "grid":
        data["samples"] = np.stack(
            [rng.choice(weights.size, size=point["m"], p=weights) for _ in range(point["seeds"])]
        ).astype(np.int64)
    else:
        m = bound_sample_size(point)
        data["counts"] = np.stack([rng.multinomial(m, weights) for _ in range(point["seeds"])]).astype(np.int64)
    return data


# ---------------------------------------------------------------------------
# runs
# ---------------------------------------------------------------------------


def _sparse_learner(point: dict, cls: dict, state: int, enforce: bool = True):
    return SparseActivationERM(
        n_neurons=point["width_factor"] * cls["s"],
        k=cls["k"],
        W=cls["W"],
        B=cls["B"],
        n_restarts=point["restarts"],
        max_iter=point["max_iter"],
        random_state=state,
        enforce_sparsity=enforce,
    )


def _membership(fitted, Xs, cube, weights, cls) -> dict:
    """Definition 1-2 membership of a fitted sparse ERM, recomputed from its weights (exact)."""
    net = fitted.network_
    active_cube = net.active_counts(cube)
    return dict(
        s_learner=net.n_neurons,
        max_active_sample=int(net.active_counts(Xs).max(initial=0)),
        net_W=float(net.scale_W()),
        net_B=float(net.scale_B()),
        cube_mass_over_k=float(weights[active_cube > cls["k"]].sum()),
    )


def run(point: dict, data: dict, rng) -> dict:
    """Exact test loss of each learner on each sample (squared loss (1/2)(h - y)^2 under the product weights)."""
    net = network_from_arrays(data, "target")
    cls = class_parameters(net)
    cube = hypercube(cls["n"])
    y = net(cube)
    weights = product_weights(cls["n"], point["bias"])
    trivial = float(weights @ (0.5 * (y - weights @ y) ** 2))
    base = dict(
        target=target_label(point),
        kind=point["kind"],
        n=cls["n"],
        s=cls["s"],
        k=cls["k"],
        W=cls["W"],
        B=cls["B"],
        trivial=trivial,
    )
    rows = []
    samples = data["samples"] if point["kind"] == "grid" else data["counts"]
    for seed, sample in enumerate(samples):
        state = int(rng.integers(0, 2**31 - 1))
        if point["kind"] == "grid":
            idx, counts = sample, np.bincount(sample, minlength=cube.shape[0])
            fits = {
                SPARSE: (cube[idx], y[idx], None),
                DENSE: (cube[idx], y[idx], None),
                f"low-degree d={point['degree']}": (cube[idx], y[idx], None),
            }
            m = int(idx.size)
        else:
            counts = sample
            seen = counts > 0
            fits = {SPARSE: (cube[seen], y[seen], counts[seen])}
            m = int(counts.sum())
        missed = float(weights[counts == 0].sum())
        for name, (Xs, ys, w) in fits.items():
            if name == SPARSE:
                learner = _sparse_learner(point, cls, state).fit(Xs, ys, sample_weight=w)
            elif name == DENSE:
                learner = _sparse_learner(point, cls, state, enforce=False).fit(Xs, ys)
            else:
                learner = LowDegreeRegressor(degree=point["degree"], ridge=LOW_DEGREE_RIDGE).fit(Xs, ys)
            pred = learner.predict(cube)
            r = learner.predict(Xs) - ys
            train = float(0.5 * (r @ r) / r.size) if w is None else float(0.5 * (w @ (r * r)) / w.sum())
            row = dict(
                base,
                learner=name,
                m=m,
                multiple=point.get("multiple", float("nan")),
                seed=seed,
                test_loss=float(weights @ (0.5 * (pred - y) ** 2)),
                train_loss=train,
                missed_mass=missed,
                s_learner=np.nan,
                max_active_sample=np.nan,
                net_W=np.nan,
                net_B=np.nan,
                cube_mass_over_k=np.nan,
            )
            if name == SPARSE:
                row.update(_membership(learner, Xs, cube, weights, cls))
            rows.append(row)
    return {"curves": pd.DataFrame(rows)}
