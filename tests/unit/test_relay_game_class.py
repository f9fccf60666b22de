"""The relay names each event's game class from the event itself (no load of
the game per new game): every event class of every game, and the template game."""

from __future__ import annotations

import uuid

from aggregates.catalog import SERVED
from service.auth import GameAccess
from service.relay import game_class_of
from tests.template_game.game import Template


def test_every_event_class_names_its_own_game() -> None:
    for cls in (*SERVED, Template):
        events = [v for v in vars(cls).values() if isinstance(v, type) and hasattr(v, "mutate")]
        assert events, cls
        for event_class in events:
            assert game_class_of(event_class) is cls, (cls, event_class)


def test_an_event_of_no_game_names_none() -> None:
    access = GameAccess(uuid.uuid4(), ["h"], "s")
    (issued,) = access.collect_events()
    assert game_class_of(type(issued)) is None
    assert game_class_of(uuid.UUID) is None
