"""Re-verification of a recorded game from its events alone.

Three independent checks, each of which a third party can repeat once the
seed is revealed:

1. the hash chain: every digest recomputed, every link to its predecessor;
2. the dice: the seed matches its public commitment, every draw is
   ``rng.draw(dice_seed, counter, sides)`` and the counters run without a gap,
   where the dice seed mixes the server's seed with every entropy
   contribution recorded before the draw (``rng.dice_seed``; with none, the
   server's seed itself, as for every game recorded before contributions);
3. re-execution: the game is rebuilt from its creation event and every
   recorded command is played again; it must produce exactly the recorded
   events (types, payloads, dice), which proves each move was legal and each
   consequence followed from the rules.

An event recorded in an older shape is read upcast (``aggregates.kernel.upcast``):
the chain is checked over its payload as stored, re-execution against the
current shape re-derived from that stored form.
"""

from __future__ import annotations

import contextlib
import dataclasses
import datetime
import marshal
import uuid
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, Protocol

from eventsourcing.utils import get_topic

from aggregates.kernel import chain, rng, upcast
from aggregates.kernel.clocks import DEFAULT_COMMAND
from aggregates.kernel.entropy import ENTROPY_EVENT
from aggregates.kernel.errors import RuleError
from aggregates.kernel.game import Game, _event_class
from aggregates.kernel.recording import payload_of


@dataclasses.dataclass(frozen=True)
class Record:
    """One recorded event as plain data: what a stored event, a ``History``
    envelope or a line of an exported record all reduce to.

    ``meta`` is None when the reader did not get the kernel's record (a seat's
    or a spectator's read of a game in progress).
    """

    game_id: str
    version: int
    type: str
    time: str
    payload: dict[str, Any]
    meta: dict[str, Any] | None
    digest: str
    prev: str


def make_record(game_id: str, version: int, kind: str, time: str,
                payload: dict[str, Any], meta: dict[str, Any]) -> Record:
    """A ``Record`` of a kernel record's fields, its links read from ``meta``.

    Made without the frozen dataclass's ``__init__``, which sets each field
    through ``object.__setattr__``: an audit makes one per stored event, and
    that was a third of reading a row. The record is as frozen as one made
    by its constructor (its ``__setattr__`` still refuses)."""
    rec = object.__new__(Record)
    vars(rec).update(game_id=game_id, version=version, type=kind, time=time,
                     payload=payload, meta=meta, digest=str(meta.get("digest", "")),
                     prev=str(meta.get("prev", "")))
    return rec


def record_of(ev: Any, game_id: str = "") -> Record:
    """A stored domain event as a plain record (``game_id``: its originator
    id as text, when the caller has it)."""
    return make_record(game_id or str(ev.originator_id), ev.originator_version,
                       upcast.current_type(ev), ev.timestamp.isoformat(), payload_of(ev),
                       dict(ev.meta))


def records_of(events: Iterable[Any]) -> list[Record]:
    """``record_of`` for each of a game's events, each game id's text made
    once (a ``UUID`` formats itself in Python, on every call)."""
    ids: dict[Any, str] = {}
    out: list[Record] = []
    for ev in events:
        oid = ev.originator_id
        game_id = ids.get(oid)
        if game_id is None:
            game_id = ids[oid] = str(oid)
        out.append(record_of(ev, game_id))
    return out


@dataclasses.dataclass
class AuditReport:
    events: int = 0
    dice: int = 0
    commands: int = 0
    chain_ok: bool = True
    dice_ok: bool = True
    replay_ok: bool = True
    problems: list[str] = dataclasses.field(default_factory=list)
    #: The first version found wrong by any check (0: none).
    first_failure: int = 0

    @property
    def ok(self) -> bool:
        return self.chain_ok and self.dice_ok and self.replay_ok

    def fail(self, check: str, problem: str, version: int = 0) -> None:
        setattr(self, f"{check}_ok", False)
        if version and (not self.first_failure or version < self.first_failure):
            self.first_failure = version
        # At most 20 per check, so one check's flood never hides another's first word.
        if sum(p.startswith(f"{check}:") for p in self.problems) < 20:
            self.problems.append(f"{check}: {problem}")


class ReplayWatch(Protocol):
    """Who looks at the re-executed game between commands (the server's audit
    compares its stored snapshots with it): the game is the state the
    recorded events make at those versions as long as every event so far was
    re-executed as recorded, so a second fold of the events is not needed."""

    def before(self, game: Game, first: int, last: int) -> None:
        """The command recorded at versions ``first``..``last`` is about to be
        re-executed on ``game``, which is at version ``first - 1``."""

    def after(self, game: Game, version: int) -> None:
        """``game`` is re-executed up to ``version``, the last of a command's
        events (or of the creation's)."""


def audit(events: Sequence[Any], game_class: type[Game], damaged: int = 0) -> AuditReport:
    """Check a game's stored events (in version order) against all three proofs;
    ``damaged``: see ``audit_records``."""
    return audit_records(records_of(events), game_class, damaged)


def audit_records(
    records: Sequence[Record], game_class: type[Game], damaged: int = 0,
    watch: ReplayWatch | None = None,
) -> AuditReport:
    """The three proofs over plain records (each with its meta): the server's
    stored events and an exported record's lines alike.

    ``damaged``: the version of a stored event whose bytes do not parse (0:
    none), after ``records``; the records before it are checked, and the
    audit fails at it, so the report names where the store is damaged.
    ``watch``: shown the re-executed game between commands (``ReplayWatch``).
    """
    report = AuditReport(events=len(records))
    if damaged:
        report.fail("chain", f"version {damaged} is damaged: its stored bytes do not "
                    "parse; nothing from it on is checked", damaged)
    if not records:
        if not damaged:
            report.fail("chain", "no events", 1)
        return report
    seed = records[0].payload.get("seed", "")
    check_dice(records, seed, report)  # first: a seed off its commitment says it all
    check_chain(records, seed, report)
    check_replay(records, game_class, report, cut=bool(damaged), watch=watch)
    return report


def check_links(records: Sequence[Record], report: AuditReport) -> None:
    """Versions without a gap, each record linked to the digest before it:
    what anyone can check without the seed."""
    prev = chain.GENESIS
    expected = 1
    for rec in records:
        if rec.version != expected:
            missing = expected if rec.version > expected else rec.version
            report.fail("chain", f"version {rec.version} where {expected} was due", missing)
        if rec.prev != prev:
            report.fail("chain", f"version {rec.version} does not link to its predecessor",
                        rec.version)
        prev = rec.digest
        expected = rec.version + 1


def check_chain(records: Sequence[Record], seed: str, report: AuditReport) -> None:
    """Every digest recomputed (with its seed-derived salt) and linked to the one before."""
    try:
        salt_of = chain.salter(seed)
    except (TypeError, ValueError):
        report.fail("chain", "the seed is not hex", 1)
        return
    check_links(records, report)
    prev = chain.GENESIS
    for rec in records:
        payload: Mapping[str, Any] = rec.payload
        meta: Mapping[str, Any] = rec.meta or {}
        kind = rec.type
        if upcast.STORED in meta:
            # Over the payload as stored: an upcast event keeps it in its meta.
            payload, meta = upcast.stored_form(payload, meta)
            kind = upcast.stored_type(rec.type, rec.meta)
        recomputed = chain.digest(
            prev, rec.game_id, rec.version, kind, rec.time, payload, meta, salt_of(rec.version),
        )
        if recomputed != rec.digest:
            report.fail("chain", f"version {rec.version} digest does not match", rec.version)
        prev = rec.digest


def added_entropy(kind: str, payload: Mapping[str, Any]) -> list[str]:
    """The entropy contributions one record adds to the dice seed: those sent
    with the creation request, or one seat's ``EntropyAdded``."""
    if kind == "Created":
        return [str(e) for e in payload.get("entropy") or []]
    if kind == ENTROPY_EVENT:
        return [str(payload.get("entropy", ""))]
    return []


def contribution_used(records: Sequence[Record], entropy_hex: str) -> int:
    """The version that recorded the contribution ``entropy_hex`` (0: none did).

    A recorded contribution is mixed into every die drawn after it, which
    ``check_dice`` re-derives; so recorded here and the dice verified means
    the contribution was used.
    """
    try:
        wanted = bytes.fromhex(entropy_hex).hex()
    except ValueError:
        return 0
    for rec in records:
        if wanted in added_entropy(rec.type, rec.payload):
            return rec.version
    return 0


def check_dice(records: Sequence[Record], seed: str, report: AuditReport) -> None:
    """The seed against its commitment, and every die re-derived from the
    seed and the contributions recorded up to its event."""
    commitment = records[0].payload.get("commitment", "")
    try:
        if rng.commitment(seed) != commitment:
            report.fail("dice", "the seed does not match its commitment", 1)
            return
    except (TypeError, ValueError):
        report.fail("dice", "the seed is not hex", 1)
        return
    counter = 0
    contributions: list[str] = []
    dice_seed = seed
    for rec in records:
        meta = rec.meta or {}
        added = added_entropy(rec.type, rec.payload)
        if added:
            contributions.extend(added)
            try:
                dice_seed = rng.dice_seed(seed, contributions)
            except ValueError:
                report.fail("dice", f"version {rec.version} records entropy that is not hex",
                            rec.version)
                return
        for drawn_counter, sides, value in meta.get("draws", []):
            report.dice += 1
            if drawn_counter != counter:
                report.fail("dice", f"draw {drawn_counter} where {counter} was due", rec.version)
            if rng.draw(dice_seed, drawn_counter, sides) != value:
                report.fail("dice", f"draw {drawn_counter} (D{sides}) was not {value}",
                            rec.version)
            counter = drawn_counter + 1
        if meta.get("rng") != counter:
            report.fail("dice", f"version {rec.version} rng counter is off", rec.version)


#: Meta keys Kernel 2 added: an event recorded before them has nothing to compare.
KERNEL2_META = ("aud", "pub")


def _fingerprint(rec: Record, legacy: bool = False,
                 leave_out: tuple[str, ...] = ()) -> tuple[str, str, str]:
    """What must be equal on re-execution: type, payload, and meta (less the
    chain links, which the chain check covers). ``legacy``: compare with an
    event recorded before audiences were recorded, so leave those out.
    ``leave_out``: facts an upcast event never recorded (``kernel.upcast``)."""
    skip = ("digest", "prev", *KERNEL2_META) if legacy else ("digest", "prev")
    payload, kept = upcast.comparable(rec.payload, rec.meta, leave_out)
    meta = {k: v for k, v in kept.items() if k not in skip}
    return (rec.type, chain.canonical(payload), chain.canonical(meta))


def upcast_record(rec: Record, game_class: type[Game]) -> Record:
    """A record in the shape the current rules record its event (an exported
    record of an older release may hold the old shape, or an old type); ``kernel.upcast``."""
    typed = upcast.upcast_typed(game_class, rec.type, rec.payload, rec.meta)
    if typed is not None:
        return dataclasses.replace(rec, type=typed[0], payload=typed[1], meta=typed[2])
    try:
        event_class = _event_class(game_class, rec.type)
    except TypeError:
        return rec  # the kernel's own events, and types the replay will refuse
    payload, meta = upcast.upcast_payload(event_class, rec.payload, rec.meta)
    return dataclasses.replace(rec, payload=payload, meta=meta)


def rebuild(created: Record, game_class: type[Game]) -> Game:
    """The game as its creation record made it (before ``begin``)."""
    event_class: Any = game_class.Created  # type: ignore[attr-defined]
    ev = event_class(
        originator_id=uuid.UUID(created.game_id), originator_version=1,
        timestamp=datetime.datetime.fromisoformat(created.time),
        originator_topic=get_topic(game_class), meta=dict(created.meta or {}),
        # A game recorded before entropy contributions has no such field; a
        # full record read before the end has no seed (nobody reads it then):
        # the game folds without it, and no die is drawn on a fold.
        **{"entropy": [], "seed": "", **created.payload},
    )
    game = ev.mutate(None)
    assert isinstance(game, Game)
    return game


def replay_steps(records: Sequence[Record]) -> list[tuple[int, int]]:
    """The re-executed steps after the creation, each as (its index in
    ``records``, the version of the last event it recorded): a recorded
    command, or a seat's entropy contribution; a step's events run up to the
    next step's."""
    starts = [i for i in range(1, len(records))
              if (records[i].meta or {}).get("cmd") is not None
              or records[i].type == ENTROPY_EVENT]
    lasts = [records[j].version - 1 for j in starts[1:]]
    if starts:
        lasts.append(records[-1].version)
    return list(zip(starts, lasts, strict=True))


def check_replay(
    records: Sequence[Record], game_class: type[Game], report: AuditReport, cut: bool = False,
    watch: ReplayWatch | None = None,
) -> None:
    """Rebuild from the creation event and play every recorded command again.
    ``cut``: the records stop short of the game (at a damaged event), so the
    events a last command makes beyond them are not a failure. ``watch``:
    shown the game between commands while every event so far is re-executed
    as recorded (``ReplayWatch``)."""
    created = records[0]
    try:
        if created.type != "Created" or created.payload.get("rules") != game_class.RULES_ID:
            raise ValueError("not this game's creation event")
        game = rebuild(created, game_class)
    except Exception as exc:  # a corrupt creation event cannot be rebuilt
        report.fail("replay", f"cannot rebuild from the creation event: {exc}", 1)
        return
    game.unchained = True  # the digests are the chain check's (see ``Recording``)
    game.begin()
    compared = Comparison(records[1:], game_class)
    compared.add(game.collect_events())
    if watch is not None and compared.differs < 0:
        watch.after(game, 1 + compared.made)
    for index, last in replay_steps(records):
        rec = records[index]
        if watch is not None and compared.differs < 0 and compared.made == rec.version - 2:
            watch.before(game, rec.version, last)
        if not replay_step(game, rec, game_class, report):
            return
        compared.add(game.collect_events())
        if watch is not None and compared.differs < 0:
            watch.after(game, 1 + compared.made)
    compared.conclude(report, cut)


def replay_step(game: Game, rec: Record, game_class: type[Game], report: AuditReport) -> bool:
    """Re-execute the step ``rec`` starts on ``game``: its command, or a
    seat's contribution (no command, but the dice after it depend on it, so
    it is re-recorded where it was recorded). False, the failure reported,
    when the step is refused or cannot be replayed."""
    command = (rec.meta or {}).get("cmd")
    if command is None:
        try:
            game.contribute(int(rec.payload["seat"]), str(rec.payload["entropy"]))
        except Exception as exc:  # noqa: BLE001 - a tampered contribution
            report.fail("replay", f"version {rec.version}: the contribution cannot be "
                        f"replayed ({type(exc).__name__})", rec.version)
            return False
        return True
    report.commands += 1
    try:
        if command["name"] == DEFAULT_COMMAND:
            game.act_default(command["seat"])
        else:
            parsed = game_class.COMMANDS.parse(command["name"], command["args"])
            game.act(command["seat"], parsed, command.get("id", ""))
    except RuleError as exc:
        # The reason code only: the rule's sentence may quote private arguments.
        report.fail(
            "replay", f"version {rec.version}: refused on replay ({exc.reason})", rec.version
        )
        return False
    except Exception as exc:  # noqa: BLE001 - a tampered command may not even parse
        report.fail("replay", f"version {rec.version}: cannot be replayed ({exc})",
                    rec.version)
        return False
    return True


#: The chain's links in a meta record: the chain check's, not compared on re-execution.
_LINKS = ("digest", "prev")
#: ``marshal``'s format 2: exact types and values; format 3 on marks objects
#: met twice and interned strings, which would part equal values.
_MARSHAL_FORMAT = 2


class Comparison:
    """The re-executed events against the recorded ones, position by position,
    as the replay makes them (so no re-executed event outlives its comparison).

    The verdict is the one a comparison of every event after the replay would
    give (``conclude``): the first position that fails names the failure,
    and a replay refused anywhere is reported instead (``check_replay``
    returns before concluding).
    """

    def __init__(self, recorded: Sequence[Record], game_class: type[Game]) -> None:
        self.recorded = recorded
        self.game_class = game_class
        #: How many events the replay has made so far.
        self.made = 0
        #: The position of the first re-executed event that differs (-1: none yet).
        self.differs = -1
        #: ``_shape`` of each type met, read once per audit.
        self.shapes: dict[str, Any] = {}

    def add(self, events: Iterable[Any]) -> None:
        """Compare newly re-executed events with the recorded ones at their positions."""
        recorded = self.recorded
        for ev in events:
            index = self.made
            self.made += 1
            if self.differs < 0 and index < len(recorded) and not self.same(recorded[index], ev):
                self.differs = index

    def same(self, served: Record, ev: Any) -> bool:
        """Whether the re-executed ``ev`` is the recorded ``served`` in type,
        payload and meta, less the chain's links (``_fingerprint``).

        An event recorded in the current shape (no upcast, audiences recorded:
        every event this release records) is compared without re-deriving
        its shape or copying it: by ``marshal`` format 2 first, whose bytes
        are equal only for values of the same types (``True``, ``1`` and
        ``1.0`` apart, as in canonical JSON), contents and key order (the
        format marks no shared or interned object), so equal bytes are equal
        canonical JSON; else (bytes apart, or a value marshal does not
        write) by their canonical JSON, exactly as ``_fingerprint`` compares
        them (a tuple and a list, or keys in another order, are the same).
        """
        meta = served.meta
        if meta is None or "aud" not in meta or upcast.STORED in meta \
                or not self.as_recorded(served.type, served.payload):
            return self.same_upcast(served, ev)
        if served.type != upcast.current_type(ev):
            return False
        payload, made = payload_of(ev), ev.meta
        # The recorded meta with the re-executed links, which are left out of
        # the comparison: in place, so the keys keep their order.
        linked = {**meta, "prev": made.get("prev"), "digest": made.get("digest")}
        with contextlib.suppress(ValueError):
            if (marshal.dumps((served.payload, linked), _MARSHAL_FORMAT)
                    == marshal.dumps((payload, made), _MARSHAL_FORMAT)):
                return True
        return (chain.canonical(served.payload) == chain.canonical(payload)
                and chain.canonical({k: v for k, v in meta.items() if k not in _LINKS})
                == chain.canonical({k: v for k, v in made.items() if k not in _LINKS}))

    def as_recorded(self, kind: str, payload: Mapping[str, Any]) -> bool:
        """``_as_recorded``, its look-ups made once per type in this audit
        (``_shape``): only a type with upcast steps reads the payload."""
        shape = self.shapes.get(kind)
        if shape is None:
            shape = self.shapes[kind] = _shape(self.game_class, kind)
        if isinstance(shape, bool):
            return shape
        return upcast.stored_version(shape, payload) > len(shape.upcast_steps)

    def same_upcast(self, served: Record, ev: Any) -> bool:
        """``same`` for any record: in the current shape re-derived from its
        stored form, legacy audiences and unrecorded facts left out."""
        rec = upcast_record(served, self.game_class)
        legacy = "aud" not in (rec.meta or {})
        leave_out = upcast.unrecorded(rec.meta)
        return (_fingerprint(rec, legacy, leave_out)
                == _fingerprint(record_of(ev), legacy, leave_out))

    def conclude(self, report: AuditReport, cut: bool) -> None:
        """Report the first recorded event that fails: not the upcast of its
        stored form, not re-executed, or differing; then events made beyond
        the record (unless ``cut``)."""
        recorded = self.recorded
        for index, served in enumerate(recorded):
            if upcast.STORED in (served.meta or {}) and (
                    chain.canonical(served.payload)
                    != chain.canonical(upcast_record(served, self.game_class).payload)):
                report.fail("replay", f"version {served.version} is not the upcast of its "
                            "stored form", served.version)
                return
            if index >= self.made:
                report.fail("replay", f"version {served.version} was recorded but not "
                            "re-executed", served.version)
                return
            if index == self.differs:
                report.fail("replay", f"version {served.version} differs on re-execution",
                            served.version)
                return
        if self.made > len(recorded) and not cut:
            version = recorded[-1].version + 1 if recorded else 2
            report.fail("replay", f"{len(recorded)} events recorded, {self.made} re-executed",
                        version)


def _as_recorded(game_class: type[Game], kind: str, payload: Mapping[str, Any]) -> bool:
    """Whether ``upcast_record`` leaves a record of ``kind`` (with no stored
    form in its meta) as it is: its type is read as itself (``upcast.retype``)
    and its payload is in its class's latest shape. Read afresh each time
    (the class look-up is cached), so upcasts declared later still count."""
    shape = _shape(game_class, kind)
    if isinstance(shape, bool):
        return shape
    return upcast.stored_version(shape, payload) > len(shape.upcast_steps)


def _shape(game_class: type[Game], kind: str) -> Any:
    """What ``_as_recorded`` needs of a type: False for a type read as another
    one, True for one with nothing to upcast (the kernel's own events and types
    the replay will refuse among them), else its event class, whose payload's
    keys say its stored shape."""
    if kind in getattr(game_class, "retyped", {}):
        return False
    try:
        event_class = _event_class(game_class, kind)
    except TypeError:
        return True
    return event_class if getattr(event_class, "upcast_steps", ()) else True
