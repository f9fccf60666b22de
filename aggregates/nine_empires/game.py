"""The Romance of the Nine Empires aggregate: its state, its events, the kernel's hooks.

The rules live in the rules modules (``setup``, ``actions``, ``payment``,
``playing``, ``abilities``, ``card_effects``, ``battles``, ``engaging``,
``raids``, ``quests``, ``winter``, ``victory``), which decide on the state
(``state.State``) and record events with ``emit``; the flow is declared in
``flow.py`` and run by the kernel, with action passing, the Attack and Raiding
Phases and React windows on the kernel's frame stack. The events are declared
in ``events.py``, each applied by its pure function in ``apply.py`` (the same
functions the tests below the aggregate use).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from aggregates.kernel import Audience, Choice, Decision, DiceTray, Game
from aggregates.kernel.game import options_schema, refuse_unknown_options
from aggregates.kernel.nature import GameType
from aggregates.kernel.outcome import Outcome
from aggregates.nine_empires import (
    flow,
    setup,
    turn_order,
    upcasts,
    victory,
    views,
)
from aggregates.nine_empires.apply import evolve
from aggregates.nine_empires.data import DECKS
from aggregates.nine_empires.flow import FLOW
from aggregates.nine_empires.state import EARLIER_BY_VERSION

#: Events whose private form only some seats read, and what the others see.
PRIVATE = {
    "CardsDrawn": ("seat", ("seat", "count", "why")),
    "RaidUnitsAssigned": ("seat", ("seat", "side", "heroes", "castles", "stealth_count")),
}


class NineEmpires(Game, package=__package__):
    """Romance of the Nine Empires: no player turns, Reacts, battles at every castle.

    A card game without player turns: actions pass round the table until all
    pass in a row; Reacts interrupt (and Reacts to Reacts); attacks bring a
    battle at every castle, raids steal food with stealth cards, quests bring
    Renown. Win by dominance, popularity or conquest. Five designed decks.
    """

    RULES_ID = "nine_empires"
    TITLE = "Romance of the Nine Empires"
    RULES_VERSION = "1.7.0"
    #: The earlier rules each earlier version kept (``state.EARLIER_*``), by version.
    EARLIER_RULES = EARLIER_BY_VERSION
    #: Each event's apply, then the React windows it closed (``apply.evolve``).
    APPLY = staticmethod(evolve)
    #: Not every legal list is whole (payments, targets, assignments combine);
    #: any valid command is accepted, so the rules check every command.
    CHECK_AGAINST_LEGAL_LIST = False
    #: Actions passed in turn, the opening hands reviewed by all at once; shuffled
    #: decks; hidden hands, decks and stealth cards; one winner.
    GAME_TYPE = GameType.of("mixed", "explicit", "imperfect", "general_sum", players=(2, 6))
    #: What a seat cannot see, pooled (``views.unseen``; ``kernel.unseen``).
    UNSEEN = staticmethod(views.unseen)
    STANDINGS_PROJECTED = True  # before the end: food at a Winter Phase now, then Renown
    OPTIONS_SCHEMA = options_schema(decks={
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
                 "cards": {"type": "object", "additionalProperties": {"type": "integer"}}},
             "additionalProperties": False}]}})

    # ------------------------------------------------------------------ setup

    @classmethod
    def check_options(cls, options: dict[str, Any]) -> dict[str, Any]:
        refuse_unknown_options(options, cls.OPTIONS_SCHEMA["properties"])
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
        """The kernel's ``earlier`` under the name the rules modules read (the
        ``State`` Protocol's constant), so a test can bind a class to other rules."""
        return self.earlier

    # --------------------------------------------------------------- protocol

    @property
    def stack(self) -> list[dict[str, Any]]:
        return turn_order.windows(self)

    def pending(self) -> list[Decision]:
        if self.ended:
            return []
        return [Decision(seat=s, kind=k, prompt=FLOW.prompt(k), default="pass"
                         if FLOW.step(k).passes is not None else None,
                         choices=flow.choices(self, s, k))
                for s, k in flow.pending(self)]

    def choices(self, seat: int) -> list[Choice]:
        return [c for d in self.pending() if d.seat == seat for c in d.choices]

    def legal_list_complete(self, seat: int) -> bool:
        """Whole lists where the answers are few enough (docs/games/nine-empires.md,
        "Legal lists"); elsewhere every part of a valid command is listed, not
        every combination of the parts."""
        return flow.list_complete(self, seat)

    def finished(self) -> dict[str, Any] | None:
        return self.result if self.over else None

    def standings(self) -> Outcome:
        return victory.standings(self)


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


upcasts.install(NineEmpires)
