"""What Ettin's section modules may read and do: the game's plain state and
the kernel's decide-phase tools (``emit``, the die, the table). The rules
modules type their state argument with this protocol and never import the
aggregate class.

``work`` is each group's progress through the phase every pair is in (whose
pick, whose deploy, the start-of-battle abilities waiting, the Spoils and
Produce abilities to do): the engine's own bookkeeping, evolved by the
events from their facts, never recorded in an event.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Protocol

from aggregates.kernel import Audience, Seating, Zones

#: An earlier rule kept by rules "1" and "2" (``Ettin.earlier``): they recorded
#: the engine's progress as events of its own (the start-of-battle queue and
#: the Troop to lose: ``BattleStep``; a short lineup's order:
#: ``DraftOrderShortened``; the initiative's choosers again after the setup or
#: the War that stated them: ``InitiativeChoices``), which rules "3" derive
#: from the rulebook's facts.
STEPS_RECORDED = "steps recorded"
#: An earlier rule kept by rules "1" to "3": they recorded the War's steps
#: being entered and its turns moving on as events of their own (the deploy's
#: turns: ``DeployBegan``, ``DeployPassed``; the Spoils owed and each one
#: done with: ``SpoilsBegan``, ``SpoilsPassed``; ``AdventureDefenseBegan``,
#: ``RetireBegan``; the optional Produce abilities: ``ProduceBegan``; a
#: Lineup's next drafter: ``DraftPassed``), which rules "4" read from the
#: facts before them (``apply.enter_steps``).
TURNS_RECORDED = "turns recorded"


class EttinState(Protocol):
    seats: list[str]
    nations: list[str]
    zones: dict[str, list[int]]
    pairs: list[list[int]]
    gold: list[int]
    tokens: list[list[int]]
    initiative: list[int]
    age: int
    step: int
    phase: str
    work: dict[str, Any]
    results: list[list[dict[str, Any]]]
    flipped: bool
    shown: list[int]
    sieges: list[int]
    done: bool
    ended: bool
    outcome: dict[str, Any] | None

    @property
    def earlier(self) -> frozenset[str]:
        """The earlier rules this game is played by (``STEPS_RECORDED``)."""
        ...

    def seating(self) -> Seating: ...

    def table_zones(self) -> Zones: ...

    def roll(self, sides: int) -> int: ...

    def emit(self, event_name: str, *, audience: Audience | None = None,
             public: Mapping[str, Any] | None = None, **payload: Any) -> None: ...
