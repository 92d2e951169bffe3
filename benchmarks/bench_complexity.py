"""Benchmark ``sparseact.complexity.rademacher_lower_bound`` over a grid of (s, m, n).

For every grid point a uniform cube sample ``X`` (m points in {-1, 1}^n, so
``R = sqrt(n)``) is drawn and :func:`rademacher_lower_bound` is run with a fixed
number of sign vectors and fixed search settings (``W = B = 1``, ``k = 1``). The
wall time per point and per sign vector is recorded, together with the
estimate (a lower bound of ``R_H(S)``, with its CLT interval) and, for
reference, the paper's Section 5 formulas at the same instance (constant 1,
natural log): eq. (15) (= eq. (1) at ``k = 1``) and Conjecture 20's eq. (16).

The growth of the time with ``m`` is summarised by the least-squares slope of
``log(time)`` against ``log(m)`` for each ``(s, n)`` (the fitted exponent).

Prints a markdown table and writes ``benchmarks/results/complexity.json``.

Usage::

    python benchmarks/bench_complexity.py [--n-zeta 3] [--quick]
"""

from __future__ import annotations

import argparse
import json
import platform
import sys
import time
from pathlib import Path

import numpy as np
from _common import cpu_model

from sparseact.complexity import paper_bounds, rademacher_lower_bound, sample_distribution

RESULTS = Path(__file__).resolve().parent / "results"

SETTINGS = {"restarts": 2, "iterations": 3, "rounds": 1, "n_random": 4, "polish": True}


def fit_exponent(ms, times) -> float:
    """Least-squares slope of log(time) on log(m)."""
    x = np.log(np.asarray(ms, dtype=float))
    y = np.log(np.asarray(times, dtype=float))
    return float(np.polyfit(x, y, 1)[0])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n-zeta", type=int, default=3, help="sign vectors per grid point (>= 2)")
    parser.add_argument("--seed", type=int, default=2024)
    parser.add_argument("--quick", action="store_true", help="small grid (smoke test)")
    parser.add_argument("--out", type=Path, default=RESULTS / "complexity.json")
    args = parser.parse_args(argv)

    s_grid = (4, 16) if args.quick else (4, 16, 64)
    m_grid = (50, 200) if args.quick else (50, 200, 800)
    n_grid = (10,) if args.quick else (10, 20)
    W = B = 1.0
    k = 1
    rows = []
    t_start = time.perf_counter()
    # warm-up (numba / first-call overheads) outside the timings
    Xw, _ = sample_distribution("uniform", 20, 5, np.random.default_rng(0))
    rademacher_lower_bound(Xw, 2, 1, W, B, 2, np.random.default_rng(0), **SETTINGS)
    for n in n_grid:
        for s in s_grid:
            for m in m_grid:
                rng = np.random.default_rng([args.seed, n, s, m])
                X, R = sample_distribution("uniform", m, n, rng)
                t0 = time.perf_counter()
                est = rademacher_lower_bound(X, s, k, W, B, args.n_zeta, rng, **SETTINGS)
                elapsed = time.perf_counter() - t0
                pb = paper_bounds(m, n, s, k, W, B, R)
                rows.append(
                    {
                        "s": s,
                        "m": m,
                        "n": n,
                        "k": k,
                        "W": W,
                        "B": B,
                        "R": R,
                        "n_zeta": args.n_zeta,
                        "time_s": elapsed,
                        "time_per_zeta_s": elapsed / args.n_zeta,
                        "lower_bound": est.estimate,
                        "lower_bound_ci": [est.ci_low, est.ci_high],
                        "eq15_formula": pb["eq15"],
                        "conj20_formula": pb["conj20"],
                    }
                )
                print(f"  n={n:3d} s={s:3d} m={m:4d}: {elapsed:7.2f} s", file=sys.stderr, flush=True)
    total = time.perf_counter() - t_start

    exponents = []
    for n in n_grid:
        for s in s_grid:
            pts = [r for r in rows if r["n"] == n and r["s"] == s]
            exponents.append(
                {"n": n, "s": s, "exponent_time_vs_m": fit_exponent([r["m"] for r in pts], [r["time_s"] for r in pts])}
            )

    result = {
        "benchmark": "rademacher_lower_bound (sparseact.complexity)",
        "kind_of_numbers": {
            "time_s": "wall-clock seconds for all n_zeta sign vectors (one run)",
            "lower_bound": "lower bound (estimate) of R_H(S): mean over sign vectors of values of verified networks",
            "eq15_formula": "formula: eq. (15) with constant 1, natural log (= eq. (1) at k = 1)",
            "conj20_formula": "formula: Conjecture 20, eq. (16), constant 1",
        },
        "settings": {**SETTINGS, "sample": "uniform cube", "W": W, "B": B, "k": k, "seed": args.seed},
        "machine": {
            "cpu": cpu_model(),
            "python": platform.python_version(),
            "numpy": np.__version__,
        },
        "total_time_s": total,
        "rows": rows,
        "fitted_exponents": exponents,
    }
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(result, indent=2) + "\n")

    print(f"rademacher_lower_bound: {args.n_zeta} sign vectors per point, settings {SETTINGS}, W = B = 1, k = 1\n")
    print("| n | s | m | time (s) | time / zeta (s) | lower bound [95% CI] | eq. (15) | Conj. 20 |")
    print("|---|---|---|---|---|---|---|---|")
    for r in rows:
        lo, hi = r["lower_bound_ci"]
        print(
            f"| {r['n']} | {r['s']} | {r['m']} | {r['time_s']:.2f} | {r['time_per_zeta_s']:.2f} | "
            f"{r['lower_bound']:.3f} [{lo:.3f}, {hi:.3f}] | {r['eq15_formula']:.2f} | {r['conj20_formula']:.3f} |"
        )
    print("\n| n | s | fitted exponent of time vs m |")
    print("|---|---|---|")
    for e in exponents:
        print(f"| {e['n']} | {e['s']} | {e['exponent_time_vs_m']:.2f} |")
    print(f"\ntotal {total:.1f} s; wrote {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
