"""A ``Play`` stream's turn made as wire bytes straight from the game
(``service.turns``) says exactly what the readings' path said of the same
version (``GameServicer.turn_message`` of ``seats_at``'s reading): the same
view, the same pending decisions (a seat's choices in its own turn only, no
other seat's), the same legal moves with their labels; and an event's forms
for a stream's seats (``EventForms.for_seats``) are each seat's own form, as
``to_proto`` makes it for that seat: a private card its holder's alone."""

from __future__ import annotations

import copy
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from arbiter.v1 import game_pb2

from aggregates.catalog import GAMES
from aggregates.kernel import Game
from service.application import ArbiterApp, SeatReading
from service.config import Settings
from service.envelope import EventForms, Reader, to_proto
from service.feeds import FeedHub
from service.readmodel import ReadModel, Turn
from service.servicer import GameServicer
from service.turns import EventWire, TurnWire
from tests.spies import calls_to
from tests.template_game import Template

RULES: list[tuple[str, type[Game]]] = [*GAMES.items(), ("template", Template)]


@pytest.fixture
def app(tmp_path: Path) -> Iterator[ArbiterApp]:
    application = ArbiterApp(Settings(data_dir=tmp_path).store_env())
    yield application
    application.close()


@pytest.fixture
def servicer(app: ArbiterApp) -> GameServicer:
    return GameServicer(app, FeedHub("redis://127.0.0.1:1/0"))


def playout(cls: type[Game], seats: int, seed: int, moves: int) -> Iterator[Game]:
    """Each state of a game of ``cls`` played by random listed moves (the
    first seat asked moves), up to ``moves`` moves or its end."""
    rng = random.Random(seed)
    game = cls.start([f"p{n}" for n in range(seats)], {}, seed=f"{seed:064x}")
    for _ in range(moves):
        if game.ended:
            return
        yield game
        seat = game.waiting_on()[0]
        game = copy.deepcopy(game)
        game.act(seat, rng.choice(game.legal_actions(seat)))


@pytest.mark.parametrize(("rules", "cls"), RULES, ids=[rules for rules, _ in RULES])
def test_a_turn_on_the_wire_is_the_readings_turn(
    rules: str, cls: type[Game], servicer: GameServicer
) -> None:
    wire = TurnWire()
    compared = 0
    for seats in sorted({cls.MIN_SEATS, min(cls.MAX_SEATS, 4)}):
        for game in playout(cls, seats, seed=seats, moves=40):
            reads = ReadModel()
            decisions = reads.decisions(game)
            for seat in sorted({d.seat for d in decisions}):
                for screen in (False, True):
                    state = reads.state(game, Reader(seat).for_game(False), screen=screen)
                    old = servicer.turn_message(SeatReading(seat, state, reads.legal(game, seat)))
                    turn = reads.turn(game, seat, screen, wire)
                    assert reads.turn(game, seat, screen, wire) is turn, "once per version"
                    new = game_pb2.PlayTurn.FromString(turn.wire)
                    assert new == old
                    assert turn.wire == old.SerializeToString()
                    assert turn.ids == tuple(d.id for d in state.pending if d.seat == seat)
                    assert not turn.over
                    for d in new.state.pending:
                        if d.seat != seat:
                            assert d.choices_json == "[]", "another seat's choices are its own"
                    compared += 1
    assert compared


def test_a_move_listed_twice_is_written_once() -> None:
    game = next(iter(playout(Template, 2, seed=1, moves=1)))
    seat = game.waiting_on()[0]
    wire = TurnWire()
    first = [wire.action(game, a) for a in game.legal_actions(seat)]
    again = [wire.action(game, a) for a in game.legal_actions(seat)]
    assert all(a is b for a, b in zip(first, again, strict=True))


def test_the_play_path_reads_what_seats_at_reads(app: ArbiterApp, servicer: GameServicer) -> None:
    """Through the application, to the end: each version's turns are the
    readings' turns, for the waiting seats only; the game over, every seat's
    final reading, as before; a version the game is past, nothing."""
    game_id = str(app.create_game("ettin", ["a", "b"]).id)
    rng = random.Random(2)
    while True:
        game = app.game(game_id)
        version, turns = app.turns_at(game_id, [0, 1], game.version, screens=False)
        _, readings = app.seats_at(game_id, [0, 1], game.version, screens=False)
        assert version == game.version
        assert [t.seat for t in turns] == [r.seat for r in readings]
        for turn, reading in zip(turns, readings, strict=True):
            wire = servicer.turn_wire(reading)
            assert (turn.wire if hasattr(turn, "wire") else servicer.turn_wire(turn)) == wire
        cached = app.turns_at_cached(game.id, [0, 1], game.version, screens=False)
        assert cached is not None and cached[1] == turns
        if game.ended:
            assert len(turns) == 2 and all(isinstance(t, SeatReading) for t in turns)
            break
        assert app.turns_at(game_id, [0, 1], game.version - 1) == (game.version, [])
        seat = turns[0].seat
        app.act(game_id, seat, rng.choice(game.legal_actions(seat)).to_json())


def test_the_writer_checks_a_decision_against_the_decisions_read(
    app: ArbiterApp, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The decisions a turn read are the ones the next move's decision id is
    checked against (the same game object at the same version: the rules
    are not asked again); a version on, nothing is kept, and a stale id is
    refused all the same."""
    from service.application import Move

    game_id = str(app.create_game("ethnos", ["a", "b", "c"]).id)
    cls = type(app.game(game_id))
    asked: list[int] = []
    original = cls.pending_decisions

    def counted(self: Game) -> list[Any]:
        asked.append(self.version)
        return original(self)

    monkeypatch.setattr(cls, "pending_decisions", counted)

    def move(seat: int, decision: str, command_id: str) -> Any:
        asked.clear()
        return app.act_moves(
            [Move(game_id, seat, command, decision_id=decision, command_id=command_id)]
        )[0]

    version = app.game(game_id).version
    _, turns = app.turns_at(game_id, [0, 1, 2], version, screens=False)
    turn = turns[0]
    assert isinstance(turn, Turn)
    seat, decision = turn.seat, turn.ids[0]
    command = app.game(game_id).legal_actions(seat)[0].to_json()
    done = move(seat, decision, "m1")
    assert not isinstance(done, Exception) and done.version > version
    assert version not in asked, "the decisions the turn read, not asked again"
    stale = move(seat, decision, "m2")
    assert isinstance(stale, Exception)
    assert done.version in asked, "no turn read that version: the rules are asked"


def event_forms_before(
    forms: EventForms,
    cls: type[Game],
    ev: Any,
    position: int,
    seats: list[int],
    names: tuple[str, ...],
    over: bool,
) -> list[tuple[bytes, list[int]]]:
    """What a ``Play`` stream made of an event before ``for_seats``: each
    seat's form asked apart, grouped by what it says."""
    first, wire = forms.encoded(cls, ev, Reader(seats[0]).for_game(over), position, names)
    if first.audience.everyone or len(seats) == 1:
        return [(wire, seats)]
    kinds = {(first.redacted, first.payload_json): (wire, [seats[0]])}
    for seat in seats[1:]:
        form, wire = forms.encoded(cls, ev, Reader(seat).for_game(over), position, names)
        kinds.setdefault((form.redacted, form.payload_json), (wire, []))[1].append(seat)
    return list(kinds.values())


@pytest.mark.parametrize(("rules", "cls"), RULES, ids=[rules for rules, _ in RULES])
def test_an_events_forms_for_a_streams_seats(rules: str, cls: type[Game]) -> None:
    seats = min(cls.MAX_SEATS, 3)
    names = tuple(f"p{n}" for n in range(seats))
    *_, game = playout(cls, seats, seed=5, moves=30)
    private = 0
    for position, ev in enumerate(copy.deepcopy(game).collect_events(), 1):
        for over in (False, True):
            for group in ([0], list(range(seats)), list(range(seats))[::-1]):
                # Written straight as wire bytes: the very bytes of the messages
                # each seat's form was encoded as, grouped by what it says.
                made = EventWire().for_seats(cls, ev, group, over, position, names)
                assert made == event_forms_before(
                    EventForms(), cls, ev, position, group, names, over
                )
                assert sorted(s for _, of in made for s in of) == sorted(group)
                for wire, of in made:
                    for seat in of:
                        own = to_proto(cls, ev, Reader(seat).for_game(over), position, names)
                        assert game_pb2.Event.FromString(wire) == own
                        assert (
                            EventForms().encoded(cls, ev, Reader(seat).for_game(over), position,
                                                 names)[1] == wire
                        ), "the form every reader gets"
                private += len(made) > 1
    if rules in ("template", "ethnos"):
        assert private, "a card dealt to one seat is read by that seat alone"


@pytest.mark.parametrize(("rules", "cls"), RULES, ids=[rules for rules, _ in RULES])
def test_a_moves_command_decoded_once_is_what_the_decoding_says(
    rules: str, cls: type[Game], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A ``Play`` move's typed command is decoded once per distinct command
    (``service.play.decoded``): every later one is the same answer, a fresh
    copy each time, without the generic decoding."""
    from arbiter.wire import command_to_json, json_to_command

    from service import play

    seats = min(cls.MAX_SEATS, 3)
    commands = []
    for game in playout(cls, seats, seed=7, moves=25):
        seat = game.waiting_on()[0]
        commands += [json_to_command(rules, c.to_json()) for c in game.legal_actions(seat)]
    monkeypatch.setattr(play, "_decoded", {})
    slow = calls_to(monkeypatch, play, "command_to_json")
    for command in commands + commands:
        answer = play.decoded(command)
        assert answer == command_to_json(command)
        assert type(answer[1]["args"]) is dict
        answer[1]["args"]["changed"] = True  # the caller's own copy
    distinct = {c.SerializeToString() for c in commands}
    assert len(slow) == len(distinct) < len(commands) * 2


def test_the_writer_parses_a_typed_command_once(
    app: ArbiterApp, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A ``Play`` move carries its command's wire bytes (``Move.command_key``):
    the writer parses each distinct command once, and every move is recorded
    as the command it names (the recorded command's name and arguments)."""
    from arbiter.wire import command_to_json, json_to_command

    from service.application import Move

    game_id = str(app.create_game("ethnos", ["a", "b", "c"]).id)
    cls = type(app.game(game_id))
    parsed = calls_to(monkeypatch, cls.COMMANDS, "parse")
    keys = []
    for n in range(30):
        game = app.game(game_id)
        if game.ended:
            break
        seat = game.waiting_on()[0]
        typed = json_to_command("ethnos", game.legal_actions(seat)[0].to_json())
        rules, action = command_to_json(typed)
        keys.append(typed.SerializeToString())
        answer = app.act_moves([Move(game_id, seat, action, command_id=f"c{n}", rules=rules,
                                     command_key=keys[-1])])[0]
        assert not isinstance(answer, Exception), answer
        recorded = answer.events[0].meta["cmd"]
        assert (recorded["name"], recorded["args"]) == (action["name"], action["args"])
    assert len(parsed) == len(set(keys)) < len(keys)
