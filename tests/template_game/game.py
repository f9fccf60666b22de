"""The aggregate: state, its ``@event`` bodies (evolve only), and the hooks
the kernel calls. The rules live in the section modules; this class only
wires them to the kernel.

Kernel features shown: ``Game`` with ``FLOW`` (a ``Flow`` of ``Step``s and
their ``Move``s, and a ``Phase`` the kernel runs; the kernel routes each
command to the decision it answers and lists the legal ones), the frame stack
(priority passing and snatch windows pushed and popped by events), ``REASONS``,
``GAME_TYPE``, ``OPTIONS_SCHEMA``/``check_options``, ``seating()`` with teams
and positions, ``pending()`` with structured ``Decision``s (ids, choices,
deadlines and defaults), ``choices()``, ``Step.passes`` for ``pass``
defaults, ``audience_of``/``public_form`` derived from zones, ``present``/
``action_label``/``describe``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from eventsourcing.domain import event

from aggregates.kernel import (
    Audience,
    Choice,
    Command,
    Decision,
    DiceTray,
    Flow,
    Game,
    Move,
    Phase,
    PickOne,
    Reason,
    RuleError,
    Seating,
    Step,
    Zones,
)
from aggregates.kernel import flow as kflow
from aggregates.kernel.game import (
    CLOCK_OPTION,
    CLOCK_OPTION_SCHEMA,
    checked_clock,
    refuse_unknown_options,
)
from aggregates.kernel.nature import GameType
from aggregates.kernel.present import Screen
from tests.template_game import (
    bidding,
    hidden,
    presentation,
    rounds,
    scoring,
    shore,
    snatching,
    upcasts,
)
from tests.template_game.commands import (
    COMMANDS,
    Bank,
    Bid,
    Claim,
    Dive,
    LetGo,
    PassPriority,
    Snatch,
)
from tests.template_game.components import COMPONENTS as C
from tests.template_game.hidden import HiddenChoices
from tests.template_game.reasons import REASONS
from tests.template_game.table import (
    DECK,
    DISCARD,
    POSITIONS,
    SHORE,
    empty_zones,
    hand,
    seating_for,
    vault,
    zones_of,
)

FLOW = Flow(
    [
        Step("bid", "bid in secret for your positions", (
            Move(Bid, bidding.check, bidding.run, bidding.legal),)),
        Step("claim", "claim, bank, dive or pass", (
            Move(Claim, shore.check_claim, shore.run_claim, shore.legal_claims),
            Move(Bank, shore.check_bank, shore.run_bank, shore.legal_banks),
            Move(Dive, shore.check_dive, shore.run_dive, shore.legal_dives),
            Move(PassPriority, shore.check_pass, shore.run_pass, shore.legal_pass),
        ), passes=PassPriority),
        Step("react", "snatch the claimed card or let it go", (
            Move(Snatch, snatching.check_snatch, snatching.run_snatch,
                 snatching.legal_snatches),
            Move(LetGo, snatching.check_let_go, snatching.run_let_go, snatching.legal_let_go),
        ), passes=LetGo),
    ],
    [Phase("round", begin=rounds.open_round, end_if=rounds.all_passed, end=rounds.close_round,
           next=rounds.next_round)],
    start="round",
)


class Template(HiddenChoices, Game):
    RULES_ID = "template"
    TITLE = "Tidewatch (the template game)"
    RULES_VERSION = "1"
    MIN_SEATS = 2
    MAX_SEATS = 4
    COMMANDS = COMMANDS
    FLOW = FLOW
    #: The Tide Bid's hidden choices (``hidden.py``); the game's other events
    #: are ``@event`` methods below.
    EVENTS = hidden.EVENTS
    APPLY = hidden.apply
    REASONS = REASONS
    GAME_TYPE = GameType.of("mixed", "explicit", "imperfect", "general_sum", players=(2, 4))
    SUMMARY = ("Two teams claim, snatch and bank treasures from the shore; "
               "a secret bid each round decides who goes first.")
    OPTIONS_SCHEMA = {  # noqa: RUF012
        "type": "object",
        "properties": {
            "rounds": {"type": "integer", "minimum": 1, "maximum": 5,
                       "description": "rounds to play (default: the data file's)"},
            CLOCK_OPTION: CLOCK_OPTION_SCHEMA,
        },
        "additionalProperties": False,
    }

    # ----------------------------------------------------------- options, setup

    @classmethod
    def check_options(cls, options: dict[str, Any]) -> dict[str, Any]:
        refuse_unknown_options(options, {"rounds", CLOCK_OPTION})
        rounds_ = options.get("rounds", C.rounds)
        if isinstance(rounds_, bool) or not isinstance(rounds_, int) or not 1 <= rounds_ <= 5:
            raise RuleError(Reason.BAD_OPTIONS, "rounds is an integer from 1 to 5")
        return {"rounds": rounds_, CLOCK_OPTION: checked_clock(options)}

    @classmethod
    def decide_setup(cls, dice: DiceTray, seats: list[str], options: dict[str, Any]
                     ) -> dict[str, Any]:
        """The deck's order: a recorded shuffle (hidden from the public setup)."""
        return {"deck": dice.shuffled([c.id for c in C.cards])}

    @classmethod
    def public_setup(cls, setup: Mapping[str, Any]) -> dict[str, Any]:
        return {"deck": len(setup.get("deck", []))}

    def setup(self, setup: dict[str, Any]) -> None:
        self.zones: dict[str, list[int]] = empty_zones()
        self.zones[DECK] = list(setup["deck"])
        self.rounds: int = self.options["rounds"]
        self.round = 0
        self.first = 0
        self.coins = [0, 0, 0, 0]
        self.bids: list[int] | None = None
        self.windows = 0
        self.used: dict[str, int] = {}
        self.banked_by: dict[str, int] = {}
        self.done = False

    def begin(self) -> None:
        rounds.deal_hands(self)
        super().begin()

    @property
    def passing(self) -> dict[str, Any] | None:
        """Priority passing: the frame the round's actions go round in."""
        return kflow.top(self, "passing")

    @property
    def window(self) -> dict[str, Any] | None:
        """The open snatch window over the passing, if any."""
        return kflow.top(self, "window")

    def tide_gain(self, number: int) -> int:
        """The coins each position gains when round ``number`` opens: a rule a
        later rules version may change (``tests/template_game/v2.py`` does), so
        it is a method a newer release's class overrides."""
        return C.start_coins if number == 1 else C.coins_per_round

    # ----------------------------------------------------- table and zones

    def seating(self) -> Seating:
        return seating_for(len(self.seats))

    def table_zones(self) -> Zones:
        return zones_of(self.seating(), self.zones)

    def in_force(self, team: int) -> list[str]:
        """The effects of the cards in a team's vault (one name per card)."""
        return [name for c in self.zones[vault(team)] for name in C.card(c).effects]

    # --------------------------------------------------------------- flow

    def pending(self) -> list[Decision]:
        if self.ended or self.done:
            return []
        clocks = self.clocked()  # the kernel's CLOCK_OPTION: the server runs the clocks

        def deadline(stage: str) -> float | None:
            return C.clock_seconds[stage] if clocks else None

        controller = self.seating().controller
        if self.collecting:
            return [Decision(s, "bid", bidding.choice(self, s).prompt, hidden=True,
                             choices=(bidding.choice(self, s),), deadline=deadline("bid"),
                             default="random")
                    for s in self.waiting_to_choose()]
        if self.window:
            p = kflow.responder(self.window)
            assert p is not None
            card = presentation.name_card(self.window["card"])
            return [Decision(controller[p], "react",
                             f"{POSITIONS[p]}: snatch {card} from "
                             f"{POSITIONS[self.window['claimer']]} or let it go",
                             id=f"w{self.window['serial']}", position=p,
                             choices=(PickOne(FLOW.prompt("react")),),
                             deadline=deadline("react"), default="pass")]
        if self.passing:
            p = kflow.priority(self.passing)
            return [Decision(controller[p], "claim", f"{POSITIONS[p]}: {FLOW.prompt('claim')}",
                             position=p, choices=tuple(shore.choices(self, p)),
                             deadline=deadline("claim"), default="pass")]
        return []

    def choices(self, seat: int) -> list[Choice]:
        """The choice structures of the seat's pending decision (none: not asked)."""
        return [c for d in self.pending() if d.seat == seat for c in d.choices]

    def finished(self) -> dict[str, Any] | None:
        return scoring.outcome(self) if self.done else None

    # ---------------------------------------------------------- reading

    def view(self, seat: int | None) -> dict[str, Any]:
        mine = None
        if seat is not None and self.collecting:
            mine = self.collecting["chosen"].get(str(seat))
        return {
            "round": self.round, "rounds": self.rounds, "coins": list(self.coins),
            "zones": self.table_zones().view(seat), "bids": self.bids, "my_bid": mine,
            "positions": self.seating().positions_of(seat) if seat is not None else [],
            "priority": kflow.priority(self.passing) if self.passing and not self.window
            else None,
            "window": None if not self.window else {
                "card": self.window["card"], "claimer": self.window["claimer"],
                "responder": kflow.responder(self.window)},
        }

    def present(self, seat: int | None) -> Screen:
        return presentation.present(self, seat)

    def action_label(self, command: Command) -> str:
        return presentation.action_label(command)

    @classmethod
    def describe(cls, event_type: str, payload: Mapping[str, Any], seats: list[str]) -> str:
        said = presentation.describe(event_type, payload, seats)
        return said if said is not None else super().describe(event_type, payload, seats)

    def audience_of(self, event_type: str, payload: Mapping[str, Any]) -> Audience:
        """Cards drawn from the deck are read by the readers of where they land."""
        if event_type == "CardsDealt":
            return self.table_zones().move_audience(DECK, payload["target"])
        if event_type == "Dived":
            return self.table_zones().move_audience(DECK, hand(payload["position"]))
        return super().audience_of(event_type, payload)

    @classmethod
    def public_form(cls, event_type: str, payload: Mapping[str, Any]) -> dict[str, Any]:
        if event_type == "CardsDealt":
            return {"target": payload["target"], "count": len(payload["cards"])}
        if event_type == "Dived":
            return {"position": payload["position"], "depth": payload["depth"]}
        return super().public_form(event_type, payload)

    # ------------------------------------------------------ evolve (events)

    def _move(self, source: str, target: str, cards: list[int]) -> None:
        for card in cards:
            self.zones[source].remove(card)
            self.zones[target].append(card)

    @event("CardsDealt")
    def _cards_dealt(self, target: str, cards: list[int]) -> None:
        self._move(DECK, target, cards)

    @event("TideRose")
    def _tide_rose(self, round: int, first: int, coins: list[int],  # noqa: A002
                   totals: list[int] | None) -> None:
        self.round = round
        self.first = first
        self.coins = [c + g for c, g in zip(self.coins, coins, strict=True)]
        self.bids = None
        kflow.enter(self, "round")

    @event("BidsSettled")
    def _bids_settled(self, bids: list[int], order: list[int],
                      totals: list[int] | None) -> None:
        self.coins = [c - b for c, b in zip(self.coins, bids, strict=True)]
        self.bids = list(bids)
        kflow.push(self, kflow.passing(order))

    @event("Claimed")
    def _claimed(self, position: int, card: int) -> None:
        self._move(SHORE, hand(position), [card])
        assert self.passing is not None
        kflow.after_action(self.passing)

    @event("EffectUsed")
    def _effect_used(self, effect: str, position: int, change: str, amount: int,
                     usage: str, totals: list[int] | None) -> None:
        self.used[usage] = self.used.get(usage, 0) + 1
        if change == "gain_coins":
            self.coins[position] += amount

    @event("WindowOpened")
    def _window_opened(self, card: int, claimer: int, order: list[int]) -> None:
        self.windows += 1
        kflow.push(self, {**kflow.reaction_window(f"claim:{card}", order, self.windows),
                          "card": card, "claimer": claimer})

    @event("Snatched")
    def _snatched(self, position: int, card: int, discard: int, victim: int) -> None:
        self._move(hand(position), DISCARD, [discard])
        self._move(hand(victim), hand(position), [card])
        # The first to react wins the window: those after it are not asked.
        kflow.pop(self, "window")

    @event("LetGo")
    def _let_go(self, position: int) -> None:
        assert self.window is not None
        kflow.after_response(self.window, position, None)
        if kflow.closed(self.window):
            kflow.pop(self, "window")

    @event("Banked")
    def _banked(self, position: int, cards: list[int], vault: str) -> None:
        self._move(hand(position), vault, cards)
        for card in cards:
            self.banked_by[str(card)] = position
        assert self.passing is not None
        kflow.after_action(self.passing)

    @event("Dived")
    def _dived(self, position: int, depth: int, cards: list[int],
               totals: list[int] | None) -> None:
        self.coins[position] -= depth
        self._move(DECK, hand(position), cards)
        assert self.passing is not None
        kflow.after_action(self.passing)

    @event("Passed")
    def _passed(self, position: int) -> None:
        assert self.passing is not None
        kflow.after_pass(self.passing)

    @event("TideEbbed")
    def _tide_ebbed(self, round: int) -> None:  # noqa: A002
        kflow.pop(self, "passing")
        self.done = round >= self.rounds


# Old events read in the shape recorded now (issue 9, item 7).
upcasts.install(Template)
