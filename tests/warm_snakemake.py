"""Snakemake's command line in a process that has imported Snakemake already.

A ``snakemake`` call spends about 0.8 CPU-seconds importing Snakemake and collecting its plugins before it reads
the Snakefile, and the suite makes a few hundred calls, most of them dry runs (``-n``) and ``--touch`` of edited
copies. :func:`run` makes each call in a child forked from a server process (``multiprocessing``'s forkserver, one
per pytest worker) that did that once: the child takes the call's working directory, environment and module path
(``PYTHONPATH`` first, as a fresh interpreter would), forgets every ``sparseact`` module the server had loaded (the
Snakefile imports the copy's own library, from ``PYTHONPATH``), and calls ``snakemake.cli.main`` with the
arguments, in a session of its own. Snakemake's jobs are its own subprocesses, as from the command line.

The session's run of the quick config and the interruption and cluster runs start ``snakemake`` itself, the
README's command as a user types it.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import multiprocessing.forkserver
import os
import signal
import sys
import tempfile
from pathlib import Path

_context = multiprocessing.get_context("forkserver")
_context.set_forkserver_preload([__name__])
#: The server's module path, less its own ``PYTHONPATH`` entries (a child puts its call's in front).
_BASE_PATH = [p for p in sys.path if p and p not in os.environ.get("PYTHONPATH", "").split(os.pathsep)]


def _preload() -> None:
    """What every ``snakemake`` call does before reading the Snakefile: import the command line and the API, collect
    the executor, storage and report plugins, and import what Snakemake imports on first use (``smart_open``, through
    which its source cache opens the Snakefile, and ``snakemake.report``); and the third-party modules the
    Snakefile's library imports (``numpy``, ``pandas``, ``jsonschema``, ``yaml``). Each child forgets only the
    library (``sparseact``), which is the copy's own."""
    import jsonschema  # noqa: F401 (each import here is loaded before the fork, for every child)
    import numpy  # noqa: F401
    import pandas  # noqa: F401
    import smart_open  # noqa: F401
    import snakemake.api
    import snakemake.cli
    import snakemake.report  # noqa: F401
    import yaml  # noqa: F401
    from snakemake_interface_executor_plugins.registry import ExecutorPluginRegistry
    from snakemake_interface_report_plugins.registry import ReportPluginRegistry
    from snakemake_interface_storage_plugins.registry import StoragePluginRegistry

    ExecutorPluginRegistry()
    StoragePluginRegistry()
    ReportPluginRegistry()


def _in_forkserver() -> bool:
    """Whether this module is being imported by the forkserver's ``main`` (its preload), not by a test."""
    frame = sys._getframe()
    while frame is not None:
        if frame.f_code.co_name == "main" and frame.f_code.co_filename == multiprocessing.forkserver.__file__:
            return True
        frame = frame.f_back
    return False


#: The process that ran :func:`_preload`: the forkserver, where it imported this module (None elsewhere). A call's child
#: is forked from it, so its parent is this process; a child that imported this module itself has its own pid here.
_PRELOADED_IN = None
if _in_forkserver():
    _preload()
    _PRELOADED_IN = os.getpid()


def _start_server() -> None:
    """Start the forkserver, unless it runs, with this module's folder on its module path.

    The forkserver imports its preload modules by name on its own module path: Python 3.11's ignores the path the
    parent passes it, and pytest puts ``tests/`` on the path of its own process only. Not found there, the preload
    was skipped without a word, and every call's child imported this module, and with it Snakemake, itself (0.9
    CPU-seconds a call)."""
    before = os.environ.get("PYTHONPATH")
    os.environ["PYTHONPATH"] = os.pathsep.join(p for p in (str(Path(__file__).parent), before) if p)
    try:
        multiprocessing.forkserver.ensure_running()
    finally:
        if before is None:
            del os.environ["PYTHONPATH"]
        else:
            os.environ["PYTHONPATH"] = before


def _child(cwd: str, argv: list[str], env: dict[str, str], output: str) -> None:
    os.setsid()  # a session of its own: a timeout kills Snakemake and its jobs together
    fd = os.open(output, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
    os.dup2(fd, 1)
    os.dup2(fd, 2)
    os.close(fd)
    if _PRELOADED_IN != os.getppid():
        raise RuntimeError(
            "tests/warm_snakemake.py: this call's process was not forked from a forkserver that preloaded Snakemake"
        )
    os.chdir(cwd)
    os.environ.clear()
    os.environ.update(env)
    sys.path[:] = [p for p in env.get("PYTHONPATH", "").split(os.pathsep) if p] + _BASE_PATH
    for name in [m for m in sys.modules if m == "sparseact" or m.startswith("sparseact.")]:
        del sys.modules[name]
    tempfile.tempdir = None  # read TMPDIR again
    sys.argv = ["snakemake", *argv]
    from snakemake.cli import main

    code = 0
    try:
        main(argv)
    except SystemExit as exit:
        code = exit.code if isinstance(exit.code, int) else (0 if exit.code is None else 1)
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(code)


def run(cwd: Path, argv: list[str], env: dict[str, str], timeout: float) -> tuple[int, str]:
    """``snakemake *argv`` in ``cwd`` with environment ``env``: its exit code and its output (standard output and
    error, interleaved as written). After ``timeout`` seconds the call and its jobs are killed and
    ``TimeoutError`` is raised."""
    _start_server()
    with tempfile.NamedTemporaryFile("r", suffix=".log", dir=env.get("TMPDIR")) as log:
        process = _context.Process(target=_child, args=(str(cwd), list(argv), dict(env), log.name))
        process.start()
        process.join(timeout)
        if process.exitcode is None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(process.pid, signal.SIGKILL)
            process.join()
            raise TimeoutError(f"snakemake {' '.join(argv)} in {cwd}: still running after {timeout} s")
        return process.exitcode, Path(log.name).read_text()
