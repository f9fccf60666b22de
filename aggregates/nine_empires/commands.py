"""Nine Empires commands: one per move, each a frozen dataclass.

Cards are instance ids (``i17``), the same ids the views show. Payments name
the cards that pay: ``gold_from`` the producers to bow, ``food_from`` one
castle per food token, ``glory_from`` the heroes paying a quest's Glory,
``discard`` the cards discarded for a cost. Targets are given in the order the
ability declares them.
"""

from __future__ import annotations

import dataclasses

from aggregates.kernel import Command, CommandSet


@dataclasses.dataclass(frozen=True)
class KeepHand(Command):
    """Setup: keep the opening hand."""

    NAME = "keep_hand"


@dataclasses.dataclass(frozen=True)
class Mulligan(Command):
    """Setup: discard the hand and two food tokens; draw a new hand."""

    NAME = "mulligan"
    food_from: tuple[str, ...]


@dataclasses.dataclass(frozen=True)
class Pass(Command):
    """Pass the action (in a phase, a battle, a raid) or a React window."""

    NAME = "pass"


@dataclasses.dataclass(frozen=True)
class PlayCard(Command):
    """Bring a hero, property or quest into play, or attach a cohort, item or spell."""

    NAME = "play_card"
    card: str
    gold_from: tuple[str, ...] = ()
    food_from: tuple[str, ...] = ()
    attach_to: str = ""
    glory_from: tuple[str, ...] = ()


@dataclasses.dataclass(frozen=True)
class UseAbility(Command):
    """Use an ability (a Summer, Autumn, Battle, Raid ability, or a React)."""

    NAME = "use_ability"
    source: str
    index: int = 0
    targets: tuple[str, ...] = ()
    gold_from: tuple[str, ...] = ()
    food_from: tuple[str, ...] = ()
    discard: tuple[str, ...] = ()


@dataclasses.dataclass(frozen=True)
class DeclareAttack(Command):
    """Summer: attack another player (once per turn)."""

    NAME = "declare_attack"
    defender: int


@dataclasses.dataclass(frozen=True)
class CallAllies(Command):
    """Multiplayer: the attacker or the defender calls for allies (or not)."""

    NAME = "call_allies"
    call: bool


@dataclasses.dataclass(frozen=True)
class ChooseAlly(Command):
    """Multiplayer: join a side that called for allies, or neither."""

    NAME = "choose_ally"
    side: str


@dataclasses.dataclass(frozen=True)
class AssignUnits(Command):
    """Assign unbowed heroes (with their units) to the defender's castles; a
    hero given ``home`` stays at home (so every hero may be named)."""

    NAME = "assign_units"
    heroes: tuple[str, ...] = ()
    castles: tuple[str, ...] = ()


@dataclasses.dataclass(frozen=True)
class ChooseBattle(Command):
    """The attacker chooses the next battle (castle) to resolve."""

    NAME = "choose_battle"
    castle: str


@dataclasses.dataclass(frozen=True)
class Engage(Command):
    """Bow cards of one unit in the battle to engage them for damage."""

    NAME = "engage"
    cards: tuple[str, ...]


@dataclasses.dataclass(frozen=True)
class ReturnHome(Command):
    """Bow your unbowed unit in the battle to return it home."""

    NAME = "return_home"
    hero: str


@dataclasses.dataclass(frozen=True)
class DeclareImmune(Command):
    """Declare cards of yours immune to the damage just engaged (the attacker and
    attacking allies against the defending side, defending allies against the
    attacking side; never the defender)."""

    NAME = "declare_immune"
    cards: tuple[str, ...] = ()


@dataclasses.dataclass(frozen=True)
class Absorb(Command):
    """Absorb damage with one card: a hero or cohort, ``food:<castle>``, or the
    castle; with a hero, optionally a discarded card for its Fate value."""

    NAME = "absorb"
    card: str
    discard: str = ""


@dataclasses.dataclass(frozen=True)
class DeclareRaid(Command):
    """Autumn: raid another player (once per turn)."""

    NAME = "declare_raid"
    defender: int


@dataclasses.dataclass(frozen=True)
class AssignRaid(Command):
    """Raider or defender: one unbowed hero per castle, each with a stealth card."""

    NAME = "assign_raid"
    heroes: tuple[str, ...] = ()
    castles: tuple[str, ...] = ()
    stealth: tuple[str, ...] = ()


@dataclasses.dataclass(frozen=True)
class ChooseRaid(Command):
    """The raider chooses the next raid (castle) to resolve."""

    NAME = "choose_raid"
    castle: str


@dataclasses.dataclass(frozen=True)
class Redistribute(Command):
    """Winter: the food each of your castles holds after redistributing (in order)."""

    NAME = "redistribute"
    food: tuple[int, ...]


@dataclasses.dataclass(frozen=True)
class DiscardDown(Command):
    """Winter: discard down to your hand size."""

    NAME = "discard_down"
    cards: tuple[str, ...]


COMMANDS = CommandSet(
    KeepHand, Mulligan, Pass, PlayCard, UseAbility, DeclareAttack, ChooseAlly, AssignUnits,
    ChooseBattle, Engage, ReturnHome, DeclareImmune, Absorb, DeclareRaid, AssignRaid,
    ChooseRaid, DiscardDown, Redistribute, CallAllies,
)
