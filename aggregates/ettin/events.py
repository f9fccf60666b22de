"""Ettin's events: each a fact of the rulebook, one immutable class whose typed
fields are the whole payload (``aggregates.kernel.facts``).

The rules modules (``ages``, ``war``, ``aftermath``) decide (deal, roll,
check, choose) and record these with ``state.emit("Name", **facts)``;
``apply.py`` changes the state from each. The JSON schemas of
``schemas.json``'s events and the event table of docs/games/ettin.md are
generated from these classes (``make schemas``), each class's docstring being
what the event states.

Cards that move name the zones they leave and reach (``source``, ``target``:
the table's zone names, ``table.py``) and the ``position`` they belong to; a
reader who may not see the cards (``Zones.move_audience``: face-down deploys,
hidden decks, War Camps, Retired Piles) gets the same fact with their
``count`` instead (``PUBLIC_COUNTS``). Gold is stated as the change
(``amount``, or ``gains`` by position) and the gold after it (``gold``). A
fact typed ``X | None`` is null where the rules say nothing is there (no
winner, no Scouting), or in an event recorded by an older release that did
not state it (``upcasts.py``).
"""

from __future__ import annotations

from typing import Any, TypedDict

from aggregates.kernel import Game

#: A card move's public form: the number of cards instead of the cards.
CARD_COUNT = (("cards", "count"),)


class Setup(TypedDict):
    """The setup: each position's nation (the Mercenary mat last, when there is one)
    and every deck in its shuffled order (the public form gives each deck's size)."""

    nations: list[str]
    decks: dict[str, list[int] | int]


class Team(TypedDict):
    """An Alliance's total: its `team` name, its `positions` and `seats`, its `score`
    (VP) and its `gold` (the tie-break)."""

    team: str
    positions: list[int]
    seats: list[int]
    score: int
    gold: int


class Outcome(TypedDict):
    """How the game ended (the Ended event's ``outcome``): every position's VP, the
    Alliances' totals, the winning Alliance and its seats."""

    result: str
    positions: list[int]
    scores: list[int]
    teams: list[Team]
    winner_team: int
    winners: list[int]


# ---------------------------------------------- the shapes several facts share


class CardsMoved(Game.Event):
    """The shape of a card move (not an event itself): the `cards` leave `source`
    for `target`; `position`, whose they are (re-declared ``int`` where the rules
    always name one)."""

    PUBLIC_COUNTS = CARD_COUNT

    position: int | None
    source: str
    target: str
    cards: list[int]


class GoldPaid(Game.Event):
    """The shape of one position's gold changing (not an event itself): the
    `amount` and the `gold` after."""

    position: int
    amount: int
    gold: int | None


class GoldGained(Game.Event):
    """The shape of several positions' gold changing at once (not an event itself):
    `gains` and the `gold` after, by position."""

    gains: dict[str, int]
    gold: dict[str, int] | None


# ------------------------------------------------ Setup: Initiative; Phase 1: New Age


class InitiativeChoices(Game.Event):
    """Who chooses between each pair of Enemies whether to take the Initiative Token:
    `choosers` (pair, position); at Setup the higher Initiative number, after a War
    its loser. Recorded by rules 1 and 2 only: rules 3 read them from the setup and
    from `AgeEnded`."""

    choosers: list[dict[str, int]]


class InitiativeTaken(Game.Event):
    """The `chooser` of the `pair` takes the Initiative Token: the `holder`."""

    pair: int
    chooser: int
    holder: int


class InitiativeGiven(Game.Event):
    """The `chooser` of the `pair` gives the Initiative Token to its Enemy, the
    `holder`."""

    pair: int
    chooser: int
    holder: int


class AgeBegan(Game.Event):
    """A new Age begins: its number, `age`."""

    age: int


class AgeGold(GoldGained):
    """Every position gains the Age's gold (`gains` by position, `gold` after)."""


class AdventureRevealed(CardsMoved):
    """The Initiative holder (`position`) draws the `age`'s Adventure for the `pair`."""

    pair: int
    age: int | None


# ----------------------------------------------------- Phase 2: Skirmish and Peacetime


class DraftBegan(Game.Event):
    """A draft of the Age begins, its Lineups dealt: its `kind` (skirmish or
    peacetime), its `step` (0-2) and each group's `lineups` (lineup, members, drafting
    order: one pick per card dealt; rules 1 and 2 stated it before the deal)."""

    kind: str
    step: int
    lineups: list[dict[str, Any]]


class SkirmishLineupDealt(CardsMoved):
    """Four mercenaries are dealt face up as a pair of Enemies' Skirmish Lineup."""


class PeacetimeLineupDealt(CardsMoved):
    """Two cards of a position's Nation Deck (or the mercenary deck) join its
    Alliance's Peacetime Lineup."""


class EmptyDecksGold(GoldPaid):
    """Empty Decks: the `position` gains the Age's gold per card it could not draw
    (`amount`, `gold` after), `instead_of` the draw it replaces."""

    instead_of: str | None


class DraftOrderShortened(Game.Event):
    """A lineup short of cards (Empty Decks) shortens its drafting order: the
    `lineups`' orders now. Recorded by rules 1 and 2 only: rules 3 state the order
    once (`DraftBegan`)."""

    lineups: list[dict[str, Any]]


class Drafted(CardsMoved):
    """The `position` drafts a card from its lineup."""

    position: int


class DraftPassed(Game.Event):
    """The `lineup` passes `to` the next drafter (None: its drafting is over)."""

    lineup: str | None
    to: int | None


class UndraftedLost(CardsMoved):
    """The cards left in a lineup go to the Lost Pile."""


class RecruitPaid(GoldPaid):
    """The `position` pays the `card`'s cost to recruit it (`amount` negative, `gold`
    after)."""

    card: int | None


class Recruited(CardsMoved):
    """The recruited card goes to the position's War Camp."""

    position: int


class Sold(GoldPaid):
    """The `position` sells the `card` for its value at once (`amount`, `gold` after)."""

    card: int | None


class SoldCardLost(CardsMoved):
    """The sold card goes to the Lost Pile."""

    position: int


# ------------------------------------------------------------- Phase 3: War: Deploy


class DeployBegan(Game.Event):
    """Deploy begins: in each pair of Enemies whose deploy it is (`turns`: pair,
    position, how many cards it places now)."""

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
    both have placed all)."""

    pair: int | None
    position: int | None
    deploys: int | None


# ------------------------------------------------------------------------ Battle


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


# ---------------------------------------------------------------------- Adventure


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


# -------------------------------------------------------------------------- Spoil


class SpoilsBegan(Game.Event):
    """The Spoils are owed: per pair, each `owed` taker, battle (slot), how many
    (count) and of what kind (spoil or siege)."""

    owed: list[list[dict[str, Any]]]


class SpoilTaken(CardsMoved):
    """The `position` takes an Enemy unit of the battle at `slot` (or, `from_deck`, the
    top of the Enemy's Nation Deck) to its Retired Pile."""

    position: int
    slot: int | None
    from_deck: bool


class BountyPaid(GoldPaid):
    """Bounty: the taker of the `card` gains its gold (`amount`, `gold` after)."""

    card: int | None


class SiegeTokenPlaced(Game.Event):
    """A Siege unit of the `position` places a Siege Token on an Enemy Defense, the
    `card`."""

    position: int
    card: int


class SpoilsPassed(Game.Event):
    """The `pair`'s Spoils move on: the `position` took one at `slot` of its `kind`,
    `left` still owed there (0: the next taker's)."""

    pair: int | None
    position: int | None
    slot: int | None
    kind: str | None
    left: int | None


# ------------------------------------------------------ Adventure Defense, Retire


class AdventureDefenseBegan(Game.Event):
    """The completed Adventures that become Defenses are placed now."""


class AdventureDefensePlaced(CardsMoved):
    """The `position` places the Adventure it won as a Defense at its Location `slot`."""

    position: int
    slot: int | None


class RetireBegan(Game.Event):
    """Retire: every position's deployed cards are retired."""


class DefenseStays(CardsMoved):
    """A Defense stays at its Location."""

    position: int


class ReturnedToSelf(CardsMoved):
    """Return to Self: the card goes back to its position's War Camp."""

    position: int


class ReturnedToAlly(CardsMoved):
    """Return to Ally: the card goes to the Ally's War Camp."""

    position: int


class Retired(CardsMoved):
    """The cards go to the position's Retired Pile."""

    position: int


class Wealthy(GoldPaid):
    """Wealthy: the `position` gains the `card`'s gold on retiring (`amount`, `gold`
    after)."""

    card: int | None


class WarCry(CardsMoved):
    """War Cry: the top card of the position's Nation Deck goes to its War Camp."""

    position: int


class AdventureDiscarded(CardsMoved):
    """The `pair`'s Adventure not completed this Age is discarded."""

    pair: int | None


# ------------------------------------------------------------------------ Produce


class ProduceBegan(Game.Event):
    """Produce begins: the `optional` abilities each position is asked about (position,
    ability, source)."""

    optional: list[dict[str, Any]]


class Produced(GoldGained):
    """Taxes or Prosperous (the `ability`, the `card` that has it; None: a Location)
    pays (`gains` by position, `gold` after)."""

    ability: str
    card: int | None


class GateUsed(CardsMoved):
    """Gate to Self or Gate to Ally (the `ability`): a Retired card goes to a War Camp."""

    position: int
    ability: str


class CallToArms(CardsMoved):
    """Call to Arms: the top card of the position's Nation Deck goes to its War Camp."""

    position: int


class LostSouls(CardsMoved):
    """Lost Souls: the top card of the position's Nation Deck goes to the Lost Pile."""

    position: int


class ProduceAnswered(Game.Event):
    """The `position` answers its optional Produce `ability` of `source`: `used` or
    not."""

    position: int | None
    ability: str | None
    source: int | None
    used: bool | None


# ------------------------------------------------------- Winning the War, the end


class TiedWarGold(GoldGained):
    """A fully tied War: both Enemies of the `pair` gain the Age's gold (`gains`,
    `gold` after)."""

    pair: int | None


class LoserDrew(CardsMoved):
    """The War's loser draws the top card of its Nation Deck to its War Camp."""

    position: int


class AgeEnded(Game.Event):
    """The Age's Wars are decided (`wars`: pair, winner, battles won): each winner
    takes the `age`'s Victory Token; a fully tied War passes the Initiative Token."""

    age: int
    wars: list[dict[str, Any]]


class GameOver(Game.Event):
    """The third Age is over: the game ends and is scored."""


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
