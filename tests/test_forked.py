"""sparseact.runtime.forked.beside: a function in a forked child while the caller goes on (the ledger job's
certificate checks beside its tables)."""

import os
import time

import pytest

from sparseact.runtime.forked import beside


def _write_pid(path):
    path.write_text(str(os.getpid()))


def test_the_function_runs_in_a_child_and_its_files_are_there_once_waited(tmp_path):
    out = tmp_path / "pid"
    with beside(_write_pid, out) as wait:
        wait()
        assert int(out.read_text()) != os.getpid()
    with beside(_write_pid, out):  # leaving the block waits
        pass
    assert int(out.read_text()) != os.getpid()


def _sleep_then_write(path, seconds):
    time.sleep(seconds)
    path.write_text("done")


def test_the_block_runs_while_the_child_does(tmp_path):
    out = tmp_path / "done"
    start = time.perf_counter()
    with beside(_sleep_then_write, out, 1.0) as wait:
        assert not out.exists()  # the block did not wait for the child to start
        time.sleep(1.0)
        wait()
    assert out.read_text() == "done" and time.perf_counter() - start < 1.9


def _refuse(message):
    raise ValueError(message)


def test_what_the_function_raises_is_raised_by_wait_with_its_type_message_and_traceback():
    with pytest.raises(ValueError) as caught, beside(_refuse, "the certificate leaves its domain") as wait:
        wait()
    assert str(caught.value) == "the certificate leaves its domain"
    (note,) = caught.value.__notes__
    assert note.startswith("(raised in the forked child:)") and "_refuse" in note
    with (
        pytest.raises(ValueError, match="on leaving"),
        beside(_refuse, "on leaving"),
    ):  # raised on leaving the block too
        pass


def _unpicklable():
    class Local(Exception):
        pass

    raise Local("a class the parent cannot find")


def _exit_silently(code):
    os._exit(code)


def test_a_child_that_dies_or_raises_what_does_not_pickle_is_a_child_process_error():
    with pytest.raises(ChildProcessError, match="a class the parent cannot find"), beside(_unpicklable):
        pass
    with pytest.raises(ChildProcessError, match="_exit_silently ended with status"), beside(_exit_silently, 3):
        pass


def test_an_error_in_the_block_kills_the_child(tmp_path):
    out = tmp_path / "done"
    start = time.perf_counter()
    with pytest.raises(KeyError, match="the block's own"), beside(_sleep_then_write, out, 30.0):
        raise KeyError("the block's own")
    assert time.perf_counter() - start < 10 and not out.exists()


def _say(text):
    print(text)


def test_output_printed_before_the_fork_is_printed_once(capfd):
    print("before the fork", end="\n")
    with beside(_say, "from the child"):
        pass
    out = capfd.readouterr().out
    assert out.count("before the fork") == 1 and out.count("from the child") == 1


def test_a_function_that_is_not_callable_is_refused_before_forking():
    with pytest.raises(TypeError, match="function must be callable, got int"), beside(3):
        pass
