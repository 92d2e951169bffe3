"""One run at a time per results folder (sparseact.runtime.runlock): a second run that would execute jobs is refused in
one line naming the first, a dry run goes on, and a killed run leaves no lock."""

import os
import subprocess
import sys

import pytest

from sparseact.runtime import runlock
from sparseact.runtime.errors import ConfigError
from sparseact.runtime.runlock import hold_run_lock

HOLDER = """
import sys, time
from sparseact.runtime.runlock import hold_run_lock
hold_run_lock(sys.argv[1], ["--cores", "1"], sys.argv[2])
print("held", flush=True)
time.sleep(600)
"""


@pytest.fixture
def held(tmp_path, monkeypatch):
    """Another process holding the lock of results_dir ``results`` under ``tmp_path``; this process holds none."""
    monkeypatch.setattr(runlock, "_HELD", {})
    holder = subprocess.Popen(
        [sys.executable, "-c", HOLDER, "results", str(tmp_path)], stdout=subprocess.PIPE, text=True
    )
    assert holder.stdout.readline() == "held\n"
    yield holder
    holder.kill()
    holder.wait()
    holder.stdout.close()
    for descriptor in runlock._HELD.values():
        os.close(descriptor)


def test_a_second_run_is_refused_naming_the_first(held, tmp_path):
    with pytest.raises(ConfigError, match=rf"^another run writes results_dir 'results' \(process {held.pid}, lock "):
        hold_run_lock("results", ["--cores", "2"], tmp_path)


@pytest.mark.parametrize("argv", [["-n"], ["--cores", "2", "-np"], ["--dry-run"], ["--lint"], ["--summary"]])
def test_a_command_that_runs_no_job_goes_on(held, tmp_path, argv):
    hold_run_lock("results", argv, tmp_path)
    assert runlock._HELD == {}


def test_another_results_folder_is_not_held(held, tmp_path):
    hold_run_lock("results/quick", ["--cores", "2"], tmp_path)
    assert len(runlock._HELD) == 1


def test_a_killed_run_leaves_no_lock(held, tmp_path):
    held.kill()
    held.wait()
    hold_run_lock("results", ["--cores", "2"], tmp_path)
    hold_run_lock("results", ["--cores", "2"], tmp_path)  # a second Snakemake run in this process keeps it
    assert len(runlock._HELD) == 1


def test_a_symlink_in_place_of_the_lock_is_refused(tmp_path, monkeypatch):
    monkeypatch.setattr(runlock, "_HELD", {})
    lock = runlock.run_record("results", tmp_path).with_suffix(".lock")
    lock.parent.mkdir(parents=True)
    lock.symlink_to(tmp_path / "elsewhere")
    with pytest.raises(ConfigError, match="cannot open the lock"):
        hold_run_lock("results", ["--cores", "2"], tmp_path)
    assert not (tmp_path / "elsewhere").exists()


def test_a_dry_run_takes_no_lock(tmp_path, monkeypatch):
    monkeypatch.setattr(runlock, "_HELD", {})
    hold_run_lock("results", ["-n", "--cores", "2"], tmp_path)
    assert runlock._HELD == {} and not runlock.run_record("results", tmp_path).with_suffix(".lock").exists()


def test_a_lock_that_is_not_a_regular_file_is_refused(tmp_path, monkeypatch):
    monkeypatch.setattr(runlock, "_HELD", {})
    lock = runlock.run_record("results", tmp_path).with_suffix(".lock")
    lock.parent.mkdir(parents=True)
    os.mkfifo(lock)
    with pytest.raises(ConfigError, match="is not a regular file"):
        hold_run_lock("results", ["--cores", "2"], tmp_path)


def test_the_flags_without_jobs_are_snakemakes():
    """NO_JOB_FLAGS and NO_JOB_LETTERS are the option strings Snakemake's parser gives NO_JOB_OPTIONS, so that a
    command line naming none of them is read as running jobs without building the parser."""
    from snakemake.cli import get_argument_parser

    strings = [
        option
        for action in get_argument_parser()._actions
        if action.dest in runlock.NO_JOB_OPTIONS
        for option in action.option_strings
    ]
    assert {o for o in strings if o.startswith("--")} == set(runlock.NO_JOB_FLAGS)
    assert {o[1] for o in strings if not o.startswith("--")} == set(runlock.NO_JOB_LETTERS)
