"""Declare Attack (allies called and chosen, units assigned) and Battle Action & Resolution."""

from __future__ import annotations

from aggregates.kernel import Game


class BattleDeclared(Game.Event):
    """The `attacker` attacks the `defender`'s `castles`; the players `allies_asked`
    may be called as allies."""

    allies_asked: list[int]
    attacker: int
    castles: list[str]
    defender: int


class AlliesCalled(Game.Event):
    """The `seat` (attacker or defender) calls for allies or not (`call`)."""

    call: bool
    seat: int


class AllyChosen(Game.Event):
    """The `seat` joins the battle as an ally of the `side` (or stays out)."""

    seat: int
    side: str


class UnitsAssigned(Game.Event):
    """The `seat` assigns its `heroes` to the `castles` (as the `side`)."""

    castles: list[str]
    heroes: list[str]
    seat: int
    side: str


class MovedToBattle(Game.Event):
    """The `hero` moves to the battle at the `castle` on the `side`."""

    castle: str
    hero: str
    side: str


class BattleChosen(Game.Event):
    """The `seat` chooses the battle at the `castle` to resolve next; actions pass
    in this `order`."""

    castle: str
    order: list[int]
    seat: int


class Engaged(Game.Event):
    """The `seat`'s `cards` (`side`) engage at the `castle` for `damage`, `brutal`
    or not; the others may React in this `order` (when nobody can and nothing is
    left to absorb, it is over at once)."""

    brutal: bool
    cards: list[str]
    castle: str
    damage: int
    order: list[int]
    seat: int
    side: str


class ReturnedHome(Game.Event):
    """The `seat` bows its unit (`bowed`: the `hero` and its attachments) to return
    it home."""

    bowed: list[str]
    hero: str
    seat: int
