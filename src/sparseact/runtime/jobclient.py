"""The job's side of the warm job server (:mod:`sparseact.runtime.jobserver`): hand a job's command to it.

A workflow job's process (``python -m sparseact.cli ...``) calls :func:`delegate` before it imports anything
else, and only waits while the server's child runs the job. So this module, apart from the server, imports only
what sending the job takes (``json``, ``os``, ``socket``, ``struct``, ``sys``): the waiting process costs about
0.035 CPU-seconds instead of the 0.055 it took when it imported the server and the command-line module (with the
bytecode written), on each of a full run's 143 jobs.
"""

from __future__ import annotations

import json
import os
import socket
import struct
import sys

from sparseact.runtime.usage import usage_line

#: The environment variable that carries the running server's address to the jobs.
ADDRESS_VARIABLE = "SPARSEACT_JOB_SERVER"
#: A request's length, ahead of its JSON.
HEADER = struct.Struct("!I")


def address_bytes(address: str) -> bytes:
    """The socket address of the server named ``address``."""
    # Linux's abstract socket namespace: no file to clean up, no path-length limit from deep temporary folders
    return b"\0" + address.encode()


def delegate(module: str, argv: list[str]) -> int | None:
    """Run ``python -m <module> <argv>`` (the job's command) in a child of the job server; its exit status.

    Returns ``None`` when no server answers at :data:`ADDRESS_VARIABLE`'s address or the server declines the job
    (the caller then runs it itself).
    """
    address = os.environ.get(ADDRESS_VARIABLE)
    if not address:
        return None
    connection = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        connection.connect(address_bytes(address))
    except OSError:
        connection.close()
        return None
    umask = os.umask(0)
    os.umask(umask)
    request = {
        "module": module,
        "argv": list(argv),
        "cwd": os.getcwd(),
        "env": dict(os.environ),
        "umask": umask,
        "python": interpreter(),
    }
    payload = json.dumps(request).encode()
    with connection:
        socket.send_fds(connection, [HEADER.pack(len(payload))], [0, 1, 2])
        connection.sendall(payload)
        reply = receive_all(connection)
    if not reply:
        print("sparseact: the job's process in the job server ended without an exit status", file=sys.stderr)
        return 1
    answer = json.loads(reply)
    if "declined" in answer:
        print(
            f"sparseact: the job server declined this job ({answer['declined']}); it runs in its own process",
            file=sys.stderr,
        )
        return None
    sys.stderr.write(usage_line(answer["cpu_s"], answer["max_rss_mb"]))
    return int(answer["exit"])


def interpreter() -> list[str]:
    """What makes two processes the same Python: its binary, its environment (a venv's prefix) and its version."""
    return [os.path.realpath(sys.executable), sys.prefix, sys.version]


def receive_all(connection: socket.socket) -> bytes:
    """Everything ``connection`` sends until the other side closes it."""
    chunks = []
    while chunk := connection.recv(65536):
        chunks.append(chunk)
    return b"".join(chunks)
