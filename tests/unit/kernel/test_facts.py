"""Events declared once as immutable classes, applied by one function each
(``aggregates.kernel.facts``): what the kernel guarantees a game written so."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest
from eventsourcing.utils import get_topic, resolve_topic

from aggregates.enin import Enin
from aggregates.enin import events as enin_events
from aggregates.ethnos import Ethnos
from aggregates.kernel import Game, declared
from aggregates.kernel.facts import applier, missing
from aggregates.kernel.record.recording import event_class_of


class Counted(Game.Event):
    """A counter is raised by `amount`."""

    amount: int


def test_a_game_whose_apply_lacks_an_event_is_refused_when_it_is_made() -> None:
    """A declared event no function applies would change nothing on replay."""
    with pytest.raises(TypeError, match="no apply for Counted"):
        class Forgetful(Game):  # noqa: F841 - made only to be refused
            RULES_ID = "forgetful"
            EVENTS = (Counted,)
            APPLY = applier()


def test_missing_names_the_unregistered_classes() -> None:
    apply = applier()

    @apply.register
    def _counted(event: Counted, game: Any) -> None:
        game.count += event.amount

    assert missing(apply, [Counted]) == []
    assert missing(applier(), [Counted]) == ["Counted"]


@pytest.mark.parametrize("game", [Enin, Ethnos], ids=lambda c: c.RULES_ID)
def test_stored_topics_keep_resolving_to_the_declared_classes(game: type[Game]) -> None:
    """Records name ``aggregates.<game>.game:<Game>.<Name>`` (as when events
    were ``@event`` methods): each still resolves to the class that records it."""
    for declared_class in game.EVENTS:
        name = declared_class.__name__
        recorded = event_class_of(game, name)
        topic = f"{game.__module__}:{game.__name__}.{name}"
        assert get_topic(recorded) == topic
        assert resolve_topic(topic) is recorded
        assert issubclass(recorded, declared_class)


def test_an_event_is_immutable_and_typed() -> None:
    """Enin's Travelled: its one fact typed, the event frozen once made."""
    fields = declared.fact_fields(enin_events.Travelled)
    assert fields == [("to", int, True)]
    game = Enin.start(["p0"], seed="0" * 64)
    game.act(0, Enin.COMMANDS.parse("roll_start", {}))
    made = [ev for ev in game.collect_events() if type(ev).__name__ == "StartRolled"]
    assert made, "the start roll is recorded"
    with pytest.raises(dataclasses.FrozenInstanceError):
        made[0].roll = 1  # type: ignore[attr-defined]
