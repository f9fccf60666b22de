"""The audit judges a recorded command by its move's own check, without the
legal list as a last guard (``kernel.record.audit.re_executing``): sound
only because, in every game, a move's check refuses every command its legal
list leaves out. This proves that property the way the conformance suite
proves the listed moves legal, on the same random games and states
(``tests.conformance``), and then the audit end to end.

At probed states of every game and player count, on a copy re-executing as
the audit does:

- every well-formed command off the seat's complete legal list is refused
  with a declared reason and records nothing: random probes (the conformance
  suite's) and near misses, each listed command with one argument changed to
  another value the list uses, or one past it;
- a game's record with one command replaced by such a probe (the chain
  resealed from the revealed seed, as a forger holding it could) fails the
  audit's re-execution at that command's version.
"""

from __future__ import annotations

import copy
import dataclasses
import random
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from aggregates.kernel import Command, Game, RuleError
from aggregates.kernel.record import chain
from aggregates.kernel.record.audit import audit_records, re_executing, records_of
from aggregates.kernel.record.recorded import Record
from tests.conformance import tables as t
from tests.conformance.test_moves import (
    hint_of,
    listed_up_to_order,
    probed_states,
    reasons,
    state,
    well_formed,
)
from tests.soak import games

TABLES = t.tables()
#: Near misses tried per probed state: 20 in the suite, 60 under ``make soak``
#: (each probe re-executes on a copy of the game: most of the test's time at
#: a 16-seat Ettin and a 6-player Nine Empires).
NEAR_MISSES = games(20, 60)
#: Recorded moves replaced by a forged command, per game: 4 in the suite, 16
#: under ``make soak`` (each forgery is a whole audit of the game).
FORGED_MOVES = games(4, 16)


def near_misses(legal: list[Command], rnd: random.Random) -> Iterator[Command]:
    """Listed commands with one argument changed to another value of the list's
    (or one past an integer of it): the commands a check is likeliest to let
    through when it forgets a condition the lister keeps."""
    values: dict[Any, list[Any]] = {}
    for command in legal:
        for f in dataclasses.fields(command):
            hint = hint_of(type(command), f.name)
            value = getattr(command, f.name)
            found = values.setdefault(repr(hint), [])
            found.append(value)
            if isinstance(value, int) and not isinstance(value, bool):
                found.extend((value - 1, value + 1))
            if isinstance(value, tuple) and value:
                found.extend((value[:-1], value[1:], (*value, value[0])))
    candidates = [dataclasses.replace(command, **{f.name: other})
                  for command in legal for f in dataclasses.fields(command)
                  for other in values[repr(hint_of(type(command), f.name))]
                  if other != getattr(command, f.name)]
    yield from t.pick(candidates, NEAR_MISSES, rnd)


def off_list_probes(cls: type[Game], game: Game, seat: int,
                    rnd: random.Random) -> list[Command]:
    """Well-formed commands of ``seat``'s game that its complete legal list leaves
    out (none where the list is left short: a probe may then be legal)."""
    if not game.legal_list_complete(seat):
        return []
    legal = game.legal_actions(seat)
    probes = [*well_formed(cls, legal, rnd), *near_misses(legal, rnd)]
    return [p for p in probes if not listed_up_to_order(p, legal)]


def refuser(game: Game) -> Callable[[int, Command], str]:
    """``refusal(seat, command)``: the reason ``command`` is refused for on a
    copy of ``game`` re-executing as the audit does: a declared one, the copy
    left as it was. One copy serves every probe of the state: each refusal is
    checked to leave it as it was (its whole state, but the scratch every
    command resets: ``state``), so each probe meets the state a copy of its
    own would have (a deep copy per probe was half the refusals' time)."""
    trial = re_executing(copy.deepcopy(game))
    before = state(trial)

    def refusal(seat: int, command: Command) -> str:
        with pytest.raises(RuleError) as info:
            trial.act(seat, command)
        assert str(info.value.reason) in reasons(type(game)), info.value.reason
        assert trial.collect_events() == [] and state(trial) == before, command
        return str(info.value.reason)

    return refusal


def states_of(table: tuple[type[Game], int]) -> Iterator[tuple[t.Played, int, Game]]:
    for record in t.games_of(table):
        for index, game in probed_states(record):
            yield record, index, game


@pytest.mark.heavy(6)
@pytest.mark.parametrize("table", TABLES, ids=t.table_id)
def test_every_off_list_command_is_refused_by_its_moves_check(
        table: tuple[type[Game], int]) -> None:
    cls, _ = table
    probed, complete = 0, False
    for record, _, game in states_of(table):
        rnd = random.Random(f"{record.seed}/{game.version}")
        refusal = refuser(game)
        for seat in sorted({d.seat for d in game.pending()}):
            # Whether the seat's list is complete, read before any probe is tried
            # (the probes run on a copy: the game is as it was either way).
            complete = complete or game.legal_list_complete(seat)
            for command in off_list_probes(cls, game, seat, rnd):
                refusal(seat, command)
                probed += 1
    assert probed or not complete, f"{table}: no off-list command was probed"


def resealed(records: list[Record]) -> list[Record]:
    """The records with every digest recomputed from the revealed seed."""
    seed = records[0].payload["seed"]
    out: list[Record] = []
    prev = chain.GENESIS
    for rec in records:
        meta = {**(rec.meta or {}), "prev": prev}
        digest = chain.digest(prev, rec.game_id, rec.version, rec.type, rec.time,
                              rec.payload, meta, chain.salt(seed, rec.version))
        meta["digest"] = digest
        out.append(dataclasses.replace(rec, meta=meta, prev=prev, digest=digest))
        prev = digest
    return out


@pytest.mark.heavy(4)
@pytest.mark.parametrize("table", TABLES, ids=t.table_id)
def test_a_recorded_command_replaced_by_an_off_list_one_fails_the_audit(
        table: tuple[type[Game], int]) -> None:
    cls, _ = table
    record = t.games_of(table, "legal")[0]
    records = records_of(copy.deepcopy(record.events))
    assert audit_records(records, cls).ok
    rnd = random.Random(record.seed)
    forged = 0
    for index, game in t.states(record, t.sample(len(record.moves), FORGED_MOVES, rnd)):
        if index == len(record.moves):
            continue  # the end: no move to forge
        move = record.moves[index]
        version = record.marks[index] + 1  # the first event of the move records it
        at = version - 1
        honest = records[at].meta
        assert honest is not None and "cmd" in honest
        refusal = refuser(game)
        for command in off_list_probes(cls, game, move.seat, rnd)[:3]:
            meta = {**honest, "cmd": {**honest["cmd"], "name": command.NAME,
                                      "args": command.args()}}
            changed = [*records[:at], dataclasses.replace(records[at], meta=meta),
                       *records[at + 1:]]
            report = audit_records(resealed(changed), cls)
            # Refused by the rules, not merely re-executed into events other
            # than the honest command's (which the record keeps here).
            why = refusal(move.seat, command)
            assert report.chain_ok and report.problems == [
                f"replay: version {version}: refused on replay ({why})"], report.problems
            assert report.first_failure == version
            forged += 1
    assert forged or not cls.CHECK_AGAINST_LEGAL_LIST, f"{table}: no recorded command was forged"


def test_the_audit_re_executes_without_the_legal_list_guard() -> None:
    """What the probes above stand for: the audit's game has the guard off
    (and is unchained), the game it was made from is left as it was."""
    cls = t.GAMES[0]
    game = t.start(cls, cls.MIN_SEATS, t.seed_hex(cls, cls.MIN_SEATS, 0))
    audited = re_executing(copy.deepcopy(game))
    assert audited.CHECK_AGAINST_LEGAL_LIST is False and audited.unchained
    assert "CHECK_AGAINST_LEGAL_LIST" not in vars(game) and not game.unchained
