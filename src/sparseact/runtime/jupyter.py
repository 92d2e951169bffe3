"""How papermill runs the notebooks: a kernel manager without an idle wait, and plain injected parameters.

jupyter_client's ``wait_for_ready`` returns only after 0.2 s in which no IOPub message arrives (its last
loop drains IOPub until a ``get_msg(timeout=0.2)`` comes back empty). That is a wait, not work: with one
job per core it leaves the core idle for 0.2 s per notebook, 82 times in a full run.
:class:`PromptKernelClient` is ready as soon as IOPub carries the kernel's ``idle`` status for the
``kernel_info`` request it answered (the proof that IOPub is connected, which is what the drain waits
for). Messages, outputs and the executed notebook are those of jupyter_client's own classes.
"""

from __future__ import annotations

import time
from queue import Empty

from jupyter_client import AsyncKernelManager
from jupyter_client.asynchronous import AsyncKernelClient
from papermill.translators import PythonTranslator, papermill_translators
from traitlets import Type


class PromptKernelClient(AsyncKernelClient):
    """An :class:`~jupyter_client.asynchronous.AsyncKernelClient` whose ``wait_for_ready`` has no idle tail."""

    async def wait_for_ready(self, timeout: float | None = None) -> None:
        """Return once the kernel has answered ``kernel_info`` and IOPub carried its ``idle`` status for it.

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
            if reply is not None and reply["msg_type"] == "kernel_info_reply" and await self._iopub_idle_for(reply):
                self._handle_kernel_info_reply(reply)
                return
            if not await self._async_is_alive():
                raise RuntimeError("Kernel died before replying to kernel_info")
            if time.monotonic() > deadline:
                raise RuntimeError(f"Kernel didn't respond in {timeout} seconds")

    async def _iopub_idle_for(self, reply: dict) -> bool:
        """Whether IOPub delivers the kernel's ``idle`` status for ``reply``'s request (0.2 s of silence: no)."""
        request = reply["parent_header"].get("msg_id")
        while True:
            try:
                msg = await self.iopub_channel.get_msg(timeout=0.2)
            except Empty:
                return False
            if (
                msg["msg_type"] == "status"
                and msg["content"].get("execution_state") == "idle"
                and msg["parent_header"].get("msg_id") == request
            ):
                return True


class PromptKernelManager(AsyncKernelManager):
    """An :class:`~jupyter_client.AsyncKernelManager` whose clients are :class:`PromptKernelClient`."""

    client_factory = Type(klass=PromptKernelClient)


class PlainPythonTranslator(PythonTranslator):
    """papermill's :class:`~papermill.translators.PythonTranslator` without its optional black pass."""

    @classmethod
    def codify(cls, parameters: dict, comment: str = "Parameters") -> str:
        """The injected cell: ``# Parameters`` and one ``name = value`` line per parameter, whatever is installed."""
        return super(PythonTranslator, cls).codify(parameters, comment)


def use_plain_parameters() -> None:
    """Make papermill inject Python parameters with :class:`PlainPythonTranslator` (for the current process)."""
    papermill_translators.register("python", PlainPythonTranslator)
