"""The kernel manager notebooks run under (sparseact.runtime.jupyter): a real kernel, ready without an idle wait."""

import asyncio

import pytest

from sparseact.runtime.jupyter import PromptKernelClient, PromptKernelManager
from sparseact.runtime.notebooks import check_kernel

KERNEL = "sparseact"


@pytest.fixture(scope="module", autouse=True)
def _kernel_installed():
    try:
        check_kernel(KERNEL)
    except RuntimeError as error:
        pytest.skip(str(error))


async def _start_run_stop(code: str) -> tuple[dict, list[dict]]:
    """Start a kernel, wait until it is ready, run ``code``; its execute reply and IOPub messages."""
    km = PromptKernelManager(kernel_name=KERNEL)
    await km.start_kernel()
    client = km.client()
    assert isinstance(client, PromptKernelClient)
    client.start_channels()
    try:
        await client.wait_for_ready(timeout=120)
        msg_id = client.execute(code)
        reply = await client.get_shell_msg(timeout=60)
        messages = []
        while True:
            msg = await client.get_iopub_msg(timeout=60)
            if msg["parent_header"].get("msg_id") != msg_id:
                continue  # left from start-up (nothing is drained by waiting)
            messages.append(msg)
            if msg["msg_type"] == "status" and msg["content"]["execution_state"] == "idle":
                break
        return reply, messages
    finally:
        client.stop_channels()
        await km.shutdown_kernel()


def test_a_ready_kernel_runs_code_and_streams_its_output():
    reply, messages = asyncio.run(_start_run_stop("print(6 * 7)"))
    assert reply["content"]["status"] == "ok"
    streams = [m["content"]["text"] for m in messages if m["msg_type"] == "stream"]
    assert "".join(streams) == "42\n"


def test_a_kernel_that_dies_before_replying_is_reported():
    async def dead():
        km = PromptKernelManager(kernel_name=KERNEL)
        await km.start_kernel()
        client = km.client()
        client.start_channels()
        await km.shutdown_kernel(now=True)
        try:
            await client.wait_for_ready(timeout=30)
        finally:
            client.stop_channels()

    with pytest.raises(RuntimeError, match=r"died|respond"):
        asyncio.run(dead())


def test_injected_parameters_do_not_depend_on_black(monkeypatch):
    """PlainPythonTranslator writes the cell papermill writes when black is not installed, whether or not it is."""
    import sys

    from papermill.translators import PythonTranslator, papermill_translators

    from sparseact.runtime.jupyter import PlainPythonTranslator, use_plain_parameters

    parameters = {
        "claim": "lemma9",
        "run_paths": [f"results/runs/lemma9/shard-{i}.json" for i in range(12)],
        "block": {"n_values": [8, 10, 12], "eps": 0.1},
        "progress_log": None,
    }
    monkeypatch.setitem(sys.modules, "black", None)  # as if black were not installed
    plain = PythonTranslator.codify(parameters)
    monkeypatch.delitem(sys.modules, "black")
    assert PlainPythonTranslator.codify(parameters) == plain
    assert plain.startswith("# Parameters\n") and 'claim = "lemma9"\n' in plain
    monkeypatch.setattr(papermill_translators, "_translators", dict(papermill_translators._translators))
    use_plain_parameters()
    assert papermill_translators.find_translator("sparseact", "python") is PlainPythonTranslator


def test_kernels_listen_on_ipc_sockets_of_their_own():
    first, second = PromptKernelManager(kernel_name=KERNEL), PromptKernelManager(kernel_name=KERNEL)
    assert first.transport == second.transport == "ipc"
    assert first.ip != second.ip


def test_a_taken_tcp_port_cannot_stall_a_notebook(tmp_path, monkeypatch):
    """The failure the IPC sockets remove: jupyter_client picks a TCP port that another socket then holds (here
    every port it would pick is held by a live ZeroMQ publisher, as by another kernel's IOPub). Over TCP the kernel
    failed to bind it, lingered without answering, and its job waited out the start timeout."""
    import zmq
    from jupyter_client.provisioning.local_provisioner import LocalPortCache

    from sparseact.runtime import notebooks

    context = zmq.Context()
    publisher = context.socket(zmq.PUB)
    port = publisher.bind_to_random_port("tcp://127.0.0.1")
    monkeypatch.setattr(LocalPortCache, "find_available_port", lambda self, ip: port)
    monkeypatch.setattr(notebooks, "KERNEL_START_TIMEOUT", 60)
    source = tmp_path / "tiny.py"
    source.write_text('# %% tags=["parameters"]\nx = 1\n\n# %%\nprint(x + 41)\n')
    try:
        executed = notebooks.run_notebook(source, tmp_path / "tiny.ipynb", {"x": 1}, kernel=KERNEL, cwd=tmp_path)
    finally:
        publisher.close(linger=0)
        context.term()
    assert executed.cells[-1].outputs[0]["text"] == "42\n"


class _Channel:
    """A kernel client channel fed by hand: ``(delay, message)`` pairs, each delivered after its delay unless the
    caller's timeout is shorter; an empty channel waits out the timeout."""

    def __init__(self):
        self.queue = []

    async def get_msg(self, timeout=None):
        from queue import Empty

        if self.queue:
            delay, msg = self.queue.pop(0)
            if delay > timeout:
                raise Empty
            await asyncio.sleep(delay)
            return msg
        await asyncio.sleep(timeout)
        raise Empty


class _FakeKernel(PromptKernelClient):
    """A PromptKernelClient on hand-fed channels: subclasses say in ``kernel_info`` what the kernel sends back."""

    def __init__(self):
        super().__init__()
        self.shell, self.iopub, self.requests = _Channel(), _Channel(), 0

    shell_channel = property(lambda self: self.shell)
    iopub_channel = property(lambda self: self.iopub)

    def _handle_kernel_info_reply(self, reply):
        self.ready = reply["parent_header"]["msg_id"]

    async def _async_is_alive(self):
        return True


def _status(request: int, state: str) -> dict:
    return {"msg_type": "status", "parent_header": {"msg_id": f"info-{request}"}, "content": {"execution_state": state}}


def _reply(request: int) -> dict:
    return {"msg_type": "kernel_info_reply", "parent_header": {"msg_id": f"info-{request}"}, "content": {}}


def test_a_starved_kernel_is_ready_once_iopub_carries_its_requests_status():
    """On a starved machine the kernel's ``idle`` status reaches the client well after its reply (here 1.5 s, the
    ``busy`` status at once): readiness must not hang on ``idle`` arriving within a short silence limit (it then never
    did, and the start timed out with the kernel alive and answering)."""
    from sparseact.runtime.jupyter import IOPUB_SILENCE

    class StarvedKernel(_FakeKernel):
        def kernel_info(self):
            self.requests += 1
            self.iopub.queue += [
                (0.0, _status(self.requests, "busy")),
                (IOPUB_SILENCE + 0.5, _status(self.requests, "idle")),
            ]
            self.shell.queue.append((0.0, _reply(self.requests)))

    client = StarvedKernel()
    asyncio.run(client.wait_for_ready(timeout=10))
    assert client.ready == "info-1" and client.requests == 1


def test_a_slow_start_whose_first_statuses_are_lost_does_not_livelock():
    """The kernel answers late, so kernel_info requests queue and replies lag behind them; the first request's statuses
    were published before IOPub connected and are lost. Scanning IOPub for the status of the very request whose reply
    was read then never succeeded (each scan discarded the statuses the next one needed)."""

    class LaggingKernel(_FakeKernel):
        def kernel_info(self):
            self.requests += 1
            if self.requests == 1:
                return  # the kernel is not up yet: the reply comes later, its statuses are lost
            self.shell.queue.append((0.0, _reply(self.requests - 1)))  # replies lag one request behind
            self.iopub.queue.append((0.0, _status(self.requests, "busy")))

    client = LaggingKernel()
    asyncio.run(client.wait_for_ready(timeout=20))
    assert client.ready == "info-1"
