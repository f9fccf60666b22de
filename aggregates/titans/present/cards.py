"""The cards and the map in the rulebook's words: Order, Support, Nation and
Objective Cards as faces, regions, units and Nations by name."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from aggregates.kernel.abilities import leaves
from aggregates.kernel.present import (
    Card,
    listing,
    plural,
)
from aggregates.titans.data import (
    BOARD,
    NATION_CARDS,
    NATIONS,
    OBJECTIVES,
    ORDERS,
    SUPPORTS,
    UNITS,
)
from aggregates.titans.state import State

ACTION_WORDS = {
    "move_infantry": "Move 1 Infantry", "move_cavalry": "Move 1 Cavalry",
    "move_artillery": "Move 1 Artillery", "move_titan": "Move the Titan",
    "move_any": "Move 1 Unit", "group_move": "Move 1-4 Units",
    "deploy_infantry": "Deploy 1 Infantry", "deploy_cavalry": "Deploy 1 Cavalry",
    "deploy_any": "Deploy 1 Unit", "purchase": "Purchase a Nation Card",
    "purchase_discount": "Purchase a Nation Card (1 cheaper)", "stronghold": "Build a Stronghold",
}


SUPPORT_WORDS = {"move_unit": "Move 1 Unit", "add_die": "Add a Die",
                 "add_strength": "Add Strength"}


def order_name(card: int) -> str:
    """An Order Card as players count it: the 16 cards from ``Order 1`` (its
    id, what a command names, counts from 0)."""
    return f"Order {card + 1}"


def orders_words(cards: Any) -> str:
    """Order Cards in a sentence: ``Orders 3, 9 and 14``."""
    names = [str(int(c) + 1) for c in cards or []]
    return ("Order " if len(names) == 1 else "Orders ") + listing(names) if names else "none"


def support_words(card: int) -> str:
    """A Support Card in words: its effect and what it needs (the same for
    every copy, so no id is shown)."""
    return f"{SUPPORT_WORDS[SUPPORTS[card].effect]} (needs {support_needs(card)})"


def support_needs(card: int) -> str:
    """What a Support Card needs in the Battle: ``your Infantry``, ``the
    opponent's Titan`` (its condition's one test, ``data.Support``)."""
    ((side, _army, want),) = leaves(SUPPORTS[card].condition)
    who = "your" if side == "your" else "the opponent's"
    return f"{who} {str(want['has']).capitalize()}"


def region_name(key: str | None) -> str:
    return BOARD.region(key).name if key is not None and key in BOARD.regions else str(key)


def units_words(units: Mapping[str, int]) -> str:
    return ", ".join(f"{n} {u.capitalize()}" for u in UNITS if (n := units.get(u, 0)))


def nation_of(game: State, seat: int | None) -> str:
    if seat is None or not 0 <= seat < len(game.nations):
        return ""
    return NATIONS[game.nations[seat]].name


#: Each Nation's colour on the pages (the rulebook gives its pieces none in
#: words; these are the renderer's, always drawn beside the Nation's name).
NATION_COLOURS = {"sweden": "blue", "russia": "red", "ottoman": "green", "poland": "purple"}


#: A unit type's letter in a region's few characters on the map ("2I 1C").
UNIT_LETTERS = {"infantry": "I", "cavalry": "C", "artillery": "A", "titan": "T"}


def nation_colour(game: State, seat: int | None) -> str:
    if seat is None or not 0 <= seat < len(game.nations):
        return ""
    return NATION_COLOURS.get(game.nations[seat], "")


def order_card(card: int) -> Card:
    players = ORDERS[card].players
    return Card(card, order_name(card), text="; ".join(ACTION_WORDS[a]
                                                      for a in ORDERS[card].actions),
                tag="" if players == "all" else f"{players} players")


def support_card(card: int) -> Card:
    return Card(card, SUPPORT_WORDS[SUPPORTS[card].effect], text=f"needs {support_needs(card)}",
                tag="Support")


def nation_card(card: int) -> Card:
    n = NATION_CARDS[card]
    effect = n.ability.params
    words = {"strength": f"+{effect.get('amount')} Strength",
             "die": f"add a {effect.get('die')} die",
             "reroll_blanks": "re-roll every blank die",
             "draw_support": f"draw {plural(effect.get('amount'), 'Support Card')}",
             "hand_limit": f"hand limit +{effect.get('amount')}"}[n.ability.verb]
    needs = ", ".join(REQUIREMENT_WORDS[(side, fact)](want)
                      for side, fact, want in leaves(n.ability.condition))
    timing = {"battle": "1 / Battle", "round": "1 / Round", "always": "always"}[n.timing]
    text = f"{timing}: {words}" + (f" (if {needs})" if needs else "")
    return Card(card, n.name, tag="X" if n.x else "", colour=NATION_COLOURS.get(n.nation, ""),
                colour_label=NATIONS[n.nation].name, stats=(("Cost", n.cost),), text=text)


#: A Nation Card's condition in words, by each test's side and fact
#: (``data.WORDS``; the tests of a condition are ``kernel.abilities.leaves``).
REQUIREMENT_WORDS: dict[tuple[str, str], Callable[[Any], str]] = {
    ("your", "army"): lambda t: f"your {str(t['has']).capitalize()} is in the Battle",
    ("opposing", "army"): lambda t: f"the opponent's {str(t['has']).capitalize()} is in "
                                    "the Battle",
    ("", "role"): lambda role: f"you are the {str(role).capitalize()}",
    ("", "fortified"): lambda _: "the Region has a Stronghold or Capitol",
    ("", "outnumbered"): lambda _: "you have fewer Units in the Battle",
    ("your", "units"): lambda t: f"you have at least {plural(t['min'], 'Unit')} in the Battle",
}


#: A Secret Objective's condition in words, by its kind (``objectives.met``).
OBJECTIVE_WORDS: dict[str, Callable[[Mapping[str, Any]], str]] = {
    "regions": lambda c: f"Control {plural(c['count'], 'Region')}",
    "named_regions": lambda c: "Control " + listing([region_name(r) for r in c["regions"]]),
    "units_on_map": lambda c: f"Have {plural(c['count'], 'Unit')} on the Main Board",
    "unit_type_on_map": lambda c: (f"Have {c['count']} {str(c['unit']).capitalize()} on the "
                                   "Main Board"),
    "strongholds": lambda c: f"Control {plural(c['count'], 'Stronghold')}",
    "battles_won": lambda c: f"Win {plural(c['count'], 'Battle')}",
    "enemy_capitol": lambda c: "Control another Nation's Capitol",
    "nation_cards": lambda c: f"Have {plural(c['count'], 'Nation Card')}",
    "support_hand": lambda c: f"Hold {plural(c['count'], 'Support Card')}",
    "armies": lambda c: f"Have {plural(c['count'], 'Army', 'Armies')} on the Main Board",
    "units_destroyed": lambda c: f"Destroy {plural(c['count'], 'enemy Unit')}",
    "titan_beside_enemy": lambda c: "Your Titan stands beside a Region another Nation controls",
    "army_size": lambda c: f"Have an Army of {plural(c['count'], 'Unit')}",
}


def objective_card(card: int) -> Card:
    o = OBJECTIVES[card]
    return Card(card, o.name, tag="Secret Objective", stats=(("VP", o.vp),),
                text=OBJECTIVE_WORDS[o.condition["kind"]](o.condition))


def tally(units: Any) -> dict[str, int]:
    """Unit types named one by one (``("infantry", "infantry")``) as counts."""
    out: dict[str, int] = {}
    for unit in units:
        out[unit] = out.get(unit, 0) + 1
    return out
