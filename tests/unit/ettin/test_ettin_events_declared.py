"""Each Ettin event is declared once, as a class of ``events.py`` with its
apply in ``apply.py``: the payload schemas of ``schemas.json`` and the event
table of the docs are written from the classes by ``make schemas``
(``kernel.schemagen``), ``describe`` has a sentence for every type, and every
old record's ``why``/``what`` reads as a declared type (``upcasts``)."""

from __future__ import annotations

import json

from aggregates.ettin import Ettin, apply, events, present, upcasts
from aggregates.kernel import declared, facts
from aggregates.kernel.record import schemagen


def own() -> set[str]:
    return set(declared.own_events(Ettin))


def test_every_event_is_a_declared_class_with_its_apply() -> None:
    assert own() == {cls.__name__ for cls in events.EVENTS}
    assert facts.missing(apply.apply, events.EVENTS) == []


def test_the_schemas_file_and_the_docs_table_are_written_from_the_classes() -> None:
    """``make schemas`` rewrites both when an event changes; nothing else writes them."""
    assert Ettin in schemagen.generated_games()
    assert schemagen.stale([Ettin]) == []
    served = json.loads((schemagen.package_dir(Ettin) / "schemas.json").read_text())
    assert served["rules_version"] == Ettin.RULES_VERSION
    assert set(served["events"]) == own() | {"Created", "Ended"}


def test_a_card_move_is_read_by_others_as_a_count() -> None:
    """Zones a reader may not see (Setup: War Camps, decks) leave the cards out of
    the public form; its schema has the count instead."""
    served = json.loads((schemagen.package_dir(Ettin) / "schemas.json").read_text())
    assert "count" in served["events"]["Drafted"]["properties"]
    assert "count" not in served["events"]["Scouted"]["properties"]


def test_describe_tells_every_event_type() -> None:
    assert set(present.SENTENCES) == own()


def test_every_old_record_reads_as_a_declared_event() -> None:
    old = ({*upcasts.MOVES.values(), "AdventureRevealed", "AdventureEffect"}
           | {kind for kind, _ in upcasts.ONE_GOLD.values()}
           | {"AgeGold", "AdventureReward", "Produced", "TiedWarGold"}
           | {kind for kind, _ in upcasts.UNSTATED.values()}
           | {"InitiativeTaken", "InitiativeGiven"})
    assert old <= own()
