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
"""

from __future__ import annotations

from typing import TypedDict

from aggregates.kernel import Game

#: The cards are hidden from other readers, who get how many.
CARD_COUNT = (("cards", "count"),)


class Die(TypedDict):
    """A die of the pool: its kind (`die`) and the `face` that came up (successes)."""

    die: str
    face: int


#: A unit in a Battle and the region it came `from` (a keyword, hence the call).
Troop = TypedDict("Troop", {"unit": str, "from": str})
#: A unit withdrawn `from` the Battle's region `to` an adjacent one.
Withdrawal = TypedDict("Withdrawal", {"unit": str, "from": str, "to": str})


class Army(TypedDict):
    """A region's army: its `nation` (seat) and its units by type."""

    nation: int
    units: dict[str, int]


class Side(TypedDict):
    """One side of a Battle as it begins: its `seat`, its `troops`, its dice
    `pool` and the dice left in its `reserve`, its `bonus` strength, the Support
    Cards `played`, the Nation Cards `used` and always-on (`passive`), and whether
    its Titan ability, its Nation ability and a unit moving in were `titan_used`,
    `ability_used` and `moved_in`."""

    seat: int
    troops: list[Troop]
    pool: list[Die]
    reserve: dict[str, int]
    bonus: int
    played: list[int]
    used: list[int]
    passive: list[int]
    titan_used: bool
    ability_used: bool
    moved_in: bool


class Purchase(TypedDict):
    """One player's Opening Purchase: the `card` bought (null: none), its `cost`
    and the Support Cards `paid`."""

    seat: int
    card: int | None
    cost: int
    paid: list[int]


class Bonus(TypedDict):
    """The bonus VP of a Battle won: for a `titan` destroyed, a `stronghold`
    destroyed and a `capitol` damaged."""

    titan: int
    stronghold: int
    capitol: int


class Setup(TypedDict):
    """The Main Board Setup (`setup`), the `variant` and the number of `rounds`;
    each seat's Nation, the regions out of play (`inactive`), the starting
    `armies`, the Capitols' owners, each Nation Board's `reserve` and Titan, and
    the shuffled Support, Nation and Objective decks (the public form gives each
    deck's size)."""

    setup: str
    variant: str
    rounds: int
    nations: list[str]
    inactive: list[str]
    armies: dict[str, Army]
    capitols: dict[str, int]
    reserve: list[dict[str, int]]
    titan: list[str]
    support_deck: list[int] | int
    nation_decks: list[list[int] | int]
    objective_deck: list[int] | int


class Outcome(TypedDict):
    """How the game ended (the Ended event's ``outcome``): every seat's `vp`,
    the VP of its regions (`region_vp`), its `regions` and `units` on the map
    (the tie-breaks), the `ranking`, the `winners` and the first of them
    (`winner`)."""

    result: str
    vp: list[int]
    region_vp: list[int]
    regions: list[int]
    units: list[int]
    ranking: list[int]
    winners: list[int]
    winner: int


# ------------------------------------------------------------------ Support Cards


class SupportDrawn(Game.Event):
    """The `seat` draws Support `cards` from the `source` (``deck`` or the face-up
    ``row``), `why` (``setup``, ``turn``, ``battle lost``, ``stronghold``,
    ``ability``, ``reinforcement``)."""

    PUBLIC_COUNTS = CARD_COUNT

    seat: int
    cards: list[int]
    source: str
    why: str


class SupportUnavailable(Game.Event):
    """The Active Player (`seat`) can draw no Support Card this turn: the deck,
    its discards and the row are empty."""

    seat: int


class SupportRowRefilled(Game.Event):
    """The face-up Support row is refilled with `cards` from the deck."""

    cards: list[int]


class SupportDeckReshuffled(Game.Event):
    """The Support discards are shuffled into a new `deck` (in its order)."""

    PUBLIC_COUNTS = (("deck", "count"),)

    deck: list[int]


class SupportDiscarded(Game.Event):
    """The `seat` discards Support `cards`, `why` (``reroll``, ``hand limit``,
    ``reinforcement``, or paid for a purchase)."""

    seat: int
    cards: list[int]
    why: str


# ------------------------------------------------------------------- Game Setup


class OpeningPurchaseChosen(Game.Event):
    """The `seat` secretly chooses its Opening Purchase: the Nation `card` (null:
    none), the Support Cards to `pay` and the card put at the `bottom` of its
    Nation Deck."""

    seat: int
    card: int | None
    pay: list[int]
    bottom: int


class OpeningPurchasesRevealed(Game.Event):
    """The Opening Purchases are revealed together: every seat's purchase."""

    purchases: list[Purchase]


class ObjectivesDealt(Game.Event):
    """The `seat` is dealt Secret Objective `cards` for the draft."""

    PUBLIC_COUNTS = CARD_COUNT

    seat: int
    cards: list[int]


class ObjectiveKept(Game.Event):
    """The `seat` keeps the Secret Objective `card`; the cards `returned` go back
    to the Objective deck (at the draft's last pick, or a Reinforcement)."""

    PUBLIC_COUNTS = (("returned", "count"),)

    seat: int
    card: int
    returned: list[int]


class ObjectivesPassed(Game.Event):
    """The `seat` passes the rest of its Objective `cards` to the seat `to` its left."""

    PUBLIC_COUNTS = CARD_COUNT

    seat: int
    to: int
    cards: list[int]


class DraftPassed(Game.Event):
    """The passed Objective cards are picked up: the draft's `pick` begins (recorded
    by rules 1.0.0 and 1.1.0 only; since, the last `ObjectivesPassed` begins it)."""

    pick: int


class DraftEnded(Game.Event):
    """The Objective draft is over: how many each player `kept` (recorded by rules
    1.0.0 and 1.1.0 only; since, the last `ObjectiveKept` ends it)."""

    kept: list[int]


# ------------------------------------------------------------------ Order Cards


class RoundBegan(Game.Event):
    """The `round` begins with its Starting Player (`start_player`)."""

    round: int
    start_player: int


class OrderDeckShuffled(Game.Event):
    """The Order Cards are shuffled into the `round`'s `deck` (in its order)."""

    PUBLIC_COUNTS = (("deck", "count"),)

    round: int
    deck: list[int]


class OrderPoolDrawn(Game.Event):
    """The Order Pool's `cards` are drawn for the `round`; the `first` seat plays."""

    round: int
    cards: list[int]
    first: int


class UpcomingPoolDrawn(Game.Event):
    """The Upcoming Pool's `cards` are drawn for the `round`."""

    round: int
    cards: list[int]


class OrderPoolSlid(Game.Event):
    """The last Order Pool `card` is discarded, the Upcoming Pool slides into the
    Order Pool, and new Upcoming `cards` are drawn."""

    card: int
    cards: list[int]


class OrderTaken(Game.Event):
    """The `seat` takes the Order `card` from the Pool: its `actions`."""

    seat: int
    card: int
    actions: list[str]


class OrdersEnded(Game.Event):
    """The `seat` is done with its Order `card`: the actions left `unused` and the
    regions whose `battles` follow."""

    seat: int
    card: int
    unused: list[str]
    battles: list[str]


# ---------------------------------------------------------------------- Actions


class UnitMoved(Game.Event):
    """The `seat`'s `units` move by the `action` from the `origin` `to` a region
    (spending a Control Token: `token`): the `result` is ``moved``, ``taken`` (the
    region is taken) or ``battle`` (they wait on the border)."""

    seat: int
    action: str
    units: dict[str, int]
    origin: str
    to: str
    token: bool
    result: str


class BattleDeclared(Game.Event):
    """The `seat` instigates a Battle in the `region` against the `defender`
    (`fortified`: behind a Stronghold)."""

    seat: int
    region: str
    defender: int
    fortified: bool


class RegionTaken(Game.Event):
    """The `seat` takes the `region` from its `owner` without a Battle (its
    `capitol`, its `stronghold`): the `vp` it scores."""

    seat: int
    region: str
    owner: int
    capitol: bool
    stronghold: bool
    vp: int


class UnitDeployed(Game.Event):
    """The `seat` deploys a `unit` from its Nation Board to the `region` by the `action`."""

    seat: int
    action: str
    unit: str
    region: str


class StrongholdBuilt(Game.Event):
    """The `seat` builds a Stronghold in the `region`."""

    seat: int
    region: str


class NationCardPurchased(Game.Event):
    """The `seat` buys the Nation `card` for its `cost`, with the Support Cards
    `paid`, `why` (the action, or the Opening); the card put at the `bottom` of
    its Nation Deck."""

    seat: int
    card: int
    cost: int
    paid: list[int]
    why: str
    bottom: int


class NationDeckTopSeen(Game.Event):
    """The `seat` looks at the top `cards` of its Nation Deck."""

    seat: int
    cards: list[int]


class ObjectiveAccomplished(Game.Event):
    """The `seat` reveals its Secret Objective `card` (`name`), met: its `vp`."""

    seat: int
    card: int
    name: str
    vp: int


# ---------------------------------------------------------------------- Battles


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


# ----------------------------------------------------------- Clean-Up and turns


class TitanRaised(Game.Event):
    """The `seat` stands its lying Titan up on its Nation Board."""

    seat: int


class TitanDeployed(Game.Event):
    """The `seat` deploys its standing Titan to the `region`."""

    seat: int
    region: str


class TurnEnded(Game.Event):
    """The `seat`'s turn ends."""

    seat: int


class TurnBegan(Game.Event):
    """The `seat`'s turn begins."""

    seat: int


# ---------------------------------------------------------- End of the Round


class RoundScored(Game.Event):
    """The `round` is scored: each seat's controlled `regions` and the `vp` they
    give (`final`: the last Round, the game is over)."""

    round: int
    regions: list[int]
    vp: list[int]
    final: bool


class StartingPlayerPassed(Game.Event):
    """The Starting Player token passes: the next `round`'s `start_player`."""

    round: int
    start_player: int


class ReinforcementChosen(Game.Event):
    """The `seat` chooses its `reinforcement` (1 or 2): the `option` taken."""

    seat: int
    reinforcement: int
    option: str


class ObjectivesDrawn(Game.Event):
    """The `seat` draws Secret Objective `cards` as a Reinforcement."""

    PUBLIC_COUNTS = CARD_COUNT

    seat: int
    cards: list[int]


class RoundPrepared(Game.Event):
    """The next `round` is prepared: the Support row's cards discarded
    (`row_discarded`) and the rotated Nation Cards `restored`."""

    round: int
    row_discarded: list[int]
    restored: list[int]


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
