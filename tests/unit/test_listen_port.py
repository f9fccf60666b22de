"""The start-up check calls a port busy exactly when gRPC could not listen on
it (``service.listen``), tried with real connections left in TIME-WAIT.

A port whose only holders are connections in TIME-WAIT (a server stopped a
moment ago, its clients' connections closing; a client's own ephemeral port)
is free to a listener with ``SO_REUSEADDR``, as gRPC binds: the check must not
refuse it as "already in use". Where the kernel itself refuses the port (a
socket in TIME-WAIT that was opened without ``SO_REUSEADDR``), gRPC cannot
bind it either, and the check says so before anything starts. Before, the
wildcard ``[::]`` was probed IPv6-only while gRPC binds both families, so a
port gRPC could not take was called free.
"""

from __future__ import annotations

import contextlib
import socket
import time
from concurrent import futures

import grpc
import pytest

from service.listen import PortBusy, bind_busy, check_free, listen_ips

TIME_WAIT = "06"  # the state's number in /proc/net/tcp


def in_time_wait(port: int) -> bool:
    """Whether a socket on local port ``port`` is in TIME-WAIT (IPv4 or IPv6)."""
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        with contextlib.suppress(OSError), open(table, encoding="ascii") as rows:
            for row in list(rows)[1:]:
                fields = row.split()
                if fields[3] == TIME_WAIT and int(fields[1].rsplit(":", 1)[1], 16) == port:
                    return True
    return False


def left_in_time_wait(closer: str, reuse: bool) -> int:
    """A loopback port held by one connection in TIME-WAIT, and nothing else.

    ``closer`` "server": the listener's port, the server closing first (what a
    stopped server leaves); "client": the client's port, the client closing
    first. ``reuse``: whether that side's socket had ``SO_REUSEADDR``."""
    listener = socket.socket()
    client = socket.socket()
    if reuse:
        (listener if closer == "server" else client).setsockopt(
            socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    listener.bind(("127.0.0.1", 0))
    listener.listen()
    client.bind(("127.0.0.1", 0))
    client.connect(listener.getsockname())
    served, _ = listener.accept()
    first, second = (served, client) if closer == "server" else (client, served)
    port = (listener if closer == "server" else client).getsockname()[1]
    first.close()
    assert second.recv(1) == b""  # the FIN arrived; closing answers it
    second.close()
    listener.close()
    deadline = time.monotonic() + 5
    while not in_time_wait(port):
        assert time.monotonic() < deadline, "no connection reached TIME-WAIT"
        time.sleep(0.01)
    return port


def grpc_binds(address: str) -> bool:
    """Whether a gRPC server (ports not shared, as Arbiter's) binds ``address``."""
    server = grpc.server(futures.ThreadPoolExecutor(1), options=[("grpc.so_reuseport", 0)])
    try:
        return bool(server.add_insecure_port(address))
    except RuntimeError:
        return False
    finally:
        server.stop(None)


@pytest.mark.parametrize(("closer", "reuse"), [("server", True), ("client", True)])
def test_a_port_held_only_in_time_wait_is_free_as_grpc_finds_it(closer: str, reuse: bool) -> None:
    port = left_in_time_wait(closer, reuse)
    address = f"127.0.0.1:{port}"
    check_free(address)  # not "already in use"
    assert grpc_binds(address)


@pytest.mark.parametrize("closer", ["server", "client"])
def test_where_the_kernel_refuses_the_port_grpc_does_too_and_the_check_says_so(
    closer: str,
) -> None:
    port = left_in_time_wait(closer, reuse=False)
    for address in (f"127.0.0.1:{port}", f"[::]:{port}", f"0.0.0.0:{port}"):
        with pytest.raises(PortBusy, match="already in use"):
            check_free(address)
    assert not grpc_binds(f"127.0.0.1:{port}")


def test_the_addresses_checked_are_the_ones_grpc_listens_on() -> None:
    assert listen_ips("") == listen_ips("0.0.0.0") == listen_ips("::") == ["::"]
    assert listen_ips("localhost") == ["::1", "127.0.0.1"]
    assert listen_ips("127.0.0.1") == ["127.0.0.1"]


def test_a_listening_socket_is_busy_and_a_closed_one_is_not() -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        assert bind_busy("127.0.0.1", port) and bind_busy("::", port)
    assert not bind_busy("127.0.0.1", port)
