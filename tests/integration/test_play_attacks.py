"""``Play`` attacked as a stranger would: what a caller sends that it should
not, over a real server process (one for the module, with the template game
served too).

What the stream promises and these tests pin, each attack against it:
hidden information stays per seat (a stream of several seats carries each
seat's form of an event to that seat only, the same form ``History`` gives
it, and each turn is that seat's ``GetState`` at that version); every bad
join or move gets a clear refusal with a reason code and applies nothing;
exactly-once commands (a retried id never applies a second command); a
caller's streams and the server's memory stay bounded however it sends or
fails to read; events resume by version with nothing missed or repeated.
"""

from __future__ import annotations

import random
import threading
import time
from collections.abc import Iterator
from typing import Any

import grpc
import pytest
from arbiter.play import random_move
from arbiter.v1 import game_pb2, game_pb2_grpc

from tests.integration.conftest import ServerProcess
from tests.integration.test_play_stream import RawPlay, created

pytestmark = [pytest.mark.integration]

EXTRA = {"ARBITER_EXTRA_GAMES": "tests.template_game:Template",
         "ARBITER_MAX_STREAMS_PER_PEER": "8"}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory, redis_url: str) -> Iterator[ServerProcess]:
    started = ServerProcess(tmp_path_factory.mktemp("play-attacks") / "data", redis_url, EXTRA)
    started.start()
    try:
        yield started
    finally:
        started.stop_soon()


def refusal(server: ServerProcess, token: str, *requests: game_pb2.PlayRequest,
            ) -> tuple[grpc.StatusCode, str]:
    """The status and reason a stream sending ``requests`` (then nothing more) ends with."""
    stub = game_pb2_grpc.GameServiceStub(server.channel())
    metadata = (("authorization", f"Bearer {token}"),) if token else ()
    call = stub.Play(iter(requests), metadata=metadata, timeout=20)
    with pytest.raises(grpc.RpcError) as ended:
        for _ in call:
            pass
    reason = dict(ended.value.trailing_metadata() or ()).get("arbiter-reason", "")
    return ended.value.code(), str(reason)


def join(game_id: str, **fields: Any) -> game_pb2.PlayRequest:
    return game_pb2.PlayRequest(join=game_pb2.PlayJoin(game_id=game_id, **fields))


def test_a_join_the_caller_may_not_make_is_refused_with_its_reason(server: ServerProcess) -> None:
    """One authentication per stream: a seat is played only by its own token,
    a ``seat_tokens`` entry of this game, or the admin; every other join is
    refused with a status and a reason code, before anything is pushed."""
    game = created(server, "ethnos", ["a", "b"])
    other = created(server, "ethnos", ["a", "b"])
    mine = {t.seat: t.token for t in game.seat_tokens}
    theirs = {t.seat: t.token for t in other.seat_tokens}
    gid = game.game_id
    P, U, A, R = (grpc.StatusCode.PERMISSION_DENIED, grpc.StatusCode.UNAUTHENTICATED,
                  grpc.StatusCode.INVALID_ARGUMENT, grpc.StatusCode.OUT_OF_RANGE)
    cases: list[tuple[str, str, list[game_pb2.PlayRequest], tuple[grpc.StatusCode, str]]] = [
        ("no token", "", [join(gid, seats=[0])], (U, "NO_TOKEN")),
        ("no token, no seat", "", [join(gid)], (U, "NO_TOKEN")),
        ("spectator token, a seat", game.spectator_token, [join(gid, seats=[0])],
         (P, "SPECTATOR_ONLY")),
        ("spectator token, no seat", game.spectator_token, [join(gid)], (A, "BAD_SEATS")),
        ("another game's seat token", theirs[0], [join(gid)], (U, "BAD_TOKEN")),
        ("another game's token for seat 0", theirs[0], [join(gid, seats=[0])],
         (U, "BAD_TOKEN")),
        ("a seat the token does not hold", mine[0], [join(gid, seats=[0, 1])], (P, "WRONG_SEAT")),
        ("seat_tokens of another game", mine[0],
         [join(gid, seats=[0, 1], seat_tokens=[theirs[1]])], (P, "BAD_TOKEN")),
        ("seat_tokens holding a spectator token", mine[0],
         [join(gid, seats=[0, 1], seat_tokens=[game.spectator_token])], (P, "BAD_TOKEN")),
        ("seat_tokens holding the admin token", mine[0],
         [join(gid, seats=[0, 1], seat_tokens=[server.admin_token])], (P, "BAD_TOKEN")),
        ("admin token, no seat", server.admin_token, [join(gid)], (A, "BAD_SEATS")),
        ("admin token, a seat not in the game", server.admin_token, [join(gid, seats=[7])],
         (A, "UNKNOWN_SEAT")),
        ("seventeen seats", mine[0], [join(gid, seats=list(range(17)))], (A, "BAD_SEATS")),
        ("a move before the join", mine[0],
         [game_pb2.PlayRequest(move=game_pb2.PlayMove(command_id="x"))], (A, "BAD_ARGUMENT")),
        ("an empty first message", mine[0], [game_pb2.PlayRequest()], (A, "BAD_ARGUMENT")),
        ("after_version beyond the game", mine[0], [join(gid, after_version=10**6)],
         (R, "BAD_VERSION")),
        ("after_version 2^64-1", mine[0], [join(gid, after_version=2**64 - 1)],
         (A, "BAD_ARGUMENT")),
        ("a game id that is none", mine[0], [join("not-a-game")], (A, "BAD_GAME_ID")),
        ("a second join", mine[0], [join(gid), join(gid)], (A, "BAD_ARGUMENT")),
    ]
    got = {name: refusal(server, token, *requests) for name, token, requests, _ in cases}
    assert got == {name: want for name, _, _, want in cases}


def both_seats(server: ServerProcess, rules: str, names: list[str]) -> tuple[
        game_pb2.CreateGameResponse, dict[int, str], RawPlay]:
    """A game and one stream playing all its seats (a bot holding them all)."""
    game = created(server, rules, names)
    tokens = {t.seat: t.token for t in game.seat_tokens}
    stream = RawPlay(server, tokens[0], game_pb2.PlayJoin(
        game_id=game.game_id, seats=sorted(tokens),
        seat_tokens=[tokens[s] for s in sorted(tokens) if s]))
    return game, tokens, stream


def test_a_bad_move_is_refused_with_its_reason_and_applies_nothing(
        server: ServerProcess) -> None:
    """A move that is not one (no command, another game's command, a seat not
    joined, no seat on a stream of several, another seat's decision) is
    refused with ``Act``'s reason and the stream plays on; a command id sent
    again with a different command is not applied (the original's result,
    ``replayed``, comes back): exactly once (Ethnos rulebook, "Turn": one
    action a turn)."""
    game, tokens, stream = both_seats(server, "ethnos", ["a", "b"])
    enin = created(server, "enin", ["solo"])
    foreign = server.stub(enin.seat_tokens[0].token).LegalActions(
        game_pb2.LegalActionsRequest(game_id=enin.game_id)).actions[0].command
    try:
        _, turn = stream.until("turn")
        while not turn.value.actions:
            _, turn = stream.until("turn")
        seat, version = turn.value.seat, turn.value.state.version
        decision = next(d.id for d in turn.value.state.pending if d.seat == seat)
        legal = [a.command for a in turn.value.actions]
        bad = [
            (game_pb2.PlayMove(seat=seat, command_id="b1"), "BAD_COMMAND"),
            (game_pb2.PlayMove(seat=seat, command=foreign, command_id="b2"), "WRONG_GAME"),
            (game_pb2.PlayMove(seat=5, command=legal[0], command_id="b3"), "WRONG_SEAT"),
            (game_pb2.PlayMove(command=legal[0], command_id="b4"), "BAD_SEATS"),
            (game_pb2.PlayMove(seat=1 - seat, command=legal[0], decision_id=decision,
                               command_id="b5"), "NOT_YOUR_TURN"),
        ]
        reasons = []
        for move, _ in bad:
            stream.send(move)
            reasons.append(stream.until("result")[1].value)
        assert [(r.reason, r.accepted, r.version) for r in reasons] == [
            (want, False, version) for _, want in bad]
        assert all(r.code and r.message for r in reasons)
        stream.send(game_pb2.PlayMove(seat=seat, command=legal[0], decision_id=decision,
                                      command_id="c1"))
        accepted = stream.until("result")[1].value
        assert accepted.accepted and not accepted.replayed
        other = legal[-1] if len(legal) > 1 else foreign
        stream.send(game_pb2.PlayMove(seat=seat, command=other, command_id="c1"))
        again = stream.until("result")[1].value
        assert (again.accepted, again.replayed, again.version) == (True, True, accepted.version)
    finally:
        stream.close()
    state = server.stub(tokens[0]).GetState(game_pb2.GetStateRequest(game_id=game.game_id))
    assert state.version == accepted.version, "nothing but the one move was recorded"


def test_a_second_join_ends_the_stream_after_the_results_of_the_moves_before_it(
        server: ServerProcess) -> None:
    """A second join is refused (``BAD_ARGUMENT``), and a move sent before it
    is not half-answered: it is applied and its result reaches the client
    before the stream ends (nothing applied goes unreported)."""
    game = created(server, "enin", ["solo"])
    token = game.seat_tokens[0].token
    stream = RawPlay(server, token, game_pb2.PlayJoin(game_id=game.game_id))
    try:
        _, turn = stream.until("turn")
        stream.send(game_pb2.PlayMove(command=turn.value.actions[0].command, command_id="j1"))
        stream.requests.put(join(game.game_id))
        results = []
        with pytest.raises(grpc.RpcError) as ended:
            for item in stream.items:
                if item.kind == "result":
                    results.append(item.value)
        assert dict(ended.value.trailing_metadata())["arbiter-reason"] == "BAD_ARGUMENT"
    finally:
        stream.close()
    reply = server.stub(token).Act(game_pb2.ActRequest(
        game_id=game.game_id, command=turn.value.actions[0].command, command_id="j1"))
    assert reply.replayed, "the move before the second join was applied"
    assert [(r.command_id, r.accepted) for r in results] == [("j1", True)]


def test_a_half_closed_stream_answers_its_moves_and_keeps_pushing(
        server: ServerProcess) -> None:
    """Half-closing the request side (the client has sent all its moves) ends
    nothing: the moves sent are answered and the turns still come."""
    game = created(server, "enin", ["solo"])
    stream = RawPlay(server, game.seat_tokens[0].token, game_pb2.PlayJoin(game_id=game.game_id))
    try:
        _, turn = stream.until("turn")
        stream.send(game_pb2.PlayMove(command=turn.value.actions[0].command, command_id="h1"))
        stream.requests.put(None)
        _, result = stream.until("result")
        assert result.value.accepted
        _, after = stream.until("turn")
        assert after.value.state.version == result.value.version
    finally:
        stream.close()


def rss_kib(server: ServerProcess) -> int:
    """The server process's resident memory now (its /proc status)."""
    assert server.process is not None
    with open(f"/proc/{server.process.pid}/status") as status:
        line = next(line for line in status if line.startswith("VmRSS:"))
    return int(line.split()[1])


def test_moves_sent_without_reading_the_replies_are_held_back_not_buffered(
        server: ServerProcess) -> None:
    """A client that sends moves as fast as it can and reads nothing is held
    back, not buffered: the server answers moves only while the client's
    window takes their results, then reads no more, and the moves it has not
    read wait at the client (HTTP/2 flow control: the server never widens a
    stream's receive window past a request's most, 64 KiB), not in the
    server's memory. A window widened to megabytes per stream (gRPC's BDP
    probing: ~6.5 MB measured for one unread stream), times a caller's
    streams, was hundreds of megabytes for one address; then all 30,000
    moves here were taken in."""
    game = created(server, "enin", ["solo"])
    token = game.seat_tokens[0].token
    command = server.stub(token).LegalActions(
        game_pb2.LegalActionsRequest(game_id=game.game_id)).actions[0].command
    sent = [0]
    total = 30_000  # 2.8 MB of moves

    def requests() -> Iterator[game_pb2.PlayRequest]:
        yield join(game.game_id)
        for n in range(total):
            sent[0] += 1
            # Not the stream's seat: refused, and the seat's turn pushed again.
            yield game_pb2.PlayRequest(move=game_pb2.PlayMove(
                seat=5, command=command, command_id=f"flood-{n:06}-" + "x" * 50))

    before = rss_kib(server)
    stub = game_pb2_grpc.GameServiceStub(server.channel())
    call = stub.Play(requests(), metadata=(("authorization", f"Bearer {token}"),), timeout=60)
    try:
        seen, deadline = -1, time.monotonic() + 15
        while sent[0] != seen and sent[0] < total and time.monotonic() < deadline:
            seen = sent[0]
            time.sleep(0.3)  # until the client's sends stop advancing: held back
        held_at = sent[0]
        grown = rss_kib(server) - before
    finally:
        call.cancel()
    assert held_at < total, "every move was taken in although no reply was read"
    assert grown < 4 * 1024, f"the server grew {grown} KiB for one unread stream"
    state = server.stub(token).GetState(game_pb2.GetStateRequest(game_id=game.game_id))
    assert state.version == game.state.version, "refused moves record nothing"


def test_a_caller_holds_at_most_its_share_of_play_streams(server: ServerProcess) -> None:
    """A caller's streams are capped (``TOO_MANY_STREAMS``), joined or not,
    with a token or without: a stream that never sends its join holds a slot
    like any other, and a closed one gives its slot back."""
    game = created(server, "enin", ["solo"])
    token = game.seat_tokens[0].token
    stub = game_pb2_grpc.GameServiceStub(server.channel())
    metadata = (("authorization", f"Bearer {token}"),)
    idle: list[threading.Event] = []
    calls = []

    def silent(done: threading.Event) -> Iterator[game_pb2.PlayRequest]:
        done.wait(30)
        return
        yield  # a generator that sends nothing until told

    def opened(token_too: bool) -> Any:
        done = threading.Event()
        idle.append(done)
        call = stub.Play(silent(done), metadata=metadata if token_too else (), timeout=30)
        calls.append(call)
        return call

    def joined() -> RawPlay:
        """A joined stream, once admitted (its turn came): a stream an
        earlier test closed gives its slot back a moment after the close."""
        deadline = time.monotonic() + 10
        while True:
            stream = RawPlay(server, token, game_pb2.PlayJoin(game_id=game.game_id))
            calls.append(stream.call)
            try:
                stream.until("turn")
                return stream
            except grpc.RpcError as exc:
                assert exc.code() == grpc.StatusCode.RESOURCE_EXHAUSTED
                assert time.monotonic() < deadline, "a closed stream's slot came back"
                time.sleep(0.05)

    try:
        cap = int(EXTRA["ARBITER_MAX_STREAMS_PER_PEER"])
        held = [joined() for _ in range(cap - 2)]
        # Two that never send their join, one with the token and one without:
        # the server's answer to a call comes when it ends, so their slots
        # are seen on the stream beyond them.
        silent_ones = [opened(True), opened(False)]
        beyond = opened(True)
        with pytest.raises(grpc.RpcError) as refused:
            next(iter(beyond))
        assert refused.value.code() == grpc.StatusCode.RESOURCE_EXHAUSTED
        assert dict(refused.value.trailing_metadata())["arbiter-reason"] == "TOO_MANY_STREAMS"
        assert not any(call.done() for call in silent_ones)
        silent_ones[0].cancel()
        joined()  # the cancelled stream's slot, given back
        assert not any(stream.call.done() for stream in held)
    finally:
        for done in idle:
            done.set()
        for call in calls:
            call.cancel()


#: Each hidden-information game, its seats, and the moves played of it: far
#: enough into each that seats have held private cards (hands, drafts, bids).
HIDDEN = [("ethnos", 3, 40), ("titans", 3, 40), ("nine_empires", 3, 40), ("template", 2, 30)]


@pytest.mark.parametrize(("rules", "players", "moves"), HIDDEN)
def test_a_stream_of_several_seats_gives_each_seat_only_its_own_forms(
        server: ServerProcess, rules: str, players: int, moves: int) -> None:
    """Hidden information per seat (each rulebook's hand, draft or bid is its
    owner's alone): on one stream playing every seat, the events marked for
    a seat are exactly ``History``'s for that seat's token (so never another
    seat's private form), and each turn is that seat's ``GetState`` at that
    version (view and pending decisions)."""
    game, tokens, stream = both_seats(server, rules, [f"p{n}" for n in range(players)])
    rng = random.Random(f"{rules}-{players}")
    forms: dict[int, list[game_pb2.Event]] = {seat: [] for seat in tokens}
    turns: list[game_pb2.PlayTurn] = []
    played, refusals = 0, 0
    try:
        for message in stream.messages:
            for pushed in message.events:
                for seat in pushed.for_seats:
                    forms[seat].append(pushed.event)
            refusals += sum(not r.accepted for r in message.results)
            played += sum(r.accepted for r in message.results)
            assert refusals < 20
            if message.status == "ended: the game is over" or played >= moves:
                break
            for turn in message.turns:
                turns.append(turn)
                move = random_move(turn, rng)
                if move is not None:
                    stream.send(game_pb2.PlayMove(
                        seat=turn.seat, command=move.command, decision_id=move.decision_id))
    finally:
        stream.close()
    over = server.stub(tokens[0]).GetState(game_pb2.GetStateRequest(game_id=game.game_id)).over
    assert not over, "the check reads the running game's forms"
    hidden = 0
    for seat, token in tokens.items():
        history = list(server.stub(token).History(
            game_pb2.HistoryRequest(game_id=game.game_id, seat=seat)))
        mine = forms[seat]
        assert [e.version for e in mine] == list(range(1, len(mine) + 1)), "gap-free"
        assert mine == history[:len(mine)], f"seat {seat}'s forms are History's for it"
        hidden += sum(e.redacted for e in mine)
    assert hidden, "some event was private to a seat: the check has something to check"
    for turn in turns:
        state = server.stub(tokens[turn.seat]).GetState(game_pb2.GetStateRequest(
            game_id=game.game_id, seat=turn.seat, version=turn.state.version))
        assert (turn.state.view_json, list(turn.state.pending)) == (
            state.view_json, list(state.pending)), f"seat {turn.seat}'s turn is its own view"


def test_a_stream_broken_mid_round_resumes_with_exactly_the_missing_events(
        server: ServerProcess) -> None:
    """Gap-free resumable delivery: a seat's stream cut after version v while
    the other seats play on, joined again after v, gets v+1 .. now once each,
    in order, in the seat's forms, then its turn if it is asked."""
    game, tokens, stream = both_seats(server, "ethnos", ["a", "b", "c"])
    stream.close()
    seat = 2
    first = RawPlay(server, tokens[seat], game_pb2.PlayJoin(game_id=game.game_id))
    try:
        seen, _ = first.until("status")  # the first message: the record so far
        cut = max((i.value.event.version for i in seen if i.kind == "event"), default=0)
    finally:
        first.close()
    rng = random.Random(7)
    for _ in range(6):  # the round goes on without seat 2's stream
        state = server.stub(server.admin_token).GetState(
            game_pb2.GetStateRequest(game_id=game.game_id, seat=0))
        acting = state.pending[0].seat
        legal = server.stub(tokens[acting]).LegalActions(
            game_pb2.LegalActionsRequest(game_id=game.game_id))
        server.stub(tokens[acting]).Act(game_pb2.ActRequest(
            game_id=game.game_id, command=rng.choice(list(legal.actions)).command,
            decision_id=legal.decisions[0].id))
    now = server.stub(tokens[seat]).GetState(game_pb2.GetStateRequest(game_id=game.game_id))
    again = RawPlay(server, tokens[seat], game_pb2.PlayJoin(
        game_id=game.game_id, after_version=cut))
    try:
        items, _ = again.until("status")
    finally:
        again.close()
    resumed = [i.value.event for i in items if i.kind == "event"]
    history = list(server.stub(tokens[seat]).History(
        game_pb2.HistoryRequest(game_id=game.game_id, seat=seat, after_version=cut)))
    assert [e.version for e in resumed] == list(range(cut + 1, now.version + 1))
    assert resumed == history[:len(resumed)]
    turns = [i.value for i in items if i.kind == "turn"]
    asked = any(d.seat == seat for d in now.pending)
    assert [t.state.version for t in turns] == ([now.version] if asked else [])


def test_a_stream_cancelled_before_its_join_is_no_server_error(server: ServerProcess) -> None:
    """A client that opens a stream and goes away before joining has done
    nothing wrong on the server's side: the call ends ``CANCELLED`` in the
    access log, not ``INTERNAL`` with a traceback (which would count as the
    server's failure in its metrics and logs)."""
    game = created(server, "enin", ["solo"])
    done = threading.Event()

    def silent() -> Iterator[game_pb2.PlayRequest]:
        done.wait(30)
        return
        yield  # sends nothing

    def play_lines() -> list[str]:
        with open(server.log_path, encoding="utf-8", errors="replace") as log:
            return [line for line in log if '"method":"Play"' in line]

    before = len(play_lines())
    stub = game_pb2_grpc.GameServiceStub(server.channel())
    call = stub.Play(silent(), metadata=(
        ("authorization", f"Bearer {game.seat_tokens[0].token}"),), timeout=30)
    try:
        time.sleep(0.3)  # the call reaches the server's handler, waiting for the join
        call.cancel()
    finally:
        done.set()
    deadline = time.monotonic() + 10
    while len(lines := play_lines()) == before and time.monotonic() < deadline:
        time.sleep(0.05)  # the access log's line for the call
    ended = lines[before:]
    assert ended and not any('"code":"INTERNAL"' in line for line in ended), ended
