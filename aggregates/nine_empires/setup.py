"""Setup: decks, strongholds and castles, food, Motte and Bailey, hands, mulligan.

Each player plays one of the five decks (or a custom deck checked by
Customizing Your Decks); reveals stronghold and starting castles (Point Cost
within the stronghold's Castle Points); each castle starts with food equal to
its storage; each player starts with Motte and Bailey in play; each shuffles
and draws 4 cards plus 1 per castle; each may take one mulligan (discard the
hand and two food tokens, draw a new hand); a random player takes the Ordained
marker and goes first.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from aggregates.kernel import Command, Reason, RuleError
from aggregates.nine_empires import cards as t
from aggregates.nine_empires import draws, payment
from aggregates.nine_empires.cards import PLAY, zone_name
from aggregates.nine_empires.commands import KeepHand, Mulligan
from aggregates.nine_empires.data import (
    CARDS,
    DECKS,
    MOTTE_AND_BAILEY,
    Deck,
    deck_problems,
    read_deck,
)
from aggregates.nine_empires.state import State

OPENING = 4
MULLIGAN_FOOD = 2


def check_decks(options: Mapping[str, Any], players: int) -> list[Deck | None]:
    """The decks chosen at creation: preset names or custom decks (checked)."""
    raw = options.get("decks")
    if raw is None:
        return [None] * players
    if not isinstance(raw, list) or len(raw) != players:
        raise RuleError(Reason.BAD_OPTIONS, f"name one deck per player ({players})")
    out: list[Deck | None] = []
    for i, entry in enumerate(raw):
        if isinstance(entry, str):
            if entry not in DECKS:
                raise RuleError(Reason.BAD_OPTIONS, f"unknown deck {entry!r}; decks are "
                                f"{sorted(DECKS)}")
            out.append(DECKS[entry])
        elif isinstance(entry, Mapping):
            try:
                deck = read_deck(f"custom{i}", entry)
            except ValueError as exc:
                raise RuleError(Reason.BAD_OPTIONS, str(exc)) from exc
            problems = deck_problems(deck, CARDS)
            if problems:
                raise RuleError(Reason.BAD_OPTIONS, f"deck of player {i}: "
                                + "; ".join(problems))
            out.append(deck)
        else:
            raise RuleError(Reason.BAD_OPTIONS, "a deck is a name or a deck list")
    return out


def decide_setup(roll: Any, shuffled: Any, players: int,
                 chosen: list[Deck | None]) -> dict[str, Any]:
    """Roll the setup: decks (random ones where none was chosen), shuffles, Ordained.

    The setup states what the table starts with, not only what was rolled: each
    faction's starting Renown (its stronghold's) and each starting castle's food
    (its storage), so the record says the opening state without the card tables."""
    names = sorted(DECKS)
    out = []
    for deck in chosen:
        if deck is None:
            deck = DECKS[names[roll(len(names)) - 1]]
        out.append({"deck": deck.name, "stronghold": deck.stronghold,
                    "castles": list(deck.starting_castles),
                    "renown": CARDS[deck.stronghold].renown,
                    "food": [CARDS[c].storage for c in deck.starting_castles],
                    "cards": shuffled(deck.card_list())})
    return {"players": out, "ordained": roll(players) - 1}


def initial_state(players: int) -> dict[str, Any]:
    """The state fields before the setup is applied, each empty (``state.State``
    says what each holds): the aggregate starts from these, and so does the
    tests' table below it (``testing.Table``), so there is one list of them."""
    return {"instances": {}, "zones": {}, "renown": [0] * players, "out": [], "turn": 0,
            "phase": "setup", "ordained": 0, "frames": [], "windows": 0, "attacked": [],
            "raided": [], "conflict": None, "lasting": [], "uses": {}, "discard_down": [],
            "redistributing": [], "winter_step": "", "mulligans": [], "over": False,
            "result": None}


def apply_setup(state: State, setup: Mapping[str, Any]) -> None:
    """Apply the setup: build the table the setup describes (ids ``i0``, ``i1``... in order)."""
    table = t.table(state)
    players = setup["players"]
    state.renown = [int(p["renown"]) for p in players]
    for seat, p in enumerate(players):
        table.create(table.next_id(), p["stronghold"], seat, PLAY)
        for castle, food in zip(p["castles"], p["food"], strict=True):
            iid = table.next_id()
            table.create(iid, castle, seat, PLAY)
            table.add_food(iid, int(food))
        table.create(table.next_id(), MOTTE_AND_BAILEY, seat, PLAY)
        for key in p["cards"]:
            table.create(table.next_id(), key, seat, zone_name("deck", seat))
    state.ordained = int(setup["ordained"])


def deal_opening_hands(state: State) -> None:
    """Each player draws 4 cards plus 1 for each castle in play; all review them."""
    for seat in range(len(state.seats)):
        draws.draw(state, seat, OPENING + len(t.castles(state, seat)), why="opening hand")
    state.emit("HandsDealt", seats=list(range(len(state.seats))))


def reviewed(state: State) -> bool:
    return not state.mulligans


def take_ordained(state: State) -> None:
    """The player chosen at random takes the Ordained marker and goes first."""
    state.emit("OrdainedTaken", seat=state.ordained)


def check_mulligan(state: State, seat: int, command: Mulligan) -> None:
    if seat not in state.mulligans:
        raise RuleError(Reason.WRONG_PHASE, "each player reviews the opening hand once")
    payment.check_food(state, seat, command.food_from, MULLIGAN_FOOD)


def run_mulligan(state: State, seat: int, command: Mulligan) -> None:
    hand = list(t.hand(state, seat))
    state.emit("Mulliganed", seat=seat, discarded=hand,
               keys=[state.instances[c]["card"] for c in hand], food_from=list(command.food_from))
    draws.draw(state, seat, len(hand), why="mulligan")


def check_keep(state: State, seat: int, command: KeepHand) -> None:
    if seat not in state.mulligans:
        raise RuleError(Reason.WRONG_PHASE, "each player reviews the opening hand once")


def run_keep(state: State, seat: int, command: KeepHand) -> None:
    state.emit("HandKept", seat=seat)


def legal_review(state: State, seat: int) -> list[Command]:
    """Keep the hand, or mulligan with any two food tokens (every way listed)."""
    out: list[Command] = [KeepHand()]
    for option in payment.food_options(state, seat, MULLIGAN_FOOD, limit=None):
        out.append(Mulligan(food_from=option))
    return out
