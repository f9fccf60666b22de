"""Titans' apply: one pure function per event (``events.py``), dispatched by
the event's class (``aggregates.kernel.facts``).

Each function changes the state from the event's facts alone: it rolls
nothing, checks nothing and records nothing (those are the rules modules',
the command path). A replay of a game's events runs exactly these functions.
Where a chapter's change of state is more than a line (units joining a
region's army, a side's gains in a Battle, the draft's next pick), its body is
the chapter module's (``regions.add_units``, ``battles.gain``...), which reads
and writes the state alone. The rules of earlier versions read here are
when a Round's first turn begins (``state.EARLIER_FIRST_TURN``: rules 1.0.0
began it with the Order Pool drawn), whether the draft's pace has events
of its own (``state.EARLIER_DRAFT_PACE``: before 1.2.0) and whether a Support
step with nothing to draw is passed by an event of its own
(``state.EARLIER_SUPPORT_UNAVAILABLE``: before 1.3.0), which the game's
creation event fixes, not the event.
"""

from __future__ import annotations

import copy

from aggregates.kernel import flow as kflow
from aggregates.kernel.facts import applier
from aggregates.titans import battles, cards, objectives, pieces, purchase, regions, turns
from aggregates.titans import events as ev
from aggregates.titans.commands import NONE
from aggregates.titans.data import TITAN, UNITS
from aggregates.titans.state import EARLIER_DRAFT_PACE, EARLIER_FIRST_TURN, State

apply = applier()


# --------------------------------------------------------------- Support Cards


@apply.register
def _support_drawn(event: ev.SupportDrawn, game: State) -> None:
    for c in event.cards:
        (game.support_deck if event.source == "deck" else game.support_row).remove(c)
    game.hands[event.seat].extend(event.cards)
    if event.why == "turn" and game.turn is not None:
        game.turn["support_drawn"] = True


@apply.register
def _support_unavailable(event: ev.SupportUnavailable, game: State) -> None:
    """Rules 1.2.0 and before: the Support step passed for want of a card."""
    assert game.turn is not None
    game.turn["support_drawn"] = True


@apply.register
def _support_row_refilled(event: ev.SupportRowRefilled, game: State) -> None:
    for c in event.cards:
        game.support_deck.remove(c)
    game.support_row.extend(event.cards)


@apply.register
def _support_deck_reshuffled(event: ev.SupportDeckReshuffled, game: State) -> None:
    game.support_discard = [c for c in game.support_discard if c not in event.deck]
    game.support_deck = list(event.deck)


@apply.register
def _support_discarded(event: ev.SupportDiscarded, game: State) -> None:
    cards.pay(game, event.seat, event.cards)
    if event.why == "reroll" and game.battle is not None:
        game.battle["reroll"] = battles.role_of(game.battle, event.seat)


# ------------------------------------------------------------------ Game Setup


@apply.register
def _opening_purchase_chosen(event: ev.OpeningPurchaseChosen, game: State) -> None:
    assert game.opening is not None
    game.opening["chosen"][str(event.seat)] = {"card": event.card, "pay": list(event.pay),
                                               "bottom": event.bottom}


@apply.register
def _opening_purchases_revealed(event: ev.OpeningPurchasesRevealed, game: State) -> None:
    chosen = (game.opening or {}).get("chosen", {})
    for p in event.purchases:
        seat, card = int(p["seat"]), p["card"]
        if card is not None:
            game.nation_decks[seat].remove(card)
            game.nation_cards[seat].append(card)
        cards.pay(game, seat, p["paid"])
        purchase.to_bottom(game, seat, int(chosen.get(str(seat), {}).get("bottom", NONE)))
    game.opening = None


@apply.register
def _objectives_dealt(event: ev.ObjectivesDealt, game: State) -> None:
    assert game.draft is not None
    for c in event.cards:
        game.objective_deck.remove(c)
    game.draft["holding"][event.seat] = list(event.cards)


@apply.register
def _objective_kept(event: ev.ObjectiveKept, game: State) -> None:
    if game.draft is not None:
        holding = game.draft["holding"][event.seat]
        for c in [event.card, *event.returned]:
            holding.remove(c)
        game.draft["kept"].append(event.seat)
    else:
        assert game.reinforcing is not None
        game.reinforcing["drawn"] = []
        game.reinforcing["first"] = True
    game.objectives[event.seat].append(event.card)
    game.objective_deck.extend(event.returned)
    draft = game.draft
    if (draft is not None and EARLIER_DRAFT_PACE not in game.earlier
            and len(draft["kept"]) == len(game.seats) and not any(draft["holding"])):
        game.draft = None  # every player has kept his last: the draft is over


@apply.register
def _objectives_passed(event: ev.ObjectivesPassed, game: State) -> None:
    assert game.draft is not None
    game.draft["incoming"][event.to] = list(event.cards)
    game.draft["holding"][event.seat] = []
    if EARLIER_DRAFT_PACE not in game.earlier and not any(game.draft["holding"]):
        # every player has passed: the next pick begins
        objectives.next_pick(game, game.draft, int(game.draft["pick"]) + 1)


@apply.register
def _draft_passed(event: ev.DraftPassed, game: State) -> None:
    assert game.draft is not None
    objectives.next_pick(game, game.draft, event.pick)


@apply.register
def _draft_ended(event: ev.DraftEnded, game: State) -> None:
    game.draft = None


# ----------------------------------------------------------------- Order Cards


@apply.register
def _round_began(event: ev.RoundBegan, game: State) -> None:
    game.round = event.round
    game.start_player = event.start_player
    kflow.enter(game, "round")


@apply.register
def _order_deck_shuffled(event: ev.OrderDeckShuffled, game: State) -> None:
    game.order_deck = list(event.deck)
    game.order_pool = []
    game.upcoming = []
    game.order_discard = []


@apply.register
def _order_pool_drawn(event: ev.OrderPoolDrawn, game: State) -> None:
    game.order_deck = game.order_deck[len(event.cards):]
    game.order_pool = list(event.cards)
    game.current = event.first
    if EARLIER_FIRST_TURN in game.earlier:  # 1.0.0: the first turn began here
        game.turn = turns.new_turn(event.first)


@apply.register
def _upcoming_pool_drawn(event: ev.UpcomingPoolDrawn, game: State) -> None:
    game.order_deck = game.order_deck[len(event.cards):]
    game.upcoming = list(event.cards)


@apply.register
def _order_pool_slid(event: ev.OrderPoolSlid, game: State) -> None:
    game.order_discard.append(event.card)
    game.order_pool = game.upcoming
    game.order_deck = game.order_deck[len(event.cards):]
    game.upcoming = list(event.cards)


@apply.register
def _order_taken(event: ev.OrderTaken, game: State) -> None:
    assert game.turn is not None
    game.order_pool.remove(event.card)
    game.turn["order"] = event.card
    game.turn["actions"] = list(event.actions)


@apply.register
def _orders_ended(event: ev.OrdersEnded, game: State) -> None:
    assert game.turn is not None
    game.order_discard.append(event.card)
    game.turn["orders_done"] = True
    game.turn["actions"] = []
    turns.support_step_entered(game)


# --------------------------------------------------------------------- Actions


@apply.register
def _unit_moved(event: ev.UnitMoved, game: State) -> None:
    regions.take_units(game, event.origin, event.units)
    turns.use_action(game, event.action)
    if event.result == "battle":
        assert game.turn is not None
        waiting = next(b for b in game.turn["battles"] if b["region"] == event.to)
        waiting["troops"].extend({"unit": u, "from": event.origin}
                                 for u in pieces.units_of(event.units, UNITS))
    else:
        regions.add_units(game, event.to, event.seat, event.units)


@apply.register
def _battle_declared(event: ev.BattleDeclared, game: State) -> None:
    assert game.turn is not None
    game.turn["battles"].append({"region": event.region, "defender": event.defender,
                                 "fortified": event.fortified, "troops": []})
    game.turn["entered"].append([event.defender, event.region])


@apply.register
def _region_taken(event: ev.RegionTaken, game: State) -> None:
    if event.capitol:
        game.capitols[event.region]["damaged"] = True
    game.vp[event.seat] += event.vp
    if game.turn is not None:
        game.turn["entered"].append([event.owner, event.region])


@apply.register
def _unit_deployed(event: ev.UnitDeployed, game: State) -> None:
    game.reserve[event.seat] = pieces.minus(game.reserve[event.seat], {event.unit: 1})
    regions.add_units(game, event.region, event.seat, {event.unit: 1})
    if event.unit == TITAN:
        game.titan[event.seat] = "map"
    turns.use_action(game, event.action)


@apply.register
def _stronghold_built(event: ev.StrongholdBuilt, game: State) -> None:
    game.strongholds.append(event.region)
    game.strongholds_left -= 1
    turns.use_action(game, "stronghold")


@apply.register
def _nation_card_purchased(event: ev.NationCardPurchased, game: State) -> None:
    game.nation_decks[event.seat].remove(event.card)
    game.nation_cards[event.seat].append(event.card)
    cards.pay(game, event.seat, event.paid)
    purchase.to_bottom(game, event.seat, event.bottom)
    turns.use_action(game, event.why)


@apply.register
def _nation_deck_top_seen(event: ev.NationDeckTopSeen, game: State) -> None:
    """A player looks at the top 3 of his Nation Deck: nothing moves."""


@apply.register
def _objective_accomplished(event: ev.ObjectiveAccomplished, game: State) -> None:
    game.objectives[event.seat].remove(event.card)
    game.accomplished[event.seat].append(event.card)
    game.vp[event.seat] += event.vp
    if game.turn is not None:
        game.turn["objective"] = True


# --------------------------------------------------------------------- Battles


@apply.register
def _battle_begun(event: ev.BattleBegun, game: State) -> None:
    assert game.turn is not None
    game.turn["battles"] = [b for b in game.turn["battles"] if b["region"] != event.region]
    game.armies.pop(event.region, None)  # the Defender's units are in the Battle
    game.battle = {"region": event.region, "fortified": event.fortified,
                   "order": list(event.order), "at": 0, "reroll": None, "reaction": None,
                   "result": None,
                   "sides": copy.deepcopy(event.sides)}


@apply.register
def _support_played(event: ev.SupportPlayed, game: State) -> None:
    assert game.battle is not None
    for c in event.cards:
        game.hands[event.seat].remove(c)
    side = battles.side_of(game, event.role)
    side["played"].extend(event.cards)
    battles.gain(game, event.role, event.strength, event.dice, None)
    if event.unit is not None and event.origin is not None:
        regions.take_units(game, event.origin, {event.unit: 1})
        side["troops"].append({"unit": event.unit, "from": event.origin})
        side["moved_in"] = True
    game.battle["reaction"] = event.reaction


@apply.register
def _dice_rerolled(event: ev.DiceRerolled, game: State) -> None:
    assert game.battle is not None
    battles.side_of(game, event.role)["pool"] = [dict(d) for d in event.pool]
    game.battle["reroll"] = None


@apply.register
def _nation_card_used(event: ev.NationCardUsed, game: State) -> None:
    assert game.battle is not None
    battles.gain(game, event.role, event.strength, event.dice, event.pool)
    if event.timing == "battle":
        battles.side_of(game, event.role)["used"].append(event.card)
    else:
        game.rotated[event.seat].append(event.card)
    if game.battle.get("reaction") == event.role:
        game.battle["reaction"] = None


@apply.register
def _titan_ability_used(event: ev.TitanAbilityUsed, game: State) -> None:
    battles.gain(game, event.role, event.strength, event.dice, event.pool)
    battles.side_of(game, event.role)["titan_used"] = True


@apply.register
def _nation_ability_used(event: ev.NationAbilityUsed, game: State) -> None:
    battles.gain(game, event.role, event.strength, event.dice, event.pool)
    battles.side_of(game, event.role)["ability_used"] = True


@apply.register
def _stage_ended(event: ev.StageEnded, game: State) -> None:
    assert game.battle is not None
    game.battle["at"] += 1


@apply.register
def _reaction_declined(event: ev.ReactionDeclined, game: State) -> None:
    assert game.battle is not None
    game.battle["reaction"] = None


@apply.register
def _battle_won(event: ev.BattleWon, game: State) -> None:
    assert game.battle is not None
    game.battle["result"] = {"winner": event.winner, "loser": event.loser,
                             "winner_role": event.winner_role,
                             "difference": event.difference, "effective": event.effective,
                             "destroy": event.destroy, "destroyed": [],
                             "destroy_done": event.destroy == 0, "titan": False,
                             "withdrawn": False}


@apply.register
def _units_destroyed(event: ev.UnitsDestroyed, game: State) -> None:
    assert game.battle is not None
    side = battles.side_of(game, event.role)
    result = game.battle["result"]
    for i in sorted(event.troops, reverse=True):
        result["destroyed"].append(side["troops"].pop(i))
    game.reserve[event.seat] = pieces.plus(game.reserve[event.seat], event.units)
    if event.titan:
        game.titan[event.seat] = "lying" if event.role == "attacker" else "standing"
        result["titan"] = True
    result["destroy_done"] = True
    if event.why == "no retreat":
        result["withdrawn"] = True
    game.destroyed[int(result["winner"])] += pieces.size(event.units)


@apply.register
def _units_withdrew(event: ev.UnitsWithdrew, game: State) -> None:
    assert game.battle is not None
    for move in event.moves:
        regions.add_units(game, move["to"], event.seat, {move["unit"]: 1})
    battles.side_of(game, event.role)["troops"] = []
    game.battle["result"]["withdrawn"] = True


@apply.register
def _battle_resolved(event: ev.BattleResolved, game: State) -> None:
    assert game.battle is not None
    side = battles.side_of(game, event.winner_role)
    units = pieces.troop(*(t["unit"] for t in side["troops"]))
    if units:
        regions.add_units(game, event.region, event.winner, units)
    game.control[event.region] = event.winner
    if event.stronghold_destroyed:
        game.strongholds.remove(event.region)
    if event.capitol_damaged:
        game.capitols[event.region]["damaged"] = True
    game.vp[event.winner] += event.vp
    game.battles_won[event.winner] += 1
    for role in ("attacker", "defender"):
        game.support_discard.extend(battles.side_of(game, role)["played"])
    game.battle = None
    turns.support_step_entered(game)


# ---------------------------------------------------------- Clean-Up and turns


@apply.register
def _titan_raised(event: ev.TitanRaised, game: State) -> None:
    assert game.turn is not None
    game.titan[event.seat] = "standing"
    game.turn["titan_done"] = True


@apply.register
def _titan_deployed(event: ev.TitanDeployed, game: State) -> None:
    assert game.turn is not None
    game.reserve[event.seat] = pieces.minus(game.reserve[event.seat], {TITAN: 1})
    regions.add_units(game, event.region, event.seat, {TITAN: 1})
    game.titan[event.seat] = "map"
    game.turn["titan_done"] = True


@apply.register
def _turn_ended(event: ev.TurnEnded, game: State) -> None:
    game.turn = None


@apply.register
def _turn_began(event: ev.TurnBegan, game: State) -> None:
    game.current = event.seat
    game.turn = turns.new_turn(event.seat)


# ------------------------------------------------------------ End of the Round


@apply.register
def _round_scored(event: ev.RoundScored, game: State) -> None:
    game.vp = [a + b for a, b in zip(game.vp, event.vp, strict=True)]
    kflow.enter(game, "round_end")
    if event.final:
        game.region_vp = list(event.vp)
        game.over = True


@apply.register
def _starting_player_passed(event: ev.StartingPlayerPassed, game: State) -> None:
    game.round = event.round
    game.start_player = event.start_player
    game.reinforcing = {"order": kflow.order_from(event.start_player, len(game.seats)),
                        "at": 0, "first": False, "drawn": []}


@apply.register
def _reinforcement_chosen(event: ev.ReinforcementChosen, game: State) -> None:
    assert game.reinforcing is not None
    if event.reinforcement == 1:
        game.reinforcing["first"] = True
    else:
        game.reinforcing["at"] += 1
        game.reinforcing["first"] = False
        game.reinforcing["drawn"] = []


@apply.register
def _objectives_drawn(event: ev.ObjectivesDrawn, game: State) -> None:
    assert game.reinforcing is not None
    for c in event.cards:
        game.objective_deck.remove(c)
    game.reinforcing["drawn"] = list(event.cards)


@apply.register
def _round_prepared(event: ev.RoundPrepared, game: State) -> None:
    game.support_discard.extend(game.support_row)
    game.support_row = []
    game.rotated = [[] for _ in game.seats]
    game.reinforcing = None
