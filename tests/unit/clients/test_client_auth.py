"""The client library's credentials: which token each call carries, and TLS.

Against an in-process fake GameService (conftest.py) that records the
``authorization`` metadata of every call.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

import grpc
import pytest
from arbiter.client import (
    ArbiterClient,
    ArbiterError,
    AsyncArbiterClient,
    auth_metadata,
    build_audit_request,
    build_create_request,
    build_history_request,
    build_legal_request,
    build_list_games_request,
    build_state_request,
    build_subscribe_request,
    channel_credentials,
)
from arbiter.v1 import game_pb2

from tests.unit.clients.conftest import FakeServer, start_fake
from tests.unit.clients.support import self_signed_cert


def test_auth_metadata() -> None:
    assert auth_metadata("abc") == (("authorization", "Bearer abc"),)
    assert auth_metadata(None) == () and auth_metadata("") == ()


def test_shared_request_builders() -> None:
    create = build_create_request("enin", ["Ada"], {"b": 1, "a": 2}, "rid")
    assert (create.rules, list(create.seats), create.request_id) == ("enin", ["Ada"], "rid")
    assert create.options_json == '{"a": 2, "b": 1}'
    assert build_state_request("g", 1, True) == game_pb2.GetStateRequest(
        game_id="g", seat=1, spectator=True)
    assert build_legal_request("g", 2) == game_pb2.LegalActionsRequest(game_id="g", seat=2)
    assert build_history_request("g", 0, True, 5).after_version == 5
    assert build_subscribe_request().spectator and not build_subscribe_request().game_id
    assert build_audit_request("g").game_id == "g"
    assert build_list_games_request("enin", 3, 9) == game_pb2.ListGamesRequest(
        rules="enin", limit=3, after=9)


def test_client_token_default_is_arbiter_token_env(
    fake_server: FakeServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("ARBITER_TOKEN", "env-token")
    with ArbiterClient(fake_server.address) as client:
        assert client.token == "env-token"
        client.list_rules()
        client.state("g9", 0)
        client.list_games(token="per-call")
    with ArbiterClient(fake_server.address, token="given") as client:
        client.legal("g9", 0)
    assert fake_server.service.tokens() == ["env-token", "env-token", "per-call", "given"]


def test_no_token_sends_no_metadata(fake_server: FakeServer) -> None:
    with ArbiterClient(fake_server.address) as client:
        assert client.token is None
        client.audit("g9")
    assert fake_server.service.calls[0].authorization is None


def test_created_games_use_their_own_tokens(fake_server: FakeServer) -> None:
    fake = fake_server.service
    with ArbiterClient(fake_server.address, token="admin") as client:
        created = client.create_game("enin", ["Ada", "Bo"])
        game_id = created.game_id
        assert [t.token for t in created.seat_tokens] == [f"seat0-{game_id}", f"seat1-{game_id}"]
        fake.calls.clear()
        client.act(game_id, 1, {"name": "roll_start", "args": {}})  # rules known from create
        client.state(game_id, 0)
        client.state(game_id, spectator=True)
        client.legal(game_id, 1)
        list(client.history(game_id, 0))
        list(client.history(game_id, spectator=True))
        list(client.subscribe(game_id))  # a spectator feed by default
        list(client.subscribe(game_id, seat=1, spectator=False))
        client.audit(game_id)
        client.act(game_id, 0, {"name": "roll_start", "args": {}}, token="override")
        client.state(game_id, 5)  # a seat this client holds no token for
        list(client.subscribe())  # every game: the client's own token
        client.state("another-game")
    spec, seat0, seat1 = f"spec-{game_id}", f"seat0-{game_id}", f"seat1-{game_id}"
    assert [(c.method, t) for c, t in zip(fake.calls, fake.tokens(), strict=True)] == [
        ("Act", seat1), ("GetState", seat0), ("GetState", spec), ("LegalActions", seat1),
        ("History", seat0), ("History", spec), ("Subscribe", spec), ("Subscribe", seat1),
        ("Audit", spec), ("Act", "override"), ("GetState", "admin"), ("Subscribe", "admin"),
        ("GetState", "admin"),
    ]


def test_empty_per_call_token_sends_none_and_add_tokens(fake_server: FakeServer) -> None:
    with ArbiterClient(fake_server.address, token="admin") as client:
        client.audit("g1", token="")
        client.add_tokens("g1", {2: "seat2"})
        client.legal("g1", 2)
        client.state("g1", spectator=True)  # no spectator token known: any seat token
        # a dict command needs the rules: asked with the acting seat's token
        client.act("g1", 2, {"name": "roll_start", "args": {}})
    assert fake_server.service.tokens() == [None, "seat2", "seat2", "seat2"]


def test_refusal_reason_reaches_the_caller(fake_server: FakeServer) -> None:
    fake_server.service.refuse["bad"] = (grpc.StatusCode.PERMISSION_DENIED, "WRONG_SEAT")
    with ArbiterClient(fake_server.address, token="bad") as client:
        with pytest.raises(ArbiterError) as refused:
            client.legal("g1", 1)
        with pytest.raises(ArbiterError) as streamed:
            list(client.history("g1"))
    assert refused.value.code == grpc.StatusCode.PERMISSION_DENIED
    assert refused.value.reason == streamed.value.reason == "WRONG_SEAT"


def test_async_client_attaches_the_same_tokens(fake_server: FakeServer) -> None:
    async def run() -> None:
        async with AsyncArbiterClient(fake_server.address, token="admin") as client:
            created = await client.create_game("enin", ["Ada"])
            game_id = created.game_id
            await client.act(game_id, 0, {"name": "roll_start", "args": {}})
            await client.state(game_id, spectator=True)
            await client.legal(game_id, 0, token="mine")
            assert [e.version async for e in client.history(game_id)] == [1]
            assert [m.event.version async for m in client.subscribe()] == [1]
            await client.audit(game_id)
            await client.list_rules()

    asyncio.run(run())
    game_id = "game-1"  # the fake's first game
    assert fake_server.service.tokens() == [
        "admin", f"seat0-{game_id}", f"spec-{game_id}", "mine", f"seat0-{game_id}", "admin",
        f"spec-{game_id}", "admin",
    ]


# --- TLS -----------------------------------------------------------------------


def test_channel_credentials(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    assert channel_credentials(None, False) is None
    assert isinstance(channel_credentials(None, True), grpc.ChannelCredentials)
    with pytest.raises(OSError):
        channel_credentials(str(tmp_path / "missing.pem"))
    monkeypatch.setenv("ARBITER_TLS_CA", str(tmp_path / "missing.pem"))
    with pytest.raises(OSError):
        ArbiterClient("localhost:1")
    assert ArbiterClient("localhost:1", tls_ca="").tls_ca == ""  # "" turns the env off


def test_tls_with_a_ca_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    key, ca = self_signed_cert(tmp_path)
    server, fake = start_fake(grpc.ssl_server_credentials([(key.read_bytes(), ca.read_bytes())]))
    try:
        with ArbiterClient(fake.address, token="t", tls_ca=str(ca)) as client:
            assert client.list_rules()[0].id == "enin"
        monkeypatch.setenv("ARBITER_TLS_CA", str(ca))

        async def run() -> None:
            async with AsyncArbiterClient(fake.address, token="t") as client:
                await client.state("g1", spectator=True)

        asyncio.run(run())
        with (
            ArbiterClient(fake.address, tls_ca="", timeout=2) as plaintext,
            pytest.raises(ArbiterError) as refused,
        ):
            plaintext.list_rules()
        assert refused.value.code == grpc.StatusCode.UNAVAILABLE
    finally:
        server.stop(None)
    assert fake.service.tokens() == ["t", "t"]


def test_create_game_carries_the_creator_credential(
    fake_server: FakeServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("ARBITER_CREATOR_TOKEN", raising=False)
    fake = fake_server.service
    with ArbiterClient(fake_server.address, token="tok", creator_token="cre") as client:
        client.create_game("enin", ["Ada"])
        client.create_game("enin", ["Ada"], creator_token="call-cre")
        client.create_game("enin", ["Ada"], token="call-tok")
        client.list_rules()  # other calls keep the client's token
    monkeypatch.setenv("ARBITER_CREATOR_TOKEN", "env-cre")
    with ArbiterClient(fake_server.address, token="tok") as client:
        assert client.creator_token == "env-cre"
        client.create_game("enin", ["Ada"])
    with ArbiterClient(fake_server.address, token="tok", creator_token="") as client:
        client.create_game("enin", ["Ada"])

    async def create() -> None:
        async with AsyncArbiterClient(fake_server.address, creator_token="async-cre") as client:
            await client.create_game("enin", ["Ada"])

    asyncio.run(create())
    assert fake.tokens("CreateGame") == [
        "cre", "call-cre", "call-tok", "env-cre", "tok", "async-cre"]
    assert fake.tokens("ListRules") == ["tok"]
