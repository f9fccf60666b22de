"""Decision ids are stable under other seats' moves (Kernel 2: staleness is
judged per decision, so seats choosing at once never make each other's
answers stale).

Along every game played, wherever several seats are asked at once and one of
them moves: each other seat still asked a decision of the same kind (for the
same position) is asked the same decision, under the same id, so the answer
it was preparing, sent with that id, is still taken. And a seat's own move
retires the id it answered: asked again, it gets a new one.
"""

from __future__ import annotations

import pytest

from aggregates.kernel import Decision, Game
from tests.conformance import tables as t

TABLES = t.tables()


def by_slot(decisions: list[Decision]) -> dict[tuple[int, str, int | None], Decision]:
    return {(d.seat, d.kind, d.position): d for d in decisions}


@pytest.mark.parametrize("table", TABLES, ids=t.table_id)
def test_decision_ids_are_stable_under_other_seats_moves(
        table: tuple[type[Game], int]) -> None:
    kept = 0
    for record in t.games_of(table, "legal"):
        before: list[Decision] = []
        for index, game in t.states(record):
            now = game.pending_decisions()
            if index:
                mover = record.moves[index - 1]
                now_by_slot = by_slot(now)
                for slot, old in by_slot(before).items():
                    new = now_by_slot.get(slot)
                    if new is None:
                        continue
                    if old.seat == mover.seat:
                        assert mover.decision_id not in {d.id for d in now}, (
                            f"{record.name}: seat {mover.seat} answered "
                            f"{mover.decision_id} and is asked it again")
                        continue
                    assert new.id == old.id, (
                        f"{record.name}, move {index - 1}: seat {mover.seat}'s move made "
                        f"seat {old.seat}'s decision {old.id} ({old.prompt!r}) stale: now "
                        f"{new.id} ({new.prompt!r})")
                    kept += 1
            before = now
    together = sum(r.simultaneous for r in t.games_of(table, "legal"))
    assert kept or not together, f"{table}: seats asked at once, yet no id ever checked"
