"""The floor of an RPC: a gRPC server whose one unary method does nothing.

It parses the same ``ActRequest`` the load generator sends Arbiter and
answers with a real ``ActResponse`` captured from Arbiter (set by
``SetReply``), serialized anew each call, on a thread pool of the same size as
Arbiter's: what remains is the transport and the codec, the part of an ``Act``
that no change to Arbiter can remove.
"""

from __future__ import annotations

import argparse
import signal
import time
from concurrent import futures
from typing import Any

import grpc
from arbiter.v1 import game_pb2

SERVICE = "bench.Noop"
ACT = f"/{SERVICE}/Act"
SET_REPLY = f"/{SERVICE}/SetReply"


class Noop:
    """Holds the reply every ``Act`` gets."""

    def __init__(self) -> None:
        self.reply = game_pb2.ActResponse()

    def act(self, request: game_pb2.ActRequest, context: Any) -> game_pb2.ActResponse:
        return self.reply

    def set_reply(self, reply: game_pb2.ActResponse, context: Any) -> game_pb2.ActResponse:
        self.reply = reply
        return game_pb2.ActResponse()


def serve(address: str, workers: int) -> None:
    """Serve until SIGTERM/SIGINT; print the bound port (the parent reads it)."""
    noop = Noop()
    server = grpc.server(futures.ThreadPoolExecutor(max_workers=workers))
    server.add_generic_rpc_handlers([
        grpc.method_handlers_generic_handler(SERVICE, {
            "Act": grpc.unary_unary_rpc_method_handler(
                noop.act, request_deserializer=game_pb2.ActRequest.FromString,
                response_serializer=game_pb2.ActResponse.SerializeToString),
            "SetReply": grpc.unary_unary_rpc_method_handler(
                noop.set_reply, request_deserializer=game_pb2.ActResponse.FromString,
                response_serializer=game_pb2.ActResponse.SerializeToString),
        })
    ])
    port = server.add_insecure_port(address)
    signals: list[int] = []  # a handler that takes no lock (see service.main.serve)
    signal.signal(signal.SIGTERM, lambda signum, _: signals.append(signum))
    signal.signal(signal.SIGINT, lambda signum, _: signals.append(signum))
    server.start()
    print(f"noop: serving on {address} (port {port})", flush=True)
    while not signals:
        time.sleep(0.1)
    server.stop(1).wait()


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.noop")
    parser.add_argument("--address", default="127.0.0.1:0")
    parser.add_argument("--workers", type=int, default=256)  # Arbiter's default max_workers
    args = parser.parse_args()
    serve(args.address, args.workers)


if __name__ == "__main__":
    main()
