"""The move path's shared work: an event encoded once per form, each seat's
turn read once per version and only for the seats the game waits on, a
``Play`` push put together from those parts' bytes, and a commit of this
process waking its followers without a second wake-up from Redis. Hidden
information per seat is what the forms must keep: the Ethnos rulebook's
"Drawing cards" (a drawn card is its drawer's alone)."""

from __future__ import annotations

import random
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from service import limits
from service.application import ArbiterApp
from service.config import Settings
from service.envelope import SPECTATOR, EventForms, Reader, to_proto
from service.feeds import FeedHub
from service.play import Push, play_wire


@pytest.fixture
def app(tmp_path: Path) -> Iterator[ArbiterApp]:
    application = ArbiterApp(Settings(data_dir=tmp_path).store_env())
    yield application
    application.close()


def played(app: ArbiterApp, moves: int) -> tuple[str, list[Any]]:
    """A 3-seat Ethnos game after ``moves`` random moves, and its events."""
    game_id = str(app.create_game("ethnos", ["a", "b", "c"]).id)
    rng = random.Random(4)
    for _ in range(moves):
        game = app.game(game_id)
        seat = game.pending_decisions()[0].seat
        app.act(game_id, seat, rng.choice(game.legal_actions(seat)).to_json())
    return game_id, app.game_events(game_id)


def test_a_private_event_has_its_audience_form_and_the_public_form(app: ArbiterApp) -> None:
    """Ethnos, "Drawing cards": the drawer reads the card, the others (and
    spectators) its public form; each form is made once and handed to every
    reader of it, and is exactly what ``to_proto`` makes for that reader."""
    game_id, events = played(app, 12)
    cls, seats = type(app.game(game_id)), app.game(game_id).seats
    private = next(ev for ev in events if not to_proto(cls, ev, SPECTATOR).audience.everyone
                   and to_proto(cls, ev, SPECTATOR).audience.seats)
    audience = set(to_proto(cls, private, SPECTATOR).audience.seats)
    inside = next(iter(audience))
    outside = next(seat for seat in range(3) if seat not in audience)
    forms = EventForms()
    own = forms.of(cls, private, Reader(inside), 7, seats)
    public = forms.of(cls, private, Reader(outside), 7, seats)
    assert not own.redacted and public.redacted
    assert own.payload_json != public.payload_json
    assert forms.of(cls, private, SPECTATOR, 7, seats) is public, "one public form for all"
    assert forms.of(cls, private, Reader(inside), 7, seats) is own
    assert own == to_proto(cls, private, Reader(inside), 7, seats)
    assert public == to_proto(cls, private, Reader(outside), 7, seats)
    admin = forms.of(cls, private, Reader(outside, full=True), 7, seats)
    assert admin is not own and admin.meta_json, "the full record is a form of its own"


def test_turns_are_read_for_the_waiting_seats_at_the_version_the_events_said(
    app: ArbiterApp,
) -> None:
    """A seat's turn at a version: only seats the game waits on get one, the
    same reading for every reader of that version; a reader that names an
    older version than the game's gets nothing (it has events to read first)."""
    game_id, _ = played(app, 5)
    game = app.game(game_id)
    waiting = set(game.waiting_on())
    version, readings = app.seats_at(game_id, [0, 1, 2], game.version)
    assert version == game.version
    assert {r.seat for r in readings} == waiting
    assert all(r.legal is not None and r.legal.actions for r in readings)
    _, again = app.seats_at(game_id, [0, 1, 2], game.version)
    assert [r.state for r in again] == [r.state for r in readings]
    assert all(a.state is r.state for a, r in zip(again, readings, strict=True))
    assert app.seats_at(game_id, [0, 1, 2], game.version - 1) == (game.version, [])


def test_a_push_is_the_message_its_parts_make(app: ArbiterApp) -> None:
    """A ``Play`` push's bytes, put together from each event form's and each
    turn's bytes (serialized once, shared), read back as the ``PlayMessage``
    built field by field: results, every form of each event with the seats it
    is for (a drawn card its drawer's alone), the turns, the status."""
    from arbiter.v1 import game_pb2

    game_id, events = played(app, 6)
    cls = type(app.game(game_id))
    forms = EventForms()
    game = app.game(game_id)
    _, readings = app.seats_at(game_id, [0, 1, 2], game.version)
    turns = [game_pb2.PlayTurn(seat=r.seat, complete=True,
                               state=game_pb2.GameState(game_id=game_id, version=game.version,
                                                        view_json=r.state.view_json))
             for r in readings]
    result = game_pb2.PlayResult(command_id="c-1", accepted=True, version=game.version)
    push, expected = Push(), game_pb2.PlayMessage()
    push.result(result)
    expected.results.append(result)
    for n, ev in enumerate(events[-3:]):
        for seat in (0, 1, 2):
            form, wire = forms.encoded(cls, ev, Reader(seat), n)
            assert wire == form.SerializeToString() and forms.encoded(
                cls, ev, Reader(seat), n)[1] is wire, "serialized once per form"
            push.event(wire, [seat, 2] if seat < 2 else [300])
            expected.events.append(game_pb2.PlayEvent(
                event=form, for_seats=[seat, 2] if seat < 2 else [300]))
    for turn in turns:
        push.turn(turn.SerializeToString())
        expected.turns.append(turn)
    assert push and push.events == 9 and push.turns == len(turns)
    assert game_pb2.PlayMessage.FromString(play_wire(push)) == expected
    push.say("live", game_pb2.FEED_STATE_LIVE)
    expected.status, expected.state = "live", game_pb2.FEED_STATE_LIVE
    assert push.message() == expected
    assert play_wire(expected) == expected.SerializeToString()
    assert not Push() and Push().wire() == b""


def test_a_local_commit_wakes_once_and_its_redis_message_wakes_nobody() -> None:
    """``FeedHub.committed`` wakes the game's followers here at once; the
    relay's message for that version, when it comes back, counts no second
    wake-up, while a message of a newer version (another server's) does."""
    hub = FeedHub("redis://127.0.0.1:1/0")
    game_id = "0b7c8a52-1d4e-4e33-9a1a-2b1c0d9e8f70"
    before = hub.ticket(game_id)
    hub.committed(game_id, 5)
    woken = hub.ticket(game_id)
    assert woken > before and hub.newest_published(game_id) == 5
    message = b'[{"audience":"everyone","game_id":"%s","version":5}]' % game_id.encode()
    hub._on_message(message)
    assert hub.ticket(game_id) == woken
    hub._on_message(message.replace(b'"version":5', b'"version":6'))
    assert hub.ticket(game_id) > woken and hub.newest_published(game_id) == 6


def test_a_streams_moves_are_calls_of_its_callers_share(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every caller's share (DESIGN principle 11): a move on a ``Play`` stream
    is a call like an ``Act``. Its first message (the join) was admitted with
    the stream; each later one takes a call token, and one beyond the share
    waits for the bucket to refill (the stream slowed, not ended); the
    admin's are not charged."""
    from service import limits
    from service.auth import Credentials

    shares = limits.CallerShares(Credentials(b"s" * 32, ""), lambda *_: None,
                                 streams_per_peer=4, calls_per_second=1, creates_per_minute=1)
    waits: list[float] = []

    def refill(seconds: float) -> None:
        waits.append(seconds)
        shares.calls = limits.Buckets(1, 2)  # as if time had passed

    monkeypatch.setattr(limits.time, "sleep", refill)
    shares.calls = limits.Buckets(1, 2)  # a burst of two calls
    assert list(shares._charged(iter(["join", "m1", "m2"]), "ipv4:10.0.0.9")) == [
        "join", "m1", "m2"]
    assert waits == [], "join free, two moves within the burst"
    assert list(shares._charged(iter(["join", "m3", "m4", "m5"]), "ipv4:10.0.0.9")) == [
        "join", "m3", "m4", "m5"]
    assert waits, "beyond the share a move waited for the bucket"
    waits.clear()
    shares.calls = limits.Buckets(1, 0.5)  # empty for everyone
    assert list(shares._charged(iter(["join", "m6"]), "")) == ["join", "m6"]
    assert waits == [], "the admin's moves are not charged"
    shares.idle.stopping.set()


class _Open:
    """A stream's context that stays open (``is_active``)."""

    def is_active(self) -> bool:
        return True


def _busy(seconds: float) -> None:
    """Spend ``seconds`` of this thread's CPU time."""
    until = time.thread_time() + seconds
    while time.thread_time() < until:
        pass


def refill_on_sleep(monkeypatch: pytest.MonkeyPatch, shares: Any) -> list[float]:
    """``shares``' work bucket 20 ms a burst, filled again whenever the limits
    sleep (as if time had passed); the sleeps asked for, as they come."""
    waits: list[float] = []

    def refill(seconds: float) -> None:
        waits.append(seconds)
        shares.work = limits.Buckets(1.0, 0.02)

    monkeypatch.setattr(limits.time, "sleep", refill)
    shares.work = limits.Buckets(1.0, 0.02)
    return waits


def test_a_streams_work_is_charged_to_its_callers_share(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every caller's share (DESIGN principle 11): the CPU a ``Play`` round
    costs the server (its moves applied, its turns made) is charged to the
    caller's share of the server's time, as an ``Act``'s is; a stream whose
    share is in debt waits before its next round (slowed, not ended); the
    free part grows with the moves the round read; the admin's is free."""
    from service import limits
    from service.auth import Credentials

    shares = limits.CallerShares(Credentials(b"s" * 32, ""), lambda *_: None,
                                 streams_per_peer=4, calls_per_second=100, creates_per_minute=1)
    waits = refill_on_sleep(monkeypatch, shares)

    def rounds(taken: list[int], cost: float) -> Iterator[str]:
        for n in range(3):
            taken[0] += 1  # one move read this round
            _busy(cost)
            yield f"round {n}"

    taken = [0]
    key = "ipv4:10.0.0.7"
    cheap = list(shares._worked(rounds(taken, 0.0005), key, taken, _Open()))  # type: ignore[arg-type]
    assert cheap == ["round 0", "round 1", "round 2"] and waits == [], (
        "a round within each move's free part is not charged")
    costly = list(shares._worked(rounds(taken, 0.05), key, taken, _Open()))  # type: ignore[arg-type]
    assert costly == ["round 0", "round 1", "round 2"], "slowed, not ended"
    assert len(waits) >= 2, "after a round beyond the share, the next one waited"
    waits.clear()
    assert list(shares._worked(rounds(taken, 0.05), "", taken, _Open())) == [  # type: ignore[arg-type]
        "round 0", "round 1", "round 2"]
    assert waits == [], "the admin's rounds are not charged"
    shares.idle.stopping.set()
