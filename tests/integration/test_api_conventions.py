"""The API as gRPC users expect it (issue 12): an absent ``seat`` is the token's
seat, ``ListGames`` pages by AIP-158, enum values carry their prefix, and every
refusal about a game carries that game's real version."""

from __future__ import annotations

import ast
import itertools
import random
import subprocess
from collections.abc import Callable
from pathlib import Path
from typing import Any

import grpc
import pytest
from arbiter.v1 import enin_pb2, ethnos_pb2, game_pb2
from arbiter.wire import command_to_json, json_to_command
from google.protobuf import descriptor_pb2
from google.rpc import error_details_pb2
from grpc_status import rpc_status

from tests.integration.conftest import ROOT, ServerProcess
from tests.integration.helpers import play

pytestmark = [pytest.mark.integration, pytest.mark.xdist_group("api_conventions")]


def refused(call: Callable[[], Any]) -> grpc.RpcError:
    with pytest.raises(grpc.RpcError) as info:
        call()
    return info.value


def reason_and_version(error: grpc.RpcError) -> tuple[str, str]:
    """The refusal's reason and version, checked equal in the trailers and ErrorInfo."""
    trailers = dict(error.trailing_metadata())
    status = rpc_status.from_call(error)  # type: ignore[arg-type]
    assert status is not None
    info = error_details_pb2.ErrorInfo()
    assert status.details[0].Unpack(info)
    assert (info.reason, info.metadata["version"]) == (
        trailers["arbiter-reason"], trailers["arbiter-version"])
    return str(trailers["arbiter-reason"]), str(trailers["arbiter-version"])


@pytest.fixture(scope="module")
def ethnos(shared_server: ServerProcess) -> game_pb2.CreateGameResponse:
    """A three-seat Ethnos game a few moves in (its version well past 1), waiting
    on a seat other than 0."""
    admin = shared_server.stub()
    created = admin.CreateGame(game_pb2.CreateGameRequest(rules="ethnos", seats=["a", "b", "c"]))
    for moves in itertools.count():
        state = admin.GetState(game_pb2.GetStateRequest(game_id=created.game_id, spectator=True))
        seat = state.pending[0].seat
        if moves >= 3 and seat != 0:
            break
        legal = admin.LegalActions(
            game_pb2.LegalActionsRequest(game_id=created.game_id, seat=seat))
        admin.Act(game_pb2.ActRequest(
            game_id=created.game_id, seat=seat, command=legal.actions[0].command))
    return created


def token_of(created: game_pb2.CreateGameResponse, seat: int) -> str:
    return str(created.seat_tokens[seat].token)


# ------------------------------------------------------------------ seat


def test_an_absent_seat_is_the_seat_the_token_names(
    shared_server: ServerProcess, ethnos: game_pb2.CreateGameResponse
) -> None:
    gid = ethnos.game_id
    admin = shared_server.stub()
    turn = admin.GetState(game_pb2.GetStateRequest(game_id=gid, spectator=True)).pending[0].seat
    assert turn != 0  # else the old meaning (seat 0) would pass this test too
    player = shared_server.stub(token_of(ethnos, turn))

    implicit = player.GetState(game_pb2.GetStateRequest(game_id=gid))
    explicit = player.GetState(game_pb2.GetStateRequest(game_id=gid, seat=turn))
    assert implicit.view_json == explicit.view_json
    legal = player.LegalActions(game_pb2.LegalActionsRequest(game_id=gid))
    assert legal.actions and {d.seat for d in legal.decisions} == {turn}
    history = [e.payload_json for e in player.History(game_pb2.HistoryRequest(game_id=gid))]
    assert history == [e.payload_json for e in player.History(
        game_pb2.HistoryRequest(game_id=gid, seat=turn))]
    feed = player.Subscribe(game_pb2.SubscribeRequest(game_id=gid))
    first_event = next(m for m in feed if m.WhichOneof("item") == "event")
    feed.cancel()
    assert first_event.event.payload_json == history[0]
    past = player.GetState(game_pb2.GetStateRequest(game_id=gid, version=2))
    assert past.version == 2

    request = game_pb2.ActRequest(game_id=gid, command=legal.actions[0].command,
                                  expected_version=legal.version)
    assert not request.HasField("seat")
    assert player.Act(request).version > legal.version


def test_contribute_takes_the_seat_from_the_token_too(shared_server: ServerProcess) -> None:
    created = shared_server.stub("").CreateGame(
        game_pb2.CreateGameRequest(rules="ethnos", seats=["a", "b", "c"]))
    seat2 = shared_server.stub(token_of(created, 2))
    mine = b"seat two's own bytes"
    first = seat2.Contribute(game_pb2.ContributeRequest(game_id=created.game_id, entropy=mine))
    assert first.recorded
    again = seat2.Contribute(game_pb2.ContributeRequest(
        game_id=created.game_id, seat=2, entropy=mine))
    assert not again.recorded  # the same seat's retry: it was seat 2's contribution


def test_an_explicit_seat_still_names_that_seat(
    shared_server: ServerProcess, ethnos: game_pb2.CreateGameResponse
) -> None:
    """Seat 0 sent explicitly is seat 0, whatever the token: `optional` makes it visible."""
    seat1 = shared_server.stub(token_of(ethnos, 1))
    error = refused(lambda: seat1.GetState(game_pb2.GetStateRequest(
        game_id=ethnos.game_id, seat=0)))
    assert reason_and_version(error)[0] == "WRONG_SEAT"


def test_tokens_that_name_no_seat(
    shared_server: ServerProcess, ethnos: game_pb2.CreateGameResponse
) -> None:
    """The admin token keeps the old meaning of an absent seat (seat 0); a spectator
    token reads as a spectator and still may not act."""
    gid = ethnos.game_id
    admin = shared_server.stub()
    assert admin.GetState(game_pb2.GetStateRequest(game_id=gid)).view_json == admin.GetState(
        game_pb2.GetStateRequest(game_id=gid, seat=0)).view_json
    watcher = shared_server.stub(ethnos.spectator_token)
    public = admin.GetState(game_pb2.GetStateRequest(game_id=gid, spectator=True))
    assert watcher.GetState(game_pb2.GetStateRequest(game_id=gid)).view_json == public.view_json
    events = [e.payload_json for e in watcher.History(game_pb2.HistoryRequest(game_id=gid))]
    assert events == [e.payload_json for e in watcher.History(game_pb2.HistoryRequest(
        game_id=gid, spectator=True))]
    act = game_pb2.ActRequest(game_id=gid, command=game_pb2.Command())
    assert reason_and_version(refused(lambda: watcher.Act(act)))[0] == "SPECTATOR_ONLY"


# -------------------------------------------------------------- versions


def test_every_refusal_about_a_game_carries_its_version(
    shared_server: ServerProcess, ethnos: game_pb2.CreateGameResponse
) -> None:
    gid = ethnos.game_id
    current = str(shared_server.stub().GetState(
        game_pb2.GetStateRequest(game_id=gid, spectator=True)).version)
    assert current not in ("0", "1")
    admin = shared_server.stub()
    turn = admin.GetState(game_pb2.GetStateRequest(game_id=gid, spectator=True)).pending[0].seat
    legal = admin.LegalActions(game_pb2.LegalActionsRequest(game_id=gid, seat=turn))
    nobody, stranger = shared_server.stub(""), shared_server.stub("arb_" + "B" * 43)
    seat1, watcher = shared_server.stub(token_of(ethnos, 1)), shared_server.stub(
        ethnos.spectator_token)
    calls: list[tuple[str, Callable[[], Any]]] = [
        ("NO_TOKEN", lambda: nobody.Act(game_pb2.ActRequest(game_id=gid, seat=1))),
        ("BAD_TOKEN", lambda: stranger.LegalActions(game_pb2.LegalActionsRequest(game_id=gid))),
        ("WRONG_SEAT", lambda: seat1.Act(game_pb2.ActRequest(game_id=gid, seat=2))),
        ("WRONG_SEAT", lambda: list(seat1.History(game_pb2.HistoryRequest(
            game_id=gid, seat=2)))),
        ("WRONG_SEAT", lambda: seat1.GetState(game_pb2.GetStateRequest(
            game_id=gid, seat=2, version=2))),
        ("SPECTATOR_ONLY", lambda: watcher.LegalActions(game_pb2.LegalActionsRequest(
            game_id=gid))),
        ("BAD_TOKEN", lambda: next(iter(stranger.Subscribe(game_pb2.SubscribeRequest(
            game_id=gid, spectator=True))))),
        ("NO_TOKEN", lambda: nobody.Audit(game_pb2.AuditRequest(game_id=gid))),
        ("BAD_COMMAND", lambda: seat1.Act(game_pb2.ActRequest(
            game_id=gid, command=game_pb2.Command()))),
        ("VERSION_MISMATCH", lambda: admin.Act(game_pb2.ActRequest(
            game_id=gid, seat=turn, command=legal.actions[0].command, expected_version=1))),
        ("WRONG_GAME", lambda: shared_server.stub().Act(game_pb2.ActRequest(
            game_id=gid, seat=0, command=json_to_command(
                "enin", {"name": "roll_start", "args": {}})))),
    ]
    for expected, call in calls:
        assert reason_and_version(refused(call)) == (expected, current), expected


# ------------------------------------------------------------ pagination


def _games(stub: Any, **fields: Any) -> game_pb2.ListGamesResponse:
    return stub.ListGames(game_pb2.ListGamesRequest(**fields))


def test_list_games_pages_by_page_size_and_page_token(shared_server: ServerProcess) -> None:
    stub = shared_server.stub("")
    for _ in range(5):
        stub.CreateGame(game_pb2.CreateGameRequest(rules="ettin", seats=["a", "b"]))
    everything = [g.game_id for g in _games(stub, rules="ettin", page_size=500).games]
    assert len(everything) >= 5

    seen: list[str] = []
    token, pages = "", 0
    while pages == 0 or token:
        page = _games(stub, rules="ettin", page_size=2, page_token=token)
        assert len(page.games) <= 2
        seen += [g.game_id for g in page.games]
        token, pages = page.next_page_token, pages + 1
    assert seen == everything and pages >= 3

    # The older fields go on working: limit and the after/next_after cursor.
    old, after = [], 0
    while True:
        page = _games(stub, rules="ettin", limit=2, after=after)
        if not page.games:
            break
        old += [g.game_id for g in page.games]
        after = page.next_after
    assert old == everything
    assert len(_games(stub, page_size=10_000).games) <= 500


def _walk(stub: Any, **fields: Any) -> list[game_pb2.GameSummary]:
    """Every page of a listing, in order."""
    games: list[game_pb2.GameSummary] = []
    token = ""
    while True:
        page = _games(stub, page_token=token, **fields)
        games += page.games
        token = page.next_page_token
        if not token:
            return games


def test_list_games_newest_first_and_running_or_over(shared_server: ServerProcess) -> None:
    """Issue 23 item 5: a lobby lists the newest games first, and the running or
    the finished ones alone, each page after the last without a gap or a repeat."""
    stub = shared_server.stub("")
    admin = shared_server.stub()
    made: list[str] = []
    for n in range(4):
        made.append(admin.CreateGame(game_pb2.CreateGameRequest(rules="enin",
                                                                seats=["solo"])).game_id)
        if n == 1:  # played at once: no game's events on both sides of another's
            assert play(admin, made[1], 3000, random.Random(3)).over
    for rules in ("", "enin"):
        oldest = [g.game_id for g in _walk(stub, rules=rules, page_size=500)]
        newest = _walk(stub, rules=rules, page_size=3, newest_first=True)
        assert [g.game_id for g in newest] == oldest[::-1]
        assert [g.game_id for g in newest][:4] == made[::-1]
        over = _walk(stub, rules=rules, page_size=2, newest_first=True, over=True)
        running = _walk(stub, rules=rules, page_size=2, newest_first=True, over=False)
        assert all(g.over for g in over) and not any(g.over for g in running)
        assert made[1] in [g.game_id for g in over]
        assert sorted(g.game_id for g in over + running) == sorted(oldest)
    # A browser's own games, by id: the unknown ones left out, the filters kept.
    unknown = "00000000-0000-4000-8000-000000000000"
    named = _games(stub, game_ids=[made[0], unknown, made[1], made[0]], newest_first=True)
    assert [g.game_id for g in named.games] == [made[1], made[0]]
    assert not named.next_page_token and named.games[1].rules == "enin"
    assert [g.game_id for g in _games(stub, game_ids=made, over=True).games] == [made[1]]
    assert reason_and_version(refused(lambda: _games(stub, game_ids=["nope"])))[0] == \
        "BAD_GAME_ID"
    token = _games(stub, page_size=1, newest_first=True, over=False).next_page_token
    for other in ({"newest_first": True}, {"over": False}, {"over": True, "newest_first": True}):
        error = refused(lambda o=other: _games(stub, page_token=token, **o))  # type: ignore[misc]
        assert reason_and_version(error) == ("BAD_PAGE_TOKEN", "0")


@pytest.mark.parametrize(
    ("fields", "reason"),
    [
        ({"page_size": -1}, "BAD_PAGE_SIZE"),
        ({"page_token": "not a token"}, "BAD_PAGE_TOKEN"),
        ({"page_token": "e30"}, "BAD_PAGE_TOKEN"),  # "{}"
        ({"rules": "enin", "page_token": "PAGE_OF_ETTIN"}, "BAD_PAGE_TOKEN"),
    ],
)
def test_bad_page_requests_are_refused(
    shared_server: ServerProcess, fields: dict[str, Any], reason: str
) -> None:
    stub = shared_server.stub("")
    if fields.get("page_token") == "PAGE_OF_ETTIN":
        for _ in range(2):
            stub.CreateGame(game_pb2.CreateGameRequest(rules="ettin", seats=["a", "b"]))
        fields["page_token"] = _games(stub, rules="ettin", page_size=1).next_page_token
        assert fields["page_token"]
    error = refused(lambda: _games(stub, **fields))
    assert error.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert reason_and_version(error) == (reason, "0")


def test_changed_games_page_too_and_stay_admin_only(shared_server: ServerProcess) -> None:
    admin = shared_server.stub()
    for _ in range(3):
        admin.CreateGame(game_pb2.CreateGameRequest(rules="enin", seats=["solo"]))
    everything = _games(admin, changed_after=0, page_size=500)
    assert not everything.next_page_token  # caught up
    seen: list[str] = []
    page = _games(admin, changed_after=0, page_size=2)
    while True:
        seen += [g.game_id for g in page.games]
        if not page.next_page_token:
            break
        token = page.next_page_token
        error = refused(lambda t=token: _games(shared_server.stub(""), page_token=t))
        assert reason_and_version(error)[0] == "NO_TOKEN"
        page = _games(admin, page_size=2, page_token=token)
    assert seen == [g.game_id for g in everything.games]
    assert page.next_after == everything.next_after


# ---------------------------------------------------------------- enums


def test_enum_values_carry_their_prefix_and_keep_their_numbers() -> None:
    assert enin_pb2.ENIN_MARKET_ITEM_MAP_OF_ENIN == 4
    assert enin_pb2.ENIN_MAGIC_ITEM_SHIELD_OF_NINES == 4
    assert ethnos_pb2.ETHNOS_KINGDOM_PELAGON == 6
    rules_form = {"name": "buy", "args": {"item": "map_of_enin"}}
    command = json_to_command("enin", rules_form)
    assert command.enin.buy.item == enin_pb2.ENIN_MARKET_ITEM_MAP_OF_ENIN
    assert command_to_json(command) == ("enin", rules_form)  # the rules' JSON is unchanged
    prefixed = {"name": "buy", "args": {"item": "ENIN_MARKET_ITEM_MAP_OF_ENIN"}}
    assert json_to_command("enin", prefixed) == command


# -------------------------------------------------------------- buf.gen.yaml


def _descriptor(module: Path) -> descriptor_pb2.FileDescriptorProto:
    """The file descriptor a generated ``_pb2.py`` registers, without the
    ``json_name`` buf spells out (protoc leaves it implied: the same names)."""
    tree = ast.parse(module.read_text())
    (serialized,) = [
        ast.literal_eval(node.args[0]) for node in ast.walk(tree)
        if isinstance(node, ast.Call) and getattr(node.func, "attr", "") == "AddSerializedFile"
    ]
    proto = descriptor_pb2.FileDescriptorProto.FromString(serialized)
    messages = list(proto.message_type)
    while messages:
        message = messages.pop()
        for field in message.field:
            field.ClearField("json_name")
        messages.extend(message.nested_type)
    return proto


def test_buf_generate_makes_what_make_proto_makes(tmp_path: Path) -> None:
    buf = ROOT / ".tools" / "node_modules" / ".bin" / "buf"
    if not buf.exists():
        pytest.skip("buf is not installed: `make tools` installs it into .tools")
    subprocess.run([str(buf), "generate", "-o", str(tmp_path)], cwd=ROOT, check=True,
                   timeout=120)
    ours = sorted((ROOT / "protos/python/arbiter/v1").glob("*_pb2*.py*"))
    assert len(ours) == 3 * len(list((ROOT / "protos/arbiter/v1").glob("*.proto")))
    for made in ours:
        generated = tmp_path / "protos/python/arbiter/v1" / made.name
        if made.name.endswith("_pb2.py"):
            assert _descriptor(generated) == _descriptor(made), made.name
        else:
            assert generated.read_text() == made.read_text(), made.name
