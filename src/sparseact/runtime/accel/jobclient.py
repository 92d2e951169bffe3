"""The job's side of the warm job server (:mod:`sparseact.runtime.accel.jobserver`): hand a job's command to it.

A workflow job's process (``python -m sparseact.cli ...``) calls :func:`delegate` before it imports anything
else, and only waits while the server's child runs the job, so this module imports only what sending the job takes.

Only the run that started the server reaches it: the server listens on a socket file in a folder only its user can
enter (mode 0700), accepts only connections from its own user (the peer's credentials), and runs a job only when the
request carries the run's key, which a file in that folder holds (mode 0600) and no name, command line or log shows.
The job checks the server too: the folder and the key must be its user's alone, and the process at the socket must
run as its user, or the job runs in its own process. A job hands itself over only once the server's child has taken
it (:data:`ACCEPT_TIMEOUT_S`); a server that does not answer in time, or declines, leaves the job to its own process.
"""

from __future__ import annotations

import json
import math
import os
import socket
import stat
import struct
import sys
import time

from sparseact.runtime.accel.usage import usage_line

#: The environment variable that carries the running server's socket file to the jobs.
ADDRESS_VARIABLE = "SPARSEACT_JOB_SERVER"
#: The socket file's and the key's names in the server's private folder.
SOCKET_NAME, KEY_NAME = "socket", "key"
#: A request's length, ahead of its JSON.
HEADER = struct.Struct("!I")
#: How long a job waits for the server's child to take or decline it before running in its own process.
ACCEPT_TIMEOUT_S = 10.0
#: What the job sends, with its standard streams, once the child has taken it: from then on the child runs it and the
#: job waits.
GO = b"g"


def delegate(module: str, argv: list[str]) -> int | None:
    """Run ``python -m <module> <argv>`` (the job's command) in a child of the job server; its exit status.

    Returns ``None`` when no server answers at :data:`ADDRESS_VARIABLE`'s socket in time or the server declines the
    job (the caller then runs it itself).
    """
    address = os.environ.get(ADDRESS_VARIABLE)
    if not address:
        return None
    try:
        key = _private_key(os.path.dirname(address))
    except OSError:
        return None
    if key is None:
        print(
            f"sparseact: {address} is not this user's private job server; the job runs in its own process",
            file=sys.stderr,
        )
        return None
    umask = os.umask(0)
    os.umask(umask)
    request = {
        "key": key,
        "module": module,
        "argv": list(argv),
        "cwd": os.getcwd(),
        "env": dict(os.environ),
        "umask": umask,
        "python": interpreter(),
    }
    payload = json.dumps(request).encode()
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as connection:
        connection.settimeout(ACCEPT_TIMEOUT_S)
        try:
            connection.connect(address)
            if not peer_is_us(connection):
                print(
                    f"sparseact: the server at {address} runs as another user; the job runs in its own process",
                    file=sys.stderr,
                )
                return None
            connection.sendall(HEADER.pack(len(payload)) + payload)
            answer = json.loads(receive_line(connection) or b"{}")
            if not isinstance(answer, dict):
                return None
            if "accepted" in answer:  # the job's standard streams go only to a child that has taken it
                socket.send_fds(connection, [GO], [0, 1, 2])
        except TimeoutError:
            print(
                f"sparseact: the job server did not take this job within {ACCEPT_TIMEOUT_S:g} s; it runs in its own "
                "process",
                file=sys.stderr,
            )
            return None
        except (OSError, ValueError):
            return None
        if "declined" in answer:
            reason = "".join(c for c in str(answer["declined"])[:200] if c.isprintable())
            print(
                f"sparseact: the job server declined this job ({reason}); it runs in its own process", file=sys.stderr
            )
        if "accepted" not in answer:
            return None
        connection.settimeout(None)
        try:
            usage = json.loads(receive_all(connection))
            status, cpu_s, rss = usage["exit"], float(usage["cpu_s"]), float(usage["max_rss_mb"])
            if type(status) is not int or not 0 <= status <= 255 or not math.isfinite(cpu_s + rss):
                raise ValueError(f"not an exit status and usage: {usage!r:.80}")
            line = usage_line(cpu_s, rss)
        except (OSError, ValueError, TypeError, KeyError):  # the child died (or was killed) while running the job
            print("sparseact: the job's process in the job server ended without an exit status", file=sys.stderr)
            return 1
    sys.stderr.write(line)
    return status


def _private_key(folder: str) -> str | None:
    """The run's key, when ``folder`` and the key file in it are this user's and no one else's (mode 0700 and 0600,
    no link); ``None`` otherwise: a job never hands itself, its environment or its streams to another user's server."""
    uid = os.geteuid()
    info = os.lstat(folder)
    if not stat.S_ISDIR(info.st_mode) or info.st_uid != uid or info.st_mode & 0o077:
        return None
    descriptor = os.open(os.path.join(folder, KEY_NAME), os.O_RDONLY | os.O_NOFOLLOW)
    with open(descriptor, encoding="ascii") as handle:
        info = os.fstat(descriptor)
        if not stat.S_ISREG(info.st_mode) or info.st_uid != uid or info.st_mode & 0o077:
            return None
        return handle.read()


def peer_is_us(connection: socket.socket) -> bool:
    """Whether the process at the other end of ``connection`` runs as this process's user (``SO_PEERCRED``)."""
    credentials = struct.Struct("3i")
    _, uid, _ = credentials.unpack(connection.getsockopt(socket.SOL_SOCKET, socket.SO_PEERCRED, credentials.size))
    return uid == os.getuid()


def interpreter() -> list[str]:
    """What makes two processes the same Python: its binary, its environment (a venv's prefix) and its version."""
    return [os.path.realpath(sys.executable), sys.prefix, sys.version]


def receive_line(connection: socket.socket, limit: int = 4096) -> bytes:
    """What ``connection`` sends up to its first newline (or until it closes), within the connection's timeout for
    the whole line, not for each byte: a server that trickles bytes holds no job (``TimeoutError``); ``ValueError``
    past ``limit`` bytes."""
    timeout = connection.gettimeout()
    deadline = None if timeout is None else time.monotonic() + timeout
    chunks = []
    while True:
        if deadline is not None:
            connection.settimeout(max(deadline - time.monotonic(), 1e-3))
        chunk = connection.recv(1)
        if not chunk or chunk == b"\n":
            break
        chunks.append(chunk)
        if len(chunks) > limit:
            raise ValueError(f"the job server's answer is longer than {limit} bytes")
    connection.settimeout(timeout)
    return b"".join(chunks)


def receive_all(connection: socket.socket) -> bytes:
    """Everything ``connection`` sends until the other side closes it."""
    chunks = []
    while chunk := connection.recv(65536):
        chunks.append(chunk)
    return b"".join(chunks)
