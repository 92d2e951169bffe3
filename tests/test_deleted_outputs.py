"""Every file a run produces comes back when deleted: after the session's quick run (tests/test_workflow.py's
``quick_run``), in a copy, one file of each kind is deleted at a time and ``snakemake -n`` must plan the job that
writes it; the files the workflow writes when it starts (code and completeness stamps) are deleted together, one of
each kind, and one start must write each of them again.

A kind is a produced file's path with the claim, shard and member names replaced (``figures/{claim}/{name}.png``,
``runs/{claim}/{name}.json``, ``report/graph.html``, ``code/{claim}-compute/{digest}.sha256``...), so the kinds are
read from the run, not typed here: a new output of a rule is a new kind. The file deleted of each kind is the one whose
path has the smallest SHA-256 (deterministic, and spread over the claims). Left out: the logs (a job is not rerun for
its log), the records a run writes when it ends (of the run's files and of the code stamps), which no job reads, and
the jobs' check stamps (see _left_out).
"""

import hashlib
import os
import re
import shutil
from pathlib import Path

import pytest
from test_workflow import (  # noqa: F401 (fixtures)
    QUICK,
    compiled_kernels,
    copy_repo,
    edited_config,
    job_stats,
    quick_run,
    snakemake,
)

from sparseact.claims import claim_ids
from sparseact.runtime.outputs import (
    MANIFEST_NAME,
    SNAKEMAKE_FILES,
    check_stamp,
    missing_members,
    write_manifest,
)


def _left_out(relative: str) -> bool:
    """Whether a file of the results is one no reader uses and no job is rerun for: a log, a record a run writes
    when it ends (stamps/files.json, code/<name>/record.json), or a job's check stamp, which is there only once the job
    had to run again (a fresh run's erratum job, whose folder had no manifest yet) and is asked for again only then."""
    return relative.split("/")[0] in ("logs", "stamps") or relative.endswith("/record.json")


def _kind(relative: str, claims: set[str]) -> str:
    parts = relative.split("/")
    generic = ["-".join("{claim}" if word in claims else word for word in part.split("-")) for part in parts[:-1]]
    stem, dot, suffix = parts[-1].partition(".")
    if re.fullmatch("[0-9a-f]{16}", stem):  # a stamp named by its digest
        stem = "{digest}"
    elif "{claim}" in generic and parts[-1] != MANIFEST_NAME:
        stem = "{name}"
    else:  # a claim's name as the stem or a hyphenated part of it: claims/{claim}.json, code/{claim}-compute.sha256
        stem = "-".join("{claim}" if word in claims else word for word in stem.split("-"))
        stem = "{claim}" if stem in claims else stem
    return "/".join([*generic, stem + dot + suffix])


def produced_kinds(results) -> dict[str, str]:
    """Kind -> the file of that kind deleted (relative to ``results``), for every file under ``results``."""
    claims = set(claim_ids())
    kinds: dict[str, list[str]] = {}
    for path in results.rglob("*"):
        relative = path.relative_to(results).as_posix()
        if not path.is_file() or path.name in SNAKEMAKE_FILES or _left_out(relative):
            continue
        kinds.setdefault(_kind(relative, claims), []).append(relative)
    return {
        kind: min(files, key=lambda name: hashlib.sha256(name.encode()).hexdigest())
        for kind, files in sorted(kinds.items())
    }


def planned_jobs(plan: str) -> list[dict[str, list[str]]]:
    """The jobs of a ``snakemake -n`` output: each as {"rule": [name], "input": [...], "output": [...], ...}."""
    jobs = []
    for line in plan.splitlines():
        stripped = line.strip()
        # localrules print "localrule", checkpoints (the ledger) "checkpoint" or "localcheckpoint"
        if stripped.startswith(("rule ", "localrule ", "checkpoint ", "localcheckpoint ")) and stripped.endswith(":"):
            jobs.append({"rule": [stripped.split(" ", 1)[1][:-1]]})
        elif jobs and ": " in stripped:
            key, _, value = stripped.partition(": ")
            if key in ("input", "output", "benchmark"):
                jobs[-1][key] = value.split(", ")
    return jobs


def _writer(jobs, relative_to_repo: str):
    """The planned job that writes the file: it lists it (or a folder holding it) as an output or benchmark, or it
    reads a check stamp the plan writes anew (a member of a folder Snakemake does not see: the erratum's PDF, a
    slice)."""
    for job in jobs:
        written = job.get("output", []) + job.get("benchmark", [])
        if any(relative_to_repo == out or relative_to_repo.startswith(out + "/") for out in written):
            return job["rule"][0]
    checks = {out for job in jobs if job["rule"] == ["stamp"] for out in job.get("output", []) if "/stamps/" in out}
    return next((job["rule"][0] for job in jobs if checks & set(job.get("input", []))), None)


@pytest.fixture(scope="module")
def deletable(quick_run, tmp_path_factory):  # noqa: F811 (the fixture imported above)
    work = tmp_path_factory.mktemp("deleted") / "repo"
    shutil.copytree(quick_run, work, symlinks=True)
    return work


@pytest.mark.workflow
def test_every_kind_of_produced_file_is_rebuilt_when_deleted(deletable, quick_run):  # noqa: F811
    pristine = quick_run / QUICK
    results = deletable / QUICK
    kinds = produced_kinds(results)
    assert len(kinds) >= 30, sorted(kinds)
    failures, writers = [], {}

    for kind, relative in kinds.items():
        path = results / relative
        path.unlink()
        try:
            plan = snakemake(deletable, "-n")
            writer = _writer(planned_jobs(plan), f"{QUICK}/{relative}")
            if "Nothing to be done" in plan or writer is None:
                failures.append(f"{kind} ({relative}): not planned")
            writers[kind] = writer
        finally:
            shutil.copy2(pristine / relative, path)
    assert not failures, "\n".join(failures)
    # every rule whose outputs a reader uses is among the writers (rule all only requests; docs_figure copies the full
    # run's figures to docs/, which a run into another results directory leaves alone)
    assert set(writers.values()) == {
        "assemble",
        "claim_page",
        "data",
        "erratum_pdf",
        "kernels",
        "ledger",
        "report",
        "run",
        "run_template",
        "screenshots",
        "shard_manifest",
        "stamp",
    }, writers
    assert "Nothing to be done" in snakemake(deletable, "-n")


def test_a_manifest_lists_what_the_job_wrote(tmp_path):
    folder = tmp_path / "figures" / "claim"
    (folder / "sub").mkdir(parents=True)
    for name in ("a.png", "a.pdf", "sub/b.csv", ".snakemake_timestamp"):
        (folder / name).write_bytes(name.encode())
    write_manifest(folder)
    listed = [line.split("  ")[1] for line in (folder / MANIFEST_NAME).read_text().splitlines()]
    assert listed == ["a.pdf", "a.png", "sub/b.csv"]
    assert missing_members(folder) == []
    (folder / "sub" / "b.csv").unlink()
    assert missing_members(folder) == [(folder / "sub" / "b.csv").as_posix()]
    (folder / MANIFEST_NAME).unlink()
    assert missing_members(folder) == [(folder / MANIFEST_NAME).as_posix()]
    assert missing_members(tmp_path / "absent") == []


def test_a_check_stamp_is_renamed_while_a_member_is_missing_or_a_file_changed(tmp_path):
    """A job's check stamp is found without writing anything: none, or the one its folder holds, while nothing is
    missing or changed; else a new name (the same within a start), which the workflow's rule stamp writes."""
    folder = tmp_path / "stamps" / "assemble" / "claim"
    assert check_stamp(folder, []) == (None, None)
    path, text = check_stamp(folder, ["figures/claim/a.png"])
    assert text == "missing or changed: figures/claim/a.png\n" and Path(path).parent == folder
    assert check_stamp(folder, ["figures/claim/a.png"]) == (path, text) and not folder.exists()
    folder.mkdir(parents=True)
    Path(path).write_text(text)  # the rule stamp wrote it
    assert check_stamp(folder, []) == (path, None)
    again, _ = check_stamp(folder, ["figures/claim/a.png"])
    assert again != path and Path(again).parent == folder


@pytest.mark.workflow
def test_files_changed_with_their_time_kept_are_rebuilt(quick_run, tmp_path):  # noqa: F811
    """A data archive, a runs table, a claim's result and a figure, each truncated or overwritten with its time kept:
    "Nothing to be done" before; now each is named in a warning and its job planned."""
    work = tmp_path / "repo"
    shutil.copytree(quick_run, work, symlinks=True)
    results = work / QUICK
    damaged = {
        "data": next((results / "data").rglob("*.npz")),
        "run": next((results / "runs").rglob("*.json")),
        "assemble": next((results / "claims").glob("*.json")),
    }
    damaged["figure"] = next(p for p in (results / "figures").rglob("*.png"))
    for path in damaged.values():
        status = path.stat()
        data = path.read_bytes()
        path.write_bytes(data[: len(data) // 2] if path.suffix != ".png" else bytes(len(data)))
        os.utime(path, ns=(status.st_atime_ns, status.st_mtime_ns))
    plan = snakemake(work, "-n")
    jobs = planned_jobs(plan)
    for kind, path in damaged.items():
        relative = path.relative_to(work).as_posix()
        assert f"warning: {relative} changed with its modification time kept" in plan, kind
        assert _writer(jobs, relative) in ("data", "run", "assemble"), (kind, relative)


def _snapshot(root) -> dict[str, tuple[int, str]]:
    """Every file under ``root``: its modification time and SHA-256."""
    return {
        path.relative_to(root).as_posix(): (path.stat().st_mtime_ns, hashlib.sha256(path.read_bytes()).hexdigest())
        for path in sorted(root.rglob("*"))
        if path.is_file()
    }


@pytest.mark.workflow
def test_a_dry_run_plans_the_stamps_and_writes_nothing(quick_run, tmp_path):  # noqa: F811
    """The fourth probe: a dry run wrote the record of the run's files and the code stamps' records, and created a new
    results folder's stamps. Now a dry run after a finished run, after a module edit, after a figure changed with its
    time kept and into a new results folder changes no file under results/, and plans what a run would write: the
    stamps among them."""
    work = tmp_path / "repo"
    shutil.copytree(quick_run, work, symlinks=True)
    before = _snapshot(work / "results")
    assert "Nothing to be done" in snakemake(work, "-n")
    assert _snapshot(work / "results") == before
    module = work / "src" / "sparseact" / "claims" / "section1_index" / "figures.py"
    module.write_text(module.read_text() + "\n# edited by the dry-run test\n")
    figure = next((work / QUICK / "figures").rglob("*.png"))
    status = figure.stat()
    figure.write_bytes(bytes(status.st_size))
    os.utime(figure, ns=(status.st_atime_ns, status.st_mtime_ns))
    before = _snapshot(work / "results")
    plan = snakemake(work, "-n")
    stats = job_stats(plan, stamps=True)
    assert stats.get("stamp", 0) >= 2 and stats.get("assemble", 0) >= 1, plan[-3000:]
    assert _snapshot(work / "results") == before
    other = edited_config(
        work,
        lambda config: config.update(
            results_dir="results/q2", figures_dir="results/q2/figures", logs_dir="results/q2/logs"
        ),
    )
    assert "stamp" in job_stats(snakemake(work, "-n", configfile=other), stamps=True)
    assert not (work / "results" / "q2").exists() and _snapshot(work / "results") == before
