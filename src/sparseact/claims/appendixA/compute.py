"""Data and runs stages of the claim ``appendixA``: ``generate(point, rng)`` and ``run(point, data, rng)``.

The grid and what the claim checks: :mod:`sparseact.claims.appendixA`.
"""

from __future__ import annotations

import json
from math import comb, exp, log, sqrt

import numpy as np
import pandas as pd

from sparseact import constructions
from sparseact.cube import hypercube, iter_hypercube
from sparseact.runtime.datafiles import network_arrays, network_from_arrays, networks_from_arrays

#: Row families ``w_alpha`` drawn per weight draw (``b<b>-d<d>`` points).
RANDOM_FAMILIES = ("unit-gaussian", "unit-sign", "gaussian")
#: The deterministic family of the ``b<b>-ones`` points.
ONES = "all-ones"

#: Rows of ``y`` per chunk in :func:`excess_fraction`.
Y_CHUNK = 1 << 12


# ---------------------------------------------------------------------------
# numerics
# ---------------------------------------------------------------------------


def excess_fraction(y_weights, gammas):
    r"""Exact fraction of inputs ``(x, y)`` on which more than one neuron of ``F`` fires, for each ``Gamma``.

    Uses (A.1), ``<w_alpha, y> + Gamma(<x, alpha> - b) = <w_alpha, y> - 2 Gamma d(x, alpha)``, so one pass
    over ``y`` serves every ``Gamma``; agrees with ``SparseReLUNetwork.active_counts`` (tested).

    Parameters
    ----------
    y_weights : array_like, shape (2**b, q)
        Row ``j`` is ``w_alpha`` for the j-th ``alpha`` of {-1,1}^b (hypercube order).
    gammas : array_like
        Values of ``Gamma >= 0``.

    Returns
    -------
    ndarray, shape (len(gammas),)
    """
    Wy = np.asarray(y_weights, dtype=np.float64)
    s, q = Wy.shape
    b = s.bit_length() - 1
    alphas = hypercube(b)
    dist = (b - alphas @ alphas.T) / 2.0  # dist[x, alpha]; x ranges over the same points
    shells = [(dist == t).astype(np.float64) for t in range(b + 1)]  # symmetric 0/1 matrices; shells[0] = I
    gammas = np.atleast_1d(np.asarray(gammas, dtype=np.float64))
    excess = np.zeros(gammas.size)
    for Y in iter_hypercube(q, Y_CHUNK):
        A = Y @ Wy.T  # (chunk, s): <w_alpha, y>
        for g, gamma in enumerate(gammas):
            # active[y, x] = #{alpha : <w_alpha, y> > 2 Gamma d(x, alpha)}, summed shell by shell d(x, alpha) = t.
            # Only alpha = x (t = 0) can fire unless some <w_alpha, y> > 2 Gamma: keep those rows y only.
            rows = A[(A > 2.0 * gamma).any(axis=1)]
            active = (rows > 0).astype(np.float64)
            for t in range(1, b + 1):
                fires = rows > 2.0 * gamma * t
                if not fires.any():  # then no neuron fires at a larger distance either
                    break
                active += fires.astype(np.float64) @ shells[t]
            excess[g] += np.count_nonzero(active > 1)
    return excess / float(2 ** (b + q))


def hoeffding_bound(b: int, gamma: float, norm2: float = 1.0) -> float:
    r"""Right side of (A.2): ``sum_{d=1}^b C(b, d) exp(-2 Gamma^2 d^2 / ||w||_2^2)``.

    Bounds ``Pr_{x,y}[> 1 active]`` when every ``||w_alpha||_2 <= norm2`` (Hoeffding plus a union bound
    over the neurons ``alpha != x``, which need ``<w_alpha, y> > 2 Gamma d(x, alpha)``).
    """
    return float(sum(comb(b, d) * exp(-2.0 * gamma**2 * d**2 / norm2**2) for d in range(1, b + 1)))


def ones_tail(q: int, gamma: float) -> float:
    """``Pr_y[sum_i y_i > 2 Gamma]``, ``y`` uniform on ``{-1,1}^q``: the exact ``Pr[> 1 active]`` with all-ones rows.

    With ``w_alpha = 1`` the pre-activation of neuron ``alpha`` is ``sum_i y_i - 2 Gamma d(x, alpha)``: some
    ``alpha != x`` fires iff a neighbour (``d = 1``) does, iff ``sum_i y_i > 2 Gamma``, and then ``alpha = x`` fires
    too (``b >= 1``). As ``q -> infinity`` it tends to ``1/2`` for every fixed ``s``.
    """
    return sum(comb(q, k) for k in range(q + 1) if 2 * k - q > 2 * gamma) / 2**q


def _rows(family: str, rng, s: int, q: int):
    if family == "unit-gaussian":
        return constructions.unit_gaussian_rows(rng, s, q)
    if family == "unit-sign":
        return rng.choice([-1.0, 1.0], size=(s, q)) / np.sqrt(q)
    if family == "gaussian":
        return rng.standard_normal((s, q))
    if family == ONES:
        return np.ones((s, q))
    raise ValueError(f"unknown row family {family!r}")


def generate(point: dict, rng) -> dict:
    """Networks ``F`` (as ``u, W, b``; ``W = [Gamma alpha, w_alpha]``, ``b = Gamma b``) of the point."""
    q, s = point["q"], 1 << point["b"]
    arrays = {}
    if point["kind"] == "whp":
        gamma = point["c"] * sqrt(log(s))
        for i in range(point["draws"]):
            net = constructions.appendix_a_network(_rows("unit-gaussian", rng, s, q), gamma)
            arrays.update(network_arrays(net, f"F{i}"))
        return arrays
    families = RANDOM_FAMILIES if point["kind"] == "draw" else (ONES,)
    for family in families:
        arrays.update(
            network_arrays(constructions.appendix_a_network(_rows(family, rng, s, q), sqrt(q)), f"F.{family}")
        )
    return arrays


def format_input(x) -> str:
    return "(" + ", ".join(f"{v:g}" for v in x) + ")"


def _instance(net, x, **data) -> str:
    """The raw data of one violating input ``x`` of ``net`` for its certificate (the assembly builds it): the
    network's ``u, W, b``, the input and ``data``, as JSON text."""
    return json.dumps(dict(u=net.u.tolist(), W=net.W.tolist(), b=net.b.tolist(), x=[int(v) for v in x], **data))


def _sqrt_q_rows(point: dict, data: dict):
    """Per row family of a ``b<b>-d<d>`` or ``b<b>-ones`` point (``Gamma = sqrt(q)``), every input: the ``sqrt_q``
    row, and the ``sqrt_q_failures`` rows named by their measure: ``max-active``, the input with the most active
    neurons when more than one fires, and ``max-abs-error``, the first input with the largest
    ``|F - sigma(<w_x, y>)|`` when it is not 0, each with the raw data of its certificate (the assembly decides, builds
    it and maps its checks to these measures)."""
    b, q = point["b"], point["q"]
    gamma = float(np.sqrt(q))
    families = RANDOM_FAMILIES if point["kind"] == "draw" else (ONES,)
    rows, failures = [], []
    for family in families:
        net = network_from_arrays(data, f"F.{family}")
        Wy = net.W[:, b:]
        target = constructions.appendix_a_target(Wy)
        max_active, witness, err, bad_input = 0, None, 0.0, None
        for X in iter_hypercube(b + q, 1 << 16):
            values, active = net.evaluate(X)
            k = int(np.argmax(active))
            if active[k] > max_active:
                max_active, witness = int(active[k]), X[k].copy()
            expected = target(X)
            gap = np.abs(values - expected)
            if gap.max(initial=0.0) > err:  # the first input with the largest |F - sigma(<w_x, y>)| > 0
                worst = int(np.argmax(gap))
                err, bad_input = float(gap[worst]), (X[worst].copy(), float(values[worst]), float(expected[worst]))
        norm1 = float(np.abs(Wy).sum(axis=1).max())
        rows.append(
            dict(
                family=family,
                b=b,
                q=q,
                s=1 << b,
                gamma=gamma,
                max_w_norm2=float(np.linalg.norm(Wy, axis=1).max()),
                max_w_norm1=norm1,
                max_active=max_active,
                max_abs_error=err,
                min_nonzero_weights=int(np.count_nonzero(net.W, axis=1).min()),
                n_inputs=b + q,
                witness="" if witness is None else f"x={format_input(witness[:b])}, y={format_input(witness[b:])}",
            )
        )
        if max_active > 1:
            failures.append(
                dict(
                    measure="max-active",
                    family=family,
                    b=b,
                    q=q,
                    max_active=max_active,
                    counterexample=f"{family} rows w_alpha (||w_alpha||_1 = {norm1:.4g} > 2 Gamma = "
                    f"{2 * gamma:.4g}), b={b}, q={q}, Gamma=sqrt(q): {max_active} neurons "
                    f"active at x={format_input(witness[:b])}, y={format_input(witness[b:])}",
                    data=_instance(
                        net, witness, count=max_active, family=family, bits=b, q=q, norm1=norm1, gamma=gamma
                    ),
                )
            )
        if bad_input is not None:
            x, value, expected = bad_input
            failures.append(
                dict(
                    measure="max-abs-error",
                    family=family,
                    b=b,
                    q=q,
                    max_active=max_active,
                    counterexample=f"{family} rows, b={b}, q={q}, input {format_input(x)}: F = {value:g}, "
                    f"sigma(<w_x, y>) = {expected:g}",
                    data=_instance(net, x, value=value, target=expected, bits=b),
                )
            )
    return rows, failures


def split_rows(s: int, gamma: float, q: int = 1) -> np.ndarray:
    r"""Rows ``w_alpha = +lambda e_1`` for the first half of the ``alpha`` and ``-lambda e_1`` for the rest,
    ``lambda = 2 Gamma b + 1`` (``b = log2 s``): a choice the printed Appendix A allows ("``w_x`` can depend
    arbitrarily on ``x``").

    On every input ``(x, y)`` exactly the ``s/2`` neurons whose sign agrees with ``y_1`` fire: their
    pre-activation is ``lambda + Gamma(<x, alpha> - b) >= lambda - 2 Gamma b = 1 > 0``, the others' is at
    most ``-lambda < 0``. So ``Pr[F is 1-sparse] = 0`` for every ``s >= 4``, ``q >= 1`` and ``Gamma >= 0``.
    """
    b = s.bit_length() - 1
    rows = np.zeros((s, q))
    rows[:, 0] = (2 * gamma * b + 1) * np.where(np.arange(s) < s // 2, 1.0, -1.0)
    return rows


def split_network(b: int, gamma: float):
    """The Appendix A network with the :func:`split_rows` of ``s = 2^b`` at ``q = 1``."""
    return constructions.appendix_a_network(split_rows(1 << b, gamma), gamma)


def _split_instance(b: int, gamma: float, c: float) -> dict:
    """The :func:`split_network`, its exact ``Pr[1-sparse]`` over all inputs and the printed bound read at
    ``P(s) = s``: ``Pr[F is 1-sparse] >= 1 - 1/s`` (the assembly certifies a violation)."""
    s = 1 << b
    net = split_network(b, gamma)
    counts = net.active_counts(hypercube(b + 1))
    sparse = float(np.mean(counts <= 1))
    bound = 1.0 - 1.0 / s
    return dict(
        b=b,
        s=s,
        q=1,
        c=c,
        gamma=float(gamma),
        min_active=int(counts.min()),
        max_active=int(counts.max()),
        sparse_probability=sparse,
        bound=bound,
    )


def run(point: dict, data: dict, rng) -> dict:
    b, q, s = point["b"], point["q"], 1 << point["b"]
    if point["kind"] == "whp":
        gamma = point["c"] * np.sqrt(np.log(s))
        ones = float(excess_fraction(np.ones((s, q)), [gamma])[0])  # the printed statement: w_alpha arbitrary
        split = _split_instance(b, float(gamma), point["c"])
        # the same rows at the grid's q, through (A.1): every input has more than one neuron active
        split.update(
            grid_q=q, grid_q_excess_fraction=float(excess_fraction(split_rows(s, float(gamma), q), [gamma])[0])
        )
        rows = []
        for i, net in enumerate(networks_from_arrays(data, "F")):
            Wy = net.W[:, b:]
            norm2 = float(np.linalg.norm(Wy, axis=1).max())
            frac = float(excess_fraction(Wy, [gamma])[0])
            rows.append(
                dict(
                    b=b,
                    s=s,
                    q=q,
                    c=point["c"],
                    gamma=float(gamma),
                    draw=i,
                    max_w_norm2=norm2,
                    excess_fraction=frac,
                    hoeffding_bound=hoeffding_bound(b, gamma, max(norm2, 1.0)),
                    poly_bound=float((1 + s ** (-2 * point["c"] ** 2)) ** b - 1),
                    ones_fraction=ones,
                    ones_closed_form=ones_tail(q, float(gamma)),
                )
            )
        return {"whp": pd.DataFrame(rows), "whp_split": pd.DataFrame([split])}
    rows, failures = _sqrt_q_rows(point, data)
    failure_columns = ["measure", "family", "b", "q", "max_active", "counterexample", "data"]
    tables = {"sqrt_q": pd.DataFrame(rows), "sqrt_q_failures": pd.DataFrame(failures, columns=failure_columns)}
    if point["kind"] == "draw":
        Wy = network_from_arrays(data, "F.unit-gaussian").W[:, b:]
        gammas = np.linspace(0.0, np.sqrt(q), point["gamma_points"])
        tables["gamma_sweep"] = pd.DataFrame(
            dict(b=b, s=s, q=q, draw=point["draw"], gamma=gammas, excess_fraction=excess_fraction(Wy, gammas))
        )
    return tables
