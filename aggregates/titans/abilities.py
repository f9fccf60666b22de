"""Nation Cards, the Nation Starting Ability and the Titan Special Ability as data.

Each is a record of the kernel's ability engine (``aggregates.kernel.abilities``):
one effect, and a condition in its one grammar over the Battle's facts as
the user sees them (``battle_facts``). This module gives each verb its rule
(``VERBS``, which the engine's ``interpret`` calls); a Battle verb decides
what the use brings and returns it, for the event recording the use to state:

- ``strength``: add ``amount`` to the Battle Strength;
- ``die``: take a ``die`` of that type from the reserve, roll it, add it to the pool;
- ``reroll_blanks``: re-roll every die of the pool showing no success;
- ``draw_support``: draw ``amount`` Support Cards from the Deck;
- ``hand_limit``: (always on, no verb to use) the Support Card Hand Limit is
  ``amount`` higher.

The facts (``data.WORDS``): ``role`` (attacker or defender), ``fortified``
(defending a Stronghold or an undamaged Capitol), ``outnumbered`` (fewer
units in the Battle than the opponent), and per side, under the filter words
``your`` and ``opposing``: ``army`` (the unit types in the Battle) and
``units`` (how many): "if your Infantry is in the Battle" is
``{"your": {"army": {"has": "infantry"}}}``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from aggregates.kernel.abilities import Ability, Step, Verb, holds, interpret
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


#: What a use states of the kinds its verb does not decide.
NOTHING: dict[str, Any] = {"strength": 0, "dice": [], "rerolled": [], "draw": 0, "pool": None}


def _side(game: State, context: Mapping[str, Any]) -> dict[str, Any]:
    assert game.battle is not None
    return game.battle["sides"][context["role"]]  # type: ignore[no-any-return]


def _strength(game: State, context: Mapping[str, Any], step: Step, who: list[str]
              ) -> dict[str, Any]:
    return {**NOTHING, "strength": int(step.params["amount"])}


def _die(game: State, context: Mapping[str, Any], step: Step, who: list[str]) -> dict[str, Any]:
    return {**NOTHING, "dice": [TABLES.dice.roll(step.params["die"], game.roll)]}


def _reroll_blanks(game: State, context: Mapping[str, Any], step: Step, who: list[str]
                   ) -> dict[str, Any]:
    pool = _side(game, context)["pool"]
    blanks = [i for i, d in enumerate(pool) if int(d["face"]) == 0]
    return {**NOTHING, "rerolled": blanks, "pool": TABLES.dice.reroll(pool, blanks, game.roll)}


def _draw_support(game: State, context: Mapping[str, Any], step: Step, who: list[str]
                  ) -> dict[str, Any]:
    """The Support Cards to draw (their own event follows the use's)."""
    return {**NOTHING, "draw": int(step.params["amount"])}


#: The verbs used in a Battle; each returns what the use states.
VERBS: dict[str, Verb] = {"strength": _strength, "die": _die,
                          "reroll_blanks": _reroll_blanks, "draw_support": _draw_support}
#: Whether a verb would do anything now: a die of its type left in the
#: reserve, a blank die to re-roll (the others always do).
POSSIBLE: dict[str, Callable[[Mapping[str, Any], Step], bool]] = {
    "die": lambda side, step: int(side["reserve"].get(step.params["die"], 0)) > 0,
    "reroll_blanks": lambda side, step: any(int(d["face"]) == 0 for d in side["pool"]),
}


def can_apply(battle: Mapping[str, Any], role: str, ability: Ability) -> bool:
    """Whether the ability's effect is used in a Battle and would do anything."""
    if ability.verb not in VERBS:
        return False
    possible = POSSIBLE.get(ability.verb)
    return possible is None or possible(battle["sides"][role], ability.steps[0])


def usable(battle: Mapping[str, Any], role: str, ability: Ability) -> bool:
    return met(battle, role, ability.condition) and can_apply(battle, role, ability)


def use(game: State, role: str, ability: Ability) -> dict[str, Any]:
    """Decide: what the ability brings now, by the engine's verbs, to be stated
    in the event recording its use: the Strength added, the dice rolled, the
    dice re-rolled (and the pool after), or how many Support Cards to draw."""
    (result,) = interpret(ability, VERBS, game, {"role": role})
    return result  # type: ignore[no-any-return]


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
