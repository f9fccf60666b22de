"""The feed hub reads a relay's message (a move's events, all together) for
its wake-up (game id and newest version) without decoding the payload
(``service.feeds.wake_of``), and believes nothing more of any other message
than a JSON decoding of it gives: what either finds only wakes a stream,
which reads the store (DESIGN: storage and feeds; pub/sub is at most once and
never trusted)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from service.application import ArbiterApp
from service.feeds import wake_of
from service.relay import batch_messages, game_channel

PREFIX = "test-wake:"


def relay_messages(tmp_path: Path) -> list[bytes]:
    """Every message the relay publishes on an Ethnos game's channel, a move
    at a time, of its first moves."""
    app = ArbiterApp({"PERSISTENCE_MODULE": "eventsourcing.sqlite",
                      "SQLITE_DBNAME": str(tmp_path / "store.sqlite")})
    game = app.create_game("ethnos", ["a", "b", "c"])
    gid = str(game.id)
    messages: list[bytes] = []
    for _ in range(6):
        seat = game.waiting_on()[0]
        before = game.version
        app.act(gid, seat, game.legal_actions(seat)[0].to_json())
        game = app.game(gid)
        events = [(ev.originator_version, ev, type(game))
                  for ev in app.game_events(gid, after=before)]
        published = batch_messages(events, PREFIX, lambda _: b"all")
        assert [channel for channel, _ in published] == [game_channel(gid, PREFIX).encode(),
                                                          b"all"]
        messages.append(published[0][1])
    return messages


def test_a_move_is_one_message_that_wakes_its_game_at_its_newest_version(
        tmp_path: Path) -> None:
    """A move's events are published together, oldest first: the wake-up names
    the game and the move's last version."""
    messages = relay_messages(tmp_path)
    assert len(messages) == 6
    for data in messages:
        decoded = json.loads(data)
        versions = [event["version"] for event in decoded]
        assert versions == list(range(versions[0], versions[0] + len(versions)))
        assert wake_of(data) == (decoded[0]["game_id"], versions[-1])
    assert any(len(json.loads(data)) > 1 for data in messages)


def test_a_game_id_inside_the_payload_is_not_the_message_s() -> None:
    data = (b'[{"audience":"everyone","digest":"ab","game_id":"g-top","payload":'
            b'{"game_id":"g-inner","version":99},"version":5}]')
    assert wake_of(data) == ("g-top", 5)


def test_a_batch_of_several_games_for_the_all_games_channel_keeps_position_order() -> None:
    """One all-games message per batch, in position order; each game's channel
    a message per run of its events."""
    class Event:
        def __init__(self, game: str, version: int) -> None:
            self.originator_id, self.originator_version = game, version

    from service import relay

    def form(_cls: object, event: Event, position: int) -> str:
        return json.dumps({"game_id": event.originator_id, "position": position,
                           "version": event.originator_version})

    original, relay.to_public_json = relay.to_public_json, form  # type: ignore[assignment]
    try:
        events = [(1, Event("a", 1), object), (2, Event("a", 2), object),
                  (3, Event("b", 1), object), (4, Event("a", 3), object), (5, Event("x", 0), None)]
        published = batch_messages(events, PREFIX, lambda _: b"all")  # type: ignore[arg-type]
    finally:
        relay.to_public_json = original
    decoded = [(channel.decode(), [(e["game_id"], e["version"]) for e in json.loads(data)])
               for channel, data in published]
    assert decoded == [
        (game_channel("a", PREFIX), [("a", 1), ("a", 2)]),
        (game_channel("b", PREFIX), [("b", 1)]),
        (game_channel("a", PREFIX), [("a", 3)]),
        ("all", [("a", 1), ("a", 2), ("b", 1), ("a", 3)]),
    ]


@pytest.mark.parametrize(("data", "expected"), [
    (b'{"game_id": "g-1", "version": 3}', ("g-1", 3)),  # another spacing: decoded
    (b'[{"game_id": "g-6", "version": 3}, {"version": 4}]', ("g-6", 4)),  # a batch: decoded
    (b"[]", None),
    (b'{"version": 3, "game_id": "g-2"}', ("g-2", 3)),  # another order: decoded
    (b'{"game_id": "g-3"}', ("g-3", None)),
    (b'{"game_id": "g-4", "version": "3"}', ("g-4", None)),
    (b"not json", None),
    (b"[1, 2]", None),
    (b'{"audience":"everyone","digest":"","version":5}', None),  # no game named
    (b'{"game_id": 12}', None),
    (b'{"game_id": ""}', None),
    (b'{"game_id": "' + b"x" * 65 + b'"}', None),
    (b'{"audience":"everyone","game_id":"' + b"x" * 65 + b'"}', None),
    (b"[" * 100_000, None),  # deep nesting: dropped, never raised
])
def test_any_other_message_is_believed_only_as_far_as_json_says(
    data: bytes, expected: tuple[str, int | None] | None
) -> None:
    assert wake_of(data) == expected


def test_a_message_as_text_is_read_as_its_bytes() -> None:
    assert wake_of('{"game_id": "g-5", "version": 1}') == ("g-5", 1)
    assert wake_of("{}") is None
    assert wake_of(12) is None  # type: ignore[arg-type]
