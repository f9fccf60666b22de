"""What the rules modules may read and do: the Nine Empires state, as a Protocol.

The rules modules (``setup``, ``actions``, ``payment``, ``playing``,
``abilities``, ``card_effects``, ``battles``, ``engaging``, ``raids``,
``quests``, ``winter``, ``victory``) decide on the state they are given and
record the rulebook's facts with ``state.emit(name, **payload)`` (the classes
of ``events.py``); the event applies (``apply.py``, and the state changes it
calls) are the only code that changes the state.

Plain JSON throughout, so snapshots and replays carry it:

- ``instances`` / ``zones``: the card instances and zones (``cards``):
  ``deck:<seat>``, ``hand:<seat>``, ``discard:<seat>``, ``buried:<seat>``,
  ``play`` (everything in play: strongholds, castles, properties, heroes and
  their attachments, quests), ``stealth`` (cards face down on raiding units).
- ``renown``: each seat's faction Renown. ``out``: eliminated seats.
- ``turn``, ``phase``, ``ordained``; ``frames``: the kernel's frame stack
  (``turn_order.py``): the action passing of the phase and of the battle or raid
  under way, the Attack or Raiding Phase, the React windows; ``windows``:
  how many windows have opened (their serial numbers).
- ``attacked`` / ``raided``: who has declared their one attack / raid this turn.
- ``conflict``: the Attack Phase or Raiding Phase under way, or None.
- ``stack`` (derived): what is announced and not yet resolved (an ability,
  an engagement), each a React window on the frame stack; a React's window
  is above the one it answers (a React to a React is the window above that).
- ``lasting``: effects in force until their duration ends; ``uses``: ability
  uses per card instance per turn; ``discard_down``: seats yet to discard to
  their hand size in Winter (as rules 1.4.0 and before recorded them; 1.5.0
  reads them from the hands: ``winter.discarding``), ``redistributing``: seats
  yet to redistribute their food, ``winter_step``: ``redistribute`` or
  ``discard``; ``mulligans``: seats yet to keep or mulligan.
- ``EARLIER``: the rules of an earlier version the game is played by, those of
  the version its creation event records (``EARLIER_BY_VERSION``): a game of
  1.0.0 to 1.6.0 (``v1.NineEmpiresV1`` ... ``V1_6``) goes on by
  its own rules after an upgrade, whichever class loads it, and re-executes as
  it was played (docs/rules-versions.md); the current rules keep none.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Protocol

from aggregates.kernel import Audience

#: Rules 1.0.0 placed the heroes' food in Winter itself (the most room first).
EARLIER_WINTER_FOOD = "winter food placed where there is the most room"
#: Rules 1.0.0 asked every other player to ally, without a call for allies.
EARLIER_ALLIES = "every other player asked to ally"
#: Rules 1.0.0 had the attacker declare immunity for the allies' cards too.
EARLIER_IMMUNITY = "the attacker declares immunity for the whole army"
#: Rules 1.0.0 and 1.1.0 recorded the result naming the winner's seat from 0
#: ("seat 0 wins by ..."), where every reader is told "Player 1".
EARLIER_SEAT_RESULT = "the result names the winner's seat counted from 0"
#: Rules 1.0.0 to 1.2.0 bowed the hero alone when a unit returned home, not
#: its attached cohorts, items and spells.
EARLIER_RETURN_HERO = "returning a unit home bows its hero alone"
#: Rules 1.0.0 to 1.2.0 read "your" / "of yours" in card text as "on your side":
#: an ally's cards in a battle were yours too.
EARLIER_YOUR_SIDE = "'your' read as every card on your side of a battle"

#: Rules 1.3.0 and before recorded the engine's steps of an engagement
#: (``ImmunityStep``: a seat is to declare immunity; ``AbsorbStep``: the damage is
#: to be absorbed); 1.4.0 records the rulebook's facts alone and derives who is
#: asked from them (``engaging.step``).
EARLIER_STEPS = "the engagement's immunity and absorbing steps recorded as events"
#: Rules 1.4.0 and before recorded the engine's progress through a turn: the
#: Summer and Autumn Phases' beginnings with their passing order (``PhaseBegan``),
#: the Winter Phase's (``WinterBegan``) and who redistributes and who discards
#: down in it (``RedistributionBegan``, ``HandSizeChecked``); 1.5.0 reads each
#: step from the facts before it (``turn_order.spring_began``, ``apply``'s
#: ``PhaseEnded``, ``winter.enter_winter``, ``winter.discarding``).
EARLIER_PROGRESS = "the phases' beginnings and Winter's steps recorded as events"
#: Rules 1.5.0 and before recorded the engine's closing of a React window: an
#: ability resolved (``AbilityResolved``, after its effects, which are facts
#: of their own, or spent when cancelled) and an engagement resolved
#: (``EngagementResolved``, after the damage absorbed); 1.6.0 closes each window
#: in the apply of the fact that closes it (``apply.evolve``: the last React
#: passed, an announcement nobody can answer, the damage absorbed or reduced
#: until nothing is left to absorb, the burial that leaves nothing that must
#: absorb it), and an ability resolves as its window closes
#: (``abilities.resolve_closed``).
EARLIER_RESOLVED = "an ability's and an engagement's resolution recorded as events"
#: Rules 1.6.0 and before asked each seat of a React window once, in
#: precedence: a seat that Reacted, or passed before another's React, was not
#: asked again, and the window closed when every seat had answered once. 1.7.0
#: asks the window again from the seat with precedence after each React on it
#: (``turn_order.reacted``): it closes when every seat in its order passes in
#: a row since the last React (React abilities: "If multiple players wish to use
#: a React ability in response to an action, precedence is always given to the
#: Ordained ... or the defender"; a seat that can no longer React is passed over,
#: a forced ``ReactPassed``, as before).
EARLIER_ONCE = "a React window asks each seat once"
#: What 1.6.0 and every version before it kept of the rules 1.7.0 changed.
BEFORE_1_7 = frozenset({EARLIER_ONCE})
#: What 1.5.0 and every version before it kept of the rules 1.6.0 changed.
BEFORE_1_6 = frozenset({EARLIER_RESOLVED}) | BEFORE_1_7
#: What 1.4.0 and every version before it kept of the rules 1.5.0 changed.
BEFORE_1_5 = frozenset({EARLIER_PROGRESS}) | BEFORE_1_6
#: What 1.3.0 and every version before it kept of the rules 1.4.0 changed.
BEFORE_1_4 = frozenset({EARLIER_STEPS}) | BEFORE_1_5
#: What 1.2.0 and every version before it kept of the rules 1.3.0 changed.
BEFORE_1_3 = frozenset({EARLIER_RETURN_HERO, EARLIER_YOUR_SIDE}) | BEFORE_1_4
#: The earlier rules each released version plays by, by its version: a game is
#: played by those of the version its creation event records (``EARLIER``).
EARLIER_BY_VERSION: dict[str, frozenset[str]] = {
    "1.6.0": BEFORE_1_7,
    "1.5.0": BEFORE_1_6,
    "1.4.0": BEFORE_1_5,
    "1.3.0": BEFORE_1_4,
    "1.2.0": BEFORE_1_3,
    "1.1.0": BEFORE_1_3 | {EARLIER_SEAT_RESULT},
    "1.0.0": BEFORE_1_3 | {EARLIER_WINTER_FOOD, EARLIER_ALLIES, EARLIER_IMMUNITY,
                           EARLIER_SEAT_RESULT},
}


class State(Protocol):
    """The Nine Empires aggregate as the rules see it."""

    seats: list[str]
    instances: dict[str, dict[str, Any]]
    zones: dict[str, list[str]]
    renown: list[int]
    out: list[int]
    turn: int
    phase: str
    ordained: int
    frames: list[dict[str, Any]]
    windows: int
    attacked: list[int]
    raided: list[int]
    conflict: dict[str, Any] | None
    lasting: list[dict[str, Any]]
    uses: dict[str, int]
    discard_down: list[int]
    redistributing: list[int]
    winter_step: str
    mulligans: list[int]
    over: bool
    result: dict[str, Any] | None

    @property
    def EARLIER(self) -> frozenset[str]:  # noqa: N802 - a constant of the game's version
        """The rules of an earlier version this game is played by."""
        ...

    @property
    def stack(self) -> list[dict[str, Any]]:
        """The open React windows, innermost last (``frames.windows``)."""
        ...

    def pending(self) -> Any: ...

    def emit(self, event_name: str, *, audience: Audience | None = None,
             public: Mapping[str, Any] | None = None, **payload: Any) -> None: ...

    def shuffled(self, items: list[Any]) -> list[Any]: ...
