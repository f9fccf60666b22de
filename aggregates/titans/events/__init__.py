"""Titans' events: each a fact of the rulebook, one immutable class whose
typed fields are the whole payload (``aggregates.kernel.facts``).

The rules modules decide (check, roll, shuffle, choose) and record these with
``state.emit("Name", **facts)``; ``apply.py`` changes the state from each.
The JSON schemas of ``schemas.json``'s events and outcome and the event table
of docs/games/titans.md are generated from these classes (``make schemas``),
each class's docstring being what the event states.

Seats are numbers (0 is the first seat); a `role` is ``"attacker"`` or
``"defender"``; a die is stated as its kind and the face that came up
(``Die``), so a replay never rolls. A reader who may not see a hidden deck's
order or a hand's cards gets the same fact with their `count` instead
(``PUBLIC_COUNTS``).

The events are kept one module per chapter of the rulebook (``setup``,
``support``, ``order_pool``, ``actions``, ``battles``, ``turns``,
``round_end``), the shapes several share and the recorded setup and outcome in
``shapes``; this package names every one (``events.Name``) and lists them in
``EVENTS``.
"""

from __future__ import annotations

from aggregates.kernel import Game
from aggregates.titans.events.actions import (
    BattleDeclared,
    NationCardPurchased,
    NationDeckTopSeen,
    ObjectiveAccomplished,
    RegionTaken,
    StrongholdBuilt,
    UnitDeployed,
    UnitMoved,
)
from aggregates.titans.events.battles import (
    BattleBegun,
    BattleResolved,
    BattleWon,
    DiceRerolled,
    NationAbilityUsed,
    NationCardUsed,
    ReactionDeclined,
    StageEnded,
    SupportPlayed,
    TitanAbilityUsed,
    UnitsDestroyed,
    UnitsWithdrew,
)
from aggregates.titans.events.battles import BattleEffect as BattleEffect
from aggregates.titans.events.order_pool import (
    OrderDeckShuffled,
    OrderPoolDrawn,
    OrderPoolSlid,
    OrdersEnded,
    OrderTaken,
    RoundBegan,
    UpcomingPoolDrawn,
)
from aggregates.titans.events.round_end import (
    ObjectivesDrawn,
    ReinforcementChosen,
    RoundPrepared,
    RoundScored,
    StartingPlayerPassed,
)
from aggregates.titans.events.setup import (
    DraftEnded,
    DraftPassed,
    ObjectiveKept,
    ObjectivesDealt,
    ObjectivesPassed,
    OpeningPurchaseChosen,
    OpeningPurchasesRevealed,
)
from aggregates.titans.events.shapes import CARD_COUNT as CARD_COUNT
from aggregates.titans.events.shapes import Army as Army
from aggregates.titans.events.shapes import Bonus as Bonus
from aggregates.titans.events.shapes import Die as Die
from aggregates.titans.events.shapes import Outcome as Outcome
from aggregates.titans.events.shapes import Purchase as Purchase
from aggregates.titans.events.shapes import Setup as Setup
from aggregates.titans.events.shapes import Side as Side
from aggregates.titans.events.shapes import Troop as Troop
from aggregates.titans.events.shapes import Withdrawal as Withdrawal
from aggregates.titans.events.support import (
    SupportDeckReshuffled,
    SupportDiscarded,
    SupportDrawn,
    SupportRowRefilled,
    SupportUnavailable,
)
from aggregates.titans.events.turns import TitanDeployed, TitanRaised, TurnBegan, TurnEnded

#: Every event of the game, in rulebook order (the game's ``EVENTS``).
EVENTS: tuple[type[Game.Event], ...] = (
    SupportDrawn, SupportUnavailable, SupportRowRefilled, SupportDeckReshuffled,
    SupportDiscarded, OpeningPurchaseChosen, OpeningPurchasesRevealed, ObjectivesDealt,
    ObjectiveKept, ObjectivesPassed, DraftPassed, DraftEnded, RoundBegan, OrderDeckShuffled,
    OrderPoolDrawn, UpcomingPoolDrawn, OrderPoolSlid, OrderTaken, OrdersEnded, UnitMoved,
    BattleDeclared, RegionTaken, UnitDeployed, StrongholdBuilt, NationCardPurchased,
    NationDeckTopSeen, ObjectiveAccomplished, BattleBegun, SupportPlayed, DiceRerolled,
    NationCardUsed, TitanAbilityUsed, NationAbilityUsed, StageEnded, ReactionDeclined,
    BattleWon, UnitsDestroyed, UnitsWithdrew, BattleResolved, TitanRaised, TitanDeployed,
    TurnEnded, TurnBegan, RoundScored, StartingPlayerPassed, ReinforcementChosen,
    ObjectivesDrawn, RoundPrepared,
)
