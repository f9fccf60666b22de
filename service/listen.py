"""Binding the gRPC port: a busy port refuses to start, unless sharing is asked for.

gRPC sets ``SO_REUSEPORT`` by default, so a second server started on the port
of a running one would also listen, and the kernel would spread calls between
two processes -- two stores, if their data dirs differ. Arbiter turns that off
(``grpc.so_reuseport`` 0) and checks every address the listen address resolves
to before binding, so that ``localhost`` with IPv4 taken and IPv6 free does
not half-start. ``ARBITER_REUSE_PORT=1`` asks for several processes on one
port on purpose; they must then share one store (see "Several servers").

The check binds each address the way gRPC's own listener will, so that it
calls busy exactly what gRPC could not bind: with ``SO_REUSEADDR`` (a port
held only by connections in TIME-WAIT is free to listen on again, as it is to
gRPC), an IPv4 address as an IPv4-mapped address on a dual-stack IPv6 socket,
a wildcard (``0.0.0.0``, ``[::]``, ``*`` or no host) as the dual-stack
``[::]`` (both families; plain ``0.0.0.0`` where the machine has no IPv6), and
``localhost`` as both ``127.0.0.1`` and ``::1``.
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


#: Hosts gRPC listens on every address of (its wildcard listener).
WILDCARDS = frozenset({"", "0.0.0.0", "::", "*"})  # noqa: S104 - names, not a bind


def check_free(address: str) -> None:
    """Raise :class:`PortBusy` if gRPC could not listen on every address that
    ``address`` names (see the module's doc for how each is bound)."""
    parsed = split_address(address)
    if parsed is None or parsed[1] == 0:
        return
    host, port = parsed
    for ip in listen_ips(host):
        if bind_busy(ip, port):
            raise PortBusy(busy_sentence(address))


def listen_ips(host: str) -> list[str]:
    """The addresses gRPC binds for ``host``: ``::`` for a wildcard (dual-stack),
    ``::1`` and ``127.0.0.1`` for ``localhost``, else what the name resolves to
    (none when it does not: gRPC reports that itself)."""
    if host in WILDCARDS:
        return ["::"]
    if host.lower() == "localhost":
        return ["::1", "127.0.0.1"]
    try:
        infos = socket.getaddrinfo(host, None, type=socket.SOCK_STREAM)
    except socket.gaierror:
        return []
    return list(dict.fromkeys(str(info[4][0]) for info in infos))


def bind_busy(ip: str, port: int) -> bool:
    """Whether binding ``ip``:``port`` as gRPC does fails with "in use": a
    dual-stack IPv6 socket (an IPv4 address mapped into it; the wildcard ``::``
    for both families), ``SO_REUSEADDR`` on; a plain IPv4 socket where the
    machine has no IPv6. Any other failure (no such address here) is not
    "busy": gRPC says what it is."""
    v4 = ":" not in ip
    attempts = [(socket.AF_INET6, f"::ffff:{ip}" if v4 else ip)]
    if v4 or ip == "::":
        attempts.append((socket.AF_INET, "0.0.0.0" if ip == "::" else ip))  # noqa: S104
    for family, bound in attempts:
        try:
            probe = socket.socket(family, socket.SOCK_STREAM)
        except OSError:
            continue  # no IPv6 on this machine: gRPC binds IPv4 alone
        with contextlib.closing(probe):
            probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as gRPC does
            if family == socket.AF_INET6:
                with contextlib.suppress(OSError):
                    probe.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 0)
            try:
                probe.bind((bound, port))
            except OSError as exc:
                if exc.errno == errno.EADDRINUSE:
                    return True
                if family == socket.AF_INET6:
                    continue  # IPv6 there but not this address: as gRPC, try IPv4
                return False
            return False
    return False
