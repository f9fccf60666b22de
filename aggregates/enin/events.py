"""The Land of Enin's events: each a fact of the rulebook, one immutable class
whose typed fields are the whole payload (``aggregates.kernel.facts``).

The rules modules decide (roll, check, choose) and record these with
``state.emit("Name", **facts)``; ``apply.py`` changes the state from each.
The JSON schemas of ``schemas.json``'s events and the event table of
docs/games/enin.md are generated from these classes (``make schemas``), each
class's docstring being what the event states.

The vocabulary is uniform: a track's change is stated as the rule's
``amount`` (or ``price``, ``penalty``, ``damage``) and the track after it
(``hp``, ``luck``, ``xp``, ``gold``, the Character Card's caps applied); dice
are stated ``rolled`` (as they fell) and ``dice`` (as they count, luck
included). A fact typed ``X | None`` is null in an event recorded before the
rules recorded it (``upcasts.py``), or where the rules say nothing is there.
"""

from __future__ import annotations

from typing import Literal, TypedDict

from aggregates.kernel import Game


class Setup(TypedDict):
    """The setup rolled: 1D6+4 HP and 1D6 luck, the dice and the totals."""

    hp_dice: list[int]
    hp: int
    luck_dice: list[int]
    luck: int


class Outcome(TypedDict):
    """How the quest ended (the Ended event's ``outcome``)."""

    result: Literal["won", "lost"]
    reason: str
    turns: int


class MonsterLine(TypedDict):
    """A monster's printed line, as the Encounter Card gives it."""

    name: str
    att: int
    dam: str
    flee: int
    xp: str
    treasure: int
    poisons: bool


# ------------------------------------------------------------------ Travel Phase


class StartRolled(Game.Event):
    """The start table is rolled on turn 1: the `roll` and the `location` reached."""

    roll: int
    location: int


class Travelled(Game.Event):
    """The hero travels `to` a Location Card."""

    to: int


# ---------------------------------------------------------------- Questing Phase


class QuestRolled(Game.Event):
    """The location chart is rolled: the `roll` and the `action` of its row."""

    roll: int
    action: str


class Rested(Game.Event):
    """The hero rests: the `amount` of HP the row gives, `hp` after."""

    hp: int
    amount: int | None


class Robbed(Game.Event):
    """Bandits steal gold: the `dice`, the `amount` stolen (their total), `gold` after
    (floor 0)."""

    dice: list[int]
    amount: int
    gold: int


class TrapSprung(Game.Event):
    """A trap is rolled: the `roll` and the `trap`; `takeable`, the magic items the Imp
    may take (empty: it takes nothing; other traps: empty)."""

    roll: int
    trap: str
    takeable: list[str] | None


class Poisoned(Game.Event):
    """The Poisoned box is marked."""


class Wounded(Game.Event):
    """The hero loses an `amount` of HP: `hp` after."""

    amount: int
    hp: int


class ImpStruck(Game.Event):
    """The Imp waits on the choice of the item it takes (its candidates: the trap's
    `takeable`). Recorded by rules 1.0.0 only: it is the engine's progress, which
    rules 1.1.0 read from the `TrapSprung` before it."""


class ItemLost(Game.Event):
    """The Imp takes the magic `item`."""

    item: str


# ------------------------------------------------------------------------ Combat


class MonsterMet(Game.Event):
    """A monster is met: the Encounter `card`, the `level` band, the `roll` (null for
    the Dragon) and the `monster`'s printed line."""

    card: str
    level: int
    roll: int | None
    monster: MonsterLine


class AttackRolled(Game.Event):
    """The hero attacks: the 2D10 `dice` as rolled (no luck on them yet)."""

    dice: list[int]


class LuckSpent(Game.Event):
    """Luck is put on a die: the `die`, the `amount` (+/-), `luck` after."""

    die: int
    amount: int
    luck: int


class Rerolled(Game.Event):
    """The Shield of Nines re-rolls a `die`: its new `value` (its luck cleared)."""

    die: int
    value: int


class Exchange(Game.Event):
    """The facts of every exchange of blows (not an event of its own)."""

    rolled: list[int] | None
    dice: list[int]
    modifier: int
    total: int
    att: int
    strength_bonus: int


class ExchangeWon(Exchange):
    """The attack beats ATT: the dice `rolled` and as counted (`dice`), the
    `modifier`, the `total`, the monster's `att`, the `strength_bonus` after (the
    potion of strength spent)."""


class ExchangeLost(Exchange):
    """The attack misses ATT: as an exchange won, and the `damage_dice`, the `damage`
    taken, `hp` after."""

    damage_dice: list[int]
    damage: int
    hp: int


class Fled(Game.Event):
    """The hero flees: the `penalty` paid in HP, `hp` after."""

    penalty: int
    hp: int


class XpRolled(Game.Event):
    """The lone D10 XP die is rolled: its `value` as rolled (luck and the Shield may
    follow)."""

    value: int


class XpGained(Game.Event):
    """XP for the monster: the dice `rolled` and as counted (`dice`), the `amount`,
    `xp` after."""

    rolled: list[int]
    dice: list[int]
    amount: int
    xp: int


class LevelGained(Game.Event):
    """The hero reaches a new `level`: the `hp_gained`, `hp` after."""

    level: int
    hp: int
    hp_gained: int


class EncounterEnded(Game.Event):
    """The monster leaves the table."""


# ---------------------------------------------------------------------- Treasure


class TreasureRolled(Game.Event):
    """A treasure roll: the `roll`, the `find`, the rolls `left`; `choices`, the magic
    items a magic find offers, one to be chosen next (empty: all four held; a gold
    find: empty)."""

    roll: int
    find: str
    left: int
    choices: list[str] | None


class GoldFound(Game.Event):
    """Gold is found: the `dice`, the `amount`, `gold` after."""

    dice: list[int]
    amount: int
    gold: int


class MagicItemFound(Game.Event):
    """A magic item is found: the `choices` to pick from. Recorded by rules 1.0.0
    and 1.1.0 only: rules 1.2.0 enter the choice by the `TreasureRolled` that
    finds it, which names the same `choices`."""

    choices: list[str]


class MagicItemChosen(Game.Event):
    """The hero takes the magic `item`: the `hp_gained` and `luck_gained` it gives once
    (the Helm, the Ring), `hp` and `luck` after."""

    item: str
    hp: int
    luck: int
    hp_gained: int
    luck_gained: int


# -------------------------------------------------------------------- Nigh Towns


class ItemBought(Game.Event):
    """An `item` is bought at the market: the `price`, `gold` after, and whether it
    `gains_map` (the Map of Enin is now held)."""

    item: str
    price: int
    gold: int
    gains_map: bool


class Healed(Game.Event):
    """The potion of healing: the `amount` of HP, `hp` after."""

    hp: int
    amount: int


class PoisonCured(Game.Event):
    """The Poisoned box is cleared."""


class Strengthened(Game.Event):
    """The potion of strength: the `amount`, the attack `bonus` after."""

    bonus: int
    amount: int


class LuckGained(Game.Event):
    """The potion of fate: the `amount` of luck, `luck` after."""

    luck: int
    amount: int


class TownLeft(Game.Event):
    """The Nigh Towns are left without a purchase."""


# ------------------------------------------------------------------- Quest items


class QuestAttemptOffered(Game.Event):
    """The quest for the `item` may be tried for here. Recorded by rules 1.0.0 only:
    it is the engine's progress, which rules 1.1.0 read from the action's last fact,
    the location and the quest items held."""

    item: str


class QuestAttempted(Game.Event):
    """The quest for the `item` is tried: the `roll`, the `low`-`high` needed, and its
    `success`."""

    item: str
    roll: int
    low: int
    high: int
    success: bool


class QuestItemGained(Game.Event):
    """The quest `item` is gained (the Lost Book wins: the Ended event states the
    outcome)."""

    item: str


class TurnEnded(Game.Event):
    """The turn ends: the new `turn`'s number."""

    turn: int


#: Every event of the game, in rulebook order (the game's ``EVENTS``).
EVENTS: tuple[type[Game.Event], ...] = (
    StartRolled, Travelled, QuestRolled, Rested, Robbed, TrapSprung, Poisoned, Wounded,
    ImpStruck, ItemLost, MonsterMet, AttackRolled, LuckSpent, Rerolled, ExchangeWon,
    ExchangeLost, Fled, XpRolled, XpGained, LevelGained, EncounterEnded, TreasureRolled,
    GoldFound, MagicItemFound, MagicItemChosen, ItemBought, Healed, PoisonCured,
    Strengthened, LuckGained, TownLeft, QuestAttemptOffered, QuestAttempted,
    QuestItemGained, TurnEnded,
)
