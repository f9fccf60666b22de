"""Battles: begun, Support Cards played, dice re-rolled, Nation Cards and
abilities used, stages ended, won, units destroyed or withdrawn, resolved."""

from __future__ import annotations

from aggregates.kernel import Game
from aggregates.titans.events.shapes import Bonus, Die, Side, Withdrawal


class BattleBegun(Game.Event):
    """The Battle in the `region` begins between the `attacker` and the `defender`
    (`fortified`): the stages' `order`, both `sides` with their dice rolled, and
    each side's strength."""

    region: str
    attacker: int
    defender: int
    fortified: bool
    order: list[str]
    sides: dict[str, Side]
    attacker_strength: int
    defender_strength: int


class SupportPlayed(Game.Event):
    """The `seat` plays Support `cards` for its `role`: their `effect`, the `dice`
    added, the `strength` added, or a `unit` moved in from the `origin` (`token`);
    the side to react next (`reaction`)."""

    seat: int
    region: str
    role: str
    cards: list[int]
    effect: str
    dice: list[Die]
    strength: int
    unit: str | None
    origin: str | None
    token: bool
    reaction: str | None


class DiceRerolled(Game.Event):
    """The `seat` re-rolls the `dice` (indices of its pool): the pool `before` and
    the `pool` after."""

    seat: int
    region: str
    role: str
    dice: list[int]
    before: list[Die]
    pool: list[Die]


class BattleEffect(Game.Event):
    """What a Nation Card or an ability does in a Battle (the facts the three
    events below share): the `seat` (its `role`), the `effect`, the `strength`
    and `dice` added, the dice `rerolled`, the Support Cards to `draw`, and the
    `pool` after a re-roll."""

    seat: int
    region: str
    role: str
    effect: str
    strength: int
    dice: list[Die]
    rerolled: list[int]
    draw: int
    pool: list[Die] | None


class NationCardUsed(BattleEffect):
    """The `seat` uses the Nation `card` (`timing`: once a ``battle`` or a
    ``round``): its `effect`, the `strength` and `dice` added, the dice
    `rerolled`, the Support Cards to `draw`, and the `pool` after a re-roll."""

    card: int
    timing: str


class TitanAbilityUsed(BattleEffect):
    """The `seat` uses its Titan Special Ability (`name`): its `effect`, the
    `strength` and `dice` added, the dice `rerolled`, the Support Cards to
    `draw`, and the `pool` after a re-roll."""

    name: str


class NationAbilityUsed(BattleEffect):
    """The `seat` uses its Nation Starting Ability (`name`): its `effect`, the
    `strength` and `dice` added, the dice `rerolled`, the Support Cards to
    `draw`, and the `pool` after a re-roll."""

    name: str


class StageEnded(Game.Event):
    """The `seat` (its `role`) ends its stage of the Battle."""

    seat: int
    region: str
    role: str


class ReactionDeclined(Game.Event):
    """The `seat` (its `role`) declines to react to a Support Card played."""

    seat: int
    region: str
    role: str


class BattleWon(Game.Event):
    """The Battle's outcome: the `winner` (its `winner_role`) and `loser`, both
    strengths, the `difference`, the `effective` difference and how many units
    the loser must `destroy`."""

    region: str
    winner: int
    loser: int
    winner_role: str
    attacker_strength: int
    defender_strength: int
    difference: int
    effective: int
    destroy: int


class UnitsDestroyed(Game.Event):
    """The `seat`'s `troops` (indices of its side) are destroyed, `units` by type
    (its `titan` among them), `why` (``battle``, or ``no retreat``)."""

    seat: int
    region: str
    role: str
    troops: list[int]
    units: dict[str, int]
    titan: bool
    why: str


class UnitsWithdrew(Game.Event):
    """The loser's (`seat`) units withdraw: each unit's `moves`."""

    seat: int
    region: str
    role: str
    moves: list[Withdrawal]


class BattleResolved(Game.Event):
    """The Battle ends: the `winner` holds the `region`; the `difference`, the
    Support `cards` the loser draws, the `vp` scored (the tier's `tier_vp` and the
    `bonus`), a Stronghold destroyed, a Capitol damaged."""

    region: str
    winner: int
    loser: int
    winner_role: str
    difference: int
    cards: int
    vp: int
    tier_vp: int
    bonus: Bonus
    stronghold_destroyed: bool
    capitol_damaged: bool
