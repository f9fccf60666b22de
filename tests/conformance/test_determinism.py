"""Determinism from the seed: the same seed and the same moves give the same
events (OpenSpiel's serialisation round trip, here the stronger form the
design's principle 3 asks for: every outcome follows from the seed and the
moves, so anyone holding the revealed seed re-derives the record).

Each game played is started again from its seed, and its moves are sent again
with the same decision ids: every move is accepted and the events recorded are
the same types, payloads, audiences, dice and commands, one for one (only the
times differ, and with them the chain digests). A different seed deals a
different game.
"""

from __future__ import annotations

from typing import Any

import pytest

from aggregates.kernel import Game, event_type, payload_of
from aggregates.kernel.nature import Chance, game_type_of
from tests.conformance import tables as t

TABLES = t.tables()
#: Meta entries that depend on the time an event was recorded.
TIMED = ("digest", "prev")


def fact(ev: Any) -> tuple[str, dict[str, Any], dict[str, Any]]:
    meta = {k: v for k, v in ev.meta.items() if k not in TIMED}
    return event_type(ev), payload_of(ev), meta


@pytest.mark.parametrize("table", TABLES, ids=t.table_id)
def test_the_same_seed_and_moves_give_the_same_events(table: tuple[type[Game], int]) -> None:
    cls, players = table
    for record in t.games_of(table):
        again = t.start(cls, players, record.seed)
        events = list(again.collect_events())
        for move in record.moves:
            again.act(move.seat, move.command, decision_id=move.decision_id)
            events += again.collect_events()
        assert len(events) == len(record.events), record.name
        for old, new in zip(record.events, events, strict=True):
            assert fact(new) == fact(old), (record.name, old.originator_version)
        assert again.outcome == record.game.outcome


@pytest.mark.parametrize("table", TABLES, ids=t.table_id)
def test_another_seed_deals_another_game(table: tuple[type[Game], int]) -> None:
    """Only for games declared to have chance (``GAME_TYPE.chance``): the
    setup or the first dice differ between two seeds."""
    cls, players = table
    if game_type_of(cls).chance is Chance.DETERMINISTIC:
        pytest.skip(f"{cls.RULES_ID} is declared deterministic")
    first, second = (t.start(cls, players, t.seed_hex(cls, players, s)) for s in (0, 1))
    one, two = ([dealt(e) for e in g.collect_events()] for g in (first, second))
    assert one != two, f"{cls.RULES_ID}: two seeds dealt the same game"


def dealt(ev: Any) -> tuple[dict[str, Any], list[Any]]:
    """What an opening event dealt: its payload but the seed and its
    commitment (which differ with every seed), and its dice."""
    payload = {k: v for k, v in payload_of(ev).items() if k not in ("seed", "commitment")}
    return payload, ev.meta.get("draws", [])
