"""Benchmark the Walsh-Hadamard transform against its peers and one array copy.

For each size ``2**n`` (default n = 20, 22, 24) times, interleaved in one
process (each repetition runs every method once, in an order rotated from one
repetition to the next, so drifts in the machine's load hit all alike):

* ``sparseact.analysis.fwht`` in place (``out=`` the input buffer) and out of
  place (allocates and returns a new array);
* ``fht_cpu.fht`` (package ``fht-cpu``) in place and out of place, if importable;
* ``ffht.fht_`` / ``ffht.fht`` (FFHT; on PyPI as ``ffht-unofficial``), if importable;
* ``pyfwht.transform`` / ``pyfwht.compute`` (CPU backend), if importable;
* ``np.copyto`` of the array into another one;
* one read+write pass over the array in place (``np.multiply(x, 1.0, out=x)``),
  the unit of the floor column: every method's time in such passes, beside the
  floor, the passes the memory traffic needs (``ceil(n / m)``, where ``2**m``
  doubles fit in the last-level cache: one pass per ``m`` stages);
* ``sparseact.analysis.influences`` (all ``n`` influences of the table), as a
  ratio to one transform in place and out of place.

In-place methods get a fresh copy of the input before each call (untimed).
Peers that do not import are skipped with a message that also lands in the
JSON. Every result must agree with ours (bitwise equality is reported).

The figures are medians, over the repetitions, of *pairwise* ratios (ours
divided by the peer timed in the same repetition), with their min and max:
on a shared machine absolute times wander, ratios of neighbours much less. The
load average at the start and the end is recorded.

Prints markdown tables and writes ``benchmarks/results/fwht.json``.

Usage::

    python benchmarks/bench_fwht.py [--n 20 22 24] [--repeats 11]

(the targets of issue 23 are read at ``--n 22 24``).

The peers are optional benchmark extras, not dependencies of the project::

    pip install fht-cpu pyfwht
    pip install pybind11 && pip install --no-build-isolation ffht-unofficial
"""

from __future__ import annotations

import argparse
import math
import os
import platform
import statistics
import sys
import time
from importlib import metadata
from pathlib import Path

import numba
import numpy as np
from _common import cpu_model, write_results

from sparseact.analysis import fwht, influences

RESULTS = Path(__file__).resolve().parent / "results"

OURS_IN = "sparseact.fwht, in place"
OURS_OUT = "sparseact.fwht, out of place"
COPY = "np.copyto (one array copy)"
PASS = "one read+write pass (x *= 1.0 in place)"
INFLUENCES = "sparseact.influences (all n)"


def _version(dist: str) -> str:
    try:
        return metadata.version(dist)
    except metadata.PackageNotFoundError:
        return "?"


def peers(notes: list[str]) -> dict[str, tuple[str, object]]:
    """Method name -> (mode, callable(x) -> result) for the importable peers.

    ``mode`` is ``"in"`` (the callable transforms its argument in place) or
    ``"out"`` (it returns a new array and leaves the argument alone).
    """
    found: dict[str, tuple[str, object]] = {}
    try:
        import fht_cpu
    except ImportError as exc:
        notes.append(f"fht-cpu not importable ({exc}); `pip install fht-cpu` to compare")
    else:
        v = _version("fht-cpu")
        found[f"fht-cpu {v}, in place"] = ("in", lambda x: fht_cpu.fht(x))
        found[f"fht-cpu {v}, out of place"] = ("out", lambda x: fht_cpu.fht(x, inplace=False))
    try:
        import ffht
    except ImportError as exc:
        notes.append(
            f"FFHT not importable ({exc}); on PyPI as ffht-unofficial, which needs numpy and pybind11 "
            "at build time: `pip install pybind11 && pip install --no-build-isolation ffht-unofficial`"
        )
    else:
        v = _version("ffht-unofficial")
        found[f"FFHT {v}, in place"] = ("in", lambda x: ffht.fht_(x))
        found[f"FFHT {v}, out of place"] = ("out", lambda x: ffht.fht(x))
    try:
        import pyfwht
    except ImportError as exc:
        notes.append(f"pyfwht not importable ({exc}); `pip install pyfwht` to compare")
    else:
        v = pyfwht.version()
        cpu = pyfwht.Backend.CPU
        found[f"pyfwht {v} CPU, in place"] = ("in", lambda x: pyfwht.transform(x, backend=cpu))
        found[f"pyfwht {v} CPU, out of place"] = ("out", lambda x: pyfwht.compute(x, backend=cpu))
    return found


def llc_bytes() -> int | None:
    """Size of the largest CPU cache that sysfs lists (the last-level cache), or None."""
    sizes = []
    for path in Path("/sys/devices/system/cpu/cpu0/cache").glob("index*/size"):
        text = path.read_text().strip()
        unit = {"K": 1 << 10, "M": 1 << 20, "G": 1 << 30}.get(text[-1:], 1)
        sizes.append(int(text.rstrip("KMG")) * unit)
    return max(sizes, default=None)


def floor_passes(n: int, llc: int | None) -> int | None:
    """Read+write passes the transform of ``2**n`` doubles needs: one per ``m`` stages, ``2**m`` doubles in the LLC."""
    if llc is None:
        return None
    return math.ceil(n / max(1, int(math.log2(llc // 8))))


def ratio_stats(num: list[float], den: list[float]) -> dict:
    ratios = [a / b for a, b in zip(num, den, strict=True)]
    return {"median": statistics.median(ratios), "min": min(ratios), "max": max(ratios)}


def bench_size(n: int, repeats: int, peer_methods: dict, llc: int | None) -> dict:
    """Time every method at ``2**n``, interleaved; return times, ratios and agreement."""
    v = np.random.default_rng(12345 + n).standard_normal(1 << n)
    buf = np.empty_like(v)
    dst = np.empty_like(v)

    methods: dict[str, tuple[str, object]] = {
        OURS_IN: ("in", lambda x: fwht(x, out=x)),
        OURS_OUT: ("out", fwht),
        **peer_methods,
        COPY: ("copy", None),
        PASS: ("pass", None),
        INFLUENCES: ("out", influences),
    }
    results: dict[str, np.ndarray] = {}

    def run(name: str) -> tuple[float, float]:
        # (wall, this thread's CPU) seconds of one call
        mode, func = methods[name]
        if mode in ("in", "pass"):
            np.copyto(buf, v)
        t0, c0 = time.perf_counter(), time.thread_time()
        if mode == "copy":
            np.copyto(dst, v)
            res = None
        elif mode == "pass":
            np.multiply(buf, 1.0, out=buf)
            res = None
        elif mode == "in":
            func(buf)
            res = buf
        else:
            res = func(v)
        elapsed = time.perf_counter() - t0, time.thread_time() - c0
        if res is not None and name not in results:
            results[name] = res.copy() if res is buf else res
        return elapsed

    names = list(methods)
    for name in names:  # warm-up: JIT compile or cache load, first large allocations
        run(name)
    results.clear()
    times: dict[str, list[float]] = {name: [] for name in names}
    cpu: dict[str, list[float]] = {name: [] for name in names}
    for rep in range(repeats):
        shift = rep % len(names)
        for name in names[shift:] + names[:shift]:
            wall, thread = run(name)
            times[name].append(wall)
            cpu[name].append(thread)

    ref = results[OURS_OUT]
    scale = float(np.max(np.abs(ref)))
    agreement = {}
    for name, arr in results.items():
        if name in (COPY, PASS, INFLUENCES):
            continue
        diff = float(np.max(np.abs(arr - ref)))
        agreement[name] = {"bitwise_equal": bool(np.array_equal(arr, ref)), "max_rel_diff": diff / scale}
        if diff > 1e-9 * scale:
            raise SystemExit(f"MISMATCH at n={n}: {name} differs from sparseact.fwht by {diff:.3e}")
    # Influences against a direct evaluation from the table, Inf_i = E[(f(x) - f(x^i))^2] / 4.
    direct = np.array([np.mean(np.square(v - v.reshape(-1, 2, 1 << i)[:, ::-1, :].ravel())) / 4 for i in range(n)])
    infl_rel = float(np.max(np.abs(results[INFLUENCES] - direct) / direct))

    rows = []
    for name in names:
        row = {
            "method": name,
            "median_s": statistics.median(times[name]),
            "min_s": min(times[name]),
            "times_s": times[name],
            "cpu_median_s": statistics.median(cpu[name]),
            "cpu_times_s": cpu[name],
            "passes_cpu": ratio_stats(cpu[name], cpu[PASS]),
        }
        if name not in (OURS_IN, OURS_OUT, INFLUENCES, PASS):
            ours = OURS_OUT if methods[name][0] == "out" else OURS_IN
            row["ours_over_this"] = ratio_stats(times[ours], times[name])
            row["ours_over_this_cpu"] = ratio_stats(cpu[ours], cpu[name])
            row["ours_mode"] = ours
        rows.append(row)

    def both(a: str, b: str) -> dict:
        return {"wall": ratio_stats(times[a], times[b]), "cpu": ratio_stats(cpu[a], cpu[b])}

    # The fastest peer in place (lowest median CPU time), the one the targets name.
    in_place_peers = [name for name in peer_methods if peer_methods[name][0] == "in"]
    fastest = min(in_place_peers, key=lambda name: statistics.median(cpu[name]), default=None)

    return {
        "n": n,
        "length": 1 << n,
        "rows": rows,
        "floor_passes": floor_passes(n, llc),
        "fastest_peer_in_place": fastest,
        "ours_in_place_over_fastest_peer": both(OURS_IN, fastest) if fastest else None,
        "ours_in_place_over_copy": both(OURS_IN, COPY),
        "ours_in_place_over_pass": both(OURS_IN, PASS),
        "influences_over_transform_out_of_place": both(INFLUENCES, OURS_OUT),
        "influences_over_transform_in_place": both(INFLUENCES, OURS_IN),
        "influences_max_rel_diff_vs_direct": infl_rel,
        "agreement": agreement,
    }


def fmt(r: dict) -> str:
    return f"{r['median']:.2f}x ({r['min']:.2f}-{r['max']:.2f})"


def fmt_both(r: dict) -> str:
    return f"{fmt(r['wall'])} wall, {fmt(r['cpu'])} CPU"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, nargs="+", default=[20, 22, 24], help="log2 of the transform lengths")
    parser.add_argument("--repeats", type=int, default=11)
    parser.add_argument("--out", type=Path, default=RESULTS / "fwht.json")
    args = parser.parse_args(argv)

    notes: list[str] = []
    peer_methods = peers(notes)
    for note in notes:
        print(f"[skip] {note}", file=sys.stderr)

    llc = llc_bytes()
    load_start = os.getloadavg()
    sizes = []
    lines = [
        f"FWHT of float64 arrays; {args.repeats} interleaved repetitions. Ratio = ours / method in the same "
        "repetition (ours in the method's mode; < 1 means ours is faster): median (min-max), of wall time and "
        "of this thread's CPU time (which a loaded machine disturbs less; every method here is single-threaded). "
        "Passes = method / one read+write pass over the array in place, CPU; the floor is the passes the memory "
        f"traffic needs (last-level cache {llc} bytes). Load average at the start: {load_start[0]:.1f}.",
    ]
    for n in args.n:
        res = bench_size(n, args.repeats, peer_methods, llc)
        sizes.append(res)
        lines += [
            "",
            f"### 2**{n}",
            "",
            "| method | median wall (ms) | ours / method, wall | median CPU (ms) | ours / method, CPU "
            f"| passes, CPU (floor {res['floor_passes']}) |",
            "|---|---:|---:|---:|---:|---:|",
        ]
        for row in res["rows"]:
            wall = fmt(row["ours_over_this"]) if "ours_over_this" in row else ""
            thread = fmt(row["ours_over_this_cpu"]) if "ours_over_this_cpu" in row else ""
            lines.append(
                f"| {row['method']} | {row['median_s'] * 1e3:.2f} | {wall} | {row['cpu_median_s'] * 1e3:.2f} | {thread} "
                f"| {fmt(row['passes_cpu'])} |"
            )
        lines.append("")
        if res["fastest_peer_in_place"]:
            lines.append(
                f"ours in place / fastest peer in place ({res['fastest_peer_in_place']}): "
                f"{fmt_both(res['ours_in_place_over_fastest_peer'])}"
            )
        lines.append(f"ours in place / one array copy: {fmt_both(res['ours_in_place_over_copy'])}")
        lines.append(
            f"ours in place / one read+write pass: {fmt_both(res['ours_in_place_over_pass'])} "
            f"(floor: {res['floor_passes']} passes)"
        )
        lines.append(
            f"influences / one transform out of place: {fmt_both(res['influences_over_transform_out_of_place'])}"
        )
        lines.append(f"influences / one transform in place: {fmt_both(res['influences_over_transform_in_place'])}")
        lines.append(f"influences, max rel diff vs direct evaluation: {res['influences_max_rel_diff_vs_direct']:.1e}")
        equal = [name for name, a in res["agreement"].items() if a["bitwise_equal"]]
        other = [
            f"{name} (max rel diff {a['max_rel_diff']:.1e})"
            for name, a in res["agreement"].items()
            if not a["bitwise_equal"]
        ]
        lines.append("bitwise equal to ours: " + ", ".join(equal) + (("; not: " + ", ".join(other)) if other else ""))
        print("\n".join(lines), flush=True)
        lines = []
    load_end = os.getloadavg()
    print("\n".join(lines + notes + [f"load average at the end: {load_end[0]:.1f}"]))

    payload = {
        "benchmark": "fwht",
        "dtype": "float64",
        "repeats": args.repeats,
        "timers": "time.perf_counter (wall) and time.thread_time (this thread's CPU)",
        "load_average_start": load_start,
        "load_average_end": load_end,
        "llc_bytes": llc,
        "sizes": sizes,
        "notes": notes,
        "environment": {
            "python": platform.python_version(),
            "numpy": np.__version__,
            "numba": numba.__version__,
            "peers": {name: _version(name) for name in ("fht-cpu", "ffht-unofficial", "pyfwht")},
            "cpu_model": cpu_model(),
            "platform": platform.platform(),
        },
    }
    write_results(args.out, payload)
    return 0


if __name__ == "__main__":
    sys.exit(main())
