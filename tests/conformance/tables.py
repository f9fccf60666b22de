"""The games the conformance suite plays, and the random games it plays of them.

Every game in the catalogue (``aggregates.catalog.SERVED``) and the template
game (``tests.template_game``, which the tests load as the server would with
``ARBITER_EXTRA_GAMES``) is played here: a game gets the whole suite by being
registered, with nothing written for it. OpenSpiel's per-game API tests are the
anchor (``random_sim_test``: play random games through the legal actions, from
every player count, and check the state's API along the way).

Two bots, both using only what the kernel offers every client:

- ``legal``: a pending decision at random, then a command from the seat's
  legal list (``Game.legal_actions``);
- ``choices``: a pending decision at random, then one of its choice structures
  (``Decision.choices``), a command built with the structure's ``build``
  (``PickOne``: one of the legal list), retried when the rules refuse it.

A played game keeps every event and every move (seat, command, decision id),
so the other modules check it after the fact (replay, audit, schemas, the
leak model, every event a fact) or rebuild it from its events at any move to
probe it (listed moves accepted, probes off the list refused).

Seeds and player counts: one seed per bot and a few counts by default, so the suite runs in well
under two minutes on two cores; ``ARBITER_SOAK=1`` (``make soak``) plays every
player count from ``MIN_SEATS`` to ``MAX_SEATS`` with many more seeds.
"""

from __future__ import annotations

import copy
import dataclasses
import functools
import random
from collections.abc import Iterator
from typing import Any

from aggregates.catalog import SERVED
from aggregates.kernel import (
    Assign,
    Command,
    Game,
    Number,
    PickCards,
    PickOne,
    PickPath,
    RuleError,
)
from service.readmodel import legal_list
from tests.soak import SOAK
from tests.template_game import Template
from tests.unit.kernel import template_bot

#: Every game of the catalogue and the template game, in a stable order.
GAMES: tuple[type[Game], ...] = (*SERVED, Template)
#: One seed per bot and table in CI (each game is played by both bots), twelve soaking.
SEEDS = range(12) if SOAK else range(1)
#: A game that has not ended after this many moves is stuck (the longest
#: random game seen, a 16-seat Ettin, takes about a thousand).
MAX_MOVES = 20_000
#: Tries at a built answer before the choices bot says the structures failed it.
BUILD_TRIES = 40
BOTS = ("legal", "choices")


def rules_id(cls: type[Game]) -> str:
    return cls.RULES_ID


def counts(cls: type[Game]) -> list[int]:
    """The player counts played: both ends of the range and one between
    (every count when soaking, ``make soak``)."""
    low, high = cls.MIN_SEATS, cls.MAX_SEATS
    if SOAK:
        return list(range(low, high + 1))
    return sorted({low, (low + high + 1) // 2, high})


def tables() -> list[tuple[type[Game], int]]:
    """(game, players) for every game and every count played."""
    return [(cls, n) for cls in GAMES for n in counts(cls)]


def table_id(table: tuple[type[Game], int]) -> str:
    return f"{table[0].RULES_ID}-{table[1]}p"


def seed_hex(cls: type[Game], players: int, seed: int) -> str:
    return f"{cls.RULES_ID}:{players}:{seed}".encode().hex().ljust(64, "0")[:64]


@dataclasses.dataclass(frozen=True)
class Move:
    """One accepted move, as a client sent it."""

    seat: int
    command: Command
    decision_id: str


@dataclasses.dataclass
class Played:
    """A random game played to its end: the game, every event (the creation
    event first), every accepted move, and what the bot saw on the way."""

    cls: type[Game]
    players: int
    seed: str
    bot: str
    game: Game
    events: list[Any]
    moves: list[Move]
    #: For each move, how many events were recorded before it.
    marks: list[int]
    #: Answers built from a non-``PickOne`` structure: accepted, refused; and
    #: how many decisions answered offered such a structure.
    built: list[int] = dataclasses.field(default_factory=lambda: [0, 0, 0])
    #: Moves where several seats were asked at once / one seat alone.
    simultaneous: int = 0
    alone: int = 0
    #: Hidden decisions seen pending (secret simultaneous choices).
    hidden: int = 0

    @property
    def name(self) -> str:
        return f"{self.cls.RULES_ID} {self.players}p seed {self.seed[:12]}… ({self.bot} bot)"


def start(cls: type[Game], players: int, seed: str) -> Game:
    return cls.start([f"p{n}" for n in range(players)], seed=seed)


def build(choice: Any, rnd: random.Random) -> dict[str, Any] | None:
    """A command's JSON built from one choice structure (None for ``PickOne``):
    the template bot's builder, with the marked card of a ``PickCards`` that
    names one (Ethnos' band Leader) picked among the chosen cards."""
    if isinstance(choice, PickCards) and choice.mark:
        k = rnd.randint(max(choice.low, 1), max(choice.high, 1))
        picked = sorted(rnd.sample(list(choice.options), min(k, len(choice.options))))
        return choice.build(picked, rnd.choice(picked) if picked else None)
    return template_bot.build(choice, rnd)


def check_decisions(game: Game, decisions: list[Any], name: str) -> None:
    """What OpenSpiel checks of every state on a random playout, in our terms:
    a game not over asks someone; each decision names a seat of the game, a
    kind and a prompt, has an id of its own and the structures to answer it."""
    assert decisions, f"{name}: not over, yet nobody is asked anything"
    ids = [d.id for d in decisions]
    assert len(set(ids)) == len(ids) and all(ids), f"{name}: decision ids {ids}"
    for d in decisions:
        assert 0 <= d.seat < len(game.seats), f"{name}: a decision for seat {d.seat}"
        assert d.kind and d.prompt and d.choices, f"{name}: decision {d}"
        assert d.seat in game.waiting_on(), f"{name}: seat {d.seat} asked but not waited on"


def legal_move(game: Game, rnd: random.Random) -> Move:
    """A random move of the list as the server sends it (``LegalActions``, through
    ``service.readmodel.legal_list``): a bot that reads only the listed actions
    must always find one, even where a choice structure stands for the rest."""
    decision = rnd.choice(game.pending_decisions())
    served = legal_list(game, decision.seat).actions
    assert served, (f"{game.RULES_ID}: seat {decision.seat} is asked "
                    f"{decision.prompt!r} with nothing listed")
    action = rnd.choice(served).command
    command = game.COMMANDS.parse(action["name"], action.get("args") or {})
    game.act(decision.seat, command, decision_id=decision.id)
    return Move(decision.seat, command, decision.id)


def choice_move(game: Game, rnd: random.Random, built: list[int]) -> Move:
    """An answer built from the decision's structures. A built answer the rules
    refuse must record nothing and, when the legal list is complete, be off it;
    one they accept must be on it."""
    decision = rnd.choice(game.pending_decisions())
    seat = decision.seat
    assert decision.choices, f"{game.RULES_ID}: decision {decision.id} has no choices"
    legal = game.legal_actions(seat)
    complete = game.legal_list_complete(seat)
    if not all(isinstance(c, PickOne) for c in decision.choices):
        built[2] += 1
    for _ in range(BUILD_TRIES):
        choice = rnd.choice(decision.choices)
        made = build(choice, rnd)
        if made is None:
            assert isinstance(choice, PickOne)
            assert legal, f"{game.RULES_ID}: a PickOne for seat {seat} with no legal list"
            command = rnd.choice(legal)
        else:
            assert isinstance(choice, PickCards | Assign | Number | PickPath)
            # A structure builds a well-formed command of its game, or it lies.
            command = game.COMMANDS.parse(made["name"], made["args"])
        version = game.version
        try:
            game.act(seat, command, decision_id=decision.id)
        except RuleError:
            assert made is not None, f"{game.RULES_ID}: listed {command} refused"
            assert game.version == version, "a refused built answer recorded something"
            assert not (complete and command in legal), f"{command} is listed but refused"
            built[1] += 1
            continue
        if made is not None:
            built[0] += 1
        assert not complete or command in legal, (
            f"{game.RULES_ID}: built {command} accepted but not on the complete legal list")
        return Move(seat, command, decision.id)
    raise AssertionError(f"{game.RULES_ID}: {BUILD_TRIES} answers built from "
                         f"{decision.choices} were all refused")


@functools.cache
def played(cls: type[Game], players: int, seed: int, bot: str) -> Played:
    """One random game to its end (kept: every module reads the same games)."""
    rnd = random.Random(f"{cls.RULES_ID}/{players}/{seed}/{bot}")
    game = start(cls, players, seed_hex(cls, players, seed))
    record = Played(cls, players, game.seed, bot, game, list(game.collect_events()), [], [])
    for _ in range(MAX_MOVES):
        if game.ended:
            break
        decisions = game.pending_decisions()
        check_decisions(game, decisions, record.name)
        record.hidden += sum(d.hidden for d in decisions)
        if len({d.seat for d in decisions}) > 1:
            record.simultaneous += 1
        else:
            record.alone += 1
        record.marks.append(len(record.events))
        move = legal_move(game, rnd) if bot == "legal" else choice_move(game, rnd, record.built)
        record.moves.append(move)
        record.events += game.collect_events()
    assert game.ended, f"{record.name}: not over after {MAX_MOVES} moves"
    return record


def games(bot: str | None = None) -> Iterator[Played]:
    """Every game the suite plays (both bots unless one is named)."""
    for cls, players in tables():
        for seed in SEEDS:
            for b in (bot,) if bot else BOTS:
                yield played(cls, players, seed, b)


def games_of(table: tuple[type[Game], int], bot: str | None = None) -> list[Played]:
    cls, players = table
    return [played(cls, players, seed, b) for seed in SEEDS for b in ((bot,) if bot else BOTS)]


def rebuilt(events: list[Any]) -> Game:
    """A game reconstructed from its events alone: a copy sharing nothing with
    the game played (an ``@event`` body may keep a payload's list as state, so
    the events are copied first, or a move on the copy would rewrite them)."""
    game = functools.reduce(lambda agg, ev: ev.mutate(agg), copy.deepcopy(events), None)
    assert isinstance(game, Game)
    return game


def sample(n: int, k: int, rnd: random.Random) -> list[int]:
    """``k`` of ``range(n)``, sorted (all when soaking)."""
    if SOAK or n <= k:
        return list(range(n))
    return sorted(rnd.sample(range(n), k))


def states(record: Played, picked: list[int] | None = None) -> Iterator[tuple[int, Game]]:
    """The game as it stood before each move (``picked``: only those moves'
    indices) and, last, at its end (index ``len(moves)``), rebuilt from the
    record's events alone in one pass. The game yielded is the one the pass
    goes on rebuilding: read it, never move it (``rebuilt`` makes a copy to move)."""
    wanted = set(range(len(record.moves) + 1) if picked is None else picked)
    wanted.add(len(record.moves))
    ends = [*record.marks, len(record.events)]
    events = copy.deepcopy(record.events)
    game: Any = None
    applied = 0
    for index, end in enumerate(ends):
        for ev in events[applied:end]:
            game = ev.mutate(game)
        applied = end
        if index in wanted:
            yield index, game


def pick(items: list[Any], k: int, rnd: random.Random) -> list[Any]:
    """``k`` of ``items`` at random, in their order (all when soaking)."""
    return [items[i] for i in sample(len(items), k, rnd)]
