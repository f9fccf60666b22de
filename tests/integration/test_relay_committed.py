"""The feed relay publishes this process's commits as recorded.

It used to read back from the store every event the process had just written
(a query and a decode per commit, about a quarter of the server's interpreter
time per move). Now the application hands the relay its commits
(``ArbiterApp.committed``) and the relay publishes them as they are when they
run on from its position without a gap; otherwise it reads the store, as it
always may. The events subscribers receive must not change, and nothing
may be skipped or published out of order ("nothing is lost between commit
and publish").
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from aggregates.catalog import SERVED
from service import relay as relay_module
from service.application import ArbiterApp

pytestmark = pytest.mark.integration


class Positions:
    """The relay's position store, in memory."""

    def __init__(self) -> None:
        self.position = 0

    def acquire(self) -> bool:
        return True

    def release(self) -> None:
        pass

    def load(self) -> int:
        return self.position

    def save(self, position: int) -> None:
        self.position = position

    def peek(self) -> int:
        return self.position


class Publisher:
    """Records every message published, in order, as Redis would receive them."""

    def __init__(self) -> None:
        self.published: list[tuple[str, str]] = []

    def publish(self, messages: list[tuple[bytes, bytes]]) -> None:
        self.published.extend((c.decode(), m.decode()) for c, m in messages)


def relay_of(app: ArbiterApp) -> tuple[relay_module.FeedRelay, Publisher]:
    relay = relay_module.FeedRelay(app, "redis://127.0.0.1:1/0", Positions())
    redis = Publisher()
    relay.publisher = redis  # type: ignore[assignment]
    assert relay._lead()
    return relay, redis


def play(app: ArbiterApp, game_id: str, moves: int, rng: random.Random) -> None:
    """Random legal moves of whichever seats the game waits on (each its own
    command id: a repeated one would be answered, not applied, exactly once)."""
    for _ in range(moves):
        game: Any = app.game(game_id)
        for seat in game.waiting_on():
            actions = game.legal_actions(seat)
            if actions:
                app.act(game_id, seat, rng.choice(actions).to_json(),
                        command_id=f"move-{game.version}")
                break
        else:
            return


def events_of(published: list[tuple[str, str]]) -> list[tuple[str, Any]]:
    """Each event published, with its channel, in order: a message is a JSON array
    of events (a move's on a game's channel, a batch's on the all-games channel),
    and how a relay groups them depends on what it read; the events do not."""
    return [(channel, event) for channel, message in published
            for event in json.loads(message)]


def by_channel(published: list[tuple[str, str]]) -> dict[str, list[Any]]:
    """Each channel's events in the order it got them (the order between two
    channels' messages is not a promise: each subscriber reads one channel)."""
    channels: dict[str, list[Any]] = {}
    for channel, event in events_of(published):
        channels.setdefault(channel, []).append(event)
    return channels


def drain(relay: relay_module.FeedRelay) -> None:
    while relay.publish_pending():
        pass


def test_every_games_commits_are_published_as_the_store_would_publish_them(
        app: ArbiterApp, monkeypatch: pytest.MonkeyPatch) -> None:
    """Each game's events, published from the commits, are byte for byte the
    messages a relay reading the store publishes, in the same order; and the
    store is not read for them."""
    relay, redis = relay_of(app)
    read_back: list[int] = []
    read = app.notifications

    def notifications(*args: Any, **kwargs: Any) -> Any:
        found = read(*args, **kwargs)
        read_back.extend(n.id for n in found)
        return found

    monkeypatch.setattr(app, "notifications", notifications)
    rng = random.Random(20)
    for cls in SERVED:
        game_id = str(app.create_game(cls.RULES_ID, [f"p{n}" for n in range(cls.MIN_SEATS)]).id)
        for _ in range(6):
            play(app, game_id, 3, rng)
            drain(relay)
    assert read_back == [], "the relay read back from the store what this process wrote"
    assert redis.published, "and published it"
    from_store, store_redis = relay_of(app)
    from_store.position = 0
    app.committed.clear()
    drain(from_store)
    assert by_channel(redis.published) == by_channel(store_redis.published)
    assert relay.position == app.recorder.max_notification_id()


def test_a_gap_in_the_commits_is_read_from_the_store_in_order(app: ArbiterApp) -> None:
    """A commit the relay was not handed (another server's, or one made while
    this relay did not lead) comes between: the relay reads the store from
    its position, so every event is published once, in position order."""
    rng = random.Random(21)
    game_id = str(app.create_game("enin", ["solo"]).id)
    relay, redis = relay_of(app)
    play(app, game_id, 2, rng)
    app.keep_committed = False  # as if another process had written these
    play(app, game_id, 2, rng)
    app.keep_committed = True
    play(app, game_id, 2, rng)
    drain(relay)
    positions = [event["position"] for c, event in events_of(redis.published)
                 if c.endswith(f"game:{game_id}")]
    assert positions == sorted(set(positions)), "each once, in order"
    assert relay.position == app.recorder.max_notification_id()
    every = [n.id for n in app.notifications(0, 10_000)
             if app.to_event(n).originator_id == app.game(game_id).id]
    assert positions == every, "nothing skipped"


def test_a_relay_that_does_not_lead_keeps_no_commits(app: ArbiterApp) -> None:
    """Only the leading relay is handed commits: a server whose relay waits
    for the lease (another process publishes) keeps none in memory."""
    relay, _ = relay_of(app)
    relay._resign()
    play(app, str(app.create_game("enin", ["solo"]).id), 3, random.Random(22))
    assert not app.committed


def test_a_wake_up_with_nothing_kept_reads_the_store_only_once_its_poll_is_due(
        app: ArbiterApp, monkeypatch: pytest.MonkeyPatch) -> None:
    """A commit wakes the relay after its events were kept, so a busy relay is
    often woken for events its last run published already: that wake-up reads
    the store only when the store was last read ``STORE_POLL`` ago. Another
    server's write after this process's last commit is published at the poll;
    one between this process's commits (a gap) at once."""
    relay, redis = relay_of(app)
    reads: list[int] = []
    read = app.notifications

    def notifications(*args: Any, **kwargs: Any) -> Any:
        reads.append(1)
        return read(*args, **kwargs)

    monkeypatch.setattr(app, "notifications", notifications)
    rng = random.Random(23)
    game_id = str(app.create_game("enin", ["solo"]).id)
    play(app, game_id, 2, rng)
    drain(relay)
    assert reads == [] and relay.position == app.recorder.max_notification_id()
    monkeypatch.setattr(relay_module, "STORE_POLL", 3600.0)
    relay.publish_pending()  # the first wake-up with nothing kept: never read yet
    assert len(reads) == 1
    relay.publish_pending()  # read just now: not again
    assert len(reads) == 1
    app.keep_committed = False  # another server's write, after this process's last
    play(app, game_id, 1, rng)
    app.keep_committed = True
    published = len(redis.published)
    relay.publish_pending()
    assert len(reads) == 1 and len(redis.published) == published, "not before the poll"
    monkeypatch.setattr(relay_module, "STORE_POLL", 0.0)
    drain(relay)
    assert len(reads) == 2 and relay.position == app.recorder.max_notification_id()
    monkeypatch.setattr(relay_module, "STORE_POLL", 3600.0)
    app.keep_committed = False
    play(app, game_id, 1, rng)  # another server's write ...
    app.keep_committed = True
    play(app, game_id, 1, rng)  # ... then this process's: a gap, read at once
    drain(relay)
    assert len(reads) == 3 and relay.position == app.recorder.max_notification_id()
