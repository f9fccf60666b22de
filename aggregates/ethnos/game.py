"""The Ethnos aggregate: its declarations, its options and setup, and the kernel's hooks.

The kernel routes each command to the decision it answers (``pending``: its
kind is a step of ``FLOW`` in ``flow.py``, with the moves, checks and runs
that answer it). The rules modules decide on the state they are given
(``state.State``) and record events (``events.py``) with ``emit``; each event
changes the state by its function in ``apply.py`` alone. This module imports
them, never the reverse. Hidden information (the hands, the deck
order) follows from the zones (``zones.py``); what a reader sees is drawn by
``present.py``; the tribes' abilities are data (``abilities.py``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from aggregates.ethnos import flow, scoring, standing, upcasts, views, zones
from aggregates.ethnos import state as r
from aggregates.ethnos.apply import reset_age, troll_supply
from aggregates.ethnos.data import TABLES, TRIBES, size_class
from aggregates.kernel import (
    Audience,
    Choice,
    Decision,
    DiceTray,
    Game,
    Reason,
    RuleError,
)
from aggregates.kernel.game import options_schema, refuse_unknown_options
from aggregates.kernel.nature import GameType
from aggregates.kernel.outcome import Outcome


class Ethnos(Game, package=__package__):
    """Ethnos: recruit Allies of twelve tribes, play Bands, control the six Kingdoms.

    Recruit Allies of the twelve tribes and play them in Bands (one tribe or one
    colour) to place Control markers in the six Kingdoms; each band's Leader
    uses its tribe's ability. Glory is scored for the Kingdoms and the bands at
    the end of each Age, which comes when the third Dragon is drawn.
    """

    RULES_ID = "ethnos"
    TITLE = "Ethnos"
    #: 1.1.0 records no ``WizardsOffered``: a Wizards band's discard leaves the
    #: answer waiting (1.0.0, ``v1.EthnosV1``, recorded it; docs/rules-versions.md).
    RULES_VERSION = "1.1.0"
    #: The rules each earlier version kept (``state``), by that version: a game is
    #: played by those of the version its creation event records.
    EARLIER_RULES = {"1.0.0": frozenset({r.PROGRESS_RECORDED})}
    CHECK_AGAINST_LEGAL_LIST = False
    #: turns in order, but at the end of an Age every seat with an Orc Horde
    #: marker decides at once, in any order
    GAME_TYPE = GameType.of("mixed", "explicit", "imperfect", "general_sum", players=(2, 6))
    #: What a seat cannot see, pooled (``views.unseen``; ``kernel.unseen``).
    UNSEEN = staticmethod(views.unseen)
    STANDINGS_PROJECTED = True  # before the end: the Age's scoring as if it ended now
    OPTIONS_SCHEMA = options_schema(tribes={
        "description": "The tribes in play: 6 (5 with 2-3 players); "
                       "default: chosen at random with the setup dice.",
        "type": "array", "items": {"enum": list(TRIBES)}, "uniqueItems": True,
        "minItems": min(TABLES.tribes_in_game.values()),
        "maxItems": max(TABLES.tribes_in_game.values())})

    # ------------------------------------------------------------------ setup

    @classmethod
    def check_options(cls, options: dict[str, Any]) -> dict[str, Any]:
        """``{"tribes": [names]}``: 6 tribes (5 with 2-3 players); default random."""
        refuse_unknown_options(options, cls.OPTIONS_SCHEMA["properties"])
        if "tribes" not in options:
            return {}
        chosen = options["tribes"]
        if not isinstance(chosen, list) or not all(isinstance(t, str) for t in chosen):
            raise RuleError(Reason.BAD_OPTIONS, "tribes must be a list of tribe names")
        bad = [t for t in chosen if t not in TRIBES]
        if bad:
            raise RuleError(Reason.BAD_OPTIONS, f"unknown tribes: {', '.join(bad)}; the "
                            f"tribes are {', '.join(TRIBES)}")
        if len(set(chosen)) != len(chosen):
            raise RuleError(Reason.BAD_OPTIONS, "a tribe is named twice")
        if len(chosen) not in set(TABLES.tribes_in_game.values()):
            raise RuleError(Reason.BAD_OPTIONS, "choose 6 tribes (5 with 2-3 players)")
        return {"tribes": [t for t in TRIBES if t in chosen]}

    @classmethod
    def decide_setup(
        cls, dice: DiceTray, seats: list[str], options: dict[str, Any]
    ) -> dict[str, Any]:
        """Setup: tribes, Glory tokens per Kingdom, the first player, the Age I deck."""
        players = len(seats)
        size = size_class(players)
        want = TABLES.tribes_in_game[size]
        if "tribes" in options:
            chosen = list(options["tribes"])
            if len(chosen) != want:
                raise RuleError(Reason.BAD_OPTIONS,
                                f"{players} players use {want} tribes, not {len(chosen)}")
        else:
            picked = set(dice.shuffled(list(TRIBES))[:want])
            chosen = [t for t in TRIBES if t in picked]
        pool = [v for v, four_plus in TABLES.glory_tokens if size == "4-6" or not four_plus]
        pool = dice.shuffled(pool)
        per = TABLES.tokens_per_kingdom[size]
        tokens = {
            k: sorted(pool[i * per: (i + 1) * per]) for i, k in enumerate(TABLES.kingdom_keys)
        }
        first = dice.roll(players) - 1
        return {"players": players, "tribes": chosen, "glory_tokens": tokens,
                "first_player": first}

    def setup(self, setup: dict[str, Any]) -> None:
        players = len(self.seats)
        self.tribes: list[str] = list(setup["tribes"])
        self.ages: int = TABLES.ages[size_class(players)]
        self.glory_tokens: dict[str, list[int]] = {
            k: list(v) for k, v in setup["glory_tokens"].items()
        }
        self.markers: dict[str, list[int]] = {k: [0] * players for k in TABLES.kingdom_keys}
        self.glory = [0] * players
        self.merfolk = [0] * players
        self.troll_tokens: list[list[int]] = [[] for _ in range(players)]
        self.trolls_free: list[int] = troll_supply(self.tribes)
        self.giant: int | None = None
        self.orc_boards: list[list[str]] = [[] for _ in range(players)]
        self.third_dragon_seat: int | None = None
        self.last_bands: list[list[int]] = [[] for _ in range(players)]
        self.over = False
        # The table before the first Age (``reset_age`` deals it).
        self.age = 0
        self.first_player = self.current = 0
        self.deck: list[int] = []
        self.row: list[int] = []
        self.hands: list[list[int]] = []
        self.bands: list[list[dict[str, Any]]] = []
        self.dragons: list[int] = []
        self.steps: list[str] = []
        self.band: dict[str, Any] | None = None
        self.orc_pending: list[int] = []
        self.orc_choices: list[bool | None] = []
        self.wizards_x = 0
        reset_age(self, 0, int(setup["first_player"]), [])

    @property
    def phase(self) -> str:
        """Ethnos is played in Ages (``FLOW``'s one phase), until it is over."""
        return r.OVER if self.over else "age"

    # --------------------------------------------------------------- protocol

    @property
    def stage(self) -> str:
        if self.over:
            return r.OVER
        if self.orc_pending:
            return r.ORC_HORDE
        if self.steps:
            return self.steps[0]
        return r.TURN

    def pending(self) -> list[Decision]:
        if self.ended or self.over:
            return []
        if self.orc_pending:
            return [Decision(seat=s, kind=r.ORC_HORDE, prompt=r.PROMPTS[r.ORC_HORDE],
                             choices=tuple(self.choices(s)))
                    for s in self.orc_pending]
        return [Decision(seat=self.current, kind=self.stage, prompt=r.PROMPTS[self.stage],
                         choices=tuple(self.choices(self.current)))]

    def choices(self, seat: int) -> list[Choice]:
        """A band is picked from the hand (``PickCards``: cards and a Leader); any
        other answer is one of the legal list (``PickOne``)."""
        return flow.choices(self, seat)

    def legal_list_complete(self, seat: int) -> bool:
        return flow.list_complete(self, seat)

    # ------------------------------------------------------------ presentation


    def finished(self) -> dict[str, Any] | None:
        return scoring.outcome(self) if self.over else None

    def standings(self) -> Outcome:
        return standing.standings(self)


    def audience_of(self, event_type: str, payload: Mapping[str, Any]) -> Audience:
        """Decided when the event is triggered, from the zones its cards move
        between (``zones.py``), and recorded in its meta."""
        return type(self).audience(event_type, payload)

    @classmethod
    def audience(cls, event_type: str, payload: Mapping[str, Any]) -> Audience:
        """The same rule, for events recorded before Kernel 2 (no audience in meta)."""
        if event_type == "Created":
            return super().audience(event_type, payload)
        return zones.audience(event_type, payload)

    @classmethod
    def public_form(cls, event_type: str, payload: Mapping[str, Any]) -> dict[str, Any]:
        if event_type in zones.HIDDEN_FIELDS:
            return zones.public_form(event_type, payload)
        return super().public_form(event_type, payload)


# Old events read in the shape recorded now.
upcasts.install(Ethnos)
