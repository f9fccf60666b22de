"""The one outcome shape (``kernel.outcome``): every game's recorded outcome
read into it, an alliance's win as a team's, ties grouped, the schema's
fields described."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

from jsonschema import Draft202012Validator

from aggregates.enin.game import Enin
from aggregates.ethnos import standing as ethnos
from aggregates.ettin import scoring as ettin
from aggregates.kernel.outcome import breakdown_of, default_standings, outcome_json, rank
from aggregates.kernel.record.schemas import OUTCOME as SCHEMA
from aggregates.nine_empires import victory
from aggregates.titans import scoring as titans

VALID = Draft202012Validator(SCHEMA)


def shared(game: Any, standings: Any) -> dict[str, Any]:
    """``outcome_json`` of a finished stand-in whose ``standings`` is the game's."""
    game.ended = True
    game.standings = lambda: standings(game)
    out = outcome_json(game)
    assert not list(VALID.iter_errors(out)), out
    assert breakdown_of(out) == (getattr(game, "outcome", None) or game.result)
    return out


def test_every_schema_field_is_described() -> None:
    assert all(field.get("description") for field in SCHEMA["properties"].values())
    assert outcome_json(SimpleNamespace(ended=False)) == {}


def test_rank_groups_ties_best_first() -> None:
    assert rank(4, lambda s: [3, 5, 3, 1][s]) == ((1,), (0, 2), (3,))


def test_an_alliance_wins_as_a_team() -> None:
    recorded = {"result": "x", "scores": [5, 9, 4, 8], "winner_team": 1, "winners": [1, 3],
                "teams": [{"team": "A", "seats": [0, 2], "score": 9, "gold": 1},
                          {"team": "B", "seats": [1, 3], "score": 17, "gold": 0}]}
    out = shared(SimpleNamespace(outcome=recorded, seats=["a"] * 4), ettin.standings)
    assert out["winning_team"] == [1, 3] and out["winners"] == [1, 3]
    assert out["ranking"] == [[1, 3], [0, 2]] and out["scores"] == [5, 9, 4, 8]
    assert out["summary"] == "The team of Player 2 and Player 4 wins with 17 VP."


def test_tied_teams_share_and_two_players_are_not_a_team() -> None:
    recorded = {"scores": [7, 7], "winner_team": None, "winners": [0, 1],
                "teams": [{"seats": [0], "score": 7, "gold": 2},
                          {"seats": [1], "score": 7, "gold": 2}]}
    out = shared(SimpleNamespace(outcome=recorded, seats=["a", "b"]), ettin.standings)
    assert out["winning_team"] is None and out["ranking"] == [[0, 1]]
    assert out["summary"] == "Player 1 and Player 2 share the victory with 7 VP."


def test_ethnos_ranks_by_its_tie_breaks() -> None:
    recorded = {"result": "finished", "winners": [2], "glory": [40, 58, 58],
                "markers": [1, 2, 3], "last_age_bands": [[2], [3], [3]]}
    out = shared(SimpleNamespace(outcome=recorded, glory=[40, 58, 58]), ethnos.standings)
    assert out["winners"] == [2] and out["ranking"] == [[2], [1], [0]]
    assert out["summary"] == "Player 3 wins with 58 Glory."


def test_titans_nine_empires_and_enin() -> None:
    recorded = {"winner": 1, "ranking": [1, 0], "vp": [3, 9]}
    out = shared(SimpleNamespace(outcome=recorded), titans.standings)
    assert out["ranking"] == [[1], [0]] and out["summary"] == "Player 2 wins with 9 VP."
    won = {"result": "seat 2 wins by a Conquest Victory", "winner": 2, "how": "conquest",
           "winners": [2]}
    out = shared(SimpleNamespace(result=won, seats=["a"] * 3, renown=[10, 4, 20]),
                 victory.standings)
    assert out["ranking"] == [[2], [0, 1]] and out["scores"] == [10, 4, 20]
    assert out["summary"] == "Player 3 wins by a Conquest Victory."
    lost = {"result": "lost", "reason": "HP fell to 0", "turns": 9}
    out = shared(SimpleNamespace(outcome=lost), Enin.standings)
    assert out["winners"] == [] and out["scores"] == [None]
    assert out["summary"] == "Player 1's HP fall to 0 on turn 9: the quest is lost."


def test_a_game_without_standings_reads_its_recorded_winners() -> None:
    out = default_standings({"winners": [1], "note": "x"}, 3).to_json()
    assert out["ranking"] == [[1], [0, 2]] and out["summary"] == "Player 2 wins."
    assert not list(VALID.iter_errors(out))
