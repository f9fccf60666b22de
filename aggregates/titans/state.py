"""What the rules modules may read and do: the Titans state, as a Protocol.

The rules modules (``setup``, ``order_pool``, ``movement``, ``deployment``,
``purchase``, ``battles``, ``support``, ``objectives``, ``turns``,
``scoring``, ``reinforcements``) decide on the state they are given: they
check a command, roll what must be rolled (``roll``, ``shuffled``) and record
what happened with ``emit``; the aggregate's ``@event`` bodies change the
state. They never import the aggregate class, which imports them.

Everything is plain JSON, so snapshots and replays carry it:

- ``armies``: region -> ``{"nation": seat, "units": {unit type: count}}``
  (one Nation per region; attackers wait on the border, in ``turn["battles"]``);
- ``control``: region -> the seat controlling it (units, a Control Token or
  its Capitol); ``capitols``: region -> ``{"owner": seat, "damaged": bool}``;
- ``reserve``: per seat, the units on its Nation Board; ``titan``: per seat,
  ``"map"``, ``"standing"`` or ``"lying"`` (on the Nation Board);
- the decks, rows, hands and discards of cards (``zones.py`` says who sees
  which), the Victory Points and the game's counters;
- ``turn``: the Active Player's turn (its Order, the actions left, its step,
  the Battles instigated); ``battle``: the Battle being resolved;
  ``reinforcing``: the Reinforcements at the end of a Round; ``opening`` and
  ``draft``: the simultaneous choices of the Game Setup;
- ``earlier``: the rules of an earlier version this game is played by (the
  ``EARLIER_*`` below), read off the version its creation event records, so a
  game recorded by an earlier version plays on, re-executes and replays as it
  was recorded, whichever class loaded it (docs/rules-versions.md); a game of
  the current rules keeps none.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Protocol

from aggregates.kernel import Audience

#: Rules 1.0.0 recorded no ``TurnBegan`` for a Round's first turn: drawing the
#: Order Pool began the Starting Player's turn.
EARLIER_FIRST_TURN = "a Round's first turn begins with the Order Pool drawn"


class State(Protocol):
    """The Titans aggregate as the rules see it (``game.Titans`` implements it)."""

    seats: list[str]
    rules_version: str
    nations: list[str]
    setup_key: str
    variant: str
    rounds: int
    inactive: list[str]
    round: int
    start_player: int
    current: int
    armies: dict[str, dict[str, Any]]
    control: dict[str, int]
    capitols: dict[str, dict[str, Any]]
    strongholds: list[str]
    strongholds_left: int
    reserve: list[dict[str, int]]
    titan: list[str]
    vp: list[int]
    region_vp: list[int]
    battles_won: list[int]
    destroyed: list[int]
    order_deck: list[int]
    order_pool: list[int]
    upcoming: list[int]
    order_discard: list[int]
    support_deck: list[int]
    support_row: list[int]
    support_discard: list[int]
    hands: list[list[int]]
    nation_decks: list[list[int]]
    nation_cards: list[list[int]]
    rotated: list[list[int]]
    objective_deck: list[int]
    objectives: list[list[int]]
    accomplished: list[list[int]]
    opening: dict[str, Any] | None
    draft: dict[str, Any] | None
    turn: dict[str, Any] | None
    battle: dict[str, Any] | None
    reinforcing: dict[str, Any] | None
    over: bool
    ended: bool
    outcome: dict[str, Any] | None

    @property
    def earlier(self) -> frozenset[str]: ...

    def emit(self, event_name: str, *, audience: Audience | None = None,
             public: Mapping[str, Any] | None = None, **payload: Any) -> None: ...

    def roll(self, sides: int) -> int: ...

    def shuffled(self, items: list[Any]) -> list[Any]: ...
