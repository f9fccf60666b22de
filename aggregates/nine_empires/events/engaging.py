"""Engaging and Damage: immunity, damage absorbed, castles buried, a battle and an attack ended."""

from __future__ import annotations

from aggregates.kernel import Game


class ImmunityStep(Game.Event):
    """The `seat` is to declare its immune cards against `damage` (recorded by
    rules 1.3.0 and before; 1.4.0 derives the step from the facts)."""

    damage: int
    seat: int


class AbsorbStep(Game.Event):
    """The `seat` is to absorb the engagement's `damage` (recorded by rules 1.3.0
    and before; 1.4.0 derives the step from the facts)."""

    damage: int
    seat: int


class ImmunityDeclared(Game.Event):
    """The `seat` declares these `cards` immune to the engagement."""

    cards: list[str]
    seat: int


class DamageAbsorbed(Game.Event):
    """The `seat`'s `card` absorbs `absorbed` damage by its `kind` (discarding
    `discard`, with `fate`), `remaining` left. With none left, or nothing left that
    must absorb it (only immune cards, or none), the engagement is over and what
    remains goes unabsorbed."""

    absorbed: int
    card: str
    discard: str | None
    fate: int
    kind: str
    remaining: int
    seat: int


class EngagementResolved(Game.Event):
    """The engagement by the `seat` is resolved, `wasted` damage left unabsorbed
    (recorded by rules 1.5.0 and before; 1.6.0 reads it from the fact that leaves
    nothing to absorb: what is left is the last DamageAbsorbed's `remaining`)."""

    seat: int
    wasted: int


class CastleBuried(Game.Event):
    """The `seat`'s `castle` (`key`) falls to the `attacker` and is buried."""

    attacker: int
    castle: str
    key: str
    seat: int


class BattleEnded(Game.Event):
    """The battle at the `castle` ends: the castle stands or not (`castle_stands`);
    the `attackers` and the defenders at home (`defenders_home`)."""

    attackers: list[str]
    castle: str
    castle_stands: bool
    defenders_home: list[str]


class AttackEnded(Game.Event):
    """The `attacker`'s attack on the `defender` ends."""

    attacker: int
    defender: int
