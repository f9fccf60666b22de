"""``arbiter replay``: step forward and back through a recorded game.

Two sources, one screen. A game on the server is read with time travel:
``GetState(version=N)`` for the state after each version as this reader saw
it then, and ``History`` for the event of each step, both redacted by the
server for the reader's credential (a seat's token, the admin's, or none for
a spectator). A record file written by ``arbiter export`` is replayed with no
server: its events are folded through the rules version that recorded it
(``aggregates.catalog.RULES``, the same registry ``arbiter verify`` uses) and
each state is drawn as the chosen seat (or a spectator) sees it.

Each step is drawn like a turn of ``arbiter play``: the game's own screen
(``arbiter.render``, from the game's ``present``), the event that made this
version in the game's own words, then who the game waits on or its outcome.
So the replay holds no line of any game's rules either.

Hidden information: a seat never sees another seat's hidden cards before the
game's end. Online the server enforces it; with the admin's credential, which
reads every seat's screen but the whole record, each event is shown as the
chosen reader got it (its recorded audience and public form), so the admin
replaying seat 1 sees exactly what seat 1 saw. Offline the record is redacted
again for the reader chosen here: an event whose audience leaves the reader
out shows its public form (or, in a record that lacks it, only that there
was a private event), and the screen is the rules' own view for that seat.
A record whose rules version this release cannot load is still replayed as
its events, with the one sentence saying why there are no states: that is
never an error.

A record file's sentences (each line's ``text``) are not shown: they are
outside the hash chain, and anyone can edit them. Each event is told again
from its payload by the rules that recorded the game (as ``arbiter verify``
checks them), or, when this release cannot load those rules, shown as its
type and payload. The game, its rules, version and seats are the ones its
creation event records; a header that says otherwise is refused.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Iterator, Mapping, Sequence
from typing import Any, Protocol, TextIO

from arbiter.client import ArbiterClient
from arbiter.render import (
    describe_event,
    event_text,
    loads_object,
    seat_name,
    seat_title,
)
from arbiter.v1 import game_pb2

from aggregates.catalog import RULES, Registry, not_loadable
from aggregates.kernel.game import Game, recorded_audience
from aggregates.kernel.outcome import outcome_json
from aggregates.kernel.record.audit import Record
from aggregates.kernel.record.verify import CREATED_FIELDS, event_sentence, folding, loadable
from aggregates.kernel.seating import Audience
from aggregates.records import RecordError, read_record, records_of
from clients.render import state_lines

NEXT_WORDS = {"", "n", "next"}
PREV_WORDS = {"p", "prev", "previous", "b", "back"}
QUIT_WORDS = {"q", "quit", "exit"}
KEYS = "Enter or n: next, p: previous, g N: go to version N, q: quit"


class ReplayError(Exception):
    """A replay that cannot start (a bad file, a seat or version out of range)."""


@dataclasses.dataclass(frozen=True)
class Step:
    """One version of the game: the event that made it and the state after it
    (``state`` None when the source holds no states: ``Timeline.note`` says why)."""

    version: int
    event: game_pb2.Event
    state: game_pb2.GameState | None


class Timeline(Protocol):
    """A game's versions as one reader sees them, from either source."""

    game_id: str
    rules: str
    rules_version: str
    seats: list[str]
    last: int
    reader: str
    #: Why the steps carry no states ("" when they do).
    note: str

    def step(self, version: int) -> Step: ...


def reader_name(seat: int | None, seats: Sequence[str]) -> str:
    """``Bo (Player 2)`` or ``a spectator``: who the replay is shown to."""
    if seat is None:
        return "a spectator"
    return seat_title(seat, seats)


# --- a game on the server ------------------------------------------------------


class ServerTimeline:
    """A game read from the server: ``History`` once, ``GetState(version=N)``
    per version shown (kept, so stepping back costs no call)."""

    def __init__(self, client: ArbiterClient, game_id: str, seat: int | None,
                 token: str | None) -> None:
        self.client = client
        self.game_id = game_id
        self.seat = seat
        self.token = token
        self.spectator = seat is None
        now = client.state(game_id, seat or 0, self.spectator, token=token)
        self.events = {ev.version: ev for ev in
                       client.history(game_id, seat or 0, self.spectator, token=token)}
        self.rules = now.rules
        self.rules_version = now.rules_version
        self.seats = list(now.seats)
        self.last = now.version
        self.reader = reader_name(seat, self.seats)
        self.note = ""
        self._states: dict[int, game_pb2.GameState] = {now.version: now}
        if not now.over:
            self._as_reader(loadable(RULES, self.rules, self.rules_version))

    def _as_reader(self, game_class: type[Game] | None) -> None:
        """Before the end, the admin's credential reads the full record: show
        each event as the chosen seat (or a spectator) read it, from the
        audience and public form recorded in its meta, as the server would."""
        for version, ev in list(self.events.items()):
            if not ev.meta_json:
                continue  # already as the reader got it (meta goes to full readers only)
            meta = loads_object(ev.meta_json)
            payload = loads_object(ev.payload_json)
            if game_class is not None:
                audience, public = recorded_audience(game_class, ev.type, payload, meta)
            elif "aud" in meta and ev.type != "Created":
                audience, public = Audience.from_meta(meta["aud"]), dict(meta.get("pub") or {})
            else:
                continue  # an event of unknown rules recorded before audiences were
            if audience.includes(self.seat):
                continue
            text = describe(game_class, ev.type, public, self.seats)
            shown = game_pb2.Event()
            shown.CopyFrom(ev)
            shown.payload_json = json.dumps(public, sort_keys=True, default=str)
            shown.redacted, shown.text, shown.meta_json = True, text, ""
            self.events[version] = shown

    def step(self, version: int) -> Step:
        state = self._states.get(version)
        if state is None:
            state = self.client.state(self.game_id, self.seat or 0, self.spectator,
                                      token=self.token, version=version)
            self._states[version] = state
        event = self.events.get(version) or game_pb2.Event(
            game_id=self.game_id, version=version, type="?", text="(not in the history)")
        return Step(version, event, state)


# --- a record file, offline -----------------------------------------------------


class RecordTimeline:
    """An exported record replayed offline: its events folded through the rules
    version that recorded it, each state drawn for ``seat`` (None: a spectator)."""

    def __init__(self, header: Mapping[str, Any], lines: list[dict[str, Any]],
                 seat: int | None, registry: Registry | None = None) -> None:
        try:
            self.records: list[Record] = records_of(dict(header), lines)
        except RecordError as exc:
            raise ReplayError(str(exc)) from None
        if not self.records or self.records[0].type != "Created":
            raise ReplayError("the record does not start with the creation event")
        self.lines = lines
        created = self.records[0].payload
        check_header(header, created)
        self.game_id = str(header.get("game_id") or self.records[0].game_id)
        self.rules = str(created.get("rules") or header.get("rules", ""))
        self.rules_version = str(created.get("rules_version") or header.get("rules_version", ""))
        self.seats = [str(s) for s in created.get("seats") or header.get("seats") or []]
        if seat is not None and not 0 <= seat < len(self.seats):
            raise ReplayError(f"the game has seats 0 to {len(self.seats) - 1}, not {seat}")
        self.seat = seat
        self.last = self.records[-1].version
        self.reader = reader_name(seat, self.seats)
        #: Once the game is over its whole record is everyone's, as on the server.
        self.over = self.records[-1].type == "Ended"
        known = RULES if registry is None else registry
        self.game_class = loadable(known, self.rules, self.rules_version)
        redacted = [bool(line.get("redacted")) for line in lines]
        self.note = ""
        if self.game_class is None:
            self.note = (f"This game was {not_loadable(self.rules, self.rules_version, known)}: "
                         "its events are shown as their types and payloads, without the "
                         "states (their recorded sentences cannot be checked without those "
                         "rules).")
        elif not foldable(self.records, redacted):
            read_as = header.get("reader") or "a seat or a spectator"
            self.note = (f"The states are not in this record: it was read before the end "
                         f"(as {read_as}), without the seed and the hidden payloads; its "
                         "events are shown as read. To see the states, replay the game "
                         "from the server: arbiter replay GAME_ID --seat N.")
        self._states: dict[int, game_pb2.GameState | None] = {}
        self._folds: Iterator[Game] | None = None
        self._at = 0

    def step(self, version: int) -> Step:
        index = version - self.records[0].version
        if not 0 <= index < len(self.records):
            raise ReplayError(f"the record has versions 1 to {self.last}, not {version}")
        return Step(version, self._event(index), self._state(version))

    def _state(self, version: int) -> game_pb2.GameState | None:
        """The state after ``version``, folded forward (again from the start
        only when stepping back to a version not yet drawn)."""
        if self.note or self.game_class is None:
            return None
        if version in self._states:
            return self._states[version]
        if self._folds is None or version < self._at:
            self._folds, self._at = folding(self.records, self.game_class), 0
        try:
            while self._at < version:
                game = next(self._folds)
                self._at = game.version
                if self._at == version:
                    self._states[version] = state_of(game, self.seat, self.over)
        except Exception:  # noqa: BLE001 - a damaged record: shown, and verify names it
            self._folds, self._at = None, 0
            self._states[version] = None
        return self._states.get(version)

    def _event(self, index: int) -> game_pb2.Event:
        """The event at ``index`` as this replay's reader may read it."""
        rec, line = self.records[index], self.lines[index]
        payload, redacted = rec.payload, bool(line.get("redacted"))
        audience = self._audience(rec, line)
        hidden = False
        # A full record (with meta) is redacted here for the reader; a reader's own
        # record (no meta) already is, but for the events it read in full.
        full_line = rec.meta is not None or not redacted
        if not self.over and full_line and not audience.includes(self.seat):
            if rec.meta is not None and self.game_class is not None:
                _, payload = recorded_audience(self.game_class, rec.type, rec.payload, rec.meta)
            elif rec.meta is not None and "pub" in rec.meta:
                payload = dict(rec.meta.get("pub") or {})
            else:
                payload, hidden = {}, True
            redacted = True
        if hidden:
            who = ", ".join(seat_name(s, self.seats) for s in sorted(audience.seats or ()))
            text = f"(a private event of {who or 'no one'})"
        else:
            text = self._describe(rec.type, payload)  # never the file's own (unchecked) words
        return game_pb2.Event(
            game_id=self.game_id, version=rec.version, type=rec.type,
            payload_json=json.dumps(payload, sort_keys=True, default=str), redacted=redacted,
            rules=self.rules, text=text, digest=rec.digest, prev_digest=rec.prev,
        )

    def _audience(self, rec: Record, line: Mapping[str, Any]) -> Audience:
        """Who may read the event: from its meta when recorded there (as the
        server decides it), else from the line's audience."""
        if rec.meta is not None and self.game_class is not None:
            return recorded_audience(self.game_class, rec.type, rec.payload, rec.meta)[0]
        if rec.meta is not None and "aud" in rec.meta and rec.type != "Created":
            return Audience.from_meta(rec.meta["aud"])
        told = line.get("audience") or {}
        if not isinstance(told, Mapping) or told.get("everyone", True):
            return Audience()
        return Audience(frozenset(int(s) for s in told.get("seats") or ()))

    def _describe(self, kind: str, payload: Mapping[str, Any]) -> str:
        return describe(self.game_class, kind, payload, self.seats)


def describe(game_class: type[Game] | None, kind: str, payload: Mapping[str, Any],
             seats: Sequence[str]) -> str:
    """The rules' sentence for an event, as the server tells it (generic when
    they are not loadable)."""
    if game_class is not None:
        return event_sentence(game_class, kind, payload, seats)
    return describe_event(kind, payload)


def check_header(header: Mapping[str, Any], created: Mapping[str, Any]) -> None:
    """A header naming other rules, another version or other seats than the
    creation event records is refused (``ReplayError``): the replay would be
    titled with words the record does not hold."""
    for field in CREATED_FIELDS:
        stated, recorded = header.get(field), created.get(field)
        if stated is not None and recorded is not None and stated != recorded:
            raise ReplayError(
                f"the record's header says {field.replace('_', ' ')} {stated!r}, but its "
                f"creation event records {recorded!r}: the file was edited (arbiter verify "
                "FILE names what else was)")


def foldable(records: Sequence[Record], redacted: Sequence[bool]) -> bool:
    """Whether a record holds every state: each event's meta (only the full
    record carries it) and no redacted payload but the creation's, whose seed
    the full record leaves out before the end. The seed is not needed (no die
    is drawn on a fold), so the admin's record of a game still running folds."""
    return (bool(records) and all(r.meta is not None for r in records)
            and not any(redacted[1:]))


def state_of(game: Game, seat: int | None, over: bool) -> game_pb2.GameState:
    """A folded game as ``seat`` sees it, in the shape the server sends
    (``GameState``), so both sources are drawn by one renderer."""
    try:
        pending = [game_pb2.Decision(seat=d.seat, kind=d.kind, prompt=d.prompt,
                                     hidden=d.hidden, id=d.id)
                   for d in game.pending_decisions()]
    except Exception:  # noqa: BLE001 - a game mid-setup (version 1) may wait on no one yet
        pending = []
    return game_pb2.GameState(
        game_id=str(game.id), rules=game.RULES_ID, version=game.version, over=game.ended,
        outcome_json=json.dumps(outcome_of(game), default=str),
        pending=pending,
        view_json=json.dumps(game.view(seat), sort_keys=True, default=str),
        screen_json=json.dumps(game.present(seat).to_json(), sort_keys=True, default=str),
        seed_commitment=game.commitment, seed=game.seed if over else "",
        head_digest=game.head, seats=list(game.seats), rules_version=game.rules_version,
    )


def outcome_of(game: Game) -> dict[str, Any]:
    """The folded game's ``outcome_json``, as the server derives it
    (``kernel.outcome``), its breakdown in the rules' own key order."""
    shared = outcome_json(game)
    return {**shared, "breakdown": _outcome(game)} if shared else shared


def _outcome(game: Game) -> dict[str, Any]:
    """The recorded outcome in the rules' own key order, as the server shows it:
    a record's lines are written with sorted keys, and the renderer lists an
    outcome's fields in order. The rules' fresh outcome is used only when it
    equals the recorded one."""
    recorded = dict(game.outcome or {})
    if not game.ended:
        return recorded
    try:
        fresh = game.finished()
    except Exception:  # noqa: BLE001 - the recorded outcome is the fact
        return recorded
    return fresh if fresh == recorded else recorded


def open_record(path: str, seat: int | None, registry: Registry | None = None
                ) -> RecordTimeline:
    """A record file's timeline (``ReplayError`` when it is not a record)."""
    try:
        with open(path, encoding="utf-8") as handle:
            header, lines = read_record(handle)
    except OSError as exc:
        raise ReplayError(f"cannot read {path}: {exc.strerror}") from None
    except RecordError as exc:
        raise ReplayError(f"{path} is not an Arbiter record: {exc}") from None
    return RecordTimeline(header, lines, seat, registry)


# --- drawing ------------------------------------------------------------------------


def render_title(timeline: Timeline) -> list[str]:
    """What is replayed, to whom, and (when there are no states) why."""
    lines = [f"Replay of {timeline.rules} v{timeline.rules_version} game {timeline.game_id}: "
             f"versions 1 to {timeline.last}, as {timeline.reader}"]
    if timeline.note:
        lines.append(timeline.note)
    return lines


def render_step(timeline: Timeline, step: Step) -> list[str]:
    """One step as ``arbiter play`` draws a turn: the event, the screen, then who
    the game waits on (or its outcome)."""
    redacted = " (its private part hidden from you)" if step.event.redacted else ""
    lines = [f"--- {timeline.rules} game {timeline.game_id}, version {step.version} "
             f"of {timeline.last} ---",
             f"Event v{step.version}: {event_text(step.event)}{redacted}"]
    state = step.state
    if state is None:
        return lines
    lines.extend(state_lines(state))
    return lines


def write(out: TextIO, lines: Sequence[str]) -> None:
    """Write lines and flush, so a piped transcript is never behind."""
    for line in lines:
        out.write(line + "\n")
    out.flush()


def check_version(timeline: Timeline, version: int) -> int:
    if not 1 <= version <= timeline.last:
        raise ReplayError(f"the game has versions 1 to {timeline.last}, not {version}")
    return version


def print_to(timeline: Timeline, version: int, out: TextIO) -> int:
    """``--to N``: one version, then exit."""
    check_version(timeline, version)
    write(out, render_title(timeline))
    write(out, render_step(timeline, timeline.step(version)))
    return 0


def print_all(timeline: Timeline, out: TextIO) -> int:
    """``--all``: every step in order, then exit."""
    write(out, render_title(timeline))
    for version in range(1, timeline.last + 1):
        write(out, ["", *render_step(timeline, timeline.step(version))])
    return 0


def parse_key(text: str, version: int, last: int) -> int | str:
    """The version a key asks for, or a sentence (``"quit"`` to leave) saying
    why it moves nowhere."""
    word = text.strip().lower()
    if word in QUIT_WORDS:
        return "quit"
    if word in NEXT_WORDS:
        return version + 1 if version < last else "This is the last version."
    if word in PREV_WORDS:
        return version - 1 if version > 1 else "This is the first version."
    target = word[1:].strip() if word.startswith("g") else word
    if target.isdigit():
        if 1 <= int(target) <= last:
            return int(target)
        return f"The game has versions 1 to {last}."
    return f"Keys: {KEYS}."


def interact(timeline: Timeline, stdin: TextIO, out: TextIO, start: int = 1) -> int:
    """Step with keys until q or the end of input (an input that is not a
    terminal is echoed, so a piped session reads as a transcript)."""
    version = check_version(timeline, start)
    echo = not _isatty(stdin)
    write(out, [*render_title(timeline), f"Keys: {KEYS}."])
    write(out, ["", *render_step(timeline, timeline.step(version))])
    while True:
        out.write(f"[v{version}/{timeline.last}] > ")
        out.flush()
        line = stdin.readline()
        if not line:
            write(out, [""])
            return 0
        if echo:
            write(out, [line.strip()])
        moved = parse_key(line, version, timeline.last)
        if moved == "quit":
            return 0
        if isinstance(moved, str):
            write(out, [moved])
            continue
        version = moved
        write(out, ["", *render_step(timeline, timeline.step(version))])


def run(timeline: Timeline, to: int | None, every: bool, stdin: TextIO, out: TextIO) -> int:
    """The chosen mode: ``--to N``, ``--all``, or interactive keys."""
    if to is not None:
        return print_to(timeline, to, out)
    if every:
        return print_all(timeline, out)
    return interact(timeline, stdin, out)


def _isatty(stream: TextIO) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False
