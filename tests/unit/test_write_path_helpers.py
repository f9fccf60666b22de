"""The write path's helpers that stand in for slower library calls (issue 20)
give what those calls give: an event's time as a protobuf ``Timestamp``
(``service.envelope.timestamp_of`` for ``Timestamp.FromDatetime``), and a
saver's events and aggregates (``service.groupcommit.collected`` for
``ProcessingEvent.collect_events``)."""

from __future__ import annotations

import datetime
import random
import uuid

from eventsourcing.application import ProcessingEvent
from google.protobuf.timestamp_pb2 import Timestamp

from aggregates.catalog import GAMES
from service.envelope import timestamp_of
from service.groupcommit import collected


def test_an_events_time_is_the_timestamp_from_datetime_makes() -> None:
    rng = random.Random(20)
    zones = [None, datetime.UTC, datetime.timezone(datetime.timedelta(hours=5, minutes=30)),
             datetime.timezone(datetime.timedelta(hours=-11))]
    for _ in range(5000):
        when = datetime.datetime(1970, 1, 1) + datetime.timedelta(
            seconds=rng.randint(-2 * 10**9, 4 * 10**9), microseconds=rng.randint(0, 999_999))
        when = when.replace(tzinfo=rng.choice(zones))
        expected = Timestamp()
        expected.FromDatetime(when)
        assert timestamp_of(when) == expected, when


def test_a_savers_events_are_collected_as_the_library_collects_them() -> None:
    game = GAMES["enin"].start(["solo"])
    other = GAMES["ethnos"].start(["a", "b", "c"])
    stray = other.collect_events()[0]  # an event given as itself, not by its aggregate
    ours = collected([game, None, stray])
    assert not game.pending_events
    theirs: ProcessingEvent[uuid.UUID] = ProcessingEvent()
    again = GAMES["enin"].start(["solo"])
    theirs.collect_events(again, None, stray)
    assert [type(e) for e in ours.events] == [type(e) for e in theirs.events]
    assert ours.events[-1] is stray and len(ours.events) == len(theirs.events) > 1
    assert ours.aggregates == {game.id: game}
    assert list(theirs.aggregates.values()) == [again]
