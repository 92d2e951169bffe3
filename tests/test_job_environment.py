"""Every job's environment (sparseact.runtime.provenance.job_environment): one BLAS thread, glibc's malloc keeping
freed arrays mapped, the portable CPU dispatch."""

import ctypes
import ctypes.util
import platform

import pytest

from sparseact.runtime.provenance import JOB_MALLOC, JOB_THREADS, job_environment, portable_cpu_environment

#: mallopt(3) parameters of the glibc variables in JOB_MALLOC (malloc.h).
MALLOPT_PARAMETERS = {"MALLOC_TRIM_THRESHOLD_": -1, "MALLOC_MMAP_THRESHOLD_": -3}


def test_the_job_environment_holds_every_setting():
    assert job_environment() == {**JOB_THREADS, **JOB_MALLOC, **portable_cpu_environment()}


@pytest.mark.skipif(platform.libc_ver()[0] != "glibc", reason="the settings are glibc's; other C libraries ignore them")
def test_glibc_accepts_the_malloc_settings():
    """mallopt returns 1 for a value glibc takes and 0 for one it refuses (as it ignores a refused variable)."""
    assert set(JOB_MALLOC) == set(MALLOPT_PARAMETERS)
    libc = ctypes.CDLL(ctypes.util.find_library("c"))
    for variable, value in JOB_MALLOC.items():
        assert libc.mallopt(MALLOPT_PARAMETERS[variable], int(value)) == 1, variable


def test_an_atomic_write_removes_the_scratch_files_a_killed_writer_left(tmp_path):
    """A writer killed by SIGKILL leaves its scratch file; the rerun's write of the same output removes it, and
    leaves other outputs' scratch files alone."""
    from sparseact.runtime.provenance import atomic_write_bytes

    target = tmp_path / "exact-small.npz"
    left = [tmp_path / ".exact-small.npz.s6iyg4zh.tmp", tmp_path / ".exact-small.npz.abc.tmp"]
    other = tmp_path / ".other.npz.xyz.tmp"
    for path in (*left, other):
        path.write_bytes(b"partial")
    atomic_write_bytes(target, b"complete")
    assert target.read_bytes() == b"complete"
    assert not any(path.exists() for path in left) and other.exists()


def test_an_atomic_write_leaves_a_running_writers_scratch_file(tmp_path):
    """Two runs of one checkout write the same code stamp at once: neither removes the other's scratch file while
    its writer runs (the loser then meets Snakemake's lock, not a FileNotFoundError)."""
    import os
    import subprocess
    import sys

    from sparseact.runtime.provenance import atomic_write_bytes

    target = tmp_path / "lemma9-compute.sha256"
    writer = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    try:
        running = tmp_path / f".{target.name}.{writer.pid}-q1w2e3.tmp"
        gone = tmp_path / f".{target.name}.{2**22 + 7}-r4t5y6.tmp"  # above any pid the kernel hands out by default
        for path in (running, gone):
            path.write_bytes(b"partial")
        atomic_write_bytes(target, b"complete")
        assert running.exists() and not gone.exists() and target.read_bytes() == b"complete"
        assert [p.name for p in tmp_path.iterdir() if p.name.startswith(f".{target.name}.{os.getpid()}-")] == []
    finally:
        writer.kill()
        writer.wait()


def test_an_atomic_write_never_replaces_a_device_fifo_or_folder(tmp_path):
    """An output path that names a FIFO, a device or a folder is refused, and the node stays what it was (as root,
    os.replace would otherwise swap /dev/zero for a regular file)."""
    import os
    import stat

    from sparseact.runtime.provenance import atomic_write_bytes, atomic_write_text

    fifo, folder = tmp_path / "fifo", tmp_path / "folder"
    os.mkfifo(fifo)
    folder.mkdir()
    for target in (fifo, folder, "/dev/null", "/dev/zero"):
        for write in (lambda p: atomic_write_bytes(p, b"x"), lambda p: atomic_write_text(p, "x")):
            with pytest.raises(ValueError, match="not a regular file"):
                write(target)
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode) and folder.is_dir()
    assert stat.S_ISCHR(os.lstat("/dev/zero").st_mode) and stat.S_ISCHR(os.lstat("/dev/null").st_mode)
    assert not list(tmp_path.glob(".*.tmp"))
