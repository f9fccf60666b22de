"""A game's feed answers its wake-ups from this process's newest commits (issue 20).

``Subscribe`` used to read the store three times for every event it sent each
follower. Now a follower woken by the relay's message takes the events this
process has just committed (``service.recent``) when they run on from its
version without a gap and no message has named a newer one; otherwise (another
server's write, a follower further behind, a poll with no message) it reads
the store as before. The feed must not change by a byte, and nothing may be
missed: DESIGN, "gap-free per-game feeds".
"""

from __future__ import annotations

import json
import queue
import random
import threading
from typing import Any

import pytest
from arbiter.v1 import game_pb2

from service import feeds, timetravel
from service.application import ArbiterApp
from service.envelope import Reader, to_proto
from service.feeds import FeedHub
from service.servicer import GameServicer
from tests.unit.test_application_hardening import FakeContext

pytestmark = pytest.mark.integration


class Follower:
    """A seat's ``Subscribe`` stream driven in-process, its messages queued."""

    def __init__(self, app: ArbiterApp, hub: FeedHub, game_id: str, ask_as: str) -> None:
        gid = app.game(game_id).id
        self.context = FakeContext(app.credentials.seat_token(gid, 0))
        stream = GameServicer(app, hub).Subscribe(
            game_pb2.SubscribeRequest(game_id=ask_as, seat=0, after=app.game(game_id).version),
            self.context)
        self.messages: queue.Queue[game_pb2.FeedMessage] = queue.Queue()
        self.thread = threading.Thread(
            target=lambda: [self.messages.put(m) for m in stream], daemon=True)
        self.thread.start()

    def events(self, count: int) -> list[game_pb2.Event]:
        got: list[game_pb2.Event] = []
        while len(got) < count:
            message = self.messages.get(timeout=20)
            if message.HasField("event"):
                got.append(message.event)
        return got

    def close(self, hub: FeedHub) -> None:
        self.context.cancel()
        hub.wake()
        self.thread.join(timeout=10)


def move(app: ArbiterApp, game_id: str, rng: random.Random, n: int) -> list[Any]:
    """One random legal move of the solo seat; its events."""
    game: Any = app.game(game_id)
    assert not game.ended, "played on a game that is over (see over())"
    result = app.act(game_id, 0, rng.choice(game.legal_actions(0)).to_json(),
                     command_id=f"move-{n}")
    return list(result.events)


def over(app: ArbiterApp, game_id: str) -> bool:
    """Whether the game has ended: a game's dice are its own secret seed's, new
    each run, and now and then a random Enin hero dies within a dozen moves (a
    run of the suite failed so, choosing a move from none): the moves stop there,
    and the follower has every event up to the end all the same."""
    return bool(app.game(game_id).ended)


def move_elsewhere(app: ArbiterApp, game_id: str, rng: random.Random, n: int,
                   monkeypatch: pytest.MonkeyPatch) -> list[Any]:
    """A move committed but not handed to the followers here, as another
    server's would be; its events."""
    with monkeypatch.context() as elsewhere:
        elsewhere.setattr(app.recent, "record", lambda recordings: None)
        return move(app, game_id, rng, n)


def announce(hub: FeedHub, game_id: str, events: list[Any]) -> None:
    """What the relay's message does on arrival: wake the game's followers."""
    hub._on_message(json.dumps({"game_id": game_id, "version": events[-1].originator_version}))


SEAT = Reader(0)


def stored(app: ArbiterApp, game_id: str, after: int,
           reader: Reader = SEAT) -> list[game_pb2.Event]:
    """The events as a seat's feed made them from the store (the old way)."""
    game: Any = app.game(game_id)
    events = app.game_events(game_id, after=after)
    positions = timetravel.positions(app, game_id, after)
    return [to_proto(type(game), ev, reader, positions.get(ev.originator_version, 0),
                     seats=game.seats) for ev in events]


def as_stored(got: list[game_pb2.Event], app: ArbiterApp, game_id: str, after: int) -> bool:
    """Whether the feed's events are the store's. Once the game is over, a feed
    sends each event as the full record (``Reader.for_game``): an event sent
    after the end may be either form, each one whole."""
    seat = stored(app, game_id, after)
    if not app.game(game_id).ended:
        return got == seat
    full = stored(app, game_id, after, SEAT.for_game(True))
    return len(got) == len(seat) and all(
        g in (s, f) for g, s, f in zip(got, seat, full, strict=True))


@pytest.fixture
def hub(monkeypatch: pytest.MonkeyPatch) -> FeedHub:
    """A live hub woken by hand; a follower missed by a wake-up would wait a minute."""
    monkeypatch.setattr(feeds, "HEALTHY_POLL", 60.0)
    live = FeedHub("redis://127.0.0.1:1/0")
    live.healthy = True
    return live


@pytest.mark.parametrize("spelling", [str, lambda gid: "{" + str(gid).upper() + "}"])
def test_a_followers_events_come_from_the_commits_as_the_store_gives_them(
        app: ArbiterApp, hub: FeedHub, spelling: Any) -> None:
    """Every message equals the one made from the store, and after the catch-up
    the store is not read for this process's own commits. A game id spelled in
    another form of the same UUID is followed alike (it was woken by its poll
    only: the hub's wake-ups go by the canonical spelling)."""
    rng = random.Random(7)
    game_id = str(app.create_game("enin", ["solo"]).id)
    start = app.game(game_id).version
    follower = Follower(app, hub, game_id, spelling(app.game(game_id).id))
    reads: list[int] = []
    read = app.game_events

    def counted(*args: Any, **kwargs: Any) -> Any:
        found = read(*args, **kwargs)
        reads.append(len(found))
        return found

    try:
        threading.Event().wait(0.3)  # past its catch-up read
        app.game_events = counted  # type: ignore[method-assign]
        sent = 0
        for n in range(12):
            if over(app, game_id):
                break
            events = move(app, game_id, rng, n)
            announce(hub, game_id, events)
            sent += len(events)
        got = follower.events(sent)
        assert sum(reads) == 0, "the store was read for this process's own commits"
        app.game_events = read  # type: ignore[method-assign]
        assert as_stored(got, app, game_id, start)
    finally:
        follower.close(hub)


def test_another_servers_write_between_is_read_from_the_store(
        app: ArbiterApp, hub: FeedHub, monkeypatch: pytest.MonkeyPatch) -> None:
    """A version this process did not commit (as another server's would be)
    comes between its own: the follower reads the store, in order, none missed."""
    rng = random.Random(8)
    game_id = str(app.create_game("enin", ["solo"]).id)
    start = app.game(game_id).version
    follower = Follower(app, hub, game_id, game_id)
    try:
        threading.Event().wait(0.3)
        sent = 0
        for n in range(9):
            if over(app, game_id):
                break
            if n % 3 == 1:
                events = move_elsewhere(app, game_id, rng, n, monkeypatch)
            else:
                events = move(app, game_id, rng, n)
            announce(hub, game_id, events)
            sent += len(events)
        assert as_stored(follower.events(sent), app, game_id, start)
    finally:
        follower.close(hub)


def test_a_newer_version_announced_sends_the_follower_to_the_store(
        app: ArbiterApp, hub: FeedHub, monkeypatch: pytest.MonkeyPatch) -> None:
    """A message naming a version past everything this process committed (another
    server's, published before this process's own) is not answered from the
    commits alone: the follower asks the store, and gets it."""
    rng = random.Random(9)
    game_id = str(app.create_game("enin", ["solo"]).id)
    start = app.game(game_id).version
    follower = Follower(app, hub, game_id, game_id)
    try:
        threading.Event().wait(0.3)
        own = move(app, game_id, rng, 0)
        theirs = move_elsewhere(app, game_id, rng, 1, monkeypatch)
        announce(hub, game_id, theirs)  # the newest first, then the older
        got = follower.events(len(own) + len(theirs))
        assert as_stored(got, app, game_id, start)
    finally:
        follower.close(hub)
