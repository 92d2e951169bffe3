"""Seeds, provenance, portable floating point and crash-safe writing of result files.

Every result file records its parameters, seed, package versions, git revision
and CPU dispatch settings (:func:`provenance`), and is written atomically
(temporary file in the same folder, then ``os.replace``) so an interrupted run
never leaves a partial file that looks complete. The workflow runs its jobs
under :func:`portable_cpu_environment`, so that machines of different CPU
generations write the same numbers.
"""

from __future__ import annotations

import errno
import glob
import hashlib
import json
import os
import platform
import stat
import subprocess
import tempfile
import zlib
from importlib import metadata
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # numpy is imported where it is used: a notebook job's parent process writes files and no array
    import numpy as np

#: Packages whose versions are recorded in every result file.
RECORDED_PACKAGES = (
    "sparseact",
    "numpy",
    "scipy",
    "pandas",
    "matplotlib",
    "seaborn",
    "numba",
    "snakemake",
    "papermill",
    "jupytext",
    "nbconvert",
)


#: OpenBLAS kernels pinned on x86-64 machines with AVX2 and FMA (see :func:`portable_cpu_environment`).
OPENBLAS_PORTABLE_CORE = "Haswell"
#: The environment variables :func:`portable_cpu_environment` may set; :func:`provenance` records them.
CPU_DISPATCH_VARIABLES = ("NPY_DISABLE_CPU_FEATURES", "OPENBLAS_CORETYPE")


#: BLAS/OpenMP thread counts of every job: one, since Snakemake already runs one job per core and the threaded
#: LAPACK calls of two concurrent jobs would fight over the same cores.
JOB_THREADS = {"OMP_NUM_THREADS": "1", "OPENBLAS_NUM_THREADS": "1", "MKL_NUM_THREADS": "1"}


#: glibc malloc settings of every job (``mallopt(3)``; other C libraries ignore them): blocks up to 32 MiB (the
#: largest threshold glibc accepts on 64-bit machines) come from the heap instead of their own ``mmap``, and up to
#: 256 MiB of freed heap stays mapped. The exact sweeps allocate and free arrays of 2^n doubles (8 MiB at n = 20)
#: thousands of times; by default each one is mapped anew and its pages faulted in and zeroed by the kernel
#: (benchmarks/README.md has what that cost). Results are unchanged (the allocator decides where an array lives,
#: never what it holds).
JOB_MALLOC = {"MALLOC_MMAP_THRESHOLD_": str(32 << 20), "MALLOC_TRIM_THRESHOLD_": str(256 << 20)}


def job_environment() -> dict[str, str]:
    """The environment variables every job runs under: :data:`JOB_THREADS`, :data:`JOB_MALLOC` and
    :func:`portable_cpu_environment`."""
    return {**JOB_THREADS, **JOB_MALLOC, **portable_cpu_environment()}


def portable_cpu_environment() -> dict[str, str]:
    """Environment variables that make numpy and OpenBLAS round alike on every x86-64-v3 machine.

    numpy picks its ufunc loops (``exp``, ``log``, ``power``, ...) and OpenBLAS
    its BLAS and LAPACK kernels by the CPU at run time, and their AVX-512 and
    AVX2 paths differ in the last bits. On an x86-64 machine with AVX2 and FMA
    (x86-64-v3: Intel Core and Xeon since Haswell, 2013; AMD since 2015) the result asks
    numpy to skip the AVX-512 loops its build dispatches to
    (``NPY_DISABLE_CPU_FEATURES``, only features this machine has) and OpenBLAS
    for its Haswell kernels (``OPENBLAS_CORETYPE``), so that every such machine
    takes the same code paths. Elsewhere (ARM, older x86) it is empty, and
    results may differ from another machine's in the last digits. numba's
    kernels need no pin: compiled without ``fastmath``, LLVM neither reorders
    nor fuses floating-point operations. BLAS libraries other than OpenBLAS
    (MKL) ignore the pin.

    Returns
    -------
    dict of str to str
        Variable -> value, meant for the environment of a new process (numpy
        and OpenBLAS read them once, when loaded).
    """
    try:
        # deferred: no numpy in a notebook job's parent process (see the imports above)
        from numpy._core._multiarray_umath import __cpu_dispatch__, __cpu_features__
    except ImportError:  # a numpy without the runtime dispatch tables
        return {}
    if not (__cpu_features__.get("AVX2") and __cpu_features__.get("FMA3")):
        return {}
    environment = {"OPENBLAS_CORETYPE": OPENBLAS_PORTABLE_CORE}
    above_v3 = [f for f in __cpu_dispatch__ if (f.startswith("AVX512") or f == "X86_V4") and __cpu_features__.get(f)]
    if above_v3:
        environment["NPY_DISABLE_CPU_FEATURES"] = " ".join(above_v3)
    return environment


def derive_rng(seed: int, *labels: str | int) -> np.random.Generator:
    """A generator determined by the config ``seed`` and a path of labels.

    Labels (e.g. the construction name, a grid point) are hashed with CRC-32, so
    each experiment gets an independent stream that does not move when other
    parts of the config change.
    """
    # deferred: no numpy in a notebook job's parent process (see the imports above)
    import numpy as np

    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or seed < 0:
        raise ValueError(f"seed must be a non-negative integer, got {seed!r}")
    keys = [zlib.crc32(str(label).encode("utf-8")) for label in labels]
    return np.random.default_rng(np.random.SeedSequence(int(seed), spawn_key=tuple(keys)))


def package_versions(packages=RECORDED_PACKAGES) -> dict[str, str]:
    """Installed versions of ``packages`` (``"not installed"`` where missing)."""
    out = {}
    for name in packages:
        try:
            out[name] = metadata.version(name)
        except metadata.PackageNotFoundError:
            out[name] = "not installed"
    return out


def git_revision(path: str | Path = ".") -> str:
    """``git rev-parse HEAD`` of the checkout containing ``path``, with ``-dirty`` when
    tracked files have uncommitted changes; ``"unknown"`` outside a checkout."""
    try:
        rev = subprocess.run(
            ["git", "rev-parse", "HEAD"], cwd=path, capture_output=True, text=True, check=True
        ).stdout.strip()
        dirty = subprocess.run(
            ["git", "status", "--porcelain", "--untracked-files=no"],
            cwd=path,
            capture_output=True,
            text=True,
            check=True,
        ).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "unknown"
    return rev + ("-dirty" if dirty else "")


def config_hash(parameters: dict) -> str:
    """SHA-256 of the canonical JSON of ``parameters`` (first 16 hex digits)."""
    canonical = json.dumps(parameters, sort_keys=True, separators=(",", ":"), default=str)
    return hashlib.sha256(canonical.encode("utf-8")).hexdigest()[:16]


def provenance(parameters: dict, seed: int) -> dict:
    """The provenance block of a result file: parameters, seed, versions, git revision, CPU dispatch.

    Deliberately holds no time stamps or host names, so two runs of the same
    revision and config write identical files. ``cpu_dispatch`` holds the
    variables of :data:`CPU_DISPATCH_VARIABLES` set in this process (empty when
    numpy and OpenBLAS chose their code paths by the CPU).
    """
    return {
        "parameters": parameters,
        "seed": int(seed),
        "config_hash": config_hash(parameters),
        "python": platform.python_version(),
        "packages": package_versions(),
        "git_revision": git_revision(Path(__file__).resolve().parent),
        "cpu_dispatch": {name: os.environ[name] for name in CPU_DISPATCH_VARIABLES if name in os.environ},
    }


def _current_umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


_UMASK = _current_umask()


def atomic_write_bytes(path: str | Path, data: bytes) -> None:
    """Write ``data`` to ``path`` atomically (parents created).

    The data go to a scratch file beside ``path`` that replaces it, named with the writer's process id. A writer
    killed by SIGKILL cannot remove its scratch file; the next successful write of the same ``path`` removes every
    scratch file left beside it by a process that no longer runs (two runs of one checkout started together both
    write the code stamps before Snakemake's lock turns one away: neither removes the other's).
    """
    path = Path(path)
    try:
        mode = os.lstat(path).st_mode
    except FileNotFoundError:
        mode = None
    if mode is not None and not (stat.S_ISREG(mode) or stat.S_ISLNK(mode)):
        # os.replace would put a regular file in place of the device, FIFO or socket (as root, even /dev/zero)
        raise ValueError(f"{path}: not a regular file (a device, FIFO or folder is never replaced by an output)")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.{os.getpid()}-", suffix=".tmp", dir=path.parent)
    except OSError as exc:
        raise full_disk(exc, path) from None
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.chmod(tmp, 0o666 & ~_UMASK)  # mkstemp creates 0600; give the usual permissions
        os.replace(tmp, path)
    except BaseException as exc:
        Path(tmp).unlink(missing_ok=True)
        if isinstance(exc, OSError):
            raise full_disk(exc, path) from None
        raise
    for stale in path.parent.glob(f".{glob.escape(path.name)}.*.tmp"):
        if not _running(stale.name[len(path.name) + 2 :].partition("-")[0]):
            stale.unlink(missing_ok=True)


def full_disk(exc: OSError, path: str | Path, left: str = "it is left as it was") -> OSError:
    """``exc``, or for a full disk or quota one line naming ``path``, what became of it (``left``) and what to do."""
    if exc.errno in (errno.ENOSPC, errno.EDQUOT):
        return OSError(exc.errno, f"no space left to write {path} ({left}): free some space and rerun")
    return exc


def _running(pid: str) -> bool:
    """Whether the process ``pid`` (digits, else none) still runs."""
    if not pid.isdigit():
        return False
    try:
        os.kill(int(pid), 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # another user's process
        return True
    return True


def atomic_write_text(path: str | Path, text: str) -> None:
    """Write ``text`` (UTF-8) to ``path`` atomically."""
    atomic_write_bytes(path, text.encode("utf-8"))


def write_text_if_changed(path: str | Path, text: str) -> bool:
    """Write ``text`` to ``path`` (atomically) unless ``path`` holds it already; return whether it was written.

    A file left alone keeps its time stamp, so a job reading it is rerun only when its content changed (the code
    stamps, the claim pages' slices)."""
    target = Path(path)
    if target.is_file() and target.read_bytes() == text.encode("utf-8"):
        return False
    atomic_write_text(target, text)
    return True


def _json_default(value):
    # deferred: no numpy in a notebook job's parent process (see the imports above)
    import numpy as np

    if isinstance(value, np.integer):
        return int(value)
    if isinstance(value, np.floating):
        return float(value)
    if isinstance(value, np.ndarray):
        return value.tolist()
    if hasattr(value, "value"):
        return value.value
    raise TypeError(f"cannot serialise {type(value).__name__} to JSON")


def atomic_write_json(path: str | Path, data) -> None:
    """Write ``data`` as indented, key-sorted JSON atomically."""
    atomic_write_text(path, json.dumps(data, indent=2, sort_keys=True, default=_json_default) + "\n")
