"""Random legal playouts of Ethnos, checked after every command.

Bots use only ``legal_actions``: they pick a seat the game waits on, then
uniformly a legal command *name*, then one of that name's arguments. After
every command: cards are conserved across deck, row (face-up cards and
discards), hands, bands and revealed Dragons; the hand limit holds; every
Control marker came from a legal band (or a Merfolk space); Glory never falls.
Every game is audited and rebuilt from its events alone.
"""

from __future__ import annotations

import copy
import dataclasses
import random
from typing import Any

import pytest

from aggregates.ethnos import Ethnos
from aggregates.ethnos.commands import (
    COMMANDS,
    ChooseKingdom,
    KeepCards,
    PlayBand,
    RecruitFaceUp,
    ScoreOrcHorde,
    TakeTrollToken,
)
from aggregates.ethnos.data import CARDS, TABLES
from aggregates.ethnos.testing import all_cards
from aggregates.kernel import Command, event_type, payload_of
from tests.property.replay import assert_replays
from tests.soak import games

#: Games per player count: enough in CI to reach every tribe's rules (the
#: conformance suite plays more), 100 under ``make soak``.
GAMES_PER_COUNT = games(ci=10, soak=100)
MAX_COMMANDS = 5000


def check_markers(
    game: Ethnos, before: dict[str, list[int]], events: list[Any], band: dict[str, Any] | None
) -> dict[str, Any] | None:
    """Every marker placed follows from a legal band (or a Merfolk space).

    ``band`` is the last band played (a follow-up decision may place its marker);
    the band context after these events is returned."""
    players = len(game.seats)
    running = copy.deepcopy(before)
    for ev in events:
        name, p = event_type(ev), payload_of(ev)
        if name == "BandPlayed":
            band = p
        elif name == "MarkerPlaced":
            assert band is not None and band["seat"] == p["seat"]
            leader = CARDS[band["leader"]]
            kingdom, seat = p["kingdom"], p["seat"]
            there = sum(running[kingdom]) if players == 2 else running[kingdom][seat]
            if p["source"] == "band":
                assert leader.tribe not in ("halflings", "wingfolk")
                assert leader.colour is not None and kingdom == TABLES.kingdom_of(leader.colour)
                assert there < band["size"] + (1 if leader.tribe == "minotaurs" else 0)
            elif p["source"] == "wingfolk":
                assert leader.tribe == "wingfolk" and there < band["size"]
            else:
                assert p["source"] == "merfolk" and leader.tribe == "merfolk"
            running[kingdom][seat] += 1
    assert running == game.markers
    return band


def check_invariants(
    game: Ethnos, full: list[int], glory_before: list[int]
) -> dict[int, list[Command]]:
    """The invariants; returns the legal actions of every seat the game waits on."""
    assert all_cards(game) == full
    for hand in game.hands:
        assert len(hand) <= TABLES.hand_limit or sum(CARDS[c].skeleton for c in hand) >= 10
    assert all(a >= b for a, b in zip(game.glory, glory_before, strict=True))
    assert len(game.dragons) <= 3
    assert game.ended or game.orc_pending or len(game.dragons) < 3
    assert sum(len(t) for t in game.troll_tokens) + len(game.trolls_free) == (
        6 if "trolls" in game.tribes else 0)
    seats = range(len(game.seats))
    if game.ended:
        assert game.pending() == [] and all(game.legal_actions(s) == [] for s in seats)
        assert game.outcome is not None and game.outcome["winners"]
        return {}
    waiting = {d.seat for d in game.pending()}
    assert waiting
    legal = {seat: game.legal_actions(seat) for seat in waiting}
    assert all(legal.values())
    assert all(game.legal_actions(s) == [] for s in seats if s not in waiting)
    return legal


def playout(seed: int, players: int) -> tuple[Ethnos, list[Any]]:
    bot = random.Random(seed)
    game = Ethnos.start([f"p{i}" for i in range(players)], seed=f"{seed * 7 + players:064x}")
    events = list(game.collect_events())
    full = sorted(TABLES.allies(game.tribes) + TABLES.dragons())
    band: dict[str, Any] | None = None
    legal = {d.seat: game.legal_actions(d.seat) for d in game.pending()}
    for n in range(MAX_COMMANDS):
        if game.ended:
            break
        seat = bot.choice(sorted(legal))
        actions = legal[seat]
        name = bot.choice(sorted({a.NAME for a in actions}))
        command = bot.choice([a for a in actions if name == a.NAME])
        markers = {k: list(v) for k, v in game.markers.items()}
        glory = list(game.glory)
        game.act(seat, command, f"cmd-{n}")
        new = game.collect_events()
        events.extend(new)
        band = check_markers(game, markers, new, band)
        legal = check_invariants(game, full, glory)
    return game, events


def replay_matches(game: Ethnos, events: list[Any]) -> None:
    assert_replays(game, events)


@pytest.mark.heavy(60)
@pytest.mark.parametrize("players", [6, 5, 4, 3, 2])  # the longest first
def test_random_playouts_end_and_replay(players: int) -> None:
    ages = TABLES.ages["2-3" if players <= 3 else "4-6"]
    tribes_seen: set[str] = set()
    for seed in range(GAMES_PER_COUNT):
        game, events = playout(seed, players)
        assert game.ended, f"seed {seed} did not end in {MAX_COMMANDS} commands"
        assert game.age == ages
        tribes_seen.update(game.tribes)
        replay_matches(game, events)
    assert tribes_seen == set(TABLES.tribe_names)


def junk_commands(bot: random.Random, game: Ethnos, seat: int) -> list[Command]:
    hand = game.hands[seat]
    any_card = bot.randrange(len(CARDS) + 3) - 1
    cards = tuple(bot.sample(hand, min(len(hand), bot.randint(0, 3))))
    return [
        RecruitFaceUp(card=any_card),
        PlayBand(cards=cards, leader=cards[0] if cards else any_card),
        PlayBand(cards=(*cards, any_card), leader=any_card),
        ChooseKingdom(kingdom=bot.choice([*TABLES.kingdom_keys, "atlantis"])),
        TakeTrollToken(value=bot.randint(0, 8)),
        KeepCards(cards=cards),
        ScoreOrcHorde(score=bot.random() < 0.5),
        *(cls() for cls in COMMANDS.by_name.values() if not dataclasses.fields(cls)),
    ]


def normal(command: Command) -> Command:
    """Card lists are accepted in any order; the legal list has them sorted."""
    if isinstance(command, PlayBand):
        return PlayBand(cards=tuple(sorted(command.cards)), leader=command.leader)
    if isinstance(command, KeepCards):
        return KeepCards(cards=tuple(sorted(command.cards)))
    return command
