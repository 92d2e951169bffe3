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

    with pytest.raises(RuntimeError, match="died|respond"):
        asyncio.run(dead())
