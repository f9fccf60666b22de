"""The load-time check of a game's stored events (``service.integrity``),
in memory: every event's version, link and digest, from the creation event
or from a snapshot; the first that fails named, and the game refused with
``RECORD_CORRUPT`` (DESIGN principle 11, "what is served is what the hash
chain proves"; the server side is tests/integration/test_corrupt_game.py)."""

from __future__ import annotations

import dataclasses
import random
from typing import Any

import pytest
from eventsourcing.application import project_aggregate
from eventsourcing.domain import Snapshot

from aggregates.enin import Enin
from aggregates.kernel import payload_of
from service.errors import ServiceError
from service.integrity import KNOWN, Corrupt, checked, checking


def played(seed: int, events: int = 40) -> list[Any]:
    """The first ``events`` domain events of an Enin game played at random, as
    the store holds them (its dice are the game's own: a game that ends sooner
    is played again)."""
    rnd = random.Random(seed)
    while True:
        game = Enin.start(["solo"])
        found: list[Any] = list(game.collect_events())
        while len(found) < events and not game.ended:
            seat = game.waiting_on()[0]
            game.act(seat, rnd.choice(game.legal_actions(seat)))
            found.extend(game.collect_events())
        if len(found) >= events:
            return found


def fold(events: Any) -> Any:
    """The game ``events`` make (the repository's own projector)."""
    game = project_aggregate(None, events)
    assert game is not None
    return game


def first_bad(events: list[Any]) -> tuple[int, str]:
    with pytest.raises(Corrupt) as caught:
        list(checked(events))
    return caught.value.version, caught.value.why


def test_an_untouched_record_loads_as_it_would_unchecked() -> None:
    events = played(1)
    game = fold(checked(events))
    assert game.version == events[-1].originator_version
    assert vars(game) == vars(fold(iter(events)))


def test_an_edited_payload_fails_its_digest_at_its_version() -> None:
    events = played(2)
    at, key = next((n, key) for n, ev in enumerate(events) if n > 3
                   for key, value in payload_of(ev).items() if type(value) is int)
    events[at] = dataclasses.replace(events[at], **{key: getattr(events[at], key) + 1})
    assert first_bad(events) == (at + 1, "its digest does not match its contents")


def test_a_missing_or_moved_event_is_named() -> None:
    events = played(3)
    assert first_bad(events[:9] + events[10:]) == (10, "it is missing (the next stored "
                                                       "event is version 11)")
    assert first_bad(events[1:])[0] == 1
    swapped = events[:5] + [events[6], events[5]] + events[7:]
    assert first_bad(swapped)[0] == 6


def test_a_load_from_a_snapshot_checks_the_events_after_it() -> None:
    events = played(4)
    game = fold(iter(events[:20]))
    snapshot = Snapshot.take(game)
    rest = events[20:]
    loaded = fold(checked([snapshot, *rest]))
    assert loaded.version == events[-1].originator_version
    other = Snapshot.take(fold(iter(played(5)[:20])))
    assert first_bad([other, *rest]) == (21, "it does not link to the digest of the event "
                                             "before it")


def test_a_refused_load_is_record_corrupt_and_known_until_it_loads_cleanly() -> None:
    events = played(6)
    game_id = str(events[0].originator_id)
    broken = [*events[:7], dataclasses.replace(events[7], meta={**events[7].meta, "prev": "0"}),
              *events[8:]]
    with pytest.raises(ServiceError) as refused:
        checking(project_aggregate)(None, iter(broken))
    assert (refused.value.status, refused.value.reason) == ("DATA_LOSS", "RECORD_CORRUPT")
    assert f"game {game_id}: its stored record is corrupt at version 8" in refused.value.message
    assert KNOWN.games()[game_id] == (8, "it does not link to the digest of the event before it")
    checking(project_aggregate)(None, iter(events))
    assert game_id not in KNOWN.games()
