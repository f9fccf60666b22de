"""The relay publishes a channel's message only where someone may hear it
(``FeedRelay._listened``): a channel nobody subscribes to, or whose one
subscriber is this process's own feed hub for a commit that woke this
process's streams already, gets nothing; every other channel gets every
message, and anything the count cannot vouch for (a pattern subscriber, the
hub's subscriptions changing while counting, a Redis user refused ``PUBSUB``)
publishes on every channel, as before (DESIGN: storage and feeds; a stream
woken by a message reads the store, so a message nobody hears is lost to no one).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import redis

from service.application import ArbiterApp
from service.relay import FeedRelay, Publisher, all_games_channel, batch_messages, game_channel

PREFIX = "test-listeners:"
ALL = all_games_channel(PREFIX).encode()


class CountingPublisher(Publisher):
    """A publisher whose Redis is a table of subscribers per channel."""

    def __init__(self, counts: dict[bytes, int], patterns: int = 0,
                 refuse: bool = False) -> None:
        super().__init__(redis.Redis())
        self.counts, self.patterns, self.refuse = counts, patterns, refuse
        self.published: list[tuple[bytes, bytes]] = []
        self.asked: list[list[bytes]] = []

    def listeners(self, channels: list[bytes]) -> tuple[dict[bytes, int], int]:
        self.asked.append(channels)
        if self.refuse:
            raise redis.exceptions.NoPermissionError("NOPERM this user has no PUBSUB")
        return {c: self.counts.get(c, 0) for c in channels}, self.patterns

    def publish(self, messages: list[tuple[bytes, bytes]]) -> None:
        self.published.extend(messages)


class Hub:
    """The feed hub as the relay sees it: the games whose streams here were
    woken at a version (``committed``), and whether it follows them."""

    def __init__(self, following: dict[str, int], move_while_counting: bool = False) -> None:
        self.following = following
        self.subscriptions = 0
        self.move_while_counting = move_while_counting

    def echo_only(self, game_id: str, version: int) -> bool:
        if self.move_while_counting:
            self.subscriptions += 1
        return self.following.get(game_id, -1) >= version


@pytest.fixture(scope="module")
def moves(tmp_path_factory: pytest.TempPathFactory) -> tuple[ArbiterApp, list[str]]:
    """A store with two Ethnos games, each a move past its creation."""
    path: Path = tmp_path_factory.mktemp("listeners")
    app = ArbiterApp({"PERSISTENCE_MODULE": "eventsourcing.sqlite",
                      "SQLITE_DBNAME": str(path / "store.sqlite")})
    games = []
    for _ in range(2):
        game = app.create_game("ethnos", ["a", "b", "c"])
        seat = game.waiting_on()[0]
        app.act(str(game.id), seat, game.legal_actions(seat)[0].to_json())
        games.append(str(game.id))
    return app, games


class Positions:
    """Where the relay records its position: nowhere."""

    def save(self, position: int) -> None:
        pass


def relay_of(app: ArbiterApp, publisher: Publisher, hub: Hub | None) -> FeedRelay:
    relay = FeedRelay(app, "redis://127.0.0.1:1/0", Positions(),  # type: ignore[arg-type]
                      PREFIX, echo=hub)
    relay.publisher = publisher
    return relay


def both_games_events(app: ArbiterApp, games: list[str]) -> list[tuple[int, Any]]:
    events = [ev for gid in games for ev in app.game_events(gid)]
    return list(enumerate(events, start=1))


def channels(published: list[tuple[bytes, bytes]]) -> list[bytes]:
    return [channel for channel, _ in published]


def test_a_channel_only_this_process_hears_for_its_own_woken_commit_gets_nothing(
        moves: tuple[ArbiterApp, list[str]]) -> None:
    app, games = moves
    first, second = (game_channel(g, PREFIX).encode() for g in games)
    newest = app.game(games[0]).version
    publisher = CountingPublisher({first: 1, second: 1, ALL: 0})
    hub = Hub({games[0]: newest, games[1]: 0})  # the second game's streams not woken yet
    relay = relay_of(app, publisher, hub)
    relay._publish(both_games_events(app, games))
    assert channels(publisher.published) == [second], \
        "the first game's echo and the unheard all-games channel are left out"
    assert relay.quiet == 2
    assert relay.position == len(both_games_events(app, games)), "moved past them all"


def test_a_channel_another_process_follows_gets_every_message(
        moves: tuple[ArbiterApp, list[str]]) -> None:
    app, games = moves
    first, second = (game_channel(g, PREFIX).encode() for g in games)
    publisher = CountingPublisher({first: 2, second: 0, ALL: 1})
    hub = Hub({g: 10**6 for g in games})
    relay_of(app, publisher, hub)._publish(both_games_events(app, games))
    assert channels(publisher.published) == [first, ALL]
    everything = json.loads(dict(publisher.published)[ALL])
    assert len(everything) == sum(len(app.game_events(g)) for g in games), \
        "the all-games message carries every event, those of the quiet game too"


def test_a_lone_subscriber_that_is_not_this_hub_is_published_to(
        moves: tuple[ArbiterApp, list[str]]) -> None:
    app, games = moves
    first, second = (game_channel(g, PREFIX).encode() for g in games)
    publisher = CountingPublisher({first: 1, second: 1, ALL: 0})
    relay_of(app, publisher, Hub({}))._publish(both_games_events(app, games))
    assert channels(publisher.published) == [first, second]


@pytest.mark.parametrize("why", ["pattern", "moved", "refused", "no hub"])
def test_what_the_count_cannot_vouch_for_publishes_on_every_channel(
        moves: tuple[ArbiterApp, list[str]], why: str) -> None:
    app, games = moves
    first, second = (game_channel(g, PREFIX).encode() for g in games)
    publisher = CountingPublisher({first: 1, second: 1}, patterns=1 if why == "pattern" else 0,
                                  refuse=why == "refused")
    hub = None if why == "no hub" else Hub({g: 10**6 for g in games},
                                           move_while_counting=why == "moved")
    relay = relay_of(app, publisher, hub)
    relay._publish(both_games_events(app, games))
    assert channels(publisher.published) == [first, second, ALL]
    if why == "refused":
        assert relay.echo is None, "a user refused PUBSUB is not asked again"
    if why == "no hub":
        assert publisher.asked == [], "nothing counted without a hub"


def test_unwanted_channels_are_left_out_and_their_events_not_encoded(
        moves: tuple[ArbiterApp, list[str]], monkeypatch: pytest.MonkeyPatch) -> None:
    app, games = moves
    encoded: list[int] = []
    import service.relay as relay_module

    real = relay_module.to_public_json

    def counting(cls: Any, event: Any, position: int) -> str:
        encoded.append(position)
        return real(cls, event, position)

    monkeypatch.setattr(relay_module, "to_public_json", counting)
    events = [(p, ev, type(app.game(str(ev.originator_id))))
              for p, ev in both_games_events(app, games)]
    assert batch_messages(events, PREFIX, lambda _: ALL, lambda _: False) == []
    assert encoded == []
    first = game_channel(games[0], PREFIX).encode()
    published = batch_messages(events, PREFIX, lambda _: ALL, lambda c: c == first)
    assert channels(published) == [first]
    assert len(encoded) == len(app.game_events(games[0]))


def test_redis_counts_a_channel_s_subscribers_in_one_round_trip(redis_url: str) -> None:
    """``Publisher.listeners`` against a real Redis: a channel one connection
    subscribes to counts 1, another 0; the patterns are the server's."""
    heard = game_channel("00000000-0000-0000-0000-00000000beef", PREFIX + "real:").encode()
    unheard = game_channel("00000000-0000-0000-0000-00000000f00d", PREFIX + "real:").encode()
    client = redis.Redis.from_url(redis_url)
    listener = client.pubsub()
    listener.subscribe(heard)
    listener.get_message(timeout=2)  # the confirmation
    publisher = Publisher(client)
    try:
        counts, patterns = publisher.listeners([heard, unheard])
        assert counts == {heard: 1, unheard: 0}
        assert patterns == client.pubsub_numpat()
        publisher.publish([(heard, b"[]")])  # the same connection publishes after counting
        message = listener.get_message(timeout=2)
        assert message is not None and message["data"] == b"[]"
    finally:
        publisher.close()
        listener.close()
        client.close()
