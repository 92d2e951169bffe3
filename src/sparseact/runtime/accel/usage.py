"""The usage line of a job that ran in the warm job server (:mod:`sparseact.runtime.accel.jobserver`).

Snakemake's ``benchmark:`` files time each job's own process: for a job forked from the job server, that process
only waits, so the job's CPU time and peak memory are the forked child's. The waiting process writes them to the
job's standard error as one line, :data:`USAGE_PREFIX` ``<cpu seconds> <peak MB>`` (:func:`usage_line`), and the
cost table and the report's timings read it back from the job's log (:func:`usage_from_log`). Apart from the server,
so that what reads the line does not import the server (nor what the server imports).
"""

from __future__ import annotations

#: The line the waiting process writes to the job's standard error: ``<prefix> <cpu s> <peak MB>``.
USAGE_PREFIX = "sparseact job server usage:"


def usage_line(cpu_s: float, max_rss_mb: float) -> str:
    """The usage line of a job whose child used ``cpu_s`` CPU seconds and at most ``max_rss_mb`` MB."""
    return f"{USAGE_PREFIX} {cpu_s:.2f} {max_rss_mb:.2f}\n"


def usage_from_log(text: str) -> tuple[float, float] | None:
    """CPU seconds and peak MB of a job that ran in the job server, from its log's :data:`USAGE_PREFIX` line."""
    for line in reversed(text.splitlines()):
        if line.startswith(USAGE_PREFIX):
            cpu, peak = line[len(USAGE_PREFIX) :].split()
            return float(cpu), float(peak)
    return None
