"""Random legal playouts of Ettin for 2-16 players, checked after every command.

Bots use only the pending decisions and ``legal_actions``. After every
command: every card is in exactly one zone and none is lost or made (cards
conserved), gold is never negative, no War takes more Spoils than its battles
allow, and every command on the legal list is accepted. Every game is audited
and rebuilt from its events alone (views, version and chain head equal).
CI plays 3 games per count and 2 of 16 players (the conformance suite plays
more), ``make soak`` 100 of each (``tests/soak.py``); ``ETTIN_QUICK=1`` plays
a few per count for a quick local check.
"""

from __future__ import annotations

import os
import random
from collections import Counter
from typing import Any

import pytest

from aggregates.ettin import Ettin
from aggregates.ettin import seating as sg
from aggregates.ettin import zones as zn
from aggregates.kernel import event_type, payload_of
from service.envelope import SPECTATOR, Reader, visible_payload
from tests.property.replay import assert_replays
from tests.soak import games

QUICK = bool(os.environ.get("ETTIN_QUICK"))
MAX_COMMANDS = 20000


def all_cards(game: Ettin) -> Counter[int]:
    return Counter(c for cards in game.zones.values() for c in cards)


def play(players: int, seed: int) -> tuple[Ettin, list[Any]]:
    rng = random.Random(seed)
    game = Ettin.start([f"p{i}" for i in range(players)], seed=f"{seed:064x}")
    events = list(game.collect_events())
    start = all_cards(game)
    assert all(n == 1 for n in start.values())
    spoils_this_war = allowed = 0
    for _ in range(MAX_COMMANDS):
        if game.ended:
            break
        seats = game.waiting_on()
        assert seats, f"stuck in {game.phase}"
        seat = rng.choice(seats)
        legal = game.legal_actions(seat)
        assert legal, f"seat {seat} waited on with nothing legal in {game.phase}"
        game.act(seat, rng.choice(legal))
        new = game.collect_events()
        events += new
        if game.phase == "spoils" and not allowed:  # the Spoils owed, as they begin
            owed = [task for w in game.work["pairs"] for task in w["tasks"]
                    if task[3] == "spoil"]
            # the Age number (a tie: one) plus Vicious, per battle and taker
            assert all(1 <= task[2] <= game.age + 4 for task in owed)
            allowed = sum(task[2] for task in owed)
        for ev in new:
            if event_type(ev) == "SpoilTaken":
                spoils_this_war += 1
            if event_type(ev) == "AgeEnded":
                assert spoils_this_war <= allowed
                spoils_this_war = allowed = 0
        assert all_cards(game) == start
        assert min(game.gold) >= 0
    assert game.ended, "the game did not end"
    return game, events


COUNTS = [2, 3, 4, 5, 6, 8]


@pytest.mark.heavy(25)
@pytest.mark.parametrize("players", COUNTS)
def test_random_playouts_end_and_replay(players: int) -> None:
    for n in range(2 if QUICK else games(ci=3, soak=100)):
        game, events = play(players, 1000 * players + n)
        assert game.outcome is not None and "teams" in game.outcome
        assert_replays(game, events)


@pytest.mark.heavy(25)
def test_sixteen_players_end_and_replay() -> None:
    for n in range(1 if QUICK else games(ci=2, soak=100)):
        game, events = play(16, 16000 + n)
        assert len(game.nations) == 16 and sg.boxes(16) == 2
        assert_replays(game, events)


PUBLIC = ("lineup:", "drafted:", "lost", "loc:", "adventure:", "won:")


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_no_hidden_card_reaches_an_enemy_or_a_spectator(players: int) -> None:
    """Through ``visible_payload``: a reader learns a card id from a move into a
    War Camp, a deployment or a Retired Pile only if the card's zone is its
    team's (its own, for a Retired Pile) or the card was public before (a
    lineup, the Lost Pile, a Location, the battle flip, Scouting). An Ally
    reads its partner's deployments."""
    game, events = play(players, 77 + players)
    seating = game.seating()
    public: set[int] = set()
    readers = [SPECTATOR, *(Reader(s) for s in range(players))]
    ally_reads = 0
    for ev in events:
        kind, payload = event_type(ev), payload_of(ev)
        if kind == "Scouted":
            public |= set(payload["cards"])
        if kind == "CardsFlipped":
            public |= {c for slots in payload["cards"].values()
                       for cards in slots.values() for c in cards}
        if "target" not in payload or "cards" not in payload:
            continue  # not a move of cards
        target = payload["target"]
        if target.startswith(PUBLIC):
            public |= set(payload["cards"])
            continue
        if not target.startswith(("camp:", "field:", "retired:", "deck:")):
            continue
        owner = seating.controller[int(target.split(":")[1])]
        allowed = {owner} if target.startswith("retired:") else set(seating.team_of(owner))
        for reader in readers:
            seen, _, _ = visible_payload(Ettin, ev, reader)
            cards = set(seen.get("cards", []))
            if reader.seat in allowed:
                if target.startswith("field:") and reader.seat != owner and cards:
                    ally_reads += 1
                continue
            assert cards <= public, (reader, kind, payload["source"], target)
    if players >= 4:
        assert ally_reads > 0


def test_views_hide_enemy_camps_and_show_the_allys() -> None:
    game = Ettin.start(["a", "b", "c", "d"], seed="7" * 64)
    rng = random.Random(3)
    while game.phase != "deploy" and not game.ended:
        seat = rng.choice(game.waiting_on())
        game.act(seat, rng.choice(game.legal_actions(seat)))
    # positions 0-1 are Allies, 1-2 Enemies
    ally_view = game.view(0)["zones"][zn.camp(1)]
    enemy_view = game.view(2)["zones"][zn.camp(1)]
    spectator = game.view(None)["zones"][zn.camp(1)]
    assert ally_view.get("cards") == game.zones[zn.camp(1)]
    assert "cards" not in enemy_view and "cards" not in spectator
    assert enemy_view["count"] == len(game.zones[zn.camp(1)])


def test_two_games_differing_in_a_face_down_deploy_read_the_same_to_the_enemy() -> None:
    """Differential: deploying one War Camp card or another at the same slot is
    the same story for the Enemy and a spectator, until the flip."""
    import copy

    from aggregates.ettin.commands import Deploy

    rng = random.Random(11)
    game = Ettin.start([f"p{i}" for i in range(4)], seed="b" * 64)
    while not (game.phase == "deploy" and any(
            game.due(p) == "deploy" and len(game.zones[zn.camp(p)]) >= 2 for p in range(4))):
        if game.ended:
            pytest.skip("no deploy with two cards in this game")
        seat = rng.choice(game.waiting_on())
        game.act(seat, rng.choice(game.legal_actions(seat)))
    game.collect_events()
    p = next(p for p in range(4)
             if game.due(p) == "deploy" and len(game.zones[zn.camp(p)]) >= 2)
    plain = [c for c in game.zones[zn.camp(p)] if not r_has_scouting(c)]
    if len(plain) < 2:
        pytest.skip("needs two cards without Scouting")
    twin = copy.deepcopy(game)
    game.act(p, Deploy(plain[0], 1, 0))
    twin.act(p, Deploy(plain[1], 1, 0))
    a, b = game.collect_events(), twin.collect_events()
    enemy = next(x for pair in game.pairs if p in pair for x in pair if x != p)
    for reader in (SPECTATOR, Reader(enemy)):
        seen_a = [(event_type(e), visible_payload(Ettin, e, reader)[0]) for e in a]
        seen_b = [(event_type(e), visible_payload(Ettin, e, reader)[0]) for e in b]
        assert seen_a == seen_b
    ally = p ^ 1
    assert visible_payload(Ettin, a[0], Reader(ally))[0]["cards"] == [plain[0]]


def r_has_scouting(card: int) -> bool:
    from aggregates.ettin import cards as cd

    return cd.has_keyword([card], "scouting")
