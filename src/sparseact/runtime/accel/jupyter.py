"""How papermill runs the notebooks: an IPython kernel in the job's own process, and plain injected parameters.

papermill's own kernel manager starts a Jupyter kernel per notebook, a second Python process that imports
IPython, ipykernel, zmq and the library again and talks to papermill over TCP sockets.
:class:`InProcessNotebookManager` runs the same kernel class
(ipykernel's :class:`~ipykernel.ipkernel.IPythonKernel`, through its in-process variant) in the job's own
process: cells run in the main thread, in papermill's working directory; their streams, displays, results
and errors reach nbclient as the same IOPub messages, so the executed notebook is the one a separate kernel
gives (byte for byte: the workflow's executed notebooks are compared in the tests). The registered kernel
(``python -m ipykernel install --sys-prefix --name sparseact``) is still the one the notebooks name, for a
reader who opens them in Jupyter; it runs the same interpreter.

ipykernel's in-process client is synchronous and its kernel writes a cell's streams to the IOPub thread only
when their buffer is flushed, after the cell's ``idle`` status; the shims below make the client awaitable
(:class:`InProcessNotebookClient`) and flush the streams within the request (:class:`FlushingInProcessKernel`).
"""

from __future__ import annotations

import asyncio
import contextlib
import sys
import time
from queue import Empty, Queue

from ipykernel.inprocess.channels import InProcessChannel
from ipykernel.inprocess.client import InProcessKernelClient
from ipykernel.inprocess.ipkernel import InProcessKernel
from ipykernel.inprocess.manager import InProcessKernelManager
from papermill.translators import PythonTranslator, papermill_translators
from traitlets import Type
from traitlets.config.loader import KVArgParseConfigLoader

#: Seconds between two looks at an empty channel (the kernel's IOPub thread fills it).
CHANNEL_POLL_S = 0.002
#: Longest wait for the kernel's IOPub thread to end its periodic clean-up task at shutdown.
IOPUB_STOP_TIMEOUT_S = 10


#: pandas' ``display.max_columns`` when pandas is imported inside a Jupyter kernel (pandas/core/config_init.py).
PANDAS_KERNEL_MAX_COLUMNS = 20


class AwaitableChannel(InProcessChannel):
    """An in-process channel whose ``get_msg`` is awaited, as nbclient does with its asynchronous clients."""

    def __init__(self, client=None):
        super().__init__(client)
        self._queue: Queue = Queue()

    def call_handlers(self, msg: dict) -> None:
        """Queue ``msg`` (called by the kernel, from the main thread or its IOPub thread)."""
        self._queue.put(msg)

    async def get_msg(self, timeout: float | None = None) -> dict:
        """The next message; raises :class:`queue.Empty` when none came within ``timeout`` seconds."""
        deadline = None if timeout is None else time.monotonic() + timeout
        while True:
            try:
                return self._queue.get_nowait()
            except Empty:
                if deadline is not None and time.monotonic() >= deadline:
                    raise
            await asyncio.sleep(CHANNEL_POLL_S)


class InProcessNotebookClient(InProcessKernelClient):
    """An in-process kernel client for nbclient: awaitable channels, cells executed in the running event loop."""

    shell_channel_class = Type(AwaitableChannel)
    iopub_channel_class = Type(AwaitableChannel)
    stdin_channel_class = Type(AwaitableChannel)
    control_channel_class = Type(AwaitableChannel)

    async def execute(
        self,
        code: str,
        silent: bool = False,
        store_history: bool = True,
        user_expressions: dict | None = None,
        allow_stdin: bool | None = None,
        stop_on_error: bool = True,
    ) -> str:
        """Run ``code`` in the kernel (in this thread) and queue its reply; the request's message id.

        Notebooks read no input: ``allow_stdin`` is always false.
        """
        content = {
            "code": code,
            "silent": silent,
            "store_history": store_history,
            "user_expressions": user_expressions or {},
            "allow_stdin": False,
            "stop_on_error": stop_on_error,
        }
        msg = self.session.msg("execute_request", content)
        stream = self.kernel.shell_stream
        self.session.send(stream, msg)
        await self.kernel.dispatch_shell(stream.recv_multipart())
        _, reply = self.session.recv(stream, copy=False)
        self.shell_channel.call_handlers(reply)
        return msg["header"]["msg_id"]

    async def wait_for_ready(self, timeout: float | None = None) -> None:
        """Ask the kernel for its info and take the reply (an in-process kernel is ready when it exists)."""
        self.kernel_info()
        self._handle_kernel_info_reply(await self.shell_channel.get_msg(timeout=timeout))

    def is_alive(self) -> bool:
        """Whether the kernel exists (it lives as long as the process)."""
        return self.kernel is not None


class FlushingInProcessKernel(InProcessKernel):
    """ipykernel's in-process kernel, whose streams belong to the request and are sent before it ends.

    The in-process kernel swaps ``sys.stdout`` and ``sys.stderr`` for its streams only while a cell runs, so
    the kernel's own ``set_parent`` and end-of-request flush (made before and after) miss them.
    """

    async def execute_request(self, stream, ident, parent) -> None:
        """Execute the request with the kernel's streams, tagged with its header and flushed at its end."""
        with self._redirected_io():
            self.stdout.set_parent(parent)
            self.stderr.set_parent(parent)
            await super(InProcessKernel, self).execute_request(stream, ident, parent)
            sys.stdout.flush()
            sys.stderr.flush()


async def _finish_event_pipe_gc(thread) -> None:
    """Cancel the IOPub thread's periodic clean-up task once the thread has made it, and wait until it has ended.

    Runs in the thread's own event loop, so it also waits for a thread that has not reached its loop yet (a kernel
    shut down right after it started); read from another thread, the task would still be None then.
    """
    while thread._event_pipe_gc_task is None:
        await asyncio.sleep(0)
    task = thread._event_pipe_gc_task
    task.cancel()
    with contextlib.suppress(asyncio.CancelledError):
        await task


def _stop_iopub_thread(thread) -> None:
    """Stop the kernel's IOPub thread once its periodic clean-up task has ended in its own loop.

    ipykernel's ``IOPubThread.stop`` stops the loop with that task still pending, and Python reports the
    destroyed pending task on the process's standard error when it collects the task (often at exit).
    """
    if hasattr(thread, "_event_pipe_gc_task") and thread.thread.is_alive():
        future = asyncio.run_coroutine_threadsafe(_finish_event_pipe_gc(thread), thread.io_loop.asyncio_loop)
        try:
            future.result(timeout=IOPUB_STOP_TIMEOUT_S)
        except TimeoutError:  # the loop never ran it: stop the thread all the same (the warning is all that is lost)
            future.cancel()
    thread.stop()


class InProcessNotebookManager(InProcessKernelManager):
    """A kernel manager for papermill whose kernel is a :class:`FlushingInProcessKernel` in this process.

    ``start_kernel`` takes the kernel's command-line options (``extra_arguments``, such as
    ``--HistoryManager.enabled=False``) as configuration; the working directory is papermill's, which changes
    to ``cwd`` for the run. ``shutdown_kernel`` stops the kernel's IOPub thread and drops its IPython shell,
    so a second notebook in the same process starts from a fresh namespace and execution count.
    """

    def start_kernel(self, extra_arguments=(), **kwargs) -> None:
        """Create the kernel, configured by ``extra_arguments``."""
        self.config.merge(KVArgParseConfigLoader(list(extra_arguments)).load_config())
        self.kernel = FlushingInProcessKernel(parent=self, session=self.session)
        pandas = sys.modules.get("pandas")
        if pandas is not None:
            # pandas decides display.max_columns once, when imported: 20 inside a Jupyter kernel, 0 (fit the
            # terminal) outside one. A job whose pandas was imported before its kernel started (every job the warm
            # job server forks: the server imported it once) shows its tables as a kernel does, as its own process
            # would have (its imports run in the kernel)
            pandas.set_option("display.max_columns", PANDAS_KERNEL_MAX_COLUMNS)

    def shutdown_kernel(self, now: bool = False, restart: bool = False) -> None:
        """Stop the kernel's IOPub thread and forget its shell."""
        if self.kernel is not None:
            _stop_iopub_thread(self.kernel.iopub_thread)
            type(self.kernel.shell).clear_instance()
            self.kernel = None

    def cleanup_resources(self, restart: bool = False) -> None:
        """Nothing to clean: no connection file, no sockets outside the process."""

    def client(self, **kwargs) -> InProcessNotebookClient:
        """A client of the kernel."""
        return InProcessNotebookClient(parent=self, session=self.session, kernel=self.kernel)


class PlainPythonTranslator(PythonTranslator):
    """papermill's :class:`~papermill.translators.PythonTranslator` without its optional black pass."""

    @classmethod
    def codify(cls, parameters: dict, comment: str = "Parameters") -> str:
        """The injected cell: ``# Parameters`` and one ``name = value`` line per parameter, whatever is installed."""
        return super(PythonTranslator, cls).codify(parameters, comment)


def use_plain_parameters() -> None:
    """Make papermill inject Python parameters with :class:`PlainPythonTranslator` (for the current process)."""
    papermill_translators.register("python", PlainPythonTranslator)
