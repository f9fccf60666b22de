"""The Titans aggregate: its state and its events (evolve), on Kernel 3.

The kernel routes each command to the decision it answers (``pending``: its
kind is a step of ``FLOW`` in ``flow.py``, with the moves that answer it) and
runs the phases declared there (their automatic steps: a Battle's dice and
outcome, a turn's end, a Round's scoring). The rules modules decide on the
state (``state.State``): they check a command, roll what must be rolled and
record events with ``emit``; the ``@event`` bodies below only change the
state. This module imports them, never the reverse.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from typing import Any

from eventsourcing.domain import event

from aggregates.kernel import Choice, Command, Decision, DiceTray, Game, PickCards, PickOne
from aggregates.kernel import flow as kflow
from aggregates.kernel.nature import GameType
from aggregates.kernel.outcome import Outcome
from aggregates.kernel.present import Screen
from aggregates.titans import (
    battles,
    dice,
    objectives,
    pieces,
    present,
    reinforcements,
    scoring,
    setup,
    steps,
    support,
    turns,
    views,
)
from aggregates.titans.commands import COMMANDS, NONE
from aggregates.titans.data import TABLES, TITAN, UNITS
from aggregates.titans.flow import FLOW
from aggregates.titans.reasons import REASONS
from aggregates.titans.state import EARLIER_FIRST_TURN

#: The rules each earlier version kept (``state.EARLIER_*``), by that version:
#: a game is played by those of the version its creation event records.
EARLIER_RULES: dict[str, frozenset[str]] = {"1.0.0": frozenset({EARLIER_FIRST_TURN})}


def new_turn(seat: int) -> dict[str, Any]:
    return {"seat": seat, "order": None, "actions": [], "orders_done": False, "battles": [],
            "entered": [], "objective": False, "support_drawn": False, "titan_done": False}


class Titans(Game):
    """Titans: lead a Nation into war across the map, with Order Cards, battles and VP."""

    RULES_ID = "titans"
    TITLE = "Titans"
    #: 1.1.0 records a ``TurnBegan`` for a Round's first turn too (1.0.0 began
    #: it with the Order Pool drawn: ``v1.TitansV1``, docs/rules-versions.md).
    RULES_VERSION = "1.1.0"
    MIN_SEATS = 2
    MAX_SEATS = 4
    COMMANDS = COMMANDS
    FLOW = FLOW
    REASONS = REASONS
    #: turns in order; the Game Setup's purchase and draft are made by all at once;
    #: dice and shuffles (explicit chance); hidden hands and objectives
    GAME_TYPE = GameType.of("mixed", "explicit", "imperfect", "general_sum", players=(2, 4))
    OPTIONS_SCHEMA = setup.OPTIONS_SCHEMA
    SUMMARY = ("Lead a Nation of Infantry, Cavalry, Artillery and a Titan across a map of "
               "regions: each turn take an Order Card from the shared Pool, move, deploy, buy "
               "Nation Cards and build Strongholds; fight Battles with dice and Support "
               "Cards; score regions each Round and win the most Victory Points in 3 Rounds.")

    # ------------------------------------------------------------------ setup

    @classmethod
    def check_options(cls, options: dict[str, Any]) -> dict[str, Any]:
        return setup.check_options(options)

    @classmethod
    def decide_setup(cls, dice: DiceTray, seats: list[str], options: dict[str, Any]
                     ) -> dict[str, Any]:
        return setup.decide_setup(dice, seats, options)

    @classmethod
    def public_setup(cls, setup_: Mapping[str, Any]) -> dict[str, Any]:
        return setup.public_setup(setup_)

    def setup(self, setup_: dict[str, Any]) -> None:
        """Evolve: the starting position as the creation event states it."""
        players = len(self.seats)
        self.setup_key: str = setup_["setup"]
        self.variant: str = setup_["variant"]
        self.rounds: int = int(setup_["rounds"])
        self.nations: list[str] = list(setup_["nations"])
        self.inactive: list[str] = list(setup_["inactive"])
        self.round = 0
        self.start_player = 0
        self.current = 0
        self.armies: dict[str, dict[str, Any]] = copy.deepcopy(setup_["armies"])
        self.control: dict[str, int] = {r: int(a["nation"]) for r, a in self.armies.items()}
        self.capitols: dict[str, dict[str, Any]] = {
            r: {"owner": int(s), "damaged": False} for r, s in setup_["capitols"].items()}
        self.reserve: list[dict[str, int]] = [dict(r) for r in setup_["reserve"]]
        self.titan: list[str] = list(setup_["titan"])
        self.strongholds: list[str] = []
        self.strongholds_left = TABLES.strongholds
        self.vp = [0] * players
        self.region_vp = [0] * players
        self.battles_won = [0] * players
        self.destroyed = [0] * players
        self.order_deck: list[int] = []
        self.order_pool: list[int] = []
        self.upcoming: list[int] = []
        self.order_discard: list[int] = []
        self.support_deck: list[int] = list(setup_["support_deck"])
        self.support_row: list[int] = []
        self.support_discard: list[int] = []
        self.hands: list[list[int]] = [[] for _ in range(players)]
        self.nation_decks: list[list[int]] = [list(d) for d in setup_["nation_decks"]]
        self.nation_cards: list[list[int]] = [[] for _ in range(players)]
        self.rotated: list[list[int]] = [[] for _ in range(players)]
        self.objective_deck: list[int] = list(setup_["objective_deck"])
        self.objectives: list[list[int]] = [[] for _ in range(players)]
        self.accomplished: list[list[int]] = [[] for _ in range(players)]
        standard = self.variant != "simplified"
        self.opening: dict[str, Any] | None = {"chosen": {}} if standard else None
        self.draft: dict[str, Any] | None = ({
            "pick": 1, "holding": [[] for _ in range(players)], "kept": [],
            "incoming": [[] for _ in range(players)]} if standard else None)
        self.turn: dict[str, Any] | None = None
        self.battle: dict[str, Any] | None = None
        self.reinforcing: dict[str, Any] | None = None
        self.over = False
        kflow.enter(self, "setup")  # the creation sets the game up (``flow.py``)

    @property
    def earlier(self) -> frozenset[str]:
        """The earlier rules this game is played by: those of the version that
        recorded it (its creation event), not of the class that loaded it, so a
        stored game of an earlier version goes on by its own rules after an
        upgrade and still re-executes by them."""
        return EARLIER_RULES.get(self.rules_version, frozenset())

    # --------------------------------------------------------------- protocol

    def pending(self) -> list[Decision]:
        """Who is asked what now, from the state alone."""
        if self.ended or self.over:
            return []
        asked = [(s, steps.OPENING) for s in setup.opening_waiting(self)] or [
            (s, steps.DRAFT) for s in objectives.draft_waiting(self)]
        if not asked:
            found = self._turn_decision() or self._reinforcement_decision()
            asked = [found] if found else []
        return [Decision(seat=s, kind=k, prompt=steps.PROMPTS[k], hidden=k == steps.OPENING,
                         choices=self._choices(s, k)) for s, k in asked]

    def _choices(self, seat: int, kind: str) -> tuple[Choice, ...]:
        """How an answer is built: one of the legal list, and for the picks of
        dice or cards the structured choice too (re-roll these dice, discard these
        cards, lose these units)."""
        one = PickOne(steps.PROMPTS[kind])
        if kind == steps.REROLL and self.battle is not None and self.battle.get("reroll"):
            pool = self.battle["sides"][self.battle["reroll"]]["pool"]
            return one, dice.reroll_choice("reroll_dice", "dice", pool, steps.PROMPTS[kind])
        if kind == steps.DISCARD:
            need = turns.excess(self, seat)
            return one, PickCards(command="discard_support", arg="cards",
                                  options=tuple(sorted(self.hands[seat])), low=need, high=need,
                                  zone="hand", prompt=steps.PROMPTS[kind])
        if kind == steps.DESTROY and self.battle is not None and self.battle.get("result"):
            troops = self.battle["sides"][battles.loser_role(self.battle)]["troops"]
            need = int(self.battle["result"]["destroy"])
            return one, PickCards(command="destroy_units", arg="troops",
                                  options=tuple(range(len(troops))), low=need, high=need,
                                  zone="battle", prompt=steps.PROMPTS[kind])
        return (one,)

    def _turn_decision(self) -> tuple[int, str] | None:
        if self.turn is None:
            return None
        seat = int(self.turn["seat"])
        now = turns.step(self)
        if now == turns.ORDERS:
            return seat, steps.ORDER if self.turn["order"] is None else steps.ACTIONS
        if now == turns.BATTLES:
            if self.battle is None:
                return (seat, steps.BATTLE_ORDER) if len(self.turn["battles"]) > 1 else None
            acting = battles.acting(self)
            if acting is not None:
                kind = (steps.REROLL if self.battle.get("reroll") else
                        steps.REACTION if self.battle.get("reaction") else steps.BATTLE_STAGE)
                return acting[1], kind
            deciding = battles.deciding(self)
            return (deciding[1], deciding[0]) if deciding else None
        if now == turns.SUPPORT:
            return (seat, steps.SUPPORT) if support.can_draw(self) else None
        cleanup = turns.cleanup_decision(self, seat)
        if cleanup == "discard":
            return seat, steps.DISCARD
        if cleanup == "titan":
            return seat, steps.TITAN
        return None

    def _reinforcement_decision(self) -> tuple[int, str] | None:
        seat = reinforcements.reinforcing_seat(self)
        if seat is None:
            return None
        return seat, {"first": steps.FIRST, "keep": steps.KEEP,
                      "second": steps.SECOND}[str(reinforcements.stage(self))]

    def finished(self) -> dict[str, Any] | None:
        return scoring.outcome(self) if self.over else None

    def standings(self) -> Outcome:
        return scoring.standings(self)

    def view(self, seat: int | None) -> dict[str, Any]:
        return views.view(self, seat)

    def present(self, seat: int | None) -> Screen:
        return present.present(self, seat)

    def action_label(self, command: Command) -> str:
        return present.action_label(self, command)

    @classmethod
    def describe(cls, event_type: str, payload: Mapping[str, Any], seats: list[str]) -> str:
        said = present.describe(event_type, payload, seats)
        return said if said is not None else super().describe(event_type, payload, seats)

    # ----------------------------------------------------------- evolve helpers

    def _side(self, role: str) -> dict[str, Any]:
        assert self.battle is not None
        return self.battle["sides"][role]  # type: ignore[no-any-return]

    def _add_units(self, region: str, seat: int, units: Mapping[str, int]) -> None:
        army = self.armies.get(region)
        if army is None:
            self.armies[region] = {"nation": seat, "units": dict(units)}
        else:
            assert army["nation"] == seat, "one Nation per region"
            army["units"] = pieces.plus(army["units"], units)
        self.control[region] = seat

    def _take_units(self, region: str, units: Mapping[str, int]) -> None:
        army = self.armies[region]
        army["units"] = pieces.minus(army["units"], units)
        if not army["units"]:
            del self.armies[region]

    def _use_action(self, action: str) -> None:
        if self.turn is not None and action in self.turn["actions"]:
            self.turn["actions"].remove(action)

    def _to_bottom(self, seat: int, card: int) -> None:
        if card != NONE and card in self.nation_decks[seat]:
            self.nation_decks[seat].remove(card)
            self.nation_decks[seat].append(card)

    def _pay(self, seat: int, paid: list[int]) -> None:
        for c in paid:
            self.hands[seat].remove(c)
        self.support_discard.extend(paid)

    def _gain(self, role: str, strength: int, dice: list[dict[str, Any]],
              pool: list[dict[str, Any]] | None) -> None:
        side = self._side(role)
        side["bonus"] += strength
        if pool is not None:
            side["pool"] = [dict(d) for d in pool]
        for die in dice:
            side["pool"].append(dict(die))
            side["reserve"][die["die"]] -= 1

    # ------------------------------------------------------------ Support Cards

    @event("SupportDrawn")
    def _support_drawn(self, seat: int, cards: list[int], source: str, why: str) -> None:
        for c in cards:
            (self.support_deck if source == "deck" else self.support_row).remove(c)
        self.hands[seat].extend(cards)
        if why == "turn" and self.turn is not None:
            self.turn["support_drawn"] = True

    @event("SupportUnavailable")
    def _support_unavailable(self, seat: int) -> None:
        assert self.turn is not None
        self.turn["support_drawn"] = True

    @event("SupportRowRefilled")
    def _support_row_refilled(self, cards: list[int]) -> None:
        for c in cards:
            self.support_deck.remove(c)
        self.support_row.extend(cards)

    @event("SupportDeckReshuffled")
    def _support_deck_reshuffled(self, deck: list[int]) -> None:
        self.support_discard = [c for c in self.support_discard if c not in deck]
        self.support_deck = list(deck)

    @event("SupportDiscarded")
    def _support_discarded(self, seat: int, cards: list[int], why: str) -> None:
        self._pay(seat, list(cards))
        if why == "reroll" and self.battle is not None:
            self.battle["reroll"] = battles.role_of(self.battle, seat)

    # ------------------------------------------------------------ Game Setup

    @event("OpeningPurchaseChosen")
    def _opening_purchase_chosen(self, seat: int, card: int | None, pay: list[int],
                                 bottom: int) -> None:
        assert self.opening is not None
        self.opening["chosen"][str(seat)] = {"card": card, "pay": list(pay), "bottom": bottom}

    @event("OpeningPurchasesRevealed")
    def _opening_purchases_revealed(self, purchases: list[dict[str, Any]]) -> None:
        chosen = (self.opening or {}).get("chosen", {})
        for p in purchases:
            seat, card = int(p["seat"]), p["card"]
            if card is not None:
                self.nation_decks[seat].remove(card)
                self.nation_cards[seat].append(card)
            self._pay(seat, list(p["paid"]))
            self._to_bottom(seat, int(chosen.get(str(seat), {}).get("bottom", NONE)))
        self.opening = None

    @event("ObjectivesDealt")
    def _objectives_dealt(self, seat: int, cards: list[int]) -> None:
        assert self.draft is not None
        for c in cards:
            self.objective_deck.remove(c)
        self.draft["holding"][seat] = list(cards)

    @event("ObjectiveKept")
    def _objective_kept(self, seat: int, card: int, returned: list[int]) -> None:
        if self.draft is not None:
            holding = self.draft["holding"][seat]
            for c in [card, *returned]:
                holding.remove(c)
            self.draft["kept"].append(seat)
        else:
            assert self.reinforcing is not None
            self.reinforcing["drawn"] = []
            self.reinforcing["first"] = True
        self.objectives[seat].append(card)
        self.objective_deck.extend(returned)

    @event("ObjectivesPassed")
    def _objectives_passed(self, seat: int, to: int, cards: list[int]) -> None:
        assert self.draft is not None
        self.draft["incoming"][to] = list(cards)
        self.draft["holding"][seat] = []

    @event("DraftPassed")
    def _draft_passed(self, pick: int) -> None:
        assert self.draft is not None
        self.draft["holding"] = self.draft["incoming"]
        self.draft["incoming"] = [[] for _ in self.seats]
        self.draft["kept"] = []
        self.draft["pick"] = pick

    @event("DraftEnded")
    def _draft_ended(self, kept: list[int]) -> None:
        self.draft = None

    # ------------------------------------------------------------ Order Cards

    @event("RoundBegan")
    def _round_began(self, round: int, start_player: int) -> None:  # noqa: A002
        self.round = round
        self.start_player = start_player
        kflow.enter(self, "round")

    @event("OrderDeckShuffled")
    def _order_deck_shuffled(self, round: int, deck: list[int]) -> None:  # noqa: A002
        self.order_deck = list(deck)
        self.order_pool = []
        self.upcoming = []
        self.order_discard = []

    @event("OrderPoolDrawn")
    def _order_pool_drawn(self, round: int, cards: list[int], first: int) -> None:  # noqa: A002
        self.order_deck = self.order_deck[len(cards):]
        self.order_pool = list(cards)
        self.current = first
        if EARLIER_FIRST_TURN in self.earlier:  # 1.0.0: the first turn began here
            self.turn = new_turn(first)

    @event("UpcomingPoolDrawn")
    def _upcoming_pool_drawn(self, round: int, cards: list[int]) -> None:  # noqa: A002
        self.order_deck = self.order_deck[len(cards):]
        self.upcoming = list(cards)

    @event("OrderPoolSlid")
    def _order_pool_slid(self, card: int, cards: list[int]) -> None:
        self.order_discard.append(card)
        self.order_pool = self.upcoming
        self.order_deck = self.order_deck[len(cards):]
        self.upcoming = list(cards)

    @event("OrderTaken")
    def _order_taken(self, seat: int, card: int, actions: list[str]) -> None:
        assert self.turn is not None
        self.order_pool.remove(card)
        self.turn["order"] = card
        self.turn["actions"] = list(actions)

    @event("OrdersEnded")
    def _orders_ended(self, seat: int, card: int, unused: list[str],
                      battles: list[str]) -> None:
        assert self.turn is not None
        self.order_discard.append(card)
        self.turn["orders_done"] = True
        self.turn["actions"] = []

    # ------------------------------------------------------------ actions

    @event("UnitMoved")
    def _unit_moved(self, seat: int, action: str, units: dict[str, int], origin: str,
                    to: str, token: bool, result: str) -> None:
        self._take_units(origin, units)
        self._use_action(action)
        if result == "battle":
            assert self.turn is not None
            waiting = next(b for b in self.turn["battles"] if b["region"] == to)
            waiting["troops"].extend({"unit": u, "from": origin}
                                     for u in pieces.units_of(units, UNITS))
        else:
            self._add_units(to, seat, units)

    @event("BattleDeclared")
    def _battle_declared(self, seat: int, region: str, defender: int,
                         fortified: bool) -> None:
        assert self.turn is not None
        self.turn["battles"].append({"region": region, "defender": defender,
                                     "fortified": fortified, "troops": []})
        self.turn["entered"].append([defender, region])

    @event("RegionTaken")
    def _region_taken(self, seat: int, region: str, owner: int, capitol: bool,
                      stronghold: bool, vp: int) -> None:
        if capitol:
            self.capitols[region]["damaged"] = True
        self.vp[seat] += vp
        if self.turn is not None:
            self.turn["entered"].append([owner, region])

    @event("UnitDeployed")
    def _unit_deployed(self, seat: int, action: str, unit: str, region: str) -> None:
        self.reserve[seat] = pieces.minus(self.reserve[seat], {unit: 1})
        self._add_units(region, seat, {unit: 1})
        if unit == TITAN:
            self.titan[seat] = "map"
        self._use_action(action)

    @event("StrongholdBuilt")
    def _stronghold_built(self, seat: int, region: str) -> None:
        self.strongholds.append(region)
        self.strongholds_left -= 1
        self._use_action("stronghold")

    @event("NationCardPurchased")
    def _nation_card_purchased(self, seat: int, card: int, cost: int, paid: list[int],
                               why: str, bottom: int) -> None:
        self.nation_decks[seat].remove(card)
        self.nation_cards[seat].append(card)
        self._pay(seat, list(paid))
        self._to_bottom(seat, bottom)
        self._use_action(why)

    @event("NationDeckTopSeen")
    def _nation_deck_top_seen(self, seat: int, cards: list[int]) -> None:
        """A player looks at the top 3 of his Nation Deck: nothing moves."""

    @event("ObjectiveAccomplished")
    def _objective_accomplished(self, seat: int, card: int, name: str, vp: int) -> None:
        self.objectives[seat].remove(card)
        self.accomplished[seat].append(card)
        self.vp[seat] += vp
        if self.turn is not None:
            self.turn["objective"] = True

    # ------------------------------------------------------------ Battles

    @event("BattleBegun")
    def _battle_begun(self, region: str, attacker: int, defender: int, fortified: bool,
                      order: list[str], sides: dict[str, Any], attacker_strength: int,
                      defender_strength: int) -> None:
        assert self.turn is not None
        self.turn["battles"] = [b for b in self.turn["battles"] if b["region"] != region]
        self.armies.pop(region, None)  # the Defender's units are in the Battle
        self.battle = {"region": region, "fortified": fortified, "order": list(order),
                       "at": 0, "reroll": None, "reaction": None, "result": None,
                       "sides": copy.deepcopy(sides)}

    @event("SupportPlayed")
    def _support_played(self, seat: int, region: str, role: str, cards: list[int],
                        effect: str, dice: list[dict[str, Any]], strength: int,
                        unit: str | None, origin: str | None, token: bool,
                        reaction: str | None) -> None:
        assert self.battle is not None
        for c in cards:
            self.hands[seat].remove(c)
        side = self._side(role)
        side["played"].extend(cards)
        self._gain(role, strength, dice, None)
        if unit is not None and origin is not None:
            self._take_units(origin, {unit: 1})
            side["troops"].append({"unit": unit, "from": origin})
            side["moved_in"] = True
        self.battle["reaction"] = reaction

    @event("DiceRerolled")
    def _dice_rerolled(self, seat: int, region: str, role: str, dice: list[int],
                       before: list[dict[str, Any]], pool: list[dict[str, Any]]) -> None:
        assert self.battle is not None
        self._side(role)["pool"] = [dict(d) for d in pool]
        self.battle["reroll"] = None

    @event("NationCardUsed")
    def _nation_card_used(self, seat: int, region: str, role: str, effect: str, card: int,
                          timing: str, strength: int, dice: list[dict[str, Any]],
                          rerolled: list[int], draw: int,
                          pool: list[dict[str, Any]] | None) -> None:
        assert self.battle is not None
        self._gain(role, strength, dice, pool)
        if timing == "battle":
            self._side(role)["used"].append(card)
        else:
            self.rotated[seat].append(card)
        if self.battle.get("reaction") == role:
            self.battle["reaction"] = None

    @event("TitanAbilityUsed")
    def _titan_ability_used(self, seat: int, region: str, role: str, effect: str, name: str,
                            strength: int, dice: list[dict[str, Any]], rerolled: list[int],
                            draw: int, pool: list[dict[str, Any]] | None) -> None:
        self._gain(role, strength, dice, pool)
        self._side(role)["titan_used"] = True

    @event("NationAbilityUsed")
    def _nation_ability_used(self, seat: int, region: str, role: str, effect: str, name: str,
                             strength: int, dice: list[dict[str, Any]], rerolled: list[int],
                             draw: int, pool: list[dict[str, Any]] | None) -> None:
        self._gain(role, strength, dice, pool)
        self._side(role)["ability_used"] = True

    @event("StageEnded")
    def _stage_ended(self, seat: int, region: str, role: str) -> None:
        assert self.battle is not None
        self.battle["at"] += 1

    @event("ReactionDeclined")
    def _reaction_declined(self, seat: int, region: str, role: str) -> None:
        assert self.battle is not None
        self.battle["reaction"] = None

    @event("BattleWon")
    def _battle_won(self, region: str, winner: int, loser: int, winner_role: str,
                    attacker_strength: int, defender_strength: int, difference: int,
                    effective: int, destroy: int) -> None:
        assert self.battle is not None
        self.battle["result"] = {"winner": winner, "loser": loser, "winner_role": winner_role,
                                 "difference": difference, "effective": effective,
                                 "destroy": destroy, "destroyed": [],
                                 "destroy_done": destroy == 0, "titan": False,
                                 "withdrawn": False}

    @event("UnitsDestroyed")
    def _units_destroyed(self, seat: int, region: str, role: str, troops: list[int],
                         units: dict[str, int], titan: bool, why: str) -> None:
        assert self.battle is not None
        side = self._side(role)
        result = self.battle["result"]
        for i in sorted(troops, reverse=True):
            result["destroyed"].append(side["troops"].pop(i))
        self.reserve[seat] = pieces.plus(self.reserve[seat], units)
        if titan:
            self.titan[seat] = "lying" if role == "attacker" else "standing"
            result["titan"] = True
        result["destroy_done"] = True
        if why == "no retreat":
            result["withdrawn"] = True
        self.destroyed[int(result["winner"])] += pieces.size(units)

    @event("UnitsWithdrew")
    def _units_withdrew(self, seat: int, region: str, role: str,
                        moves: list[dict[str, Any]]) -> None:
        assert self.battle is not None
        for move in moves:
            self._add_units(move["to"], seat, {move["unit"]: 1})
        self._side(role)["troops"] = []
        self.battle["result"]["withdrawn"] = True

    @event("BattleResolved")
    def _battle_resolved(self, region: str, winner: int, loser: int, winner_role: str,
                         difference: int, cards: int, vp: int, tier_vp: int,
                         bonus: dict[str, int], stronghold_destroyed: bool,
                         capitol_damaged: bool) -> None:
        assert self.battle is not None
        side = self._side(winner_role)
        units = pieces.troop(*(t["unit"] for t in side["troops"]))
        if units:
            self._add_units(region, winner, units)
        self.control[region] = winner
        if stronghold_destroyed:
            self.strongholds.remove(region)
        if capitol_damaged:
            self.capitols[region]["damaged"] = True
        self.vp[winner] += vp
        self.battles_won[winner] += 1
        for role in ("attacker", "defender"):
            self.support_discard.extend(self._side(role)["played"])
        self.battle = None

    # ------------------------------------------------------------ Clean-Up and turns

    @event("TitanRaised")
    def _titan_raised(self, seat: int) -> None:
        assert self.turn is not None
        self.titan[seat] = "standing"
        self.turn["titan_done"] = True

    @event("TitanDeployed")
    def _titan_deployed(self, seat: int, region: str) -> None:
        assert self.turn is not None
        self.reserve[seat] = pieces.minus(self.reserve[seat], {TITAN: 1})
        self._add_units(region, seat, {TITAN: 1})
        self.titan[seat] = "map"
        self.turn["titan_done"] = True

    @event("TurnEnded")
    def _turn_ended(self, seat: int) -> None:
        self.turn = None

    @event("TurnBegan")
    def _turn_began(self, seat: int) -> None:
        self.current = seat
        self.turn = new_turn(seat)

    # ------------------------------------------------------------ End of the Round

    @event("RoundScored")
    def _round_scored(self, round: int, regions: list[int], vp: list[int],  # noqa: A002
                      final: bool) -> None:
        self.vp = [a + b for a, b in zip(self.vp, vp, strict=True)]
        kflow.enter(self, "round_end")
        if final:
            self.region_vp = list(vp)
            self.over = True

    @event("StartingPlayerPassed")
    def _starting_player_passed(self, round: int, start_player: int) -> None:  # noqa: A002
        self.round = round
        self.start_player = start_player
        self.reinforcing = {"order": kflow.order_from(start_player, len(self.seats)),
                            "at": 0, "first": False, "drawn": []}

    @event("ReinforcementChosen")
    def _reinforcement_chosen(self, seat: int, reinforcement: int, option: str) -> None:
        assert self.reinforcing is not None
        if reinforcement == 1:
            self.reinforcing["first"] = True
        else:
            self.reinforcing["at"] += 1
            self.reinforcing["first"] = False
            self.reinforcing["drawn"] = []

    @event("ObjectivesDrawn")
    def _objectives_drawn(self, seat: int, cards: list[int]) -> None:
        assert self.reinforcing is not None
        for c in cards:
            self.objective_deck.remove(c)
        self.reinforcing["drawn"] = list(cards)

    @event("RoundPrepared")
    def _round_prepared(self, round: int, row_discarded: list[int],  # noqa: A002
                        restored: list[int]) -> None:
        self.support_discard.extend(self.support_row)
        self.support_row = []
        self.rotated = [[] for _ in self.seats]
        self.reinforcing = None
