"""Random legal playouts of Romance of the Nine Empires, checked after every command.

Played through the aggregate, as the server plays it. Bots use only the legal
lists: they pick a seat the game waits on, then uniformly a legal command
name, then one of its instances. Decks are drawn at
random from the five. After every command: cards are conserved across deck,
hand, play, stealth, discard and buried (tokens made in play aside); food is
never negative; no castle holds more than its storage; every legal command is
accepted; no event as its reader gets it (and no view) names a card hidden
from that reader. Each game ends in a victory or reaches the turn cap; it passes the
kernel audit (chain, dice, re-execution) and rebuilds from its events into the
same views, version and chain head.

CI plays two games per player count; ``make soak`` (``ARBITER_SOAK=1``) 100, each
printing a ``NE-FIGURES`` line (its outcome, turns and events).
"""

from __future__ import annotations

import functools
import json
import random
import re
from collections import defaultdict
from typing import Any

import pytest

from aggregates.kernel import Command, payload_of
from aggregates.nine_empires import NineEmpires
from aggregates.nine_empires import cards as t
from aggregates.nine_empires.data import DECKS
from tests import soak
from tests.property.replay import assert_replays

GAMES_PER_COUNT = soak.games(2, 100)
TURN_CAP = 30
MAX_COMMANDS = 6000
VIEW_EVERY = 7


def _pick(rng: random.Random, options: list[Command]) -> Command:
    by_name: dict[str, list[Command]] = defaultdict(list)
    for o in options:
        by_name[o.NAME].append(o)
    return rng.choice(by_name[rng.choice(sorted(by_name))])


def _check(game: NineEmpires, cards: set[str]) -> None:
    placed = [i for z in game.zones.values() for i in z if not game.instances[i]["token"]]
    assert sorted(placed) == sorted(cards), "cards are conserved"
    for inst in game.instances.values():
        assert inst["food"] >= 0, "food is never negative"
        if inst["zone"] == "play" and t.printed(game, inst["id"]).type == "castle":
            assert inst["food"] <= t.printed(game, inst["id"]).storage, "castle over storage"


def _hidden_from(game: Any, reader: int | None) -> set[str]:
    """The cards ``reader`` may not see now: other seats' hands, every deck,
    other seats' stealth cards."""
    out: set[str] = set()
    for name, ids in game.zones.items():
        kind, _, owner = name.partition(":")
        if kind == "deck" or (kind == "hand" and str(reader) != owner):
            out.update(ids)
        if kind == "stealth":
            out.update(i for i in ids if game.instances[i]["owner"] != reader)
    return out


def _no_leak(shadow: Any, new: list[Any], game: NineEmpires, n: int,
             known: dict[int | None, set[str]]) -> Any:
    """No event, as each reader gets it, names a card hidden from that reader at
    the moment it is recorded (a shadow game replays the events one by one),
    unless the reader has seen that card's face before (a card played, then
    shuffled back into a deck, may be named again); every few commands, no view
    does either. Returns the shadow moved on."""
    for e in new:
        shadow = e.mutate(shadow)
        for reader in (None, *range(len(game.seats))):
            text = (json.dumps(e.meta["pub"]) if not _reads(e, reader)
                    else json.dumps(payload_of(e), default=str))
            named = set(re.findall(r'"(i[0-9]+)"', text))
            leaked = (named & _hidden_from(shadow, reader)) - known[reader]
            assert not leaked, f"seat {reader} reads hidden {sorted(leaked)} in " \
                               f"{type(e).__name__}"
            known[reader] |= named
    if n % VIEW_EVERY == 0:
        for reader in (None, *range(len(game.seats))):
            named = set(re.findall(r'"(i[0-9]+)"', json.dumps(game.view(reader))))
            assert not named & _hidden_from(game, reader), f"view of {reader} leaks"
    return shadow


def _reads(event: Any, reader: int | None) -> bool:
    aud = event.meta.get("aud")
    return aud is None or (reader is not None and reader in aud)


def play(seed: int, players: int) -> tuple[NineEmpires, list[Any]]:
    """One game through the aggregate, as the server plays it."""
    rng = random.Random(seed * 10 + players)
    decks = [rng.choice(sorted(DECKS)) for _ in range(players)]
    game = NineEmpires.start([f"p{i}" for i in range(players)], {"decks": decks},
                             seed=f"{seed:016x}{players:048x}")
    events = list(game.collect_events())
    shadow = functools.reduce(lambda agg, ev: ev.mutate(agg), events, None)
    known: dict[int | None, set[str]] = {r: set() for r in (None, *range(players))}
    cards = {i for i, inst in game.instances.items() if not inst["token"]}
    for n in range(MAX_COMMANDS):
        if game.ended or game.turn > TURN_CAP:
            break
        pending = game.pending()
        assert pending, "a game not over waits on someone"
        seat = rng.choice(sorted({d.seat for d in pending}))
        options = game.legal_actions(seat)
        assert options, "a seat asked has a legal command"
        game.act(seat, _pick(rng, options), f"cmd-{n}")
        new = list(game.collect_events())
        events.extend(new)
        _check(game, cards)
        shadow = _no_leak(shadow, new, game, n, known)
    assert game.ended or game.turn > TURN_CAP
    return game, events


@pytest.mark.heavy(15)
@pytest.mark.parametrize("seed", range(GAMES_PER_COUNT))
@pytest.mark.parametrize("players", [4, 3, 2])
def test_random_playouts_end_and_replay(players: int, seed: int) -> None:
    """One game per test, so a soak of many stays within each test's time limit."""
    game, events = play(seed, players)
    assert_replays(game, events)
    how = game.outcome["how"] if game.outcome else "turn cap"
    assert how in ("dominance", "popular", "conquest", "last standing", "turn cap")
    if soak.SOAK:  # the figures of make soak (docs/games/nine-empires.md)
        print(f"\nNE-FIGURES players={players} seed={seed} how={how} turn={game.turn} "
              f"events={len(events)}")


def test_the_tables_below_the_aggregate_replay_too() -> None:
    """The rules' own table (``testing.Table``) rebuilds from setup and events."""
    from aggregates.nine_empires.testing import new_table, replayed, snapshot

    rng = random.Random(5)
    table = new_table(["ixhasa", "displaced", "ord"], seed="5" * 64)
    for _ in range(400):
        if table.over:
            break
        seat, _ = rng.choice(table.pending())
        table.act(seat, _pick(rng, table.legal(seat)))
    assert snapshot(replayed(table)) == snapshot(table)
