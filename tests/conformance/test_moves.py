"""Every listed move is accepted; every probe off the list is refused, with a
reason, and records nothing (the design's principles 5 and 6; OpenSpiel's
``test_legal_actions``: every legal action applies, an illegal one raises).

At moves picked along each game played by the legal-list bot, the game is
reconstructed from its events before that move (``tables.rebuilt``), and on
copies of it:

- every command on every asked seat's legal list is accepted (records events);
- probes are refused with a ``RuleError`` whose reason is one of the kernel's
  or the game's own codes, and leave the game exactly as it was (its version,
  no pending event, its whole state by its pickled bytes): a seat the game
  does not have, a seat not asked, a stale or made-up decision id, commands
  that do not parse (an unknown name, missing, extra or ill-typed arguments),
  and well-formed commands with random arguments that are not on the list
  (only where the seat's list is complete: where it is left short, a random
  command may be legal, and then it is only required to parse).
"""

from __future__ import annotations

import copy
import dataclasses
import pickle
import random
import typing
from collections.abc import Iterator
from typing import Any

import pytest

from aggregates.kernel import Command, Game, Reason, RuleError
from aggregates.kernel.record.audit import audit
from tests.conformance import tables as t

TABLES = t.tables()
#: Moves probed per game, and legal commands tried per seat at each.
PROBED_MOVES = 6
LISTED_PER_SEAT = 25
LISTED_PER_MOVE = 40
RANDOM_PROBES = 30


def probed_states(record: t.Played) -> Iterator[tuple[int, Game]]:
    rnd = random.Random(record.seed)
    for index in t.sample(len(record.moves), PROBED_MOVES, rnd):
        yield index, t.rebuilt(record.events[:record.marks[index]])


def reasons(cls: type[Game]) -> set[str]:
    return {str(r) for r in Reason} | set(cls.REASONS)


#: The kernel's scratch for the command in hand, reset as every command begins.
SCRATCH = ("_draws", "_command", "_audience")


def state(game: Game) -> bytes:
    return pickle.dumps({k: v for k, v in vars(game).items() if k not in SCRATCH})


def refused(game: Game, seat: int, command: Command, decision_id: str = "") -> RuleError:
    """``command`` sent for ``seat`` is refused with a reason and changes nothing."""
    before = state(game)
    version = game.version
    with pytest.raises(RuleError) as info:
        game.act(seat, command, decision_id=decision_id)
    error = info.value
    assert str(error.reason) in reasons(type(game)), f"reason {error.reason!r} is not declared"
    assert error.message, "a refusal says why"
    assert game.version == version and game.collect_events() == [], "a refusal recorded"
    assert state(game) == before, f"refusing {command} changed the game"
    return error


@pytest.mark.heavy(6)
@pytest.mark.parametrize("table", TABLES, ids=t.table_id)
def test_every_listed_move_is_accepted_on_a_copy(table: tuple[type[Game], int]) -> None:
    tried = 0
    for record in t.games_of(table, "legal"):
        rnd = random.Random(record.seed)
        for index, base in probed_states(record):
            listed = [(decision, command) for decision in base.pending_decisions()
                      for command in sample_of(base.legal_actions(decision.seat), rnd)]
            for decision, command in t.pick(listed, LISTED_PER_MOVE, rnd):
                game = copy.deepcopy(base)
                version = game.version
                game.act(decision.seat, command, decision_id=decision.id)
                assert game.version > version, (record.name, index, command)
                assert game.collect_events(), (record.name, index, command)
                tried += 1
    assert tried


def sample_of(legal: list[Command], rnd: random.Random) -> list[Command]:
    return t.pick(legal, LISTED_PER_SEAT, rnd)


@pytest.mark.heavy(6)
@pytest.mark.parametrize("table", TABLES, ids=t.table_id)
def test_probes_off_the_list_are_refused_with_a_reason_and_record_nothing(
        table: tuple[type[Game], int]) -> None:
    cls, players = table
    seen = {"seat": 0, "unasked": 0, "stale": 0, "parse": 0, "random": 0}
    for record in t.games_of(table, "legal"):
        rnd = random.Random(record.seed)
        for index, game in probed_states(record):
            decisions = game.pending_decisions()
            asked = sorted({d.seat for d in decisions})
            seat = rnd.choice(asked)
            legal = game.legal_actions(seat)
            listed = rnd.choice(legal)
            # A seat the game does not have.
            assert refused(game, players, listed).reason == Reason.UNKNOWN_SEAT
            seen["seat"] += 1
            # A seat not asked sends a command the asked seat may send.
            for other in sorted(set(range(players)) - set(asked))[:2]:
                refused(game, other, listed)
                seen["unasked"] += 1
            # A decision id that is not (or no longer) pending for the seat.
            pending = {d.id for d in decisions if d.seat == seat}
            earlier = [m.decision_id for m in record.moves[:index]
                       if m.seat == seat and m.decision_id not in pending]
            for stale in [f"{seat}.gone.0.00000000", *earlier[-1:]]:
                assert refused(game, seat, listed, stale).reason == Reason.STALE_DECISION
                seen["stale"] += 1
            # Commands that do not parse: refused before any rule reads them.
            for name, args in ill_formed(cls, rnd):
                with pytest.raises(RuleError) as info:
                    cls.COMMANDS.parse(name, args)
                assert info.value.reason in (Reason.BAD_ARGUMENT, Reason.UNKNOWN_COMMAND)
                seen["parse"] += 1
            # Well-formed commands with random arguments, off the list.
            complete = game.legal_list_complete(seat)
            for command in well_formed(cls, legal, rnd):
                if not complete or listed_up_to_order(command, legal):
                    continue
                refused(game, seat, command, rnd.choice([*pending, ""]))
                seen["random"] += 1
    assert seen["seat"] and seen["stale"] and seen["parse"] and seen["random"], seen
    assert players == 1 or seen["unasked"] or all(
        r.alone == 0 for r in t.games_of(table, "legal")), seen


# ------------------------------------------------------------------ the probes


def unordered(command: Command) -> tuple[str, tuple[tuple[str, Any], ...]]:
    """A command with each list argument as a sorted tuple."""
    return command.NAME, tuple(
        (k, tuple(sorted(map(repr, v))) if isinstance(v, list) else v)
        for k, v in sorted(command.args().items()))


def listed_up_to_order(command: Command, legal: list[Command]) -> bool:
    """Whether ``command`` is on the list, or a listed one with a list argument
    in another order (Ethnos lists a band's cards in one order and accepts
    them in any: the same band; whether order matters is each game's rule, so
    such a probe proves nothing either way)."""
    key = unordered(command)
    return command in legal or any(unordered(c) == key for c in legal)


def ill_formed(cls: type[Game], rnd: random.Random) -> Iterator[tuple[str, Any]]:
    """Wire commands that must not parse: an unknown name, arguments that are
    not an object, an extra argument, and each argument missing or ill-typed."""
    yield "no_such_command", {}
    for name, command in cls.COMMANDS.by_name.items():
        yield name, ["not", "an", "object"]
        yield name, {**example_args(command), "no_such_argument": 1}
        for f in dataclasses.fields(command):
            args = example_args(command)
            if f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING:
                yield name, {k: v for k, v in args.items() if k != f.name}
            yield name, {**args, f.name: wrong_value(hint_of(command, f.name), rnd)}


def hint_of(command: type[Command], name: str) -> Any:
    return typing.get_type_hints(command)[name]


def example_args(command: type[Command]) -> dict[str, Any]:
    """Arguments of the right types (values no rule has seen)."""
    return {f.name: typed_value(hint_of(command, f.name), random.Random(0), [], [])
            for f in dataclasses.fields(command)}


def wrong_value(hint: Any, rnd: random.Random) -> Any:
    """A value of another type than ``hint`` (or one out of range)."""
    if hint is bool:
        return rnd.choice([1, "yes", None])
    if hint is int:
        return rnd.choice(["1", 1.5, True, None, [1], 10**9])
    if hint is str:
        return rnd.choice([1, None, ["a"], "x" * 65])
    return rnd.choice([1, "cards", {"a": 1}, [[1]], list(range(65))])


def typed_value(hint: Any, rnd: random.Random, ints: list[int], strs: list[str]) -> Any:
    """A random value of type ``hint``, drawn near the values the legal list
    uses (its integers and strings) so that some probes are near misses."""
    if hint is bool:
        return rnd.random() < 0.5
    if hint is int:
        return rnd.choice([*ints, -1, 0, 1, 7, 99, rnd.randint(-5, 200)])
    if hint is str:
        return rnd.choice([*strs, "", "nowhere", "x" * 8])
    if typing.get_origin(hint) is tuple:
        inner = typing.get_args(hint)[0]
        return tuple(typed_value(inner, rnd, ints, strs) for _ in range(rnd.randint(0, 4)))
    raise TypeError(f"no probe for argument type {hint!r}")


def well_formed(cls: type[Game], legal: list[Command], rnd: random.Random) -> Iterator[Command]:
    """Commands of the game with random, well-typed arguments: mostly the
    asked seat's own commands with one argument changed, some of any name."""
    ints: list[int] = []
    strs: list[str] = []
    for command in legal:
        for value in command.args().values():
            for v in value if isinstance(value, list) else [value]:
                if isinstance(v, bool):
                    continue
                if isinstance(v, int):
                    ints.append(v)
                elif isinstance(v, str):
                    strs.append(v)
    names = list(cls.COMMANDS.by_name.values())
    for n in range(RANDOM_PROBES):
        if n % 3 and legal:
            base = rnd.choice(legal)
            fields = dataclasses.fields(base)
            if not fields:
                continue
            f = rnd.choice(fields)
            value = typed_value(hint_of(type(base), f.name), rnd, ints, strs)
            yield dataclasses.replace(base, **{f.name: value})
        else:
            kind = rnd.choice(names)
            yield kind(**{f.name: typed_value(hint_of(kind, f.name), rnd, ints, strs)
                          for f in dataclasses.fields(kind)})


@pytest.mark.parametrize("table", TABLES, ids=t.table_id)
def test_a_declared_default_is_applied_and_audits_clean(table: tuple[type[Game], int]) -> None:
    """A decision's declared default (``Decision.default``: what the server does
    when a clock runs out) is applied by ``act_default`` as a ``DefaultApplied``
    event and the command it stands for, and the game still audits clean; a
    seat asked nothing with a default is refused NO_DEFAULT, recording nothing."""
    cls, _ = table
    applied = offered = 0
    for record in t.games_of(table, "legal")[:1]:
        rnd = random.Random(record.seed)
        for index in t.sample(len(record.moves), 3, rnd):
            base = t.rebuilt(record.events[:record.marks[index]])
            decisions = base.pending_decisions()
            for seat in sorted({d.seat for d in decisions if not d.default}
                               - {d.seat for d in decisions if d.default}):
                before = state(base)
                with pytest.raises(RuleError) as info:
                    base.act_default(seat)
                assert info.value.reason == Reason.NO_DEFAULT
                assert state(base) == before and base.collect_events() == []
            defaults = [d for d in decisions if d.default]
            offered += len(defaults)
            if not defaults:
                continue
            decision = rnd.choice(defaults)
            base.act_default(decision.seat)
            new = base.collect_events()
            assert new and type(new[0]).__name__ == "DefaultApplied", (record.name, index)
            report = audit([*copy.deepcopy(record.events[:record.marks[index]]), *new], cls)
            assert report.ok, (record.name, index, report.problems)
            applied += 1
    assert applied or not offered, f"{table}: defaults offered, none applied"
