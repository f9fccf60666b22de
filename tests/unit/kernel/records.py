"""Records of games played in memory, as ``arbiter export`` would write them,
for tests of offline verification and replay that need no server: the full
record (what anyone reads once the game is over, or the admin before, the
seed left out until the end), or one reader's share of a game in progress
(payloads the reader may not see in their public form, no meta, no seed)."""

from __future__ import annotations

import random
from typing import Any

from aggregates.kernel import Game
from aggregates.kernel.game import recorded_audience
from aggregates.kernel.record.audit import Record, record_of
from aggregates.records import FORMAT, MARKER, dumps
from tests.unit.kernel.template_bot import step


def play(game_class: type[Game], seed: int, seats: int = 3, stop_at: int = 0
         ) -> tuple[Game, list[Record]]:
    """A game of random legal moves with a fixed seed, to its end (or past
    version ``stop_at``), and its records."""
    rnd = random.Random(seed)
    game = game_class.start([f"p{n}" for n in range(seats)], seed=f"{seed:02x}" * 32)
    events: list[Any] = list(game.collect_events())
    while not game.ended and not (stop_at and game.version >= stop_at):
        step(game, rnd)
        events.extend(game.collect_events())
    return game, [record_of(ev) for ev in events]


def record_lines(game: Game, records: list[Record], seat: int | None = None,
                 full: bool = True) -> list[str]:
    """The record's lines: the full record, or (``full=False``) as ``seat``
    (None: a spectator) reads it before the end."""
    cls = type(game)
    header = {
        MARKER: FORMAT, "game_id": str(game.id), "rules": game.RULES_ID,
        "rules_version": game.rules_version, "seats": list(game.seats),
        "seed_commitment": game.commitment, "seed": game.seed if game.ended else "",
        "over": game.ended, "version": records[-1].version, "head": records[-1].digest,
        "reader": "full record" if full else ("spectator" if seat is None else f"seat {seat}"),
        "events": len(records),
    }
    lines = [dumps(header)]
    for rec in records:
        audience, public = recorded_audience(cls, rec.type, rec.payload, rec.meta or {})
        hidden = not full and not audience.includes(seat)
        payload = public if hidden else rec.payload
        if rec.type == "Created" and not game.ended:  # the seed stays secret until the end
            payload = {k: v for k, v in payload.items() if k != "seed"}
            hidden = True
        lines.append(dumps({
            "version": rec.version, "position": 0, "type": rec.type, "time": rec.time,
            "audience": {"everyone": audience.everyone, "seats": sorted(audience.seats or ())},
            "payload": payload, "redacted": hidden, "digest": rec.digest, "prev": rec.prev,
            "meta": rec.meta if full else None,
            "text": cls.describe(rec.type, payload, list(game.seats)),
        }))
    return lines
