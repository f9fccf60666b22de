"""The shapes several facts share: a die, an army, a side of a Battle, a
purchase, a bonus; the recorded setup and outcome; the facts whose public
form is a count."""

from __future__ import annotations

from typing import TypedDict

#: The cards are hidden from other readers, who get how many.
CARD_COUNT = (("cards", "count"),)


class Die(TypedDict):
    """A die of the pool: its kind (`die`) and the `face` that came up (successes)."""

    die: str
    face: int


#: A unit in a Battle and the region it came `from` (a keyword, hence the call).
Troop = TypedDict("Troop", {"unit": str, "from": str})


#: A unit withdrawn `from` the Battle's region `to` an adjacent one.
Withdrawal = TypedDict("Withdrawal", {"unit": str, "from": str, "to": str})


class Army(TypedDict):
    """A region's army: its `nation` (seat) and its units by type."""

    nation: int
    units: dict[str, int]


class Side(TypedDict):
    """One side of a Battle as it begins: its `seat`, its `troops`, its dice
    `pool` and the dice left in its `reserve`, its `bonus` strength, the Support
    Cards `played`, the Nation Cards `used` and always-on (`passive`), and whether
    its Titan ability, its Nation ability and a unit moving in were `titan_used`,
    `ability_used` and `moved_in`."""

    seat: int
    troops: list[Troop]
    pool: list[Die]
    reserve: dict[str, int]
    bonus: int
    played: list[int]
    used: list[int]
    passive: list[int]
    titan_used: bool
    ability_used: bool
    moved_in: bool


class Purchase(TypedDict):
    """One player's Opening Purchase: the `card` bought (null: none), its `cost`
    and the Support Cards `paid`."""

    seat: int
    card: int | None
    cost: int
    paid: list[int]


class Bonus(TypedDict):
    """The bonus VP of a Battle won: for a `titan` destroyed, a `stronghold`
    destroyed and a `capitol` damaged."""

    titan: int
    stronghold: int
    capitol: int


class Setup(TypedDict):
    """The Main Board Setup (`setup`), the `variant` and the number of `rounds`;
    each seat's Nation, the regions out of play (`inactive`), the starting
    `armies`, the Capitols' owners, each Nation Board's `reserve` and Titan, and
    the shuffled Support, Nation and Objective decks (the public form gives each
    deck's size)."""

    setup: str
    variant: str
    rounds: int
    nations: list[str]
    inactive: list[str]
    armies: dict[str, Army]
    capitols: dict[str, int]
    reserve: list[dict[str, int]]
    titan: list[str]
    support_deck: list[int] | int
    nation_decks: list[list[int] | int]
    objective_deck: list[int] | int


class Outcome(TypedDict):
    """How the game ended (the Ended event's ``outcome``): every seat's `vp`,
    the VP of its regions (`region_vp`), its `regions` and `units` on the map
    (the tie-breaks), the `ranking`, the `winners` and the first of them
    (`winner`)."""

    result: str
    vp: list[int]
    region_vp: list[int]
    regions: list[int]
    units: list[int]
    ranking: list[int]
    winners: list[int]
    winner: int
