"""Data and runs stages of the claim ``lemma10``: ``generate(point, rng)`` and ``run(point, data, rng)``.

The grid and what the claim checks: :mod:`sparseact.claims.lemma10`.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from sparseact import analysis, bounds, families, sensitivity
from sparseact.claims._buffers import work_array
from sparseact.claims._failures import WORST, with_worst, worst_instance
from sparseact.claims._grids import bucket_feasible
from sparseact.claims.lemma10 import OUT_OF_RANGE_RHO
from sparseact.cube import hypercube
from sparseact.networks import SparseReLUNetwork
from sparseact.runtime.datafiles import network_arrays, network_from_arrays
from sparseact.runtime.provenance import derive_rng

#: Families of the noise grid (``bucket`` only where :func:`bucket_feasible`).
FAMILIES = ("gaussian", "bucket")
#: Largest ``n`` for which NS is also summed by definition over all ``2^n`` flip patterns (cost ``4^n``).
DEFINITION_MAX_N = 10
#: The ``rho`` at which Claim 2.1's NS formula is compared with the definition (both signs).
FORMULA_RHO = (-0.5, 0.0, 0.5, 0.9)


def _families(n: int, s: int, k: int) -> list[str]:
    return [f for f in FAMILIES if f != "bucket" or bucket_feasible(n, s, k)]


# ---------------------------------------------------------------------------
# networks
# ---------------------------------------------------------------------------


def dictator_network(n: int):
    """``h(x) = x_1 = relu(x_1) - relu(-x_1)`` on ``n`` inputs (``s = 2``, ``k = 1``, ``W = B + 1 = 1``)."""
    w = [1.0] + [0.0] * (n - 1)
    return SparseReLUNetwork([1.0, -1.0], [w, [-v for v in w]], [0.0, 0.0])


def _instance_network(family: str, n: int, s: int, k: int, rng):
    if family == "bucket":
        return families.bucket_network(n, s, k, rng)
    return families.random_sparse_network(n, s, k, rng, weights=family)


def generate(point: dict, rng):
    """The point's functions; each (family, instance) draws from its own stream ``derive_rng(base, family, i)``."""
    kind = point["kind"]
    out = {}
    if kind == "parity":
        for p in point["orders"]:
            out[f"parity.p{p}"] = hypercube(p).prod(axis=1)
        return out
    base = int(rng.integers(0, 2**63 - 1))
    if kind == "noise":
        n, s, k = point["n"], point["s"], point["k"]
        for family in _families(n, s, k):
            for i in range(point["instances"]):
                net = _instance_network(family, n, s, k, derive_rng(base, family, i))
                out.update(network_arrays(net, f"net.{family}.{i}"))
        return out
    if kind == "appendixB":
        for i in range(point["instances"]):
            net = _instance_network("gaussian", point["n"], point["s"], point["k"], derive_rng(base, "gaussian", i))
            out.update(network_arrays(net, f"net.gaussian.{i}"))
        out.update(network_arrays(dictator_network(point["n"]), "net.dictator.0"))
        return out
    raise ValueError(f"unknown point kind {kind!r}")


# ---------------------------------------------------------------------------
# measurements
# ---------------------------------------------------------------------------


def noise_sensitivity_by_definition(values, rho: float) -> float:
    """``NS_rho(f) = E_{x, y ~ N_rho(x)} (1/4)(f(x) - f(y))^2`` summed over every flip pattern (Section 2.1).

    Independent of the spectrum: the pattern ``z`` (a bitmask of flipped
    coordinates) has probability ``((1-rho)/2)^|z| ((1+rho)/2)^(n-|z|)``. Costs ``4^n``.
    """
    values = np.asarray(values, dtype=np.float64)
    n = values.size.bit_length() - 1
    if values.size != 1 << n or n > 12:
        raise ValueError(f"values must have length 2**n with n <= 12, got {values.size}")
    idx = np.arange(values.size)
    total = 0.0
    for z in range(values.size):
        flips = bin(z).count("1")
        prob = ((1 - rho) / 2) ** flips * ((1 + rho) / 2) ** (n - flips)
        total += prob * float(np.mean(0.25 * (values - values[idx ^ z]) ** 2))
    return total


def _tail_rows(label: str, weights, rho_values, n: int) -> list[dict]:
    """Claim 2.1's tail ``sum_{|T|>d} fhat^2`` and bound ``2 NS_rho/(1-rho^d)``, every ``rho`` and ``1 <= d <= n``."""
    tails = np.append(weights[::-1].cumsum()[::-1], 0.0)  # tails[t] = sum_{level >= t}
    ns = np.atleast_1d(analysis.noise_sensitivity_from_level_weights(weights, np.asarray(rho_values, dtype=float)))
    rows = []
    for rho, value in zip(rho_values, ns, strict=True):
        for d in range(1, n + 1):
            bound = 2.0 * float(value) / (1.0 - rho**d)
            rows.append(
                dict(
                    instance=label,
                    n=n,
                    rho=float(rho),
                    in_range=bool(0.0 <= rho < 1.0),
                    d=d,
                    NS=float(value),
                    tail=float(tails[d + 1]),
                    bound=bound,
                )
            )
    return rows


def worst_tail(label: str, net, tail_rows: list[dict]) -> list[dict]:
    """The worst in-range instance of Claim 2.1's tail bound on one network (measure ``"tail"``), with the raw data of
    its certificate.

    Parameters
    ----------
    label : str
        The instance.
    net : SparseReLUNetwork
        The network ``f``.
    tail_rows : list of dict
        Its rows of :func:`_tail_rows` (``rho``, ``in_range``, ``d``, ``tail``, ``bound``).

    Returns
    -------
    list of dict
        No row when no ``rho`` is in range, else the :func:`sparseact.claims._failures.worst_instance` row of
        the in-range row with the largest ``tail - bound`` (data: the network ``u, W, b``, ``rho``, ``d``, the two
        sides ``tail`` and ``bound``, and the ``label``).
    """
    inside = [row for row in tail_rows if row["in_range"]]
    if not inside:
        return []
    row = max(inside, key=lambda r: r["tail"] - r["bound"])
    where = f"network {label}, rho = {row['rho']:g}, d = {row['d']}"
    return [
        worst_instance(
            "tail",
            row["tail"] - row["bound"],
            where,
            u=net.u,
            W=net.W,
            b=net.b,
            rho=row["rho"],
            d=row["d"],
            tail=row["tail"],
            bound=row["bound"],
            label=label,
        )
    ]


def _noise_rows(
    label: str, family: str, net, point: dict, scratch: np.ndarray, table: np.ndarray
) -> dict[str, list[dict]]:
    # scratch: the point's buffer for the Walsh coefficients (analysis.level_weights), then the squared table; table:
    # its buffer for the truth table; both shared by the point's networks instead of fresh pages per network
    n, s = point["n"], point["s"]
    one_minus_rho = np.asarray(point["one_minus_rho"], dtype=np.float64)
    rho = 1.0 - one_minus_rho
    values = net.truth_table(out=table)
    weights = analysis.level_weights(values, out=scratch)
    k_cert, W, B = max(1, net.max_active()), net.scale_W(), net.scale_B()
    ns = analysis.noise_sensitivity_from_level_weights(weights, rho)
    expression = bounds.lemma10_noise_sensitivity(rho, n, s, k_cert, W, B)
    AS = float(np.arange(n + 1) @ weights)
    common = dict(instance=label, family=family, n=n, s=s, k_class=point["k"], k=k_cert, W=W, B=B)
    sharp = bounds.lemma10_sharp(rho, k_cert, W)
    noise = [
        dict(
            **common,
            rho=float(r),
            one_minus_rho=float(o),
            NS=float(v),
            expression=float(e),
            ratio=float(v / e) if e > 0 else 0.0,
            AS=AS,
            NS_over_AS=float(v / AS) if AS > 0 else 0.0,
            sharp=float(g),
            ratio_sharp=float(v / g) if g > 0 else (0.0 if v <= 0 else float("inf")),
            ratio_explicit=float(v / (bounds.C_LEMMA10 * e)) if e > 0 else (0.0 if v <= 0 else float("inf")),
        )
        for r, o, v, e, g in zip(rho, one_minus_rho, ns, expression, sharp, strict=True)
    ]
    tail = _tail_rows(label, weights, list(rho) + list(OUT_OF_RANGE_RHO), n)
    norm2 = float(np.mean(np.square(values, out=scratch)))  # the coefficients are no longer needed
    formula = []
    for r in FORMULA_RHO:
        by_formula = float(analysis.noise_sensitivity_from_level_weights(weights, r))
        by_definition = noise_sensitivity_by_definition(values, r) if n <= DEFINITION_MAX_N else np.nan
        formula.append(
            dict(
                instance=label,
                n=n,
                rho=r,
                NS_formula=by_formula,
                NS_definition=by_definition,
                norm2=norm2,
                sum_fhat2=float(weights.sum()),
            )
        )
    total = float(weights.sum())
    levels = [
        dict(
            instance=label,
            family=family,
            n=n,
            k=k_cert,
            level=t,
            weight=float(w),
            weight_fraction=float(w) / total if total > 0 else 0.0,
        )
        for t, w in enumerate(weights)
    ]
    out = {"lemma10-noise": noise, "lemma10-tail": tail, "lemma10-ns-formula": formula, "lemma10-level-weights": levels}
    out[WORST] = worst_tail(label, net, tail)
    return out


def monotone_instance(label: str, net, row: dict) -> dict:
    """The instance of ``NS_rho(h) <= NS_{1-2/r}(h)`` (measure ``"monotone"``: the noise sensitivity at ``rho`` at
    most that at the effective ``rho_effective = 1 - 2/r``) of one network of Appendix B's grid, with the raw data of
    its certificate.

    Parameters
    ----------
    label : str
        The instance.
    net : SparseReLUNetwork
        The network ``h``.
    row : dict
        Its row of the (17) table (``rho``, ``rho_effective``, ``r``, ``NS_rho``, ``NS_rho_effective``).

    Returns
    -------
    dict
        Its :func:`sparseact.claims._failures.worst_instance` row (excess: ``NS_rho - NS_{1-2/r}``; data: the network
        ``u, W, b``, ``rho``, ``rho_effective``, ``r``, the two sides and the ``label``).
    """
    rho = float(row["rho"])
    return worst_instance(
        "monotone",
        float(row["NS_rho"] - row["NS_rho_effective"]),
        f"network {label}, rho = {rho:g}",
        u=net.u,
        W=net.W,
        b=net.b,
        rho=rho,
        rho_effective=float(row["rho_effective"]),
        r=int(row["r"]),
        NS_rho=row["NS_rho"],
        NS_rho_effective=row["NS_rho_effective"],
        label=label,
    )


def run(point: dict, data: dict, rng):
    kind = point["kind"]
    if kind == "parity":
        rows = []
        for p in point["orders"]:
            values = data[f"parity.p{p}"]
            label = "chi_{" + ",".join(str(i + 1) for i in range(p)) + "}"
            rows += [
                {**row, "order": p} for row in _tail_rows(label, analysis.level_weights(values), point["rho_values"], p)
            ]
        return {"lemma10-parity": pd.DataFrame(rows)}
    if kind == "noise":
        n, s, k = point["n"], point["s"], point["k"]
        tables: dict[str, list[dict]] = {}
        scratch, table = work_array("lemma10.scratch", 1 << n), work_array("lemma10.table", 1 << n)
        for family in _families(n, s, k):
            for i in range(point["instances"]):
                label = f"{family}-n{n}-k{k}-{i}"
                for name, rows in _noise_rows(
                    label, family, network_from_arrays(data, f"net.{family}.{i}"), point, scratch, table
                ).items():
                    tables.setdefault(name, []).extend(rows)
        return {name: pd.DataFrame(rows) for name, rows in tables.items()}
    if kind == "appendixB":
        rows, instances = [], []
        labels = [("gaussian", i) for i in range(point["instances"])] + [("dictator", 0)]
        for family, i in labels:
            net = network_from_arrays(data, f"net.{family}.{i}")
            res = sensitivity.bucket_coupling_noise_sensitivity(net, point["rho"], exact=True)
            rows.append(
                dict(
                    instance=f"{family}-{i}",
                    family=family,
                    n=point["n"],
                    s=net.n_neurons,
                    k=max(1, net.max_active()),
                    rho=res.rho,
                    r=res.r,
                    rho_effective=res.rho_effective,
                    NS_rho=res.left,
                    NS_rho_effective=res.left_at_rho_effective,
                    printed_left=res.left_unnormalised,
                    middle=res.middle,
                    right=res.right,
                    n_terms=res.n_terms,
                )
            )
            instances.append(monotone_instance(f"{family}-{i}", net, rows[-1]))
        worst = max(instances, key=lambda row: row["excess"])  # the first network with the largest excess
        return with_worst({"lemma10-eq17": pd.DataFrame(rows)}, [worst])
    raise ValueError(f"unknown point kind {kind!r}")
