"""Benchmark a full exact Fourier analysis of a random network at n = 24.

Builds a random ``SparseReLUNetwork`` with ``s = 64`` neurons on ``n = 24``
inputs, evaluates it on all ``2**24`` points of the cube with
``net.truth_table()`` (chunked), then computes with :mod:`sparseact.analysis`
the Walsh spectrum, the level weights, the influences and ``AS(f)``, and
``NS_rho(f)`` on 50 values of ``rho``. Reports the wall time of each step and
the peak resident memory (``resource.getrusage(RUSAGE_SELF).ru_maxrss``),
checks the spectral identities (Parseval, ``AS = sum_t t W^t``), prints a
markdown table and writes ``benchmarks/results/exact_analysis.json``.

Usage::

    python benchmarks/bench_exact_analysis.py [--n 24] [--s 64] [--chunk 32768]
"""

from __future__ import annotations

import argparse
import platform
import resource
import sys
import time
from pathlib import Path

import numba
import numpy as np
from _common import write_results

from sparseact.analysis import (
    fwht,
    influences,
    level_weights,
    noise_sensitivity,
    walsh_coefficients,
)
from sparseact.networks import SparseReLUNetwork

RESULTS = Path(__file__).resolve().parent / "results"


def peak_rss_mib() -> float:
    """Peak resident set size of this process so far (Linux reports KiB)."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024.0


def random_network(n: int, s: int, seed: int) -> SparseReLUNetwork:
    rng = np.random.default_rng(seed)
    return SparseReLUNetwork(rng.standard_normal(s), rng.standard_normal((s, n)) / np.sqrt(n), rng.standard_normal(s))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=24)
    parser.add_argument("--s", type=int, default=64)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument(
        "--chunk",
        type=int,
        default=1 << 18,
        help="points per chunk in net.truth_table (each (chunk, s) temporary is chunk*s*8 bytes)",
    )
    parser.add_argument("--n-rho", type=int, default=50)
    parser.add_argument("--out", type=Path, default=RESULTS / "exact_analysis.json")
    args = parser.parse_args(argv)

    n, s = args.n, args.s
    # JIT warm-up (or numba cache load) on a tiny table, outside the timings.
    small = np.random.default_rng(0).standard_normal(1 << 8)
    fwht(small)
    level_weights(small)
    rss_start = peak_rss_mib()

    net = random_network(n, s, args.seed)
    rhos = np.linspace(-1.0, 1.0, args.n_rho)
    steps: list[dict] = []

    def step(name, func):
        t0 = time.perf_counter()
        result = func()
        steps.append({"step": name, "seconds": time.perf_counter() - t0, "peak_rss_mib": peak_rss_mib()})
        return result

    values = step(f"truth table: net.truth_table(chunk={args.chunk})", lambda: net.truth_table(chunk=args.chunk))
    fhat = step("walsh spectrum: walsh_coefficients", lambda: walsh_coefficients(values))
    weights = step("level weights: level_weights", lambda: level_weights(values))
    infl = step("influences + AS: influences(...).sum()", lambda: influences(values))
    as_value = float(infl.sum())
    ns = step(f"NS on {args.n_rho} rho: noise_sensitivity", lambda: noise_sensitivity(values, rhos))
    total = sum(st["seconds"] for st in steps)
    analysis_total = sum(st["seconds"] for st in steps[1:])
    peak = peak_rss_mib()

    # Consistency of the exact quantities.
    norm2 = float(np.mean(values**2))
    checks = {
        "parseval_rel_err": abs(float(weights.sum()) - norm2) / norm2,
        "spectrum_vs_levels_rel_err": abs(float((fhat**2).sum()) - float(weights.sum())) / norm2,
        "AS_table_vs_spectral_rel_err": abs(as_value - float(np.arange(n + 1) @ weights)) / as_value,
        "NS_rho0_vs_half_variance_rel_err": abs(float(noise_sensitivity(values, 0.0)) - 0.5 * float(weights[1:].sum()))
        / (0.5 * float(weights[1:].sum())),
    }
    del fhat

    lines = [
        f"Exact analysis of a random SparseReLUNetwork, n={n}, s={s} (2**{n} points)",
        "",
        "| step | wall time (s) | peak RSS so far (MiB) |",
        "|---|---:|---:|",
    ]
    for st in steps:
        lines.append(f"| {st['step']} | {st['seconds']:.3f} | {st['peak_rss_mib']:.0f} |")
    lines.append(f"| **total (truth table + analysis)** | **{total:.3f}** | **{peak:.0f}** |")
    lines.append(f"| analysis only (excluding truth table) | {analysis_total:.3f} | |")
    lines.append("")
    lines.append(
        f"AS(f) = {as_value:.6g}, ||f||^2 = {norm2:.6g}, level weights W^0..W^4 = "
        + ", ".join(f"{w:.3g}" for w in weights[:5])
    )
    lines.append(f"NS_rho at rho = -1, 0, 1: {ns[0]:.6g}, {float(noise_sensitivity(values, 0.0)):.6g}, {ns[-1]:.6g}")
    lines.append("checks: " + ", ".join(f"{k}={v:.1e}" for k, v in checks.items()))
    lines.append(
        f"goal: total < 10 s -> {'met' if total < 10 else 'NOT met'}; "
        f"peak RSS < 4096 MiB -> {'met' if peak < 4096 else 'NOT met'}"
    )
    print("\n".join(lines))

    ok = all(v < 1e-9 for v in checks.values())
    payload = {
        "benchmark": "exact_analysis",
        "n": n,
        "s": s,
        "seed": args.seed,
        "chunk": args.chunk,
        "n_rho": args.n_rho,
        "steps": steps,
        "total_seconds": total,
        "analysis_seconds_excluding_truth_table": analysis_total,
        "peak_rss_mib": peak,
        "peak_rss_mib_before_pipeline": rss_start,
        "average_sensitivity": as_value,
        "norm2": norm2,
        "level_weights": weights.tolist(),
        "rho": rhos.tolist(),
        "noise_sensitivity": np.asarray(ns).tolist(),
        "checks": checks,
        "environment": {
            "python": platform.python_version(),
            "numpy": np.__version__,
            "numba": numba.__version__,
            "platform": platform.platform(),
        },
    }
    write_results(args.out, payload)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
