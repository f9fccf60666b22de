"""The Turn Sequence and its phases; Actions and Reacts: abilities announced,
answered, resolved, and the effects they bring."""

from __future__ import annotations

from typing import Any

from aggregates.kernel import Game


class TurnBegan(Game.Event):
    """A new turn begins (`turn`), the `ordained` player holding the Ordained token."""

    ordained: int
    turn: int


class SpringBegan(Game.Event):
    """The Spring Phase: each player straightens their bowed cards in play
    (`straightened`); the Summer Phase follows, actions passing from the Ordained
    (rules 1.5.0 on: no event of its own)."""

    straightened: list[str]
    turn: int


class PhaseBegan(Game.Event):
    """The Summer or Autumn Phase (`phase`) begins: actions pass round the table in
    this `order` of seats (recorded by rules 1.4.0 and before; 1.5.0 reads it from
    SpringBegan or PhaseEnded)."""

    order: list[int]
    phase: str
    turn: int


class PhaseEnded(Game.Event):
    """The `phase` ends (every player passed in a row); effects lasting the phase
    end, and the next phase begins: the Autumn, actions passing from the Ordained,
    or the Winter, its players with two castles or more redistributing food."""

    phase: str
    turn: int


class Passed(Game.Event):
    """The `seat` passes its action (`where`: the phase or a conflict); `forced`
    when it had no action to take."""

    forced: bool
    seat: int
    where: str


class AbilityUsed(Game.Event):
    """The `seat` uses an ability (its `ability` index on the `source` card of
    `key`, worded `text`) as its action, a `tactic` played from hand or not, with
    its `targets` and the fate of any discarded card (`discarded_fate`); the others
    may React in this `order` (when nobody can, it resolves at once: its effects
    follow, facts of their own)."""

    ability: int
    discarded_fate: int
    key: str
    order: list[int]
    seat: int
    source: str
    tactic: bool
    targets: dict[str, list[str]]
    text: str
    timing: str


class ReactPlayed(AbilityUsed):
    """The `seat` answers with a React (as AbilityUsed states it), opening a window
    of its own."""


class ReactPassed(Game.Event):
    """The `seat` does not React to the `source`'s ability; `forced` when it had no
    React to play. The pass that leaves every seat asked passed in a row since the
    last React closes the window (rules 1.7.0; 1.6.0: the last seat to answer it
    once): the ability resolves (its effects follow, facts of their own, none when
    cancelled); by 1.7.0 the window a React answered is then asked again from its
    precedence (1.6.0 closed it too when the React was its last answer)."""

    forced: bool
    seat: int
    source: str


class AbilityResolved(Game.Event):
    """The `source`'s ability takes effect, or is spent without effect when
    `cancelled` (recorded by rules 1.5.0 and before; 1.6.0 resolves it as its
    window closes, with the last React passed or the announcement nobody can
    answer)."""

    cancelled: bool
    key: str
    seat: int
    source: str


class AbilityCancelled(Game.Event):
    """The ability announced in window `frame` (`source`, its controller `seat`) is
    cancelled `by` a React."""

    by: str
    frame: int
    seat: int
    source: str


class AbilityTriggered(Game.Event):
    """The `source`'s forced ability (`ability`, worded `text`) fires on the `event`
    named."""

    ability: int
    event: str
    key: str
    seat: int
    source: str
    text: str


class EffectApplied(Game.Event):
    """A lasting effect `id` from the `source` on the `target`: the `verb` with its
    `params`, for the `duration`."""

    duration: str
    id: str
    params: dict[str, Any]
    source: str
    target: str
    verb: str


class MarkerPlaced(Game.Event):
    """The `source` places a marker of `amount` on the `target`'s `stat`."""

    amount: int
    source: str
    stat: str
    target: str


class DamageReduced(Game.Event):
    """The `source` reduces the damage of engagement `engagement` by `amount`
    (leaving `damage`)."""

    amount: int
    damage: int
    engagement: int
    seat: int
    source: str
