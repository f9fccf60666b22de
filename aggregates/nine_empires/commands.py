"""Nine Empires commands: one per move, each a frozen dataclass.

Cards are instance ids (``i17``), the same ids the views show. Payments name
the cards that pay: ``gold_from`` the producers to bow, ``food_from`` one
castle per food token, ``glory_from`` the heroes paying a quest's Glory,
``discard`` the cards discarded for a cost. Targets are given in the order the
ability declares them.
"""

from __future__ import annotations

from aggregates.kernel import Command, CommandSet


class KeepHand(Command):
    """Setup: keep the opening hand."""


class Mulligan(Command):
    """Setup: discard the hand and two food tokens; draw a new hand."""

    food_from: tuple[str, ...]


class Pass(Command):
    """Pass the action (in a phase, a battle, a raid) or a React window."""


class PlayCard(Command):
    """Bring a hero, property or quest into play, or attach a cohort, item or spell."""

    card: str
    gold_from: tuple[str, ...] = ()
    food_from: tuple[str, ...] = ()
    attach_to: str = ""
    glory_from: tuple[str, ...] = ()


class UseAbility(Command):
    """Use an ability (a Summer, Autumn, Battle, Raid ability, or a React)."""

    source: str
    index: int = 0
    targets: tuple[str, ...] = ()
    gold_from: tuple[str, ...] = ()
    food_from: tuple[str, ...] = ()
    discard: tuple[str, ...] = ()


class DeclareAttack(Command):
    """Summer: attack another player (once per turn)."""

    defender: int


class CallAllies(Command):
    """Multiplayer: the attacker or the defender calls for allies (or not)."""

    call: bool


class ChooseAlly(Command):
    """Multiplayer: join a side that called for allies, or neither."""

    side: str


class AssignUnits(Command):
    """Assign unbowed heroes (with their units) to the defender's castles; a
    hero given ``home`` stays at home (so every hero may be named)."""

    heroes: tuple[str, ...] = ()
    castles: tuple[str, ...] = ()


class ChooseBattle(Command):
    """The attacker chooses the next battle (castle) to resolve."""

    castle: str


class Engage(Command):
    """Bow cards of one unit in the battle to engage them for damage."""

    cards: tuple[str, ...]


class ReturnHome(Command):
    """Bow your unbowed unit in the battle to return it home."""

    hero: str


class DeclareImmune(Command):
    """Declare cards of yours immune to the damage just engaged (the attacker and
    attacking allies against the defending side, defending allies against the
    attacking side; never the defender)."""

    cards: tuple[str, ...] = ()


class Absorb(Command):
    """Absorb damage with one card: a hero or cohort, ``food:<castle>``, or the
    castle; with a hero, optionally a discarded card for its Fate value."""

    card: str
    discard: str = ""


class DeclareRaid(Command):
    """Autumn: raid another player (once per turn)."""

    defender: int


class AssignRaid(Command):
    """Raider or defender: one unbowed hero per castle, each with a stealth card."""

    heroes: tuple[str, ...] = ()
    castles: tuple[str, ...] = ()
    stealth: tuple[str, ...] = ()


class ChooseRaid(Command):
    """The raider chooses the next raid (castle) to resolve."""

    castle: str


class Redistribute(Command):
    """Winter: the food each of your castles holds after redistributing (in order)."""

    food: tuple[int, ...]


class DiscardDown(Command):
    """Winter: discard down to your hand size."""

    cards: tuple[str, ...]


COMMANDS = CommandSet(
    KeepHand, Mulligan, Pass, PlayCard, UseAbility, DeclareAttack, ChooseAlly, AssignUnits,
    ChooseBattle, Engage, ReturnHome, DeclareImmune, Absorb, DeclareRaid, AssignRaid,
    ChooseRaid, DiscardDown, Redistribute, CallAllies,
)
