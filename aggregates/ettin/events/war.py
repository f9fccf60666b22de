"""Phase 3: War: deploying, scouting, the battles and the Adventure."""

from __future__ import annotations

from typing import Any

from aggregates.ettin.events.shapes import CardsMoved, GoldGained
from aggregates.kernel import Game


class DeployBegan(Game.Event):
    """Deploy begins: in each pair of Enemies whose deploy it is (`turns`: pair,
    position, how many cards it places now). Recorded by rules 1 to 3 only: rules
    4 begin the Deploy after the third draft's last fact."""

    turns: list[dict[str, Any]]


class Deployed(CardsMoved):
    """The `position` places a card of its War Camp face down at the `slot` (0-2 a
    Location, 3 the Adventure), `scouting` an Enemy Location 1-3 (0 or None: none)."""

    position: int
    slot: int
    scouting: int | None


class Scouted(Game.Event):
    """Scouting reveals to the `position` the scouting card and every `enemy` unit at
    its Location `slot`: the `cards`."""

    position: int
    enemy: int
    slot: int
    cards: list[int]


class DeployPassed(Game.Event):
    """The `pair`'s deploy passes to `position`, who places `deploys` cards now (None:
    both have placed all). Recorded by rules 1 to 3 only: rules 4 read it from each
    `Deployed`."""

    pair: int | None
    position: int | None
    deploys: int | None


class CardsFlipped(Game.Event):
    """All deployed cards flip face up: the `cards` by position and slot."""

    cards: dict[str, dict[str, list[int]]]


class BattleStep(Game.Event):
    """A step of the `pair`'s battle at `slot` that needs no choice: `abilities` (its
    start-of-battle abilities line up), `no target` (the `position`'s `unit`'s
    `keyword` has none), `to lose` (`position` chooses the Troop Lost on the
    Adventure) or `lost`. Recorded by rules 1 and 2 only: it is the engine's progress,
    which rules 3 derive from the other events."""

    pair: int | None
    slot: int | None
    step: str | None
    position: int | None
    unit: int | None
    keyword: str | None


class TargetChosen(Game.Event):
    """The `position` chooses the `target` of its `unit`'s start-of-battle `keyword`
    (Terrify, Dragonslayer, Ranged; 0: a Ranged unit not used)."""

    position: int
    unit: int
    target: int
    keyword: str


class StartOfBattleRemoved(CardsMoved):
    """A start-of-battle ability's target (or a Ranged unit used) leaves the `pair`'s
    battle at `slot` for a Retired Pile."""

    pair: int | None
    slot: int | None


class BattleResolved(Game.Event):
    """The `pair`'s battle at `slot` is resolved: the Battle `scores`, the `result`
    (win, tie, none), its `winner` and `why` (swift, protected, no troops)."""

    pair: int
    slot: int
    scores: list[int]
    result: str
    winner: int | None
    why: str | None


class AdventureAttempted(Game.Event):
    """The Adventure battle's winner (`position`) attempts the `adventure`: its
    Adventure Score `score` against the `difficulty` (the card's plus the Adventure
    Die's `die`), and its `success`."""

    pair: int
    position: int
    adventure: int
    score: int
    die: int
    difficulty: int
    success: bool


class AdventureReward(GoldGained):
    """A completed Adventure's gold (`gains` by position, `gold` after)."""

    position: int | None


class AdventureEffect(CardsMoved):
    """A completed Adventure's effect moves cards (War Cry, Lost Souls)."""


class AdventureCompleted(CardsMoved):
    """The completed Adventure goes to the `position`'s Retired Pile, or is set aside
    to become a Defense."""

    position: int
    pair: int | None


class AdventurerLost(CardsMoved):
    """A failed Adventure: one Troop with Adventure Strength is Lost."""

    position: int
