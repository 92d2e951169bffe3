"""Helpers shared by the benchmark scripts (run as ``python benchmarks/<script>.py``)."""

from __future__ import annotations

import json
import os
import platform
import sys
from pathlib import Path


def cpu_model() -> str:
    """The CPU model name from /proc/cpuinfo, or the platform's processor string."""
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown"


def under_job_environment() -> None:
    """Start this script again, the same command line, where a variable of the workflow's job environment is unset.

    The workflow's jobs run with one BLAS and OpenMP thread each, glibc's malloc keeping freed arrays mapped and
    numpy's and OpenBLAS's portable code paths (:func:`sparseact.runtime.provenance.job_environment`; rule files'
    ``os.environ.setdefault``). A timing script run without them counts other work: :mod:`pure_computation` took
    390 s by hand against about 230 s under them on the project's two-core machine, its workers' BLAS threads
    contending for the cores. Those libraries read the variables when the process starts, so they are set for a new one
    (``os.execve``); a variable already set keeps its value, as in the workflow. Returns when none is missing.
    """
    from sparseact.runtime.provenance import job_environment

    missing = {name: value for name, value in job_environment().items() if name not in os.environ}
    if missing:
        print(f"{Path(sys.argv[0]).name}: starting again with the jobs' {', '.join(sorted(missing))}", file=sys.stderr)
        sys.stdout.flush()
        sys.stderr.flush()
        os.execve(sys.executable, [sys.executable, *sys.orig_argv[1:]], {**os.environ, **missing})


def write_results(path: Path, payload: dict) -> None:
    """Write a benchmark's JSON results (parents created) and say where."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(payload, indent=2) + "\n")
    print(f"\nwrote {path}")
