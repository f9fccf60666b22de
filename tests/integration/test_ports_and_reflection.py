"""One server per port unless asked (issue 12, bug 1), and reflection v1 beside v1alpha."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import grpc
from google.protobuf import descriptor_pb2
from grpc_reflection.v1alpha import reflection_pb2

from service.listen import check_free, split_address
from tests.integration.conftest import ROOT, ServerProcess


def _second_server(address: str, data_dir: Path, redis_url: str, **env: str) -> subprocess.Popen:
    return subprocess.Popen(
        [sys.executable, "-m", "service.main", "--address", address, "--data-dir", str(data_dir)],
        cwd=ROOT, env=dict(os.environ, REDIS_URL=redis_url, **env),
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )


def test_a_busy_port_refuses_to_start_with_a_sentence(
    shared_server: ServerProcess, tmp_path: Path, redis_url: str
) -> None:
    env = {k: v for k, v in os.environ.items() if k != "ARBITER_REUSE_PORT"}
    process = subprocess.Popen(
        [sys.executable, "-m", "service.main", "--address", shared_server.address,
         "--data-dir", str(tmp_path / "other")],
        cwd=ROOT, env=dict(env, REDIS_URL=redis_url),
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )
    out, err = process.communicate(timeout=60)
    assert process.returncode != 0
    assert "serving" not in out
    assert f"{shared_server.address} is already in use" in err
    assert "ARBITER_REUSE_PORT=1" in err
    assert "Traceback" not in err
    assert not (tmp_path / "other" / "redis").exists()  # refused before starting anything


def test_localhost_half_taken_is_busy_too(shared_server: ServerProcess) -> None:
    port = shared_server.port  # the shared server listens on 127.0.0.1 only
    try:
        check_free(f"localhost:{port}")
    except ValueError as exc:
        assert "already in use" in str(exc)
    else:
        raise AssertionError("localhost with its IPv4 address taken was called free")


def test_addresses_are_split_for_the_check() -> None:
    assert split_address("localhost:50051") == ("localhost", 50051)
    assert split_address("[::1]:7") == ("::1", 7)
    assert split_address("0.0.0.0:8") == ("0.0.0.0", 8)
    assert split_address("unix:/tmp/a.sock") is None


def test_reuse_port_on_purpose_lets_a_second_server_share_the_port(
    shared_server: ServerProcess, tmp_path: Path, redis_url: str
) -> None:
    first = ServerProcess(tmp_path / "one", redis_url, {"ARBITER_REUSE_PORT": "1"})
    first.start()
    try:
        second = _second_server(first.address, tmp_path / "one", redis_url,
                                ARBITER_REUSE_PORT="1", ARBITER_ADMIN_TOKEN=first.admin_token)
        try:
            assert second.stdout is not None
            line = second.stdout.readline()
            assert "serving on" in line, second.stderr.read() if second.stderr else ""
        finally:
            second.terminate()
            second.communicate(timeout=30)
    finally:
        first.stop()


def _reflect(channel: grpc.Channel, service: str, request: reflection_pb2.ServerReflectionRequest
             ) -> reflection_pb2.ServerReflectionResponse:
    call = channel.stream_stream(
        f"/{service}/ServerReflectionInfo",
        request_serializer=reflection_pb2.ServerReflectionRequest.SerializeToString,
        response_deserializer=reflection_pb2.ServerReflectionResponse.FromString,
    )
    return next(iter(call(iter([request]), timeout=10)))


def test_reflection_v1_and_v1alpha(shared_server: ServerProcess) -> None:
    with grpc.insecure_channel(shared_server.address) as channel:
        for service in ("grpc.reflection.v1.ServerReflection",
                        "grpc.reflection.v1alpha.ServerReflection"):
            listed = _reflect(channel, service, reflection_pb2.ServerReflectionRequest(
                list_services=""))
            names = {s.name for s in listed.list_services_response.service}
            assert {"arbiter.v1.GameService", "grpc.health.v1.Health",
                    "grpc.reflection.v1.ServerReflection",
                    "grpc.reflection.v1alpha.ServerReflection"} <= names, service
            described = _reflect(channel, service, reflection_pb2.ServerReflectionRequest(
                file_containing_symbol="arbiter.v1.GameService"))
            assert described.file_descriptor_response.file_descriptor_proto, service
            # With game.proto's comments (issue 23: "reflection carries no comments"),
            # as grpcurl describe shows them.
            files = {f.name: f for f in map(
                descriptor_pb2.FileDescriptorProto.FromString,
                described.file_descriptor_response.file_descriptor_proto)}
            game = files["arbiter/v1/game.proto"]
            comments = [loc.leading_comments for loc in game.source_code_info.location]
            assert " A seat's move: checked by the rules, recorded as events, or refused " \
                "with a reason.\n" in comments, service
        itself = _reflect(channel, "grpc.reflection.v1.ServerReflection",
                          reflection_pb2.ServerReflectionRequest(
                              file_containing_symbol="grpc.reflection.v1.ServerReflection"))
        assert itself.file_descriptor_response.file_descriptor_proto
