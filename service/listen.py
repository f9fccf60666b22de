"""Binding the gRPC port: a busy port refuses to start, unless sharing is asked for.

gRPC sets ``SO_REUSEPORT`` by default, so a second server started on the port
of a running one would also listen, and the kernel would spread calls between
two processes -- two stores, if their data dirs differ. Arbiter turns that off
(``grpc.so_reuseport`` 0) and checks every address the listen address resolves
to before binding, so that ``localhost`` with IPv4 taken and IPv6 free does
not half-start. ``ARBITER_REUSE_PORT=1`` asks for several processes on one
port on purpose; they must then share one store (see "Several servers").
"""

from __future__ import annotations

import contextlib
import errno
import os
import socket

from service.config import ConfigError

REUSE_PORT_VARIABLE = "ARBITER_REUSE_PORT"


class PortBusy(ConfigError):
    """The listen address is taken; the text is the sentence the operator reads."""


def reuse_port(env: dict[str, str] | None = None) -> bool:
    """Whether the operator asked for several processes on one port."""
    value = (os.environ if env is None else env).get(REUSE_PORT_VARIABLE, "")
    return value.strip().lower() in ("1", "true", "yes", "on")


def server_options(reuse: bool) -> list[tuple[str, int]]:
    """The gRPC server options about port sharing."""
    return [("grpc.so_reuseport", 1 if reuse else 0)]


def busy_sentence(address: str) -> str:
    return (
        f"{address} is already in use (another Arbiter server?): stop it, choose another "
        f"--address, or set {REUSE_PORT_VARIABLE}=1 to run several servers on one port "
        "on one shared store"
    )


def split_address(address: str) -> tuple[str, int] | None:
    """``(host, port)`` of a TCP listen address, or None (a Unix socket, no port)."""
    if address.startswith(("unix:", "unix-abstract:")):
        return None
    host, sep, port = address.rpartition(":")
    if not sep or not port.isdigit():
        return None
    host = host.strip("[]")
    return (host if host not in ("", "*") else "", int(port))


def check_free(address: str) -> None:
    """Raise :class:`PortBusy` if any address ``address`` resolves to is taken."""
    parsed = split_address(address)
    if parsed is None or parsed[1] == 0:
        return
    host, port = parsed
    try:
        infos = socket.getaddrinfo(
            host or None, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE
        )
    except socket.gaierror:
        return  # gRPC reports an address it cannot resolve itself
    for family, kind, proto, _, sockaddr in infos:
        with contextlib.closing(socket.socket(family, kind, proto)) as probe:
            probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as gRPC does
            if family == socket.AF_INET6:
                with contextlib.suppress(OSError):
                    probe.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 1)
            try:
                probe.bind(sockaddr)
            except OSError as exc:
                if exc.errno == errno.EADDRINUSE:
                    raise PortBusy(busy_sentence(address)) from None
                # EADDRNOTAVAIL and the like: let gRPC decide (e.g. no IPv6 here)
