"""What the phase modules may read and do: the game's plain state, and the
kernel's decide-phase tools (dice, ``emit``). The rules modules type their
``state`` argument with this protocol and never import the aggregate class."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Protocol

from aggregates.kernel import Audience


class EninState(Protocol):
    hp: int
    luck: int
    xp: int
    gold: int
    level: int
    poisoned: bool
    location: int | None
    turn: int
    stage: str
    quest_items: list[str]
    magic_items: list[str]
    map_held: bool
    strength_bonus: int
    last_purchase: str | None
    encounter: dict[str, Any] | None
    table: list[dict[str, int]]
    shield_used: bool
    treasure_left: int
    treasure_choices: list[str]
    won: bool
    last_outcome: str
    ended: bool
    outcome: dict[str, Any] | None

    def finished(self) -> dict[str, Any] | None: ...

    def emit(self, event_name: str, *, audience: Audience | None = None,
             public: Mapping[str, Any] | None = None, **payload: Any) -> None: ...

    def roll(self, sides: int) -> int: ...

    def roll_dice(self, count: int, sides: int) -> list[int]: ...

