"""A truncated or corrupt intermediate file (a shard's data archive or runs table) is named with what to do, not a
raw BadZipFile or JSONDecodeError, and one changed with its time kept is rebuilt; a data file made with another seed
than the config's is refused by its run."""

import json
import os
import shutil
import time
from pathlib import Path

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from sparseact.claims import generate_point, get_claim, run_shard
from sparseact.claims._stages import load_run, write_run
from sparseact.runtime.datafiles import REGENERATE, load_arrays
from sparseact.runtime.outputs import check_run_files, recorded_files

CLAIM = "section1_index"


@pytest.fixture
def data_file(tmp_path, repo_root):
    """A one-point data file of the quick config's first section1_index point, made with seed 7."""
    block = yaml.safe_load((repo_root / "config" / "quick.yaml").read_text())["claims"][CLAIM]
    name, point = next(iter(get_claim(CLAIM).points(block).items()))
    path = tmp_path / "shard.npz"
    generate_point(CLAIM, name, point, 7, 1, path)
    return path, name


def run_job_argv(data_file, tmp_path, repo_root, seed=7, **params) -> list[str]:
    """The run job's command for the one-point shard of ``data_file``, with its shard manifest (``seed``) beside it."""
    import sys

    from sparseact.claims.shards import shard_manifest, write_shard_manifest

    path, name = data_file
    block = yaml.safe_load((repo_root / "config" / "quick.yaml").read_text())["claims"][CLAIM]
    manifest = tmp_path / "shard.json"
    write_shard_manifest(
        manifest, shard_manifest(CLAIM, name, {name: get_claim(CLAIM).points(block)[name]}, seed, 1, "0")
    )
    argv = [sys.executable, "-m", "sparseact.cli", "run-notebook", "notebooks/run_shard.py"]
    argv += ["--executed", str(tmp_path / "run.ipynb"), "--kernel", "sparseact", "--cwd", "."]
    for key, value in dict(shard_path=manifest, data_path=path, run_path=tmp_path / "run.json", **params).items():
        argv += ["--param", f"{key}={value}"]
    return argv


@pytest.mark.parametrize("keep", [0, 10, 100, 0.5, -1, -100])
def test_a_truncated_data_file_is_named(data_file, keep):
    path, _ = data_file
    data = path.read_bytes()
    cut = int(len(data) * keep) if isinstance(keep, float) else keep
    path.write_bytes(data[:cut])
    with pytest.raises(ValueError, match=r"truncated or corrupt.*delete it and rerun"):
        load_arrays(path)


@pytest.mark.parametrize("garbage", [b"", b"not a zip", b"PK\x03\x04" + b"\x00" * 100, bytes(range(256)) * 10])
def test_a_corrupt_data_file_is_named(tmp_path, garbage):
    path = tmp_path / "shard.npz"
    path.write_bytes(garbage)
    with pytest.raises(ValueError, match=f"{path}.*truncated or corrupt"):
        load_arrays(path)


def test_a_data_file_made_with_another_seed_is_refused(data_file):
    path, name = data_file
    with pytest.raises(ValueError, match="seed 7, not 8"):
        run_shard(path, CLAIM, name, seed=8)
    meta, _ = run_shard(path, CLAIM, name, seed="7")  # the workflow passes the config's seed as a string
    assert meta["seed"] == 7


@pytest.mark.parametrize("content", ["", "{", "[]", '{"tables": 1}', '{"tables": {"t": {"data": 1}}}', "\x00\xff"])
def test_a_corrupt_runs_table_is_named(tmp_path, content):
    path = tmp_path / "run.json"
    path.write_text(content, encoding="latin-1")
    with pytest.raises(ValueError, match=f"{path}.*truncated or corrupt.*delete it and rerun"):
        load_run(path)


def test_a_runs_table_round_trips(tmp_path):
    import pandas as pd

    path = tmp_path / "run.json"
    write_run(path, CLAIM, "s", {"t": pd.DataFrame({"a": [1, 2]})})
    assert load_run(path)["t"]["a"].tolist() == [1, 2]
    assert json.loads(path.read_text())["claim"] == CLAIM


def test_the_run_job_refuses_another_seeds_data_file_in_one_line(data_file, tmp_path, repo_root):
    """The run job's notebook refuses the file: its last line names the file and the remedy, with no traceback."""
    import subprocess

    path, _ = data_file
    argv = run_job_argv(data_file, tmp_path, repo_root, seed=8)
    done = subprocess.run(argv, cwd=repo_root, capture_output=True, text=True, timeout=300)
    assert done.returncode == 2 and "Traceback" not in done.stderr, done.stderr[-3000:]
    line = done.stderr.strip().splitlines()[-1]
    assert line.startswith("sparseact run-notebook: error: ValueError: notebooks/run_shard.py stopped in cell") and (
        f"{path} holds seed 7, not 8; delete it and rerun the workflow" in line
    ), line


def test_a_data_file_made_with_other_replicates_or_points_is_refused(tmp_path, repo_root):
    """The run job passes the config's replicate count and the shard's points: a data file made for another grid
    (a changed parameter, a point more or less) or replicate count, with the same seed, is refused, not run under
    provenance that records the config's."""
    block = yaml.safe_load((repo_root / "config" / "quick.yaml").read_text())["claims"][CLAIM]
    (name, point), (other, other_point) = list(get_claim(CLAIM).points(block).items())[:2]
    path = tmp_path / "shard.npz"
    generate_point(CLAIM, name, point, 7, 2, path)
    with pytest.raises(ValueError, match="holds replicates 2, not 1; delete it and rerun the workflow"):
        run_shard(path, CLAIM, name, seed=7, replicates=1)
    for points in (
        {name: {**point, "b": point["b"] + 1}},
        {name: point, other: other_point},
        {other: other_point},
        {},
        json.dumps({name: {**point, "extra": 1}}),
    ):
        with pytest.raises(ValueError, match=r"holds other points than the config.s.*delete it and rerun"):
            run_shard(path, CLAIM, name, seed=7, replicates=2, points=points)
    meta, _ = run_shard(path, CLAIM, name, seed="7", replicates="2", points=json.dumps({name: point}))
    assert meta["points"] == {name: point}


def _kept_time(path, data, seconds: bool = False):
    """Overwrite ``path`` with ``data``, its modification time kept (a restored backup, a copy tool), in nanoseconds or,
    with ``seconds``, through float seconds (which move it by less than a microsecond)."""
    status = path.stat()
    path.write_bytes(data)
    if seconds:
        os.utime(path, (status.st_atime, status.st_mtime))
    else:
        os.utime(path, ns=(status.st_atime_ns, status.st_mtime_ns))


@pytest.mark.parametrize("seconds", [False, True])
@pytest.mark.parametrize(
    "damage", [lambda data: data[: len(data) // 2], lambda data: bytes(len(data)), lambda data: data + b"x"]
)
def test_a_file_changed_with_its_time_kept_is_named_until_its_job_writes_it(tmp_path, damage, seconds):
    """Snakemake compares times only: a file truncated or overwritten with its time kept gave "Nothing to be done".
    The record names it, at a start without writing anything (the workflow plans its job through the job's check
    stamp), and after a run that did not write it again; a time set back through float seconds (issue 60's probe 3,
    D1) is kept too."""
    results = tmp_path / "results"
    (results / "data").mkdir(parents=True)
    shard, other = results / "data" / "shard.npz", results / "data" / "other.npz"
    shard.write_bytes(b"PK" + bytes(range(200)))
    other.write_bytes(b"intact")
    record = results / "stamps" / "files.json"
    files = recorded_files(results, [results / "data"])
    assert check_run_files(record, files, write=False) == [] and not record.exists()
    assert check_run_files(record, files) == [] and record.is_file()
    os.utime(shard, ns=(shard.stat().st_atime_ns, 1_700_000_000_123_456_789))  # a time float seconds cannot hold
    assert check_run_files(record, files) == []
    _kept_time(shard, damage(shard.read_bytes()), seconds)
    before = record.read_bytes()
    assert check_run_files(record, files, write=False) == [shard.as_posix()] and record.read_bytes() == before
    for _ in range(2):  # a run's end that did not rerun its job keeps naming it
        assert check_run_files(record, recorded_files(results, [results / "data"])) == [shard.as_posix()]
    assert shard.is_file() and other.read_bytes() == b"intact"
    time.sleep(0.01)
    shard.write_bytes(b"PK rebuilt")  # its job's write: a new time
    assert check_run_files(record, recorded_files(results, [results / "data"])) == []


def test_a_jobs_write_a_touch_and_a_copy_are_not_changes(tmp_path, monkeypatch):
    """The record's paths are the workflow's, relative to the checkout: a copy with ``cp -a`` (new inodes, the times
    kept) is read again and found unchanged."""
    monkeypatch.chdir(tmp_path)
    results = Path("results")
    results.mkdir()
    table = results / "ledger.csv"
    table.write_text("a\n")
    record = results / "stamps" / "files.json"
    check_run_files(record, recorded_files(results, []))
    time.sleep(0.01)
    table.write_text("b\n")  # a job's write: a new time
    assert check_run_files(record, recorded_files(results, [])) == []
    os.utime(table)  # touched: the same content, a new time
    assert check_run_files(record, recorded_files(results, [])) == []
    shutil.move(results, "moved")
    shutil.copytree("moved", results)
    inode = table.stat().st_ino
    assert check_run_files(record, recorded_files(results, [])) == []
    assert json.loads(record.read_text())[table.as_posix()][2] == inode
    _kept_time(table, b"c\n")
    assert check_run_files(record, recorded_files(results, [])) == [table.as_posix()]


def test_a_full_disk_is_named_with_the_file_and_leaves_the_old_one(tmp_path, monkeypatch):
    """A write that finds the disk full says which file and what to do, and the file keeps its old content."""
    import errno

    from sparseact.runtime import provenance

    target = tmp_path / "stamp.txt"
    target.write_text("old\n")

    def full(_fd):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(provenance.os, "fsync", full)
    with pytest.raises(OSError, match=f"no space left to write {target}.*free some space and rerun"):
        provenance.atomic_write_text(target, "new\n")
    assert target.read_text() == "old\n" and [p.name for p in tmp_path.iterdir()] == ["stamp.txt"]


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs /dev/full, a file every write to fails with ENOSPC")
def test_a_full_disk_under_the_progress_log_is_one_line_naming_it(data_file, tmp_path, repo_root):
    """A run job whose progress log finds the disk full stops in one line naming the log (issue 60, probe 5, case
    18: a 58-line traceback from runtime/progress.py)."""
    import subprocess

    from sparseact.runtime import progress

    progress.configure("/dev/full")
    try:
        with pytest.raises(
            OSError, match=r"^\[Errno 28\] no space left to write /dev/full .*free some space and rerun$"
        ):
            progress.message("a line")
    finally:
        progress.configure(None)
    argv = run_job_argv(data_file, tmp_path, repo_root, progress_log="/dev/full")
    done = subprocess.run(argv, cwd=repo_root, capture_output=True, text=True, timeout=300)
    assert done.returncode == 1 and len(done.stderr.strip().splitlines()) == 1, done.stderr[-3000:]
    assert "no space left to write /dev/full" in done.stderr, done.stderr


def _edited(path, edit):
    """``path`` rewritten as a hand edit would (numpy.savez, a new time): ``edit`` changes its members (name -> array,
    ``__meta__`` included) in place."""
    import numpy as np

    with np.load(path) as archive:
        members = {key: archive[key] for key in archive.files}
    edit(members)
    np.savez(path, **members)
    return path


def _first_float(members):
    return next(key for key in sorted(members) if members[key].dtype.kind == "f" and members[key].size)


def _meta_edit(change):
    def edit(members):
        import numpy as np

        meta = json.loads(str(members["__meta__"]))
        change(meta)
        members["__meta__"] = np.asarray(json.dumps(meta))

    return edit


def _set_first(value):
    def edit(members):
        key = _first_float(members)
        members[key] = members[key].copy()
        members[key].flat[0] = value

    return edit


EDITS = {
    "a value changed": (_set_first(-9.999), "SHA-256 digest differs"),
    "a NaN": (_set_first(float("nan")), "holds NaN or infinity"),
    "an infinity": (_set_first(float("inf")), "holds NaN or infinity"),
    "float32": (lambda m: m.update({_first_float(m): m[_first_float(m)].astype("float32")}), "has dtype '<f4', not"),
    "an array missing": (lambda m: m.pop(_first_float(m)), "lacks the array"),
    "an array added": (lambda m: m.update(extra=m[_first_float(m)]), "holds an array 'extra' the data stage did not"),
    "a parameter changed": (_meta_edit(lambda meta: meta.update(shard="other")), "SHA-256 digest differs"),
    "no digest": (_meta_edit(lambda meta: meta.pop("__content__")), "records no content digest"),
    "deep metadata": (
        lambda m: m.update(__meta__=__import__("numpy").asarray("[" * 5000 + "]" * 5000)),
        "nests 5000 levels deep, beyond the limit 64",
    ),
}


@pytest.mark.parametrize("edit", list(EDITS))
def test_a_hand_edited_data_file_is_refused_in_one_line(data_file, edit):
    """A data file the data stage did not write as it is (an edited value, a NaN, a float32 copy, an array missing or
    added, an edited parameter, no digest, metadata nested past the parser's recursion limit) is refused by its
    loader, in one line naming the file and what to do (issue 60, probe 5, cases 8 to 11, 16, 17)."""
    path, _ = data_file
    change, reason = EDITS[edit]
    _edited(path, change)
    with pytest.raises(ValueError) as info:
        load_arrays(path)
    message = str(info.value)
    assert str(path) in message and reason in message and message.endswith(REGENERATE), message
    assert "\n" not in message


@pytest.fixture(scope="module")
def pristine(tmp_path_factory, repo_root):
    """The bytes of a one-point lemma6 data file (float arrays of every point, several arrays)."""
    block = yaml.safe_load((repo_root / "config" / "quick.yaml").read_text())["claims"]["lemma6"]
    name, point = next(iter(get_claim("lemma6").points(block).items()))
    path = tmp_path_factory.mktemp("data") / "shard.npz"
    generate_point("lemma6", name, point, 7, 1, path)
    return path.read_bytes()


@settings(max_examples=40, deadline=None)
@given(data=st.data())
def test_any_changed_number_in_a_data_file_is_refused(tmp_path_factory, pristine, data):
    """Any one element of any array set to any other number: the loader refuses the file."""
    import numpy as np

    path = tmp_path_factory.mktemp("edit") / "shard.npz"
    path.write_bytes(pristine)
    arrays, _ = load_arrays(path)
    key = data.draw(st.sampled_from(sorted(k for k, v in arrays.items() if v.size and v.dtype.kind in "fiu")))
    index = data.draw(st.integers(0, arrays[key].size - 1))
    old = arrays[key].flat[index].item()
    value = data.draw(
        (
            st.floats(allow_nan=False, width=64) if arrays[key].dtype.kind == "f" else st.integers(-(2**31), 2**31)
        ).filter(lambda v: v != old)
    )

    def edit(members):
        members[key] = members[key].copy()
        members[key].flat[index] = np.asarray(value).astype(members[key].dtype)

    _edited(path, edit)
    with pytest.raises(ValueError, match="the file was edited; delete it and rerun"):
        load_arrays(path)


def test_the_run_job_refuses_a_data_file_with_an_array_missing_in_one_line(data_file, tmp_path, repo_root):
    """A data file with an array deleted stopped the run job's notebook with a 51-line traceback from the claim's
    compute (issue 60, probe 5, case 16); its loader now refuses it in one line."""
    import subprocess

    _edited(data_file[0], EDITS["an array missing"][0])
    argv = run_job_argv(data_file, tmp_path, repo_root)
    done = subprocess.run(argv, cwd=repo_root, capture_output=True, text=True, timeout=300)
    assert done.returncode == 2 and "Traceback" not in done.stderr, done.stderr[-3000:]
    assert len(done.stderr.strip().splitlines()) == 1 and "lacks the array" in done.stderr, done.stderr


@pytest.mark.parametrize("value", [float("nan"), float("inf"), -float("inf")])
def test_the_data_stage_never_writes_a_non_finite_number(tmp_path, value):
    """The loader reads a NaN as an edit: the writer refuses one, naming the array."""
    from sparseact.runtime.datafiles import save_arrays

    with pytest.raises(ValueError, match="array 'a' holds NaN or infinity"):
        save_arrays(tmp_path / "x.npz", {"a": [1.0, value]}, {})
    assert not (tmp_path / "x.npz").exists()
