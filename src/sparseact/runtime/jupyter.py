"""How papermill runs the notebooks: a kernel manager over IPC sockets without an idle wait, and plain injected
parameters.

:class:`PromptKernelManager` talks to its kernel over IPC sockets with a name of its own, never over TCP ports.
jupyter_client's TCP ports are chosen by binding port 0 and closing it before the kernel binds them: between the
two, another kernel starting beside it (or any connection of the machine) may take the port. Then the kernel fails
to bind it ("Address already in use") and, when the port is its IOPub one, lingers alive without ever answering, and
the client waits for it until its start timeout: seen as notebook jobs hanging in the test suite and cancelled at
their SLURM time limit. A socket name no other kernel uses cannot collide.

jupyter_client's ``wait_for_ready`` returns only after 0.2 s in which no IOPub message arrives (its last
loop drains IOPub until a ``get_msg(timeout=0.2)`` comes back empty). That is a wait, not work: with one
job per core it leaves the core idle for 0.2 s per notebook, 82 times in a full run.
:class:`PromptKernelClient` is ready as soon as the kernel answered ``kernel_info`` and IOPub delivers a message
(the proof that IOPub is connected, which is what the drain waits for). Messages, outputs and the
executed notebook are those of jupyter_client's own classes.
"""

from __future__ import annotations

import sys
import tempfile
import time
import uuid
from pathlib import Path
from queue import Empty

from jupyter_client import AsyncKernelManager
from jupyter_client.asynchronous import AsyncKernelClient
from papermill.translators import PythonTranslator, papermill_translators
from traitlets import Type, default

#: Seconds of IOPub silence after which the client takes IOPub as not yet connected and asks ``kernel_info`` again.
IOPUB_SILENCE = 1.0


class PromptKernelClient(AsyncKernelClient):
    """An :class:`~jupyter_client.asynchronous.AsyncKernelClient` whose ``wait_for_ready`` has no idle tail."""

    async def wait_for_ready(self, timeout: float | None = None) -> None:
        """Return once the kernel has answered ``kernel_info`` and IOPub carries messages.

        Raises
        ------
        RuntimeError
            When the kernel dies first, or ``timeout`` seconds pass.
        """
        deadline = time.monotonic() + (float("inf") if timeout is None else timeout)
        while True:
            self.kernel_info()
            try:
                reply = await self.shell_channel.get_msg(timeout=1)
            except Empty:
                reply = None
            if reply is not None and reply["msg_type"] == "kernel_info_reply" and await self._iopub_connected():
                self._handle_kernel_info_reply(reply)
                return
            if not await self._async_is_alive():
                raise RuntimeError("Kernel died before replying to kernel_info")
            if time.monotonic() > deadline:
                raise RuntimeError(f"Kernel didn't respond in {timeout} seconds")

    async def _iopub_connected(self) -> bool:
        """Whether IOPub delivers a message within :data:`IOPUB_SILENCE` seconds: the proof that it is connected, as
        for jupyter_client's own client (any message; no drain after it).

        Requiring a status message of the very request whose reply was just read livelocked: when the kernel started
        slowly, requests queued, the first reply's statuses were lost before IOPub connected, and every scan discarded
        the statuses of the later requests that the next scans looked for (``Kernel didn't respond`` with the kernel
        alive, in fresh-clone suites under load). No: IOPub not connected yet (the caller asks again)."""
        try:
            await self.iopub_channel.get_msg(timeout=IOPUB_SILENCE)
        except Empty:
            return False
        return True


def ipc_socket_prefix() -> str:
    """A name for a kernel's IPC sockets that no other kernel uses (the sockets are ``<name>-<port>``).

    On Linux a name in the abstract socket namespace (``@...``): no file, so nothing is left behind and no path
    length limit is near. Elsewhere a path in the temporary directory, whose files jupyter_client removes when it
    shuts the kernel down.
    """
    name = f"sparseact-kernel-{uuid.uuid4().hex[:16]}"
    if sys.platform.startswith("linux"):
        return f"@{name}"
    return str(Path(tempfile.gettempdir()) / name)


class PromptKernelManager(AsyncKernelManager):
    """An :class:`~jupyter_client.AsyncKernelManager` whose clients are :class:`PromptKernelClient` and whose kernel
    listens on IPC sockets named by :func:`ipc_socket_prefix` (no TCP port to collide with another's)."""

    client_factory = Type(klass=PromptKernelClient)

    @default("transport")
    def _transport_default(self) -> str:
        return "ipc"

    @default("ip")
    def _ip_default(self) -> str:
        return ipc_socket_prefix() if self.transport == "ipc" else super()._ip_default()


class PlainPythonTranslator(PythonTranslator):
    """papermill's :class:`~papermill.translators.PythonTranslator` without its optional black pass."""

    @classmethod
    def codify(cls, parameters: dict, comment: str = "Parameters") -> str:
        """The injected cell: ``# Parameters`` and one ``name = value`` line per parameter, whatever is installed."""
        return super(PythonTranslator, cls).codify(parameters, comment)


def use_plain_parameters() -> None:
    """Make papermill inject Python parameters with :class:`PlainPythonTranslator` (for the current process)."""
    papermill_translators.register("python", PlainPythonTranslator)
