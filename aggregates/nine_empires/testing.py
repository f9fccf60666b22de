"""A table for tests below the aggregate (the rules never import this).

``Table`` implements the state Protocol: ``emit`` applies the event (its
class in ``events.py``, by ``apply.py``) at once and keeps it, as the
aggregate does; dice
come from the kernel's counter-based generator. Arrangement helpers move cards
between zones (never create or lose one), so an arranged table still
conserves its cards.
"""

from __future__ import annotations

import copy
import datetime
import uuid
from collections.abc import Mapping
from typing import Any

from aggregates.kernel import Audience, Command, Decision, Reason, RuleError
from aggregates.kernel.game import fisher_yates
from aggregates.kernel.record import rng
from aggregates.nine_empires import cards as t
from aggregates.nine_empires import events, flow, setup, turn_order, winter
from aggregates.nine_empires.apply import evolve
from aggregates.nine_empires.cards import PLAY, zone_name
from aggregates.nine_empires.commands import Absorb, Engage, KeepHand, Redistribute
from aggregates.nine_empires.data import CARDS, DECKS
from aggregates.nine_empires.flow import FLOW
from aggregates.nine_empires.game import NineEmpires
from aggregates.nine_empires.state import EARLIER_PROGRESS, State

SEED = "9e" * 32
#: The table's one originator: its events are never stored.
TABLE_ID = uuid.UUID(int=9)


def fact(name: str, version: int, payload: Mapping[str, Any]) -> Any:
    """The event ``name`` (``events.py``'s class) stating ``payload``, as the
    aggregate would apply it."""
    event_class = getattr(events, name)
    return event_class(originator_id=TABLE_ID, originator_version=version,
                       timestamp=datetime.datetime.now(datetime.UTC), meta={}, **payload)


class EventLog:
    """The events recorded so far, by name (``events``: name and payload), as
    the tests read them off a ``Table`` or a ``GameTable``."""

    events: list[tuple[str, dict[str, Any]]]

    def last(self, name: str) -> dict[str, Any]:
        for n, p in reversed(self.events):
            if n == name:
                return p
        raise LookupError(name)

    def named(self, name: str) -> list[dict[str, Any]]:
        return [p for n, p in self.events if n == name]


class Table(EventLog, State):
    """The Nine Empires state as plain attributes, with ``emit`` and dice; its
    fields are the ``State`` Protocol's (subclassed, so declared once) and start
    as the aggregate's do (``setup.initial_state``); it plays the current rules
    (``EARLIER``: none kept)."""

    EARLIER: frozenset[str] = frozenset()

    def __init__(self, players: int, seed: str = SEED) -> None:
        self.seats = [f"P{i}" for i in range(players)]
        self.__dict__.update(setup.initial_state(players))
        self.seed = seed
        self.counter = 0
        self.events: list[tuple[str, dict[str, Any]]] = []
        self.plan: dict[str, Any] = {}

    @property
    def stack(self) -> list[dict[str, Any]]:
        return turn_order.windows(self)

    @property
    def version(self) -> int:
        return len(self.events)

    def finished(self) -> dict[str, Any] | None:
        return self.result if self.over else None

    def emit(self, event_name: str, *, audience: Audience | None = None,
             public: Mapping[str, Any] | None = None, **payload: Any) -> None:
        self.events.append((event_name, copy.deepcopy(payload)))
        evolve(fact(event_name, len(self.events), payload), self)

    def roll(self, sides: int) -> int:
        self.counter += 1
        return rng.draw(self.seed, self.counter, sides)

    def shuffled(self, items: list[Any]) -> list[Any]:
        return fisher_yates(list(items), self.roll)

    # ---------------------------------------------------------- driving

    def act(self, seat: int, command: Command) -> list[str]:
        """Play one command as the kernel does (route, then settle); the names
        of the events it caused."""
        start = len(self.events)
        mine = [Decision(seat=s, kind=k, prompt=FLOW.prompt(k))
                for s, k in flow.pending(self) if s == seat]
        if not mine:
            raise RuleError(Reason.NOT_YOUR_TURN, f"the game is not waiting on seat {seat}")
        decision = FLOW.answering(mine, command)
        FLOW.route(self, decision, command, guard=False)
        FLOW.settle(self)
        return [name for name, _ in self.events[start:]]

    def pending(self) -> list[tuple[int, str]]:
        return flow.pending(self)

    def legal(self, seat: int) -> list[Command]:
        return flow.legal(self, seat)


def blank(players: int, seed: str = SEED) -> Table:
    """A table before its setup. Its fields are the Protocol's, given their
    values from ``setup.initial_state`` at run time, which mypy cannot see
    (it calls a Protocol's fields without a class value abstract)."""
    return Table(players, seed)  # type: ignore[abstract]


def new_table(decks: list[str], seed: str = SEED, keep: bool = True,
              castles: list[list[str]] | None = None, ordained: int = 0) -> Table:
    """A set-up table: the named decks, hands drawn, (optionally) all hands kept."""
    table = blank(len(decks), seed)
    chosen = [DECKS[d] for d in decks]
    plan = setup.decide_setup(table.roll, table.shuffled, len(decks), list(chosen))
    plan["ordained"] = ordained
    if castles is not None:
        for p, cs in zip(plan["players"], castles, strict=True):
            p["castles"] = list(cs)
            p["food"] = [CARDS[c].storage for c in cs]
    table.plan = plan
    setup.apply_setup(table, plan)
    FLOW.open(table)
    if keep:
        from aggregates.nine_empires.commands import KeepHand

        for seat in range(len(decks)):
            table.act(seat, KeepHand())
    return table


def find(table: Table, seat: int, key: str, zones: tuple[str, ...] = ("deck", "hand",
                                                                       "discard")) -> str:
    """An instance of ``key`` the seat owns in one of ``zones`` (first found)."""
    for z in zones:
        name = PLAY if z == PLAY else zone_name(z, seat)
        for iid in table.zones.get(name, []):
            if table.instances[iid]["card"] == key and table.instances[iid]["owner"] == seat:
                return iid
    raise LookupError(f"seat {seat} has no {key} in {zones}")


def in_play(table: Table, seat: int, key: str) -> str:
    return find(table, seat, key, (PLAY,))


def to_hand(table: Table, seat: int, key: str) -> str:
    """Move a copy of ``key`` from the seat's deck or discard pile into its hand."""
    iid = find(table, seat, key, ("deck", "discard"))
    t.table(table).move(iid, zone_name("hand", seat))
    return iid


def set_hand(table: Table, seat: int, keys: list[str]) -> list[str]:
    """Make the seat's hand exactly these cards; the old hand goes under the deck."""
    for iid in list(t.hand(table, seat)):
        t.table(table).move(iid, zone_name("deck", seat))
    return [to_hand(table, seat, k) for k in keys]


def put_in_play(table: Table, seat: int, key: str, attach_to: str = "",
                bowed: bool = False) -> str:
    """Arrange: a card of the seat's deck straight into play (no cost paid)."""
    iid = find(table, seat, key, ("deck", "hand", "discard"))
    cards = t.table(table)
    cards.move(iid, PLAY)
    if attach_to:
        cards.attach(iid, attach_to)
    if bowed:
        cards.bow(iid)
    return iid


def all_cards(table: Table) -> list[str]:
    """Every instance in a zone (tokens removed from the game are in none)."""
    return sorted(i for z in table.zones.values() for i in z)


def start_battle(table: Table, attacker: int, defender: int, attack: dict[str, str],
                 defend: dict[str, str], castle: str) -> None:
    """Declare an attack, assign both sides, and choose the battle at ``castle``."""
    from aggregates.nine_empires.commands import AssignUnits, ChooseBattle, DeclareAttack

    table.act(attacker, DeclareAttack(defender=defender))
    for seat, plan in ((attacker, attack), (defender, defend)):
        if table.pending() and table.pending()[0] == (seat, "assign"):
            table.act(seat, AssignUnits(heroes=tuple(plan), castles=tuple(plan.values())))
    if table.pending() and table.pending()[0][1] == "choose":
        table.act(attacker, ChooseBattle(castle=castle))


def storm_castle(table: Table) -> str:
    """Seat 0's Beknine attacks seat 1's first castle, its food gone (2 seats):
    Beknine engages and seat 1 absorbs with the castle, which is buried. The castle."""
    beknine = put_in_play(table, 0, "beknine")
    castle = t.castles(table, 1)[0]
    table.instances[castle]["food"] = 0
    start_battle(table, 0, 1, {beknine: castle}, {}, castle)
    table.act(0, Engage(cards=(beknine,)))
    table.act(1, Absorb(card=castle))
    return castle


#: A card per deck for a hand with no React and nothing to play in a battle.
QUIET = {"displaced": "spice_mine", "ixhasa": "the_oracles_answer", "malchior": "zahir",
         "ord": "bazaar", "holden": "library"}


def quiet_hands(table: Table, decks: list[str]) -> None:
    """Each seat's hand is its deck's ``QUIET`` card, so no React interrupts."""
    for seat, deck in enumerate(decks):
        set_hand(table, seat, [QUIET[deck]])


def allied_battle(decks: list[str], heroes: list[list[str]], ally: str
                  ) -> tuple[Table, str, list[list[str]]]:
    """Seat 0 attacks seat 1 at its first castle; seat 2 answers the call of
    ``ally`` ("attack" or "defend"); each seat sends ``heroes`` (keys) there and
    the battle is chosen. Quiet hands; the table, the castle and each seat's units."""
    from aggregates.nine_empires.commands import (
        AssignUnits,
        CallAllies,
        ChooseAlly,
        ChooseBattle,
        DeclareAttack,
    )

    table = new_table(decks)
    quiet_hands(table, decks)
    units = [[put_in_play(table, s, k) for k in keys] for s, keys in enumerate(heroes)]
    castle = t.castles(table, 1)[0]
    table.act(0, DeclareAttack(defender=1))
    table.act(0, CallAllies(call=ally == "attack"))
    table.act(1, CallAllies(call=ally == "defend"))
    table.act(2, ChooseAlly(side=ally))
    while table.pending()[0][1] == "assign":
        seat = table.pending()[0][0]
        table.act(seat, AssignUnits(heroes=tuple(units[seat]),
                                    castles=tuple(castle for _ in units[seat])))
    table.act(0, ChooseBattle(castle=castle))
    return table, castle, units


def make_tokens(table: Table, seat: int, card: str, host: str, count: int) -> list[str]:
    """Tokens made by the real event (as Nomhopet's ability makes them)."""
    out = []
    for _ in range(count):
        iid = t.table(table).next_id()
        table.emit("TokenMade", seat=seat, token=iid, card=card, attached_to=host)
        out.append(iid)
    return out


#: The state a replay must rebuild exactly: every field the setup starts.
STATE_FIELDS = tuple(setup.initial_state(0))


def replayed(table: Table) -> Table:
    """A fresh table rebuilt from the setup and the recorded events alone."""
    again = blank(len(table.seats), table.seed)
    setup.apply_setup(again, copy.deepcopy(table.plan))
    for number, (name, payload) in enumerate(table.events):
        evolve(fact(name, number, copy.deepcopy(payload)), again)
    return again


def snapshot(table: Table) -> dict[str, Any]:
    return {f: copy.deepcopy(getattr(table, f)) for f in STATE_FIELDS}


class GameTable(EventLog):
    """The aggregate behind the Table's test interface (pending as (seat, kind)
    pairs, the events by name), for scenarios played through the kernel."""

    def __init__(self, game: Any) -> None:
        self.__dict__["game"] = game
        self.__dict__["events"] = [(type(e).__name__, _payload(e))
                                   for e in game.collect_events()]

    def __getattr__(self, name: str) -> Any:
        return getattr(self.__dict__["game"], name)

    def __setattr__(self, name: str, value: Any) -> None:
        setattr(self.__dict__["game"], name, value)

    def _collect(self) -> list[str]:
        new = [(type(e).__name__, _payload(e)) for e in self.game.collect_events()]
        self.events.extend(new)
        return [n for n, _ in new]

    def act(self, seat: int, command: Command) -> list[str]:
        self.game.act(seat, command)
        return self._collect()

    def emit(self, event_name: str, **payload: Any) -> None:
        self.game.emit(event_name, **payload)
        self._collect()

    def pending(self) -> list[tuple[int, str]]:
        return [(d.seat, d.kind) for d in self.game.pending()]

    def legal(self, seat: int) -> list[Command]:
        return list(self.game.legal_actions(seat))


def _payload(event: Any) -> dict[str, Any]:
    from aggregates.kernel import payload_of

    return copy.deepcopy(payload_of(event))


def new_game(decks: list[str], seed: str = SEED, keep: bool = True,
             castles: list[list[str]] | None = None, ordained: int = 0) -> GameTable:
    """A game through the aggregate, arranged like ``new_table`` (castles as
    custom decks' starting castles; the Ordained set before play begins, so
    an arranged game is not replayable)."""
    chosen: list[Any] = []
    for i, name in enumerate(decks):
        deck = DECKS[name]
        if castles is None:
            chosen.append(name)
            continue
        chosen.append({"stronghold": deck.stronghold, "cards": dict(deck.cards),
                       "castles": sorted(set(deck.castles) | set(castles[i])),
                       "starting_castles": list(castles[i])})
    game = NineEmpires.start([f"P{i}" for i in range(len(decks))], {"decks": chosen},
                             seed=seed)
    game.ordained = ordained
    table = GameTable(game)
    if keep:
        for seat in range(len(decks)):
            table.act(seat, KeepHand())
    return table


def winter_begins(table: Table) -> None:
    """Arrange: the Autumn ends now (as if Summer and Autumn had been passed) and
    the Winter begins as the game enters it: by the Autumn's ``PhaseEnded``
    (rules 1.4.0 and before: by ``WinterBegan``), then its food stored."""
    if EARLIER_PROGRESS not in table.EARLIER:
        table.emit("PhaseEnded", phase="autumn", turn=table.turn)
    winter.begin_winter(table)


def winter_now(table: Table) -> None:
    """Arrange: Winter begins now (``winter_begins``); every player keeps the
    food where it is; the reckoning runs."""
    winter_begins(table)
    FLOW.settle(table)
    while table.pending() and table.pending()[0][1] == "redistribute":
        seat = table.pending()[0][0]
        food = tuple(t.food(table, c) for c in t.castles(table, seat))
        table.act(seat, Redistribute(food=food))
