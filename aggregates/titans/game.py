"""The Titans aggregate: its declarations, its setup and the kernel's hooks.

The kernel routes each command to the decision it answers (``pending``: its
kind is a step of ``FLOW`` in ``flow.py``, with the moves that answer it) and
runs the phases declared there (their automatic steps: a Battle's dice and
outcome, a turn's end, a Round's scoring). The rules modules decide on the
state (``state.State``): they check a command, roll what must be rolled and
record events (``events.py``) with ``emit``; each event changes the state by
its function in ``apply.py`` alone. This module imports them, never the
reverse.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from typing import Any

from aggregates.kernel import Decision, DiceTray, Game
from aggregates.kernel import flow as kflow
from aggregates.kernel.nature import GameType
from aggregates.kernel.outcome import Outcome
from aggregates.titans import flow, scoring, setup, state, views
from aggregates.titans.data import TABLES
from aggregates.titans.state import (
    EARLIER_DRAFT_PACE,
    EARLIER_FIRST_TURN,
    EARLIER_SUPPORT_UNAVAILABLE,
)


class Titans(Game, package=__package__):
    """Titans: lead a Nation into war across the map, with Order Cards, battles and VP.

    Lead a Nation of Infantry, Cavalry, Artillery and a Titan across a map of
    regions: each turn take an Order Card from the shared Pool, move, deploy,
    buy Nation Cards and build Strongholds; fight Battles with dice and Support
    Cards; score regions each Round and win the most Victory Points in 3 Rounds.
    """

    RULES_ID = "titans"
    TITLE = "Titans"
    #: 1.3.0 records no ``SupportUnavailable`` (a Support step with nothing to
    #: draw is passed by the fact that enters it: ``v1.TitansV1_2`` is 1.2.0);
    #: 1.2.0 records no ``DraftPassed`` or ``DraftEnded`` (the draft's pace is
    #: the players' passes and keeps: ``v1.TitansV1_1`` is 1.1.0); 1.1.0 records
    #: a ``TurnBegan`` for a Round's first turn too (1.0.0 began it with the
    #: Order Pool drawn: ``v1.TitansV1``; docs/rules-versions.md).
    RULES_VERSION = "1.3.0"
    #: The rules each earlier version kept (``state.EARLIER_*``), by that version:
    #: a game is played by those of the version its creation event records.
    EARLIER_RULES = {
        "1.0.0": frozenset({EARLIER_FIRST_TURN, EARLIER_DRAFT_PACE,
                            EARLIER_SUPPORT_UNAVAILABLE}),
        "1.1.0": frozenset({EARLIER_DRAFT_PACE, EARLIER_SUPPORT_UNAVAILABLE}),
        "1.2.0": frozenset({EARLIER_SUPPORT_UNAVAILABLE}),
    }
    #: turns in order; the Game Setup's purchase and draft are made by all at once;
    #: dice and shuffles (explicit chance); hidden hands and objectives
    GAME_TYPE = GameType.of("mixed", "explicit", "imperfect", "general_sum", players=(2, 4))
    #: What a seat cannot see, pooled (``views.unseen``; ``kernel.unseen``).
    UNSEEN = staticmethod(views.unseen)
    STANDINGS_PROJECTED = False  # before the end: the VP scored so far
    OPTIONS_SCHEMA = setup.OPTIONS_SCHEMA

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

    # --------------------------------------------------------------- protocol

    def pending(self) -> list[Decision]:
        """Who is asked what now, from the state alone (``flow.asked``)."""
        if self.ended or self.over:
            return []
        return [Decision(seat=s, kind=k, prompt=state.PROMPTS[k], hidden=k == state.OPENING,
                         choices=flow.choices(self, s, k)) for s, k in flow.asked(self)]

    def finished(self) -> dict[str, Any] | None:
        return scoring.outcome(self) if self.over else None

    def standings(self) -> Outcome:
        return scoring.standings(self)
