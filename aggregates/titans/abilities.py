"""Nation Cards, the Nation Starting Ability and the Titan Special Ability as data.

Each is a record of the kernel's ability engine (``aggregates.kernel.abilities``):
one effect, and a condition in its one grammar over the Battle's facts as
the user sees them (``battle_facts``). This module gives each verb its rule:

- ``strength``: add ``amount`` to the Battle Strength;
- ``die``: take a ``die`` of that type from the reserve, roll it, add it to the pool;
- ``reroll_blanks``: re-roll every die of the pool showing no success;
- ``draw_support``: draw ``amount`` Support Cards from the Deck;
- ``hand_limit``: (always on) the Support Card Hand Limit is ``amount`` higher.

The facts (``data.WORDS``): ``role`` (attacker or defender), ``fortified``
(defending a Stronghold or an undamaged Capitol), ``outnumbered`` (fewer
units in the Battle than the opponent), and per side, under the filter words
``your`` and ``opposing``: ``army`` (the unit types in the Battle) and
``units`` (how many): "if your Infantry is in the Battle" is
``{"your": {"army": {"has": "infantry"}}}``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from aggregates.kernel.abilities import Ability, holds
from aggregates.titans.data import NATION_CARDS, NATIONS, TABLES
from aggregates.titans.state import State


def other(role: str) -> str:
    return "defender" if role == "attacker" else "attacker"


def army(side: Mapping[str, Any]) -> set[str]:
    """The unit types of a side's army in the Battle."""
    return {t["unit"] for t in side["troops"]}


def battle_facts(battle: Mapping[str, Any], role: str) -> dict[str, Any]:
    """What an ability's condition may ask of ``battle``, from ``role``'s side."""
    me, them = battle["sides"][role], battle["sides"][other(role)]
    return {"role": role, "fortified": role == "defender" and bool(battle["fortified"]),
            "outnumbered": len(me["troops"]) < len(them["troops"]),
            "your": {"army": army(me), "units": len(me["troops"])},
            "opposing": {"army": army(them), "units": len(them["troops"])}}


def met(battle: Mapping[str, Any], role: str, condition: Mapping[str, Any]) -> bool:
    """Whether an ability's (or a Support Card's) condition holds for ``role``
    in ``battle`` now."""
    return holds(condition, battle_facts(battle, role))


def effect_of(ability: Ability) -> dict[str, Any]:
    """The ability's one effect as its use records it: ``kind`` and parameters."""
    return {"kind": ability.verb, **ability.params}


def can_apply(battle: Mapping[str, Any], role: str, effect: Mapping[str, Any]) -> bool:
    """Whether the effect would do anything (a die left in the reserve, a blank to re-roll)."""
    side = battle["sides"][role]
    if effect["kind"] == "die":
        return int(side["reserve"].get(effect["die"], 0)) > 0
    if effect["kind"] == "reroll_blanks":
        return any(int(d["face"]) == 0 for d in side["pool"])
    return effect["kind"] in ("strength", "draw_support")


def usable(battle: Mapping[str, Any], role: str, ability: Ability) -> bool:
    return met(battle, role, ability.condition) and can_apply(battle, role, effect_of(ability))


def outcome(game: State, role: str, effect: Mapping[str, Any]) -> dict[str, Any]:
    """Decide: what the effect brings now, to be stated in the event recording its
    use: the Strength added, the dice rolled, the dice re-rolled (and the pool
    after), or how many Support Cards are to be drawn (their own event follows)."""
    assert game.battle is not None
    side = game.battle["sides"][role]
    kind = effect["kind"]
    if kind == "strength":
        return {"strength": int(effect["amount"]), "dice": [], "rerolled": [], "draw": 0,
                "pool": None}
    if kind == "die":
        return {"strength": 0, "dice": [TABLES.dice.roll(effect["die"], game.roll)],
                "rerolled": [], "draw": 0, "pool": None}
    if kind == "reroll_blanks":
        blanks = [i for i, d in enumerate(side["pool"]) if int(d["face"]) == 0]
        return {"strength": 0, "dice": [], "rerolled": blanks,
                "pool": TABLES.dice.reroll(side["pool"], blanks, game.roll), "draw": 0}
    if kind == "draw_support":
        return {"strength": 0, "dice": [], "rerolled": [], "draw": int(effect["amount"]),
                "pool": None}
    raise AssertionError(f"effect {kind} is not used in a Battle")


def always_on(game: State, seat: int, kind: str) -> list[int]:
    """The seat's always-on Nation Cards of an effect kind."""
    return [c for c in game.nation_cards[seat] if NATION_CARDS[c].timing == "always"
            and NATION_CARDS[c].ability.verb == kind]


def hand_limit(game: State, seat: int) -> int:
    """The Nation Board's Support Card Hand Limit, raised by always-on cards."""
    base = NATIONS[game.nations[seat]].hand_limit
    return base + sum(int(NATION_CARDS[c].ability.params["amount"])
                      for c in always_on(game, seat, "hand_limit"))


def passive_bonus(game: State, battle: Mapping[str, Any], role: str) -> tuple[int, list[int]]:
    """The always-on Nation Cards adding Strength whose requirement holds as the
    Battle begins: the bonus and the cards."""
    seat = battle["sides"][role]["seat"]
    cards = [c for c in always_on(game, seat, "strength")
             if met(battle, role, NATION_CARDS[c].ability.condition)]
    return sum(int(NATION_CARDS[c].ability.params["amount"]) for c in cards), cards
