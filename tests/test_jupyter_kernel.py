"""The kernel manager notebooks run under (sparseact.runtime.accel.jupyter): an IPython kernel in the test's own process,
its outputs sent on IOPub within the request, a fresh shell for every notebook."""

import asyncio

import pytest

from sparseact.runtime.accel.jupyter import InProcessNotebookClient, InProcessNotebookManager
from sparseact.runtime.notebooks import check_kernel

KERNEL = "sparseact"


@pytest.fixture(scope="module", autouse=True)
def _kernel_installed():
    try:
        check_kernel(KERNEL)
    except ValueError as error:
        pytest.skip(str(error))


async def _start_run_stop(code: str) -> tuple[dict, list[dict]]:
    """Start a kernel, wait until it is ready, run ``code``; its execute reply and IOPub messages."""
    km = InProcessNotebookManager(kernel_name=KERNEL)
    km.start_kernel(extra_arguments=["--HistoryManager.enabled=False"])
    client = km.client()
    assert isinstance(client, InProcessNotebookClient)
    client.start_channels()
    try:
        await client.wait_for_ready(timeout=120)
        msg_id = await client.execute(code)
        reply = await client.shell_channel.get_msg(timeout=60)
        messages = []
        while True:
            msg = await client.iopub_channel.get_msg(timeout=60)
            if msg["parent_header"].get("msg_id") != msg_id:
                continue  # left from start-up (nothing is drained by waiting)
            messages.append(msg)
            if msg["msg_type"] == "status" and msg["content"]["execution_state"] == "idle":
                break
        return reply, messages
    finally:
        client.stop_channels()
        km.shutdown_kernel()


def test_a_ready_kernel_runs_code_and_streams_its_output():
    reply, messages = asyncio.run(_start_run_stop("print(6 * 7)"))
    assert reply["content"]["status"] == "ok"
    streams = [m["content"]["text"] for m in messages if m["msg_type"] == "stream"]
    assert "".join(streams) == "42\n"


def test_streams_and_displays_arrive_in_order_before_the_requests_idle_status():
    """Output written just before a cell ends is sent within its request (nbclient stops reading at ``idle``)."""
    code = "import sys\nprint('a')\ndisplay('b')\nprint('c', file=sys.stderr)\n7"
    reply, messages = asyncio.run(_start_run_stop(code))
    assert reply["content"]["status"] == "ok"
    outputs = [
        (m["msg_type"], m["content"].get("text") or m["content"]["data"]["text/plain"])
        for m in messages
        if m["msg_type"] in ("stream", "display_data", "execute_result")
    ]
    assert outputs == [("stream", "a\n"), ("display_data", "'b'"), ("stream", "c\n"), ("execute_result", "7")]
    assert messages[-1]["content"]["execution_state"] == "idle"


def test_every_kernel_starts_with_a_fresh_shell():
    """A second notebook in the same process sees neither the first one's names nor its execution count."""
    asyncio.run(_start_run_stop("leftover = 1"))
    reply, messages = asyncio.run(_start_run_stop("'leftover' in dir()"))
    assert reply["content"]["execution_count"] == 1
    assert [m["content"]["data"]["text/plain"] for m in messages if m["msg_type"] == "execute_result"] == ["False"]


def test_a_kernel_that_is_gone_is_reported():
    async def gone():
        km = InProcessNotebookManager(kernel_name=KERNEL)
        km.start_kernel()
        client = km.client()
        client.start_channels()
        km.shutdown_kernel(now=True)
        client.kernel = km.kernel
        assert not client.is_alive()
        try:
            await client.wait_for_ready(timeout=30)
        finally:
            client.stop_channels()

    with pytest.raises(RuntimeError, match="No kernel exists"):
        asyncio.run(gone())


def test_a_kernel_shut_down_before_its_iopub_thread_runs_leaves_no_pending_task(monkeypatch):
    """ipykernel's IOPub thread makes its periodic clean-up task only once it runs; a kernel shut down before that
    (its thread held back here until just after the shutdown starts, as a busy machine may hold it) still ends the
    task, so Python reports no destroyed pending task on standard error. Read from the main thread, the task was
    still None then, and stopping the thread left it pending (once in each of three runs of 30 kernels started and
    stopped at once)."""
    import threading

    from ipykernel.iostream import IOPubThread

    thread_main, release = IOPubThread._thread_main, threading.Event()

    def held_back(self):
        release.wait(timeout=30)
        thread_main(self)

    monkeypatch.setattr(IOPubThread, "_thread_main", held_back)
    km = InProcessNotebookManager(kernel_name=KERNEL)
    km.start_kernel(extra_arguments=["--HistoryManager.enabled=False"])
    thread = km.kernel.iopub_thread
    assert thread.thread.is_alive() and thread._event_pipe_gc_task is None  # started, held before its task
    threading.Timer(0.1, release.set).start()
    km.shutdown_kernel()
    assert not thread.thread.is_alive()
    assert thread._event_pipe_gc_task is not None and thread._event_pipe_gc_task.cancelled()


def test_a_kernel_whose_iopub_thread_has_ended_shuts_down():
    """Nothing is scheduled on the closed loop of a thread that has ended (that raised "Event loop is closed")."""
    from sparseact.runtime.accel.jupyter import _stop_iopub_thread

    km = InProcessNotebookManager(kernel_name=KERNEL)
    km.start_kernel(extra_arguments=["--HistoryManager.enabled=False"])
    _stop_iopub_thread(km.kernel.iopub_thread)  # the thread has ended, its loop closed
    km.shutdown_kernel()
    assert km.kernel is None


def test_injected_parameters_do_not_depend_on_black(monkeypatch):
    """PlainPythonTranslator writes the cell papermill writes when black is not installed, whether or not it is."""
    import sys

    from papermill.translators import PythonTranslator, papermill_translators

    from sparseact.runtime.accel.jupyter import PlainPythonTranslator, use_plain_parameters

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


def test_kernels_open_no_sockets_and_no_connection_file(tmp_path, monkeypatch):
    """The in-process kernel talks to its client through queues: no port, socket or connection file that another
    kernel starting beside it could take (the failure of the separate kernels' TCP ports, then IPC sockets)."""
    monkeypatch.setenv("JUPYTER_RUNTIME_DIR", str(tmp_path))
    km = InProcessNotebookManager(kernel_name=KERNEL)
    km.start_kernel(extra_arguments=["--HistoryManager.enabled=False"])
    try:
        assert not km.has_kernel or km.kernel is not None
        assert type(km.kernel.shell_stream).__name__ == "DummySocket"
        assert list(tmp_path.iterdir()) == []
    finally:
        km.shutdown_kernel()
    assert km.kernel is None


def test_a_taken_tcp_port_cannot_stall_a_notebook(tmp_path, monkeypatch):
    """The failure the in-process kernel removes (as IPC sockets did before it): jupyter_client picks a TCP port
    that another socket then holds (here every port it would pick is held by a live ZeroMQ publisher, as by another
    kernel's IOPub). Over TCP the kernel failed to bind it, lingered without answering, and its job waited out the
    start timeout."""
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


def test_a_kernel_is_ready_at_once_and_answers_kernel_info(monkeypatch):
    """Readiness is the kernel_info reply itself (no IOPub silence to wait out, so a starved machine cannot make
    the start time out while the kernel answers)."""
    replies = []
    monkeypatch.setattr(InProcessNotebookClient, "_handle_kernel_info_reply", lambda self, msg: replies.append(msg))

    async def ready() -> None:
        km = InProcessNotebookManager(kernel_name=KERNEL)
        km.start_kernel(extra_arguments=["--HistoryManager.enabled=False"])
        client = km.client()
        client.start_channels()
        try:
            await client.wait_for_ready(timeout=5)
        finally:
            client.stop_channels()
            km.shutdown_kernel()

    asyncio.run(ready())
    assert [msg["msg_type"] for msg in replies] == ["kernel_info_reply"]
    assert replies[0]["content"]["implementation"] == "ipython"


def test_an_error_in_a_cell_is_its_reply_and_leaves_the_next_kernel_fresh():
    """A cell that raises gives an ``error`` reply with its exception; the next kernel's shell does not see the
    failed cell's names."""
    reply, messages = asyncio.run(_start_run_stop("leftover = 1\nraise ValueError('boom')"))
    assert reply["content"]["status"] == "error" and reply["content"]["ename"] == "ValueError"
    assert any(msg["msg_type"] == "error" for msg in messages)
    reply, _ = asyncio.run(_start_run_stop("leftover"))
    assert reply["content"]["status"] == "error" and reply["content"]["ename"] == "NameError"
