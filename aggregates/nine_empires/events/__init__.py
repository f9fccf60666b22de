"""Romance of the Nine Empires' events: each a fact of the rulebook, one
immutable class whose typed fields are the whole payload
(``aggregates.kernel.facts``).

The rules modules decide (check, shuffle, choose) and record these with
``state.emit("Name", **facts)``; ``apply.py`` changes the state from each. The
JSON schemas of ``schemas.json``'s events and outcome and the event table of
docs/games/nine-empires.md are generated from these classes (``make
schemas``), each class's docstring being what the event states.

Seats are numbers (0 is the first seat); cards in play are named by their
instance ids (``i0``, ``i1``...) and, where a reader needs the card, by its
`key` in the card list; a `side` is ``"attacker"`` or ``"defender"``. Hands,
decks and stealth cards are hidden: their events' public forms carry counts
(``game.PRIVATE``).

The events are kept one module per chapter of the rulebook (``setup``,
``actions``, ``payment``, ``playing``, ``draws``, ``quests``, ``battles``,
``engaging``, ``raids``, ``winter``, ``victory``); this package names every one
(``events.Name``) and lists them in ``EVENTS``.
"""

from __future__ import annotations

from aggregates.kernel import Game
from aggregates.nine_empires.events.actions import (
    AbilityCancelled,
    AbilityResolved,
    AbilityTriggered,
    AbilityUsed,
    DamageReduced,
    EffectApplied,
    MarkerPlaced,
    Passed,
    PhaseBegan,
    PhaseEnded,
    ReactPassed,
    ReactPlayed,
    SpringBegan,
    TurnBegan,
)
from aggregates.nine_empires.events.battles import (
    AlliesCalled,
    AllyChosen,
    BattleChosen,
    BattleDeclared,
    Engaged,
    MovedToBattle,
    ReturnedHome,
    UnitsAssigned,
)
from aggregates.nine_empires.events.draws import CardsDiscarded, CardsDrawn, DeckReshuffled
from aggregates.nine_empires.events.engaging import (
    AbsorbStep,
    AttackEnded,
    BattleEnded,
    CastleBuried,
    DamageAbsorbed,
    EngagementResolved,
    ImmunityDeclared,
    ImmunityStep,
)
from aggregates.nine_empires.events.payment import Bowed, FoodSpent, Straightened
from aggregates.nine_empires.events.playing import (
    CardBuried,
    CardPlayed,
    FoodAdded,
    FoodLost,
    HeroBuried,
    TokenMade,
)
from aggregates.nine_empires.events.quests import GloryPaid, QuestCompleted, RenownGained
from aggregates.nine_empires.events.raids import (
    RaidChosen,
    RaidDeclared,
    RaidEnded,
    RaidResolved,
    RaidUnitsAssigned,
    SentHome,
)
from aggregates.nine_empires.events.setup import HandKept, HandsDealt, Mulliganed, OrdainedTaken
from aggregates.nine_empires.events.setup import PlayerSetup as PlayerSetup
from aggregates.nine_empires.events.setup import Setup as Setup
from aggregates.nine_empires.events.victory import GameWon, PlayerEliminated
from aggregates.nine_empires.events.victory import Outcome as Outcome
from aggregates.nine_empires.events.winter import (
    EffectsEnded,
    FoodRedistributed,
    FoodStored,
    HandSizeChecked,
    OrdainedPassed,
    QuestBuried,
    RedistributionBegan,
    WinterBegan,
)

#: Every event of the game, in rulebook order (the game's ``EVENTS``).
EVENTS: tuple[type[Game.Event], ...] = (
    TurnBegan, SpringBegan, PhaseBegan, PhaseEnded, Passed, AbilityUsed, ReactPlayed,
    ReactPassed, AbilityResolved, AbilityCancelled, AbilityTriggered, EffectApplied,
    MarkerPlaced, DamageReduced, Bowed, Straightened, FoodSpent, CardPlayed, TokenMade,
    FoodAdded, FoodLost, CardsDrawn, DeckReshuffled, CardsDiscarded, HeroBuried,
    CardBuried, GloryPaid, QuestCompleted, RenownGained, BattleDeclared, AlliesCalled,
    AllyChosen, UnitsAssigned, MovedToBattle, BattleChosen, Engaged, ReturnedHome,
    ImmunityStep, AbsorbStep, ImmunityDeclared, DamageAbsorbed, EngagementResolved,
    CastleBuried, BattleEnded, AttackEnded, RaidDeclared, RaidUnitsAssigned, RaidChosen,
    SentHome, RaidResolved, RaidEnded, WinterBegan, FoodStored, RedistributionBegan,
    FoodRedistributed, EffectsEnded, QuestBuried, HandSizeChecked, OrdainedPassed,
    PlayerEliminated, GameWon, HandsDealt, Mulliganed, HandKept, OrdainedTaken,
)
