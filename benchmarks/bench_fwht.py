"""Benchmark the Walsh-Hadamard transform on 2**24 float64 values.

Times, in one run (best of 5 wall-clock repetitions each, after warm-up):

* ``sparseact.analysis.fwht`` (numba, cache-blocked radix-4), out of place
  (allocates and returns a new array) and in place (``out=`` the input buffer);
* a plain numpy reshape-based butterfly (out of place);
* the ``pyfwht`` package's CPU backend if importable (``pyfwht.transform``
  in place, ``pyfwht.compute`` out of place); skipped with a message if not.

Checks that all results agree, prints a markdown table and writes
``benchmarks/results/fwht.json``.

Usage::

    python benchmarks/bench_fwht.py [--n 24] [--repeats 5]
"""

from __future__ import annotations

import argparse
import platform
import statistics
import sys
import time
from pathlib import Path

import numba
import numpy as np

from sparseact.analysis import fwht, fwht_reference
from _common import cpu_model, write_results

RESULTS = Path(__file__).resolve().parent / "results"


def time_it(func, repeats: int, setup=None) -> tuple[list[float], object]:
    """Wall time of ``func()`` over ``repeats`` runs (``setup()`` untimed before each)."""
    times = []
    result = None
    for _ in range(repeats):
        if setup is not None:
            setup()
        t0 = time.perf_counter()
        result = func()
        times.append(time.perf_counter() - t0)
    return times, result




def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=24, help="log2 of the transform length")
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--out", type=Path, default=RESULTS / "fwht.json")
    args = parser.parse_args(argv)

    n, repeats = args.n, args.repeats
    v = np.random.default_rng(12345).standard_normal(1 << n)
    rows: list[dict] = []
    notes: list[str] = []

    # --- sparseact (numba) -------------------------------------------------
    fwht(v[:1024])  # JIT compile (or load from the numba cache)
    ref = fwht(v)  # warm-up at full size (page faults of a first large allocation)
    times, ours = time_it(lambda: fwht(v), repeats)
    rows.append({"method": "sparseact.fwht (numba, out of place)", "times_s": times})
    buf = np.empty_like(v)
    times, _ = time_it(lambda: fwht(buf, out=buf), repeats, setup=lambda: np.copyto(buf, v))
    rows.append({"method": "sparseact.fwht (numba, in place, out=input)", "times_s": times})
    in_place_ours = buf.copy()

    # --- pyfwht --------------------------------------------------------------
    results = {"sparseact_out_of_place": ours, "sparseact_in_place": in_place_ours}
    try:
        import pyfwht
    except ImportError as exc:
        notes.append(f"pyfwht not importable ({exc}); install with `pip install pyfwht` to compare")
        print(f"[skip] pyfwht not importable: {exc}", file=sys.stderr)
        pyfwht = None
    if pyfwht is not None:
        cpu = pyfwht.Backend.CPU
        pbuf = v.copy()
        pyfwht.transform(pbuf, backend=cpu)  # warm-up
        times, _ = time_it(
            lambda: pyfwht.transform(pbuf, backend=cpu), repeats, setup=lambda: np.copyto(pbuf, v)
        )
        rows.append({"method": f"pyfwht {pyfwht.version()} CPU transform (in place)", "times_s": times})
        results["pyfwht_in_place"] = pbuf.copy()
        pyfwht.compute(v, backend=cpu)
        times, res = time_it(lambda: pyfwht.compute(v, backend=cpu), repeats)
        rows.append({"method": f"pyfwht {pyfwht.version()} CPU compute (out of place)", "times_s": times})
        results["pyfwht_out_of_place"] = res

    # --- numpy butterfly -----------------------------------------------------
    fwht_reference(v[:1024])
    times, res = time_it(lambda: fwht_reference(v), repeats)
    rows.append({"method": "numpy reshape butterfly (out of place)", "times_s": times})
    results["numpy_butterfly"] = res

    # --- agreement -------------------------------------------------------------
    scale = float(np.max(np.abs(ref)))
    agreement = {}
    for name, arr in results.items():
        diff = float(np.max(np.abs(arr - ref)))
        agreement[name] = {"max_abs_diff": diff, "max_rel_diff": diff / scale, "bitwise_equal": bool(np.array_equal(arr, ref))}
        if diff > 1e-9 * scale:
            print(f"MISMATCH: {name} differs from sparseact.fwht by {diff:.3e}", file=sys.stderr)
            return 1

    # --- report ------------------------------------------------------------------
    for row in rows:
        row["best_s"] = min(row["times_s"])
        row["median_s"] = statistics.median(row["times_s"])
    peer = {r["method"]: r["best_s"] for r in rows if r["method"].startswith("pyfwht")}
    peer_in = next((t for m, t in peer.items() if "in place" in m), None)
    peer_out = next((t for m, t in peer.items() if "out of place" in m), None)
    for row in rows:
        mode_peer = peer_in if "in place" in row["method"] else peer_out
        row["ratio_to_pyfwht_same_mode"] = row["best_s"] / mode_peer if mode_peer else None

    lines = [
        f"FWHT of 2**{n} float64 values, best of {repeats} (wall time)",
        "",
        "| method | best (ms) | median (ms) | best / pyfwht (same mode) |",
        "|---|---:|---:|---:|",
    ]
    for row in rows:
        ratio = row["ratio_to_pyfwht_same_mode"]
        lines.append(
            f"| {row['method']} | {row['best_s'] * 1e3:.1f} | {row['median_s'] * 1e3:.1f} | "
            f"{'n/a' if ratio is None else f'{ratio:.2f}x'} |"
        )
    lines.append("")
    described = []
    for name, a in agreement.items():
        rel = a["max_rel_diff"]
        described.append(f"{name}: " + ("bitwise equal" if a["bitwise_equal"] else f"max rel diff {rel:.1e}"))
    lines.append("agreement with sparseact.fwht (out of place): " + ", ".join(described))
    lines.extend(notes)
    print("\n".join(lines))

    payload = {
        "benchmark": "fwht",
        "n": n,
        "length": 1 << n,
        "dtype": "float64",
        "repeats": repeats,
        "rows": rows,
        "agreement": agreement,
        "notes": notes,
        "environment": {
            "python": platform.python_version(),
            "numpy": np.__version__,
            "numba": numba.__version__,
            "pyfwht": None if pyfwht is None else pyfwht.version(),
            "cpu": cpu_model(),
            "platform": platform.platform(),
        },
    }
    write_results(args.out, payload)
    return 0


if __name__ == "__main__":
    sys.exit(main())
