"""The feed hub listens only to what this process's streams follow (issue 20).

A server under moves that no one follows used to receive, and read, every
message of every game on the all-games channel: about a tenth of its
interpreter's time. Now the hub subscribes to a game's channel while a stream
follows that game, to the all-games channel while an all-games stream is open,
and to nothing else; a follower starts only once Redis has confirmed its
subscription, so no wake-up after its first read of the store is lost. Against
the real Redis of the test run: what Redis itself says is subscribed
(``PUBSUB NUMSUB``), and what reaches the hub.
"""

from __future__ import annotations

import json
import secrets
import threading
import time
import urllib.parse
from collections.abc import Iterator

import pytest
import redis

from service.feeds import FeedHub
from service.relay import all_games_channel, game_channel
from tests.integration.helpers import until

JOIN = 30.0


@pytest.fixture
def hub(redis_url: str) -> Iterator[FeedHub]:
    started = FeedHub(redis_url, f"test-follow-{secrets.token_hex(4)}:")
    started.start()
    assert started.healthy
    yield started
    started.stop()
    started.join(JOIN)


def subscribers(client: redis.Redis, channel: str) -> int:
    return int(dict(client.pubsub_numsub(channel))[channel.encode()])


def message(game_id: str, version: int) -> str:
    return json.dumps({"audience": "everyone", "game_id": game_id, "version": version},
                      sort_keys=True, separators=(",", ":"))


def test_a_followed_game_is_subscribed_once_its_follower_starts_and_only_while_followed(
        hub: FeedHub, redis_url: str) -> None:
    client = redis.Redis.from_url(redis_url)
    followed, other = secrets.token_hex(16), secrets.token_hex(16)
    channel = game_channel(followed, hub.prefix)
    assert subscribers(client, channel) == 0
    with hub.following(followed):
        # Confirmed before the follower goes on: a publish now reaches the hub.
        assert subscribers(client, channel) == 1
        with hub.following(followed):  # a second stream of the game: one subscription
            assert subscribers(client, channel) == 1
        assert subscribers(client, channel) == 1
        client.publish(game_channel(other, hub.prefix), message(other, 3))  # no one follows it
        client.publish(channel, message(followed, 7))
        assert until(lambda: hub.newest_published(followed) == 7)
        assert hub.ticket(other) == 0 and hub.newest_published(other) == 0
    assert until(lambda: subscribers(client, channel) == 0)
    sequence = hub.ticket_all()
    client.publish(channel, message(followed, 8))
    client.publish(game_channel(followed, hub.prefix), message(followed, 9))
    time.sleep(0.2)  # time enough for a message to arrive, were it subscribed
    assert hub.ticket_all() == sequence and hub.newest_published(followed) == 7


def test_the_all_games_channel_is_heard_only_while_an_all_games_stream_is_open(
        hub: FeedHub, redis_url: str) -> None:
    client = redis.Redis.from_url(redis_url)
    everything = all_games_channel(hub.prefix)
    game_id = secrets.token_hex(16)
    client.publish(everything, message(game_id, 1))
    time.sleep(0.2)
    assert hub.ticket_all() == 0  # nothing heard: no one follows every game
    with hub.following(None):
        assert subscribers(client, everything) == 1
        client.publish(everything, message(game_id, 2))
        assert until(lambda: hub.ticket_all() == 1)
    assert until(lambda: subscribers(client, everything) == 0)


def test_a_waiting_follower_is_woken_by_its_games_message(hub: FeedHub, redis_url: str) -> None:
    """The whole hand-off: follow, take a ticket, wait; a publish wakes it at once
    (the poll interval given is one no test waits out)."""
    client = redis.Redis.from_url(redis_url)
    game_id = secrets.token_hex(16)
    woken = threading.Event()

    def follower() -> None:
        with hub.following(game_id):
            ticket = hub.ticket(game_id)
            ready.set()
            hub.wait_game(game_id, ticket, lambda: False, timeout=600.0)
            woken.set()

    ready = threading.Event()
    thread = threading.Thread(target=follower, daemon=True)
    thread.start()
    assert ready.wait(JOIN)
    client.publish(game_channel(game_id, hub.prefix), message(game_id, 1))
    assert woken.wait(JOIN)
    thread.join(JOIN)


def test_following_does_not_wait_for_a_redis_that_is_down() -> None:
    """With Redis unavailable, a follower starts at once and polls the store."""
    hub = FeedHub("redis://127.0.0.1:1/0", "test-follow-down:")
    hub.start()
    try:
        assert not hub.healthy
        started = time.monotonic()
        with hub.following(secrets.token_hex(16)):
            assert time.monotonic() - started < 1.0
    finally:
        hub.stop()
        hub.join(JOIN)


def test_a_connection_lost_is_made_again_with_every_followed_channel(
        hub: FeedHub, redis_url: str) -> None:
    """Redis drops the hub's connection: the status says so, the hub connects
    again, subscribes to every channel still followed before it says live, and
    a follower waiting then is woken by its game's next message."""
    client = redis.Redis.from_url(redis_url)
    game_id = secrets.token_hex(16)
    channel = game_channel(game_id, hub.prefix)
    woken = threading.Event()
    ready = threading.Event()

    def follower() -> None:
        with hub.following(game_id):
            ready.set()
            while not woken.is_set():
                ticket = hub.ticket(game_id)
                hub.wait_game(game_id, ticket, lambda: False, timeout=600.0)
                if hub.newest_published(game_id) == 2:
                    woken.set()

    thread = threading.Thread(target=follower, daemon=True)
    thread.start()
    assert ready.wait(JOIN) and subscribers(client, channel) == 1
    ours = [c["id"] for c in client.client_list() if c.get("name") == hub.client_name]
    assert len(ours) == 1, "the hub's connection, by its own name"
    client.client_kill_filter(_id=ours[0])
    assert until(lambda: not hub.healthy or subscribers(client, channel) == 0)
    assert until(lambda: hub.healthy and subscribers(client, channel) == 1)
    client.publish(channel, message(game_id, 2))
    assert woken.wait(JOIN)
    thread.join(JOIN)


def test_a_redis_user_limited_to_its_channels_still_gets_live_feeds(redis_url: str) -> None:
    """An operator's Redis user may hold no more than pub/sub on the deployment's
    channels (docs/operations.md): it may not name its connection, and the hub
    listens unnamed, live, its followers woken as ever."""
    admin = redis.Redis.from_url(redis_url)
    user, password = f"test-hub-{secrets.token_hex(4)}", secrets.token_hex(16)
    prefix = f"test-acl-{secrets.token_hex(4)}:"
    admin.execute_command("ACL", "SETUSER", user, "on", f">{password}", "resetchannels",
                          f"&{prefix}*", "+subscribe", "+unsubscribe", "+ping", "+hello",
                          "+auth")
    parts = urllib.parse.urlsplit(redis_url)
    url = parts._replace(netloc=f"{user}:{password}@{parts.hostname}:{parts.port}").geturl()
    limited = FeedHub(url, prefix)
    limited.start()
    try:
        assert until(lambda: limited.healthy)
        game_id = secrets.token_hex(16)
        with limited.following(game_id):
            assert subscribers(admin, game_channel(game_id, prefix)) == 1
            admin.publish(game_channel(game_id, prefix), message(game_id, 4))
            assert until(lambda: limited.newest_published(game_id) == 4)
    finally:
        limited.stop()
        limited.join(JOIN)
        admin.execute_command("ACL", "DELUSER", user)
