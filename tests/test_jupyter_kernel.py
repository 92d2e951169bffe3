"""The kernel manager notebooks run under (sparseact.runtime.jupyter): an IPython kernel in the test's own process,
its outputs sent on IOPub within the request, a fresh shell for every notebook."""

import asyncio

import pytest

from sparseact.runtime.jupyter import InProcessNotebookClient, InProcessNotebookManager
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
