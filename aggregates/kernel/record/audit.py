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

An event recorded in an older shape is read upcast (``aggregates.kernel.record.upcast``):
the chain is checked over its payload as stored, re-execution against the
current shape re-derived from that stored form.

The records themselves are ``aggregates.kernel.record.recorded``'s; the comparison of
each re-executed event with its record, ``aggregates.kernel.record.comparison``'s.
"""

from __future__ import annotations

import datetime
import marshal
import uuid
from collections.abc import Callable, Container, Mapping, Sequence
from typing import Any, Protocol, TypeVar

from eventsourcing.utils import get_topic

from aggregates.kernel.clocks import DEFAULT_COMMAND
from aggregates.kernel.errors import RuleError
from aggregates.kernel.game import Game
from aggregates.kernel.record import chain, rng, upcast
from aggregates.kernel.record.comparison import Comparison
from aggregates.kernel.record.entropy import ENTROPY_EVENT
from aggregates.kernel.record.recorded import (
    AuditReport,
    Record,
    make_record,
    record_of,
    records_of,
    upcast_record,
)

#: The records' names, read from here by the server, the verifier and the tools.
__all__ = [
    "AuditReport", "Comparison", "ParsedCommands", "Record", "ReplayWatch", "added_entropy",
    "audit",
    "audit_records", "check_chain", "check_commitment", "check_dice", "check_draws",
    "check_links", "check_replay",
    "contribution_used", "make_record", "rebuild", "record_of", "records_of",
    "RE_EXECUTION_STATE", "re_executing", "replay_step", "replay_steps", "upcast_record",
]

G = TypeVar("G", bound=Game)


class ReplayWatch(Protocol):
    """Who looks at the re-executed game as each event is applied (the
    server's audit compares its stored snapshots with it): the game is the
    state the recorded events make at that version as long as every event so
    far was re-executed as recorded, so a second fold of the events is not
    needed, nor a copy of the game before a command whose events a snapshot
    falls among."""

    def after(self, game: Game, version: int) -> None:
        """``game`` is re-executed up to ``version`` (the creation's, or any
        event's, within a command or at its end), every event up to it as
        recorded. A watch with a ``wanted`` set of versions is shown those
        alone (beside the creation's): one set look-up an event, not a call."""


def audit(events: Sequence[Any], game_class: type[Game], damaged: int = 0) -> AuditReport:
    """Check a game's stored events (in version order) against all three proofs;
    ``damaged``: see ``audit_records``."""
    return audit_records(records_of(events), game_class, damaged)


def audit_records(
    records: Sequence[Record], game_class: type[Game], damaged: int = 0,
    watch: ReplayWatch | None = None, float_free: Container[int] = (),
) -> AuditReport:
    """The three proofs over plain records (each with its meta): the server's
    stored events and an exported record's lines alike.

    ``damaged``: the version of a stored event whose bytes do not parse (0:
    none), after ``records``; the records before it are checked, and the
    audit fails at it, so the report names where the store is damaged.
    ``watch``: shown the re-executed game between commands (``ReplayWatch``).
    ``float_free``: the versions whose records the reader knows to hold no
    float (``check_chain``).
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
    committed = check_commitment(records, seed, report)  # first: it says it all
    check_chain(records, seed, report, float_free)
    proven = check_replay(records, game_class, report, cut=bool(damaged), watch=watch)
    if committed:
        check_draws(records, seed, report, proven)
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


def check_chain(records: Sequence[Record], seed: str, report: AuditReport,
                float_free: Container[int] = ()) -> None:
    """Every digest recomputed (with its seed-derived salt) and linked to the one before.

    ``float_free``: the versions whose payload and meta the reader knows to
    hold no float (its JSON decoder met none): their canonical text may be
    written by the faster encoder (``chain.digest``'s ``float_free``)."""
    try:
        salt_of = chain.salter(seed)
    except (TypeError, ValueError):
        report.fail("chain", "the seed is not hex", 1)
        return
    # ``check_links`` and the digests in one pass over the records, the links'
    # failures reported first as ``check_links`` would have reported them.
    links: list[tuple[str, int]] = []
    digests: list[int] = []
    prev = chain.GENESIS
    expected = 1
    for rec in records:
        version = rec.version
        if version != expected:
            links.append((f"version {version} where {expected} was due",
                          expected if version > expected else version))
        if rec.prev != prev:
            links.append((f"version {version} does not link to its predecessor", version))
        payload: Mapping[str, Any] = rec.payload
        meta: Mapping[str, Any] = rec.meta or {}
        kind = rec.type
        plain = version in float_free
        if upcast.STORED in meta:
            # Over the payload as stored: an upcast event keeps it in its meta.
            payload, meta = upcast.stored_form(payload, meta)
            kind = upcast.stored_type(rec.type, rec.meta)
            plain = False  # a form the reader did not decode as it is
        recomputed = chain.digest(
            prev, rec.game_id, version, kind, rec.time, payload, meta, salt_of(version), plain,
        )
        if recomputed != rec.digest:
            digests.append(version)
        prev = rec.digest
        expected = version + 1
    for problem, version in links:
        report.fail("chain", problem, version)
    for version in digests:
        report.fail("chain", f"version {version} digest does not match", version)


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
    if check_commitment(records, seed, report):
        check_draws(records, seed, report)


def check_commitment(records: Sequence[Record], seed: str, report: AuditReport) -> bool:
    """Whether the seed matches the public commitment its creation records."""
    commitment = records[0].payload.get("commitment", "")
    try:
        if rng.commitment(seed) == commitment:
            return True
        report.fail("dice", "the seed does not match its commitment", 1)
    except (TypeError, ValueError):
        report.fail("dice", "the seed is not hex", 1)
    return False


def check_draws(records: Sequence[Record], seed: str, report: AuditReport,
                proven: int = 0) -> None:
    """Every die re-derived from the seed and the contributions recorded up
    to its event, its counter in sequence.

    ``proven``: how many records from the start the re-execution made
    exactly as recorded (``check_replay``). Their dice need no second
    derivation: the re-executed game drew each of them with ``rng.draw``
    from the same dice seed (the seed and the contributions its events
    applied) and the same counter, and its events' dice were compared equal
    to the recorded ones. The creation's are never among them (it is
    rebuilt from its record, not re-executed), nor is any die after the
    first record the re-execution did not make as recorded.
    """
    counter = 0
    contributions: list[str] = []
    dice_seed = seed
    index = 0
    while index < len(records):
        rec = records[index]
        meta = rec.meta or {}
        added = (added_entropy(rec.type, rec.payload)
                 if rec.type == "Created" or rec.type == ENTROPY_EVENT else None)
        if added:
            contributions.extend(added)
            try:
                dice_seed = rng.dice_seed(seed, contributions)
            except ValueError:
                report.fail("dice", f"version {rec.version} records entropy that is not hex",
                            rec.version)
                return
        derive = not 0 < index < proven
        for drawn_counter, sides, value in meta.get("draws", []):
            report.dice += 1
            if drawn_counter != counter:
                report.fail("dice", f"draw {drawn_counter} where {counter} was due", rec.version)
            if derive and rng.draw(dice_seed, drawn_counter, sides) != value:
                report.fail("dice", f"draw {drawn_counter} (D{sides}) was not {value}",
                            rec.version)
            counter = drawn_counter + 1
        if meta.get("rng") != counter:
            report.fail("dice", f"version {rec.version} rng counter is off", rec.version)
        elif index == 0 and proven > 1:
            # The creation's counter is right, so the records the re-execution
            # made as recorded are too: it drew their dice from that counter on,
            # one after another, and each record's ``rng`` is its game's
            # counter after them. Only their dice and contributions are counted.
            index, counter = proven, records[proven - 1].meta["rng"]  # type: ignore[index]
            as_made = records[1:proven]
            drawn: list[int] = [len(m.meta["draws"]) for m in as_made]  # type: ignore[index]
            report.dice += sum(drawn)
            for added_by in [m for m in as_made if m.type == ENTROPY_EVENT]:
                contributions.extend(added_entropy(added_by.type, added_by.payload))
            if len(contributions) > len(added or ()):
                dice_seed = rng.dice_seed(seed, contributions)
            continue
        index += 1


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


#: State only a re-executed game holds (``re_executing``): left out where it
#: is compared with the state a fold of the recorded events makes.
RE_EXECUTION_STATE = ("unchained", "CHECK_AGAINST_LEGAL_LIST", "on_applied")


def re_executing(game: G,
                 on_applied: Callable[[Any, Any, dict[str, Any] | None], None] | None = None,
                 ) -> G:
    """``game`` set to re-execute recorded commands as the audit does:

    - unchained: it makes no digests, which the chain check recomputes from
      the record itself (``Recording.unchained``), and shows each event it
      makes to ``on_applied`` (if given) as soon as it is applied, keeping
      none of them then;
    - each command judged by the checks of the decision's move alone, without
      the legal list as a last guard (``Game.CHECK_AGAINST_LEGAL_LIST``). This
      is sound because every game's checks refuse exactly what its legal list
      leaves out: a command the list does not hold is refused by its move's
      check (or by routing, when no pending decision takes it), so a recorded
      command the rules did not allow is still refused on replay. The
      conformance probes prove it for every game
      (``tests/unit/test_audit_decide_alone.py``); a game whose action space
      is too large to list never had the guard. The list is built only where
      a rule itself needs it: a clock's random default picks from it.
    """
    game.unchained = True
    game.CHECK_AGAINST_LEGAL_LIST = False
    if on_applied is not None:
        game.on_applied = on_applied
    return game


def replay_steps(records: Sequence[Record]) -> list[int]:
    """The indices in ``records`` of the re-executed steps after the creation:
    a recorded command, or a seat's entropy contribution; a step's events
    run up to the next step's."""
    return [i for i, rec in enumerate(records)
            if i and (rec.type == ENTROPY_EVENT
                      or (rec.meta is not None and rec.meta.get("cmd") is not None))]


def check_replay(
    records: Sequence[Record], game_class: type[Game], report: AuditReport, cut: bool = False,
    watch: ReplayWatch | None = None,
) -> int:
    """Rebuild from the creation event and play every recorded command again,
    each event compared with its record as soon as it is applied (so no event
    outlives its comparison, and ``watch`` sees the game at every version,
    inside a command's events too, while every event so far is as recorded).
    ``cut``: the records stop short of the game (at a damaged event), so the
    events a last command makes beyond them are not a failure.

    Returns how many records from the start were made exactly as recorded,
    the creation's counted (0: not even it was rebuilt): ``check_draws``
    derives none of their dice again."""
    created = records[0]
    try:
        if created.type != "Created" or created.payload.get("rules") != game_class.RULES_ID:
            raise ValueError("not this game's creation event")
        game = rebuild(created, game_class)
    except Exception as exc:  # a corrupt creation event cannot be rebuilt
        report.fail("replay", f"cannot rebuild from the creation event: {exc}", 1)
        return 0
    compared = Comparison(records[1:], game_class, watch)
    # The game keeps none of its events: each is compared as it is applied.
    re_executing(game, compared.applied)
    if watch is not None:
        watch.after(game, 1)
    game.begin()
    parsed = ParsedCommands(game_class)
    for index in range(1, len(records)):  # the steps (``replay_steps``), in one pass
        rec = records[index]
        step = rec.type == ENTROPY_EVENT or (rec.meta is not None
                                             and rec.meta.get("cmd") is not None)
        if step and not replay_step(game, rec, game_class, report, parsed):
            return 1 + compared.proven
    compared.conclude(report, cut)
    return 1 + compared.proven


class ParsedCommands:
    """A game's recorded commands, each distinct one parsed once per audit: a
    command is a frozen value, so one parse serves every record of it (a
    long game repeats a few dozen commands thousands of times). Keyed by
    name and ``marshal`` bytes of the arguments as recorded, which are equal
    only for arguments of the same types and values (``True`` and ``1``
    apart); a command that does not parse is refused each time."""

    def __init__(self, game_class: type[Game]) -> None:
        self.commands = game_class.COMMANDS
        self.parsed: dict[tuple[str, bytes], Any] = {}

    def parse(self, name: Any, args: Any) -> Any:
        try:
            key = (name, marshal.dumps(args, 2)) if type(name) is str else None
        except ValueError:  # a value marshal does not write: parsed as it is
            key = None
        found = self.parsed.get(key) if key is not None else None
        if found is None:
            found = self.commands.parse(name, args)
            if key is not None:
                self.parsed[key] = found
        return found


def replay_step(game: Game, rec: Record, game_class: type[Game], report: AuditReport,
                parsed: ParsedCommands | None = None) -> bool:
    """Re-execute the step ``rec`` starts on ``game``: its command, or a
    seat's contribution (no command, but the dice after it depend on it, so
    it is re-recorded where it was recorded). False, the failure reported,
    when the step is refused or cannot be replayed. ``parsed``: the
    commands parsed so far in this audit."""
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
            parse = (parsed or ParsedCommands(game_class)).parse
            game.act(command["seat"], parse(command["name"], command["args"]),
                     command.get("id", ""))
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
