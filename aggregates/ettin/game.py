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
    Deploy,
    Draft,
    EndSpoils,
    Initiative,
    Lose,
    PlaceDefense,
    Produce,
    Recruit,
    Sell,
    Siege,
    Spoil,
    Target,
)
from aggregates.ettin.data import COMPONENTS as C
from aggregates.ettin.reasons import REASONS
from aggregates.kernel import (
    Choice,
    Command,
    Decision,
    DiceTray,
    Flow,
    Game,
    Move,
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
from aggregates.kernel.present import Screen

FLOW = Flow(
    {
        "initiative": "take the Initiative Token or give it to your Enemy",
        "draft": "draft a card of the lineup",
        "recruit": "recruit or sell each card you drafted",
        "deploy": "deploy a War Camp card face down",
        "target": "choose a start-of-battle target",
        "lose": "choose the adventuring Troop that is Lost",
        "spoil": "take a Spoil (or stop)",
        "place": "place the Defense won from the Adventure",
        "produce": "use an optional Produce ability (or not)",
    },
    [
        Move(Initiative, ("initiative",), None, ages.run_initiative, ages.legal_initiative),
        Move(Draft, ("draft",), ages.check_draft, ages.run_draft, ages.legal_draft),
        Move(Recruit, ("recruit",), ages.check_recruit, ages.run_recruit,
             ages.legal_recruit_sell),
        Move(Sell, ("recruit",), ages.check_sell, ages.run_sell),
        Move(Deploy, ("deploy",), war.check_deploy, war.run_deploy, war.legal_deploy),
        Move(Target, ("target",), war.check_target, war.run_target, war.legal_target),
        Move(Lose, ("lose",), war.check_lose, war.run_lose, war.legal_lose),
        Move(Spoil, ("spoil",), aftermath.check_spoil, aftermath.run_spoil,
             aftermath.legal_spoil),
        Move(EndSpoils, ("spoil",), aftermath.check_end, aftermath.run_end),
        Move(Siege, ("spoil",), aftermath.check_siege, aftermath.run_siege),
        Move(PlaceDefense, ("place",), aftermath.check_place, aftermath.run_place,
             aftermath.legal_place),
        Move(Produce, ("produce",), aftermath.check_produce, aftermath.run_produce,
             aftermath.legal_produce),
    ],
)

#: Attributes an ``Updated`` event may set.
UPDATABLE = frozenset({"phase", "work", "initiative", "age", "step", "results", "flipped",
                       "shown", "sieges", "tokens", "done"})


class Ettin(Game):
    RULES_ID = "ettin"
    TITLE = "Ettin"
    RULES_VERSION = "1"
    MIN_SEATS = 2
    MAX_SEATS = 16
    COMMANDS = COMMANDS
    FLOW = FLOW
    REASONS = REASONS
    DYNAMICS = "simultaneous"
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
                               "in one box of 8 positions"},
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
        else:
            nations = []
            for b in range(t.boxes(count)):
                dealt = dice.shuffled([n.id for n in C.nations])
                nations += dealt[: max(0, min(t.PER_BOX, nation_positions - b * t.PER_BOX))]
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

    def begin(self) -> None:
        ages.open_initiative(self, ages.first_choosers(self))
        self.advance()

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

    def acting_position(self, seat: int) -> int:
        for p in self.seating().positions_of(seat):
            if self.due(p) is not None:
                return p
        raise RuleError(Reason.NOT_YOUR_TURN, f"seat {seat} has no decision due")

    def stage_of(self, seat: int) -> str:
        for p in self.seating().positions_of(seat):
            stage = self.due(p)
            if stage is not None:
                return stage
        return "initiative"

    def decide(self, seat: int, command: Command) -> None:
        p = self.acting_position(seat)
        stage = self.due(p)
        assert stage is not None
        FLOW.require_stage(stage, command)
        move = FLOW.moves[type(command)]
        if move.check is not None:
            move.check(self, p, command)
        move.run(self, p, command)
        self.advance()

    def legal_actions(self, seat: int) -> list[Command]:
        if self.ended:
            return []
        for p in self.seating().positions_of(seat):
            stage = self.due(p)
            if stage is not None:
                return FLOW.legal(self, stage, p)
        return []

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
            out.append(Decision(seat, stage, f"{present.position_name(self, p)}: "
                                f"{FLOW.prompt(stage)}", hidden=stage == "deploy",
                                position=p, choices=(PickOne(FLOW.prompt(stage)),),
                                deadline=60.0 if self.clocked() else None,
                                default="random"))
        return out

    def choices(self, seat: int) -> list[Choice]:
        return [c for d in self.pending() if d.seat == seat for c in d.choices]

    def advance(self) -> None:
        """Record the automatic steps until some decision is due or the game ends."""
        for _ in range(1000):
            if self.done:
                return
            # Each group's automatic steps run whatever other groups wait on.
            stepper = {"battle": war.step_battles, "spoils": aftermath.step_spoils,
                       "produce": aftermath.step_produce}.get(self.phase)
            if stepper is not None and stepper(self):
                continue
            if any(self.due(p) for p in range(len(self.nations))):
                return
            phase = self.phase
            if phase == "initiative":
                if self.age >= 3:
                    r.update(self, "game_over", phase="over", done=True)
                else:
                    ages.new_age(self)
            elif phase == "draft":
                if ages.draft_done(self):
                    if self.step < 2:
                        ages.open_draft(self, self.step + 1)
                    else:
                        war.open_deploy(self)
            elif phase == "deploy":
                war.open_battles(self)
            elif phase == "battle":
                if war.battles_done(self):
                    aftermath.open_spoils(self)
            elif phase == "spoils":
                if aftermath.spoils_done(self):
                    r.update(self, "adventure_defense", phase="adventure_defense", work={})
            elif phase == "adventure_defense":
                aftermath.retire(self)
                aftermath.open_produce(self)
            elif phase == "produce":
                if aftermath.produce_done(self):
                    choosers = aftermath.end_war(self)
                    if self.age >= 3:
                        r.update(self, "game_over", phase="over", done=True)
                    else:
                        ages.open_initiative(self, choosers)
            else:
                return
        raise AssertionError(f"Ettin did not settle in phase {self.phase}")

    def finished(self) -> dict[str, Any] | None:
        return scoring.outcome(self) if self.done else None

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
        return present.describe(event_type, payload, seats)

    # ------------------------------------------------------ evolve (events)

    @event("Moved")
    def _moved(self, source: str, target: str, cards: list[int], why: str,
               position: int | None) -> None:
        for card in cards:
            self.zones[source].remove(card)
            self.zones[target].append(card)

    @event("GoldChanged")
    def _gold_changed(self, deltas: dict[str, int], totals: dict[str, int] | None,
                      why: str) -> None:
        # From the deltas: ``totals`` (the gold after) is None in an event
        # recorded before it was stated (``upcasts``).
        for p, d in deltas.items():
            self.gold[int(p)] += d

    @event("Updated")
    def _updated(self, what: str, changes: dict[str, Any], details: dict[str, Any]) -> None:
        for key, value in changes.items():
            assert key in UPDATABLE, key
            setattr(self, key, value)


# Old events read in the shape recorded now (issue 9, item 7).
upcasts.install(Ettin)
