"""Offline verification of a game's record: plain data in, a verdict out.

No server and no database: the records (from an exported file, or from a
``History`` read) are checked with the kernel's own proofs
(``aggregates.kernel.record.audit``): the hash chain, the seed against its
commitment, every die, and the re-execution of every command through the
rules that recorded the game. A record read before the end (a seat's or a
spectator's) lacks the seed and the hidden payloads: then only what can be
checked without them is, and the verdict says exactly what was not.

Every event's sentence (``text``: the game's words for it, as the server
wrote them when the record was read) is re-told from its payload by the same
rules and must be the recorded one: the sentences are outside the hash chain,
so a sentence that is not its payload's is a forgery, named by its version.
The header is the reader's summary: each field shown (the game, its rules and
version, its seats, its head, ...) must be what the events record.

Re-execution uses the rules *version* that recorded the game, looked up in a
registry keyed by (rules id, rules version) (``aggregates.catalog.RULES``): a
newer version may decide differently, and a game must not "fail" because the
rules changed after it was played. A version the registry does not hold is
reported as not loadable by this release (``Verdict.not_loadable``), never as
a failure: the chain and the dice, which need no rules, are still checked.
"""

from __future__ import annotations

import dataclasses
import datetime
import uuid
from collections.abc import Iterable, Iterator, Mapping, Sequence
from typing import Any

from aggregates.kernel.game import ENTROPY_EVENT, Game
from aggregates.kernel.outcome import breakdown_of
from aggregates.kernel.record import upcast
from aggregates.kernel.record.audit import (
    AuditReport,
    Record,
    added_entropy,
    audit_records,
    check_chain,
    check_dice,
    check_links,
    check_replay,
    rebuild,
    upcast_record,
)


@dataclasses.dataclass
class Verdict:
    """What was checked, what could not be, and the first version that failed."""

    report: AuditReport
    checked: list[str] = dataclasses.field(default_factory=list)
    not_checked: list[str] = dataclasses.field(default_factory=list)
    complete: bool = False
    #: Why the commands were not re-executed: the record's rules version is not
    #: loadable by this release ("" when it is). Not a failure.
    not_loadable: str = ""
    #: Why the server's signature over the head was not checked ("" when it
    #: was, or failed): the record is whole, but not shown to be the server's.
    unsigned: str = ""
    #: The rules and version the creation event records (what re-executed it).
    rules: str = ""
    rules_version: str = ""
    #: Whether the record is the full one (every meta, the seed, no redaction).
    full: bool = False

    @property
    def ok(self) -> bool:
        return self.report.ok and self.report.events > 0

    @property
    def first_failure(self) -> int:
        return self.report.first_failure


def is_full(records: Sequence[Record], redacted: Sequence[bool] = ()) -> bool:
    """Whether a record carries everything re-verification needs: every
    event's meta, no redacted payload, and the revealed seed."""
    return bool(records) and all(r.meta is not None for r in records) and not any(
        redacted
    ) and bool(records[0].payload.get("seed"))


def loadable(games: Mapping[Any, type[Game]], rules: str, version: str) -> type[Game] | None:
    """The class that recorded ``rules`` at ``version`` in ``games``: a registry
    keyed by (rules id, rules version), or a catalogue by rules id alone (whose
    one class counts only for its own version). None: not loadable."""
    cls = games.get((rules, version))
    if cls is None:
        served = games.get(rules)
        cls = served if served is not None and version == served.RULES_VERSION else None
    return cls


def known_versions(games: Mapping[Any, type[Game]], rules: str) -> list[str]:
    """The versions of ``rules`` that ``games`` can load: read off a registry's
    keys (so none of its classes is loaded for it), or a catalogue's classes."""
    found: set[str] = set()
    for key in games:
        if isinstance(key, tuple):
            if key[0] == rules:
                found.add(str(key[1]))
        elif key == rules:
            found.add(games[key].RULES_VERSION)
    return sorted(found, key=version_order)


def version_order(version: str) -> tuple[tuple[int, int | str], ...]:
    """A sort key where ``1.10`` follows ``1.9`` and ``2`` follows ``1.0.0``:
    numbers compare as numbers, words as words (after numbers)."""
    parts = version.replace("-", ".").replace("+", ".").split(".")
    return tuple((0, int(p)) if p.isdigit() else (1, p) for p in parts if p)


def not_loadable_sentence(rules: str, version: str, versions: Iterable[str] = ()) -> str:
    """The one sentence for a record this release cannot re-execute: which rules
    recorded it, and which versions of them this release does load."""
    have = list(versions)
    loads = (f"it loads {rules} " + ", ".join(f"v{v}" for v in have)) if have else (
        f"it has no rules {rules!r}")
    return f"recorded by rules {rules} v{version}, not loadable by this release ({loads})"


#: How an audit's problems list carries a remark that is not a failure.
NOTE = "note: "


def audit_by_version(
    records: Sequence[Record], games: Mapping[Any, type[Game]], damaged: int = 0
) -> AuditReport:
    """The three proofs with the rules version that recorded the game; for a
    version ``games`` cannot load, the chain and the dice only, and a ``NOTE``
    (not a failure) saying the commands were not re-executed and why.
    ``damaged``: the version of a stored event whose bytes do not parse, after
    ``records`` (``audit_records``)."""
    created = records[0].payload if records else {}
    rules = str(created.get("rules", ""))
    version = str(created.get("rules_version", ""))
    game_class = loadable(games, rules, version)
    if game_class is not None or not records:
        return audit_records(records, game_class or Game, damaged)
    report = AuditReport(events=len(records))
    if damaged:
        report.fail("chain", f"version {damaged} is damaged: its stored bytes do not "
                    "parse; nothing from it on is checked", damaged)
    seed = str(created.get("seed", ""))
    check_dice(records, seed, report)
    check_chain(records, seed, report)
    sentence = not_loadable_sentence(rules, version, known_versions(games, rules))
    report.problems.append(f"{NOTE}{sentence}: the chain and the dice were checked, "
                           "the commands were not re-executed (not a failure)")
    return report


def event_sentence(game_class: type[Game], kind: str, payload: Mapping[str, Any],
                   seats: Sequence[str]) -> str:
    """An event in its game's words, as the server tells it (``Event.text``):
    the kernel's entropy event alike in every game, and the event's type when
    the rules' wording fails (a wording bug never fails a read)."""
    try:
        if kind == ENTROPY_EVENT:
            return Game.describe(kind, payload, list(seats))
        return game_class.describe(kind, payload, list(seats))
    except Exception:  # noqa: BLE001 - the server answers the type alike
        return kind


def check_sentences(records: Sequence[Record], texts: Sequence[Any], game_class: type[Game],
                    seats: Sequence[str], report: AuditReport) -> int:
    """Each recorded sentence against the one its payload tells (``None``: a
    line without a sentence, nothing to check); the number checked."""
    checked = 0
    for rec, text in zip(records, texts, strict=False):
        if text is None:
            continue
        checked += 1
        told = event_sentence(game_class, rec.type, rec.payload, seats)
        if text != told:
            report.fail("replay", f"version {rec.version}: its sentence "
                        f"{_clip(text)} is not what its payload tells ({_clip(told)})",
                        rec.version)
    return checked


def _clip(text: Any, width: int = 60) -> str:
    """A sentence quoted for a problem line, cut to ``width`` characters."""
    words = str(text)
    return repr(words if len(words) <= width else words[:width - 3] + "...")


def verify_records(
    header: Mapping[str, Any],
    records: Sequence[Record],
    games: Mapping[Any, type[Game]],
    redacted: Sequence[bool] = (),
    texts: Sequence[Any] = (),
) -> Verdict:
    """Verify a game's records as far as they allow (see the module's doc);
    ``games`` is a registry by (rules id, version) or a catalogue by rules id;
    ``texts``: each record's sentence as the reader got it (``None``: none)."""
    report = AuditReport(events=len(records))
    verdict = Verdict(report)
    if not records:
        report.fail("chain", "the record has no events", 1)
        return verdict
    game_id = str(header.get("game_id") or records[0].game_id)
    for rec in records:
        if rec.game_id != game_id:
            report.fail("chain", f"version {rec.version} belongs to another game", rec.version)
    created = records[0]
    if created.type != "Created":
        report.fail("chain", "the record does not start with the creation event", created.version)
    commitment = str(created.payload.get("commitment", ""))
    last = records[-1]
    over = last.type == "Ended"
    verdict.rules = str(created.payload.get("rules", ""))
    verdict.rules_version = str(created.payload.get("rules_version", ""))
    check_header(header, records, report)
    _verify_sentences(verdict, records, texts, games)
    verdict.full = is_full(records, redacted)
    if not verdict.full:
        _verify_partial(verdict, records, over)
        if over or header.get("over"):
            # A finished game's record is everyone's in full (the seed is
            # revealed): one without its seed or dice cannot show its outcome
            # was played, and an edited outcome would pass as "unchecked".
            report.fail("dice", "the record says the game ended but lacks the revealed "
                        "seed, the dice records or hidden payloads, so the outcome cannot "
                        "be checked: a finished game's record is public in full", 1)
        return verdict
    seed = str(created.payload.get("seed", ""))
    if header.get("seed") and header["seed"] != seed:
        report.fail("dice", "the header's seed is not the recorded one", 1)
    check_dice(records, seed, report)
    verdict.checked.append(
        f"the seed against its commitment {commitment[:16]}..., and {report.dice} dice "
        "re-derived from the seed with no counter skipped")
    # Dice nobody chose: the contributions the dice were mixed with (none: the seed alone).
    mixed = sum(len(added_entropy(r.type, r.payload)) for r in records)
    if mixed:
        verdict.checked.append(
            f"{mixed} entropy contributions mixed into the dice from where each is recorded")
    if over and last.payload.get("seed") not in (None, seed):
        report.fail("dice", f"version {last.version} reveals another seed", last.version)
    check_chain(records, seed, report)
    verdict.checked.append(
        f"the hash chain: versions 1-{last.version} without a gap, every digest "
        "recomputed with its seed-derived salt and linked to the one before")
    rules = str(created.payload.get("rules", ""))
    version = str(created.payload.get("rules_version", ""))
    game_class = loadable(games, rules, version)
    if game_class is None:
        verdict.not_loadable = not_loadable_sentence(
            rules, version, known_versions(games, rules))
        verdict.not_checked.append(f"re-execution of the commands: {verdict.not_loadable}")
    else:
        check_replay(records, game_class, report)
        verdict.checked.append(
            f"{report.commands} commands re-executed through {rules} {version}: "
            "the recorded events follow, and only they")
    if not over:
        verdict.not_checked.append(
            f"the rest of the game: it was not over when read (the record ends at "
            f"version {last.version})")
    verdict.complete = over and not verdict.not_checked
    return verdict


def _verify_sentences(verdict: Verdict, records: Sequence[Record], texts: Sequence[Any],
                      games: Mapping[Any, type[Game]]) -> None:
    """The sentences against their payloads (``check_sentences``), with the
    rules version that recorded the game; said to be unchecked without it."""
    if not any(text is not None for text in texts):
        return
    created = records[0].payload
    game_class = loadable(games, verdict.rules, verdict.rules_version)
    if game_class is None:
        verdict.not_checked.append(
            "the events' sentences: only the rules that recorded the game tell them, and "
            "this release cannot load those (a replay shows the payloads instead)")
        return
    seats = [str(seat) for seat in created.get("seats") or []]
    told = check_sentences(records, texts, game_class, seats, verdict.report)
    verdict.checked.append(
        f"{told} event sentences, each re-told from its payload by {verdict.rules} "
        f"{verdict.rules_version}")


#: Header fields that name what the creation event records, checked against it.
CREATED_FIELDS = ("rules", "rules_version", "seats")


def check_header(header: Mapping[str, Any], records: Sequence[Record], report: AuditReport) -> None:
    """The header against the events it heads: the rules, their version and
    the seats, the seed commitment, the head, the version, the number of events
    and the outcome it states are the ones the events record. A header is the
    reader's summary, and a record relabelled with another game's header is
    caught here (its events carry their own commitment)."""
    created, last = records[0], records[-1]
    for field in CREATED_FIELDS:
        stated, recorded = header.get(field), created.payload.get(field)
        if stated is not None and recorded is not None and stated != recorded:
            report.fail("chain", f"the header gives {field.replace('_', ' ')} {stated!r}, "
                        f"the creation event records {recorded!r}", created.version)
    counted = header.get("events")
    if isinstance(counted, int) and not isinstance(counted, bool) and counted != len(records):
        report.fail("chain", f"the header says {counted} events, the record holds "
                    f"{len(records)}", min(counted, len(records)) + 1)
    recorded = str(created.payload.get("commitment", ""))
    stated = header.get("seed_commitment", header.get("commitment"))
    if stated and stated != recorded:
        report.fail("dice", f"the header's seed commitment {str(stated)[:16]}... is not the "
                    f"one the creation event records ({recorded[:16]}...): the events are "
                    "another game's", 1)
    version = header.get("version")
    # Events missing at the end: the first one missing is where the record fails.
    short = isinstance(version, int) and version > last.version
    at = last.version + 1 if short else last.version
    if header.get("head") and header["head"] != last.digest:
        report.fail("chain", f"the header's head digest {str(header['head'])[:16]}... is not "
                    f"the last event's ({last.digest[:16]}...)", at)
    if isinstance(version, int) and version and version != last.version:
        report.fail("chain", f"the header says version {version}, the events end at "
                    f"{last.version}", min(version, last.version + 1))
    if header.get("over") and last.type != "Ended":
        report.fail("chain", "the header says the game ended, but its last event "
                    f"(version {last.version}) is not the end", at)
    stated_outcome = header.get("outcome")
    if last.type == "Ended" and isinstance(stated_outcome, Mapping) and "outcome" in last.payload \
            and breakdown_of(stated_outcome) != last.payload["outcome"]:
        report.fail("replay", "the header's outcome is not the one the last event records",
                    last.version)


def _verify_partial(verdict: Verdict, records: Sequence[Record], over: bool) -> None:
    """A record without the seed (a game read before its end, or redacted)."""
    check_links(records, verdict.report)
    last = records[-1].version
    verdict.checked.append(
        f"the chain's links: versions 1-{last} without a gap, each naming the "
        "digest of the one before")
    commitment = records[0].payload.get("commitment", "")
    if commitment:
        verdict.checked.append(f"the seed commitment is on record: {commitment}")
    verdict.not_checked.extend([
        "the digests themselves: each is salted with the secret seed, so they can be "
        "recomputed only once the seed is revealed",
        "the dice: checkable against the seed and its commitment at the end",
        "re-execution of the commands: needs the seed and every hidden payload",
    ])
    if not over:
        verdict.not_checked.append(
            f"the rest of the game: it was not over when read (the record ends at "
            f"version {last})")


def fold(records: Sequence[Record], game_class: type[Game], upto: int | None = None) -> Game:
    """The game as its full records make it after version ``upto`` (default:
    the last), folded event by event with the rules' own ``@event`` bodies."""
    for game in folding(records, game_class):  # noqa: B007 - the last one is returned
        if upto is not None and game.version >= upto:
            break
    return game


def folding(records: Sequence[Record], game_class: type[Game]) -> Iterator[Game]:
    """The game after each version in turn (one object, evolved in place), so a
    replay steps forward through a long game without folding it again from the
    start at each step."""
    game = rebuild(records[0], game_class)
    yield game
    for rec in records[1:]:
        rec = upcast_record(rec, game_class)  # an older release's record: the new shape
        ev = upcast.event_of(
            game_class, rec.type, rec.meta or {},
            originator_id=uuid.UUID(rec.game_id), originator_version=rec.version,
            timestamp=datetime.datetime.fromisoformat(rec.time), **rec.payload,
        )
        ev.mutate(game)
        yield game
