"""Offline verification of a game's record: plain data in, a verdict out.

No server and no database: the records (from an exported file, or from a
``History`` read) are checked with the kernel's own proofs
(``aggregates.kernel.audit``): the hash chain, the seed against its
commitment, every die, and the re-execution of every command through the
rules that recorded the game. A record read before the end (a seat's or a
spectator's) lacks the seed and the hidden payloads: then only what can be
checked without them is, and the verdict says exactly what was not.
"""

from __future__ import annotations

import dataclasses
import datetime
import uuid
from collections.abc import Mapping, Sequence
from typing import Any

from aggregates.kernel.audit import (
    AuditReport,
    Record,
    added_entropy,
    check_chain,
    check_dice,
    check_links,
    check_replay,
    rebuild,
    upcast_record,
)
from aggregates.kernel.game import Game, _event_class


@dataclasses.dataclass
class Verdict:
    """What was checked, what could not be, and the first version that failed."""

    report: AuditReport
    checked: list[str] = dataclasses.field(default_factory=list)
    not_checked: list[str] = dataclasses.field(default_factory=list)
    complete: bool = False

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


def verify_records(
    header: Mapping[str, Any],
    records: Sequence[Record],
    games: Mapping[str, type[Game]],
    redacted: Sequence[bool] = (),
) -> Verdict:
    """Verify a game's records as far as they allow (see the module's doc)."""
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
    commitment = created.payload.get("commitment", "")
    if header.get("commitment") and header["commitment"] != commitment:
        report.fail("dice", "the header's seed commitment is not the recorded one", 1)
    last = records[-1]
    over = last.type == "Ended"
    if not is_full(records, redacted):
        _verify_partial(verdict, records, over)
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
    game_class = games.get(rules)
    if game_class is None:
        verdict.not_checked.append(
            f"re-execution: rules {rules!r} are not in this release")
    elif version != game_class.RULES_VERSION:
        verdict.not_checked.append(
            f"re-execution: recorded by {rules} {version}, this release has "
            f"{game_class.RULES_VERSION}")
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
    game = rebuild(records[0], game_class)
    for rec in records[1:]:
        if upto is not None and rec.version > upto:
            break
        rec = upcast_record(rec, game_class)  # an older release's record: the new shape
        event_class: Any = _event_class(game_class, rec.type)
        ev = event_class(
            originator_id=uuid.UUID(rec.game_id), originator_version=rec.version,
            timestamp=datetime.datetime.fromisoformat(rec.time), meta=dict(rec.meta or {}),
            **rec.payload,
        )
        ev.mutate(game)
    return game
