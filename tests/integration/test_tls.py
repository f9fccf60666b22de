"""TLS on the gRPC port when a certificate is configured (issue 4)."""

from __future__ import annotations

import subprocess
from pathlib import Path

import grpc
import pytest
from arbiter.v1 import game_pb2, game_pb2_grpc

from tests.integration.conftest import ServerProcess

pytestmark = pytest.mark.integration


def self_signed(directory: Path) -> tuple[Path, Path]:
    cert, key = directory / "cert.pem", directory / "key.pem"
    subprocess.run(
        ["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1",
         "-subj", "/CN=localhost", "-addext", "subjectAltName=IP:127.0.0.1,DNS:localhost",
         "-keyout", str(key), "-out", str(cert)],
        check=True, capture_output=True,
    )
    return cert, key


def test_tls_port_serves_only_tls(tmp_path: Path, redis_url: str) -> None:
    if subprocess.run(["which", "openssl"], capture_output=True).returncode != 0:
        pytest.skip("openssl is needed to make a test certificate")
    cert, key = self_signed(tmp_path)
    server = ServerProcess(tmp_path / "data", redis_url,
                           {"ARBITER_TLS_CERT": str(cert), "ARBITER_TLS_KEY": str(key)})
    server.tls_root = cert.read_bytes()
    server.start()
    try:
        created = server.stub().CreateGame(game_pb2.CreateGameRequest(rules="enin"))
        assert created.seat_tokens
        plain = game_pb2_grpc.GameServiceStub(grpc.insecure_channel(server.address))
        with pytest.raises(grpc.RpcError) as info:
            plain.ListRules(game_pb2.ListRulesRequest(), timeout=3)
        assert info.value.code() == grpc.StatusCode.UNAVAILABLE
    finally:
        server.stop()
