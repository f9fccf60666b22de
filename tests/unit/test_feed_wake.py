"""The feed hub reads a relay's message for its wake-up (game id and version)
without decoding the payload (``service.feeds.wake_of``), and believes
nothing more of any other message than a JSON decoding of it gives: what
either finds only wakes a stream, which reads the store (DESIGN: storage and
feeds; pub/sub is at most once and never trusted)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from service.application import ArbiterApp
from service.envelope import to_public_json
from service.feeds import wake_of


def relay_messages(tmp_path: Path) -> list[bytes]:
    """Every message the relay publishes of an Ethnos game's first events."""
    app = ArbiterApp({"PERSISTENCE_MODULE": "eventsourcing.sqlite",
                      "SQLITE_DBNAME": str(tmp_path / "store.sqlite")})
    game = app.create_game("ethnos", ["a", "b", "c"])
    for _ in range(6):
        seat = game.waiting_on()[0]
        app.act(str(game.id), seat, game.legal_actions(seat)[0].to_json())
        game = app.game(str(game.id))
    cls = type(game)
    return [to_public_json(cls, ev, n).encode()
            for n, ev in enumerate(app.game_events(str(game.id)), start=1)]


def test_a_relay_message_wakes_its_game_at_its_version(tmp_path: Path) -> None:
    messages = relay_messages(tmp_path)
    assert len(messages) > 6
    for data in messages:
        decoded = json.loads(data)
        assert wake_of(data) == (decoded["game_id"], decoded["version"])


def test_a_game_id_inside_the_payload_is_not_the_message_s() -> None:
    data = (b'{"audience":"everyone","digest":"ab","game_id":"g-top","payload":'
            b'{"game_id":"g-inner","version":99},"version":5}')
    assert wake_of(data) == ("g-top", 5)


@pytest.mark.parametrize(("data", "expected"), [
    (b'{"game_id": "g-1", "version": 3}', ("g-1", 3)),  # another spacing: decoded
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
