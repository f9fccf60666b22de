"""Titans: the rulebook, section by section, played through the real flow.

Each test names the *Titans Rulebook* section it holds (``__rulebook_<Section>``)
and asserts the numbers the rulebook (or, where it refers to the missing
glossary, the rulings "Titans — rulings and the designed data") states, never
numbers read back from the code: every table (Order Pool Size, the Battle
Outcome tiers, the Support sets, the discounts), both worked examples of
"Managing the Order Cards", each step of the Game Setup, of a turn and of the
End of the Round, the End of the Game with its tie-breaks, and both Game
Variants.

Scenarios arrange the map of the 2-player Polish-Lithuanian Commonwealth /
Tsardom of Russia setup (seat 0 Poland, seat 1 Russia) with
``aggregates.titans.testing``; dice are set after they are rolled, as if they
had come up so.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest

from aggregates.kernel import RuleError
from aggregates.titans import scoring, testing
from aggregates.titans.abilities import hand_limit
from aggregates.titans.commands import (
    BuildStronghold,
    ChooseBattle,
    DeployUnit,
    DestroyUnits,
    DiscardSupport,
    DiscardToReroll,
    DrawSupport,
    EndOrders,
    EndStage,
    GroupMove,
    KeepObjective,
    MoveUnit,
    OpeningPurchase,
    PlayMoveUnit,
    PlaySupport,
    PurchaseNationCard,
    ReinforceObjectives,
    ReinforcePurchase,
    ReinforceSupport,
    ReinforceUnit,
    RerollDice,
    UseNationAbility,
    UseNationCard,
    UseTitanAbility,
    Withdraw,
)
from aggregates.titans.data import NATION_CARDS, NATIONS, ORDERS, SETUPS, TABLES, order_deck
from aggregates.titans.game import Titans
from aggregates.titans.purchase import cost
from aggregates.titans.testing import attack, fight, named

POLAND, RUSSIA = 0, 1
#: The map of most scenarios: Poland's army beside Russia's in Vilnius.
ATTACK = {"warsaw": (POLAND, {"infantry": 2, "cavalry": 1}), "krakow": (POLAND, {"infantry": 1}),
          "vilnius": (RUSSIA, {"infantry": 2}), "moscow": (RUSSIA, {"infantry": 1, "titan": 1})}
#: Game Contents, as the rulebook lists them.
CONTENTS = {"infantry": 6, "cavalry": 4, "artillery": 2, "titan": 1}
#: "Main Board Setup": the Nations in starting turn order, by player count.
NAMES = {"Polish-Lithuanian Commonwealth": "poland", "Tsardom of Russia": "russia",
         "Ottoman Empire": "ottoman", "Kingdom of Sweden": "sweden"}
MAIN_BOARD_SETUPS = {
    2: [["Polish-Lithuanian Commonwealth", "Tsardom of Russia"],
        ["Polish-Lithuanian Commonwealth", "Ottoman Empire"],
        ["Kingdom of Sweden", "Tsardom of Russia"],
        ["Tsardom of Russia", "Ottoman Empire"],
        ["Kingdom of Sweden", "Ottoman Empire"]],
    3: [["Polish-Lithuanian Commonwealth", "Tsardom of Russia", "Ottoman Empire"],
        ["Kingdom of Sweden", "Tsardom of Russia", "Ottoman Empire"]],
    4: [["Kingdom of Sweden", "Tsardom of Russia", "Ottoman Empire",
         "Polish-Lithuanian Commonwealth"]] * 2,   # one per side of the board
}
#: "Managing the Order Cards": Order Pool Size by number of players.
ORDER_POOL_SIZE = {2: 4, 3: 5, 4: 4}
#: "4) Battle Outcome" (the Battle Outcome Card, in the rulings): by Strength
#: difference, the units the loser destroys, the Support Cards he draws, the
#: winner's VP.
BATTLE_OUTCOME = {0: (0, 1, 1), 1: (0, 1, 1), 2: (0, 1, 1), 3: (1, 2, 2), 4: (1, 2, 2),
                  5: (2, 3, 4), 6: (2, 3, 4)}


# ------------------------------------------------------------------ helpers


def arranged(layout: dict[str, tuple[int, dict[str, int]]] | None = None,
             control: dict[str, int] | None = None, strongholds: tuple[str, ...] = (),
             players: int = 2) -> Titans:
    """Round 1, Poland's first turn, the map as given (``ATTACK`` unless told),
    both hands empty."""
    return testing.arranged(ATTACK if layout is None else layout, control, strongholds, players)


def resolve(game: Titans) -> None:
    """The loser's choices (units destroyed, where to withdraw): the first offered."""
    while game.battle is not None:
        [decision] = game.pending()
        assert decision.kind in ("destroy_units", "withdraw"), decision.kind
        testing.play(game, decision.seat, testing.legal(game, decision.seat)[0])


def reinforce_plainly(game: Titans) -> None:
    """Every Reinforcement of a Round's end: 2 Support Cards from the Deck, then the
    first 2nd Reinforcement offered."""
    while game.reinforcing is not None and not game.over:
        [decision] = game.pending()
        command = (ReinforceSupport(row=()) if decision.kind == "first_reinforcement"
                   else testing.legal(game, decision.seat)[0])
        testing.play(game, decision.seat, command)


def play_to_end(game: Titans) -> list[tuple[str, dict[str, Any]]]:
    """Turns with no action used and plain Reinforcements, to the game's end; the
    events recorded on the way."""
    recorded = testing.events(game)
    while not game.over:
        if game.reinforcing is not None:
            reinforce_plainly(game)
        else:
            testing.quick_turn(game)
        recorded += testing.events(game)
    return recorded


# ------------------------------------------------------------------ Game Contents


def test_the_components_of_the_box__rulebook_Game_Contents() -> None:
    """13 Units per Nation (6 Infantry, 4 Cavalry, 2 Artillery, 1 Titan), 3
    Strongholds, 7 Control Tokens per Nation, 16 Order Cards, 18 Secret Objectives,
    32 Support Cards, 10 Nation Cards per Nation (4 Nations), a set of 8 Battle Dice
    (3 Infantry, 2 Cavalry, 1 Artillery, 2 Titan), 13 Inactive Region Tokens."""
    assert TABLES.supply.full() == CONTENTS and sum(CONTENTS.values()) == 13
    assert TABLES.strongholds == 3 and TABLES.control_tokens == 7
    assert len(ORDERS) == 16 and TABLES.inactive_tokens == 13
    assert sorted(NATIONS) == sorted(NAMES.values())
    assert all(len(n.cards) == 10 for n in NATIONS.values()) and len(NATION_CARDS) == 40
    assert dict(TABLES.dice.reserve) == {"infantry": 3, "cavalry": 2, "artillery": 1,
                                         "titan": 2}
    game = testing.new_game(2)
    cards = game.support_deck + game.support_row + [c for h in game.hands for c in h]
    assert game.draft is not None
    dealt = [c for h in game.draft["holding"] for c in h]
    assert len(cards) == 32 and len(game.objective_deck) + len(dealt) == 18


# ------------------------------------------------------------------ Game Setup


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_main_board_setups_nations_capitols_and_units__rulebook_Game_Setup_2(
        players: int) -> None:
    """2. The Main Board Setup for the player count shows the Nations in starting turn
    order, their Capitols and Units; 2/3-player games leave Regions inactive, one
    Inactive Region Token on each (13 Tokens); the first Nation takes the Starting
    Player Token and the first Turn."""
    setups = [s for s in SETUPS if s.players == players]
    assert [list(s.nations) for s in setups] == [
        [NAMES[n] for n in line_up] for line_up in MAIN_BOARD_SETUPS[players]]
    for setup in setups:
        game = testing.through_setup(testing.new_game(players, setup=setup.key))
        assert game.nations == list(setup.nations)
        assert sorted(c["owner"] for c in game.capitols.values()) == list(range(players))
        assert all(not c["damaged"] for c in game.capitols.values())
        for seat in range(players):       # the units on the map and the reserve: 13
            on_map = Counter[str]()
            for army in game.armies.values():
                if army["nation"] == seat:
                    on_map.update(army["units"])
            assert on_map + Counter(game.reserve[seat]) == Counter(CONTENTS)
        assert (len(game.inactive) > 0) == (players < 4) and len(game.inactive) <= 13
        assert game.round == 1 and game.start_player == 0 and game.current == 0


@pytest.mark.parametrize(("players", "cards"), [(2, 11), (3, 15), (4, 16)])
def test_the_order_deck_by_player_count__rulebook_Game_Setup_4(players: int,
                                                                cards: int) -> None:
    """4. "In a 2-player game take out all the Order Cards marked "3+ players" and "4
    players" ... In a 3-player game take out the Order Card marked "4 players" ... In a
    4-player game use all the Order Cards" (16; the counts of each mark: the rulings)."""
    game = testing.through_setup(testing.new_game(players))
    in_play = game.order_deck + game.order_pool + game.upcoming
    assert sorted(in_play) == order_deck(players) and len(in_play) == cards
    marks = {ORDERS[c].players for c in in_play}
    assert marks == {2: {"all"}, 3: {"all", "3+"}, 4: {"all", "3+", "4"}}[players]


def test_support_cards_three_each_and_four_face_up__rulebook_Game_Setup_5() -> None:
    """5. Each player draws 3 Support Cards; 4 are placed face up near the Deck."""
    game = testing.new_game(3)
    assert [len(h) for h in game.hands] == [3, 3, 3] and len(game.support_row) == 4
    assert len(game.support_deck) == 32 - 3 * 3 - 4


def test_the_first_nation_card__rulebook_Game_Setup_6() -> None:
    """6. Each player picks up his top 3 Nation Cards and may purchase 1, paying its
    cost (0-3) in Support Cards; the purchases are revealed simultaneously; one of the
    others may go to the bottom of the Nation Deck, the rest stay on top. A player may
    buy none and still put one at the bottom (6d)."""
    game = testing.new_game(2, setup="2-poland-russia")
    top = [game.nation_decks[s][:3] for s in (POLAND, RUSSIA)]
    card = max((c for c in top[POLAND] if NATION_CARDS[c].cost <= 3),
               key=lambda c: NATION_CARDS[c].cost)
    price = NATION_CARDS[card].cost
    assert 0 <= price <= 3
    pay = tuple(sorted(game.hands[POLAND])[:price])
    bottom = next(c for c in top[POLAND] if c != card)
    with pytest.raises(RuleError, match="NOT_HELD"):   # only the top 3
        testing.play(game, POLAND, OpeningPurchase(card=game.nation_decks[POLAND][3],
                                                   bottom=-1))
    testing.play(game, POLAND, OpeningPurchase(card=card, pay=pay, bottom=bottom))
    assert game.nation_cards == [[], []]                # not revealed yet
    testing.play(game, RUSSIA, OpeningPurchase(card=-1, bottom=top[RUSSIA][0]))
    assert game.nation_cards == [[card], []]            # both revealed together
    assert len(game.hands[POLAND]) == 3 - price and set(pay) <= set(game.support_discard)
    assert game.nation_decks[POLAND][-1] == bottom
    assert game.nation_decks[POLAND][:1] == [c for c in top[POLAND] if c not in (card, bottom)]
    assert game.nation_decks[RUSSIA][-1] == top[RUSSIA][0]
    assert game.nation_decks[RUSSIA][:2] == top[RUSSIA][1:]


def test_the_secret_objective_draft__rulebook_Game_Setup_7() -> None:
    """7. 4 cards dealt to each; keep 1 and pass the rest to the player on the right;
    keep 1 of 3, pass 2; keep 1 of 2, the last on the bottom of the Deck: 3 each."""
    game = testing.new_game(3)
    for seat in range(3):
        testing.play(game, seat, OpeningPurchase(card=-1, bottom=-1))
    assert game.draft is not None
    assert [len(h) for h in game.draft["holding"]] == [4, 4, 4]
    for held in (4, 3, 2):
        assert [len(h) for h in game.draft["holding"]] == [held] * 3
        before = [sorted(h) for h in game.draft["holding"]]
        for seat in range(3):
            testing.play(game, seat, KeepObjective(card=before[seat][0]))
        if held > 2:   # the right-hand player (the previous seat) gets the rest
            assert game.draft is not None
            assert [sorted(h) for h in game.draft["holding"]] == [
                before[(s + 1) % 3][1:] for s in range(3)]
    assert [len(o) for o in game.objectives] == [3, 3, 3]
    assert game.objective_deck[-3:] == [h[1] for h in before]  # the last ones, to the bottom
    assert len(game.objective_deck) == 18 - 12 + 3


# ------------------------------------------------------------------ Gameplay


def test_three_rounds_each_ended_by_the_order_deck__rulebook_Gameplay() -> None:
    """"The game of Titans is divided into 3 Rounds"; "When the Cards in the Order Deck
    run out, the Round is over. At the end of each Round players score Victory
    Points"."""
    game = arranged()
    recorded = play_to_end(game)
    scored = [p for n, p in recorded if n == "RoundScored"]
    assert [p["round"] for p in scored] == [1, 2, 3] and game.over
    shuffles = [p for n, p in recorded if n == "OrderDeckShuffled"]
    assert len(shuffles) == 2                           # Rounds 2 and 3 (Round 1 before)


# ------------------------------------------------------------------ Managing the Order Cards


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_order_pool_size_table__rulebook_Managing_the_Order_Cards(players: int) -> None:
    """The Starting Player draws the Order Pool Size (2: 4, 3: 5, 4: 4) and places as
    many above it: the Upcoming Order Pool."""
    game = testing.through_setup(testing.new_game(players))
    assert len(game.order_pool) == len(game.upcoming) == ORDER_POOL_SIZE[players]


def test_the_3_player_example__rulebook_Managing_the_Order_Cards() -> None:
    """5 cards available (A), 4 (B), 3 (C), 2 (A); the last card discarded, 5 cards
    moved down and 5 new drawn to the top row; 5 cards available (B)."""
    game = testing.through_setup(testing.new_game(3))
    upcoming = list(game.upcoming)
    turns = [testing.quick_turn(game) for _ in range(4)]
    assert turns == [(0, 5), (1, 4), (2, 3), (0, 2)]
    slid = named(game, "OrderPoolSlid")
    assert len(slid) == 1 and len(slid[0]["cards"]) == 5
    assert game.order_pool == upcoming and len(game.upcoming) == 5
    assert testing.quick_turn(game) == (1, 5)


def test_the_2_player_example__rulebook_Managing_the_Order_Cards() -> None:
    """4 (A), 3 (B), 2 (A); discarded, 4 moved down and 3 drawn; 4 (B), 3 (A), 2 (B);
    discarded; 3 (A), 2 (B); discarded: "After the Order Pool is depleted for the second
    time in the game, there are only 3 Order Cards remaining, instead of 4"."""
    game = arranged()
    turns = [testing.quick_turn(game) for _ in range(3)]
    assert turns == [(0, 4), (1, 3), (0, 2)] and len(game.upcoming) == 3
    turns = [testing.quick_turn(game) for _ in range(3)]
    assert turns == [(1, 4), (0, 3), (1, 2)] and game.upcoming == []
    turns = [testing.quick_turn(game) for _ in range(2)]
    assert turns == [(0, 3), (1, 2)]
    assert game.round == 2                              # the Round is over


def test_the_round_ends_after_the_active_players_turn__rulebook_Managing_the_Order_Cards(
) -> None:
    """"When the second-to-last Order Card has been played, and the last Order Card is
    discarded, the Round ends after the Active Player completes his turn" (4 players:
    4, 3, 2 four times)."""
    game = testing.through_setup(testing.new_game(4))
    turns = []
    while game.round == 1:
        turns.append(testing.quick_turn(game))
    assert [size for _seat, size in turns] == [4, 3, 2] * 4
    assert [seat for seat, _size in turns] == [0, 1, 2, 3] * 3
    names = [n for n, _p in testing.events(game)]
    last_turn = len(names) - 1 - names[::-1].index("TurnEnded")
    assert names[last_turn - 1:last_turn + 3] == ["SupportDrawn", "TurnEnded",
                                                  "OrderPoolSlid", "RoundScored"] or (
        names[last_turn + 1:last_turn + 3] == ["OrderPoolSlid", "RoundScored"])


# ------------------------------------------------------------------ Player's Turn


def test_the_four_phases_of_a_turn_in_order__rulebook_Playing_the_Game() -> None:
    """The Active Player's turn: 1. Order Phase, 2. Resolving Battles, 3. Draw 1
    Support Card, 4. Clean-Up; then the next player clockwise. Every turn is
    recorded from its beginning, the Round's first (the Starting Player's) too."""
    game = testing.through_setup(testing.new_game(2, setup="2-poland-russia"))
    opening = [n for n, _p in testing.events(game)]
    assert opening[-5:] == ["RoundBegan", "OrderDeckShuffled", "OrderPoolDrawn",
                            "UpcomingPoolDrawn", "TurnBegan"]
    testing.place(game, ATTACK)
    testing.set_hand(game, POLAND, [])
    testing.set_hand(game, RUSSIA, [])
    attack(game, "warsaw", "vilnius", ("infantry", "infantry", "cavalry"))
    fight(game, [("infantry", 2), ("infantry", 2), ("cavalry", 2)],
          [("infantry", 0), ("infantry", 0)])
    testing.finish_turn(game)
    phases = [n for n, _p in testing.events(game) if n in (
        "OrderTaken", "OrdersEnded", "BattleBegun", "BattleResolved", "SupportDrawn",
        "TurnEnded", "TurnBegan")]
    # Russia's 3 cards for losing are drawn in the Battle: its SupportDrawn comes first
    assert phases == ["OrderTaken", "OrdersEnded", "BattleBegun", "SupportDrawn",
                      "BattleResolved", "SupportDrawn", "TurnEnded", "TurnBegan"]
    assert game.current == RUSSIA and game.turn is not None and game.turn["seat"] == RUSSIA


def test_one_secret_objective_a_turn__rulebook_Playing_the_Game() -> None:
    """"A player may accomplish 1 Secret Objective on his Turn. He shows the Card,
    gets the appropriate number of Victory Points, and discards the Secret Objective
    Card"."""
    from aggregates.titans import objectives
    from aggregates.titans.commands import AccomplishObjective
    from aggregates.titans.data import OBJECTIVES

    game = arranged(control={r: POLAND for r in ("prussia", "pomerania", "livonia",
                                                 "poznan", "hungary")})
    met = [o.id for o in OBJECTIVES if objectives.met(game, POLAND, o.condition)]
    assert len(met) >= 2
    for c in met[:2]:
        for zone in (game.objective_deck, *game.objectives):
            if c in zone:
                zone.remove(c)
    game.objectives[POLAND] = met[:2]
    testing.play(game, POLAND, AccomplishObjective(card=met[0]))
    shown = named(game, "ObjectiveAccomplished")
    assert shown == [{"seat": POLAND, "card": met[0], "name": OBJECTIVES[met[0]].name,
                      "vp": OBJECTIVES[met[0]].vp}]
    assert game.vp[POLAND] == OBJECTIVES[met[0]].vp and game.accomplished[POLAND] == [met[0]]
    with pytest.raises(RuleError, match="ALREADY_USED"):
        testing.play(game, POLAND, AccomplishObjective(card=met[1]))


# ------------------------------------------------------------------ A) Order Phase


def test_one_order_card_not_skipped_nor_replenished__rulebook_A_Order_Phase() -> None:
    """The player chooses 1 Order Card of the Pool (he may not skip the Order Phase),
    uses its Actions in any order, may leave some unused; the card goes to the Order
    discard pile and the Pool is not replenished: the next player has one fewer."""
    game = arranged()
    assert {c.NAME for c in testing.legal(game, POLAND)} <= {"take_order",
                                                             "accomplish_objective"}
    with pytest.raises(RuleError):
        testing.play(game, POLAND, EndOrders())
    pool = len(game.order_pool)
    testing.give_order(game, 0)   # move infantry, move cavalry, deploy infantry
    testing.play(game, POLAND, DeployUnit(action="deploy_infantry", unit="infantry",
                                          region="krakow"))
    testing.play(game, POLAND, MoveUnit(action="move_cavalry", unit="cavalry",
                                        origin="warsaw", to="prussia"))
    testing.play(game, POLAND, EndOrders())
    assert named(game, "OrdersEnded")[0]["unused"] == ["move_infantry"]
    assert game.order_discard == [0]
    testing.finish_turn(game)
    assert len(game.order_pool) == pool - 1 and game.current == RUSSIA


# ------------------------------------------------------------------ Movement Actions


def test_movement_and_its_basic_rules__rulebook_Movement_Actions() -> None:
    """Each move crosses one border into a neighbouring Region; leaving a Region's
    last Unit places a Control Token (still controlled); entering an empty enemy
    Region makes its owner take back his Control Token; entering enemy Units
    initiates a Battle, resolved in step B, several in the order the Active Player
    chooses."""
    game = arranged(dict(ATTACK, prussia=(POLAND, {"infantry": 1})), control={"belarus": RUSSIA})
    testing.give_order(game, 0)   # move infantry, move cavalry, deploy infantry
    with pytest.raises(RuleError, match="NOT_ADJACENT"):
        testing.play(game, POLAND, MoveUnit(action="move_cavalry", unit="cavalry",
                                            origin="warsaw", to="moscow"))
    testing.play(game, POLAND, MoveUnit(action="move_infantry", unit="infantry",
                                        origin="prussia", to="vilnius"))
    assert game.control["prussia"] == POLAND and "prussia" not in game.armies
    assert named(game, "BattleDeclared")[0]["region"] == "vilnius"
    assert game.armies["vilnius"]["nation"] == RUSSIA       # the Battle waits for step B
    testing.play(game, POLAND, MoveUnit(action="move_cavalry", unit="cavalry",
                                        origin="warsaw", to="belarus"))
    assert game.control["belarus"] == POLAND                # Russia took back its token
    game2 = arranged(dict(ATTACK, lwow=(RUSSIA, {"cavalry": 1})))
    testing.give_order(game2, 2)  # move any, move any, stronghold
    testing.play(game2, POLAND, MoveUnit(action="move_any", unit="cavalry",
                                         origin="warsaw", to="vilnius"))
    testing.play(game2, POLAND, MoveUnit(action="move_any", unit="infantry",
                                         origin="krakow", to="lwow"))
    testing.play(game2, POLAND, EndOrders())
    [decision] = game2.pending()
    assert decision.kind == "battle_order" and decision.seat == POLAND
    testing.play(game2, POLAND, ChooseBattle(region="lwow"))
    assert game2.battle is not None and game2.battle["region"] == "lwow"


def test_moving_1_to_4_units_the_titan_among_them__rulebook_Movement_Actions() -> None:
    """"Move from 1 to 4 Units from one Region to one chosen neighboring Region ...
    The Titan may be one of the Units that are being moved"; not 5."""
    game = arranged(dict(ATTACK, warsaw=(POLAND, {"infantry": 3, "cavalry": 1, "titan": 1})))
    testing.give_order(game, 9)  # group move, move titan
    with pytest.raises(RuleError, match="1 to 4"):
        testing.play(game, POLAND, GroupMove(origin="warsaw", to="prussia",
                                             units=("infantry",) * 3 + ("cavalry", "titan")))
    testing.play(game, POLAND, GroupMove(origin="warsaw", to="prussia",
                                         units=("infantry", "infantry", "cavalry", "titan")))
    assert game.armies["prussia"]["units"] == {"infantry": 2, "cavalry": 1, "titan": 1}


# ------------------------------------------------------------------ Unit Deployment


def test_deployment_onto_controlled_regions__rulebook_Unit_Deployment_Actions() -> None:
    """New Units from the reserve onto existing Armies or empty controlled Regions; none
    of a type once all are on the map; the Titan by "any one Unit" while on the Nation
    Board."""
    game = arranged(dict(ATTACK, warsaw=(POLAND, {"infantry": 5, "cavalry": 1})),
                    control={"prussia": POLAND})
    testing.give_order(game, 6)   # move artillery, move infantry, deploy any
    with pytest.raises(RuleError, match="NOT_CONTROLLED"):
        testing.play(game, POLAND, DeployUnit(action="deploy_any", unit="titan",
                                              region="vilnius"))
    assert game.reserve[POLAND].get("infantry", 0) == 0   # 5 + 1 in Krakow: all 6 out
    assert DeployUnit(action="deploy_any", unit="infantry", region="prussia") not in (
        testing.legal(game, POLAND))
    testing.play(game, POLAND, DeployUnit(action="deploy_any", unit="titan", region="prussia"))
    assert game.armies["prussia"] == {"nation": POLAND, "units": {"titan": 1}}
    assert game.titan[POLAND] == "map"


# ------------------------------------------------------------------ Purchasing


def test_purchase_cost_discounts_and_the_bottom__rulebook_Purchasing_Nation_Card_Action(
) -> None:
    """The top 3 Nation Cards; the cost in Support Cards; "In the 3rd Round the Nation
    Card cost is lowered by 1"; "below 0 it is treated as a 0-cost"; the variant "gets
    an additional 1 discount"; one of the others may go to the bottom; no limit."""
    game = arranged()
    testing.set_hand(game, POLAND, [20, 21, 22, 23, 24, 25])
    top = game.nation_decks[POLAND][:3]
    card = max(top, key=lambda c: NATION_CARDS[c].cost)
    price = NATION_CARDS[card].cost
    other = next(c for c in top if c != card)
    testing.give_order(game, 4)   # move titan, move infantry, purchase
    testing.play(game, POLAND, PurchaseNationCard(action="purchase", card=card,
                                                  pay=tuple(range(20, 20 + price)),
                                                  bottom=other))
    assert game.nation_cards[POLAND] == [card] and game.nation_decks[POLAND][-1] == other
    assert len(game.hands[POLAND]) == 6 - price
    printed = {c: NATION_CARDS[c].cost for c in NATIONS["poland"].cards}
    for rnd, discount in ((1, 0), (2, 0), (3, 1)):
        game.round = rnd
        assert {c: cost(game, c) for c in printed} == {
            c: max(0, p - discount) for c, p in printed.items()}
        assert {c: cost(game, c, 1) for c in printed} == {
            c: max(0, p - discount - 1) for c, p in printed.items()}


# ------------------------------------------------------------------ Stronghold Construction


def test_building_and_taking_over_a_stronghold__rulebook_Stronghold_Construction_Action(
) -> None:
    """A Stronghold in a Region with the player's Units or Control Token (3 in the
    box); "When the Region with a Stronghold is empty, enemy Units may enter it without
    starting a Battle. In that case the player takes over the Stronghold"."""
    game = arranged(control={"prussia": POLAND, "belarus": RUSSIA}, strongholds=("belarus",))
    testing.give_order(game, 2)   # move any, move any, stronghold
    with pytest.raises(RuleError, match="NOT_CONTROLLED"):
        testing.play(game, POLAND, BuildStronghold(region="vilnius"))
    testing.play(game, POLAND, BuildStronghold(region="prussia"))
    assert sorted(game.strongholds) == ["belarus", "prussia"] and game.strongholds_left == 1
    testing.play(game, POLAND, MoveUnit(action="move_any", unit="cavalry", origin="warsaw",
                                        to="belarus"))
    assert not named(game, "BattleDeclared") and game.control["belarus"] == POLAND
    assert "belarus" in game.strongholds


# ------------------------------------------------------------------ B) Resolving Battles


def test_the_dice_of_the_battle__rulebook_Battle_Rules() -> None:
    """1) Beginning of the Battle: each player takes the Dice of his Units, limited by
    his set of 8 (3 Infantry, 2 Cavalry, 1 Artillery, 2 Titan) with no die replaced;
    the Titan rolls 1 Titan die; the Defender's Stage first."""
    layout = dict(ATTACK, warsaw=(POLAND, {"infantry": 4}),
                  vilnius=(RUSSIA, {"cavalry": 3, "artillery": 2, "titan": 1}),
                  moscow=(RUSSIA, {"infantry": 1}))
    game = arranged(layout)
    attack(game, "warsaw", "vilnius", ("infantry",) * 4)
    begun = named(game, "BattleBegun")[0]
    rolled = {r: Counter(d["die"] for d in s["pool"]) for r, s in begun["sides"].items()}
    assert rolled == {"attacker": Counter(infantry=3),
                      "defender": Counter(cavalry=2, artillery=1, titan=1)}
    assert begun["order"] == ["defender", "attacker"]
    assert begun["attacker_strength"] == sum(d["face"] for d in begun["sides"]["attacker"][
        "pool"])


def test_one_or_two_battles_a_turn__rulebook_B_Resolving_Battles() -> None:
    """"The Active Player may initiate one or two Battles in one turn": no Order Card
    holds more than two Movement Actions (a group move counts as one: its Units go to
    one Region), so no turn can initiate a third."""
    moves = {"move_infantry", "move_cavalry", "move_artillery", "move_titan", "move_any",
             "group_move"}
    assert max(sum(a in moves for a in o.actions) for o in ORDERS) == 2


@pytest.mark.parametrize("difference", sorted(BATTLE_OUTCOME))
def test_the_battle_outcome_table__rulebook_Battle_Outcome(difference: int) -> None:
    """4) Battle Outcome: the Attacker wins only by exceeding (a tie is the
    Defender's); by difference 0-2 / 3-4 / 5+ the loser destroys 0 / 1 / 2 Units and
    draws 1 / 2 / 3 Support Cards, the winner scores 1 / 2 / 4 VP."""
    destroy, cards, vp = BATTLE_OUTCOME[difference]
    game = arranged(dict(ATTACK, vilnius=(RUSSIA, {"infantry": 2, "cavalry": 1})))
    attack(game, "warsaw", "vilnius", ("infantry", "infantry", "cavalry"))
    faces = [min(2, max(0, difference - 2 * i)) for i in range(3)]
    fight(game, [("infantry", faces[0]), ("infantry", faces[1]), ("cavalry", faces[2])],
          [("infantry", 0), ("infantry", 0), ("cavalry", 0)])
    resolve(game)
    winner, loser = (RUSSIA, POLAND) if difference == 0 else (POLAND, RUSSIA)
    assert game.vp[winner] == vp and game.vp[loser] == 0
    assert len(game.hands[loser]) == cards
    lost = sum(sum(p["units"].values()) for p in named(game, "UnitsDestroyed"))
    assert lost == destroy
    assert game.control["vilnius"] == winner


def test_five_or_more_against_a_single_unit_counts_as_four__rulebook_Battle_Outcome() -> None:
    """"If the losing player was not able to destroy 2 Units (with a 5+ Strength
    Difference), he destroys only 1 Unit ... treat the Strength Difference as if it was
    4": 2 Support Cards, 2 VP."""
    game = arranged(dict(ATTACK, vilnius=(RUSSIA, {"infantry": 1})))
    attack(game, "warsaw", "vilnius", ("infantry", "infantry", "cavalry"))
    fight(game, [("infantry", 2), ("infantry", 2), ("cavalry", 2)], [("infantry", 0)])
    resolve(game)
    assert game.vp == [2, 0] and len(game.hands[RUSSIA]) == 2
    assert [p["units"] for p in named(game, "UnitsDestroyed")] == [{"infantry": 1}]


def test_a_titan_destroyed_scores_one_more__rulebook_Battle_Outcome() -> None:
    """"If the Attacker has lost the Titan, he places it on its side on the Nation
    Board. If the Defender has lost the Titan, he places it standing"; "If the losing
    player has had a Titan destroyed, the Winner is awarded 1 additional Victory
    Point"."""
    game = arranged(dict(ATTACK, vilnius=(RUSSIA, {"infantry": 1, "titan": 1}),
                         moscow=(RUSSIA, {"infantry": 1})))
    attack(game, "warsaw", "vilnius", ("infantry", "infantry", "cavalry"))
    fight(game, [("infantry", 2), ("infantry", 2), ("cavalry", 1)],
          [("infantry", 0), ("titan", 1)])                    # difference 4: 1 Unit
    assert game.battle is not None
    titan = [t["unit"] for t in game.battle["sides"]["defender"]["troops"]].index("titan")
    testing.play(game, RUSSIA, DestroyUnits(troops=(titan,)))
    resolve(game)
    assert game.titan[RUSSIA] == "standing" and game.vp[POLAND] == 2 + 1
    game = arranged(dict(ATTACK, warsaw=(POLAND, {"titan": 1})))
    attack(game, "warsaw", "vilnius", ("titan",))
    fight(game, [("titan", 1)], [("infantry", 2), ("infantry", 2)])   # difference 3
    assert game.titan[POLAND] == "lying" and game.vp[RUSSIA] == 2 + 1


def test_the_losers_withdrawal__rulebook_Battle_Outcome() -> None:
    """B. The Attacker withdraws each Unit into the Region it came from; the Defender
    into a single Region he controls adjacent to the Battle, else a single Empty
    Region, else his withdrawing Units are destroyed; never to an Empty Region while
    he controls an adjacent one."""
    game = arranged(dict(ATTACK, prussia=(POLAND, {"infantry": 1})))
    testing.give_order(game, 0)
    testing.play(game, POLAND, MoveUnit(action="move_infantry", unit="infantry",
                                        origin="prussia", to="vilnius"))
    testing.play(game, POLAND, MoveUnit(action="move_cavalry", unit="cavalry",
                                        origin="warsaw", to="vilnius"))
    testing.play(game, POLAND, EndOrders())
    fight(game, [("infantry", 1), ("cavalry", 1)], [("infantry", 1), ("infantry", 1)])
    assert game.armies["prussia"]["units"] == {"infantry": 1}
    assert game.armies["warsaw"]["units"] == {"infantry": 2, "cavalry": 1}
    game = arranged(control={"livonia": RUSSIA})
    attack(game, "warsaw", "vilnius", ("infantry", "infantry", "cavalry"))
    fight(game, [("infantry", 2), ("infantry", 1), ("cavalry", 0)],
          [("infantry", 1), ("infantry", 1)])
    with pytest.raises(RuleError):
        testing.play(game, RUSSIA, Withdraw(region="prussia"))   # Empty, but he controls one
    assert game.armies["livonia"] == {"nation": RUSSIA, "units": {"infantry": 2}}
    game = arranged()
    attack(game, "warsaw", "vilnius", ("infantry", "infantry", "cavalry"))
    fight(game, [("infantry", 2), ("infantry", 1), ("cavalry", 0)],
          [("infantry", 1), ("infantry", 1)])
    empty = sorted(c.region for c in testing.legal(game, RUSSIA))  # type: ignore[attr-defined]
    assert empty == ["belarus", "livonia", "prussia"]
    game = arranged(control={"belarus": POLAND, "livonia": POLAND, "prussia": POLAND})
    attack(game, "warsaw", "vilnius", ("infantry", "infantry", "cavalry"))
    fight(game, [("infantry", 2), ("infantry", 1), ("cavalry", 0)],
          [("infantry", 1), ("infantry", 1)])
    assert named(game, "UnitsDestroyed")[-1]["why"] == "no retreat"
    assert game.reserve[RUSSIA]["infantry"] == 6 - 1


def test_playing_support_cards_singly_and_in_sets__rulebook_Defenders_Stage() -> None:
    """A. "Add a Die": 1 card an Infantry Die, a set of 2 a Titan Die (even without the
    Titan in the Battle); "Add Strength": 1 / 2 / 3 cards give 1 / 3 / 5; each
    requirement met (black: one's own army, red: the opponent's); "Move 1 Unit": a
    Unit from a neighbouring Region rolls its die at once, 1 such card per Battle."""
    game = arranged(dict(ATTACK, prussia=(POLAND, {"cavalry": 2})))
    testing.set_hand(game, POLAND, [13, 14, 22, 23, 24, 30, 1, 0, 10])
    attack(game, "warsaw", "vilnius", ("infantry", "infantry", "cavalry"))
    testing.dice_pool(game, "attacker", [("infantry", 1), ("infantry", 1), ("cavalry", 1)])
    testing.play(game, RUSSIA, EndStage())
    assert game.battle is not None
    side = game.battle["sides"]["attacker"]
    with pytest.raises(RuleError, match="REQUIREMENT"):    # his own Titan: not in it
        testing.play(game, POLAND, PlaySupport(cards=(10,)))
    testing.play(game, POLAND, PlaySupport(cards=(13, 14)))
    assert side["pool"][-1]["die"] == "titan"
    testing.play(game, POLAND, PlaySupport(cards=(22,)))
    assert side["bonus"] == 1
    testing.play(game, POLAND, PlaySupport(cards=(23, 24)))
    assert side["bonus"] == 1 + 3
    testing.play(game, POLAND, PlaySupport(cards=(30,)))
    assert side["bonus"] == 1 + 3 + 1
    testing.play(game, POLAND, PlayMoveUnit(card=1, unit="cavalry", origin="prussia"))
    assert side["pool"][-1]["die"] == "cavalry" and game.armies["prussia"]["units"] == {
        "cavalry": 1}
    with pytest.raises(RuleError, match="only 1 Move 1 Unit"):   # its requirement is met
        testing.play(game, POLAND, PlayMoveUnit(card=0, unit="cavalry", origin="prussia"))


def test_sets_of_three_add_five__rulebook_Defenders_Stage() -> None:
    """"Playing a set of 3 Cards gives the player 5 Strength"."""
    game = arranged()
    testing.set_hand(game, POLAND, [22, 23, 30])
    attack(game, "warsaw", "vilnius", ("infantry", "infantry", "cavalry"))
    testing.play(game, RUSSIA, EndStage())
    testing.play(game, POLAND, PlaySupport(cards=(22, 23, 30)))
    assert game.battle is not None and game.battle["sides"]["attacker"]["bonus"] == 5


def test_discarding_a_card_to_reroll__rulebook_Defenders_Stage() -> None:
    """B. "Each Support Card can be discarded without having to meet the Card's
    requirement": the player rerolls the dice he chooses from his Pool, once."""
    game = arranged()
    testing.set_hand(game, RUSSIA, [10])                   # needs his own Titan: not met
    attack(game, "warsaw", "vilnius", ("infantry", "infantry", "cavalry"))
    testing.dice_pool(game, "defender", [("infantry", 0), ("infantry", 2)])
    testing.play(game, RUSSIA, DiscardToReroll(card=10))
    testing.play(game, RUSSIA, RerollDice(dice=(0,)))
    rerolled = named(game, "DiceRerolled")[0]
    assert rerolled["dice"] == [0] and rerolled["pool"][1] == {"die": "infantry", "face": 2}
    assert 10 in game.support_discard and game.hands[RUSSIA] == []


def test_nation_cards_and_abilities_once__rulebook_Defenders_Stage() -> None:
    """C. A [1 / Battle] Nation Card once in the Battle; a [1 / Round] card is rotated
    by 90 degrees when used (and so not again this Round); D. the Titan Special Ability
    once per Battle, with the Titan in the Army; E. the Nation Starting Ability once per
    Battle, its requirement met."""
    game = arranged(dict(ATTACK, warsaw=(POLAND, {"infantry": 1, "cavalry": 1, "titan": 1})))
    battle_card, round_card = 32, 38            # Poland's [1 / Battle] and [1 / Round]
    assert (NATION_CARDS[battle_card].timing, NATION_CARDS[round_card].timing) == (
        "battle", "round")
    for c in (battle_card, round_card):
        game.nation_decks[POLAND].remove(c)
        game.nation_cards[POLAND].append(c)
    attack(game, "warsaw", "vilnius", ("infantry", "cavalry", "titan"))
    with pytest.raises(RuleError, match="NOT_YOUR_TURN"):     # the Defender's Stage first
        testing.play(game, POLAND, UseTitanAbility())
    testing.play(game, RUSSIA, EndStage())
    for once in (UseNationCard(card=battle_card), UseNationCard(card=round_card),
                 UseTitanAbility(), UseNationAbility()):
        testing.play(game, POLAND, once)
        with pytest.raises(RuleError):
            testing.play(game, POLAND, once)
        assert once not in testing.legal(game, POLAND)
    assert game.rotated[POLAND] == [round_card]
    assert game.battle is not None
    assert game.battle["sides"]["attacker"]["used"] == [battle_card]


def test_a_unit_moving_into_the_battle__rulebook_Battle_Rules() -> None:
    """"If during a Battle a Unit moves into the Battle, the player immediately rolls
    that Unit's Dice"; "both players ... check if any of their [1 / Battle] Nation
    Cards requirements have been met by that. If so, the player may use that Nation
    Card, even if he has ended his Battle Stage"."""
    layout = dict(ATTACK, warsaw=(POLAND, {"infantry": 1, "cavalry": 1}),
                  belarus=(RUSSIA, {"cavalry": 1}))
    game = arranged(layout, strongholds=("vilnius",))
    outnumbered = 30          # Poland's [1 / Battle] card for an outnumbered army
    game.nation_decks[POLAND].remove(outnumbered)
    game.nation_cards[POLAND].append(outnumbered)
    testing.set_hand(game, RUSSIA, [2])
    attack(game, "warsaw", "vilnius", ("infantry", "cavalry"))
    testing.play(game, POLAND, EndStage())        # the Attacker first at a Stronghold
    assert UseNationCard(card=outnumbered) not in testing.legal(game, POLAND)
    testing.play(game, RUSSIA, PlayMoveUnit(card=2, unit="cavalry", origin="belarus"))
    assert game.battle is not None
    assert game.battle["sides"]["defender"]["pool"][-1]["die"] == "cavalry"
    [decision] = game.pending()
    assert (decision.seat, decision.kind) == (POLAND, "battle_reaction")
    testing.play(game, POLAND, UseNationCard(card=outnumbered))
    assert game.pending()[0].seat == RUSSIA       # back to the Defender's Stage


def test_a_stronghold_in_battle__rulebook_Stronghold_in_Battles() -> None:
    """The Defender draws 1 Support Card at once (and may exceed his Hand Limit for the
    rest of the Battle); the Attacker takes his Stage first; a Stronghold whose
    Defender loses is destroyed and the Attacker scores 1 more VP."""
    game = arranged(strongholds=("vilnius",))
    full = [c for c in game.support_deck if c not in (0, 1, 2)][:hand_limit(game, RUSSIA)]
    testing.set_hand(game, RUSSIA, full)
    attack(game, "warsaw", "vilnius", ("infantry", "infantry", "cavalry"))
    assert len(game.hands[RUSSIA]) == hand_limit(game, RUSSIA) + 1
    assert game.battle is not None and game.battle["order"] == ["attacker", "defender"]
    assert game.pending()[0].seat == POLAND
    fight(game, [("infantry", 2), ("infantry", 1), ("cavalry", 0)],
          [("infantry", 1), ("infantry", 1)])
    resolve(game)
    assert "vilnius" not in game.strongholds and game.vp[POLAND] == 1 + 1


def test_a_capitol_defends_and_its_fall_scores_three__rulebook_Capitol() -> None:
    """The Capitol has the two defence abilities of a Stronghold; a player who gains
    control of an enemy Capitol's Region flips it to its damaged side and gains 3 VP at
    once; it stays destroyed for the rest of the game."""
    layout = {"smolensk": (POLAND, {"infantry": 2, "cavalry": 1}),
              "krakow": (POLAND, {"infantry": 1}), "moscow": (RUSSIA, {"infantry": 1}),
              "vilnius": (RUSSIA, {"infantry": 1})}
    game = arranged(layout)
    attack(game, "smolensk", "moscow", ("infantry", "infantry", "cavalry"))
    assert len(game.hands[RUSSIA]) == 1
    assert game.battle is not None and game.battle["order"] == ["attacker", "defender"]
    fight(game, [("infantry", 2), ("infantry", 1), ("cavalry", 1)], [("infantry", 2)])
    resolve(game)
    assert game.capitols["moscow"] == {"owner": RUSSIA, "damaged": True}
    assert game.vp[POLAND] == 1 + 3                     # difference 2, and the Capitol


def test_the_last_region__rulebook_Last_Region() -> None:
    """"A player may be left with only 1 Region ... that Region may not be attacked by
    any other player. If a player has 2 Regions, other players may attack 1 of them in
    one turn"."""
    layout = {"warsaw": (POLAND, {"infantry": 2, "cavalry": 1}),
              "krakow": (POLAND, {"infantry": 1}), "vilnius": (RUSSIA, {"infantry": 2})}
    game = arranged(layout)
    game.control.pop("moscow", None)
    testing.give_order(game, 1)
    with pytest.raises(RuleError, match="Last Region"):
        testing.play(game, POLAND, GroupMove(origin="warsaw", to="vilnius",
                                             units=("infantry",)))
    game = arranged(dict(layout, prussia=(POLAND, {"infantry": 1})), control={"belarus": RUSSIA})
    game.control.pop("moscow", None)
    testing.give_order(game, 0)
    testing.play(game, POLAND, MoveUnit(action="move_infantry", unit="infantry",
                                        origin="prussia", to="vilnius"))
    with pytest.raises(RuleError, match="Last Region"):
        testing.play(game, POLAND, MoveUnit(action="move_cavalry", unit="cavalry",
                                            origin="warsaw", to="belarus"))


# ------------------------------------------------------------------ C) and D)


def test_draw_one_support_card__rulebook_C_Draw_1_Support_Card() -> None:
    """The Active Player draws 1 of the 4 face-up cards (the row is replenished to 4)
    or the top of the Deck; an empty Deck is the discard pile shuffled."""
    game = arranged()
    testing.give_order(game, 1)
    testing.play(game, POLAND, EndOrders())
    taken = game.support_row[0]
    testing.play(game, POLAND, DrawSupport(card=taken))
    assert game.hands[POLAND] == [taken] and len(game.support_row) == 4
    testing.finish_turn(game)
    testing.give_order(game, game.order_pool[0])
    testing.play(game, RUSSIA, EndOrders())
    game.support_discard.extend(game.support_deck)
    game.support_deck = []
    testing.play(game, RUSSIA, DrawSupport(card=-1))
    names = [n for n, _p in testing.events(game)]
    assert "SupportDeckReshuffled" in names and len(game.hands[RUSSIA]) == 1


def test_the_hand_limit_and_the_titan__rulebook_D_Clean_Up_Phase() -> None:
    """Discard down to the Nation Board's Support Card Hand Limit; a Titan destroyed
    this turn is raised, a standing one deployed onto a controlled Region."""
    game = arranged(dict(ATTACK, warsaw=(POLAND, {"titan": 1})))
    limit = hand_limit(game, POLAND)
    testing.set_hand(game, POLAND, game.support_deck[:limit])
    attack(game, "warsaw", "vilnius", ("titan",))
    fight(game, [("titan", 1)], [("infantry", 2), ("infantry", 2)])
    assert game.titan[POLAND] == "lying" and len(game.hands[POLAND]) == limit + 2
    testing.play(game, POLAND, DrawSupport(card=-1))
    assert game.pending()[0].kind == "discard_support"
    testing.play(game, POLAND, DiscardSupport(cards=tuple(sorted(game.hands[POLAND])[:3])))
    assert len(game.hands[POLAND]) == limit and game.titan[POLAND] == "standing"
    assert game.current == RUSSIA
    testing.quick_turn(game)
    testing.quick_turn(game)                          # Poland's next Clean-Up
    assert game.titan[POLAND] == "map"


# ------------------------------------------------------------------ End of the Round


def test_the_round_summary__rulebook_End_of_the_Round() -> None:
    """1. 1 VP for each Region controlled; 2. the Starting Player Token to the next
    player counter-clockwise, the Round Tracker moved on; 3. Reinforcements from the new
    Starting Player clockwise, each player both of his; 4. the 4 face-up Support Cards
    replaced, the Order Cards shuffled into the Order Deck, [1 / Round] cards back."""
    game = testing.through_setup(testing.new_game(3))
    while game.round == 1:
        held = [sum(1 for s in game.control.values() if s == seat) for seat in range(3)]
        vp = list(game.vp)
        testing.quick_turn(game)
    events = testing.events(game)
    scored = next(p for n, p in events if n == "RoundScored")
    assert scored["vp"] == held and game.vp == [a + b for a, b in zip(vp, held, strict=True)]
    assert game.start_player == 2 and game.round == 2      # counter-clockwise from seat 0
    row = list(game.support_row)
    game.rotated[0] = [game.nation_cards[0][0]] if game.nation_cards[0] else []
    order, drawn = [], []
    while game.reinforcing is not None:
        [decision] = game.pending()
        order.append((decision.seat, decision.kind))
        if decision.kind == "first_reinforcement":
            testing.play(game, decision.seat, ReinforceObjectives() if decision.seat == 2
                         else ReinforceSupport(row=()))
        elif decision.kind == "keep_objective":
            drawn = list(game.reinforcing["drawn"])
            testing.play(game, decision.seat, KeepObjective(card=drawn[0]))
        else:
            testing.play(game, decision.seat, testing.legal(game, decision.seat)[0])
    assert order == [(2, "first_reinforcement"), (2, "keep_objective"),
                     (2, "second_reinforcement"), (0, "first_reinforcement"),
                     (0, "second_reinforcement"), (1, "first_reinforcement"),
                     (1, "second_reinforcement")]
    assert len(drawn) == 2 and drawn[0] in game.objectives[2] and len(game.objectives[2]) == 4
    assert game.objective_deck[-1] == drawn[1]            # the other, to the bottom
    prepared = next(p for n, p in testing.events(game) if n == "RoundPrepared")
    assert prepared["row_discarded"] == row and len(game.support_row) == 4
    assert not set(row) & set(game.support_row)
    assert game.rotated == [[], [], []]
    assert sorted(game.order_deck + game.order_pool + game.upcoming) == order_deck(3)
    assert game.current == 2 and game.turn is not None and game.turn["seat"] == 2


def test_the_reinforcement_options__rulebook_End_of_the_Round() -> None:
    """1st: 2 Support Cards (of the 4 face up or from the Deck, or 1 of each), or 2
    Secret Objectives keeping 1; 2nd: purchase a Nation Card (after the 2nd Round with
    the 3rd Round's discount), or discard 1 Support Card for any 1 Unit onto a
    controlled Region."""
    game = arranged()
    while game.round == 1:
        testing.quick_turn(game)
    assert game.pending()[0].seat == RUSSIA
    face_up = game.support_row[0]
    testing.play(game, RUSSIA, ReinforceSupport(row=(face_up,)))
    assert face_up in game.hands[RUSSIA]
    discard = game.hands[RUSSIA][0]
    region = next(r for r, s in sorted(game.control.items()) if s == RUSSIA)
    units = dict(game.armies.get(region, {"units": {}})["units"])
    testing.play(game, RUSSIA, ReinforceUnit(discard=discard, unit="artillery", region=region))
    assert game.armies[region]["units"].get("artillery", 0) == units.get("artillery", 0) + 1
    assert discard in game.support_discard
    testing.play(game, POLAND, ReinforceSupport(row=()))
    purchases = [c for c in testing.legal(game, POLAND) if isinstance(c, ReinforcePurchase)]
    assert purchases and all(c.card in game.nation_decks[POLAND][:3] for c in purchases)
    game.round = 3
    assert all(cost(game, c) == max(0, NATION_CARDS[c].cost - 1) for c in range(40))


# ------------------------------------------------------------------ End of the Game


def test_the_game_ends_after_three_rounds__rulebook_End_of_the_Game() -> None:
    """"The game ends after 3 Rounds"; in the last Round only step 1 of the summary
    (Regions' VP, kept apart as a tie-breaker); the most VP wins."""
    game = arranged()
    recorded = play_to_end(game)
    names = [n for n, _p in recorded]
    last = len(names) - 1 - names[::-1].index("RoundScored")
    assert recorded[last][1]["round"] == 3 and recorded[last][1]["final"]
    assert not {"StartingPlayerPassed", "ReinforcementChosen", "RoundPrepared"} & set(
        names[last:])
    assert game.region_vp == recorded[last][1]["vp"]
    outcome = game.finished()
    assert outcome is not None and game.vp[outcome["winner"]] == max(game.vp)


def test_the_tie_breaks__rulebook_End_of_the_Game() -> None:
    """Equal VP: more Regions controlled; then more Units on the map; then the player
    who took his turn earlier in the last Round."""
    game = testing.through_setup(testing.new_game(3))
    game.start_player = 1
    game.vp = [10, 10, 10]
    testing.place(game, {"warsaw": (0, {"infantry": 2}), "krakow": (0, {"infantry": 1}),
                         "moscow": (1, {"infantry": 1}), "tver": (1, {"infantry": 1}),
                         "istanbul": (2, {"infantry": 1}), "edirne": (2, {"infantry": 1})})
    assert scoring.ranking_of(game) == [0, 1, 2]        # 2 Regions each; 3 Units, then 2
    game.armies["warsaw"]["units"] = {"infantry": 1}
    assert scoring.ranking_of(game) == [1, 2, 0]          # all equal: turn order 1, 2, 0
    game.control["lwow"] = 2
    assert scoring.ranking_of(game)[0] == 2              # 3 Regions
    game.vp[0] = 11
    assert scoring.ranking_of(game)[0] == 0              # the most VP first


# ------------------------------------------------------------------ Game Variants


def test_the_simplified_game_variant__rulebook_Simplified_Game_Variant() -> None:
    """1. No Nation Card chosen at the Setup: the one marked (X), and 2 Support Cards
    instead of 3; 2. no Secret Objective draft, and no option to get new ones in the
    Round Summary."""
    game = testing.new_game(2, variant="simplified", setup="2-poland-russia")
    assert [len(h) for h in game.hands] == [2, 2]
    assert [[NATION_CARDS[c].x for c in cards] for cards in game.nation_cards] == [[True],
                                                                                  [True]]
    assert game.objectives == [[], []] and game.round == 1
    while game.round == 1:
        testing.quick_turn(game)
    assert game.pending()[0].kind == "first_reinforcement"
    assert not [c for c in testing.legal(game, game.pending()[0].seat)
                if isinstance(c, ReinforceObjectives)]


def test_extended_gameplay_four_rounds_and_discounts__rulebook_Extended_Gameplay() -> None:
    """4 Rounds instead of 3; the Nation Card discount: Rounds 1 & 2 none, Round 3 1
    Support Card, Round 4 2."""
    game = arranged()
    game.rounds = 4
    recorded = play_to_end(game)
    assert [p["round"] for n, p in recorded if n == "RoundScored"] == [1, 2, 3, 4]
    extended = testing.new_game(2, extended=True)
    assert extended.rounds == 4
    for rnd, discount in ((1, 0), (2, 0), (3, 1), (4, 2)):
        extended.round = rnd
        assert all(cost(extended, c) == max(0, NATION_CARDS[c].cost - discount)
                   for c in range(40))


def test_order_cards_take_turns_clockwise__rulebook_Gameplay() -> None:
    """"Players take turns in a clockwise order" from the Starting Player."""
    game = testing.through_setup(testing.new_game(3))
    assert [testing.quick_turn(game)[0] for _ in range(6)] == [0, 1, 2, 0, 1, 2]
