"""Every file a run produces comes back when deleted: after the session's quick run (tests/test_workflow.py's
``quick_run``), in a copy, one file of each kind is deleted at a time and ``snakemake -n`` must plan the job that
writes it; the files the workflow writes when it starts (code and completeness stamps) are deleted together, one of
each kind, and one start must write each of them again.

A kind is a produced file's path with the claim, shard and member names replaced (``figures/{claim}/{name}.png``,
``runs/{claim}/{name}.json``, ``report/graph.html``...), so the kinds are read from the run, not typed here: a new
output of a rule is a new kind. The file deleted of each kind is the one whose path has the smallest SHA-256
(deterministic, and spread over the claims). The logs are the one kind left out: a job is not rerun for its log.
"""

import hashlib
import os
import shutil

import pytest
from test_workflow import QUICK, compiled_kernels, copy_repo, quick_run, snakemake  # noqa: F401 (fixtures)

from sparseact.claims import claim_ids
from sparseact.runtime.outputs import (
    MANIFEST_NAME,
    SNAKEMAKE_FILES,
    completeness_stamp,
    missing_members,
    write_manifest,
)

#: The folders of files the workflow writes when it starts (code stamps, completeness stamps), not jobs.
START_UP = ("code", "stamps")
#: Folders of files no reader uses and no job is rerun for.
LEFT_OUT = ("logs",)


def _kind(relative: str, claims: set[str]) -> str:
    parts = relative.split("/")
    generic = ["{claim}" if part in claims else part for part in parts[:-1]]
    stem, dot, suffix = parts[-1].partition(".")
    if "{claim}" in generic and parts[-1] != MANIFEST_NAME:
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
        if not path.is_file() or path.name in SNAKEMAKE_FILES or relative.split("/")[0] in LEFT_OUT:
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


def _writer(jobs, relative_to_repo: str, stamps: list[str]):
    """The planned job that writes the file: it lists it (or a folder holding it) as an output or benchmark, or it
    reads a completeness stamp that names it."""
    for job in jobs:
        written = job.get("output", []) + job.get("benchmark", [])
        if any(relative_to_repo == out or relative_to_repo.startswith(out + "/") for out in written):
            return job["rule"][0]
        if any(stamp in job.get("input", []) for stamp in stamps):
            return job["rule"][0]
    return None


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

    def restore(names):  # the files and the start-up files as the run left them, time stamps included
        for name in [*names, *(f"{folder}/{p.name}" for folder in START_UP for p in (pristine / folder).iterdir())]:
            shutil.copy2(pristine / name, results / name)

    # the start-up writes each of its files whatever the others' state, so one start checks all of them
    start_up = {kind: relative for kind, relative in kinds.items() if relative.split("/")[0] in START_UP}
    assert start_up, "no file written at start-up"
    for relative in start_up.values():
        (results / relative).unlink()
    try:
        snakemake(deletable, "-n")
        failures += [
            f"{kind}: not written again at start-up" for kind, rel in start_up.items() if not (results / rel).is_file()
        ]
    finally:
        restore(start_up.values())
    for kind, relative in kinds.items():
        if kind in start_up:
            continue
        path = results / relative
        path.unlink()
        try:
            plan = snakemake(deletable, "-n")
            stamps = [
                f"{QUICK}/stamps/{stamp.name}"
                for stamp in (results / "stamps").glob("*.txt")
                if f"{QUICK}/{relative}" in stamp.read_text().split()
            ]
            writer = _writer(planned_jobs(plan), f"{QUICK}/{relative}", stamps)
            if "Nothing to be done" in plan or writer is None:
                failures.append(f"{kind} ({relative}): not planned")
            writers[kind] = writer
        finally:
            restore([relative])
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


def test_the_stamp_moves_only_while_a_member_is_missing(tmp_path):
    import os

    folder = tmp_path / "tables"
    folder.mkdir()
    (folder / "t.csv").write_text("x\n")
    write_manifest(folder)
    stamp = tmp_path / "stamps" / "job.txt"
    completeness_stamp(stamp, folder)
    assert stamp.read_text() == "complete\n"
    os.utime(stamp, (1, 1))
    completeness_stamp(stamp, folder)
    assert stamp.stat().st_mtime == 1  # complete: left alone
    (folder / "t.csv").unlink()
    completeness_stamp(stamp, folder)
    first = stamp.read_text()
    assert stamp.stat().st_mtime > 1 and str(folder / "t.csv") in first
    completeness_stamp(stamp, folder)
    assert stamp.read_text() != first  # the content changes each time, so Snakemake's checksum sees it


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
        stamps = [
            f"{QUICK}/stamps/{stamp.name}"
            for stamp in (results / "stamps").glob("*.txt")
            if relative in stamp.read_text().split()
        ]
        assert _writer(jobs, relative, stamps) in ("data", "run", "assemble"), (kind, relative)
