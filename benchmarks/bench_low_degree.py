"""Benchmark the low-degree algorithm (Lemma 7) at n = 20, d = 3, m = 50,000.

Target: a random 2-sparse ReLU network with 16 neurons on {-1, 1}^20
(``sparseact.families.random_sparse_network(20, 16, 2, rng)``), observed on
``m`` uniform random points. Fitted side by side, in one run (rounds
interleaved; best of ``--repeats`` wall-clock times each):

* ``LowDegreeRegressor(degree=3).fit`` (default ``moments="auto"``, which here
  takes the cube path: Walsh transforms of the sample histogram; with fewer
  samples than monomials, e.g. ``--n 16 --degree 4 --m 1000``, every "ours" row
  takes the ``m x m`` kernel path, shown in the table's path column);
* ``LowDegreeRegressor(degree=3, moments="blocks").fit`` (streamed float32
  feature blocks and a float32 syrk; the general path for any ``n``);
* the same with float64 feature blocks (``low_degree._FEATURE_DTYPE``), to
  measure what float32 buys (the Gram matrices are bitwise equal);
* a straightforward numpy implementation: the dense ``(m, N)`` float64 feature
  matrix (one ``np.prod`` over the columns of each monomial) and
  ``numpy.linalg.lstsq``.

For each: peak traced memory (``tracemalloc``, which sees numpy's allocations
but not BLAS/LAPACK-internal buffers; one extra untimed run) and the exact
population loss ``L_U = E_x (1/2)(h(x) - f(x))^2`` over all 2**20 points of
the cube, through the inverse Walsh transform of the coefficients
(``predict_cube``). The test errors must agree to 1e-9 relative. Prints a
markdown table and writes ``benchmarks/results/low_degree.json``.

Usage::

    python benchmarks/bench_low_degree.py [--n 20] [--degree 3] [--m 50000] [--repeats 3]
"""

from __future__ import annotations

import argparse
import itertools
import platform
import statistics
import sys
import time
import tracemalloc
from pathlib import Path

import numba
import numpy as np
import scipy
from _common import cpu_model, write_results

from sparseact.analysis import fourier_tail, fwht
from sparseact.cube import points_from_indices
from sparseact.families import random_sparse_network
from sparseact.learners import low_degree
from sparseact.learners.low_degree import LowDegreeRegressor, monomials

RESULTS = Path(__file__).resolve().parent / "results"


def naive_fit(X: np.ndarray, y: np.ndarray, d: int) -> tuple[np.ndarray, np.ndarray]:
    """Dense feature matrix over all monomials of degree <= d (np.prod per subset) + lstsq."""
    n = X.shape[1]
    subsets = [T for t in range(d + 1) for T in itertools.combinations(range(n), t)]
    Phi = np.empty((X.shape[0], len(subsets)))
    for k, T in enumerate(subsets):
        Phi[:, k] = np.prod(X[:, list(T)], axis=1)
    coef = np.linalg.lstsq(Phi, y, rcond=None)[0]
    masks = np.array([sum(1 << i for i in T) for T in subsets], dtype=np.int64)
    return masks, coef


def cube_loss(masks: np.ndarray, coef: np.ndarray, target: np.ndarray) -> float:
    """Exact L_U = mean (1/2)(h - f)^2 over the cube for h = sum_T coef_T chi_T."""
    table = np.zeros(target.size)
    table[masks] = coef
    fwht(table, out=table)
    table -= target
    return 0.5 * float(np.dot(table, table)) / table.size


def fit_with_dtype(dtype, **params):
    def run(X, y):
        saved = low_degree._FEATURE_DTYPE
        low_degree._FEATURE_DTYPE = dtype
        try:
            return LowDegreeRegressor(**params).fit(X, y)
        finally:
            low_degree._FEATURE_DTYPE = saved

    return run


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=20)
    parser.add_argument("--degree", type=int, default=3)
    parser.add_argument("--m", type=int, default=50_000)
    parser.add_argument("--neurons", type=int, default=16)
    parser.add_argument("--k", type=int, default=2)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--seed", type=int, default=20240630)
    parser.add_argument("--out", type=Path, default=RESULTS / "low_degree.json")
    args = parser.parse_args(argv)
    n, d, m = args.n, args.degree, args.m

    rng = np.random.default_rng(args.seed)
    net = random_sparse_network(n, args.neurons, args.k, rng)
    X = 1.0 - 2.0 * rng.integers(0, 2, size=(m, n)).astype(np.float64)
    y = net(X)
    target = net.truth_table()
    N = monomials(n, d).size
    floor = fourier_tail(target, d) / 2

    methods = {
        f"ours: LowDegreeRegressor(degree={d}).fit (default moments='auto')": lambda: LowDegreeRegressor(degree=d).fit(
            X, y
        ),
        "ours: moments='blocks' (float32 feature blocks)": lambda: LowDegreeRegressor(degree=d, moments="blocks").fit(
            X, y
        ),
        "ours: moments='blocks', float64 feature blocks": lambda: fit_with_dtype(
            np.float64, degree=d, moments="blocks"
        )(X, y),
        "numpy: dense np.prod features + numpy.linalg.lstsq": lambda: naive_fit(X, y, d),
    }
    baseline = "numpy: dense np.prod features + numpy.linalg.lstsq"

    # Warm-up (numba fwht from cache, BLAS threads, page faults).
    LowDegreeRegressor(degree=d).fit(X[:2000], y[:2000])
    LowDegreeRegressor(degree=d, moments="blocks").fit(X[:2000], y[:2000])

    times = {name: [] for name in methods}
    results = {}
    for _ in range(args.repeats):  # interleaved rounds: machine load hits all methods alike
        for name, run in methods.items():
            t0 = time.perf_counter()
            results[name] = run()
            times[name].append(time.perf_counter() - t0)

    peaks = {}
    for name, run in methods.items():
        tracemalloc.start()
        run()
        peaks[name] = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()

    rows = []
    coefs = {}
    for name, res in results.items():
        if isinstance(res, LowDegreeRegressor):
            masks, coef = res.monomials_, res.coef_
            err = res.exact_test_error(target)
            extra = {"moments": res.moments_, "solver": res.solver_}
            # predict_cube vs. explicit features on a random subset of the cube
            idx = rng.integers(0, 1 << n, size=4096)
            gap = float(np.max(np.abs(res.predict(points_from_indices(idx, n)) - res.predict_cube()[idx])))
            extra["predict_vs_predict_cube_max_abs_diff"] = gap
        else:
            masks, coef = res
            err = cube_loss(masks, coef, target)
            extra = {}
        coefs[name] = (masks, coef)
        rows.append(
            {
                "method": name,
                "times_s": times[name],
                "best_s": min(times[name]),
                "median_s": statistics.median(times[name]),
                "peak_traced_bytes": peaks[name],
                "exact_test_error": err,
                **extra,
            }
        )

    base = next(r for r in rows if r["method"] == baseline)
    bmask, bcoef = coefs[baseline]
    ok = True
    for row in rows:
        row["speedup_vs_numpy"] = base["best_s"] / row["best_s"]
        row["test_error_rel_diff_vs_numpy"] = abs(row["exact_test_error"] - base["exact_test_error"]) / abs(
            base["exact_test_error"]
        )
        masks, coef = coefs[row["method"]]
        assert np.array_equal(masks, bmask)
        row["coef_max_abs_diff_vs_numpy"] = float(np.max(np.abs(coef - bcoef)))
        if row["test_error_rel_diff_vs_numpy"] > 1e-9:
            ok = False
            rel = row["test_error_rel_diff_vs_numpy"]
            print(f"MISMATCH: {row['method']} test error differs by {rel:.2e}", file=sys.stderr)

    lines = [
        f"Low-degree regression, n = {n}, d = {d} (N = {N} monomials), m = {m:,} samples; "
        f"target: random {args.k}-sparse ReLU network, s = {args.neurons}; best of {args.repeats} (wall time)",
        "",
        "| method | path (moments_, solver_) | best (s) | median (s) | speedup vs numpy | peak traced memory (MiB) "
        "| exact test error L_U | rel. diff vs numpy |",
        "|---|---|---:|---:|---:|---:|---:|---:|",
    ]
    for row in rows:
        lines.append(
            f"| {row['method']} | {row.get('moments', '-')}, {row.get('solver', '-')} | "
            f"{row['best_s']:.3f} | {row['median_s']:.3f} | {row['speedup_vs_numpy']:.1f}x | "
            f"{row['peak_traced_bytes'] / 2**20:.1f} | {row['exact_test_error']:.12g} | "
            f"{row['test_error_rel_diff_vs_numpy']:.1e} |"
        )
    lines.append("")
    lines.append(f"Lemma 7 floor on the whole cube, (1/2) sum_{{|T|>{d}}} fhat(T)^2 = {floor:.12g}")
    lines.append(f"(1/2) E_x f(x)^2 (error of h = 0) = {0.5 * float(np.mean(target**2)):.12g}")
    lines.append("test errors agree to 1e-9 relative: " + ("yes" if ok else "NO"))
    print("\n".join(lines))

    payload = {
        "benchmark": "low_degree",
        "n": n,
        "degree": d,
        "n_monomials": N,
        "m": m,
        "target": {"family": "random_sparse_network", "s": args.neurons, "k": args.k, "seed": args.seed},
        "repeats": args.repeats,
        "rows": rows,
        "lemma7_floor_whole_cube": floor,
        "half_mean_square_target": 0.5 * float(np.mean(target**2)),
        "test_errors_agree": ok,
        "notes": [
            "peak_traced_bytes: tracemalloc peak of one extra run "
            "(numpy allocations; excludes BLAS/LAPACK internal buffers)",
            "exact_test_error: population loss E_x (1/2)(h(x) - f(x))^2 over all 2**n cube points, "
            "via the inverse Walsh transform",
        ],
        "environment": {
            "python": platform.python_version(),
            "numpy": np.__version__,
            "scipy": scipy.__version__,
            "numba": numba.__version__,
            "cpu": cpu_model(),
            "platform": platform.platform(),
        },
    }
    write_results(args.out, payload)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
