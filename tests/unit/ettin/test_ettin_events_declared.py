"""Each Ettin event is declared once, by its ``@event`` signature (issue 17,
item 4): the payload schemas served from ``schemas.json`` are derived from the
signatures, ``describe`` has a sentence for every type, and every old record's
``why``/``what`` reads as a declared type (``upcasts``)."""

from __future__ import annotations

import json

from aggregates.ettin import Ettin, present, upcasts
from aggregates.ettin.events import KERNEL_EVENTS, SCHEMAS, event_signatures, payload_schemas


def test_the_schemas_file_is_derived_from_the_event_signatures() -> None:
    """``python -m aggregates.ettin.events`` rewrites it when an event changes."""
    served = json.loads(SCHEMAS.read_text())
    assert served["rules_version"] == Ettin.RULES_VERSION
    own = {k: v for k, v in served["events"].items() if k not in KERNEL_EVENTS}
    assert own == payload_schemas(Ettin)


def test_describe_tells_every_event_type() -> None:
    assert set(present.SENTENCES) == set(event_signatures(Ettin))


def test_every_old_record_reads_as_a_declared_event() -> None:
    declared = set(event_signatures(Ettin))
    old = ({*upcasts.MOVES.values(), "AdventureRevealed", "AdventureEffect"}
           | {kind for kind, _ in upcasts.ONE_GOLD.values()}
           | {"AgeGold", "AdventureReward", "Produced", "TiedWarGold"}
           | {kind for kind, _ in upcasts.UNSTATED.values()}
           | {"InitiativeTaken", "InitiativeGiven"})
    assert old <= declared
