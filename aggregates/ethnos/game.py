"""The Ethnos aggregate: its state and its events (evolve), on Kernel 3.

The kernel routes each command to the decision it answers (``pending``: its
kind is a step of ``FLOW`` in ``flow.py``, with the moves, checks and runs
that answer it). The rules
modules decide on the state they are given (``state.State``) and record events
with ``emit``; the ``@event`` bodies below only change state. This module
imports them, never the reverse. Hidden information (the hands, the deck
order) follows from the zones (``zones.py``); what a reader sees is drawn by
``present.py``; the tribes' abilities are data (``abilities.py``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from eventsourcing.domain import event

from aggregates.ethnos import flow, present, scoring, upcasts, views, zones
from aggregates.ethnos import steps as r
from aggregates.ethnos.commands import COMMANDS
from aggregates.ethnos.data import TABLES, TRIBES, size_class
from aggregates.ethnos.flow import FLOW
from aggregates.ethnos.reasons import REASONS
from aggregates.kernel import (
    Audience,
    Choice,
    Command,
    Decision,
    DiceTray,
    Game,
    Reason,
    RuleError,
)
from aggregates.kernel.game import refuse_unknown_options
from aggregates.kernel.nature import GameType
from aggregates.kernel.outcome import Outcome
from aggregates.kernel.present import Screen

OPTION_KEYS = frozenset({"tribes"})


class Ethnos(Game):
    """Ethnos: recruit Allies of twelve tribes, play Bands, control the six Kingdoms."""

    RULES_ID = "ethnos"
    TITLE = "Ethnos"
    RULES_VERSION = "1.0.0"
    MIN_SEATS = 2
    MAX_SEATS = 6
    COMMANDS = COMMANDS
    CHECK_AGAINST_LEGAL_LIST = False
    FLOW = FLOW
    REASONS = REASONS
    #: turns in order, but at the end of an Age every seat with an Orc Horde
    #: marker decides at once, in any order
    GAME_TYPE = GameType.of("mixed", "explicit", "imperfect", "general_sum", players=(2, 6))
    OPTIONS_SCHEMA = {  # noqa: RUF012
        "type": "object",
        "properties": {
            "tribes": {
                "description": "The tribes in play: 6 (5 with 2-3 players); "
                               "default: chosen at random with the setup dice.",
                "type": "array",
                "items": {"enum": list(TRIBES)},
                "uniqueItems": True,
                "minItems": min(TABLES.tribes_in_game.values()),
                "maxItems": max(TABLES.tribes_in_game.values()),
            },
        },
        "additionalProperties": False,
    }
    SUMMARY = ("Recruit Allies of the twelve tribes and play them in Bands (one tribe or "
               "one colour) to place Control markers in the six Kingdoms; each band's "
               "Leader uses its tribe's ability. Glory is scored for the Kingdoms and the "
               "bands at the end of each Age, which comes when the third Dragon is drawn.")

    # ------------------------------------------------------------------ setup

    @classmethod
    def check_options(cls, options: dict[str, Any]) -> dict[str, Any]:
        """``{"tribes": [names]}``: 6 tribes (5 with 2-3 players); default random."""
        refuse_unknown_options(options, OPTION_KEYS)
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
        self.trolls_free: list[int] = self._troll_supply()
        self.giant: int | None = None
        self.orc_boards: list[list[str]] = [[] for _ in range(players)]
        self.third_dragon_seat: int | None = None
        self.last_bands: list[list[int]] = [[] for _ in range(players)]
        self.over = False
        self._reset_age(0, int(setup["first_player"]), [])

    @property
    def phase(self) -> str:
        """Ethnos is played in Ages (``FLOW``'s one phase), until it is over."""
        return r.OVER if self.over else "age"

    def _troll_supply(self) -> list[int]:
        return list(TABLES.troll_tokens) if "trolls" in self.tribes else []

    def _reset_age(self, age: int, first: int, deck: list[int]) -> None:
        players = len(self.seats)
        self.age = age
        self.first_player = first
        self.current = first
        self.deck: list[int] = list(deck)
        self.row: list[int] = []
        self.hands: list[list[int]] = [[] for _ in range(players)]
        self.bands: list[list[dict[str, Any]]] = [[] for _ in range(players)]
        self.dragons: list[int] = []
        self.steps: list[str] = []
        self.band: dict[str, Any] | None = None
        self.orc_pending: list[int] = []
        self.orc_choices: list[bool | None] = [None] * players
        self.wizards_x = 0

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

    def present(self, seat: int | None) -> Screen:
        return present.present(self, seat)

    def action_label(self, command: Command) -> str:
        return present.action_label(self, command)

    @classmethod
    def describe(cls, event_type: str, payload: Mapping[str, Any], seats: list[str]) -> str:
        said = present.describe(event_type, payload, seats)
        return said if said is not None else super().describe(event_type, payload, seats)

    def finished(self) -> dict[str, Any] | None:
        return scoring.outcome(self) if self.over else None

    def standings(self) -> Outcome:
        return scoring.standings(self)

    def view(self, seat: int | None) -> dict[str, Any]:
        return views.view(self, seat)

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

    # ------------------------------------------------------- Beginning an Age

    @event("AgeBegan")
    def _age_began(self, age: int, first_player: int, deck: list[int]) -> None:
        self._reset_age(age, first_player, deck)

    @event("CardDealt")
    def _card_dealt(self, seat: int, card: int) -> None:
        self.deck.remove(card)
        self.hands[seat].append(card)

    @event("RowTurned")
    def _row_turned(self, cards: list[int]) -> None:
        self.deck = self.deck[len(cards):]
        self.row.extend(cards)

    # ------------------------------------------------------------- Recruiting

    @event("RecruitedFaceUp")
    def _recruited_face_up(self, seat: int, card: int) -> None:
        self.row.remove(card)
        self.hands[seat].append(card)

    @event("DrewFromDeck")
    def _drew_from_deck(self, seat: int, card: int) -> None:
        self.deck.remove(card)
        self.hands[seat].append(card)

    @event("DragonRevealed")
    def _dragon_revealed(self, seat: int, card: int) -> None:
        self.deck.remove(card)
        self.dragons.append(card)

    @event("TurnEnded")
    def _turn_ended(self, seat: int, next_seat: int) -> None:
        self.current = next_seat

    # ---------------------------------------------------------- Playing a Band

    @event("BandPlayed")
    def _band_played(
        self, seat: int, cards: list[int], leader: int, size: int, steps: list[str]
    ) -> None:
        hand = self.hands[seat]
        for c in cards:
            hand.remove(c)
        self.bands[seat].append({"cards": list(cards), "leader": leader, "size": size})
        self.band = {"seat": seat, "leader": leader, "size": size}
        self.steps = list(steps)

    @event("MarkerPlaced")
    def _marker_placed(self, seat: int, kingdom: str, source: str) -> None:
        self.markers[kingdom][seat] += 1
        if self.steps and self.steps[0] == source:
            self.steps.pop(0)

    @event("GiantTokenTaken")
    def _giant_token_taken(self, seat: int, glory: int, totals: list[int] | None) -> None:
        self.giant = seat
        self.glory[seat] += glory

    @event("MerfolkAdvanced")
    def _merfolk_advanced(self, seat: int, position: int) -> None:
        self.merfolk[seat] = position

    @event("OrcMarkerPlaced")
    def _orc_marker_placed(self, seat: int, colour: str) -> None:
        self.orc_boards[seat].append(colour)

    @event("TrollTokenTaken")
    def _troll_token_taken(self, seat: int, value: int) -> None:
        self.trolls_free.remove(value)
        self.troll_tokens[seat].append(value)
        if self.steps and self.steps[0] == r.TROLL:
            self.steps.pop(0)

    @event("WizardsOffered")
    def _wizards_offered(self, seat: int, x: int) -> None:
        self.steps = [r.WIZARDS]
        self.wizards_x = x

    @event("WizardsAnswered")
    def _wizards_answered(self, seat: int, draw: bool) -> None:
        self.steps = []
        self.wizards_x = 0

    @event("HandDiscarded")
    def _hand_discarded(self, seat: int, cards: list[int]) -> None:
        for c in cards:
            self.hands[seat].remove(c)
        self.row.extend(cards)
        self.steps = []
        self.band = None

    # ------------------------------------------------------- End of an Age

    @event("AgeEnded")
    def _age_ended(
        self, age: int, seat: int, scattered: list[list[int]], orc_seats: list[int]
    ) -> None:
        for hand in self.hands:
            self.row.extend(hand)
        self.hands = [[] for _ in self.seats]
        self.third_dragon_seat = seat
        self.orc_pending = list(orc_seats)
        self.orc_choices = [None] * len(self.seats)
        self.steps = []
        self.band = None

    @event("OrcHordeChosen")
    def _orc_horde_chosen(self, seat: int, score: bool) -> None:
        self.orc_pending.remove(seat)
        self.orc_choices[seat] = score

    @event("KingdomScored")
    def _kingdom_scored(self, kingdom: str, awards: list[int], totals: list[int] | None) -> None:
        self.glory = [g + a for g, a in zip(self.glory, awards, strict=True)]

    @event("GiantScored")
    def _giant_scored(self, seat: int, glory: int, totals: list[int] | None) -> None:
        self.glory[seat] += glory

    @event("MerfolkScored")
    def _merfolk_scored(self, awards: list[int], totals: list[int] | None) -> None:
        self.glory = [g + a for g, a in zip(self.glory, awards, strict=True)]

    @event("OrcHordeScored")
    def _orc_horde_scored(self, seat: int, colours: list[str], glory: int,
                          totals: list[int] | None) -> None:
        self.glory[seat] += glory
        self.orc_boards[seat] = []

    @event("SkeletonsRemoved")
    def _skeletons_removed(self, cards: list[int]) -> None:
        gone = set(cards)
        for seat_bands in self.bands:
            for band in seat_bands:
                band["cards"] = [c for c in band["cards"] if c not in gone]
        self.row.extend(cards)

    @event("BandsScored")
    def _bands_scored(self, awards: list[int], totals: list[int] | None) -> None:
        self.glory = [g + a for g, a in zip(self.glory, awards, strict=True)]

    @event("AgeClosed")
    def _age_closed(self, age: int, final: bool) -> None:
        self.last_bands = [[b["size"] for b in seat_bands] for seat_bands in self.bands]
        for seat_bands in self.bands:
            for band in seat_bands:
                self.row.extend(band["cards"])
        self.bands = [[] for _ in self.seats]
        self.troll_tokens = [[] for _ in self.seats]
        self.trolls_free = self._troll_supply()
        self.giant = None
        self.orc_choices = [None] * len(self.seats)
        if final:
            self.over = True


# Old events read in the shape recorded now (issue 9, item 7).
upcasts.install(Ethnos)
