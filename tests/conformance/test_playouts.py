"""Random playouts reach the end, through the legal list and through the
choice structures (OpenSpiel's ``random_sim_test``; the design's principle 6:
"a random bot built only on that list must be able to finish every game").

Along every playout (``tables.played``): a game not over asks someone, every
decision names a seat, a kind, a prompt, an id of its own and its choice
structures, and every seat asked has a legal command. The choices bot builds
its answers with the structures' ``build``; a built answer must parse as one
of the game's commands, and (when the seat's legal list is complete) is
accepted exactly when it is on that list. At the end: an outcome, nobody
asked, nothing legal, and any further command refused as GAME_OVER.
"""

from __future__ import annotations

import pytest

from aggregates.kernel import Game, Reason, RuleError
from tests.conformance import tables as t

TABLES = t.tables()


def check_over(record: t.Played) -> None:
    game = record.game
    assert game.ended and isinstance(game.outcome, dict) and game.outcome, record.name
    assert game.pending_decisions() == [] and game.waiting_on() == [], record.name
    assert all(game.legal_actions(s) == [] for s in range(record.players)), record.name
    last = record.moves[-1]
    with pytest.raises(RuleError) as refused:
        game.act(last.seat, last.command)
    assert refused.value.reason == Reason.GAME_OVER


@pytest.mark.parametrize("table", TABLES, ids=t.table_id)
def test_random_playouts_through_the_legal_list_reach_the_end(
        table: tuple[type[Game], int]) -> None:
    for record in t.games_of(table, "legal"):
        check_over(record)


@pytest.mark.parametrize("table", TABLES, ids=t.table_id)
def test_random_playouts_through_the_choice_structures_reach_the_end(
        table: tuple[type[Game], int]) -> None:
    records = t.games_of(table, "choices")
    for record in records:
        check_over(record)
    accepted, _refused, offered = (sum(r.built[i] for r in records) for i in range(3))
    # A structure offered is a way to answer: some answers built from them are taken.
    assert not offered or accepted, f"{table}: no answer built from {offered} structures"
