"""The Ettin aggregate: state, its ``@event`` bodies (evolve only), the flow
that runs every pair at once, and the kernel's hooks. The rules live in the
section modules (``ages``, ``war``, ``aftermath``, ``scoring``).

State is plain JSON: ``zones`` (card ids by zone), ``gold`` and ``tokens``
per position, ``initiative`` per pair of Enemies, and ``phase``/``work``: the
phase every pair is in and each group's progress through it (whose pick,
whose deploy, the start-of-battle queue, the spoils and produce to do). The
game waits on exactly the positions whose decision is due in every group at
once; ``advance`` records the automatic steps between decisions.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from eventsourcing.domain import event

from aggregates.ettin import aftermath, ages, present, scoring, upcasts, war
from aggregates.ettin import rules as r
from aggregates.ettin import table as t
from aggregates.ettin.commands import (
    COMMANDS,
)
from aggregates.ettin.data import COMPONENTS as C
from aggregates.ettin.flow import FLOW
from aggregates.ettin.reasons import REASONS
from aggregates.kernel import (
    Choice,
    Command,
    Decision,
    DiceTray,
    Game,
    PickOne,
    Reason,
    RuleError,
    Seating,
    Zones,
)
from aggregates.kernel.game import (
    CLOCK_OPTION,
    CLOCK_OPTION_SCHEMA,
    checked_clock,
    refuse_unknown_options,
)
from aggregates.kernel.nature import GameType
from aggregates.kernel.outcome import Outcome
from aggregates.kernel.present import Screen


class Ettin(Game):
    RULES_ID = "ettin"
    TITLE = "Ettin"
    #: "2": 9+ players deal no nation next to itself where two boxes meet
    #: (version "1", ``aggregates.ettin.v1``, dealt each box apart).
    RULES_VERSION = "2"
    MIN_SEATS = 2
    MAX_SEATS = 16
    COMMANDS = COMMANDS
    FLOW = FLOW
    REASONS = REASONS
    GAME_TYPE = GameType.of("simultaneous", "explicit", "imperfect", "general_sum", players=(2, 16))
    SUMMARY = ("Alliances of two draft with their Ally and Skirmish with their Enemy, "
               "then go to War over three Ages; the Alliance with the most VP wins.")
    OPTIONS_SCHEMA = {  # noqa: RUF012
        "type": "object",
        "properties": {
            "nations": {
                "type": "array", "items": {"type": "string",
                                           "enum": [n.id for n in C.nations]},
                "description": "the nation of each seat's (first) position, in seat order; "
                               "default: dealt at random from each box; no nation twice "
                               "in one box of 8 positions, and no two neighbours alike"},
            CLOCK_OPTION: CLOCK_OPTION_SCHEMA,
        },
        "additionalProperties": False,
    }

    # ----------------------------------------------------------- options, setup

    @classmethod
    def check_options(cls, options: dict[str, Any]) -> dict[str, Any]:
        refuse_unknown_options(options, {"nations", CLOCK_OPTION})
        out: dict[str, Any] = {CLOCK_OPTION: checked_clock(options)}
        if "nations" in options:
            nations = options["nations"]
            ids = {n.id for n in C.nations}
            if not isinstance(nations, list) or any(n not in ids for n in nations):
                raise RuleError(Reason.BAD_OPTIONS, f"nations are among {sorted(ids)}")
            out["nations"] = list(nations)
        return out

    @classmethod
    def decide_setup(cls, dice: DiceTray, seats: list[str], options: dict[str, Any]
                     ) -> dict[str, Any]:
        players = len(seats)
        count = t.positions_for(players)
        nation_positions = players
        chosen = options.get("nations")
        if chosen is not None:
            if len(chosen) != players:
                raise RuleError(Reason.BAD_OPTIONS, f"give one nation per seat ({players})")
            nations = list(chosen)
            if t.next_to_same_nation(nations + [r.MAT] * t.has_mat(players), count):
                raise RuleError(Reason.BAD_OPTIONS, "neighbours play different nations "
                                "(9+ Players: where two boxes meet too)")
        else:
            nations = cls.deal_nations(dice, nation_positions, count)
        for b in range(t.boxes(count)):
            in_box = nations[b * t.PER_BOX:(b + 1) * t.PER_BOX]
            if len(set(in_box)) != len(in_box):
                raise RuleError(Reason.BAD_OPTIONS,
                                "a nation is played once in each box of 8 positions")
        if t.has_mat(players):
            nations.append(r.MAT)
        decks: dict[str, list[int]] = {}
        for p, nation in enumerate(nations):
            if nation == r.MAT:
                continue
            offset = t.box_of(p) * 1000
            decks[t.deck(p)] = [offset + c for age in (1, 2, 3)
                                for c in dice.shuffled(C.deck(nation, age))]
        for b in range(t.boxes(count)):
            for age in (1, 2, 3):
                decks[t.merc(b, age)] = [b * 1000 + c
                                         for c in dice.shuffled(C.deck("mercenary", age))]
                decks[t.adv_deck(b, age)] = [b * 1000 + c
                                             for c in dice.shuffled(C.adventure_deck(age))]
        return {"nations": nations, "decks": decks}

    @classmethod
    def deal_nations(cls, dice: DiceTray, players: int, count: int) -> list[str]:
        """Each box of 8 positions deals its nations from its own shuffle (a
        nation once per box), so that no two neighbours play the same nation,
        where two boxes meet and where the circle closes too (9+ Players,
        Setup: "Make sure neighbors play different nations"). ``players``
        positions play a nation; ``count`` is the table's (the Mercenary mat
        last, when there is one)."""
        nations: list[str] = []
        for b in range(t.boxes(count)):
            dealt = dice.shuffled([n.id for n in C.nations])
            wanted = max(0, min(t.PER_BOX, players - b * t.PER_BOX))
            closes = b > 0 and b * t.PER_BOX + wanted == count  # its last neighbours 0
            nations += t.deal_box(dealt, wanted, nations[-1] if b else None,
                                  nations[0] if closes else None)
        return nations

    @classmethod
    def public_setup(cls, setup: Mapping[str, Any]) -> dict[str, Any]:
        return {"nations": list(setup.get("nations", [])),
                "decks": {k: len(v) for k, v in setup.get("decks", {}).items()}}

    def setup(self, setup: dict[str, Any]) -> None:
        self.nations: list[str] = list(setup["nations"])
        players = len(self.seats)
        self.zones: dict[str, list[int]] = t.empty_zones(players)
        for name, cards in setup["decks"].items():
            self.zones[name] = list(cards)
        count = len(self.nations)
        self.pairs: list[list[int]] = t.enemy_pairs(count)
        self.gold: list[int] = [0] * count
        self.tokens: list[list[int]] = [[] for _ in range(count)]
        self.initiative: list[int] = [pair[0] for pair in self.pairs]
        self.age = 0
        self.step = -1
        self.phase = "setup"
        self.work: dict[str, Any] = {}
        self.results: list[list[dict[str, Any]]] = [[] for _ in self.pairs]
        self.flipped = False
        self.shown: list[int] = []
        self.sieges: list[int] = []
        self.done = False

    # ----------------------------------------------------- table and zones

    def seating(self) -> Seating:
        return t.seating_for(len(self.seats))

    def table_zones(self) -> Zones:
        return t.zones_of(len(self.seats), self.zones, self.flipped)

    # ------------------------------------------------------------ the flow

    def due(self, p: int) -> str | None:
        """The stage position ``p``'s decision is in, or None if none is due."""
        if self.ended or self.done:
            return None
        phase = self.phase
        if phase == "initiative":
            return "initiative" if ages.chooser(self, p) is not None else None
        if phase == "draft":
            if ages.drafting(self, p):
                return "draft"
            return "recruit" if ages.deciding(self, p) else None
        if phase == "deploy":
            return "deploy" if war.deploying(self, p) else None
        if phase == "battle":
            if war.losing(self, p):
                return "lose"
            return "target" if war.targeting(self, p) is not None else None
        if phase == "spoils":
            return "spoil" if aftermath.spoils_head(self, p) is not None else None
        if phase == "adventure_defense":
            return "place" if aftermath.placing(self, p) else None
        if phase == "produce":
            return "produce" if aftermath.produce_head(self, p) is not None else None
        return None

    def pending(self) -> list[Decision]:
        out = []
        controller = self.seating().controller
        seen: set[int] = set()
        for p in range(len(self.nations)):
            stage = self.due(p)
            seat = controller[p]
            if stage is None or seat in seen:
                continue
            seen.add(seat)
            choices: tuple[Choice, ...] = (PickOne(FLOW.prompt(stage)),)
            if stage == "deploy":  # pick a card, then a place (the list stays whole)
                choices += (present.deploy_path(self, p),)
            out.append(Decision(seat, stage, f"{present.position_name(self, p)}: "
                                f"{FLOW.prompt(stage)}", hidden=stage == "deploy",
                                position=p, choices=choices,
                                deadline=60.0 if self.clocked() else None,
                                default="random"))
        return out

    def choices(self, seat: int) -> list[Choice]:
        return [c for d in self.pending() if d.seat == seat for c in d.choices]

    def finished(self) -> dict[str, Any] | None:
        return scoring.outcome(self) if self.done else None

    def standings(self) -> Outcome:
        return scoring.standings(self)

    # ---------------------------------------------------------- reading

    def view(self, seat: int | None) -> dict[str, Any]:
        zones = self.table_zones().view(seat)
        return {
            "age": self.age, "phase": self.phase, "nations": list(self.nations),
            "controller": list(self.seating().controller), "pairs": self.pairs,
            "gold": list(self.gold), "tokens": self.tokens, "initiative": self.initiative,
            "results": self.results, "sieges": self.sieges, "shown": self.shown,
            "zones": zones,
        }

    def present(self, seat: int | None) -> Screen:
        return present.present(self, seat)

    def action_label(self, command: Command) -> str:
        return present.action_label(command)

    @classmethod
    def describe(cls, event_type: str, payload: Mapping[str, Any], seats: list[str]) -> str:
        sentence = present.describe(event_type, payload, seats)
        return sentence if sentence is not None else super().describe(event_type, payload, seats)

    # ------------------------------------------------------ evolve (events)
    #
    # Each body changes the state by its event's facts alone (and the state
    # they apply to): never a die, a check or a clock. ``work`` is rebuilt,
    # not changed in place, so a rules step holding a part of it still reads
    # it as it was when it decided.

    def _carry(self, source: str, target: str, cards: list[int]) -> None:
        for card in cards:
            self.zones[source].remove(card)
            self.zones[target].append(card)

    def _set_work_pair(self, i: int, **changes: Any) -> None:
        pairs = list(self.work["pairs"])
        pairs[i] = {**pairs[i], **changes}
        self.work = {**self.work, "pairs": pairs}

    # -- Setup's initiative and Phase 1: New Age

    @event("InitiativeChoices")
    def _initiative_choices(self, choosers: list[dict[str, int]]) -> None:
        self.phase = "initiative"
        self.work = {"choosers": [[c["pair"], c["position"]] for c in choosers]}

    def _initiative_chosen(self, pair: int, holder: int) -> None:
        initiative = list(self.initiative)
        initiative[pair] = holder
        self.initiative = initiative
        self.work = {"choosers": [c for c in self.work["choosers"] if c[0] != pair]}

    @event("InitiativeTaken")
    def _initiative_taken(self, pair: int, chooser: int, holder: int) -> None:
        self._initiative_chosen(pair, holder)

    @event("InitiativeGiven")
    def _initiative_given(self, pair: int, chooser: int, holder: int) -> None:
        self._initiative_chosen(pair, holder)

    @event("AgeBegan")
    def _age_began(self, age: int) -> None:
        self.age, self.step, self.phase, self.work = age, -1, "new_age", {}

    @event("AgeGold")
    def _age_gold(self, gains: dict[str, int], gold: dict[str, int] | None) -> None:
        self._gain(gains)

    @event("AdventureRevealed")
    def _adventure_revealed(self, position: int | None, source: str, target: str,
                            cards: list[int], pair: int, age: int | None) -> None:
        self._carry(source, target, cards)

    # -- Phase 2: Skirmish and Peacetime (draft, recruit, sell)

    @event("DraftBegan")
    def _draft_began(self, kind: str, step: int, lineups: list[dict[str, Any]]) -> None:
        self.step, self.phase = step, "draft"
        self.work = {"kind": kind, "groups": [
            {"members": gr["members"], "order": gr["order"], "lineup": gr["lineup"], "at": 0}
            for gr in lineups]}

    @event("SkirmishLineupDealt")
    def _skirmish_lineup(self, position: int | None, source: str, target: str,
                         cards: list[int]) -> None:
        self._carry(source, target, cards)

    @event("PeacetimeLineupDealt")
    def _peacetime_lineup(self, position: int | None, source: str, target: str,
                          cards: list[int]) -> None:
        self._carry(source, target, cards)

    @event("EmptyDecksGold")
    def _empty_decks_gold(self, position: int, amount: int, gold: int | None,
                          instead_of: str | None) -> None:
        self.gold[position] += amount

    @event("DraftOrderShortened")
    def _draft_order_shortened(self, lineups: list[dict[str, Any]]) -> None:
        orders = {gr["lineup"]: gr["order"] for gr in lineups}
        self.work = {**self.work, "groups": [
            {**gr, "order": orders.get(gr["lineup"], gr["order"])}
            for gr in self.work["groups"]]}

    @event("Drafted")
    def _drafted(self, position: int, source: str, target: str, cards: list[int]) -> None:
        self._carry(source, target, cards)
        self.work = {**self.work, "groups": [
            {**gr, "at": gr["at"] + 1} if gr["lineup"] == source else gr
            for gr in self.work["groups"]]}

    @event("DraftPassed")
    def _draft_passed(self, lineup: str | None, to: int | None) -> None:
        """Only words: ``Drafted`` moved the lineup's turn on."""

    @event("UndraftedLost")
    def _undrafted_lost(self, position: int | None, source: str, target: str,
                        cards: list[int]) -> None:
        self._carry(source, target, cards)

    @event("RecruitPaid")
    def _recruit_paid(self, position: int, amount: int, gold: int | None,
                      card: int | None) -> None:
        self.gold[position] += amount

    @event("Recruited")
    def _recruited(self, position: int, source: str, target: str, cards: list[int]) -> None:
        self._carry(source, target, cards)

    @event("Sold")
    def _sold(self, position: int, amount: int, gold: int | None, card: int | None) -> None:
        self.gold[position] += amount

    @event("SoldCardLost")
    def _sold_card_lost(self, position: int, source: str, target: str,
                        cards: list[int]) -> None:
        self._carry(source, target, cards)

    # -- Phase 3: War (deploy, battles, the Adventure)

    @event("DeployBegan")
    def _deploy_began(self, turns: list[dict[str, Any]]) -> None:
        self.phase = "deploy"
        self.work = {"pairs": [{"turn": -1 if w["position"] is None else w["position"],
                                "left": w["deploys"]} for w in turns]}

    @event("Deployed")
    def _deployed(self, position: int, source: str, target: str, cards: list[int],
                  slot: int, scouting: int | None) -> None:
        self._carry(source, target, cards)
        pairs = list(self.work["pairs"])
        pairs[r.pair_of(self, position)] = war.after_deploy(self, position)
        self.work = {**self.work, "pairs": pairs}

    @event("Scouted")
    def _scouted(self, position: int, enemy: int, slot: int, cards: list[int]) -> None:
        self.shown = sorted(set(self.shown) | set(cards))

    @event("DeployPassed")
    def _deploy_passed(self, pair: int | None, position: int | None,
                       deploys: int | None) -> None:
        """Only words: ``Deployed`` moved the pair's turn on."""

    @event("CardsFlipped")
    def _cards_flipped(self, cards: dict[str, dict[str, list[int]]]) -> None:
        self.flipped, self.phase = True, "battle"
        self.results = [[] for _ in self.pairs]
        self.work = {"pairs": [{"b": 0, "queue": None, "chosen": [], "lose": -1}
                               for _ in self.pairs]}

    @event("BattleStep")
    def _battle_step(self, pair: int | None, slot: int | None, step: str | None,
                     position: int | None, unit: int | None, keyword: str | None) -> None:
        assert pair is not None, "an older record's step is applied as it was stored"
        w = self.work["pairs"][pair]
        if step == "abilities":
            slot_now = war.slot_of(self, pair)
            self._set_work_pair(pair, queue=war.abilities_queue(self, pair, slot_now))
        elif step == "no target":
            self._set_work_pair(pair, queue=w["queue"][1:])
        elif step == "to lose":
            self._set_work_pair(pair, lose=position)
        else:
            self._set_work_pair(pair, lose=-1)

    @event("TargetChosen")
    def _target_chosen(self, position: int, unit: int, target: int, keyword: str) -> None:
        i = r.pair_of(self, position)
        w = self.work["pairs"][i]
        chosen = [*w["chosen"], [*w["queue"][0], target]]
        self._set_work_pair(i, queue=w["queue"][1:], chosen=chosen)

    @event("StartOfBattleRemoved")
    def _start_of_battle_removed(self, position: int | None, source: str, target: str,
                                 cards: list[int], pair: int | None, slot: int | None) -> None:
        self._carry(source, target, cards)

    @event("BattleResolved")
    def _battle_resolved(self, pair: int, slot: int, scores: list[int], result: str,
                         winner: int | None, why: str | None) -> None:
        outcome: dict[str, Any] = {"slot": slot, "scores": scores, "result": result,
                                   "winner": winner}
        if why is not None:
            outcome["why"] = why
        results = [list(x) for x in self.results]
        results[pair] = [*results[pair], outcome]
        self.results = results
        w = self.work["pairs"][pair]
        self._set_work_pair(pair, b=w["b"] + 1, queue=None, chosen=[])

    @event("AdventureAttempted")
    def _adventure_attempted(self, pair: int, position: int, adventure: int, score: int,
                             die: int, difficulty: int, success: bool) -> None:
        """The die is in the event; what follows from it has events of its own."""

    @event("AdventureReward")
    def _adventure_reward(self, gains: dict[str, int], gold: dict[str, int] | None,
                          position: int | None) -> None:
        self._gain(gains)

    @event("AdventureEffect")
    def _adventure_effect(self, position: int | None, source: str, target: str,
                          cards: list[int]) -> None:
        self._carry(source, target, cards)

    @event("AdventureCompleted")
    def _adventure_completed(self, position: int, source: str, target: str, cards: list[int],
                             pair: int | None) -> None:
        self._carry(source, target, cards)

    @event("AdventurerLost")
    def _adventurer_lost(self, position: int, source: str, target: str,
                         cards: list[int]) -> None:
        self._carry(source, target, cards)

    # -- Phase 3 continued: Spoils, the Adventure Defense, Retire, Produce

    @event("SpoilsBegan")
    def _spoils_began(self, owed: list[list[dict[str, Any]]]) -> None:
        self.phase = "spoils"
        self.work = {"pairs": [{"tasks": [[s["position"], s["slot"], s["count"], s["kind"]]
                                          for s in spoils]} for spoils in owed]}

    @event("SpoilTaken")
    def _spoil_taken(self, position: int, source: str, target: str, cards: list[int],
                     slot: int | None, from_deck: bool) -> None:
        self._carry(source, target, cards)

    @event("BountyPaid")
    def _bounty_paid(self, position: int, amount: int, gold: int | None,
                     card: int | None) -> None:
        self.gold[position] += amount

    @event("SiegeTokenPlaced")
    def _siege_token_placed(self, position: int, card: int) -> None:
        self.sieges = sorted([*self.sieges, card])

    @event("SpoilsPassed")
    def _spoils_passed(self, pair: int | None, position: int | None, slot: int | None,
                       kind: str | None, left: int | None) -> None:
        assert pair is not None, "an older record's step is applied as it was stored"
        tasks = [list(x) for x in self.work["pairs"][pair]["tasks"]]
        if left:
            tasks[0][2] = left
        else:
            tasks = tasks[1:]
        pairs = list(self.work["pairs"])
        pairs[pair] = {"tasks": tasks}
        self.work = {"pairs": pairs}

    @event("AdventureDefenseBegan")
    def _adventure_defense_began(self) -> None:
        self.phase, self.work = "adventure_defense", {}

    @event("AdventureDefensePlaced")
    def _adventure_defense_placed(self, position: int, source: str, target: str,
                                  cards: list[int], slot: int | None) -> None:
        self._carry(source, target, cards)

    @event("RetireBegan")
    def _retire_began(self) -> None:
        self.phase, self.work = "retire", {}

    @event("DefenseStays")
    def _defense_stays(self, position: int, source: str, target: str,
                       cards: list[int]) -> None:
        self._carry(source, target, cards)

    @event("ReturnedToSelf")
    def _returned_to_self(self, position: int, source: str, target: str,
                          cards: list[int]) -> None:
        self._carry(source, target, cards)

    @event("ReturnedToAlly")
    def _returned_to_ally(self, position: int, source: str, target: str,
                          cards: list[int]) -> None:
        self._carry(source, target, cards)

    @event("Retired")
    def _retired(self, position: int, source: str, target: str, cards: list[int]) -> None:
        self._carry(source, target, cards)

    @event("Wealthy")
    def _wealthy(self, position: int, amount: int, gold: int | None, card: int | None) -> None:
        self.gold[position] += amount

    @event("WarCry")
    def _war_cry(self, position: int, source: str, target: str, cards: list[int]) -> None:
        self._carry(source, target, cards)

    @event("AdventureDiscarded")
    def _adventure_discarded(self, position: int | None, source: str, target: str,
                             cards: list[int], pair: int | None) -> None:
        self._carry(source, target, cards)

    @event("Produced")
    def _produced(self, gains: dict[str, int], gold: dict[str, int] | None,
                  ability: str, card: int | None) -> None:
        self._gain(gains)

    @event("ProduceBegan")
    def _produce_began(self, optional: list[dict[str, Any]]) -> None:
        queues: dict[str, list[list[Any]]] = {}
        for item in optional:
            queues.setdefault(str(item["position"]), []).append(
                [item["ability"], item["source"]])
        self.phase, self.work = "produce", {"queues": queues}

    @event("GateUsed")
    def _gate_used(self, position: int, source: str, target: str, cards: list[int],
                   ability: str) -> None:
        self._carry(source, target, cards)

    @event("CallToArms")
    def _call_to_arms(self, position: int, source: str, target: str,
                      cards: list[int]) -> None:
        self._carry(source, target, cards)

    @event("LostSouls")
    def _lost_souls(self, position: int, source: str, target: str, cards: list[int]) -> None:
        self._carry(source, target, cards)

    @event("ProduceAnswered")
    def _produce_answered(self, position: int | None, ability: str | None,
                          source: int | None, used: bool | None) -> None:
        assert position is not None, "an older record's step is applied as it was stored"
        queues = {k: list(v) for k, v in self.work["queues"].items()}
        queues[str(position)] = queues[str(position)][1:]
        if not queues[str(position)]:
            del queues[str(position)]
        self.work = {"queues": queues}

    # -- Winning the War, the end

    @event("TiedWarGold")
    def _tied_war_gold(self, gains: dict[str, int], gold: dict[str, int] | None,
                       pair: int | None) -> None:
        self._gain(gains)

    @event("LoserDrew")
    def _loser_drew(self, position: int, source: str, target: str, cards: list[int]) -> None:
        self._carry(source, target, cards)

    @event("AgeEnded")
    def _age_ended(self, age: int, wars: list[dict[str, Any]]) -> None:
        tokens = [list(x) for x in self.tokens]
        initiative = list(self.initiative)
        for war_ in wars:
            i, winner = war_["pair"], war_["winner"]
            a, b = self.pairs[i]
            if winner is None:
                initiative[i] = b if initiative[i] == a else a
            else:
                tokens[winner].append(age)
        self.tokens, self.initiative = tokens, initiative
        self.sieges, self.results, self.flipped, self.shown = [], [[] for _ in self.pairs], \
            False, []

    @event("GameOver")
    def _game_over(self) -> None:
        self.phase, self.done = "over", True

    def _gain(self, gains: dict[str, int]) -> None:
        for p, d in gains.items():
            self.gold[int(p)] += d


# Old events read in the shape recorded now (issue 9 item 7; issue 17 item 3).
upcasts.install(Ettin)
