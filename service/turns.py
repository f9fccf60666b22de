"""A seat's turn on a ``Play`` stream, made as its wire bytes straight from the game.

A turn went through three layers a version: the reading's plain values
(``SeatState``, ``LegalList``: the view, every pending decision and every
legal move each encoded as JSON, each move's label), then protobuf messages
made of them (a ``GameState``, a ``LegalAction`` a move, each move's typed
``Command`` copied in), then those messages serialized. A bot's stream reads
each version once, so nothing of the first two was ever read again: every
layer was paid for every move. Here a stream's turn is its ``PlayTurn``
bytes, written once per (game, version, seat) from the game itself:

- the game's fields that never change (its id, rules, rules version,
  commitment, seats) are written once per game;
- the game's pending decisions are read once per version (``ReadModel.decisions``,
  shared with the writer's next check and every other reader); each written
  with its choices for its own seat only, as ``readmodel.pending`` does;
- the seat's view is the rules' own work, encoded once;
- each legal move's ``LegalAction`` bytes (its typed command, its JSON, its
  label) are written once per distinct move and label and kept
  (``ACTIONS_KEPT``): the same moves come back version after version, so a
  version's list is the rules' listing and one lookup a move.

What a turn says is exactly what ``GameServicer.turn_message`` says of the
same reading (tests/unit/test_turns.py parses both and compares them); a
game over is still read that way (its final state carries the server's
signature), once a game.
"""

from __future__ import annotations

import struct
import threading
from collections.abc import Sequence
from typing import Any

from arbiter.wire import json_to_command

from aggregates.kernel import Command, Decision, Game
from aggregates.kernel.outcome import outcome_json
from aggregates.kernel.record.recording import event_type, payload_of, recorded_audience
from service.envelope import EPOCH, FORMS_KEPT, Reader, describe, dumps, visible_form
from service.ids import shard_of
from service.readmodel import Turn, listed

#: Distinct legal moves (with their labels) kept as wire bytes: a few per
#: kind of move of the games played now. Past it the whole cache starts over.
ACTIONS_KEPT = 16384
#: Games whose unchanging fields are kept as wire bytes.
GAMES_KEPT = 4096

_SMALL = [bytes((n,)) for n in range(0x80)]


def varint(number: int) -> bytes:
    """``number`` (not negative) as a protobuf varint."""
    if number < 0x80:
        return _SMALL[number]
    out = bytearray()
    while number > 0x7F:
        out.append(number & 0x7F | 0x80)
        number >>= 7
    out.append(number)
    return bytes(out)


def tag(number: int, wire_type: int) -> bytes:
    return varint(number << 3 | wire_type)


def field(number: int, data: bytes) -> bytes:
    """A length-delimited field (a message, a string, packed numbers) on the wire."""
    return varint(number << 3 | 2) + varint(len(data)) + data


def _text(key: bytes, text: str) -> bytes:
    """A string field (``key``: its tag), left out when empty as proto3 leaves it."""
    if not text:
        return b""
    data = text.encode()
    return key + varint(len(data)) + data


def _number(key: bytes, number: int) -> bytes:
    return key + varint(number) if number else b""


# GameState's fields (protos/arbiter/v1/game.proto), by number.
_GAME_ID, _RULES, _VERSION, _OVER = tag(1, 2), tag(2, 2), tag(3, 0), tag(4, 0)
_OUTCOME, _PENDING, _VIEW, _COMMITMENT = tag(5, 2), tag(6, 2), tag(7, 2), tag(8, 2)
_HEAD, _SEATS, _RULES_VERSION, _SCREEN = tag(10, 2), tag(11, 2), tag(12, 2), tag(13, 2)
# Decision's.
_D_SEAT, _D_KIND, _D_PROMPT, _D_HIDDEN = tag(1, 0), tag(2, 2), tag(3, 2), tag(4, 0)
_D_ID, _D_CHOICES, _D_DEADLINE, _D_DEFAULT = tag(5, 2), tag(6, 2), tag(7, 1), tag(8, 2)
# LegalAction's.
_A_COMMAND, _A_JSON, _A_LABEL = tag(1, 2), tag(2, 2), tag(3, 2)
# PlayTurn's.
_T_SEAT, _T_STATE, _T_ACTIONS, _T_COMPLETE = tag(1, 0), tag(2, 2), tag(3, 2), tag(4, 0)
_TRUE = b"\x01"


def decision_wire(d: Decision, with_choices: bool) -> bytes:
    """A pending decision's ``Decision`` bytes, as ``servicer.decision_proto``
    of ``readmodel.pending(d, with_choices)`` serializes: its choices only for
    a reader who may see them."""
    choices = dumps([c.to_json() for c in d.choices] if with_choices else [])
    deadline = d.deadline or 0.0
    return b"".join(
        (
            _number(_D_SEAT, d.seat),
            _text(_D_KIND, d.kind),
            _text(_D_PROMPT, d.prompt),
            _D_HIDDEN + _TRUE if d.hidden else b"",
            _text(_D_ID, d.id),
            _text(_D_CHOICES, choices),
            _D_DEADLINE + struct.pack("<d", deadline) if deadline else b"",
            _text(_D_DEFAULT, d.default or ""),
        )
    )


class TurnWire:
    """Turns as wire bytes (see the module): the parts that repeat kept."""

    def __init__(self, actions_kept: int = ACTIONS_KEPT, games_kept: int = GAMES_KEPT) -> None:
        self.actions_kept = actions_kept
        self.games_kept = games_kept
        #: (rules, command, label) -> its LegalAction field's bytes.
        self._actions: dict[tuple[str, Command, str], bytes] = {}
        #: game id -> its unchanging GameState fields: (before the version, after it).
        self._games: dict[Any, tuple[bytes, bytes, bytes]] = {}
        self._guard = threading.Lock()

    def turn(self, game: Game, seat: int, decisions: Sequence[Decision], screen: bool) -> Turn:
        """``seat``'s turn in ``game`` (not over) at its version; ``decisions``:
        the game's pending decisions (``ReadModel.decisions``)."""
        head, middle, tail = self._fixed(game)
        # The server's cached game changes by its events alone: its legal
        # lists listed here are the writer's guard of the answer, and its
        # pending decisions after the move are the ones the flow's settle
        # read (``flow.Readings``).
        game.FLOW.readings.follow(game)
        actions, complete = listed(game, seat, decisions)
        state = b"".join(
            (
                head,
                _VERSION + varint(game.version),
                _text(_OUTCOME, dumps(outcome_json(game))),
                b"".join(field(6, decision_wire(d, d.seat == seat)) for d in decisions),
                _text(_VIEW, dumps(game.view(seat))),
                middle,
                _text(_HEAD, game.head),
                tail,
                _text(_SCREEN, dumps(game.present(seat).to_json()) if screen else ""),
            )
        )
        parts = [_number(_T_SEAT, seat), _T_STATE, varint(len(state)), state]
        for action in actions:
            parts.append(self.action(game, action))
        if complete:
            parts.append(_T_COMPLETE + _TRUE)
        return Turn(seat, tuple(d.id for d in decisions if d.seat == seat), False, b"".join(parts))

    def action(self, game: Game, command: Command) -> bytes:
        """A legal move's ``LegalAction`` field of a ``PlayTurn``, written once
        per (rules, move, label): its label is asked of the game every time
        (a game may word a move by its state). Moves are told apart as their
        dataclasses compare (class and arguments): a command's arguments are
        of the types its parser demands (``Command.from_args``), so two equal
        moves have the same JSON."""
        label = game.action_label(command)
        key: tuple[str, Command, str] | None = (game.RULES_ID, command, label)
        try:
            kept = self._actions.get(key)  # type: ignore[arg-type]
        except TypeError:  # a move with a list among its arguments: not kept
            kept = key = None
        if kept is None:
            json = command.to_json()
            typed = json_to_command(game.RULES_ID, json).SerializeToString()
            action = field(1, typed) + _text(_A_JSON, dumps(json)) + _text(_A_LABEL, label)
            kept = _T_ACTIONS + varint(len(action)) + action
            if key is None:
                return kept
            with self._guard:
                if len(self._actions) >= self.actions_kept:
                    self._actions.clear()
                self._actions[key] = kept
        return kept

    def _fixed(self, game: Game) -> tuple[bytes, bytes, bytes]:
        """The game's GameState fields that never change, written once: its id
        and rules (fields 1, 2), its commitment (8), its seats and rules
        version (11, 12), in field order around the ones that do."""
        kept = self._games.get(game.id)
        if kept is None:
            kept = (
                _text(_GAME_ID, str(game.id)) + _text(_RULES, game.RULES_ID),
                _text(_COMMITMENT, game.commitment),
                b"".join(_SEATS + varint(len(s)) + s for s in (n.encode() for n in game.seats))
                + _text(_RULES_VERSION, game.rules_version),
            )
            with self._guard:
                if len(self._games) >= self.games_kept:
                    self._games.clear()
                self._games[game.id] = kept
        return kept


# Event's fields (protos/arbiter/v1/game.proto), by number.
_E_GAME_ID, _E_VERSION, _E_POSITION, _E_TYPE = tag(1, 2), tag(2, 0), tag(3, 0), tag(4, 2)
_E_PAYLOAD, _E_DIGEST, _E_PREV, _E_REDACTED = tag(7, 2), tag(8, 2), tag(9, 2), tag(10, 0)
_E_RULES, _E_COMMAND, _E_META, _E_TEXT, _E_SHARD = (
    tag(11, 2), tag(12, 2), tag(13, 2), tag(14, 2), tag(15, 0))
# Timestamp's and Audience's.
_SECONDS, _NANOS, _EVERYONE = tag(1, 0), tag(2, 0), tag(1, 0)


class EventWire:
    """A ``Play`` stream's events as their ``Event`` wire bytes, written
    straight from the domain event, once per form (as a turn is): the form a
    seat sees is decided by ``service.envelope`` (``visible_form``: the event's
    recorded audience, its public form for the others), only its encoding is
    done here, where it was a protobuf message built (a ``Timestamp``, an
    ``Audience``, fifteen fields copied in) and serialized for each form.
    What it writes is exactly ``to_proto``'s message serialized
    (tests/unit/test_turns.py compares the bytes)."""

    def __init__(self, kept: int = FORMS_KEPT) -> None:
        self.kept = kept
        #: (game id, version, position, redacted, full, over, names) -> the form's bytes.
        self._forms: dict[tuple[Any, ...], bytes] = {}
        self._guard = threading.Lock()

    def for_seats(self, game_cls: type[Game], domain_event: Any, seats: Sequence[int],
                  over: bool, position: int = 0,
                  names: Sequence[str] = ()) -> list[tuple[bytes, list[int]]]:
        """The event once per form the ``seats`` see of it (each seat's reader
        made for the game's end, ``over``), each as its wire bytes with the
        seats it is for, in the order the seats first meet each form; the
        event's audience read once for all the seats."""
        kind = event_type(domain_event)
        payload = payload_of(domain_event)
        audience, public = recorded_audience(game_cls, kind, payload, domain_event.meta)
        out: dict[tuple[bool, int], tuple[bytes, list[int]]] = {}
        for seat in seats:
            reader = Reader(seat, over, over)
            visible = visible_form(kind, payload, audience, public, reader)
            form = (visible[1], id(visible[0]))  # the payload itself, or its public form
            found = out.get(form)
            if found is None:
                out[form] = (self._form(game_cls, domain_event, kind, reader, position,
                                        names, visible), [seat])
            else:
                found[1].append(seat)
        return list(out.values())

    def _form(self, game_cls: type[Game], domain_event: Any, kind: str, reader: Reader,
              position: int, names: Sequence[str],
              visible: tuple[dict[str, Any], bool, Any]) -> bytes:
        key = (domain_event.originator_id, domain_event.originator_version, position,
               visible[1], reader.full, reader.over, tuple(names))
        kept = self._forms.get(key)
        if kept is None:
            kept = event_wire(game_cls, domain_event, kind, reader, position, names, visible)
            with self._guard:
                if len(self._forms) >= self.kept:
                    self._forms.clear()
                self._forms[key] = kept
        return kept


def event_wire(game_cls: type[Game], domain_event: Any, kind: str, reader: Reader,
               position: int, names: Sequence[str],
               visible: tuple[dict[str, Any], bool, Any]) -> bytes:
    """``envelope._to_proto(...)``'s ``Event`` serialized, written field by
    field in number order (as protobuf serializes it; an empty field left out,
    the time and the audience always there)."""
    payload, redacted, audience = visible
    meta = domain_event.meta
    game_id = domain_event.originator_id
    when = domain_event.timestamp
    if when.tzinfo is None:
        when = when.replace(tzinfo=EPOCH.tzinfo)
    since = when - EPOCH
    time = (_number(_SECONDS, since.days * 86400 + since.seconds)
            + _number(_NANOS, since.microseconds * 1000))
    seats = b"".join(varint(seat) for seat in sorted(audience.seats or ()))
    heard = (_EVERYONE + _TRUE if audience.everyone else b"") + (
        field(2, seats) if seats else b"")
    return b"".join(
        (
            _text(_E_GAME_ID, str(game_id)),
            _number(_E_VERSION, domain_event.originator_version),
            _number(_E_POSITION, position),
            _text(_E_TYPE, kind),
            field(5, time),
            field(6, heard),
            _text(_E_PAYLOAD, dumps(payload)),
            _text(_E_DIGEST, meta.get("digest", "")),
            _text(_E_PREV, meta.get("prev", "")),
            _E_REDACTED + _TRUE if redacted else b"",
            _text(_E_RULES, game_cls.RULES_ID),
            _text(_E_COMMAND, (meta.get("cmd") or {}).get("id", "")),
            _text(_E_META, dumps(meta) if reader.full else ""),
            _text(_E_TEXT, describe(game_cls, kind, payload, list(names))),
            _number(_E_SHARD, shard_of(game_id)),
        )
    )
