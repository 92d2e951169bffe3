"""A warm job server for local runs: every workflow job forked from one process that imported the library once.

A local run's jobs are short, and each started alone would import numpy, pandas, scipy, numba, papermill,
IPython, matplotlib and the library before computing anything. The job server pays those imports once
(benchmarks/README.md weighs it). The Snakefile starts it when a run starts
(:func:`start`, from ``onstart``; never for a dry run or inside a cluster job) and puts its address in the
environment variable :data:`ADDRESS_VARIABLE`, which every job inherits. In a cluster run it serves the jobs that
run where Snakemake runs (the workflow's ``localrules``); the cluster's jobs inherit the address too, and the server
declines them (:func:`_declined`: SLURM sets ``SLURM_JOB_ID`` in a job's environment), so each runs in its own
process inside its allocation, and on another node the address does not answer at all. A job's command is still
``python -m sparseact.cli ...``: :func:`sparseact.cli.main` first calls :func:`~sparseact.runtime.accel.jobclient.delegate`
(the server's client, :mod:`sparseact.runtime.accel.jobclient`), which hands the module, the command line, the working
folder, the environment and the job's standard input, output and error (its log) to the server. The server forks
a child that runs the module as ``__main__`` on that command line, exactly as the job's own process would, and the
job's process waits for the child's exit status and exits with it.

Only the run that started the server reaches it (:mod:`sparseact.runtime.accel.jobclient` says how: a socket file in a
private folder, the peer's user checked before a fork, the run's key checked before a job runs), and the server
keeps at most :data:`MAX_CHILDREN` children at once.

Nothing depends on the server being there. A job that finds no server (not started, not yet ready, gone) runs in
its own process as before; so does a job whose environment differs from the server's in a variable read at
import time (:data:`PER_JOB_VARIABLES` lists the only ones allowed to differ), and a run where the server could
not start. A job killed by Snakemake (an interrupted run) closes its connection, and its child, which watches
the connection, kills itself and every process it started. The server ends when the Snakemake process that
started it ends (or is killed), and when :func:`stop` asks.

Snakemake's ``benchmark:`` files time each job's own process: the wall time is the job's, but the CPU time and
peak memory are the waiting process's. The child therefore reports its own (``getrusage`` of itself and the
processes it waited for), and the waiting process writes them to the job's standard error as one line
(:mod:`sparseact.runtime.accel.usage`).
"""

from __future__ import annotations

import contextlib
import gc
import hmac
import importlib
import json
import logging
import os
import resource
import runpy
import secrets
import select
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import traceback

from sparseact.kernels import KERNEL_GROUPS, load_compiled_kernels
from sparseact.runtime.accel.jobclient import (
    ACCEPT_TIMEOUT_S,
    ADDRESS_VARIABLE,
    GO,
    HEADER,
    KEY_NAME,
    SOCKET_NAME,
    interpreter,
    peer_is_us,
)

#: Seconds :func:`stop` waits for the server to end after SIGTERM before it kills it.
STOP_TIMEOUT_S = 5.0
#: Variables that may differ between a job's environment and the server's: set by the shell or by Snakemake for
#: each job (its temporary folder), and read by no module at import time (the child takes the job's values).
PER_JOB_VARIABLES = frozenset({"_", "PWD", "OLDPWD", "SHLVL", "PS1", "TMPDIR", "TMP", "TEMP", "TEMPDIR"})
#: The thread counts Snakemake sets for every job of one thread (snakemake/shell.py), which BLAS and numexpr read
#: when loaded: the server is started with them, so that it serves the workflow's one-thread jobs (and declines
#: a job of more threads).
ONE_THREAD = {
    name: "1"
    for name in (
        "OMP_NUM_THREADS",
        "GOTO_NUM_THREADS",
        "OPENBLAS_NUM_THREADS",
        "MKL_NUM_THREADS",
        "VECLIB_MAXIMUM_THREADS",
        "NUMEXPR_NUM_THREADS",
    )
}
#: Third-party modules every kind of job imports, loaded by the server before it serves (with the whole library).
PRELOADED = (
    "numpy",
    "pandas",
    "scipy.linalg",
    "scipy.optimize",
    "scipy.stats",
    "numba",
    "matplotlib.pyplot",
    "seaborn",
    "papermill",
    "nbclient",
    "nbformat",
    "nbconvert",
    "jupytext",
    "ipykernel.inprocess",
    "IPython",
    # what an in-process kernel and a notebook's first displays import (else each notebook job imports them)
    "ipykernel.debugger",
    "IPython.core.application",
    "pandas.io.formats.html",
    "tornado.platform.asyncio",
    "tornado.queues",
)
#: The fewest jobs a run must have for :func:`start` to start the server: its imports cost more than a few jobs'
#: start-ups repay.
MIN_JOBS = 6
#: The most children (jobs running, or connections not yet taken) the server keeps at once; a connection beyond
#: them is closed, and its job runs in its own process. A run has at most as many jobs at once as its cores.
MAX_CHILDREN = 8 * (os.cpu_count() or 1)
#: The run's key (:func:`serve` reads it from the server's folder), which a request must carry.
_KEY = ""


def _receive_exactly(connection: socket.socket, size: int) -> bytes:
    chunks, left = [], size
    while left:
        chunk = connection.recv(min(left, 65536))
        if not chunk:
            raise ConnectionError("the job's request ended early")
        chunks.append(chunk)
        left -= len(chunk)
    return b"".join(chunks)


def _declined(environment: dict[str, str]) -> str | None:
    """Why the server cannot run a job with ``environment`` (``None`` when it can).

    A cluster job (a SLURM job id the server's environment does not have) must run inside its own allocation; any
    other job whose environment differs from the server's in a variable not in :data:`PER_JOB_VARIABLES` would
    import the library differently.
    """
    job_id = environment.get("SLURM_JOB_ID")
    if job_id is not None and job_id != os.environ.get("SLURM_JOB_ID"):
        return f"a job of the cluster's, SLURM job {job_id}: it runs in its allocation"
    ours = {k: v for k, v in os.environ.items() if k not in PER_JOB_VARIABLES}
    theirs = {k: v for k, v in environment.items() if k not in PER_JOB_VARIABLES}
    differing = sorted({k for k, _ in set(ours.items()) ^ set(theirs.items())})
    if not differing:
        return None
    print(f"sparseact job server: a job's environment differs in {differing}", file=sys.stderr, flush=True)
    return "its environment differs from the server's; the server's log names the variables"


def _take_job(connection: socket.socket) -> dict:
    """The request :func:`~sparseact.runtime.accel.jobclient.delegate` sends on ``connection``."""
    return json.loads(_receive_exactly(connection, HEADER.unpack(_receive_exactly(connection, HEADER.size))[0]))


def _decline(connection: socket.socket, reason: str) -> None:
    """Take one job from ``connection`` and decline it: the job's own process runs it
    (:func:`~sparseact.runtime.accel.jobclient.delegate`)."""
    connection.settimeout(ACCEPT_TIMEOUT_S)
    with contextlib.suppress(OSError, ValueError):
        _take_job(connection)
        _answer(connection, declined=reason)


def _answer(connection: socket.socket, **answer) -> None:
    """The child's first answer to a job: one JSON line, ``accepted`` or ``declined``."""
    connection.sendall(json.dumps(answer).encode() + b"\n")


def _run_child(connection: socket.socket) -> int:
    """In a fresh fork: take one job from ``connection``, run it as its own process would, report its status.

    A request without the run's key is dropped unanswered; a job is run only once its process has confirmed, within
    :data:`~sparseact.runtime.accel.jobclient.ACCEPT_TIMEOUT_S`, that it waits for it (:data:`~sparseact.runtime.accel.jobclient.GO`),
    so that a job never runs twice."""
    connection.settimeout(ACCEPT_TIMEOUT_S)
    try:
        request = _take_job(connection)
    except (OSError, ValueError):
        return 1
    if not isinstance(request, dict) or not hmac.compare_digest(str(request.get("key", "")), _KEY):
        return 1
    reason = _declined(request["env"]) if request["python"] == interpreter() else "another interpreter"
    if reason is not None:
        _answer(connection, declined=reason)
        return 0
    try:
        _answer(connection, accepted=True)
        go, fds, _, _ = socket.recv_fds(connection, len(GO), 3)
    except OSError:  # the job's process gave up waiting (it runs the job itself) or went away
        return 0
    if go != GO or len(fds) != 3:
        return 0
    connection.settimeout(None)
    os.setpgid(0, 0)  # the job and what it starts form one group, killed together if the job's process dies
    for target, fd in enumerate(fds):
        os.dup2(fd, target)
        os.close(fd)
    os.chdir(request["cwd"])
    os.umask(request["umask"])
    os.environ.clear()
    os.environ.update(request["env"])
    tempfile.tempdir = None  # the job's TMPDIR, not the one the server's imports may have looked up
    signal.signal(signal.SIGINT, signal.default_int_handler)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    _watch(connection)
    os.environ.pop(ADDRESS_VARIABLE)  # the job runs here: what it starts runs in its own processes
    sys.argv = [request["module"], *request["argv"]]
    code = _run_module(request["module"])
    sys.stdout.flush()
    sys.stderr.flush()
    logging.shutdown()
    own, waited = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    usage = {
        "exit": code,
        "cpu_s": own.ru_utime + own.ru_stime + waited.ru_utime + waited.ru_stime,
        "max_rss_mb": max(own.ru_maxrss, waited.ru_maxrss) / 1024,  # Linux reports KiB
    }
    connection.sendall(json.dumps(usage).encode())
    return code


def _run_module(module: str) -> int:
    """``python -m <module>`` on ``sys.argv`` in this process: its exit status (an uncaught exception prints and gives 1)."""
    sys.modules.pop(module, None)  # run afresh as __main__, as `python -m` runs it (the server imported it once)
    try:
        runpy.run_module(module, run_name="__main__", alter_sys=True)
    except SystemExit as exc:
        if exc.code is None or isinstance(exc.code, int):
            return int(exc.code or 0)
        print(exc.code, file=sys.stderr)
        return 1
    except BaseException:
        traceback.print_exc()
        return 1
    return 0


def _watch(connection: socket.socket) -> None:
    """Kill the job's process group once the job's own process closes the connection (it was killed)."""

    def watch() -> None:
        with contextlib.suppress(OSError):
            connection.recv(1)
        os.killpg(0, signal.SIGKILL)

    threading.Thread(target=watch, name="sparseact-job-watch", daemon=True).start()


def _single_threaded() -> bool:
    """Whether this process runs one thread (Python's or any other), so that a fork copies all of it."""
    return threading.active_count() == 1 and len(os.listdir("/proc/self/task")) == 1


def _load_kernels(pending: set[str]) -> None:
    """Load into the server each kernel group of ``pending`` that numba's cache holds (compiling none:
    :func:`sparseact.kernels.load_compiled_kernels`) and drop it from ``pending``: the jobs forked after it find its
    kernels loaded. A group that fails to load otherwise is dropped too, its jobs loading (or compiling) it themselves."""
    for group in sorted(pending):
        try:
            if load_compiled_kernels(group):
                pending.discard(group)
                print(f"sparseact job server: kernel group {group} loaded", file=sys.stderr, flush=True)
        except Exception as exc:  # a cache that does not load: the jobs load the kernels as they would without it
            first = next((line for line in str(exc).splitlines() if line.strip()), "")
            print(
                f"sparseact job server: kernel group {group} not preloaded: {type(exc).__name__}: {first}",
                file=sys.stderr,
            )
            pending.discard(group)


@contextlib.contextmanager
def _environment_kept():
    """Imports inside leave the server's environment as it was, which must stay the jobs' (:func:`_declined`):
    debugpy's pydevd, which ipykernel imports, sets ``PYDEVD_USE_FRAME_EVAL``. Inside, pydevd's warning that frozen
    modules may hide breakpoints is switched off (``PYDEVD_DISABLE_FILE_VALIDATION``): no job debugs."""
    saved = dict(os.environ)
    os.environ["PYDEVD_DISABLE_FILE_VALIDATION"] = "1"
    try:
        yield
    finally:
        os.environ.clear()
        os.environ.update(saved)


def _warm_notebooks() -> None:
    """Build nbformat's notebook validators here, once: every notebook job reads and writes notebooks, and each
    built them anew."""
    import nbformat  # the server's, not at the top: the Snakefile imports this module to start the server

    nbformat.reads(nbformat.writes(nbformat.v4.new_notebook()), as_version=4)


def serve(folder: str, parent: int, modules: list[str]) -> int:
    """Import :data:`PRELOADED` and the library's ``modules`` (what the jobs import, named by the Snakefile), then fork
    a child per job of the run's user until process ``parent`` ends, loading each kernel group as soon as numba's
    cache holds it (the kernels jobs compile them; :func:`_load_kernels`). ``folder`` is the server's private folder
    (:func:`start`), removed when it ends."""
    try:
        return _serve(folder, parent, modules)
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def _serve(folder: str, parent: int, modules: list[str]) -> int:
    global _KEY
    with open(os.path.join(folder, KEY_NAME), encoding="ascii") as handle:
        _KEY = handle.read()
    with _environment_kept():
        for name in PRELOADED:
            importlib.import_module(name)
    _warm_notebooks()
    for name in modules:
        importlib.import_module(name)
    if not _single_threaded():
        print("sparseact job server: threads started while importing; not serving", file=sys.stderr)
        return 1
    unloaded, forking = set(KERNEL_GROUPS), True
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    old_umask = os.umask(0o177)
    try:
        listener.bind(os.path.join(folder, SOCKET_NAME))
    finally:
        os.umask(old_umask)
    listener.listen(64)
    # SIGTERM ends the loop rather than raising: an exception raised in a handler that runs during a fork (in an
    # at-fork hook such as logging's) is printed and dropped, and the server would not end
    terminated = []
    signal.signal(signal.SIGTERM, lambda *_: terminated.append(True))
    children: set[int] = set()
    while os.getppid() == parent and not terminated:
        _reap(children)
        ready, _, _ = select.select([listener], [], [], 1.0)
        if not ready:
            continue
        connection, _ = listener.accept()
        if not peer_is_us(connection) or len(children) >= MAX_CHILDREN:
            connection.close()
            continue
        if unloaded and forking:
            _load_kernels(unloaded)
            forking = _single_threaded()
            if not forking:
                print("sparseact job server: threads started while loading kernels; declining jobs", file=sys.stderr)
        if not forking:
            with connection:
                _decline(connection, "threads in the job server")
            continue
        child = _fork()
        if child == 0:
            listener.close()
            code = 1
            try:
                code = _run_child(connection)
            finally:
                os._exit(code)
        children.add(child)
        connection.close()
    return 0


def _fork() -> int:
    """:func:`os.fork` after :func:`gc.freeze`: the child's garbage collections skip every object the server holds
    (its imports and kernels), which the child inherits alive. Walking them again in each full collection would cost
    the child CPU time, and marking them would copy the pages they sit on into the child; frozen, those pages stay
    shared with the server."""
    gc.freeze()
    return os.fork()


def _reap(children: set[int]) -> None:
    """Collect the children that have ended, and drop them from ``children``."""
    try:
        while pid := os.waitpid(-1, os.WNOHANG)[0]:
            children.discard(pid)
    except ChildProcessError:
        children.clear()


_SERVER: subprocess.Popen | None = None
_FOLDER: str | None = None


def start(workflow, log: str, modules: list[str]) -> bool:
    """Start the job server for a run of ``workflow`` (the Snakefile's, from ``onstart``); whether it started.

    A local run's jobs, and a cluster run's jobs that run where Snakemake runs (its ``localrules``; the server
    declines the cluster's jobs, :func:`_declined`). Not for a dry run or a Snakemake that runs inside a cluster job,
    nor for a run of fewer than :data:`MIN_JOBS` jobs. The server imports the library's ``modules`` (what the jobs
    import) and writes its messages to ``log``. Jobs that start before it is ready run in their own processes.
    """
    global _SERVER, _FOLDER
    if workflow.exec_mode.name != "DEFAULT" or workflow.dryrun:
        return False
    if len(workflow.dag) < MIN_JOBS:
        return False
    _FOLDER = private_folder()
    os.makedirs(os.path.dirname(log) or ".", exist_ok=True)
    # the server's environment is the jobs' (it declines any other)
    os.environ[ADDRESS_VARIABLE] = os.path.join(_FOLDER, SOCKET_NAME)
    command = [
        shutil.which("python") or sys.executable,
        "-m",
        "sparseact.runtime.accel.jobserver",
        _FOLDER,
        str(os.getpid()),
    ]
    with open(log, "w", encoding="utf-8") as handle:
        _SERVER = subprocess.Popen(
            [*command, *modules],
            env={**os.environ, **ONE_THREAD},
            stdin=subprocess.DEVNULL,
            stdout=handle,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    return True


def stop() -> None:
    """End the job server :func:`start` started (from ``onsuccess`` and ``onerror``); nothing if none runs."""
    global _SERVER, _FOLDER
    os.environ.pop(ADDRESS_VARIABLE, None)
    if _SERVER is not None:
        _SERVER.terminate()
        try:
            _SERVER.wait(timeout=STOP_TIMEOUT_S)
        except subprocess.TimeoutExpired:  # a stopped (SIGSTOP) or stuck server never holds the run's end
            _SERVER.kill()
            _SERVER.wait()
        _SERVER = None
    if _FOLDER is not None:
        shutil.rmtree(_FOLDER, ignore_errors=True)
        _FOLDER = None


def private_folder() -> str:
    """A new folder only this user can enter (mode 0700), holding the run's key (mode 0600), for a server's socket.

    Under the temporary folder, or ``/tmp`` where that path would be too long for a socket's address."""
    folder = tempfile.mkdtemp(prefix="sparseact-jobs-")
    if len(os.path.join(folder, SOCKET_NAME)) > 100:  # a Unix socket's path holds at most 107 bytes
        os.rmdir(folder)
        folder = tempfile.mkdtemp(prefix="sparseact-jobs-", dir="/tmp")
    descriptor = os.open(os.path.join(folder, KEY_NAME), os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(descriptor, "w", encoding="ascii") as handle:
        handle.write(secrets.token_hex(32))
    return folder


if __name__ == "__main__":
    raise SystemExit(serve(sys.argv[1], int(sys.argv[2]), sys.argv[3:]))
