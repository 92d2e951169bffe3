"""What the warm job server saves on one short job: the same command in its own process and forked from a server.

The job is a data job of Lemma 10 (``sparseact generate`` of a shard of ``appendixB``, three points computed in
milliseconds), so
its time is start-up. It runs ``--rounds`` times each way, alternated: in its own process, from a server that imported
the third-party modules and ``sparseact.cli`` only, and from one that imported what the Snakefile names
(:func:`sparseact.cli.job_modules`). Wall time is the job's process's; CPU time is that process's plus, for a served
job, the child's (its usage line).

    python benchmarks/bench_jobserver.py --rounds 15
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from _common import cpu_model, under_job_environment, write_results

from sparseact.claims import claim_ids
from sparseact.claims.shards import shard_manifest, write_shard_manifest
from sparseact.cli import job_modules
from sparseact.runtime.accel import jobclient, jobserver
from sparseact.runtime.accel.usage import USAGE_PREFIX, usage_from_log

POINTS = {
    f"appendixB-rho{rho}": {"instances": 2, "k": 2, "kind": "appendixB", "n": 5, "rho": rho, "s": 3}
    for rho in (0.0, 0.3, 0.5)
}
#: The library modules the workflow's server imports, and the least a server can import.
WARM = {"cli": ["sparseact.cli"], "jobs": job_modules(claim_ids())}


def _job(env: dict, out: Path) -> tuple[float, float]:
    """Wall and CPU seconds of one data job with ``env``."""
    shard = out.with_suffix(".json")
    write_shard_manifest(shard, shard_manifest("lemma10", "appendixB", POINTS, 1, 1, "bench"))
    command = [sys.executable, "-m", "sparseact.cli", "generate", str(shard), "--out", str(out)]
    before, start = resource.getrusage(resource.RUSAGE_CHILDREN), time.perf_counter()
    done = subprocess.run(command, env=env, capture_output=True, text=True, check=True)
    wall, after = time.perf_counter() - start, resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
    served = usage_from_log(done.stderr)
    return wall, cpu + (served[0] if served else 0.0)


def _server(modules: list[str], log: Path) -> tuple[subprocess.Popen, dict]:
    """A server importing ``modules`` and the environment of its jobs, once it serves."""
    folder = jobserver.private_folder()
    env = {
        **os.environ,
        **jobserver.ONE_THREAD,
        jobclient.ADDRESS_VARIABLE: os.path.join(folder, jobclient.SOCKET_NAME),
    }
    command = [sys.executable, "-m", "sparseact.runtime.accel.jobserver", folder, str(os.getpid()), *modules]
    with open(log, "w", encoding="utf-8") as handle:
        server = subprocess.Popen(command, env=env, stdout=handle, stderr=subprocess.STDOUT, start_new_session=True)
    probe = [sys.executable, "-m", "sparseact.cli", "--help"]
    while USAGE_PREFIX not in subprocess.run(probe, env=env, capture_output=True, text=True).stderr:
        if server.poll() is not None or "declined" in log.read_text():
            raise SystemExit(f"the job server does not serve: {log.read_text()}")
        time.sleep(0.5)
    return server, env


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=15, help="jobs of each kind, alternated (default 15)")
    parser.add_argument("--out", type=Path, default=Path(__file__).parent / "results" / "jobserver.json")
    args = parser.parse_args(argv)
    under_job_environment()
    times: dict[str, list[tuple[float, float]]] = {"own process": [], **{f"server ({w})": [] for w in WARM}}
    with tempfile.TemporaryDirectory() as folder:
        servers = {f"server ({w})": _server(modules, Path(folder) / f"{w}.log") for w, modules in WARM.items()}
        envs = {"own process": {**os.environ, **jobserver.ONE_THREAD}, **{k: env for k, (_, env) in servers.items()}}
        try:
            for _ in range(args.rounds):
                for kind, env in envs.items():
                    times[kind].append(_job(env, Path(folder) / "job.npz"))
        finally:
            for server, _ in servers.values():
                server.terminate()
                server.wait()
    medians = {kind: [statistics.median(t[i] for t in rows) for i in (0, 1)] for kind, rows in times.items()}
    for kind, (wall, cpu) in medians.items():
        print(f"{kind:16s} wall {wall:.3f} s  CPU {cpu:.3f} s (medians of {args.rounds})")
    write_results(args.out, {"cpu": cpu_model(), "rounds": args.rounds, "median_wall_cpu_s": medians})
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
