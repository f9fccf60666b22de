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
"""

from __future__ import annotations

from typing import Any, Literal, TypedDict

from aggregates.kernel import Game


class PlayerSetup(TypedDict):
    """A player's opening table: the `deck`, its `stronghold`, starting
    `castles` and their `food`, the stronghold's starting `renown`, and the
    deck's shuffled `cards` (their count in the public form)."""

    deck: str
    stronghold: str
    castles: list[str]
    renown: int
    food: list[int]
    cards: list[str] | int


class Setup(TypedDict):
    """The setup: each player's deck and opening table, and the first Ordained."""

    players: list[PlayerSetup]
    ordained: int


class Outcome(TypedDict):
    """How the game ended (the Ended event's ``outcome``): the result as read,
    the winner and how they won."""

    result: str
    winner: int
    how: Literal["dominance", "popular", "conquest", "last standing"]
    winners: list[int]


# ------------------------------------------------------------- Turn Sequence


class TurnBegan(Game.Event):
    """A new turn begins (`turn`), the `ordained` player holding the Ordained token."""

    ordained: int
    turn: int


class SpringBegan(Game.Event):
    """The Spring Phase: each player straightens their bowed cards in play
    (`straightened`)."""

    straightened: list[str]
    turn: int


class PhaseBegan(Game.Event):
    """The Summer or Autumn Phase (`phase`) begins: actions pass round the table in
    this `order` of seats."""

    order: list[int]
    phase: str
    turn: int


class PhaseEnded(Game.Event):
    """The `phase` ends (every player passed in a row); effects lasting the phase
    end."""

    phase: str
    turn: int


# -------------------------------------------------------- Actions and Reacts


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
    may React in this `order`."""

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
    React to play."""

    forced: bool
    seat: int
    source: str


class AbilityResolved(Game.Event):
    """The `source`'s ability takes effect, or is spent without effect when
    `cancelled`."""

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


# -------------------------------------------------------------- Paying Costs


class Bowed(Game.Event):
    """The `seat` bows these `cards` (`why`: a cost, an action, an effect)."""

    cards: list[str]
    seat: int
    why: str


class Straightened(Game.Event):
    """The `seat`'s `cards` are straightened."""

    cards: list[str]
    seat: int


class FoodSpent(Game.Event):
    """The `seat` spends one food from each of these `castles` (`why`), `left` on
    each after it."""

    castles: list[str]
    left: dict[str, int]
    seat: int
    why: str


# ------------------------------------------------------------- Playing Cards


class CardPlayed(Game.Event):
    """The `seat` plays the `card` (`key`, of `type`) from hand, attached to
    `attach_to` if an attachment, `bowed` if it enters play bowed."""

    attach_to: str | None
    bowed: bool
    card: str
    key: str
    seat: int
    type: str


class TokenMade(Game.Event):
    """A token `token` of the `card` is made for the `seat`, attached to
    `attached_to`."""

    attached_to: str
    card: str
    seat: int
    token: str


# ---------------------------------------------------------------------- Food


class FoodAdded(Game.Event):
    """The `source` adds `amount` food to the `castle` (`total` after it)."""

    amount: int
    castle: str
    seat: int
    source: str
    total: int


class FoodLost(Game.Event):
    """The `castle` loses `amount` food to the `source` (`total` after it)."""

    amount: int
    castle: str
    seat: int
    source: str
    total: int


# ------------------------------------------- Decks, Discard Piles, and Hands


class CardsDrawn(Game.Event):
    """The `seat` draws `count` cards (`cards`, read by the drawer alone) (`why`)."""

    cards: list[str]
    count: int
    seat: int
    why: str


class DeckReshuffled(Game.Event):
    """The `seat`'s discard pile is shuffled into a new deck in this `order` (read
    by nobody), `count` cards."""

    count: int
    order: list[str]
    seat: int


class CardsDiscarded(Game.Event):
    """The `seat` discards the `cards` (`keys`) from hand (`why`)."""

    cards: list[str]
    keys: list[str]
    seat: int
    why: str


# ------------------------------------------------------------- Burying Cards


class HeroBuried(Game.Event):
    """The `hero` (`key`) of the `seat` is buried (`why`) with the attachments
    `buried` and those `discarded`, and the `food` it carried is lost."""

    buried: list[str]
    discarded: list[str]
    food: int
    hero: str
    key: str
    seat: int
    why: str


class CardBuried(Game.Event):
    """The `card` (`key`, a `token` or not) of the `seat` is buried (`why`)."""

    card: str
    key: str
    seat: int
    token: bool
    why: str


# -------------------------------------------------------------------- Quests


class GloryPaid(Game.Event):
    """The `seat` pays the quest's `glory` with the `heroes` at home, `bowed` those
    it bows."""

    bowed: list[str]
    glory: int
    heroes: list[str]
    seat: int


class QuestCompleted(Game.Event):
    """The `seat` completes the `quest` (`key`), gaining its `renown` (`total` after
    it)."""

    key: str
    quest: str
    renown: int
    seat: int
    total: int


class RenownGained(Game.Event):
    """The `seat` gains `amount` Renown (`why`), `total` after it."""

    amount: int
    seat: int
    total: int
    why: str


# ------------------------------------------------------------ Declare Attack


class BattleDeclared(Game.Event):
    """The `attacker` attacks the `defender`'s `castles`; the players `allies_asked`
    may be called as allies."""

    allies_asked: list[int]
    attacker: int
    castles: list[str]
    defender: int


class AlliesCalled(Game.Event):
    """The `seat` (attacker or defender) calls for allies or not (`call`)."""

    call: bool
    seat: int


class AllyChosen(Game.Event):
    """The `seat` joins the battle as an ally of the `side` (or stays out)."""

    seat: int
    side: str


class UnitsAssigned(Game.Event):
    """The `seat` assigns its `heroes` to the `castles` (as the `side`)."""

    castles: list[str]
    heroes: list[str]
    seat: int
    side: str


class MovedToBattle(Game.Event):
    """The `hero` moves to the battle at the `castle` on the `side`."""

    castle: str
    hero: str
    side: str


# ------------------------------------------------ Battle Action & Resolution


class BattleChosen(Game.Event):
    """The `seat` chooses the battle at the `castle` to resolve next; actions pass
    in this `order`."""

    castle: str
    order: list[int]
    seat: int


class Engaged(Game.Event):
    """The `seat`'s `cards` (`side`) engage at the `castle` for `damage`, `brutal`
    or not; the others may React in this `order`."""

    brutal: bool
    cards: list[str]
    castle: str
    damage: int
    order: list[int]
    seat: int
    side: str


class ReturnedHome(Game.Event):
    """The `seat` bows its unit (`bowed`: the `hero` and its attachments) to return
    it home."""

    bowed: list[str]
    hero: str
    seat: int


# ------------------------------------------------------- Engaging and Damage


class ImmunityStep(Game.Event):
    """The `seat` is to declare its immune cards against `damage` (recorded by
    rules 1.3.0 and before; 1.4.0 derives the step from the facts)."""

    damage: int
    seat: int


class AbsorbStep(Game.Event):
    """The `seat` is to absorb the engagement's `damage` (recorded by rules 1.3.0
    and before; 1.4.0 derives the step from the facts)."""

    damage: int
    seat: int


class ImmunityDeclared(Game.Event):
    """The `seat` declares these `cards` immune to the engagement."""

    cards: list[str]
    seat: int


class DamageAbsorbed(Game.Event):
    """The `seat`'s `card` absorbs `absorbed` damage by its `kind` (discarding
    `discard`, with `fate`), `remaining` left."""

    absorbed: int
    card: str
    discard: str | None
    fate: int
    kind: str
    remaining: int
    seat: int


class EngagementResolved(Game.Event):
    """The engagement by the `seat` is resolved, `wasted` damage left unabsorbed."""

    seat: int
    wasted: int


class CastleBuried(Game.Event):
    """The `seat`'s `castle` (`key`) falls to the `attacker` and is buried."""

    attacker: int
    castle: str
    key: str
    seat: int


class BattleEnded(Game.Event):
    """The battle at the `castle` ends: the castle stands or not (`castle_stands`);
    the `attackers` and the defenders at home (`defenders_home`)."""

    attackers: list[str]
    castle: str
    castle_stands: bool
    defenders_home: list[str]


class AttackEnded(Game.Event):
    """The `attacker`'s attack on the `defender` ends."""

    attacker: int
    defender: int


# ------------------------------------------------------------------- Raiding


class RaidDeclared(Game.Event):
    """The `raider` raids the `defender`'s `castles`."""

    castles: list[str]
    defender: int
    raider: int


class RaidUnitsAssigned(Game.Event):
    """The `seat` (`side`) assigns its `heroes` to the `castles` with face-down
    `stealth` cards (read by their owner; others read `stealth_count`)."""

    castles: list[str]
    heroes: list[str]
    seat: int
    side: str
    stealth: list[str]
    stealth_count: int


class RaidChosen(Game.Event):
    """The `seat` chooses the raid at the `castle` to resolve next; actions pass in
    this `order`."""

    castle: str
    order: list[int]
    seat: int


class SentHome(Game.Event):
    """The `hero` is sent home, its `stealth` card discarded."""

    hero: str
    stealth: str | None


class RaidResolved(Game.Event):
    """The raid at the `castle`: the `raider`'s total (`raider_total`: the
    `raiding_hero`'s stealth, `raider_stealth`'s fate `raider_fate`, `raider_bonus`)
    against the `defender`'s (`against`, by might or not: `against_might`;
    `defending_hero`, `defender_stealth`, `defender_fate`, `defender_bonus`); on
    `success`, `stolen` food."""

    against: int
    against_might: bool
    castle: str
    defender: int
    defender_bonus: int
    defender_fate: int
    defender_stealth: str | None
    defending_hero: str | None
    raider: int
    raider_bonus: int
    raider_fate: int
    raider_stealth: str | None
    raider_total: int
    raiding_hero: str | None
    stolen: int
    success: bool


class RaidEnded(Game.Event):
    """The `raider`'s raid on the `defender` ends."""

    defender: int
    raider: int


# -------------------------------------------------------------- Winter Phase


class WinterBegan(Game.Event):
    """The Winter Phase of the `turn` begins."""

    turn: int


class FoodStored(Game.Event):
    """The `seat`'s `heroes` bring their food home: the `moves` (food to castles),
    `discarded` food left over."""

    discarded: int
    heroes: list[str]
    moves: list[list[str]]
    seat: int


class RedistributionBegan(Game.Event):
    """The `seats` may redistribute their food among their castles."""

    seats: list[int]


class FoodRedistributed(Game.Event):
    """The `seat` places its `food` on its castles."""

    seat: int
    food: dict[str, int]


class EffectsEnded(Game.Event):
    """Effects lasting the `turn` end."""

    turn: int


class QuestBuried(Game.Event):
    """The `seat`'s `quest` (`key`) is buried."""

    key: str
    quest: str
    seat: int


class HandSizeChecked(Game.Event):
    """The players over the hand size (`over`) must discard down to it."""

    over: list[int]


class OrdainedPassed(Game.Event):
    """The Ordained token passes from the `seat` to the seat `to`."""

    seat: int
    to: int


# ---------------------------------------------------------- Winning the Game


class PlayerEliminated(Game.Event):
    """The `seat` is eliminated (`why`)."""

    seat: int
    why: str


class GameWon(Game.Event):
    """The `winner` wins by the victory `how`, with the `renown` of every seat."""

    how: str
    renown: list[int]
    winner: int


# --------------------------------------------------------------------- Setup


class HandsDealt(Game.Event):
    """The opening hands are dealt to the `seats`."""

    seats: list[int]


class Mulliganed(Game.Event):
    """The `seat` mulligans: its hand is `discarded` (`keys`), one food paid from
    each castle of `food_from`, and a new hand drawn."""

    seat: int
    discarded: list[str]
    keys: list[str]
    food_from: list[str]


class HandKept(Game.Event):
    """The `seat` keeps its opening hand."""

    seat: int


class OrdainedTaken(Game.Event):
    """The `seat` takes the Ordained token."""

    seat: int


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
