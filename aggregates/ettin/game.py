"""The Ettin aggregate: its declarations, its setup, the flow that runs every
pair at once, and the kernel's hooks. The rules live in the section modules
(``ages``, ``war``, ``aftermath``, ``scoring``), which decide and record the
events of ``events.py``; each event changes the state by its function in
``apply.py`` alone.

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

from aggregates.ettin import aftermath, ages, present, scoring, upcasts, views, war
from aggregates.ettin import seating as sg
from aggregates.ettin import zones as zn
from aggregates.ettin.apply import evolve
from aggregates.ettin.data import COMPONENTS as C
from aggregates.ettin.flow import FLOW
from aggregates.ettin.state import STEPS_RECORDED, TURNS_RECORDED
from aggregates.kernel import (
    Choice,
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
    options_schema,
    refuse_unknown_options,
)
from aggregates.kernel.nature import GameType
from aggregates.kernel.outcome import Outcome


class Ettin(Game, package=__package__):
    """Ettin: draft with your Ally, Skirmish with your Enemy, win the War.

    Alliances of two draft with their Ally and Skirmish with their Enemy, then
    go to War over three Ages; the Alliance with the most VP wins.
    """

    RULES_ID = "ettin"
    TITLE = "Ettin"
    #: "4": the War's steps are entered and its turns move on by the facts
    #: before them (``state.TURNS_RECORDED``: "1" to "3" recorded them). "3": the
    #: engine's progress in battles and drafts is not recorded
    #: (``state.STEPS_RECORDED``: "1" and "2" recorded it). "2": 9+ players deal
    #: no nation next to itself where two boxes meet ("1", ``aggregates.ettin.v1``,
    #: dealt each box apart).
    RULES_VERSION = "4"
    #: The earlier rules each earlier version kept (``state``), by that version.
    EARLIER_RULES = {
        "1": frozenset({STEPS_RECORDED, TURNS_RECORDED}),
        "2": frozenset({STEPS_RECORDED, TURNS_RECORDED}),
        "3": frozenset({TURNS_RECORDED})}
    #: Each event's apply, then the steps it leads into (``apply.evolve``).
    APPLY = staticmethod(evolve)
    GAME_TYPE = GameType.of("simultaneous", "explicit", "imperfect", "general_sum", players=(2, 16))
    #: What a seat cannot see, pooled (``views.unseen``; ``kernel.unseen``).
    UNSEEN = staticmethod(views.unseen)
    STANDINGS_PROJECTED = False  # before the end: the VP as they stand
    OPTIONS_SCHEMA = options_schema(nations={
        "type": "array", "items": {"type": "string", "enum": [n.id for n in C.nations]},
        "description": "the nation of each seat's (first) position, in seat order; "
                       "default: dealt at random from each box; no nation twice "
                       "in one box of 8 positions, and no two neighbours alike"},
        **{CLOCK_OPTION: CLOCK_OPTION_SCHEMA})

    # ----------------------------------------------------------- options, setup

    @classmethod
    def check_options(cls, options: dict[str, Any]) -> dict[str, Any]:
        refuse_unknown_options(options, cls.OPTIONS_SCHEMA["properties"])
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
        count = sg.positions_for(players)
        nation_positions = players
        chosen = options.get("nations")
        if chosen is not None:
            if len(chosen) != players:
                raise RuleError(Reason.BAD_OPTIONS, f"give one nation per seat ({players})")
            nations = list(chosen)
            if sg.next_to_same_nation(nations + [sg.MAT] * sg.has_mat(players), count):
                raise RuleError(Reason.BAD_OPTIONS, "neighbours play different nations "
                                "(9+ Players: where two boxes meet too)")
        else:
            nations = cls.deal_nations(dice, nation_positions, count)
        for b in range(sg.boxes(count)):
            in_box = nations[b * sg.PER_BOX:(b + 1) * sg.PER_BOX]
            if len(set(in_box)) != len(in_box):
                raise RuleError(Reason.BAD_OPTIONS,
                                "a nation is played once in each box of 8 positions")
        if sg.has_mat(players):
            nations.append(sg.MAT)
        decks: dict[str, list[int]] = {}
        for p, nation in enumerate(nations):
            if nation == sg.MAT:
                continue
            offset = sg.box_of(p) * 1000
            decks[zn.deck(p)] = [offset + c for age in (1, 2, 3)
                                for c in dice.shuffled(C.deck(nation, age))]
        for b in range(sg.boxes(count)):
            for age in (1, 2, 3):
                decks[zn.merc(b, age)] = [b * 1000 + c
                                         for c in dice.shuffled(C.deck("mercenary", age))]
                decks[zn.adv_deck(b, age)] = [b * 1000 + c
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
        for b in range(sg.boxes(count)):
            dealt = dice.shuffled([n.id for n in C.nations])
            wanted = max(0, min(sg.PER_BOX, players - b * sg.PER_BOX))
            closes = b > 0 and b * sg.PER_BOX + wanted == count  # its last neighbours 0
            nations += sg.deal_box(dealt, wanted, nations[-1] if b else None,
                                  nations[0] if closes else None)
        return nations

    @classmethod
    def public_setup(cls, setup: Mapping[str, Any]) -> dict[str, Any]:
        return {"nations": list(setup.get("nations", [])),
                "decks": {k: len(v) for k, v in setup.get("decks", {}).items()}}

    def setup(self, setup: dict[str, Any]) -> None:
        self.nations: list[str] = list(setup["nations"])
        players = len(self.seats)
        self.zones: dict[str, list[int]] = zn.empty_zones(players)
        for name, cards in setup["decks"].items():
            self.zones[name] = list(cards)
        count = len(self.nations)
        self.pairs: list[list[int]] = sg.enemy_pairs(count)
        self.gold: list[int] = [0] * count
        self.tokens: list[list[int]] = [[] for _ in range(count)]
        self.initiative: list[int] = [pair[0] for pair in self.pairs]
        self.age = 0
        self.step = -1
        # Setup's last step: between each pair of Enemies the higher Initiative
        # number chooses who takes the Initiative Token (rules "1", "2" recorded
        # it again as ``InitiativeChoices``).
        self.phase = "initiative"
        self.work: dict[str, Any] = {}
        self.results: list[list[dict[str, Any]]] = [[] for _ in self.pairs]
        self.flipped = False
        self.shown: list[int] = []
        self.sieges: list[int] = []
        self.done = False
        self.work = {"choosers": ages.first_choosers(self)}

    # ----------------------------------------------------- table and zones

    def seating(self) -> Seating:
        return sg.seating_for(len(self.seats))

    def table_zones(self) -> Zones:
        return zn.zones_of(len(self.seats), self.zones, self.flipped)

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


# Old events read in the shape recorded now.
upcasts.install(Ettin)
