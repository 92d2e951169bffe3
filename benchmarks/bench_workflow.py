"""Time the workflow as a user meets it: a full run, the no-op after it, one added grid point, one figure edit.

Usage::

    python benchmarks/bench_workflow.py --config config/config.yaml
    python benchmarks/bench_workflow.py --rounds 2 --versus /path/to/clone-of-the-starting-revision

Copies the workflow, library and notebooks of this checkout into a temporary folder
(with an empty numba cache, so the kernels job compiles from scratch) and times there

1. the full run, ``snakemake --cores 2``, and its computation without start-up, two ways, on two workers: the
   full run's jobs replayed in process, each its own command (:mod:`job_replay`: figures, tables, notebooks,
   ledger, pages, the note's PDF and the report included), and the claims' stage functions alone
   (:mod:`pure_computation`: data, runs and the assembly's verdicts); and the ratio of the full run to each. Both
   with the kernels the full run compiled (the compile counts as overhead); the stage functions also from an
   empty numba cache, as the full run starts (its workers compile what they call; ``--no-cold`` skips it);
2. the no-op after it: the median of ``--noop-runs`` runs of ``snakemake --cores 2 -q``,
   each paired with a run of Snakemake's own floor (a one-rule workflow whose only
   input exists);
3. one added grid point: ``claims.lemma6.n_values`` grows by one value;
4. one figure edit: a comment appended to ``src/sparseact/claims/lemma6/figures.py``;

and, for 3 and 4, how many jobs the dry run plans (the point's data and run jobs,
Lemma 6's assembly, the ledger, the twelve claim pages (each shows its statements' statuses, read from the
ledger's tables), the note's PDF, the report, its screenshots and ``all``; a dry run before the ledger, a
checkpoint, cannot know which pages' slices will change, so it lists every page) and how many the run then
finished (only the pages whose notebook or slice changed; ``all`` included). Run it on an otherwise idle machine.

The machine's speed drifts by up to a quarter within minutes, so a ratio of two timings taken minutes apart
says little on its own. ``--rounds R`` times the full run and then its stage functions R times, each round in a
fresh copy with an empty numba cache, and reports each round's ratio and their median; ``--versus CHECKOUT``
puts another revision's full run and stage functions (its own library, workflow and ``pure_computation.py``)
before this checkout's in every round, so the two revisions alternate. Steps 1's replay and cold stage
functions, 2, 3 and 4 run once, on this checkout's last copy. Writes ``benchmarks/results/workflow.json``, with
the revisions, the load average at the start and the end, and every round's timings.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import yaml
from _common import cpu_model, write_results

from sparseact.runtime.provenance import job_environment

REPO = Path(__file__).resolve().parents[1]
#: What a run needs from the checkout (results, figures and logs are made in the copy).
COPIED = ("Snakefile", "config", "profiles", "workflow", "notebooks", "src", "environment.yml", "pyproject.toml")
#: The grid that grows by one point, and the figure module that is edited.
GROWN_CLAIM, GROWN_KEY, LARGEST_N = "lemma6", "n_values", 22
EDITED_FIGURES = Path("src") / "sparseact" / "claims" / "lemma6" / "figures.py"


def snakemake(cwd: Path, env: dict, *args: str) -> tuple[float, str]:
    """Wall seconds and output of one Snakemake call in ``cwd`` (which must succeed)."""
    start = time.perf_counter()
    proc = subprocess.run(["snakemake", "--cores", "2", *args], cwd=cwd, env=env, capture_output=True, text=True)
    seconds = time.perf_counter() - start
    if proc.returncode != 0:
        raise SystemExit(f"snakemake {' '.join(args)} failed in {cwd}:\n{proc.stderr[-3000:]}")
    return seconds, proc.stdout + proc.stderr


def planned_jobs(cwd: Path, env: dict, configfile: str) -> int:
    """How many jobs ``snakemake -n`` plans (0 when there is nothing to do)."""
    _, output = snakemake(cwd, env, "-n", "--configfile", configfile)
    found = re.search(r"^total\s+(\d+)\s*$", output, flags=re.MULTILINE)
    return int(found.group(1)) if found else 0


def ran_jobs(output: str) -> int:
    """How many jobs a Snakemake call's ``output`` says it finished (rule ``all`` included)."""
    return len(re.findall(r"^Finished jobid: \d+ \(Rule: \w+\)$", output, flags=re.MULTILINE))


def timed_script(script: Path, printed: str, work: Path, env: dict, configfile: str, out: Path, *extra: str) -> float:
    """Wall seconds a benchmark script (:mod:`pure_computation`, :mod:`job_replay`) prints as ``<printed>: <s> s``,
    run on the copy ``work`` (its library, its numba cache, the jobs' environment) with its output in ``out``."""
    proc = subprocess.run(
        [
            sys.executable,
            str(script),
            "--config",
            configfile,
            "--out",
            str(out),
            "--workers",
            "2",
            *extra,
        ],
        cwd=work,
        env={**job_environment(), **env},
        capture_output=True,
        text=True,
    )
    found = re.search(rf"^{printed}: ([0-9.]+) s", proc.stdout, flags=re.MULTILINE)
    if proc.returncode != 0 or not found:
        raise SystemExit(f"{script} failed in {work}:\n{proc.stderr[-3000:]}")
    return float(found.group(1))


def pure_computation_seconds(work: Path, env: dict, configfile: str, out: Path, checkout: Path = REPO) -> float:
    """Wall seconds of :mod:`pure_computation` (the claims' stage functions) on the copy ``work`` of ``checkout``,
    with the checkout's own script (its library's stage functions), this one's if it has none."""
    own = checkout / "benchmarks" / "pure_computation.py"
    script = own if own.is_file() else REPO / "benchmarks" / "pure_computation.py"
    return timed_script(script, "pure computation", work, env, configfile, out)


def replayed_seconds(work: Path, env: dict, configfile: str, out: Path) -> float:
    """Wall seconds of :mod:`job_replay` of the copy ``work``'s jobs, replayed in the folder ``out``."""
    return timed_script(
        REPO / "benchmarks" / "job_replay.py", "replayed jobs", work, env, configfile, out, "--repo", str(work)
    )


def grown_config(work: Path, configfile: str) -> str:
    """A copy of the config whose Lemma 6 grid has one more n (two above its largest, at most the schema's 22)."""
    config = yaml.safe_load((work / configfile).read_text())
    values = config["claims"][GROWN_CLAIM][GROWN_KEY]
    candidates = [min(max(values) + 2, LARGEST_N), *range(LARGEST_N, 1, -1)]
    values.append(next(n for n in candidates if n not in values))
    path = work / "config" / "benchmark-grown.yaml"
    path.write_text(yaml.safe_dump(config, sort_keys=False))
    return str(path.relative_to(work))


def revision(checkout: Path) -> str | None:
    """The commit ``checkout`` has checked out, with ``+uncommitted`` when what a run copies from it differs from the
    commit (``None`` outside a git work tree)."""
    proc = subprocess.run(["git", "rev-parse", "HEAD"], cwd=checkout, capture_output=True, text=True)
    if proc.returncode != 0:
        return None
    changed = subprocess.run(
        ["git", "status", "--porcelain", "--", *COPIED], cwd=checkout, capture_output=True, text=True
    ).stdout
    return proc.stdout.strip() + ("+uncommitted" if changed.strip() else "")


def fresh_copy(checkout: Path, work: Path) -> dict:
    """Copy what a run needs from ``checkout`` into ``work``; return the environment that runs it there (its own
    library first on ``PYTHONPATH``, an empty numba cache beside it, so its kernels jobs compile from scratch)."""
    work.mkdir(parents=True)
    for name in COPIED:
        if (checkout / name).is_dir():
            shutil.copytree(checkout / name, work / name, ignore=shutil.ignore_patterns("__pycache__", "*.egg-info"))
        elif (checkout / name).exists():
            shutil.copy2(checkout / name, work / name)
    return dict(os.environ, PYTHONPATH=str(work / "src"), NUMBA_CACHE_DIR=str(work.parent / f"{work.name}-numba"))


def ratio_summary(full: list[float], pure: list[float]) -> dict:
    """Each round's full run, stage functions and their ratio, and the ratios' median."""
    ratios = [f / p for f, p in zip(full, pure, strict=True)]
    return {
        "full_run_s": [round(s, 1) for s in full],
        "pure_computation_s": [round(s, 1) for s in pure],
        "full_over_pure": [round(r, 3) for r in ratios],
        "full_over_pure_median": round(statistics.median(ratios), 3),
    }


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--config", default="config/config.yaml", help="config file, relative to the repository")
    parser.add_argument("--noop-runs", type=int, default=9, help="no-op runs (paired with the floor's)")
    parser.add_argument(
        "--rounds", type=int, default=1, help="full runs, each followed by the stage functions (default 1)"
    )
    parser.add_argument(
        "--versus",
        type=Path,
        help="another checkout (the revision to compare with): in each round its full run and stage functions "
        "come first, with its own library and workflow",
    )
    parser.add_argument("--out", default=str(REPO / "benchmarks" / "results" / "workflow.json"))
    parser.add_argument(
        "--no-cold", action="store_true", help="skip the stage functions from an empty numba cache (about 3 min)"
    )
    args = parser.parse_args(argv)
    if args.noop_runs < 1:
        parser.error("--noop-runs must be at least 1")
    if args.rounds < 1:
        parser.error("--rounds must be at least 1")
    if args.versus is not None and not (args.versus / "Snakefile").is_file():
        parser.error(f"--versus {args.versus} is not a checkout of the workflow (no Snakefile)")
    checkouts = {"versus": args.versus.resolve()} if args.versus is not None else {}
    checkouts["this"] = REPO
    load_start = os.getloadavg()

    with tempfile.TemporaryDirectory(prefix="bench-workflow-") as tmp:
        timings = {label: ([], []) for label in checkouts}
        for round_index in range(args.rounds):
            for label, checkout in checkouts.items():
                work = Path(tmp) / f"{label}-{round_index}"
                env = fresh_copy(checkout, work)
                full, _ = snakemake(work, env, "--configfile", args.config)
                pure = pure_computation_seconds(work, env, args.config, work / "pure", checkout)
                timings[label][0].append(full)
                timings[label][1].append(pure)
                print(
                    f"round {round_index + 1}, {label} ({checkout}): full run ({args.config}) {full:.1f} s; "
                    f"stage functions {pure:.1f} s; full run / stage functions = {full / pure:.2f}",
                    flush=True,
                )
                if label != "this" or round_index + 1 < args.rounds:
                    shutil.rmtree(work)
        full = timings["this"][0][-1]
        replayed = replayed_seconds(work, env, args.config, Path(tmp) / "replay")
        print(f"jobs replayed in process: {replayed:.1f} s; full run / replay = {full / replayed:.2f}", flush=True)
        pure_cold = None
        if not args.no_cold:
            cold_env = dict(env, NUMBA_CACHE_DIR=str(Path(tmp) / "numba-cold"))
            pure_cold = pure_computation_seconds(work, cold_env, args.config, Path(tmp) / "pure-cold")
            print(
                f"stage functions from an empty numba cache: {pure_cold:.1f} s; full run / it = {full / pure_cold:.2f}",
                flush=True,
            )

        floor = Path(tmp) / "floor"
        floor.mkdir()
        (floor / "present").touch()
        (floor / "Snakefile").write_text('rule all:\n    input:\n        "present",\n')
        noop, bare = [], []
        for _ in range(args.noop_runs):
            noop.append(snakemake(work, env, "-q", "--configfile", args.config)[0])
            bare.append(snakemake(floor, env, "-q")[0])
        print(
            f"no-op: median {statistics.median(noop):.2f} s; Snakemake's floor {statistics.median(bare):.2f} s",
            flush=True,
        )

        grown = grown_config(work, args.config)
        point_jobs = planned_jobs(work, env, grown)
        point, output = snakemake(work, env, "--configfile", grown)
        point_ran = ran_jobs(output)
        print(f"one added grid point: {point:.1f} s, {point_jobs} jobs planned, {point_ran} run", flush=True)

        with open(work / EDITED_FIGURES, "a", encoding="utf-8") as handle:
            handle.write("\n# edited by benchmarks/bench_workflow.py\n")
        figure_jobs = planned_jobs(work, env, grown)
        figure, output = snakemake(work, env, "--configfile", grown)
        figure_ran = ran_jobs(output)
        print(f"one figure edit: {figure:.1f} s, {figure_jobs} jobs planned, {figure_ran} run", flush=True)

    this = ratio_summary(*timings["this"])
    for label in checkouts:
        median = ratio_summary(*timings[label])["full_over_pure_median"]
        print(f"{label}: full run / stage functions, median of {args.rounds} round(s): {median:.2f}")
    write_results(
        Path(args.out),
        {
            "cpu": cpu_model(),
            "config": args.config,
            "revision": revision(REPO),
            "load_average_1min_start_end": [round(load_start[0], 2), round(os.getloadavg()[0], 2)],
            "rounds": args.rounds,
            **this,
            "jobs_replayed_s": round(replayed, 1),
            "full_over_replayed": round(full / replayed, 2),
            "pure_computation_empty_cache_s": None if pure_cold is None else round(pure_cold, 1),
            "full_over_pure_empty_cache": None if pure_cold is None else round(full / pure_cold, 2),
            "noop_median_s": round(statistics.median(noop), 3),
            "noop_runs_s": [round(s, 3) for s in noop],
            "snakemake_floor_median_s": round(statistics.median(bare), 3),
            "added_point_s": round(point, 1),
            "added_point_jobs": point_jobs,
            "added_point_jobs_run": point_ran,
            "figure_edit_s": round(figure, 1),
            "figure_edit_jobs": figure_jobs,
            "figure_edit_jobs_run": figure_ran,
            "versus": None
            if args.versus is None
            else {
                "checkout": str(checkouts["versus"]),
                "revision": revision(checkouts["versus"]),
                **ratio_summary(*timings["versus"]),
            },
        },
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
