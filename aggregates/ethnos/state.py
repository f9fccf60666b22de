"""What the rules modules may read and do: the Ethnos state, as a Protocol.

The phase modules (``ages``, ``recruit``, ``bands``, ``tribes``, ``scoring``)
decide on the state they are given and record events with ``state.emit(name,
**payload)`` (the kernel's ``Game.emit``); they never import the aggregate
class, which imports them (the decider shape: decide here, evolve in the
aggregate's ``@event`` bodies).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Protocol

from aggregates.kernel import Audience


class State(Protocol):
    """The Ethnos aggregate as the rules see it (``game.Ethnos`` implements it)."""

    seats: list[str]
    tribes: list[str]
    ages: int
    age: int
    first_player: int
    current: int
    deck: list[int]
    row: list[int]
    hands: list[list[int]]
    bands: list[list[dict[str, Any]]]
    dragons: list[int]
    steps: list[str]
    band: dict[str, Any] | None
    markers: dict[str, list[int]]
    glory_tokens: dict[str, list[int]]
    glory: list[int]
    merfolk: list[int]
    troll_tokens: list[list[int]]
    trolls_free: list[int]
    giant: int | None
    orc_boards: list[list[str]]
    orc_pending: list[int]
    orc_choices: list[bool | None]
    third_dragon_seat: int | None
    last_bands: list[list[int]]
    wizards_x: int
    over: bool
    ended: bool
    outcome: dict[str, Any] | None

    @property
    def stage(self) -> str: ...

    def emit(self, event_name: str, *, audience: Audience | None = None,
             public: Mapping[str, Any] | None = None, **payload: Any) -> None: ...

    def finished(self) -> dict[str, Any] | None: ...

    def shuffled(self, items: list[Any]) -> list[Any]: ...
