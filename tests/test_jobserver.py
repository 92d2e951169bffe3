"""The warm job server (sparseact.runtime.accel.jobserver): a job forked from it is the job its own process would be.

A real server runs in a subprocess, as the Snakefile starts it; the jobs are real ``python -m sparseact.cli``
processes. What the workflow's runs make of it (their results byte-identical whether or not jobs run in the server,
and an interrupted run resuming) is held by the end-to-end tests (test_reproducibility, test_interruption).
"""

from __future__ import annotations

import contextlib
import gc
import importlib.util
import json
import os
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import pytest

from sparseact.claims import claim_ids
from sparseact.cli import job_modules
from sparseact.runtime.accel import jobclient, jobserver
from sparseact.runtime.accel.usage import USAGE_PREFIX, usage_from_log
from sparseact.runtime.costs import job_log, job_resources

#: How long a test waits for the server to import everything, or for a process to end.
READY_S, ENDED_S = 120.0, 10.0


def _cli(env: dict, *args: str, **kwargs) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "sparseact.cli", *args], env=env, capture_output=True, text=True, **kwargs
    )


def _gone(pid: int) -> bool:
    """Whether process ``pid`` has ended (a zombie counts as ended)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except FileNotFoundError:
        return True
    return state in ("Z", "X")


def _wait(condition, seconds: float) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.1)
    return condition()


@contextlib.contextmanager
def _server(log: Path, **variables: str):
    """A server started as the Snakefile starts it (with ``variables`` in its environment); the environment of a job
    of its workflow."""
    folder = jobserver.private_folder()
    env = {**os.environ, **jobserver.ONE_THREAD, **variables, jobclient.ADDRESS_VARIABLE: _socket(folder)}
    with open(log, "w", encoding="utf-8") as handle:
        server = subprocess.Popen(
            [sys.executable, "-m", "sparseact.runtime.accel.jobserver", folder, str(os.getpid()), "sparseact.cli"],
            env=env,
            stdout=handle,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    try:
        ready = _wait(lambda: USAGE_PREFIX in _cli(env, "--help").stderr or server.poll() is not None, READY_S)
        assert ready and server.poll() is None, log.read_text()
        yield env, server
    finally:
        server.send_signal(signal.SIGCONT)
        server.terminate()
        server.wait(ENDED_S)
        assert not os.path.exists(folder)  # the server removes its folder, key and socket when it ends


def _socket(folder: str) -> str:
    return os.path.join(folder, jobclient.SOCKET_NAME)


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    """The environment of a job of a running server's workflow."""
    with _server(tmp_path_factory.mktemp("server") / "server.log") as (env, _):
        yield env


def _without_usage(stderr: str) -> str:
    return "".join(line for line in stderr.splitlines(keepends=True) if not line.startswith(USAGE_PREFIX))


@pytest.mark.parametrize(
    "args",
    [
        ("--help",),
        ("explain", "--help"),
        # an input error: one line naming the file, exit status 2
        ("ledger", "/nonexistent/claims/lemma9.json", "--out-dir", "out"),
        # a usage error from argparse: exit status 2 and its message
        ("no-such-command",),
    ],
)
def test_a_job_in_the_server_prints_and_exits_as_its_own_process(served, tmp_path, args):
    in_server = _cli(served, *args, cwd=tmp_path)
    own = _cli({k: v for k, v in served.items() if k != jobclient.ADDRESS_VARIABLE}, *args, cwd=tmp_path)
    assert USAGE_PREFIX in in_server.stderr and USAGE_PREFIX not in own.stderr
    assert (in_server.returncode, in_server.stdout, _without_usage(in_server.stderr)) == (
        own.returncode,
        own.stdout,
        own.stderr,
    )


def test_the_usage_line_is_the_childs_cpu_time_and_peak_memory(served, tmp_path):
    log = tmp_path / "logs" / "runs" / "x" / "a.log"
    log.parent.mkdir(parents=True)
    log.write_text(_cli(served, "--help").stderr)
    cpu, peak = usage_from_log(log.read_text())
    assert 0 <= cpu < 30 and peak > 50  # the child holds the server's imports: numpy, pandas, ...
    benchmark = tmp_path / "results" / "benchmarks" / "runs" / "x" / "a.tsv"
    benchmark.parent.mkdir(parents=True)
    benchmark.write_text("s\th:m:s\tmax_rss\tcpu_time\n0.5\t0:00:00\t20.0\t0.1\n")
    assert job_log(benchmark, tmp_path / "logs") == log
    resources = job_resources(benchmark, tmp_path / "logs")
    assert resources == {"wall_s": 0.5, "cpu_s": pytest.approx(0.1 + cpu), "max_rss_mb": peak, "in_job_server": 1.0}
    assert job_resources(benchmark) == {"wall_s": 0.5, "cpu_s": 0.1, "max_rss_mb": 20.0, "in_job_server": 0.0}


def test_a_forked_job_inherits_the_servers_objects_frozen():
    """The server forks each job after :func:`gc.freeze`: the child's collections skip what the server holds."""
    held = [[index] for index in range(1000)]
    pid = jobserver._fork()
    if pid == 0:  # the child: exit 0 when none of the parent's objects is in a collected generation
        collected = {id(obj) for obj in gc.get_objects()}
        os._exit(0 if gc.get_freeze_count() >= len(held) and not collected & {id(item) for item in held} else 1)
    _, status = os.waitpid(pid, 0)
    assert os.waitstatus_to_exitcode(status) == 0


def test_a_job_whose_environment_differs_runs_in_its_own_process(served, tmp_path):
    """A variable the server's imports did not see (here a made-up one; in earnest a thread count or a numba
    setting) makes the server decline the job, which says so and runs itself."""
    job = _cli({**served, "SPARSEACT_TEST_VARIABLE": "1"}, "explain", "--help", cwd=tmp_path)
    assert job.returncode == 0 and job.stdout.startswith("usage: sparseact explain")
    assert "the job server declined this job (its environment differs from the server's" in job.stderr
    assert "SPARSEACT_TEST_VARIABLE" not in job.stderr  # the refusal names no variable; the server's log does
    assert USAGE_PREFIX not in job.stderr


def test_the_server_loads_each_kernel_group_once_its_kernels_job_has_compiled_it(tmp_path):
    """On an empty numba cache the server loads no kernels and compiles none; once a kernels job (itself forked from
    the server) has compiled the cube's, the server loads them before forking the next job, says so in its log, and
    leaves the lower-bound search's, which nobody compiled, alone."""
    cache, log = tmp_path / "numba", tmp_path / "server.log"
    with _server(log, NUMBA_CACHE_DIR=str(cache)) as (env, _):
        assert _cli(env, "--help", cwd=tmp_path).returncode == 0
        assert "loaded" not in log.read_text() and not list(cache.rglob("*.nb*"))
        kernels = _cli(env, "compile-kernels", "--group", "cube", "--out", str(tmp_path / "cube.txt"), cwd=tmp_path)
        assert kernels.returncode == 0 and USAGE_PREFIX in kernels.stderr, kernels.stderr
        assert _cli(env, "--help", cwd=tmp_path).returncode == 0
        assert _wait(lambda: "kernel group cube loaded" in log.read_text(), ENDED_S), log.read_text()
    text = log.read_text()
    assert "search" not in text and "not preloaded" not in text and "declining" not in text, text


def _one_job_server(address: str, handle) -> threading.Thread:
    """A server at ``address`` that accepts one connection and hands it to ``handle``, in a thread."""
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    listener.bind(address)
    listener.listen(1)

    def serve() -> None:
        with listener:
            connection, _ = listener.accept()
            with connection:
                handle(connection)

    thread = threading.Thread(target=serve)
    thread.start()
    return thread


def _declining_server(address: str, reason: str) -> threading.Thread:
    """A server that takes one job and declines it (:func:`jobserver._decline`), in a thread."""
    return _one_job_server(address, lambda connection: jobserver._decline(connection, reason))


def test_a_server_that_declines_every_job_leaves_each_to_its_own_process(tmp_path, monkeypatch, capsys):
    """What a server does once threads appear in it (forking would copy a process some of whose threads are gone):
    it reads each job and declines it, and the job runs in its own process."""
    folder = jobserver.private_folder()
    try:
        thread = _declining_server(_socket(folder), "threads in the job server")
        monkeypatch.setenv(jobclient.ADDRESS_VARIABLE, _socket(folder))
        assert jobclient.delegate("sparseact.cli", ["--help"]) is None
        thread.join(ENDED_S)
    finally:
        shutil.rmtree(folder)
    assert "the job server declined this job (threads in the job server)" in capsys.readouterr().err


def test_a_server_that_trickles_its_answer_holds_no_job(monkeypatch):
    """probe8: a server sending one byte every few seconds held a job indefinitely, as the accept timeout applied to
    each byte; it now bounds the whole answer, and the job runs in its own process."""
    folder = jobserver.private_folder()
    stop = threading.Event()

    def trickle(connection: socket.socket) -> None:
        for _ in range(50):  # 10 s at most: without the deadline the job waits for all of it
            if stop.wait(0.2):
                break
            connection.sendall(b" ")

    thread = _one_job_server(_socket(folder), trickle)
    monkeypatch.setattr(jobclient, "ACCEPT_TIMEOUT_S", 1.0)
    monkeypatch.setenv(jobclient.ADDRESS_VARIABLE, _socket(folder))
    try:
        started = time.monotonic()
        assert jobclient.delegate("sparseact.cli", ["--help"]) is None
        assert time.monotonic() - started < 5
    finally:
        stop.set()
        thread.join(ENDED_S)
        shutil.rmtree(folder)


@pytest.mark.parametrize(
    "reply",
    [
        b"",
        b"not json",
        b"5",
        b'{"cpu_s": 1}',
        b'{"cpu_s": 1, "max_rss_mb": 2, "exit": "x"}',
        # probe10: an exit status out of range (256 exits 0), not an integer, or infinite; a usage that is not finite
        b'{"cpu_s": 1, "max_rss_mb": 2, "exit": 256}',
        b'{"cpu_s": 1, "max_rss_mb": 2, "exit": 0.9}',
        b'{"cpu_s": 1, "max_rss_mb": 2, "exit": 1e400}',
        b'{"cpu_s": Infinity, "max_rss_mb": 2, "exit": 0}',
    ],
)
def test_a_child_that_dies_after_taking_the_job_gives_one_line(monkeypatch, capsys, reply):
    """probe9: a server child that took the job and then died (or sent a broken status) gave a raw traceback; the job
    now ends with status 1 and one line (it cannot run again in its own process: it may have run in part)."""
    folder = jobserver.private_folder()

    def take_and_die(connection: socket.socket) -> None:
        (length,) = jobclient.HEADER.unpack(connection.recv(jobclient.HEADER.size))
        while length > 0:
            length -= len(connection.recv(length))
        connection.sendall(b'{"accepted": 1}\n')
        _, descriptors, _, _ = socket.recv_fds(connection, 1, 3)
        for descriptor in descriptors:
            os.close(descriptor)
        connection.sendall(reply)

    thread = _one_job_server(_socket(folder), take_and_die)
    monkeypatch.setenv(jobclient.ADDRESS_VARIABLE, _socket(folder))
    try:
        assert jobclient.delegate("sparseact.cli", ["--help"]) == 1
    finally:
        thread.join(ENDED_S)
        shutil.rmtree(folder)
    assert capsys.readouterr().err == "sparseact: the job's process in the job server ended without an exit status\n"


@pytest.mark.parametrize("answer", [b'"declined"', b"5", b"null", b'{"declined": "\\u001b[2Jwhy"}'])
def test_an_answer_that_is_not_an_object_leaves_the_job_to_its_own_process(monkeypatch, capsys, answer):
    """probe10: a same-user server answering a JSON string, number or null raised a TypeError, and a decline's reason
    reached the terminal with its escape codes; the job now runs in its own process, the reason printed clean."""
    folder = jobserver.private_folder()

    def answer_once(connection: socket.socket) -> None:
        connection.recv(1 << 16)
        connection.sendall(answer + b"\n")

    thread = _one_job_server(_socket(folder), answer_once)
    monkeypatch.setenv(jobclient.ADDRESS_VARIABLE, _socket(folder))
    try:
        assert jobclient.delegate("sparseact.cli", ["--help"]) is None
    finally:
        thread.join(ENDED_S)
        shutil.rmtree(folder)
    assert "\x1b" not in capsys.readouterr().err


def test_a_job_that_finds_no_server_runs_itself(tmp_path):
    env = {**os.environ, jobclient.ADDRESS_VARIABLE: str(tmp_path / f"nobody-{secrets.token_hex(4)}" / "socket")}
    job = _cli(env, "explain", "--help", cwd=tmp_path)
    assert (job.returncode, job.stderr) == (0, "") and job.stdout.startswith("usage: sparseact explain")


#: What a job's own process must not import before it hands the job to the server (each took time on every job).
NOT_BEFORE_DELEGATING = (
    "argparse",
    "logging",
    "numpy",
    "secrets",
    "shutil",
    "sparseact.kernels",
    "sparseact.runtime.accel.jobserver",
    "zipfile",
)


def test_a_jobs_own_process_imports_only_what_delegating_takes():
    code = "import sys, sparseact.cli; print(' '.join(sorted(sys.modules)))"
    imported = set(
        subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.split()
    )
    assert not imported & set(NOT_BEFORE_DELEGATING), sorted(imported & set(NOT_BEFORE_DELEGATING))


def test_killing_a_job_kills_its_child_in_the_server(served, tmp_path):
    """An interrupted run kills its jobs' processes; a job's child in the server, and what the child started, end
    with it (the child watches its connection), so that no job goes on writing after the run ended."""
    notebook = tmp_path / "sleep.py"
    notebook.write_text(
        '# %% tags=["parameters"]\nunused = 0\n\n# %%\nimport os, subprocess, time\n'
        f"open({str(tmp_path / 'pids')!r}, 'w').write(f'{{os.getpid()}} {{subprocess.Popen([\"sleep\", \"600\"]).pid}}')\n"
        "time.sleep(600)\n"
    )
    job = subprocess.Popen(
        [sys.executable, "-m", "sparseact.cli", "run-notebook", str(notebook), "--executed", str(tmp_path / "x.ipynb")],
        env=served,
        cwd=tmp_path,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        assert _wait(lambda: (tmp_path / "pids").is_file() and (tmp_path / "pids").read_text().strip(), READY_S)
        child, grandchild = map(int, (tmp_path / "pids").read_text().split())
        assert child != job.pid and not _gone(child) and not _gone(grandchild)
        job.send_signal(signal.SIGKILL)
        job.wait(ENDED_S)
        assert _wait(lambda: _gone(child) and _gone(grandchild), ENDED_S)
    finally:
        job.kill()


def test_the_server_ends_with_the_process_that_started_it(tmp_path):
    """A run killed outright (no onerror to stop the server) leaves no server behind."""
    starter = subprocess.run(
        [
            sys.executable,
            "-c",
            "import os, subprocess, sys; p = subprocess.Popen([sys.executable, '-m', 'sparseact.runtime.accel.jobserver', "
            f"{jobserver.private_folder()!r}, str(os.getpid())], start_new_session=True); print(p.pid)",
        ],
        env={**os.environ, **jobserver.ONE_THREAD},
        capture_output=True,
        text=True,
        check=True,
    )
    server = int(starter.stdout)
    assert _wait(lambda: _gone(server), READY_S + ENDED_S)


def test_start_serves_no_dry_run_no_job_inside_a_cluster_job_and_no_small_run(tmp_path, monkeypatch):
    """Not a dry run, a Snakemake inside a cluster job (each job a process of its own there), or a run of a few jobs
    (the server's imports would cost more than their start-ups). A cluster run's own Snakemake does start one, for
    the jobs that run where it runs (the next test: the server declines the cluster's jobs)."""

    class Workflow:
        def __init__(self, mode, dryrun, jobs):
            self.dryrun, self.dag = dryrun, range(jobs)
            self.exec_mode = type("Mode", (), {"name": mode})()

    monkeypatch.delenv(jobclient.ADDRESS_VARIABLE, raising=False)
    for workflow in (
        Workflow("REMOTE", False, 100),
        Workflow("SUBPROCESS", False, 100),
        Workflow("DEFAULT", True, 100),
        Workflow("DEFAULT", False, jobserver.MIN_JOBS - 1),
    ):
        assert not jobserver.start(workflow, str(tmp_path / "server.log"), [])
        assert jobclient.ADDRESS_VARIABLE not in os.environ
    jobserver.stop()  # nothing to stop


def test_a_cluster_job_runs_in_its_own_process(served, tmp_path):
    """A cluster job inherits the server's address with the rest of the submitting environment (sbatch
    --export=ALL) and, on the submitting node, reaches it; SLURM's job id in its environment makes the server
    decline it, so it runs inside its allocation. tests/test_reproducibility.py holds the same on the real cluster."""
    job = _cli({**served, "SLURM_JOB_ID": "4242"}, "explain", "--help", cwd=tmp_path)
    assert job.returncode == 0 and job.stdout.startswith("usage: sparseact explain")
    assert "the job server declined this job (a job of the cluster's, SLURM job 4242: it runs in its allocation)" in (
        job.stderr
    )
    assert USAGE_PREFIX not in job.stderr


def test_a_notebook_in_the_server_shows_its_tables_as_its_own_process(served, tmp_path):
    """The server imported pandas outside a kernel, where pandas fits its tables to a terminal; a job's own
    process imports it inside its notebook's kernel. The kernel's display options are the job's either way."""
    notebook = tmp_path / "wide.py"
    notebook.write_text(
        '# %% tags=["parameters"]\nunused = 0\n\n# %%\nimport pandas as pd\n'
        'pd.DataFrame({f"a_rather_long_column_{i}": [i * 1000.5] for i in range(12)})\n'
    )
    outputs = []
    for name, env in (
        ("in-server", served),
        ("own", {k: v for k, v in served.items() if k != jobclient.ADDRESS_VARIABLE}),
    ):
        job = _cli(env, "run-notebook", str(notebook), "--executed", str(tmp_path / f"{name}.ipynb"), cwd=tmp_path)
        assert job.returncode == 0, job.stderr
        cells = json.loads((tmp_path / f"{name}.ipynb").read_text())["cells"]
        outputs.append([cell.get("outputs") for cell in cells])
    assert outputs[0] == outputs[1] and "a_rather_long_column_11" in json.dumps(outputs[0])


#: A request sent by hand, as another local user or a process without the run's key would send it. It names no
#: interpreter, so a server that reads it answers with a refusal ("another interpreter"), and one that drops it
#: unread closes the connection without a word: the answer shows how far the request got.
_FOREIGN_JOB = """
import json, os, socket, struct, sys
address, key = sys.argv[1:3]
request = {"key": key, "module": "sparseact.cli", "argv": [], "cwd": "/", "env": dict(os.environ), "umask": 0o22,
           "python": []}
payload = json.dumps(request).encode()
try:
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as connection:
        connection.settimeout(15)
        connection.connect(address)
        connection.sendall(struct.pack("!I", len(payload)) + payload)
        print("answer:", connection.recv(4096))
except OSError as exc:
    print("refused:", type(exc).__name__)
"""


#: A Python another user can run (the test's own may sit in a folder only root enters); the job needs only its
#: standard library.
_SYSTEM_PYTHON = "/usr/bin/python3"


def _send_foreign_job(served: dict, key: str, **user) -> str:
    """Send :data:`_FOREIGN_JOB` to the server of ``served`` with ``key``, as ``user`` (``user=``, ``group=`` of
    :class:`subprocess.Popen`): what the sender saw."""
    sent = subprocess.run(
        [_SYSTEM_PYTHON if user else sys.executable, "-c", _FOREIGN_JOB, served[jobclient.ADDRESS_VARIABLE], key],
        capture_output=True,
        text=True,
        timeout=READY_S,
        cwd="/",
        **user,
    )
    return sent.stdout + sent.stderr


@pytest.mark.skipif(
    os.getuid() != 0 or not os.access(_SYSTEM_PYTHON, os.X_OK),
    reason=f"needs root to act as a second local user, and {_SYSTEM_PYTHON}",
)
def test_another_local_user_cannot_reach_the_server_even_with_its_key(served):
    """The server's folder is its user's alone; and were its socket and key readable by all (a folder opened by
    mistake), the server still closes a connection from another user before it forks or reads anything."""
    folder = os.path.dirname(served[jobclient.ADDRESS_VARIABLE])
    key = Path(folder, jobclient.KEY_NAME).read_text()
    assert os.stat(folder).st_mode & 0o777 == 0o700
    assert os.stat(Path(folder, jobclient.KEY_NAME)).st_mode & 0o777 == 0o600
    assert "refused: PermissionError" in _send_foreign_job(served, key, user=65534, group=65534)
    os.chmod(folder, 0o755)
    os.chmod(served[jobclient.ADDRESS_VARIABLE], 0o666)
    try:
        seen = _send_foreign_job(served, key, user=65534, group=65534)
    finally:
        os.chmod(folder, 0o700)
        os.chmod(served[jobclient.ADDRESS_VARIABLE], 0o600)
    assert "answer: b''" in seen or "refused:" in seen, seen


def test_a_request_without_the_runs_key_is_dropped_unanswered(served):
    """The same request with the run's key is answered (declined here: it names no interpreter); with another key
    the server's child closes the connection without a word."""
    key = Path(os.path.dirname(served[jobclient.ADDRESS_VARIABLE]), jobclient.KEY_NAME).read_text()
    assert "answer: b''" in _send_foreign_job(served, "0" * len(key))
    assert '"declined": "another interpreter"' in _send_foreign_job(served, key)


def test_a_stopped_server_holds_no_job(tmp_path):
    """A server that does not take a job within the client's timeout (stopped here) leaves it to its own process."""
    with _server(tmp_path / "server.log") as (env, server):
        server.send_signal(signal.SIGSTOP)
        try:
            started = time.monotonic()
            job = _cli(env, "explain", "--help", cwd=tmp_path, timeout=READY_S)
            waited = time.monotonic() - started
        finally:
            server.send_signal(signal.SIGCONT)
    assert job.returncode == 0 and job.stdout.startswith("usage: sparseact explain") and USAGE_PREFIX not in job.stderr
    assert waited < jobclient.ACCEPT_TIMEOUT_S + 20, waited
    # and says so in its log (probe11: docs/workflow.md promised the line, the job printed none)
    assert "the job server did not take this job within 10 s; it runs in its own process" in job.stderr, job.stderr


def test_connections_beyond_the_limit_are_closed_and_the_job_runs_itself(served, tmp_path):
    """Idle connections, each holding a child until its timeout, take at most MAX_CHILDREN places; the next job
    runs in its own process."""
    idle = []
    try:
        for _ in range(jobserver.MAX_CHILDREN):
            connection = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            connection.connect(served[jobclient.ADDRESS_VARIABLE])
            idle.append(connection)
        time.sleep(2.0)  # the server accepts them (one select pass a second at most)
        job = _cli(served, "explain", "--help", cwd=tmp_path)
    finally:
        for connection in idle:
            connection.close()
    assert job.returncode == 0 and job.stdout.startswith("usage: sparseact explain") and USAGE_PREFIX not in job.stderr


def test_the_server_imports_only_the_modules_its_starter_names(served):
    """No import of the whole package by name (an upward dependency test_layers cannot see): the server started with
    ``sparseact.cli`` alone has not imported the publishing layer, which the Snakefile's job_modules would add."""
    statement = "import sys; assert 'sparseact.cli' in sys.modules and 'sparseact.publish.report' not in sys.modules"
    code = f"from sparseact.runtime.accel.jobclient import delegate; print(delegate('timeit', ['-n1', '-r1', {statement!r}]))"
    assert _wait(
        lambda: USAGE_PREFIX in _cli(served, "--help").stderr, READY_S
    )  # serving (earlier tests' children gone)
    job = subprocess.run([sys.executable, "-c", code], env=served, capture_output=True, text=True, timeout=READY_S)
    assert job.stdout.splitlines()[-1] == "0" and USAGE_PREFIX in job.stderr, job.stdout + job.stderr


def test_job_modules_are_what_each_claims_jobs_import():
    """The Snakefile's list for the server: importable modules, every claim's stage modules, no string taken as ids."""
    modules = job_modules(claim_ids())
    assert all(importlib.util.find_spec(name) for name in modules)
    assert {f"sparseact.claims.{claim}.{part}" for claim in claim_ids() for part in ("compute", "verdicts")} <= set(
        modules
    )
    with pytest.raises(TypeError, match="not the string 'lemma9'"):
        job_modules("lemma9")


def test_stop_kills_a_stopped_server(monkeypatch):
    """A server stopped with SIGSTOP ignores SIGTERM until continued: stop() kills it after STOP_TIMEOUT_S rather than
    holding the run's end forever (the third probe's hang)."""
    import signal
    import subprocess
    import time

    from sparseact.runtime.accel import jobserver

    server = subprocess.Popen(["sleep", "60"])
    server.send_signal(signal.SIGSTOP)
    monkeypatch.setattr(jobserver, "_SERVER", server)
    monkeypatch.setattr(jobserver, "STOP_TIMEOUT_S", 0.5)
    start = time.monotonic()
    jobserver.stop()
    assert time.monotonic() - start < 10 and server.poll() is not None and jobserver._SERVER is None


#: A stand-in server another user runs: it listens at ``sys.argv[1]`` and prints what a job sends it.
_FOREIGN_SERVER = """
import socket, sys
listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
listener.bind(sys.argv[1])
listener.listen(1)
listener.settimeout(20)
print("ready", flush=True)
connection, _ = listener.accept()
print("received", connection.recv(1 << 16), flush=True)
"""


@pytest.mark.skipif(
    os.getuid() != 0 or not os.access(_SYSTEM_PYTHON, os.X_OK),
    reason=f"needs root to act as a second local user, and {_SYSTEM_PYTHON}",
)
def test_a_job_never_hands_itself_to_a_server_that_is_not_its_users(monkeypatch, capsys):
    """Another local user who recreates a run's folder, key and socket once its server has ended, or points the job
    at a server of their own, gets nothing: the job checks that the folder and the key are its user's alone and that
    the process at the socket runs as its user, and otherwise runs in its own process."""
    folder = jobserver.private_folder()
    shared = tempfile.mkdtemp(dir="/tmp")
    key = os.path.join(folder, jobclient.KEY_NAME)
    monkeypatch.setenv(jobclient.ADDRESS_VARIABLE, _socket(folder))
    try:
        os.chmod(folder, 0o755)  # a folder others may enter
        assert jobclient.delegate("sparseact.cli", ["--help"]) is None
        os.chmod(folder, 0o700)
        for path in (folder, key):  # another user's folder and key
            os.chown(path, 65534, 65534)
        assert jobclient.delegate("sparseact.cli", ["--help"]) is None
        for path in (folder, key):
            os.chown(path, os.getuid(), os.getgid())
        assert capsys.readouterr().err.count("is not this user's private job server") == 2
        os.chmod(shared, 0o777)  # this user's folder and key, the socket another user's server
        theirs = os.path.join(shared, "socket")
        server = subprocess.Popen(
            [_SYSTEM_PYTHON, "-c", _FOREIGN_SERVER, theirs],
            stdout=subprocess.PIPE,
            text=True,
            cwd="/",
            user=65534,
            group=65534,
        )
        assert server.stdout.readline().strip() == "ready"
        os.symlink(theirs, _socket(folder))
        assert jobclient.delegate("sparseact.cli", ["--help"]) is None
        assert "runs as another user" in capsys.readouterr().err
        assert server.communicate(timeout=READY_S)[0].strip() == "received b''"  # not a byte of the job
    finally:
        shutil.rmtree(folder)
        shutil.rmtree(shared)
