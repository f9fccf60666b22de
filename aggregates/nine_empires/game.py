"""The Romance of the Nine Empires aggregate: its state, its events, the kernel's hooks.

The rules live in the rules modules (``setup``, ``actions``, ``payment``,
``playing``, ``abilities``, ``battles``, ``raids``, ``quests``, ``winter``,
``victory``), which decide on the state (``state.State``) and record events
with ``emit``; the flow is declared in ``flow.py`` and run by the kernel, with
action passing, the Attack and Raiding Phases and React windows on the
kernel's frame stack. The ``@event`` bodies below only change state, each by
its body in ``evolve.py`` (the same bodies the tests below the aggregate use).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from eventsourcing.domain import event

from aggregates.kernel import Audience, Choice, Command, Decision, DiceTray, Game
from aggregates.kernel.game import refuse_unknown_options
from aggregates.kernel.nature import GameType
from aggregates.kernel.outcome import Outcome
from aggregates.kernel.present import Screen
from aggregates.nine_empires import decisions, frames, present, setup, upcasts, victory, views
from aggregates.nine_empires.commands import COMMANDS
from aggregates.nine_empires.data import DECKS
from aggregates.nine_empires.evolve import APPLY
from aggregates.nine_empires.flow import FLOW
from aggregates.nine_empires.reasons import REASONS
from aggregates.nine_empires.state import EARLIER_BY_VERSION

#: Events whose private form only some seats read, and what the others see.
PRIVATE = {
    "CardsDrawn": ("seat", ("seat", "count", "why")),
    "RaidUnitsAssigned": ("seat", ("seat", "side", "heroes", "castles", "stealth_count")),
}


def _facts(arguments: dict[str, Any]) -> dict[str, Any]:
    """An event body's arguments as the payload its ``evolve`` body reads."""
    return {k: v for k, v in arguments.items() if k != "self"}


class NineEmpires(Game):
    """Romance of the Nine Empires: no player turns, Reacts, battles at every castle."""

    RULES_ID = "nine_empires"
    TITLE = "Romance of the Nine Empires"
    RULES_VERSION = "1.3.0"
    MIN_SEATS = 2
    MAX_SEATS = 6
    COMMANDS = COMMANDS
    #: Not every legal list is whole (payments, targets, assignments combine);
    #: any valid command is accepted, so the rules check every command.
    CHECK_AGAINST_LEGAL_LIST = False
    FLOW = FLOW
    REASONS = REASONS
    #: Actions passed in turn, the opening hands reviewed by all at once; shuffled
    #: decks; hidden hands, decks and stealth cards; one winner.
    GAME_TYPE = GameType.of("mixed", "explicit", "imperfect", "general_sum", players=(2, 6))
    OPTIONS_SCHEMA = {  # noqa: RUF012
        "type": "object",
        "properties": {
            "decks": {
                "description": "One deck per seat: a deck's name, or a custom deck "
                               "(stronghold, castles, starting_castles, cards: {key: copies}) "
                               "checked by Customizing Your Decks; default: random decks.",
                "type": "array",
                "items": {"anyOf": [
                    {"enum": sorted(DECKS)},
                    {"type": "object", "required": ["stronghold", "castles", "cards"],
                     "properties": {
                         "stronghold": {"type": "string"},
                         "castles": {"type": "array", "items": {"type": "string"}},
                         "starting_castles": {"type": "array", "items": {"type": "string"}},
                         "cards": {"type": "object",
                                   "additionalProperties": {"type": "integer"}}},
                     "additionalProperties": False}]},
            },
        },
        "additionalProperties": False,
    }
    SUMMARY = ("A card game without player turns: actions pass round the table until "
               "all pass in a row; Reacts interrupt (and Reacts to Reacts); attacks bring a "
               "battle at every castle, raids steal food with stealth cards, quests bring "
               "Renown. Win by dominance, popularity or conquest. Five designed decks.")

    # ------------------------------------------------------------------ setup

    @classmethod
    def check_options(cls, options: dict[str, Any]) -> dict[str, Any]:
        refuse_unknown_options(options, {"decks"})
        if "decks" not in options:
            return {}
        setup.check_decks(options, len(options["decks"]) if isinstance(options["decks"], list)
                          else -1)
        return {"decks": list(options["decks"])}

    @classmethod
    def decide_setup(cls, dice: DiceTray, seats: list[str], options: dict[str, Any]
                     ) -> dict[str, Any]:
        """Decks (random where none was chosen), each deck's shuffle, the Ordained."""
        chosen = setup.check_decks(options, len(seats))
        return setup.decide_setup(dice.roll, dice.shuffled, len(seats), chosen)

    @classmethod
    def public_setup(cls, setup_: Mapping[str, Any]) -> dict[str, Any]:
        """Strongholds, castles, starting Renown and food are revealed; the decks'
        orders are not."""
        return {"ordained": setup_.get("ordained"),
                "players": [{"deck": p["deck"], "stronghold": p["stronghold"],
                             "castles": list(p["castles"]), "renown": p["renown"],
                             "food": list(p["food"]), "cards": len(p["cards"])}
                            for p in setup_.get("players", [])]}

    def setup(self, setup_: dict[str, Any]) -> None:
        self.instances: dict[str, dict[str, Any]]
        self.zones: dict[str, list[str]]
        self.renown: list[int]
        self.out: list[int]
        self.turn: int
        self.phase: str
        self.ordained: int
        self.frames: list[dict[str, Any]]
        self.windows: int
        self.attacked: list[int]
        self.raided: list[int]
        self.conflict: dict[str, Any] | None
        self.lasting: list[dict[str, Any]]
        self.uses: dict[str, int]
        self.discard_down: list[int]
        self.redistributing: list[int]
        self.winter_step: str
        self.mulligans: list[int]
        self.over: bool
        self.result: dict[str, Any] | None
        vars(self).update(setup.initial_state(len(self.seats)))
        setup.apply_setup(self, setup_)

    @property
    def EARLIER(self) -> frozenset[str]:  # noqa: N802 - read as the State's constant
        """The earlier rules this game is played by (``state.EARLIER_*``): those
        of the version its creation event records, not of the class that loaded
        it, so a stored 1.0.0, 1.1.0 or 1.2.0 game goes on by its own rules after
        an upgrade and still re-executes by them (none for 1.3.0)."""
        return EARLIER_BY_VERSION.get(self.rules_version, frozenset())

    # --------------------------------------------------------------- protocol

    @property
    def stack(self) -> list[dict[str, Any]]:
        return frames.windows(self)

    def pending(self) -> list[Decision]:
        if self.ended:
            return []
        return [Decision(seat=s, kind=k, prompt=FLOW.prompt(k), default="pass"
                         if FLOW.step(k).passes is not None else None,
                         choices=decisions.choices(self, s, k))
                for s, k in decisions.pending(self)]

    def choices(self, seat: int) -> list[Choice]:
        return [c for d in self.pending() if d.seat == seat for c in d.choices]

    def legal_list_complete(self, seat: int) -> bool:
        """Whole lists where the answers are few enough (docs/games/nine-empires.md,
        "Legal lists"); elsewhere every part of a valid command is listed, not
        every combination of the parts."""
        return decisions.list_complete(self, seat)

    def finished(self) -> dict[str, Any] | None:
        return self.result if self.over else None

    def standings(self) -> Outcome:
        return victory.standings(self)

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

    @classmethod
    def audience(cls, event_type: str, payload: Mapping[str, Any]) -> Audience:
        """Cards drawn and stealth cards placed: their owner reads them; nobody
        reads a new deck's order."""
        if event_type in PRIVATE:
            return Audience(frozenset({int(payload[PRIVATE[event_type][0]])}))
        if event_type == "DeckReshuffled":
            return Audience(frozenset())
        return super().audience(event_type, payload)

    @classmethod
    def public_form(cls, event_type: str, payload: Mapping[str, Any]) -> dict[str, Any]:
        if event_type in PRIVATE:
            return {k: payload[k] for k in PRIVATE[event_type][1] if k in payload}
        if event_type == "DeckReshuffled":
            return {"seat": payload["seat"], "count": payload["count"]}
        return super().public_form(event_type, payload)

    # ------------------------------------------------------ evolve (events)

    @event("Passed")
    def _passed(self, forced: bool, seat: int, where: str) -> None:
        APPLY["Passed"](self, _facts(locals()))

    @event("TurnBegan")
    def _turn_began(self, ordained: int, turn: int) -> None:
        APPLY["TurnBegan"](self, _facts(locals()))

    @event("SpringBegan")
    def _spring_began(self, straightened: list[Any], turn: int) -> None:
        APPLY["SpringBegan"](self, _facts(locals()))

    @event("PhaseBegan")
    def _phase_began(self, order: list[Any], phase: str, turn: int) -> None:
        APPLY["PhaseBegan"](self, _facts(locals()))

    @event("PhaseEnded")
    def _phase_ended(self, phase: str, turn: int) -> None:
        APPLY["PhaseEnded"](self, _facts(locals()))

    @event("Bowed")
    def _bowed(self, cards: list[Any], seat: int, why: str) -> None:
        APPLY["Bowed"](self, _facts(locals()))

    @event("Straightened")
    def _straightened(self, cards: list[Any], seat: int) -> None:
        APPLY["Straightened"](self, _facts(locals()))

    @event("FoodSpent")
    def _food_spent(self, castles: list[Any], left: dict[str, Any], seat: int, why: str) -> None:
        APPLY["FoodSpent"](self, _facts(locals()))

    @event("CardPlayed")
    def _card_played(
            self, attach_to: str | None, bowed: bool, card: str, key: str, seat: int, type: str
    ) -> None:
        APPLY["CardPlayed"](self, _facts(locals()))

    @event("GloryPaid")
    def _glory_paid(self, bowed: list[Any], glory: int, heroes: list[Any], seat: int) -> None:
        APPLY["GloryPaid"](self, _facts(locals()))

    @event("RenownGained")
    def _renown_gained(self, amount: int, seat: int, total: int, why: str) -> None:
        APPLY["RenownGained"](self, _facts(locals()))

    @event("QuestCompleted")
    def _quest_completed(self, key: str, quest: str, renown: int, seat: int, total: int) -> None:
        APPLY["QuestCompleted"](self, _facts(locals()))

    @event("CardsDiscarded")
    def _cards_discarded(self, cards: list[Any], keys: list[Any], seat: int, why: str) -> None:
        APPLY["CardsDiscarded"](self, _facts(locals()))

    @event("AbilityUsed")
    def _ability_used(
            self, ability: int, discarded_fate: int, key: str, order: list[Any], seat: int,
            source: str, tactic: bool, targets: dict[str, Any], text: str, timing: str
    ) -> None:
        APPLY["AbilityUsed"](self, _facts(locals()))

    @event("ReactPlayed")
    def _react_played(
            self, ability: int, discarded_fate: int, key: str, order: list[Any], seat: int,
            source: str, tactic: bool, targets: dict[str, Any], text: str, timing: str
    ) -> None:
        APPLY["ReactPlayed"](self, _facts(locals()))

    @event("ReactPassed")
    def _react_passed(self, forced: bool, seat: int, source: str) -> None:
        APPLY["ReactPassed"](self, _facts(locals()))

    @event("AbilityResolved")
    def _ability_resolved(self, cancelled: bool, key: str, seat: int, source: str) -> None:
        APPLY["AbilityResolved"](self, _facts(locals()))

    @event("AbilityCancelled")
    def _ability_cancelled(self, by: str, frame: int, seat: int, source: str) -> None:
        APPLY["AbilityCancelled"](self, _facts(locals()))

    @event("AbilityTriggered")
    def _ability_triggered(
            self, ability: int, event: str, key: str, seat: int, source: str, text: str
    ) -> None:
        APPLY["AbilityTriggered"](self, _facts(locals()))

    @event("EffectApplied")
    def _effect_applied(
            self, duration: str, id: str, params: dict[str, Any], source: str, target: str,
            verb: str
    ) -> None:
        APPLY["EffectApplied"](self, _facts(locals()))

    @event("MarkerPlaced")
    def _marker_placed(self, amount: int, source: str, stat: str, target: str) -> None:
        APPLY["MarkerPlaced"](self, _facts(locals()))

    @event("DamageReduced")
    def _damage_reduced(
            self, amount: int, damage: int, engagement: int, seat: int, source: str
    ) -> None:
        APPLY["DamageReduced"](self, _facts(locals()))

    @event("FoodAdded")
    def _food_added(self, amount: int, castle: str, seat: int, source: str, total: int) -> None:
        APPLY["FoodAdded"](self, _facts(locals()))

    @event("FoodLost")
    def _food_lost(self, amount: int, castle: str, seat: int, source: str, total: int) -> None:
        APPLY["FoodLost"](self, _facts(locals()))

    @event("CardsDrawn")
    def _cards_drawn(self, cards: list[Any], count: int, seat: int, why: str) -> None:
        APPLY["CardsDrawn"](self, _facts(locals()))

    @event("DeckReshuffled")
    def _deck_reshuffled(self, count: int, order: list[Any], seat: int) -> None:
        APPLY["DeckReshuffled"](self, _facts(locals()))

    @event("SentHome")
    def _sent_home(self, hero: str, stealth: str | None) -> None:
        APPLY["SentHome"](self, _facts(locals()))

    @event("HeroBuried")
    def _hero_buried(
            self, buried: list[Any], discarded: list[Any], food: int, hero: str, key: str,
            seat: int, why: str
    ) -> None:
        APPLY["HeroBuried"](self, _facts(locals()))

    @event("CardBuried")
    def _card_buried(self, card: str, key: str, seat: int, token: bool, why: str) -> None:
        APPLY["CardBuried"](self, _facts(locals()))

    @event("MovedToBattle")
    def _moved_to_battle(self, castle: str, hero: str, side: str) -> None:
        APPLY["MovedToBattle"](self, _facts(locals()))

    @event("TokenMade")
    def _token_made(self, attached_to: str, card: str, seat: int, token: str) -> None:
        APPLY["TokenMade"](self, _facts(locals()))

    @event("BattleDeclared")
    def _battle_declared(
            self, allies_asked: list[Any], attacker: int, castles: list[Any], defender: int
    ) -> None:
        APPLY["BattleDeclared"](self, _facts(locals()))

    @event("AlliesCalled")
    def _allies_called(self, call: bool, seat: int) -> None:
        APPLY["AlliesCalled"](self, _facts(locals()))

    @event("AllyChosen")
    def _ally_chosen(self, seat: int, side: str) -> None:
        APPLY["AllyChosen"](self, _facts(locals()))

    @event("UnitsAssigned")
    def _units_assigned(self, castles: list[Any], heroes: list[Any], seat: int, side: str) -> None:
        APPLY["UnitsAssigned"](self, _facts(locals()))

    @event("BattleChosen")
    def _battle_chosen(self, castle: str, order: list[Any], seat: int) -> None:
        APPLY["BattleChosen"](self, _facts(locals()))

    @event("RaidChosen")
    def _raid_chosen(self, castle: str, order: list[Any], seat: int) -> None:
        APPLY["RaidChosen"](self, _facts(locals()))

    @event("Engaged")
    def _engaged(
            self, brutal: bool, cards: list[Any], castle: str, damage: int, order: list[Any],
            seat: int, side: str
    ) -> None:
        APPLY["Engaged"](self, _facts(locals()))

    @event("ReturnedHome")
    def _returned_home(self, bowed: list[Any], hero: str, seat: int) -> None:
        APPLY["ReturnedHome"](self, _facts(locals()))

    @event("ImmunityStep")
    def _immunity_step(self, damage: int, seat: int) -> None:
        APPLY["ImmunityStep"](self, _facts(locals()))

    @event("AbsorbStep")
    def _absorb_step(self, damage: int, seat: int) -> None:
        APPLY["AbsorbStep"](self, _facts(locals()))

    @event("ImmunityDeclared")
    def _immunity_declared(self, cards: list[Any], seat: int) -> None:
        APPLY["ImmunityDeclared"](self, _facts(locals()))

    @event("DamageAbsorbed")
    def _damage_absorbed(
            self, absorbed: int, card: str, discard: str | None, fate: int, kind: str,
            remaining: int, seat: int
    ) -> None:
        APPLY["DamageAbsorbed"](self, _facts(locals()))

    @event("EngagementResolved")
    def _engagement_resolved(self, seat: int, wasted: int) -> None:
        APPLY["EngagementResolved"](self, _facts(locals()))

    @event("CastleBuried")
    def _castle_buried(self, attacker: int, castle: str, key: str, seat: int) -> None:
        APPLY["CastleBuried"](self, _facts(locals()))

    @event("BattleEnded")
    def _battle_ended(
            self, attackers: list[Any], castle: str, castle_stands: bool,
            defenders_home: list[Any]
    ) -> None:
        APPLY["BattleEnded"](self, _facts(locals()))

    @event("AttackEnded")
    def _attack_ended(self, attacker: int, defender: int) -> None:
        APPLY["AttackEnded"](self, _facts(locals()))

    @event("RaidDeclared")
    def _raid_declared(self, castles: list[Any], defender: int, raider: int) -> None:
        APPLY["RaidDeclared"](self, _facts(locals()))

    @event("RaidUnitsAssigned")
    def _raid_units_assigned(
            self, castles: list[Any], heroes: list[Any], seat: int, side: str, stealth: list[Any],
            stealth_count: int
    ) -> None:
        APPLY["RaidUnitsAssigned"](self, _facts(locals()))

    @event("RaidResolved")
    def _raid_resolved(
            self, against: int, against_might: bool, castle: str, defender: int,
            defender_bonus: int, defender_fate: int, defender_stealth: str | None,
            defending_hero: str | None, raider: int, raider_bonus: int, raider_fate: int,
            raider_stealth: str | None, raider_total: int, raiding_hero: str | None, stolen: int,
            success: bool
    ) -> None:
        APPLY["RaidResolved"](self, _facts(locals()))

    @event("RaidEnded")
    def _raid_ended(self, defender: int, raider: int) -> None:
        APPLY["RaidEnded"](self, _facts(locals()))

    @event("WinterBegan")
    def _winter_began(self, turn: int) -> None:
        APPLY["WinterBegan"](self, _facts(locals()))

    @event("FoodStored")
    def _food_stored(self, discarded: int, heroes: list[Any], moves: list[Any], seat: int) -> None:
        APPLY["FoodStored"](self, _facts(locals()))

    @event("EffectsEnded")
    def _effects_ended(self, turn: int) -> None:
        APPLY["EffectsEnded"](self, _facts(locals()))

    @event("QuestBuried")
    def _quest_buried(self, key: str, quest: str, seat: int) -> None:
        APPLY["QuestBuried"](self, _facts(locals()))

    @event("HandSizeChecked")
    def _hand_size_checked(self, over: list[Any]) -> None:
        APPLY["HandSizeChecked"](self, _facts(locals()))

    @event("OrdainedPassed")
    def _ordained_passed(self, seat: int, to: int) -> None:
        APPLY["OrdainedPassed"](self, _facts(locals()))

    @event("PlayerEliminated")
    def _player_eliminated(self, seat: int, why: str) -> None:
        APPLY["PlayerEliminated"](self, _facts(locals()))

    @event("GameWon")
    def _game_won(self, how: str, renown: list[Any], winner: int) -> None:
        APPLY["GameWon"](self, _facts(locals()))

    @event("Mulliganed")
    def _mulliganed(
            self, seat: int, discarded: list[Any], keys: list[Any], food_from: list[Any]
    ) -> None:
        APPLY["Mulliganed"](self, _facts(locals()))

    @event("HandKept")
    def _hand_kept(self, seat: int) -> None:
        APPLY["HandKept"](self, _facts(locals()))

    @event("HandsDealt")
    def _hands_dealt(self, seats: list[Any]) -> None:
        APPLY["HandsDealt"](self, _facts(locals()))

    @event("OrdainedTaken")
    def _ordained_taken(self, seat: int) -> None:
        APPLY["OrdainedTaken"](self, _facts(locals()))

    @event("RedistributionBegan")
    def _redistribution_began(self, seats: list[Any]) -> None:
        APPLY["RedistributionBegan"](self, _facts(locals()))

    @event("FoodRedistributed")
    def _food_redistributed(self, seat: int, food: dict[str, Any]) -> None:
        APPLY["FoodRedistributed"](self, _facts(locals()))


upcasts.install(NineEmpires)
