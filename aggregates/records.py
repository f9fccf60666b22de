"""A game's self-contained record: export it, read it back, verify it offline.

``arbiter export GAME > game.arbiter.jsonl`` writes one JSON object per line:
a header (the game, its rules and version, the seats, the seed commitment,
the seed once revealed, the head digest, who read it) and then every event as
the reader got it: version, global position, type, time, audience, payload,
digest, the previous digest, and the kernel's meta (the dice drawn with their
counters, the command that caused the event, the audience) when the reader
gets the full record -- anyone once the game is over, the admin always.

``arbiter verify FILE`` re-checks such a file with no server and no database
(``aggregates.kernel.record.verify``); ``arbiter verify GAME_ID`` does the same with
what the server's ``History`` returns; ``arbiter replay FILE`` steps through
it (``clients.replay``). Each line also keeps the event's sentence as its
reader got it (``text``). The sentences are outside the hash chain, so verify
re-tells each from its payload with the rules that recorded the game and fails
on any difference, and a replay shows the re-told sentence, never the file's;
every header field verify shows is checked against the events it heads.

Commands are re-executed by the rules version that recorded the game (the
catalogue's registry ``aggregates.catalog.RULES``); a version this release
does not hold is reported as not loadable, with the chain and dice checked.
"""

from __future__ import annotations

import datetime
import json
from collections.abc import Iterable, Iterator, Mapping
from typing import Any

from aggregates.catalog import RULES
from aggregates.kernel.record.audit import Record
from aggregates.kernel.record.signatures import check_commitment, check_signature
from aggregates.kernel.record.verify import Verdict, verify_records

#: The header's marker and the format's version.
MARKER = "arbiter_record"
FORMAT = 1
#: Stands in for an event line that does not parse, with its line number.
DAMAGED = "damaged_line"


class RecordError(Exception):
    """A file that is not an Arbiter record (or not one this release reads)."""


def event_line(ev: Any) -> dict[str, Any]:
    """One ``History`` event (``game_pb2.Event``) as a line of the record."""
    return {
        "version": ev.version,
        "position": ev.position,
        "type": ev.type,
        "time": ev.time.ToDatetime(tzinfo=datetime.UTC).isoformat(),
        "audience": {"everyone": ev.audience.everyone, "seats": list(ev.audience.seats)},
        "payload": json.loads(ev.payload_json or "{}"),
        "redacted": ev.redacted,
        "digest": ev.digest,
        "prev": ev.prev_digest,
        "meta": json.loads(ev.meta_json) if ev.meta_json else None,
        "text": ev.text,
    }


def header_of(state: Any, reader: str, lines: list[dict[str, Any]]) -> dict[str, Any]:
    """The header line, from the game's state (``game_pb2.GameState``) as read."""
    full = bool(lines) and all(line["meta"] is not None for line in lines)
    return {
        MARKER: FORMAT,
        "game_id": state.game_id,
        "rules": state.rules,
        "rules_version": state.rules_version,
        "seats": list(state.seats),
        "seed_commitment": state.seed_commitment,
        "seed": state.seed,
        "over": state.over,
        "outcome": json.loads(state.outcome_json or "{}") if state.over else None,
        "version": lines[-1]["version"] if lines else 0,
        "head": lines[-1]["digest"] if lines else "",
        "reader": "full record" if full else reader,
        "events": len(lines),
        "exported_at": datetime.datetime.now(datetime.UTC).isoformat(),
        "signature": signature_of(state),
    }


def signature_of(state: Any) -> dict[str, str] | None:
    """The server's signature over the head as read (``GameState.head_signature``)."""
    signed = state.head_signature
    if not signed.signature:
        return None
    return {"key_id": signed.key_id, "algorithm": signed.algorithm,
            "statement": signed.statement, "signature": signed.signature}


def export_lines(state: Any, events: Iterable[Any], reader: str) -> Iterator[str]:
    """The record's lines (without newlines): the header, then one per event."""
    lines = [event_line(ev) for ev in events]
    yield dumps(header_of(state, reader, lines))
    for line in lines:
        yield dumps(line)


def dumps(value: Any) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=True)


def read_record(text_lines: Iterable[str]) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """Parse a record file's lines into its header and its event lines."""
    header: dict[str, Any] | None = None
    lines: list[dict[str, Any]] = []
    for number, raw in enumerate(text_lines, start=1):
        if not raw.strip():
            continue
        try:
            value = json.loads(raw)
        except json.JSONDecodeError as exc:
            if header is None:
                raise RecordError(f"line {number} is not JSON: {exc}") from None
            value = {DAMAGED: number}  # an event line: named by its version (verify_lines)
        if not isinstance(value, dict):
            if header is None:
                raise RecordError(f"line {number} is not a JSON object")
            value = {DAMAGED: number}
        if header is None:
            if value.get(MARKER) != FORMAT:
                raise RecordError("the first line is not an Arbiter record header "
                                  f"({MARKER!r}: {FORMAT})")
            header = value
            continue
        lines.append(value)
    if header is None:
        raise RecordError("the file is empty")
    return header, lines


def records_of(header: dict[str, Any], lines: list[dict[str, Any]]) -> list[Record]:
    """Event lines as the kernel's plain records."""
    game_id = str(header.get("game_id", ""))
    out = []
    for number, line in enumerate(lines, start=2):
        try:
            meta = line.get("meta")
            out.append(Record(
                game_id=str(line.get("game_id", game_id)), version=int(line["version"]),
                type=str(line["type"]), time=str(line["time"]),
                payload=dict(line["payload"]), meta=None if meta is None else dict(meta),
                digest=str(line.get("digest", "")), prev=str(line.get("prev", "")),
            ))
        except (KeyError, TypeError, ValueError) as exc:
            raise RecordError(f"line {number} is not an event line: {exc!r}") from None
    return out


def verify_lines(
    header: dict[str, Any], lines: list[dict[str, Any]],
    keys: Mapping[str, bytes] | None = None, commitment: str = "",
    served: Mapping[str, bytes] | None = None,
) -> Verdict:
    """Verify a record's lines offline, with the rules version that recorded it
    (from this release's registry); with ``keys`` (id: raw public key) the
    server's signature over its head too, and with ``commitment`` the seed
    commitment handed out at creation (``aggregates.kernel.record.signatures``)."""
    lines, damaged = _until_damaged(header, lines)
    records = records_of(header, lines)
    redacted = [bool(line.get("redacted")) for line in lines]
    texts = [line.get("text") for line in lines]
    verdict = _failed_at(damaged, verify_records(header, records, RULES, redacted, texts))
    if records and not damaged[0]:
        check_signature(header, verdict, keys or {}, served)
    if commitment:
        recorded = str(records[0].payload.get("commitment", "")) if records else ""
        check_commitment(verdict, commitment, recorded)
    return verdict


def _until_damaged(
    header: dict[str, Any], lines: list[dict[str, Any]]
) -> tuple[list[dict[str, Any]], tuple[int, int]]:
    """(the event lines before the first that does not parse (not JSON, not an
    event), (the version due there, its line number)); (0, 0): none does.
    Such a line is damage at a version, verified up to it and failed there
    (issue 8, item 12), not a file refused whole as unreadable."""
    for index, line in enumerate(lines):
        try:
            if DAMAGED in line:
                raise RecordError("damaged")
            records_of(header, [line])
        except RecordError:
            version = int(lines[index - 1]["version"]) + 1 if index else 1
            number = line.get(DAMAGED)
            return lines[:index], (version, number if isinstance(number, int) else index + 2)
    return lines, (0, 0)


def _failed_at(damaged: tuple[int, int], verdict: Verdict) -> Verdict:
    """The verdict, failed at a damaged line's version (first among its problems)."""
    version, line_number = damaged
    if version:
        report = verdict.report
        report.fail("chain", f"version {version} (line {line_number}) is damaged: it does "
                    "not parse; nothing from it on is checked", version)
        report.problems.insert(0, report.problems.pop())
        verdict.complete = False
    return verdict


def _read_as(header: dict[str, Any], verdict: Verdict) -> str:
    """Who the record was read as, from what it holds (not from its header's
    word): the full record, or a seat's or spectator's part of it."""
    return "full record" if verdict.full else "part of the record (a seat's or a spectator's read)"


def render_verdict(header: dict[str, Any], verdict: Verdict) -> str:
    """The verdict for a person: what was checked, what was not, and the result."""
    report = verdict.report
    rules = verdict.rules or "?"
    version = verdict.rules_version or "?"
    out = [
        f"game {header.get('game_id', '?')} ({rules} {version}), {report.events} events, "
        f"read as: {_read_as(header, verdict)}",
        "checked:",
        *(f"  - {line}" for line in verdict.checked),
    ]
    if verdict.not_checked:
        out.append("not checked:")
        out.extend(f"  - {line}" for line in verdict.not_checked)
    for problem in report.problems:
        out.append(f"  problem: {problem}")
    if verdict.not_loadable:
        out.append(f"This game was {verdict.not_loadable}: its chain and dice are checked "
                   "above, its commands are not re-executed (this is not a failure).")
    if verdict.unsigned and verdict.ok:
        out.append(f"The server's signature was not checked: {verdict.unsigned}. The record "
                   "is whole, but not shown to be the one the server recorded.")
    if not verdict.ok:
        where = f" at version {verdict.first_failure}" if verdict.first_failure else ""
        out.append(f"Verification FAILED{where}")
    elif verdict.complete:
        out.append("Verification PASSED")
    else:
        out.append("Verification PASSED for what could be checked (see above)")
    return "\n".join(out)
