"""Raiding: raids declared, assigned, chosen and resolved."""

from __future__ import annotations

from aggregates.kernel import Game


class RaidDeclared(Game.Event):
    """The `raider` raids the `defender`'s `castles`."""

    castles: list[str]
    defender: int
    raider: int


class RaidUnitsAssigned(Game.Event):
    """The `seat` (`side`) assigns its `heroes` to the `castles` with face-down
    `stealth` cards (read by their owner; others read `stealth_count`)."""

    castles: list[str]
    heroes: list[str]
    seat: int
    side: str
    stealth: list[str]
    stealth_count: int


class RaidChosen(Game.Event):
    """The `seat` chooses the raid at the `castle` to resolve next; actions pass in
    this `order`."""

    castle: str
    order: list[int]
    seat: int


class SentHome(Game.Event):
    """The `hero` is sent home, its `stealth` card discarded."""

    hero: str
    stealth: str | None


class RaidResolved(Game.Event):
    """The raid at the `castle`: the `raider`'s total (`raider_total`: the
    `raiding_hero`'s stealth, `raider_stealth`'s fate `raider_fate`, `raider_bonus`)
    against the `defender`'s (`against`, by might or not: `against_might`;
    `defending_hero`, `defender_stealth`, `defender_fate`, `defender_bonus`); on
    `success`, `stolen` food."""

    against: int
    against_might: bool
    castle: str
    defender: int
    defender_bonus: int
    defender_fate: int
    defender_stealth: str | None
    defending_hero: str | None
    raider: int
    raider_bonus: int
    raider_fate: int
    raider_stealth: str | None
    raider_total: int
    raiding_hero: str | None
    stolen: int
    success: bool


class RaidEnded(Game.Event):
    """The `raider`'s raid on the `defender` ends."""

    defender: int
    raider: int
