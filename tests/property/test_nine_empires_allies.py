"""Random legal playouts of Romance of the Nine Empires with allies, checking two
rules after every event (rulebook: Battles, Battle Action & Resolution; Key
Terms, Unit; and "your" in card text, docs/rulings.md).

- **Returning a unit home bows the whole unit**: "Bow your target unit to return
  it home", a unit being "a single hero along with all attached cohorts, items,
  and spells". After every ``ReturnedHome`` each card of the unit is bowed, and
  the event names every card it bowed.
- **"Your" is the card's controller**: a card's text that says "your" or "of
  yours" touches only its controller's cards, never an ally's. The oracle is
  independent of the filters: each card's Strength, Will and Carry must be what
  they are with every other player's "your"-worded cards taken out of play (the
  words are read from the designed text, not from its filter); every hero or
  cohort that absorbs damage absorbs that Strength (plus a discarded card's
  Fate), and every card declared immune has that Strength above the damage.

Played on the rules' own table (``testing.Table``) at 3 and 4 seats (2, 5 and 6
too under ``make soak``), the bots calling for allies and joining sides most of
the time, so that allied battles are frequent. Seeded: two games per count in
the suite, 100 under ``make soak``.
"""

from __future__ import annotations

import random
import re
from collections import defaultdict
from collections.abc import Mapping
from typing import Any

import pytest

from aggregates.kernel import Audience, Command
from aggregates.nine_empires import cards as t
from aggregates.nine_empires import frequency
from aggregates.nine_empires.cards import PLAY
from aggregates.nine_empires.commands import CallAllies, ChooseAlly
from aggregates.nine_empires.data import ALL, DECKS
from aggregates.nine_empires.state import EARLIER_RETURN_HERO, EARLIER_YOUR_SIDE
from aggregates.nine_empires.testing import Table, new_table
from tests import soak

GAMES = soak.games(2, 100)
TURN_CAP = 6
MAX_COMMANDS = 2500
#: Designed text that speaks of the player's own cards.
YOURS = re.compile(r"\b[Yy]our\b|\bof yours\b")
STATS = ("S", "W", "carry")


def _worded(abilities: tuple[Any, ...]) -> bool:
    return any(a.timing == "static" and YOURS.search(a.text) for a in abilities)


#: Cards whose always-on text (a completed quest's reward text) says "your".
YOURS_TEXT = frozenset(key for key, card in ALL.items() if _worded(card.abilities))
YOURS_REWARD = frozenset(key for key, card in ALL.items() if _worded(card.reward_abilities))


def _yours_worded(table: Table, iid: str) -> bool:
    """Whether a card in play has always-on text in the words of "your"."""
    inst = table.instances[iid]
    return inst["card"] in YOURS_TEXT or (inst["card"] in YOURS_REWARD
                                          and bool(inst["memory"].get("completed")))


def oracle(table: Table, iid: str, stat: str) -> int:
    """``iid``'s number with every other player's "your"-worded cards out of play."""
    seat = t.owner(table, iid)
    play = table.zones[PLAY]
    table.zones[PLAY] = [c for c in play if t.owner(table, c) == seat
                         or not _yours_worded(table, c)]
    try:
        return frequency.stat(table, iid, stat)
    finally:
        table.zones[PLAY] = play


class Checked(Table):
    """The rules' table, checking the two rules on every event it records."""

    def emit(self, event_name: str, *, audience: Audience | None = None,
             public: Mapping[str, Any] | None = None, **payload: Any) -> None:
        if event_name == "DamageAbsorbed" and payload["kind"] in ("hero", "cohort"):
            card = payload["card"]
            assert payload["absorbed"] - payload["fate"] == oracle(self, card, "S"), \
                f"{card} absorbs its own Strength, not an ally's 'your' bonus"
        if event_name == "ImmunityDeclared":
            damage = self.stack[-1]["damage"]
            for card in payload["cards"]:
                assert oracle(self, card, "S") > damage, \
                    f"{card} immune only by its own Strength above {damage}"
        unit = t.unit(self, payload["hero"]) if event_name == "ReturnedHome" else []
        straight = [c for c in unit if not t.bowed(self, c)]
        super().emit(event_name, audience=audience, public=public, **payload)
        if unit:
            assert all(t.bowed(self, c) for c in unit), f"the whole unit {unit} is bowed"
            assert payload["bowed"] == straight, "the event names every card it bowed"


def check_numbers(table: Table) -> None:
    """Every hero's and cohort's S, W and Carry as its controller's cards make
    them, while a battle or raid with allies is under way (with none, no
    player's cards are on another's side)."""
    if table.conflict is None or not table.conflict.get("allies"):
        return
    for iid in t.cards_in_play(table):
        if t.printed(table, iid).type in t.UNIT_TYPES:
            for stat in STATS:
                assert frequency.stat(table, iid, stat) == oracle(table, iid, stat), \
                    f"{stat} of {iid} counts another player's 'your' card"


def _pick(rng: random.Random, options: list[Command]) -> Command:
    """Allies most of the time (call, and join a side); else a name, then an instance."""
    calls = [o for o in options if isinstance(o, CallAllies) and o.call]
    sides = [o for o in options if isinstance(o, ChooseAlly) and o.side != "none"]
    if (calls or sides) and rng.random() < 0.85:
        return rng.choice(calls or sides)
    by_name: dict[str, list[Command]] = defaultdict(list)
    for o in options:
        by_name[o.NAME].append(o)
    return rng.choice(by_name[rng.choice(sorted(by_name))])


def play(seed: int, players: int, earlier: frozenset[str] = frozenset()) -> dict[str, int]:
    """One game checked after every command; how often each rule was at stake.
    ``earlier``: the rules of an earlier version to play by."""
    rng = random.Random(seed * 7 + players)
    decks = [rng.choice(sorted(DECKS)) for _ in range(players)]
    table = new_table(decks, seed=f"{seed:08x}{players:056x}")
    table.__class__ = Checked  # type: ignore[type-abstract]  # (as testing.blank)
    table.EARLIER = earlier
    for _ in range(MAX_COMMANDS):
        if table.over or table.turn > TURN_CAP:
            break
        seat, _ = rng.choice(table.pending())
        table.act(seat, _pick(rng, table.legal(seat)))
        check_numbers(table)
    return {name: len(table.named(name)) for name in ("AllyChosen", "ReturnedHome",
                                                      "DamageAbsorbed")}


@pytest.mark.heavy(2)
@pytest.mark.parametrize("seed", range(GAMES))
@pytest.mark.parametrize("players", soak.cases([3, 4], [2, 5, 6]))
def test_allied_battles_keep_your_to_its_controller_and_bow_whole_units(
        players: int, seed: int) -> None:
    """Battles (multiplayer notes) and Battle Action & Resolution, in random play."""
    seen = play(seed, players)
    if soak.SOAK:
        print(f"\nNE-ALLIES players={players} seed={seed} {seen}")
    else:  # the suite's seeds put both rules at stake: units home, allied battles
        assert seen["ReturnedHome"] > 0 and seen["AllyChosen"] > 0, seen


@pytest.mark.parametrize(("rule", "players", "seed"), [
    (EARLIER_RETURN_HERO, 3, 1), (EARLIER_YOUR_SIDE, 3, 0), (EARLIER_YOUR_SIDE, 4, 1)])
def test_the_checks_catch_rules_1_2_0(rule: str, players: int, seed: int) -> None:
    """The same playouts by 1.2.0's reading of each rule fail their check: the
    checks above can fail (rules 1.2.0 bowed a hero alone, and gave an ally's
    heroes the bonus of "your" text)."""
    with pytest.raises(AssertionError, match="whole unit" if rule == EARLIER_RETURN_HERO
                       else "another player's 'your'"):
        play(seed, players, frozenset({rule}))
