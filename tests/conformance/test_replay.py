"""Every game played audits clean and its events replay to the same state.

The kernel's audit (``aggregates.kernel.record.audit.audit``: the hash chain, the
dice against the committed seed, and re-execution of every recorded command)
must pass on every game the suite plays, and the events alone, applied to
nothing, must rebuild the game as played: every reader's view (the shared
``tests.property.replay.assert_replays``), and besides it every reader's
screen, the decisions pending, the legal lists and the outcome.
"""

from __future__ import annotations

import pytest

from aggregates.kernel import Game
from tests.conformance import tables as t
from tests.property.replay import assert_replays

TABLES = t.tables()


@pytest.mark.heavy(8)
@pytest.mark.parametrize("table", TABLES, ids=t.table_id)
def test_every_game_audits_clean_and_replays_to_equal_state(
        table: tuple[type[Game], int]) -> None:
    for record in t.games_of(table):
        assert_replays(record.game, record.events)
        rebuilt = t.rebuilt(record.events)
        game = record.game
        assert rebuilt.outcome == game.outcome and rebuilt.ended == game.ended
        for seat in (None, *range(record.players)):
            assert rebuilt.present(seat).to_json() == game.present(seat).to_json(), seat
        assert rebuilt.pending_decisions() == game.pending_decisions()


@pytest.mark.parametrize("table", TABLES, ids=t.table_id)
def test_events_replay_to_the_state_each_move_was_made_in(
        table: tuple[type[Game], int]) -> None:
    """Rebuilt from the events before it, the game asks what the bot was asked:
    each move's decision id is pending for its seat and its command is on the
    seat's legal list there."""
    for record in t.games_of(table, "legal"):
        for index, game in t.states(record):
            if index == len(record.moves):
                assert game.ended
                continue
            move = record.moves[index]
            ids = {d.id for d in game.pending_decisions() if d.seat == move.seat}
            assert move.decision_id in ids, (record.name, index, move, ids)
            assert move.command in game.legal_actions(move.seat), (record.name, index)
