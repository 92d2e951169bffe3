"""One function run in a forked child while this process goes on: a job's two independent parts on two cores.

The ledger job is a checkpoint: every job after it waits for it, so it runs alone, on one core. Its certificates'
checks (exact and interval arithmetic, :func:`sparseact.publish.ledger.write_certificates`) depend on nothing the
rest of the job writes, so they run in a child (:func:`beside`) while the job writes its tables and the claim pages'
slices. The child is a fork: it starts with everything the job has imported and loaded, and costs no start-up.
"""

from __future__ import annotations

import contextlib
import os
import pickle
import signal
import sys
import traceback
import warnings
from collections.abc import Callable, Iterator


@contextlib.contextmanager
def beside(function: Callable[..., object], *args: object) -> Iterator[Callable[[], None]]:
    """Run ``function(*args)`` in a forked child while the ``with`` block runs here.

    Yields ``wait``: it returns once the child is done, and raises what ``function`` raised (the same type and
    message; the child's traceback is added as a note). Leaving the block waits too; leaving it by an exception
    kills the child first.

    The child's return value is dropped: ``function`` reports through the files it writes. Its output goes to this
    process's standard output and error.
    """
    if not callable(function):
        raise TypeError(f"function must be callable, got {type(function).__name__}")
    read, write = os.pipe()
    sys.stdout.flush()
    sys.stderr.flush()  # what this process printed so far is not printed again by the child
    with warnings.catch_warnings():
        # Python 3.12 warns when a process with threads forks. A job forked by the job server has one, which only
        # waits on a socket and holds no lock; the child runs ``function`` and leaves by os._exit.
        warnings.filterwarnings("ignore", message=r".*fork\(\) may lead to deadlocks", category=DeprecationWarning)
        pid = os.fork()
    if pid == 0:  # the child
        os.close(read)
        payload = b""
        try:
            function(*args)
        except BaseException as exc:  # handed to the parent, which raises it
            text = "".join(traceback.format_exception(exc)).rstrip()
            exc.add_note("(raised in the forked child:)\n" + text)
            try:
                payload = pickle.dumps(exc)
            except Exception:  # an exception that does not pickle is handed on as its text
                payload = pickle.dumps(ChildProcessError(text))
        with os.fdopen(write, "wb") as handle:
            handle.write(payload)
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(0)
    os.close(write)
    waited = False

    def wait() -> None:
        nonlocal waited
        if waited:
            return
        with os.fdopen(read, "rb") as handle:
            payload = handle.read()
        _, status = os.waitpid(pid, 0)
        waited = True
        if payload:
            raise pickle.loads(payload)
        if os.waitstatus_to_exitcode(status) != 0:
            raise ChildProcessError(f"the forked child running {function.__name__} ended with status {status}")

    try:
        yield wait
    except BaseException:
        if not waited:
            os.kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
            os.close(read)
            waited = True
        raise
    wait()
