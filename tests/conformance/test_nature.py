"""Each game declares its nature once (``GAME_TYPE``, as OpenSpiel's
``_GAME_TYPE``), and the declaration matches what the game does.

- declared on the class itself, a ``GameType`` whose player counts are the
  class's ``MIN_SEATS``/``MAX_SEATS``, served as is by ``metadata()`` (its
  ``dynamics`` entry too) and by ``ListRules`` (``RulesInfo.game_type``);
  a table one seat short or one seat over is refused as BAD_SEATS;
- chance: a game declared deterministic never draws a die (nor shuffles: a
  shuffle is dice); one declared explicit draws, every draw recorded;
- information: imperfect exactly when some event of the games played is read
  by some seats only (the creation event, which hides the seed from everyone
  until the end, aside) or some decision is a hidden one;
- dynamics: sequential games never ask two seats at once; simultaneous ones
  ask several seats at once at most moves; mixed ones at some moves, at most
  half (measured over every game played of the class);
- utility: a zero-sum or constant-sum game's outcome scores add up to the same
  total in every game, an identical-utility game's scores are all equal, and a
  game declared general-sum shows some two games whose score totals differ
  (else it would be constant-sum). Games whose outcome has no ``scores`` list
  are only checked for an outcome;
- reward model: a terminal-reward game has an outcome only once over.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from aggregates.kernel import Audience, Game, Reason, RuleError, event_type
from aggregates.kernel.nature import (
    Chance,
    Dynamics,
    GameType,
    Information,
    RewardModel,
    Utility,
    game_type_of,
)
from tests.conformance import tables as t

GAMES = t.GAMES


def records(cls: type[Game]) -> list[t.Played]:
    return [r for table in t.tables() if table[0] is cls for r in t.games_of(table)]


@pytest.mark.parametrize("cls", GAMES, ids=t.rules_id)
def test_the_nature_is_declared_once_and_served(cls: type[Game]) -> None:
    declared = cls.__dict__.get("GAME_TYPE")
    assert isinstance(declared, GameType), f"{cls.__name__} declares no GAME_TYPE of its own"
    assert "DYNAMICS" not in cls.__dict__, "DYNAMICS is read from GAME_TYPE now"
    assert (declared.min_players, declared.max_players) == (cls.MIN_SEATS, cls.MAX_SEATS)
    assert game_type_of(cls) is declared
    meta = cls.metadata()
    assert meta["game_type"] == declared.to_json()
    assert meta["dynamics"] == str(declared.dynamics)
    assert GameType.of(**{k: v for k, v in declared.to_json().items()
                          if k not in ("min_players", "max_players")},
                       players=(declared.min_players, declared.max_players)) == declared


def test_list_rules_serves_each_games_nature() -> None:
    from arbiter.v1 import game_pb2
    from google.protobuf.json_format import MessageToDict

    from aggregates.catalog import GAMES as SERVED_NOW
    from service.auth import Credentials
    from service.servicer import GameServicer, rules_catalogue

    # ListRules reads the catalogue and the server's public signing keys only.
    servicer = GameServicer.__new__(GameServicer)
    servicer.credentials = Credentials(b"k" * 32, "")
    servicer.catalogue = rules_catalogue()
    reply = servicer.ListRules(game_pb2.ListRulesRequest(), None)
    served = {info.id: info for info in reply.rules}
    assert set(served) == set(SERVED_NOW)
    for rules, cls in SERVED_NOW.items():
        info = served[rules]
        expected = game_type_of(cls).to_json()
        assert MessageToDict(info.game_type, preserving_proto_field_name=True,
                             always_print_fields_with_no_presence=True) == expected
        assert info.dynamics == expected["dynamics"]


@pytest.mark.parametrize("cls", GAMES, ids=t.rules_id)
def test_player_counts_are_as_declared(cls: type[Game]) -> None:
    nature = game_type_of(cls)
    for players in (nature.min_players - 1, nature.max_players + 1):
        if players < 1:
            continue
        with pytest.raises(RuleError) as refused:
            t.start(cls, players, "ab" * 32)
        assert refused.value.reason == Reason.BAD_SEATS
    played = {r.players for r in records(cls)}
    assert {nature.min_players, nature.max_players} <= played


@pytest.mark.parametrize("cls", GAMES, ids=t.rules_id)
def test_chance_is_as_declared(cls: type[Game]) -> None:
    draws = sum(len(ev.meta.get("draws", [])) for r in records(cls) for ev in r.events)
    if game_type_of(cls).chance is Chance.DETERMINISTIC:
        assert draws == 0, f"{cls.RULES_ID} is declared deterministic but drew {draws} dice"
    else:
        assert draws > 0, f"{cls.RULES_ID} is declared to have chance but never drew a die"


def restricted(record: t.Played) -> int:
    """Events some seats may not read (the creation event aside: its seed is
    everyone's secret until the end, in every game)."""
    return sum(1 for ev in record.events if event_type(ev) != "Created"
               and not Audience.from_meta(ev.meta.get("aud")).everyone)


@pytest.mark.parametrize("cls", GAMES, ids=t.rules_id)
def test_information_is_as_declared(cls: type[Game]) -> None:
    hidden = sum(restricted(r) for r in records(cls))
    hidden_decisions = sum(r.hidden for r in records(cls))
    if game_type_of(cls).information is Information.PERFECT:
        assert hidden == 0 and hidden_decisions == 0, (
            f"{cls.RULES_ID} is declared perfect-information but {hidden} events were "
            f"read by some seats only and {hidden_decisions} decisions were hidden")
    else:
        assert hidden > 0, (f"{cls.RULES_ID} is declared imperfect-information but every "
                            "event was read by every seat")


@pytest.mark.parametrize("cls", GAMES, ids=t.rules_id)
def test_dynamics_are_as_declared(cls: type[Game]) -> None:
    played = [r for r in records(cls) if r.players > 1]
    together = sum(r.simultaneous for r in played)
    moves = sum(r.simultaneous + r.alone for r in played)
    dynamics = game_type_of(cls).dynamics
    share = f"{together} of {moves} moves made while several seats were asked"
    if dynamics is Dynamics.SEQUENTIAL:
        assert together == 0, f"{cls.RULES_ID} is declared sequential: {share}"
    elif dynamics is Dynamics.SIMULTANEOUS:
        assert 2 * together > moves, f"{cls.RULES_ID} is declared simultaneous: {share}"
    else:
        assert 0 < 2 * together <= moves, f"{cls.RULES_ID} is declared mixed: {share}"


def scores(outcome: dict[str, Any]) -> list[float] | None:
    found = outcome.get("scores")
    return [float(s) for s in found] if isinstance(found, list) else None


@pytest.mark.parametrize("cls", GAMES, ids=t.rules_id)
def test_utility_and_reward_model_are_as_declared(cls: type[Game]) -> None:
    nature = game_type_of(cls)
    outcomes = [r.game.outcome for r in records(cls)]
    assert all(isinstance(o, dict) and o for o in outcomes)
    totals = {sum(s) for o in outcomes if o and (s := scores(o)) is not None}
    listed = [s for o in outcomes if o and (s := scores(o)) is not None]
    if nature.utility in (Utility.ZERO_SUM, Utility.CONSTANT_SUM):
        assert len(totals) <= 1, f"{cls.RULES_ID} score totals {sorted(totals)}"
        if nature.utility is Utility.ZERO_SUM:
            assert totals <= {0.0}
    elif nature.utility is Utility.IDENTICAL:
        assert all(len(set(s)) <= 1 for s in listed)
    elif listed:
        assert len(totals) > 1, f"{cls.RULES_ID}: every game's scores add up to {totals}"
    if nature.reward_model is RewardModel.TERMINAL:
        for record in records(cls)[:2]:
            for index, game in t.states(record, picked=t.sample(len(record.moves), 8,
                                                                 random.Random(0))):
                over = index == len(record.moves)
                assert (game.outcome is not None) == over, (record.name, index)
