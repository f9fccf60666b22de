"""Ettin's events: each a fact of the rulebook, one immutable class whose typed
fields are the whole payload (``aggregates.kernel.facts``).

The rules modules (``ages``, ``war``, ``aftermath``) decide (deal, roll,
check, choose) and record these with ``state.emit("Name", **facts)``;
``apply.py`` changes the state from each. The JSON schemas of
``schemas.json``'s events and the event table of docs/games/ettin.md are
generated from these classes (``make schemas``), each class's docstring being
what the event states.

Cards that move name the zones they leave and reach (``source``, ``target``:
the zone names, ``zones.py``) and the ``position`` they belong to; a
reader who may not see the cards (``Zones.move_audience``: face-down deploys,
hidden decks, War Camps, Retired Piles) gets the same fact with their
``count`` instead (``PUBLIC_COUNTS``). Gold is stated as the change
(``amount``, or ``gains`` by position) and the gold after it (``gold``). A
fact typed ``X | None`` is null where the rules say nothing is there (no
winner, no Scouting), or in an event recorded by an older release that did
not state it (``upcasts.py``).

The events are kept one module per chapter of the rulebook (``ages``, ``war``,
``aftermath``, ``scoring``), the shapes several share and the recorded setup
and outcome in ``shapes``; this package names every one (``events.Name``) and
lists them in ``EVENTS``.
"""

from __future__ import annotations

from aggregates.ettin.events.aftermath import (
    AdventureDefenseBegan,
    AdventureDefensePlaced,
    AdventureDiscarded,
    BountyPaid,
    CallToArms,
    DefenseStays,
    GateUsed,
    LostSouls,
    ProduceAnswered,
    ProduceBegan,
    Produced,
    RetireBegan,
    Retired,
    ReturnedToAlly,
    ReturnedToSelf,
    SiegeTokenPlaced,
    SpoilsBegan,
    SpoilsPassed,
    SpoilTaken,
    WarCry,
    Wealthy,
)
from aggregates.ettin.events.ages import (
    AdventureRevealed,
    AgeBegan,
    AgeGold,
    DraftBegan,
    Drafted,
    DraftOrderShortened,
    DraftPassed,
    EmptyDecksGold,
    InitiativeChoices,
    InitiativeGiven,
    InitiativeTaken,
    PeacetimeLineupDealt,
    Recruited,
    RecruitPaid,
    SkirmishLineupDealt,
    Sold,
    SoldCardLost,
    UndraftedLost,
)
from aggregates.ettin.events.scoring import AgeEnded, GameOver, LoserDrew, TiedWarGold
from aggregates.ettin.events.shapes import CARD_COUNT as CARD_COUNT
from aggregates.ettin.events.shapes import CardsMoved as CardsMoved
from aggregates.ettin.events.shapes import GoldGained as GoldGained
from aggregates.ettin.events.shapes import GoldPaid as GoldPaid
from aggregates.ettin.events.shapes import Outcome as Outcome
from aggregates.ettin.events.shapes import Setup as Setup
from aggregates.ettin.events.shapes import Team as Team
from aggregates.ettin.events.war import (
    AdventureAttempted,
    AdventureCompleted,
    AdventureEffect,
    AdventureReward,
    AdventurerLost,
    BattleResolved,
    BattleStep,
    CardsFlipped,
    DeployBegan,
    Deployed,
    DeployPassed,
    Scouted,
    StartOfBattleRemoved,
    TargetChosen,
)
from aggregates.kernel import Game

#: Every event of the game, in rulebook order (the game's ``EVENTS``).
EVENTS: tuple[type[Game.Event], ...] = (
    InitiativeChoices, InitiativeTaken, InitiativeGiven, AgeBegan, AgeGold,
    AdventureRevealed, DraftBegan, SkirmishLineupDealt, PeacetimeLineupDealt,
    EmptyDecksGold, DraftOrderShortened, Drafted, DraftPassed, UndraftedLost, RecruitPaid,
    Recruited, Sold, SoldCardLost, DeployBegan, Deployed, Scouted, DeployPassed,
    CardsFlipped, BattleStep, TargetChosen, StartOfBattleRemoved, BattleResolved,
    AdventureAttempted, AdventureReward, AdventureEffect, AdventureCompleted,
    AdventurerLost, SpoilsBegan, SpoilTaken, BountyPaid, SiegeTokenPlaced, SpoilsPassed,
    AdventureDefenseBegan, AdventureDefensePlaced, RetireBegan, DefenseStays,
    ReturnedToSelf, ReturnedToAlly, Retired, Wealthy, WarCry, AdventureDiscarded,
    ProduceBegan, Produced, GateUsed, CallToArms, LostSouls, ProduceAnswered,
    TiedWarGold, LoserDrew, AgeEnded, GameOver,
)
